import type { Folder } from '../../client/types.js';
import { InputError } from '../../core/errors.js';
import { type Said, say } from '../../core/said.js';
import { lookUpRecord, recordInverse, recordUndo, serviceOf, withDescription } from '../common/service.js';
import { spec } from './spec.js';

function folderView(folder: Folder | null) {
  return folder === null ? null : { title: folder.title, description: folder.description };
}

export const service = serviceOf(spec, {
  async prepare(input, io) {
    const warnings: Said[] = [];
    const { bucketId } = input;
    const folder = await lookUpRecord('folder', bucketId, () => io.client.folders.info(bucketId), warnings);
    const params = { bucketId, title: input.title, ...withDescription(input.description) };
    if (folder && folder.title === params.title && (folder.description || undefined) === params.description) {
      throw new InputError(say.prepFolderSame(bucketId));
    }
    return {
      params,
      preview: {
        kind: 'edit',
        resource: 'folder',
        id: bucketId,
        before: folderView(folder),
        after: { title: params.title, description: params.description ?? null },
      },
      warnings,
    };
  },
  execute: (p, { client }) => client.folders.edit(p),
  undo: async (p, preview) => recordUndo('folder', p.bucketId, preview, p),
  inverse: async (undo) =>
    recordInverse(spec, undo, (before, bucketId) => ({
      bucketId,
      title: before.title,
      ...(typeof before.description === 'string' ? { description: before.description } : {}),
    })),
});
