import { CREATE_VIEWS, str, viewsOf } from '../common/views.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  ...CREATE_VIEWS,
  done(p) {
    const title = str(p.params, 'title');
    const newId = str(p.result, '_id') ?? str(p.result, 'id') ?? str(p.result, 'bucketId');
    return p.t.auditFolderCreated(
      title === undefined ? p.target : p.quoted(title),
      newId === undefined ? '' : p.t.auditCreatedAs(p.id(newId)),
    );
  },
});
