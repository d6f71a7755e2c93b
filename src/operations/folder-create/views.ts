import { CREATE_VIEWS, str, viewsOf } from '../common/views.js';
import { messages } from './messages.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  messages,
  ...CREATE_VIEWS,
  done(p) {
    const title = str(p.params, 'title');
    const newId = str(p.result, '_id') ?? str(p.result, 'id') ?? str(p.result, 'bucketId');
    const t = messages[p.lang.locale];
    return t.auditFolderCreated(
      title === undefined ? p.target : p.quoted(title),
      newId === undefined ? '' : t.auditCreatedAs(p.id(newId)),
    );
  },
});
