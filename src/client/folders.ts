import { z } from 'zod';
import type { JsonObject } from '../core/json.js';
import type { RetryPolicy, Transport } from './http.js';
import { asRaw, idOf, num, recordOf, text } from './parse.js';
import {
  DescriptionSchema,
  IdSchema,
  ListQuerySchema,
  siteOf,
  TitleSchema,
  validateRequest,
} from './schemas.js';
import { type ExtraSite, readInfo, readList } from './support.js';
import type { Answer, Folder, ListQuery, Page, SupportMemory } from './types.js';

/**
 * Folders (buckets): operations 5, 6, 7 and the read-only extras `bucket/all` and `bucket/info`.
 * @see docs/api.md, "Folder (bucket)"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

const PATH = '/v1/storage/bucket';
const CREATE = siteOf('folder.create');
const EDIT = siteOf('folder.edit');
const DELETE = siteOf('folder.delete');
const LIST: ExtraSite = { operation: 'folder.list', method: 'GET', path: `${PATH}/all` };
const INFO: ExtraSite = { operation: 'folder.info', method: 'GET', path: `${PATH}/info` };

export const FolderCreateSchema = z.strictObject({
  title: TitleSchema,
  description: DescriptionSchema.optional(),
});

export const FolderEditSchema = z.strictObject({
  bucketId: IdSchema,
  title: TitleSchema,
  description: DescriptionSchema.optional(),
});

export const FolderIdSchema = z.strictObject({ bucketId: IdSchema });

/**
 * A folder record. `fallbackId` stands in when the answer carries no ID (an edit answered with
 * a bare message); an empty ID means the service did not say which folder it created.
 */
export function parseFolder(record: JsonObject, fallbackId = ''): Folder {
  const files = record.files;
  return {
    id: idOf(record, 'bucketId') ?? fallbackId,
    title: text(record, 'title', 'name'),
    description: text(record, 'description'),
    filesCount:
      num(record, 'filesCount', 'fileCount', 'filesLength', 'countOfFiles') ??
      (Array.isArray(files) ? files.length : null),
    raw: record,
  };
}

export function createFoldersResource(transport: Transport, retry: RetryPolicy, support: SupportMemory) {
  const extras = { transport, memory: support, retry };
  return {
    /** op 5 (never retried) */
    async create(input: { title: string; description?: string }): Promise<Folder> {
      const json = validateRequest(FolderCreateSchema, input, CREATE);
      // A repeat after a lost answer would create a second folder.
      const body = await transport.request({ ...CREATE, json, retry });
      return parseFolder(recordOf(body));
    },
    /** op 6 */
    async edit(input: { bucketId: string; title: string; description?: string }): Promise<Folder> {
      const json = validateRequest(FolderEditSchema, input, EDIT);
      const body = await transport.request({ ...EDIT, json, retry });
      return parseFolder(recordOf(body), json.bucketId);
    },
    /** op 7 */
    async delete(input: { bucketId: string }): Promise<Answer> {
      const json = validateRequest(FolderIdSchema, input, DELETE);
      // Repeated only when it never reached the service: a repeat after a lost answer reads 404.
      const body = await transport.request({ ...DELETE, json, retry });
      return { raw: asRaw(body) };
    },
    /** extra: GET /v1/storage/bucket/all */
    async list(query: ListQuery = {}): Promise<Page<Folder>> {
      const q = validateRequest(ListQuerySchema, query, LIST);
      return readList(extras, LIST, q, 'a list of folders', parseFolder);
    },
    /** extra: GET /v1/storage/bucket/info */
    async info(bucketId: string): Promise<Folder> {
      const { bucketId: id } = validateRequest(FolderIdSchema, { bucketId }, INFO);
      return readInfo(extras, INFO, 'bucketId', id, 'a folder', parseFolder);
    },
  };
}
