import { z } from 'zod';
import type { JsonObject } from '../core/json.js';
import type { RetryPolicy, Transport } from './http.js';
import { asRaw, idOf, isObject, recordOf, text } from './parse.js';
import { IdSchema, ListQuerySchema, siteOf, TitleSchema, validateRequest } from './schemas.js';
import { type ExtraSite, readInfo, readList } from './support.js';
import type { Answer, ListQuery, Page, Playlist, PlaylistEntry, SupportMemory } from './types.js';

/**
 * Playlists: operations 11 (PUT edit) and 12 (delete), and the extras create, `all` and info.
 * @see docs/api.md, "Playlist"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

const PATH = '/v1/playlist';
const EDIT = siteOf('playlist.edit');
const DELETE = siteOf('playlist.delete');
const CREATE = siteOf('playlist.create');
const LIST: ExtraSite = { operation: 'playlist.list', method: 'GET', path: `${PATH}/all` };
const INFO: ExtraSite = { operation: 'playlist.info', method: 'GET', path: PATH };

export const PlaylistEntrySchema = z.strictObject({
  _id: IdSchema,
  title: z.string({ message: 'must be text' }).optional(),
});

/** Body of op 11. The spec disagrees on whether the title is required; it is sent when given. */
export const PlaylistEditSchema = z.strictObject({
  playlistId: IdSchema,
  title: TitleSchema.optional(),
  files: z.array(PlaylistEntrySchema).optional(),
});

export const PlaylistIdSchema = z.strictObject({ playlistId: IdSchema });

export const PlaylistCreateSchema = z.strictObject({ title: TitleSchema });

function parseEntry(value: unknown): PlaylistEntry | null {
  if (typeof value === 'string') return { _id: value };
  if (!isObject(value)) return null;
  const id = idOf(value, 'fileId');
  if (id === null) return null;
  const title = text(value, 'title');
  return title === null ? { _id: id } : { _id: id, title };
}

/** A playlist record; `fallbackId` stands in when the answer carries no ID. */
export function parsePlaylist(record: JsonObject, fallbackId = ''): Playlist {
  const files = Array.isArray(record.files) ? record.files : [];
  return {
    id: idOf(record, 'playlistId') ?? fallbackId,
    title: text(record, 'title', 'name'),
    files: files.map(parseEntry).filter((e): e is PlaylistEntry => e !== null),
    raw: record,
  };
}

export function createPlaylistsResource(transport: Transport, retry: RetryPolicy, support: SupportMemory) {
  const extras = { transport, memory: support, retry };
  return {
    /** op 11 */
    async edit(input: { playlistId: string; title?: string; files?: PlaylistEntry[] }): Promise<Playlist> {
      const json = validateRequest(PlaylistEditSchema, input, EDIT);
      // PUT of the same playlist twice leaves it the same: retried like the other idempotent calls.
      const body = await transport.request({ ...EDIT, json, retry });
      return parsePlaylist(recordOf(body), json.playlistId);
    },
    /** op 12 */
    async delete(input: { playlistId: string }): Promise<Answer> {
      const json = validateRequest(PlaylistIdSchema, input, DELETE);
      // Repeated only when it never reached the service: a repeat after a lost answer reads 404.
      const body = await transport.request({ ...DELETE, json, retry });
      return { raw: asRaw(body) };
    },
    /** extra: POST /v1/playlist */
    async create(input: { title: string }): Promise<Playlist> {
      const json = validateRequest(PlaylistCreateSchema, input, CREATE);
      // A repeat after a lost answer would create a second playlist.
      const body = await transport.request({
        ...CREATE,
        json,
        retry,
        optional: true,
      });
      return parsePlaylist(recordOf(body));
    },
    /** extra: GET /v1/playlist/all */
    async list(query: ListQuery = {}): Promise<Page<Playlist>> {
      const q = validateRequest(ListQuerySchema, query, LIST);
      return readList(extras, LIST, q, 'a list of playlists', parsePlaylist);
    },
    /** extra: GET /v1/playlist */
    async info(playlistId: string): Promise<Playlist> {
      const { playlistId: id } = validateRequest(PlaylistIdSchema, { playlistId }, INFO);
      return readInfo(extras, INFO, 'playlistId', id, 'a playlist', parsePlaylist);
    },
  };
}
