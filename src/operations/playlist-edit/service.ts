import { failureOf, NotFoundError } from '../../client/errors.js';
import type { VideoClient } from '../../client/types.js';
import { InputError } from '../../core/errors.js';
import { type Said, say } from '../../core/said.js';
import { entries, lookUpRecord, noteId, recordInverse, recordUndo, serviceOf } from '../common/service.js';
import { spec } from './spec.js';

/**
 * Before a playlist edit: each listed file is looked up, one after the other. Files the service
 * says do not exist (possible only once file info is known to work) refuse the edit, all named;
 * the first look-up that fails otherwise stops the check with a warning, and the edit goes on.
 */
async function checkFilesExist(
  client: VideoClient,
  files: readonly { _id: string }[],
  warnings: Said[],
): Promise<void> {
  const ids = [...new Set(files.map((f) => f._id))];
  const missing: string[] = [];
  for (const [index, id] of ids.entries()) {
    try {
      await client.files.info(id);
    } catch (error) {
      if (error instanceof NotFoundError) {
        missing.push(id);
        continue;
      }
      const unchecked = ids.slice(index);
      warnings.push(
        say.warnFilesUnchecked(unchecked.length === ids.length ? null : unchecked, failureOf(error)),
      );
      break;
    }
  }
  if (missing.length > 0) {
    throw new InputError(
      say.prepFilesMissing(missing),
      missing.map((id) => `file ${id} does not exist`),
    );
  }
}

export const service = serviceOf(spec, {
  async prepare(input, io) {
    const warnings: Said[] = [];
    const { playlistId, title } = input;
    const playlist = await lookUpRecord(
      'playlist',
      playlistId,
      () => io.client.playlists.info(playlistId),
      warnings,
    );
    const files = input.files === undefined ? undefined : entries(input.files);
    if (title === undefined && files === undefined) throw new InputError(say.prepPlaylistNothing());
    for (const file of files ?? []) noteId(file._id, 'file', warnings);
    if (files !== undefined) await checkFilesExist(io.client, files, warnings);
    return {
      params: {
        playlistId,
        ...(title === undefined ? {} : { title }),
        ...(files === undefined ? {} : { files }),
      },
      preview: {
        kind: 'edit',
        resource: 'playlist',
        id: playlistId,
        before: playlist === null ? null : { title: playlist.title, files: entries(playlist.files) },
        after: { title: title ?? null, files: files ?? null },
      },
      warnings,
    };
  },
  execute: (p, { client }) => client.playlists.edit(p),
  undo: async (p, preview) => recordUndo('playlist', p.playlistId, preview, p),
  /** The title and the files as they were, each only where the edit changed it. */
  inverse: async (undo) =>
    recordInverse(spec, undo, (before, playlistId) => {
      const after = typeof undo.kind === 'string' && undo.kind === 'record' ? undo.after : null;
      const sent = typeof after === 'object' && after !== null && !Array.isArray(after) ? after : {};
      return {
        playlistId,
        ...(sent.title === null || sent.title === undefined ? {} : { title: before.title }),
        ...(sent.files === null || sent.files === undefined ? {} : { files: before.files }),
      };
    }),
});
