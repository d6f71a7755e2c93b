import { maskMobile } from '../../core/mask.js';
import { viewsOf, wrapList } from '../common/views.js';
import { messages } from './messages.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  messages,
  noRevert: (lang) => lang.t.timeBox.boxNoRevertUnblock,
  facts: () => [],
  ask: (p) => p.t.auditAskVerb('unblock', p.target),
  done: (p) => p.t.auditViewerUnblocked(p.target),
  slack: (preview, lang) => {
    const t = lang.t.batch;
    const lines = [t.batchPreview(preview.count)];
    if (preview.repeats.length > 0)
      lines.push(...wrapList(lang, messages[lang.locale].batchRepeats, preview.repeats.map(maskMobile)));
    return lines;
  },
  cli: (preview, lang) => {
    const t = lang.t.batch;
    const lines = [`  ${t.batchPreview(preview.count)}`];
    if (preview.repeats.length > 0)
      lines.push(`  ${messages[lang.locale].batchRepeats}: ${preview.repeats.map(maskMobile).join(', ')}`);
    return lines;
  },
});
