import { NotFoundError, NotSupportedError } from '../../client/errors.js';
import { serviceOf } from '../common/service.js';
import { spec } from './spec.js';

export const service = serviceOf(spec, {
  prepare: async (input) => ({
    params: { title: input.title },
    preview: { kind: 'create', resource: 'playlist', after: { title: input.title } },
    warnings: [],
  }),
  async execute(p, { client }) {
    try {
      return await client.playlists.create(p);
    } catch (error) {
      // A create names no record, so any 404 means the service has no such endpoint.
      if (!(error instanceof NotFoundError || error instanceof NotSupportedError)) throw error;
      const { status, body, operation, method, path } = error;
      throw new NotSupportedError(
        `This service does not support creating playlists (${method} ${path} answered ${status ?? 'nothing'})`,
        { status, body, operation, method, path },
      );
    }
  },
});
