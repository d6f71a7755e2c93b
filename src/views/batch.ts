import type { KnownBlock } from '@slack/types';
import type { BatchStep } from '../core/batch.js';
import { countSteps } from '../core/batch.js';
import { maskMobile } from '../core/mask.js';
import type { OperationRequest } from '../core/model.js';
import type { NumberList } from '../core/validate/phone-list.js';
import { type Lang, ltr, num } from '../i18n/index.js';
import { wrapList } from '../operations/common/views.js';
import { stateWord } from './approval.js';
import { actions, button, code, context, type SlackMessage, section } from './blocks.js';
import { shownError } from './errors.js';
import { refusalText } from './everyday.js';
import { ACTIONS } from './ids.js';

/**
 * Many numbers at once in Slack: the list as read, before anything is sent (with Confirm and
 * Cancel, whose value is only the preview's draft ID), and the batch's one message, edited in place
 * as it runs and at its end (each failure and why, Retry the failed, History). Numbers masked.
 * @see docs/commands.md, "Many numbers at once"
 */

/** Numbers listed before "and N more": the whole list stays within Slack's message size. */
const NUMBERS_SHOWN = 40;
/** Refused lines and failures listed before "and N more". */
const LINES_SHOWN = 15;
/** History buttons at the end of a batch: one per failed or unknown number, the first few. */
const HISTORY_BUTTONS = 5;

export interface BatchPreview {
  list: NumberList;
  /** Numbers of the list the repeat rule holds for a lead, as sent. */
  repeats: readonly string[];
  needsLead: boolean;
  maxWithoutApproval: number;
  /** The one-time draft that holds the list: Confirm sends exactly it, once. */
  draftId: string;
}

const masked = (lang: Lang, n: string) => ltr(lang, code(maskMobile(n)));

/** "and N more" after the first `shown` of `count` items, or nothing. */
function more(lang: Lang, count: number, shown: number): string[] {
  return count > shown ? [lang.t.batch.batchMore(count - shown)] : [];
}

/** The list as read: summary, numbers (masked), refused lines with their reason, Confirm and Cancel. */
export function batchPreviewMessage(p: BatchPreview, region: string, lang: Lang): SlackMessage {
  const t = lang.t.batch;
  const { numbers, refused, duplicates } = p.list;
  const lead = p.needsLead ? numbers.length : p.repeats.length;
  const summary = t.batchSummary(numbers.length, refused.length, lead);
  const head = [t.batchAsk(numbers.length), summary];
  if (duplicates > 0) head.push(t.batchMerged(duplicates));
  const shown = numbers.slice(0, NUMBERS_SHOWN).map((x) => maskMobile(x.param));
  const blocks: KnownBlock[] = [
    section(head.join('\n')),
    section(
      [...wrapList(lang, t.batchNumbers, shown), ...more(lang, numbers.length, NUMBERS_SHOWN)].join('\n'),
    ),
  ];
  if (refused.length > 0) {
    const lines = refused
      .slice(0, LINES_SHOWN)
      .map((r) =>
        t.batchRefusedLine(
          num(lang, r.line),
          ltr(lang, code(r.read.slice(0, 60))),
          refusalText(r.said, region, lang),
        ),
      );
    blocks.push(
      section([t.batchRefusedTitle, ...lines, ...more(lang, refused.length, LINES_SHOWN)].join('\n')),
    );
  }
  if (p.repeats.length > 0)
    blocks.push(section(wrapList(lang, t.batchRepeats, p.repeats.map(maskMobile)).join('\n')));
  if (p.needsLead) blocks.push(context(`:raising_hand: ${t.batchNeedsLead(p.maxWithoutApproval)}`));
  blocks.push(
    actions([
      button(t.batchConfirm, ACTIONS.batchConfirm, p.draftId, 'primary'),
      button(t.batchCancel, ACTIONS.batchCancel, p.draftId),
    ]),
  );
  return { text: summary, blocks };
}

/**
 * The batch's one message: while it runs "27 of 38 done, 1 failed"; once it ended, the summary with
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
    const text = t.batchRunning(ltr(lang, request.id), counts.done, total, counts.failed);
    return {
      text,
      blocks: [section(`:hourglass_flowing_sand: ${t.batchRunning(id, counts.done, total, counts.failed)}`)],
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
    accessory: button(t.batchHistory, ACTIONS.batchHistory, `${request.id}:${s.index}`),
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
