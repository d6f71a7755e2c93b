import { CREATE_VIEWS, capitalize, viewsOf } from '../common/views.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  ...CREATE_VIEWS,
  done: (p) => p.t.auditDone(capitalize(CREATE_VIEWS.ask(p))),
});
