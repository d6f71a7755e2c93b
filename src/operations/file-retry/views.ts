import { stripBidiControls as shown } from '../../core/bidi.js';
import { ltr } from '../../i18n/index.js';
import { code, isolated } from '../../views/blocks.js';
import { quotedTitle, shownOrNull, str, titled, viewsOf } from '../common/views.js';
import { messages } from './messages.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  messages,
  noRevert: (lang) => messages[lang.locale].boxNoRevertRetry,
  ask: (p) => messages[p.lang.locale].auditAskRetry(p.target),
  facts: ({ title }, { quoted }) => (title === null ? [] : [quoted(title)]),
  done(p) {
    const t = messages[p.lang.locale];
    const status = str(p.result, 'hlsStatus');
    return t.auditRetryQueued(p.target, status === undefined ? '' : t.auditRetryStatus(p.text(status, 20)));
  },
  slack: (preview, lang) => [
    messages[lang.locale].apprRetries(
      ltr(lang, code(preview.id)),
      quotedTitle(lang, preview.title),
      isolated(lang, preview.hlsStatus ?? '', 20),
    ),
  ],
  cli: (preview, lang) => [
    `  ${messages[lang.locale].cliRetryPreview(shown(preview.id), titled(preview.title), shownOrNull(preview.hlsStatus))}`,
  ],
});
