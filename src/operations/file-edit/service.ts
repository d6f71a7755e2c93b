import type { VideoFile } from '../../client/types.js';
import { InputError } from '../../core/errors.js';
import { type Said, say } from '../../core/said.js';
import { lookUpRecord, recordInverse, recordUndo, serviceOf, withDescription } from '../common/service.js';
import { spec } from './spec.js';

function fileView(file: VideoFile | null) {
  return file === null
    ? null
    : {
        title: file.title,
        description: file.description,
        bucketId: file.bucketId,
        hlsStatus: file.hlsStatus,
      };
}

/** A cover image is named at prepare and downloaded only at execution. */
export const service = serviceOf(spec, {
  async prepare(input, io) {
    const warnings: Said[] = [];
    const { fileId, cover } = input;
    if (cover && !io.canFetchCover) throw new InputError(say.prepNoCover());
    const file = await lookUpRecord('file', fileId, () => io.client.files.info(fileId), warnings);
    const params = {
      fileId,
      title: input.title,
      ...withDescription(input.description),
      ...(cover ? { cover: { ...cover } } : {}),
    };
    return {
      params,
      preview: {
        kind: 'edit',
        resource: 'file',
        id: fileId,
        before: fileView(file),
        after: {
          title: params.title,
          description: params.description ?? null,
          cover: params.cover?.filename ?? null,
        },
      },
      warnings,
    };
  },
  async execute({ cover, ...p }, { client, fetchCover }) {
    if (cover === undefined) return client.files.edit(p);
    if (!fetchCover) {
      throw new InputError(say.execNoCover());
    }
    const data = await fetchCover(cover);
    return client.files.edit({
      ...p,
      cover: { data, filename: cover.filename, contentType: cover.contentType },
    });
  },
  /** Title and description; a cover sent is not taken back (the old image was never read). */
  undo: async (p, preview) => recordUndo('file', p.fileId, preview, p),
  inverse: async (undo) =>
    recordInverse(spec, undo, (before, fileId) => ({
      fileId,
      title: before.title,
      ...(typeof before.description === 'string' ? { description: before.description } : {}),
    })),
});
