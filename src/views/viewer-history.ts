import { ordinalEnglish } from '../core/english.js';
import { maskMobile } from '../core/mask.js';
import { parseDuration } from '../core/policy.js';
import type { RepeatShown, UnblockOutcome, UnblockShown } from '../core/viewer-history.js';
import { dateTime, type Lang, ltr, num, persianDigits } from '../i18n/index.js';
import type { ViewerHistory } from '../services/viewers.js';
import { actions, button, code, context, isolated, type SlackMessage, section } from './blocks.js';
import { ACTIONS } from './ids.js';
import { spanText } from './time-box.js';

/**
 * A viewer's history as people read it (`/vidops viewer`, the History button) and the repeat
 * rule's lines in an approval or a break-glass review. Numbers always masked; dates in the
 * reader's calendar and `DISPLAY_TIME_ZONE`.
 * @see docs/commands.md, "A viewer's history"
 */

const PERSIAN_ORDINALS = [
  '',
  'اولین',
  'دومین',
  'سومین',
  'چهارمین',
  'پنجمین',
  'ششمین',
  'هفتمین',
  'هشتمین',
  'نهمین',
  'دهمین',
];

/** `3rd`, `سومین`. */
export function ordinalText(lang: Lang, n: number): string {
  if (lang.locale === 'en') return ordinalEnglish(n);
  return PERSIAN_ORDINALS[n] ?? `${persianDigits(String(n))}مین`;
}

function outcomeText(lang: Lang, outcome: UnblockOutcome): string {
  const t = lang.t.viewers;
  const words: Record<UnblockOutcome, string> = {
    pending: t.vwPending,
    running: t.vwRunning,
    succeeded: t.vwSucceeded,
    failed: t.vwFailed,
    rejected: t.vwRejected,
    cancelled: t.vwCancelled,
    expired: t.vwExpired,
    unknown: t.vwUnknown,
    denied: t.vwDenied,
  };
  return words[outcome];
}

const name = (lang: Lang, who: { name: string }) => isolated(lang, who.name, 80);

/** One unblock: when, how it ended, who asked and approved, why. */
function unblockLine(
  lang: Lang,
  u: UnblockShown & { decidedBy?: { name: string } | null; error?: string | null },
): string {
  const t = lang.t.viewers;
  const parts = [t.vwLine(dateTime(lang, u.askedAt), outcomeText(lang, u.outcome), name(lang, u.requester))];
  if (u.approvers.length > 0) parts.push(t.vwApprovedBy(u.approvers.map((a) => name(lang, a)).join(', ')));
  if (u.decidedBy) parts.push(t.vwDecidedBy(name(lang, u.decidedBy)));
  if (u.breakGlass) parts.push(t.vwBreakGlass);
  if (u.reason !== null) parts.push(t.vwReason(isolated(lang, u.reason, 200)));
  if (u.error) parts.push(t.vwError(isolated(lang, u.error, 200)));
  return `• ${parts.join(' · ')}`;
}

const masked = (lang: Lang, viewer: string) => ltr(lang, code(maskMobile(viewer)));

/** The facts above a history: where it comes from, the count in the window, the log's age, the next. */
function historyFacts(history: ViewerHistory, lang: Lang): string[] {
  const t = lang.t.viewers;
  const span = spanText(lang, history.window.withinMs);
  const facts = [t.vwSource, t.vwInWindow(history.inWindow, num(lang, history.inWindow), span)];
  if (history.logSince === null) facts.push(t.vwLogEmpty);
  else if (history.logYounger) facts.push(t.vwLogYounger(dateTime(lang, history.logSince), span));
  if (history.next !== null) facts.push(t.vwNextNeedsLead(ordinalText(lang, history.next.nth), span));
  return facts;
}

/**
 * `vidops viewer <number>`: the same history as plain lines, the number whole (the operator's
 * command line, as `audit export` shows it), emoji shortcodes left out.
 */
export function viewerHistoryLines(history: ViewerHistory, lang: Lang): string[] {
  const t = lang.t.viewers;
  const bare = (line: string) => line.replace(/:[a-z_]+: /g, '');
  const lines = history.unblocks.map((u) => bare(unblockLine(lang, u)).replace(/^• /, '  '));
  return [
    t.vwCliHead(ltr(lang, history.viewer)),
    ...historyFacts(history, lang).map(bare),
    ...(lines.length === 0 ? [t.vwNone] : lines),
  ];
}

/** What `/vidops viewer <number>` answers, with the History facts of the log. */
export function viewerHistoryMessage(history: ViewerHistory, lang: Lang): SlackMessage {
  const t = lang.t.viewers;
  const span = spanText(lang, history.window.withinMs);
  const head = t.vwHead(masked(lang, history.viewer));
  const facts = historyFacts(history, lang);
  const lines = history.unblocks.map((u) => unblockLine(lang, u));
  return {
    text: `${head} ${t.vwInWindow(history.inWindow, num(lang, history.inWindow), span)}`,
    blocks: [section(head), context(facts), section(lines.length === 0 ? t.vwNone : lines.join('\n'))],
  };
}

/** The History button of an unblock's reply: it carries only the request's ID. */
export function historyButton(lang: Lang, requestId: string) {
  return actions([button(lang.t.viewers.vwHistoryButton, ACTIONS.viewerHistory, requestId)]);
}

/** Why a repeat unblock waits for a lead, and the unblocks before it (the approval message). */
export function repeatLines(lang: Lang, viewer: string, repeat: RepeatShown): string[] {
  const t = lang.t.viewers;
  const span = spanText(lang, parseDuration(repeat.within) ?? 0);
  const lines = [t.vwRepeatWhy(ordinalText(lang, repeat.nth), masked(lang, viewer), span)];
  if (repeat.history.length > 0)
    lines.push(t.vwRepeatEarlier, ...repeat.history.map((u) => unblockLine(lang, u)));
  return lines;
}

/** The flag of a break-glass run of a repeat unblock (its review and notices). */
export function repeatBreakGlassLine(lang: Lang, viewer: string, repeat: RepeatShown): string {
  const span = spanText(lang, parseDuration(repeat.within) ?? 0);
  return lang.t.viewers.vwRepeatBreakGlass(ordinalText(lang, repeat.nth), masked(lang, viewer), span);
}
