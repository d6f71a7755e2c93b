import { InputError } from '../../core/errors.js';
import { type Said, say } from '../../core/said.js';
import { lookUpRecord, serviceOf } from '../common/service.js';
import { spec } from './spec.js';

/** Refused when the file is converted already or waiting in the queue. */
export const service = serviceOf(spec, {
  async prepare(input, io) {
    const warnings: Said[] = [];
    const { fileId } = input;
    const file = await lookUpRecord('file', fileId, () => io.client.files.info(fileId), warnings);
    if (file?.hlsStatus === 'done') throw new InputError(say.prepConverted(fileId, file.title || null));
    if (file?.hlsStatus === 'waiting') throw new InputError(say.prepQueued(fileId, file.title || null));
    return {
      params: { fileId },
      preview: {
        kind: 'retry',
        resource: 'file',
        id: fileId,
        title: file?.title ?? null,
        hlsStatus: file?.hlsStatus ?? null,
      },
      warnings,
    };
  },
  execute: (p, { client }) => client.files.retryConversion(p),
});
