import type { KnownBlock } from '@slack/types';
import { type BatchPreview, type BatchStep, countSteps, type PreviewedNumber } from '../core/batch.js';
import { maskMobile, maskMobilesInText } from '../core/mask.js';
import type { OperationRequest } from '../core/model.js';
import { parseDuration } from '../core/policy.js';
import { type Lang, ltr, num } from '../i18n/index.js';
import { wrapList } from '../operations/common/views.js';
import { stateWord } from './approval.js';
import { actions, button, code, isolated, type SlackMessage, section } from './blocks.js';
import { sayIn, shownError } from './errors.js';
import { ACTIONS } from './ids.js';
import { spanText } from './time-box.js';
import { ordinalText } from './viewer-history.js';

/**
 * Many numbers at once in Slack: the list as read, before anything is sent (with Confirm and
 * Cancel, whose value is only the preview's draft ID), and the batch's one message, edited in place
 * as it runs and at its end (each failure and why, Retry the failed, History). Numbers masked.
 * @see docs/commands.md, "Many numbers at once"
 */

/** Numbers listed before "and N more": the whole list stays within Slack's message size. */
const NUMBERS_SHOWN = 40;
/** Refused lines and failures listed before "and N more". */
const LINES_SHOWN = 20;
/** History buttons at the end of a batch: one per failed or unknown number, the first few. */
const HISTORY_BUTTONS = 5;

const masked = (lang: Lang, n: string) => ltr(lang, code(maskMobile(n)));

/** "and N more" after the first `shown` of `count` items, or nothing. */
function more(lang: Lang, count: number, shown: number): string[] {
  return count > shown ? [lang.t.batch.batchMore(count - shown)] : [];
}

/**
 * The list as read (`batchPreviewLines`, numbers masked), the numbers themselves masked, and
 * Confirm and Cancel, whose value is only `draftId`: the one-time draft that holds the list.
 */
export function batchPreviewMessage(preview: BatchPreview, draftId: string, lang: Lang): SlackMessage {
  const t = lang.t.batch;
  // A refusal quotes what was read: a number of another country in it is masked too.
  const lines = batchPreviewLines(preview, lang).map(maskMobilesInText);
  const shown = preview.numbers.slice(0, NUMBERS_SHOWN).map((x) => maskMobile(x.param));
  const blocks: KnownBlock[] = [
    section(
      [
        t.batchAsk(preview.numbers.length),
        ...lines.slice(0, LINES_SHOWN),
        ...more(lang, lines.length, LINES_SHOWN),
      ].join('\n'),
    ),
    section(
      [...wrapList(lang, t.batchNumbers, shown), ...more(lang, preview.numbers.length, NUMBERS_SHOWN)].join(
        '\n',
      ),
    ),
    actions([
      button(t.batchConfirm, ACTIONS.batchConfirm, draftId, 'primary'),
      button(t.batchCancel, ACTIONS.batchCancel, draftId),
    ]),
  ];
  return { text: lines[0] ?? t.batchAsk(preview.numbers.length), blocks };
}

/**
 * The batch's one message: while it runs "27 of 38 done, 1 failed, 0 unknown"; once it ended, the summary with
 * each failure and its reason, the unknowns said unknown, Retry the failed and History buttons.
 */
export function batchMessage(
  request: OperationRequest,
  steps: readonly BatchStep[],
  lang: Lang,
): SlackMessage {
  const t = lang.t.batch;
  const id = ltr(lang, `*${request.id}*`);
  const total = 'mobileNumbers' in request.params ? request.params.mobileNumbers.length : steps.length;
  const counts = countSteps(total, steps);
  if (request.state === 'executing' || request.state === 'approved' || request.state === 'pending') {
    const running = (ref: string) => t.batchRunning(ref, counts.done, total, counts.failed, counts.unknown);
    return {
      text: running(ltr(lang, request.id)),
      blocks: [section(`:hourglass_flowing_sand: ${running(id)}`)],
    };
  }
  const ended = [...steps].filter((s) => s.state === 'failed' || s.state === 'unknown');
  const head =
    request.state === 'succeeded' || request.state === 'failed' || request.state === 'unknown'
      ? t.batchFinished(ltr(lang, request.id), counts.done, total)
      : t.batchEnded(ltr(lang, request.id), stateWord(request.state, lang));
  const tally = [
    ...(counts.failed > 0 ? [t.batchFailedCount(counts.failed)] : []),
    ...(counts.unknown > 0 ? [t.batchUnknownCount(counts.unknown)] : []),
  ];
  const line = (s: BatchStep) =>
    s.state === 'unknown' || s.error === null
      ? t.batchUnknownLine(masked(lang, s.mobileNumber))
      : t.batchFailureLine(masked(lang, s.mobileNumber), shownError(lang, s.error, 200));
  // The first few failures each with its History button; the next ones as lines, then a count.
  const withHistory = ended.slice(0, HISTORY_BUTTONS).map((s) => ({
    ...section(line(s)),
    accessory: button(lang.t.viewers.vwHistoryButton, ACTIONS.batchHistory, `${request.id}:${s.index}`),
  }));
  const rest = ended.slice(HISTORY_BUTTONS, LINES_SHOWN).map(line);
  const blocks: KnownBlock[] = [section([head, ...tally].join('\n')), ...withHistory];
  if (rest.length > 0 || ended.length > LINES_SHOWN)
    blocks.push(section([...rest, ...more(lang, ended.length, LINES_SHOWN)].join('\n')));
  if (counts.failed > 0)
    blocks.push(actions([button(t.batchRetryFailed, ACTIONS.batchRetry, request.id, 'primary')]));
  const text = [head, ...tally].join(' · ');
  return { text, blocks };
}

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
