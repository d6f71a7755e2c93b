import type { Said } from '../../core/said.js';
import { lookUpRecord, serviceOf } from '../common/service.js';
import { spec } from './spec.js';

export const service = serviceOf(spec, {
  async prepare(input, io) {
    const warnings: Said[] = [];
    const { playlistId } = input;
    const playlist = await lookUpRecord(
      'playlist',
      playlistId,
      () => io.client.playlists.info(playlistId),
      warnings,
    );
    return {
      params: { playlistId },
      preview: {
        kind: 'delete',
        resource: 'playlist',
        id: playlistId,
        title: playlist?.title ?? null,
        filesCount: playlist ? playlist.files.length : null,
      },
      warnings,
    };
  },
  execute: (p, { client }) => client.playlists.delete(p),
  lookUp: (p, client) => client.playlists.info(p.playlistId),
});
