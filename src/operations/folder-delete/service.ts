import { failureOf } from '../../client/errors.js';
import type { VideoClient } from '../../client/types.js';
import { type Said, say } from '../../core/said.js';
import { lookUpRecord, serviceOf } from '../common/service.js';
import { spec } from './spec.js';

/** How many files a folder holds, when its info does not say; null (and a warning) when the list fails too. */
async function countFiles(client: VideoClient, bucketId: string, warnings: Said[]): Promise<number | null> {
  try {
    const page = await client.files.list({ bucketId, limit: 1 });
    return page.total;
  } catch (error) {
    warnings.push(say.warnCountFiles(bucketId, failureOf(error)));
    return null;
  }
}

export const service = serviceOf(spec, {
  async prepare(input, io) {
    const warnings: Said[] = [];
    const { bucketId } = input;
    const folder = await lookUpRecord('folder', bucketId, () => io.client.folders.info(bucketId), warnings);
    let filesCount = folder?.filesCount ?? null;
    if (folder && filesCount === null) filesCount = await countFiles(io.client, bucketId, warnings);
    if (filesCount !== null && filesCount > 0) {
      warnings.push(say.warnFolderFiles(bucketId, folder?.title || null, filesCount));
    }
    return {
      params: { bucketId },
      preview: { kind: 'delete', resource: 'folder', id: bucketId, title: folder?.title ?? null, filesCount },
      warnings,
    };
  },
  execute: (p, { client }) => client.folders.delete(p),
  lookUp: (p, client) => client.folders.info(p.bucketId),
});
