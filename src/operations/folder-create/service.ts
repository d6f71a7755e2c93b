import { serviceOf, withDescription } from '../common/service.js';
import { spec } from './spec.js';

export const service = serviceOf(spec, {
  async prepare(input) {
    const params = { title: input.title, ...withDescription(input.description) };
    return { params, preview: { kind: 'create', resource: 'folder', after: params }, warnings: [] };
  },
  execute: (p, { client }) => client.folders.create(p),
});
