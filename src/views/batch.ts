import type { BatchPreview, PreviewedNumber } from '../core/batch.js';
import { maskMobile } from '../core/mask.js';
import { parseDuration } from '../core/policy.js';
import { type Lang, ltr, num } from '../i18n/index.js';
import { code, isolated } from './blocks.js';
import { sayIn } from './errors.js';
import { spanText } from './time-box.js';
import { ordinalText } from './viewer-history.js';

/**
 * A pasted list as a person confirms it before a batch is asked for (the Slack edge and the
 * CLI): the summary ("38 to unblock, 2 refused, 3 need a lead"), whether a lead approves the
 * whole list, each refused line with its reason, duplicates merged, each repeat viewer.
 * In Slack numbers are masked and outside text escaped; on the command line (`whole`) the
 * operator sees the numbers whole, as `audit export` shows them.
 * @see docs/approvals.md, "Many numbers at once"
 */
export function batchPreviewLines(preview: BatchPreview, lang: Lang, whole = false): string[] {
  const t = lang.t.batch;
  const shown = (n: PreviewedNumber) => ltr(lang, whole ? n.param : code(maskMobile(n.param)));
  const outside = (text: string) => (whole ? ltr(lang, text) : isolated(lang, text, 80));
  const lines = [t.batchSummary(preview.numbers.length, preview.refused.length, preview.repeats)];
  if (preview.numbers.length === 0) lines.push(t.batchNone);
  if (preview.lead?.kind === 'size') lines.push(t.batchLeadSize(preview.lead.size, preview.lead.max));
  if (preview.lead?.kind === 'repeats') lines.push(t.batchLeadRepeats(preview.lead.count));
  if (preview.duplicates > 0) lines.push(t.batchDuplicates(preview.duplicates));
  for (const r of preview.refused) {
    lines.push(t.batchRefusedLine(num(lang, r.line), outside(r.read), sayIn(lang, r.said)));
  }
  for (const n of preview.numbers) {
    if (n.repeat === null) continue;
    const span = spanText(lang, parseDuration(n.repeat.within) ?? 0);
    lines.push(t.batchRepeatLine(shown(n), ordinalText(lang, n.repeat.nth), span));
  }
  return lines;
}
