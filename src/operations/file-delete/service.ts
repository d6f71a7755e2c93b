import type { Said } from '../../core/said.js';
import { lookUpRecord, serviceOf } from '../common/service.js';
import { spec } from './spec.js';

export const service = serviceOf(spec, {
  async prepare(input, io) {
    const warnings: Said[] = [];
    const { fileId } = input;
    const file = await lookUpRecord('file', fileId, () => io.client.files.info(fileId), warnings);
    return {
      params: { fileId },
      preview: {
        kind: 'delete',
        resource: 'file',
        id: fileId,
        title: file?.title ?? null,
        bucketId: file?.bucketId ?? null,
      },
      warnings,
    };
  },
  execute: (p, { client }) => client.files.delete(p),
  lookUp: (p, client) => client.files.info(p.fileId),
});
