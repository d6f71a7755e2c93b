import { stripBidiControls as shown } from '../../core/bidi.js';
import { ltr } from '../../i18n/index.js';
import { code, isolated } from '../../views/blocks.js';
import { quotedTitle, shownOrNull, str, titled, viewsOf } from '../common/views.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  noRevert: (lang) => lang.t.timeBox.boxNoRevertRetry,
  ask: (p) => p.t.auditAskRetry(p.target),
  facts: ({ title }, { quoted }) => (title === null ? [] : [quoted(title)]),
  done(p) {
    const status = str(p.result, 'hlsStatus');
    return p.t.auditRetryQueued(
      p.target,
      status === undefined ? '' : p.t.auditRetryStatus(p.text(status, 20)),
    );
  },
  slack: (preview, lang) => [
    lang.t.approvals.apprRetries(
      ltr(lang, code(preview.id)),
      quotedTitle(lang, preview.title),
      isolated(lang, preview.hlsStatus ?? '', 20),
    ),
  ],
  cli: (preview, lang) => [
    `  ${lang.t.cli.cliRetryPreview(shown(preview.id), titled(preview.title), shownOrNull(preview.hlsStatus))}`,
  ],
});
