import { num } from '../../i18n/index.js';
import { capitalize, DELETE_VIEWS, numberIn, viewsOf } from '../common/views.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  ...DELETE_VIEWS,
  done(p) {
    const { result, t, lang } = p;
    const files =
      numberIn(result, 'deletedFiles') ?? numberIn(result, 'filesCount') ?? numberIn(result, 'deletedCount');
    return t.auditDeleted(
      capitalize(p.target),
      files === undefined ? '' : ` (${t.auditFiles(files, num(lang, files))})`,
    );
  },
});
