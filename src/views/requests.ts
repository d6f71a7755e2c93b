import type { ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import { TERMINAL_STATES } from '../core/model.js';
import { dateTime, ENGLISH, type Lang, num } from '../i18n/index.js';
import type { RequestsOverview } from '../services/types.js';
import { outcomeText, previewSections, requestButtons, requestLine, slackDate } from './approval.js';
import {
  actions,
  blocksText,
  context,
  divider,
  isolated,
  packSections,
  type SlackMessage,
  section,
} from './blocks.js';
import { requestActionsBlock } from './ids.js';
import { BLOCK_KIT_LIMITS } from './limits.js';
import { boxInForce, timeBoxLines } from './put-back.js';

/**
 * `/vidops requests`: the caller's open requests with Cancel, their recent finished ones, and for
 * leads the requests awaiting them with Approve/Reject. Long lists are cut deliberately: a
 * message holds at most 50 blocks and about 12,000 characters.
 * @see docs/architecture.md, "Slash command grammar"
 */

/** How many requests of each list are shown with their own buttons. */
export const REQUESTS_LIMITS = { awaiting: 10, open: 10, finished: 10 } as const;

/**
 * A date as the reader reads it: Slack's own date token for English readers (it renders in their
 * time zone, in English), the Solar Hijri date in the display time zone for Persian readers.
 */
function readerDate(iso: string, lang: Lang): string {
  return lang.locale === 'en' ? slackDate(iso) : dateTime(lang, iso);
}

/**
 * One request awaiting a decision: its line, a short preview, and the Approve/Reject buttons.
 * The request line, preview and buttons come from the approval views (English for now); `lang`
 * is English where the caller (the App Home) does not pass the reader's language yet.
 */
export function awaitingBlocks(
  request: RequestsOverview['awaitingMe'][number],
  previewBudget = 600,
  lang: Lang = ENGLISH,
  /** False for a delegate: they approve in a lead's place, and only approvers reject. */
  reject = true,
): KnownBlock[] {
  const t = lang.t.requests;
  const preview = previewSections(request, lang, previewBudget).join('\n');
  const reason = request.reason
    ? `\n${lang.t.approvals.apprReason(isolated(lang, request.reason, Math.min(300, previewBudget)))}`
    : '';
  const expires = request.expiresAt ? `\n${t.requestsExpires(readerDate(request.expiresAt, lang))}` : '';
  return [
    section(
      `${requestLine(request, lang, { showRequester: true })}${preview === '' ? '' : `\n${preview}`}${reason}${expires}`,
    ),
    actions(
      requestButtons(request, { approve: true, reject, cancel: false }, lang),
      requestActionsBlock(request.id),
    ),
  ];
}

/**
 * One open request of the caller: its line, with a Cancel button while it is still pending, and
 * the window it was asked for when `now` is given (docs/time-boxed.md). `lang` is English where
 * the caller does not pass the reader's language.
 */
export function openRequestBlock(
  request: RequestsOverview['mine'][number],
  lang: Lang = ENGLISH,
  now?: Date,
): SectionBlock {
  const outcome = outcomeText(request, lang);
  const expires =
    request.expiresAt && request.state === 'pending'
      ? `\n${lang.t.requests.requestsExpires(readerDate(request.expiresAt, lang))}`
      : '';
  const box = now === undefined ? [] : timeBoxLines(request, now, lang);
  const boxed = box.length === 0 ? '' : `\n${box.join('\n')}`;
  const block = section(
    `${requestLine(request, lang)}${outcome === null ? '' : `\n${outcome}`}${expires}${boxed}`,
  );
  if (request.state !== 'pending') return block;
  const [cancel] = requestButtons(request, { approve: false, reject: false, cancel: true }, lang);
  return cancel === undefined ? block : { ...block, accessory: cancel };
}

/**
 * The caller's finished requests as compact lines (English dates where no `lang` is passed); a
 * time-boxed change in force says when it goes back, when `now` is given.
 */
export function finishedLines(
  requests: RequestsOverview['mine'],
  lang: Lang = ENGLISH,
  now?: Date,
): string[] {
  return requests.map((r) => {
    const box = now !== undefined && boxInForce(r) ? timeBoxLines(r, now, lang) : [];
    return `${requestLine(r, lang)} · ${readerDate(r.updatedAt, lang)}${box.length === 0 ? '' : `\n${box.join(' ')}`}`;
  });
}

interface Sizing {
  awaiting: number;
  open: number;
  finished: number;
  previewBudget: number;
}

const SIZINGS: readonly Sizing[] = [
  { ...REQUESTS_LIMITS, previewBudget: 500 },
  { ...REQUESTS_LIMITS, previewBudget: 200 },
  { awaiting: 6, open: 6, finished: 5, previewBudget: 150 },
  { awaiting: 3, open: 3, finished: 3, previewBudget: 100 },
];

/**
 * The ephemeral answer to `requests`. `isLead` adds the "awaiting you" list (even when empty, so a
 * lead knows there is nothing to decide). Lists are shortened until the message fits Slack's limits.
 */
export function requestsMessage(
  overview: RequestsOverview,
  options: { isLead: boolean; now?: Date | undefined },
  lang: Lang,
): SlackMessage {
  let message = buildRequests(
    overview,
    options,
    SIZINGS[0] ?? { ...REQUESTS_LIMITS, previewBudget: 500 },
    lang,
  );
  for (const sizing of SIZINGS.slice(1)) {
    if (blocksText(message.blocks) <= BLOCK_KIT_LIMITS.messageBlocksText) break;
    message = buildRequests(overview, options, sizing, lang);
  }
  return message;
}

function buildRequests(
  overview: RequestsOverview,
  options: { isLead: boolean; now?: Date | undefined },
  sizing: Sizing,
  lang: Lang,
): SlackMessage {
  const t = lang.t.requests;
  const more = (text: string): ContextBlock => context(text);
  const blocks: KnownBlock[] = [];
  const awaiting = overview.awaitingMe;
  const awaitingCount = overview.awaitingCount ?? awaiting.length;
  if (options.isLead || awaitingCount > 0) {
    blocks.push(section(t.requestsAwaitingHeading(num(lang, awaitingCount))));
    if (awaitingCount === 0) blocks.push(section(t.requestsNothingWaiting));
    const shown = awaiting.slice(0, sizing.awaiting);
    for (const request of shown) {
      const reject = !overview.inPlace?.includes(request.id);
      blocks.push(...awaitingBlocks(request, sizing.previewBudget, lang, reject));
    }
    if (awaitingCount > shown.length) {
      blocks.push(more(t.requestsMoreAwaiting(num(lang, awaitingCount - shown.length))));
    }
    blocks.push(divider());
  }
  const open = overview.mine.filter((r) => !TERMINAL_STATES.includes(r.state));
  const finished = overview.mine.filter((r) => TERMINAL_STATES.includes(r.state));
  const openCount = overview.openCount ?? open.length;
  const openShown = open.slice(0, sizing.open);
  blocks.push(section(t.requestsOpenHeading(num(lang, openCount))));
  if (openCount === 0) blocks.push(section(t.requestsNoOpen));
  for (const request of openShown) blocks.push(openRequestBlock(request, lang, options.now));
  if (openCount > openShown.length)
    blocks.push(more(t.requestsMoreOpen(num(lang, openCount - openShown.length))));
  if (finished.length > 0) {
    const shown = finished.slice(0, sizing.finished);
    blocks.push(section(t.requestsFinishedHeading));
    blocks.push(...packSections(finishedLines(shown, lang, options.now)));
  }
  const text =
    awaitingCount > 0
      ? t.requestsTextAwaiting(awaitingCount, num(lang, awaitingCount), num(lang, openCount))
      : t.requestsTextOpen(openCount, num(lang, openCount));
  return { text, blocks };
}
