import type { Button, KnownBlock } from '@slack/types';
import { viaPhrase } from '../core/actor.js';
import { shortHash } from '../core/audit-chain.js';
import { type ChangeOperation, OPERATION_SPECS, type Preview } from '../core/catalog.js';
import { wasNotSent } from '../core/errors.js';
import { timeLeft } from '../core/follow-up.js';
import type { JsonValue } from '../core/json.js';
import { maskMobilesInText } from '../core/mask.js';
import { type Actor, followUpOf, type OperationRequest, type RequestState } from '../core/model.js';
import { escapeOutside } from '../core/mrkdwn.js';
import type { Said } from '../core/said.js';
import { dateTime, ENGLISH, type Lang, list, ltr, num } from '../i18n/index.js';
import { saidFromJson } from '../i18n/said.js';
import { type PreviewView, VIEWS } from '../operations/views.js';
import { doneSentence } from './audit-post.js';
import {
  actions,
  boldId,
  button,
  code,
  context,
  header,
  isolated,
  isolateOutside,
  mrkdwn,
  packLines,
  plain,
  plainText,
  plainWorded,
  type SlackMessage,
  safe,
  safeWorded,
  section,
} from './blocks.js';
import { reasonIn, sayIn, shownError } from './errors.js';
import { ACTIONS, BLOCKS, requestActionsBlock } from './ids.js';
import { BLOCK_KIT_LIMITS, truncate } from './limits.js';
import {
  boxInForce,
  cannotRevertLine,
  confirmWhat,
  inForceUntilLine,
  revertButtons,
  revertOfLine,
  timeBoxActionsBlock,
  timeBoxButtons,
  timeBoxLines,
} from './put-back.js';
import { reminderText, spanText } from './time-box.js';
import { repeatBreakGlassLine } from './viewer-history.js';

/**
 * The approval message of a request, the notice its requester gets, and the formatting every
 * request view shares (previews, states, dates). Pure: the clock reading comes in as `now`.
 * @see docs/architecture.md, "Approvals"
 */

/** `2025-03-01T10:00:00.000Z` → `2025-03-01 10:00 UTC`. */
export function utc(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

/**
 * A date Slack shows in the reader's time zone, with the UTC text as fallback for clients that
 * cannot format it.
 */
export function slackDate(iso: string): string {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  if (!Number.isFinite(seconds)) return escapeOutside(iso);
  return `<!date^${seconds}^{date_short_pretty} {time}|${utc(iso)}>`;
}

/**
 * A date as the reader reads it: Slack's own date token for English readers (it renders in their
 * time zone), the Solar Hijri date in the display time zone for Persian readers.
 */
export function readerDate(iso: string, lang: Lang): string {
  return lang.locale === 'en' ? slackDate(iso) : dateTime(lang, iso);
}

const STATE_EMOJI: Record<RequestState, string> = {
  pending: ':hourglass_flowing_sand:',
  approved: ':thumbsup:',
  executing: ':gear:',
  succeeded: ':white_check_mark:',
  failed: ':x:',
  rejected: ':no_entry_sign:',
  cancelled: ':leftwards_arrow_with_hook:',
  expired: ':hourglass:',
  unknown: ':grey_question:',
};

/** The state's word in the reader's language, without emoji: `done`, `انجام شد`. */
export function stateWord(state: RequestState, lang: Lang): string {
  const t = lang.t.common;
  const words: Record<RequestState, string> = {
    pending: t.statePending,
    approved: t.stateApproved,
    executing: t.stateExecuting,
    succeeded: t.stateSucceeded,
    failed: t.stateFailed,
    rejected: t.stateRejected,
    cancelled: t.stateCancelled,
    expired: t.stateExpired,
    unknown: t.stateUnknown,
  };
  return words[state];
}

/** Where a request stands, with an emoji: `:white_check_mark: done`. */
export function stateLabel(state: RequestState, lang: Lang): string {
  return `${STATE_EMOJI[state]} ${stateWord(state, lang)}`;
}

/** Title of the operation in the reader's language: `Delete folder`, `حذف پوشه`. */
export function operationTitleOf(request: Pick<OperationRequest, 'operation'>, lang: Lang = ENGLISH): string {
  const spec = OPERATION_SPECS[request.operation];
  return lang.locale === 'fa' ? spec.fa.title : spec.title;
}

/**
 * A person's name inside a sentence: escaped, cut, and isolated in Persian, and in English when it
 * holds more than ASCII (a name in Arabic script would otherwise carry the digits after it along).
 */
function who(lang: Lang, name: string, max = 60): string {
  return isolated(lang, name, max);
}

/** Who approved; an approval from the CLI says so: "U0LEAD1 via the CLI (OS user root)". */
function approvers(request: OperationRequest, lang: Lang): string {
  return list(
    lang,
    request.approvals.map((a) => {
      const via = viaPhrase(a.by);
      const name =
        via === null
          ? who(lang, a.by.name)
          : isolateOutside(lang, `${a.by.name} ${via}`, `${safe(a.by.name, 60)} ${safe(via, 100)}`);
      // In a lead's place, by delegation: "sara for lena (delegated)".
      return a.for === undefined ? name : lang.t.approvals.apprDelegatedFor(name, who(lang, a.for.name));
    }),
  );
}

/**
 * The target of a request for display: an ID (no spaces) is kept whole; descriptive text
 * (`new folder "…"`, a title inside) is cut. Isolated as outside text (it may hold a title).
 */
export function targetCode(target: string, lang: Lang = ENGLISH): string {
  return isolateOutside(lang, target, code(/\s/.test(target) ? truncate(target, 120) : target));
}

/** `N of M` in the reader's digits. */
function countOf(lang: Lang, count: number, quorum: number): string {
  return lang.t.approvals.apprCountOf(num(lang, count), num(lang, quorum));
}

/** `*R-…* (Delete folder `…`)`: a request named in a sentence. */
export function refOf(request: OperationRequest, lang: Lang): string {
  return lang.t.approvals.apprRef(
    boldId(lang, request.id),
    operationTitleOf(request, lang),
    targetCode(request.target, lang),
  );
}

/** `R-… (Delete folder: …)`: a request named in a notification's plain text. */
function plainRefOf(request: OperationRequest, lang: Lang): string {
  return lang.t.approvals.apprRef(
    ltr(lang, request.id),
    `${operationTitleOf(request, lang)}:`,
    isolateOutside(lang, request.target, escapeOutside(truncate(request.target, 200))),
  );
}

/** One line per request for lists: ID, operation, target, state, and who asked. */
export function requestLine(
  request: OperationRequest,
  lang: Lang,
  options: { showRequester?: boolean } = {},
): string {
  const t = lang.t.approvals;
  const by = options.showRequester ? t.apprByName(who(lang, request.requester.name)) : '';
  const count =
    request.state === 'pending' && request.quorum > 0
      ? ` (${countOf(lang, request.approvals.length, request.quorum)})`
      : '';
  return `${boldId(lang, request.id)} · ${operationTitleOf(request, lang)} ${targetCode(request.target, lang)} · ${stateLabel(request.state, lang)}${count}${by}`;
}

/** What happened to a decided request, in one or two lines; null while it is still open. */
export function outcomeText(request: OperationRequest, lang: Lang): string | null {
  const t = lang.t.approvals;
  const approved =
    request.breakGlass !== undefined
      ? t.apprBreakGlassRan(who(lang, request.breakGlass.by.name))
      : request.approvals.length > 0
        ? t.apprApprovedBy(approvers(request, lang))
        : t.apprRanDirectly;
  const at = (iso: string) => readerDate(iso, lang);
  switch (request.state) {
    case 'pending':
      return request.approvals.length > 0
        ? t.apprPendingSoFar(
            approvers(request, lang),
            countOf(lang, request.approvals.length, request.quorum),
          )
        : null;
    case 'approved':
      return t.apprWaitingToRun(approved);
    case 'executing':
      return t.apprRunningSince(approved, at(request.updatedAt));
    case 'succeeded':
      if (request.decidedBy !== null) return t.apprThen(approved, settledText(request, lang));
      return t.apprDoneAt(approved, at(request.updatedAt), t.apprDidWhat(doneSentence(request, lang)));
    case 'failed': {
      if (request.decidedBy !== null) return t.apprThen(approved, settledText(request, lang));
      const error = request.error;
      const why = error === null ? '' : shownError(lang, error, 400);
      // vidops stopped it before sending: the reason says so, and that nothing was changed.
      if (wasNotSent(error)) return t.apprNotSentAt(approved, at(request.updatedAt), why);
      // Edits and the like keep `failed` when their answer was lost (asking again is harmless).
      const lost = error !== null && (error.name === 'TimeoutError' || error.name === 'NetworkError');
      return t.apprFailedAt(
        approved,
        at(request.updatedAt),
        why,
        lost ? t.apprAnswerLost : t.apprNothingElse,
      );
    }
    case 'rejected':
      return t.apprRejectedBy(
        request.decidedBy === null ? t.apprALead : who(lang, request.decidedBy.name),
        at(request.updatedAt),
        isolated(lang, request.decisionNote ?? '', 500),
      );
    case 'cancelled':
      return t.apprCancelledBy(
        who(lang, request.decidedBy?.name ?? request.requester.name),
        at(request.updatedAt),
        isolated(lang, request.decisionNote ?? '', 300),
      );
    case 'expired':
      return t.apprExpiredAt(
        at(request.expiresAt ?? request.updatedAt),
        countOf(lang, request.approvals.length, request.quorum),
      );
    case 'unknown':
      return unknownText(request, approved, lang);
  }
}

/** Why the outcome of an `unknown` request is not known, and how it gets settled. */
function unknownText(request: OperationRequest, approved: string, lang: Lang): string {
  const t = lang.t.approvals;
  const error = request.error;
  const why =
    error === null
      ? t.apprUnknownStopped
      : t.apprUnknownNoAnswer(
          isolated(
            lang,
            `${error.name}${error.status === undefined ? '' : ` ${error.status}`}: ${error.message}`,
            300,
          ),
        );
  const ways = sendableAgain(request) ? t.apprWaysSendAgain : t.apprWaysMark;
  return t.apprUnknown(approved, why, readerDate(request.updatedAt, lang), ways);
}

/**
 * What was found when the outcome was settled, in the reader's language, from the sentence stored
 * beside the English (`outcomeSaid`, newer requests); null for older ones, which show the English.
 */
export function settledOutcome(request: Pick<OperationRequest, 'result'>, lang: Lang): string | null {
  const result = request.result;
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return null;
  const said = saidFromJson(result.outcomeSaid);
  return said === null ? null : sayIn(lang, said);
}

/** How a lead settled an outcome that was unknown: who, how, what and their note. */
function settledText(request: OperationRequest, lang: Lang): string {
  const t = lang.t.approvals;
  const result = request.result;
  const record = result !== null && typeof result === 'object' && !Array.isArray(result) ? result : {};
  const way =
    typeof record.resolved === 'string' ? t.apprSettledWay(record.resolved) : t.apprSettledUnknownWay;
  return t.apprSettled(
    request.decidedBy === null ? t.apprALead : who(lang, request.decidedBy.name),
    way,
    readerDate(request.updatedAt, lang),
    settledWhat(request, record, lang),
    isolated(lang, request.decisionNote ?? '', 500),
  );
}

/** What was found: the sentence stored beside the English, else the words recorded (isolated), else ours. */
function settledWhat(
  request: OperationRequest,
  record: { readonly [key: string]: JsonValue },
  lang: Lang,
): string {
  const t = lang.t.approvals;
  const worded = settledOutcome(request, lang);
  if (worded !== null) return safeWorded(worded, 300);
  const recorded =
    request.state === 'failed'
      ? request.error?.message
      : typeof record.outcome === 'string' && record.outcome !== 'applied'
        ? record.outcome
        : undefined;
  if (recorded !== undefined) return isolated(lang, recorded, 300);
  return request.state === 'failed' ? t.apprOutcomeNotApplied : t.apprOutcomeApplied;
}

/** Deletes only: a lead may send them once more, a 404 then meaning "already deleted". */
function sendableAgain(request: OperationRequest): boolean {
  return OPERATION_SPECS[request.operation].endpoint.repeat === 'lead';
}

// ---------------------------------------------------------------------------------------------
// Previews: what approvers see before deciding, typed per operation (built by its prepare, or
// parsed once when a request is read from the store), each rendered by its entry of
// operation module's `views.ts` (src/operations).

/** The lines of a request's (or a prepared change's) preview. */
function previewLines<O extends ChangeOperation>(
  subject: { operation: O; preview: Preview<O> | null },
  lang: Lang,
): string[] {
  if (subject.preview === null) return [lang.t.approvals.apprPreviewNotAvailable];
  const view: PreviewView<O> = VIEWS[subject.operation].slack;
  return view(subject.preview, lang);
}

/**
 * The preview of a request (or a prepared change) as section texts in the reader's language, at
 * most `budget` characters in all: lines past the budget are dropped with a note saying how many.
 */
export function previewSections<O extends ChangeOperation>(
  subject: { operation: O; preview: Preview<O> | null },
  lang: Lang,
  budget = 7000,
): string[] {
  const lines = previewLines(subject, lang);
  const kept: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    if (used + line.length + 1 > budget) {
      const left = lines.length - i;
      kept.push(lang.t.approvals.apprMoreLines(left, num(lang, left)));
      break;
    }
    kept.push(line);
    used += line.length + 1;
  }
  return packLines(kept);
}

/** True for operations that cannot be undone (deletes): their Approve dialog says so. */
function irreversible(request: OperationRequest): boolean {
  return OPERATION_SPECS[request.operation].risk === 'irreversible';
}

/**
 * Approve (primary, with a confirmation), Reject, and for the requester Cancel and Remind; values
 * carry only the ID.
 */
export function requestButtons(
  request: OperationRequest,
  which: { approve: boolean; reject: boolean; cancel: boolean; remind?: boolean },
  lang: Lang,
): Button[] {
  const t = lang.t.approvals;
  const buttons: Button[] = [];
  if (which.approve) {
    const what = `${operationTitleOf(request, lang)}: ${plain(request.target, 120)}.`;
    buttons.push({
      ...button(t.apprApprove, ACTIONS.approve, request.id, 'primary'),
      confirm: {
        title: plainText(truncate(t.apprApproveTitle(request.id), BLOCK_KIT_LIMITS.confirmTitle)),
        text: plainText(
          truncate(t.apprApproveText(what, irreversible(request)), BLOCK_KIT_LIMITS.confirmText),
        ),
        confirm: plainText(t.apprApprove),
        deny: plainText(t.apprNotYet),
        ...(irreversible(request) ? { style: 'danger' as const } : {}),
      },
    });
  }
  if (which.reject) buttons.push(button(t.apprRejectButton, ACTIONS.reject, request.id, 'danger'));
  if (which.cancel) buttons.push(button(t.apprCancelButton, ACTIONS.cancel, request.id));
  if (which.remind) buttons.push(button(t.apprRemindButton, ACTIONS.remind, request.id));
  return buttons;
}

/**
 * The buttons that settle an unknown outcome: Check now and Send again (deletes only, Send again
 * with a confirmation), Mark applied… and Mark not applied… (each asks for a note). Values carry
 * only the request ID; who may press them is checked when they are pressed.
 */
export function resolveButtons(request: OperationRequest, lang: Lang): Button[] {
  const t = lang.t.approvals;
  const buttons: Button[] = [];
  const id = request.id;
  if (sendableAgain(request)) buttons.push(button(t.apprCheckNow, ACTIONS.resolveCheck, id, 'primary'));
  buttons.push(
    button(t.apprMarkApplied, ACTIONS.resolveApplied, id),
    button(t.apprMarkNotApplied, ACTIONS.resolveNotApplied, id),
  );
  if (sendableAgain(request)) {
    buttons.push({
      ...button(t.apprSendAgain, ACTIONS.resolveSendAgain, id, 'danger'),
      confirm: {
        title: plainText(truncate(t.apprSendAgainTitle(id), BLOCK_KIT_LIMITS.confirmTitle)),
        text: plainText(
          truncate(
            t.apprSendAgainText(`${operationTitleOf(request, lang)}: ${plain(request.target, 120)}.`),
            BLOCK_KIT_LIMITS.confirmText,
          ),
        ),
        confirm: plainText(t.apprSendAgain),
        deny: plainText(t.apprNotNow),
        style: 'danger',
      },
    });
  }
  return buttons;
}

function headline(request: OperationRequest, lang: Lang): string {
  return request.breakGlass === undefined
    ? stateHeadline(request, lang)
    : lang.t.approvals.apprBreakGlassHeadline(stateHeadline(request, lang));
}

function stateHeadline(request: OperationRequest, lang: Lang): string {
  const t = lang.t.approvals;
  const title = operationTitleOf(request, lang);
  switch (request.state) {
    case 'pending':
      return t.apprHeadPending(title);
    case 'succeeded':
      return request.decidedBy === null ? t.apprHeadDone(title) : t.apprHeadDoneSettled(title);
    case 'failed':
      if (request.decidedBy !== null) return t.apprHeadNotApplied(title);
      return wasNotSent(request.error) ? t.apprHeadNotSent(title) : t.apprHeadFailed(title);
    case 'approved':
    case 'executing':
      return t.apprHeadRunning(title);
    case 'rejected':
      return t.apprHeadRejected(title);
    case 'cancelled':
      return t.apprHeadCancelled(title);
    case 'expired':
      return t.apprHeadExpired(title);
    case 'unknown':
      return t.apprHeadUnknown(title);
  }
}

/**
 * The approval message in `APPROVAL_CHANNEL`, in the channel's language (`CHANNEL_LOCALE`):
 * operation, target, preview (diff, before/after, what is deleted), requester, reason, expiry,
 * request ID and the short params hash; the Approve/Reject/Cancel buttons while it is pending, and
 * who decided and what happened after; the buttons that settle it while its outcome is unknown.
 * @see docs/architecture.md, "Approvals"
 */
export function approvalMessage(request: OperationRequest, now: Date, lang: Lang): SlackMessage {
  const t = lang.t.approvals;
  const open = request.state === 'pending';
  const fields = [
    mrkdwn(t.apprFieldTarget(targetCode(request.target, lang))),
    mrkdwn(
      t.apprFieldRequestedBy(who(lang, request.requester.name, 80), ltr(lang, code(request.requester.id))),
    ),
    mrkdwn(t.apprFieldStatus(stateLabel(request.state, lang))),
    mrkdwn(
      open
        ? t.apprFieldExpires(request.expiresAt ? expiryText(request.expiresAt, now, lang) : t.apprNever)
        : t.apprFieldApprovals(countOf(lang, request.approvals.length, request.quorum)),
    ),
    ...(open ? [mrkdwn(t.apprFieldApprovals(progressText(request, lang)))] : []),
  ];
  const blocks: KnownBlock[] = [
    header(
      plainWorded(
        `${irreversible(request) && open ? '⚠️ ' : ''}${headline(request, lang)}`,
        BLOCK_KIT_LIMITS.headerText,
      ),
    ),
    { type: 'section', fields },
    ...optionalSection(revertOfLine(request, lang)),
    ...previewSections(request, lang).map((text) => section(text)),
    section(t.apprReason(isolated(lang, request.reason ?? '', 1500) || t.apprNoneGiven)),
  ];
  const escalated = open ? escalationText(request, lang) : null;
  if (escalated !== null) blocks.push(section(escalated));
  const outcome = outcomeText(request, lang);
  if (outcome !== null) blocks.push(section(outcome));
  const box = timeBoxLines(request, now, lang);
  if (box.length > 0) blocks.push(...packLines(box).map((text) => section(text)));
  blocks.push(
    context(
      t.apprContext(
        ltr(lang, code(request.id)),
        ltr(lang, code(request.operation)),
        ltr(lang, code(shortHash(request.paramsHash))),
        readerDate(request.createdAt, lang),
        open ? t.apprNeeds(request.quorum, num(lang, request.quorum)) : '',
      ),
    ),
  );
  if (open) {
    blocks.push(
      actions(
        requestButtons(request, { approve: true, reject: true, cancel: true, remind: true }, lang),
        requestActionsBlock(request.id),
      ),
    );
  } else if (request.state === 'unknown') {
    blocks.push(actions(resolveButtons(request, lang), requestActionsBlock(request.id)));
  } else {
    blocks.push(...undoBlocks(request, lang));
  }
  blocks.push(...breakGlassBlocks(request, lang));
  const text = maskMobilesInText(
    t.apprMessageText(
      headline(request, lang),
      isolateOutside(lang, request.target, escapeOutside(truncate(request.target, 200))),
      isolateOutside(lang, request.requester.name, escapeOutside(request.requester.name)),
      ltr(lang, request.id),
    ),
  );
  return { text: truncate(text, 1000), blocks };
}

/** One section of `text`, or none. */
function optionalSection(text: string | null): KnownBlock[] {
  return text === null ? [] : [section(text)];
}

/**
 * What a done change offers to undo it: Put back now and Extend… while a time-boxed change is in
 * force, Revert… on a done reversible one; a change that has no inverse says so instead.
 * @see docs/time-boxed.md
 */
export function undoBlocks(request: OperationRequest, lang: Lang): KnownBlock[] {
  const buttons = [
    ...timeBoxButtons(request, lang, confirmWhat(request, operationTitleOf(request, lang))),
    ...revertButtons(request, lang),
  ];
  const blocks: KnownBlock[] = [];
  if (buttons.length > 0) blocks.push(actions(buttons, timeBoxActionsBlock(request.id)));
  const cannot = cannotRevertLine(request, lang);
  if (cannot !== null) blocks.push(context(cannot));
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Quorum progress, time left, escalation and the follow-up DMs (issue 13), in the reader's
// language (the catalog's `approvals` area).

/** A person as a Slack mention when the ID is a Slack user's, else their name. */
function mention(actor: Actor, lang: Lang): string {
  return /^[UW][A-Z0-9]{2,}$/.test(actor.id) ? `<@${actor.id}>` : who(lang, actor.name);
}

/** A user or user-group ID as a mention: `<@U…>`, `<!subteam^S…>`. */
function principalMention(id: string, lang: Lang): string {
  if (/^S[A-Z0-9]{2,}$/.test(id)) return `<!subteam^${id}>`;
  if (/^[UW][A-Z0-9]{2,}$/.test(id)) return `<@${id}>`;
  return ltr(lang, code(id));
}

/** `1 of 2 approved: <@U0LEAD1>`, or `0 of 2 approved (no approvals yet)`. */
export function progressText(request: OperationRequest, lang: Lang): string {
  const t = lang.t.approvals;
  const head = t.apprApprovedSoFar(num(lang, request.approvals.length), num(lang, request.quorum));
  if (request.approvals.length === 0) return `${head} (${t.apprNoneYet})`;
  return `${head}: ${list(
    lang,
    request.approvals.map((a) => mention(a.by, lang)),
  )}`;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The coarse time left: `3h`, `2 days`, `under 1h`; `۳ ساعت`, `۲ روز`, `کمتر از ۱ ساعت`. */
function leftWords(expiresAt: string, now: Date, lang: Lang): string {
  const left = timeLeft(expiresAt, now);
  if (lang.locale === 'en') return left.words;
  const t = lang.t.approvals;
  const amount = Number(left.bucket.slice(1));
  if (left.bucket.startsWith('d')) return spanText(lang, amount * DAY_MS);
  if (left.bucket.startsWith('h')) return spanText(lang, amount * HOUR_MS);
  if (left.bucket === 'm60') return t.apprLeftUnderHour;
  if (left.bucket === 'm15') return t.apprLeftUnderQuarter;
  return t.apprLeftNone;
}

/**
 * `in 3h (Mar 1 14:05)`: the coarse time left and the date; Slack's date token for English
 * readers, the Solar Hijri date for Persian readers.
 */
export function expiryText(expiresAt: string, now: Date, lang: Lang): string {
  return `${lang.t.approvals.apprExpiresIn(leftWords(expiresAt, now, lang))} (${readerDate(expiresAt, lang)})`;
}

/** Who a waiting request was escalated to, or null when it was not. */
function escalationText(request: OperationRequest, lang: Lang): string | null {
  const done = followUpOf(request);
  if (done.escalatedAt === null) return null;
  const to = list(
    lang,
    done.escalatedTo.map((id) => principalMention(id, lang)),
  );
  return `${lang.t.approvals.apprEscalatedTo(to)} (${readerDate(done.escalatedAt, lang)})`;
}

/** What a follow-up DM is about. */
export type FollowUpNotice = 'reminder' | 'escalation' | 'warning';

/**
 * A follow-up DM in its reader's language: to an approver (a reminder, the escalation to a
 * backup, the expiry warning), with the request's preview and its Approve/Reject buttons; or to
 * the requester (the expiry warning), with Remind. Pure: the clock reading comes in as `now`.
 */
export function followUpMessage(
  request: OperationRequest,
  notice: FollowUpNotice,
  to: 'approver' | 'requester',
  now: Date,
  lang: Lang,
): SlackMessage {
  const t = lang.t.approvals;
  const ref = refOf(request, lang);
  const by = who(lang, request.requester.name);
  const left = request.expiresAt === null ? t.apprNever : expiryText(request.expiresAt, now, lang);
  const done = followUpOf(request);
  let first: string;
  if (to === 'requester') first = t.apprWarnRequester(ref, left);
  else if (notice === 'reminder') {
    const asker = done.remindedBy;
    const asked = asker !== null && asker.id !== 'system' ? t.apprReminderAsked(who(lang, asker.name)) : '';
    first = `${t.apprReminder(ref, by)}${asked}`;
  } else if (notice === 'escalation') first = t.apprEscalation(ref, by);
  else first = t.apprWarnApprover(ref, left);
  const blocks: KnownBlock[] = [section(first), context(t.apprStanding(progressText(request, lang), left))];
  if (to === 'approver') {
    blocks.push(...previewSections(request, lang, 4000).map((text) => section(text)));
    if (request.reason) blocks.push(section(t.apprReason(isolated(lang, request.reason, 1500))));
  }
  blocks.push(
    actions(
      to === 'approver'
        ? requestButtons(request, { approve: true, reject: true, cancel: false }, lang)
        : requestButtons(request, { approve: false, reject: false, cancel: true, remind: true }, lang),
      requestActionsBlock(request.id),
    ),
  );
  const text = maskMobilesInText(`${first.replace(/:[a-z_]+: /g, '').replace(/\*/g, '')}`);
  return { text: truncate(text, 1000), blocks };
}

/**
 * A follow-up DM (reminder, escalation, expiry warning) once its request no longer waits on its
 * reader: where the request stands and what happened, without the buttons, so a DM read later
 * offers nothing that can no longer be done.
 */
export function settledFollowUpMessage(request: OperationRequest, lang: Lang): SlackMessage {
  const t = lang.t.approvals;
  // An outcome that is not known waits for someone who may approve it to settle it.
  const say = request.state === 'unknown' ? t.apprWaitsToBeSettled : t.apprNoLongerWaiting;
  const first = say(refOf(request, lang), stateLabel(request.state, lang));
  const blocks: KnownBlock[] = [section(first)];
  const outcome = outcomeText(request, lang);
  if (outcome !== null) blocks.push(section(outcome));
  const plainRef = plainRefOf(request, lang);
  const text = maskMobilesInText(say(plainRef, stateWord(request.state, lang)));
  return { text: truncate(text, 1000), blocks };
}

/**
 * What the requester is told in a DM (in their language) when their request is decided or has
 * run; null when there is nothing to tell (still waiting, running, or they cancelled it).
 */
export function requesterNotice(request: OperationRequest, lang: Lang): SlackMessage | null {
  const t = lang.t.approvals;
  if (request.state === 'succeeded' && request.timeBox?.endsAt) return putBackNotice(request, lang);
  const tell: Partial<Record<RequestState, string>> = {
    pending: request.approvals.length > 0 ? t.apprTellApproval : '',
    succeeded: t.apprTellDone,
    failed: t.apprTellFailed,
    rejected: t.apprTellRejected,
    expired: t.apprTellExpired,
    unknown: t.apprTellUnknown,
  };
  if (request.breakGlass !== undefined) {
    // The requester broke the glass themselves and saw the outcome where they did it.
    if (request.state === 'succeeded') tell.succeeded = t.apprTellGlassDone;
    if (request.state === 'failed') tell.failed = t.apprTellGlassFailed;
  }
  if (request.state === 'failed' && wasNotSent(request.error)) tell.failed = t.apprTellNotSent;
  const what = tell[request.state];
  if (what === undefined || what === '') return null;
  const first = t.apprYourRequest(refOf(request, lang), what);
  const outcome = outcomeText(request, lang);
  const blocks: KnownBlock[] = [section(first)];
  if (outcome !== null) blocks.push(section(outcome));
  const plainRef = plainRefOf(request, lang);
  const text = maskMobilesInText(t.apprYourRequest(plainRef, what.replace(/^:[a-z_]+: /, '')));
  return { text: truncate(text, 1000), blocks };
}

/**
 * What the requester of a time-boxed change is told once it applied: that it is done and when it
 * goes back (with Put back now and Extend…; not for a change that ran at once, whose answer said
 * it), that putting it back keeps failing, and how the put-back ended. Each is told once: the
 * words do not change with every attempt.
 */
function putBackNotice(request: OperationRequest, lang: Lang): SlackMessage | null {
  const t = lang.t.approvals;
  const box = request.timeBox;
  if (box === undefined) return null;
  const tell: Record<typeof box.state, string | null> = {
    waiting: request.quorum > 0 ? t.apprTellDone : null,
    running: null,
    retrying: t.apprTellPutBackRetrying,
    done: t.apprTellPutBack,
    left: t.apprTellPutBackLeft,
    cancelled: null,
  };
  const what = tell[box.state];
  if (what === null) return null;
  const first = t.apprYourRequest(refOf(request, lang), what);
  const blocks: KnownBlock[] = [section(first)];
  if (box.state === 'waiting') {
    const outcome = outcomeText(request, lang);
    if (outcome !== null) blocks.push(section(outcome));
  }
  if (box.state !== 'retrying') {
    // As of its change, so that the words (and the DM they make) do not change with the clock.
    const lines = timeBoxLines(request, new Date(request.updatedAt), lang);
    blocks.push(...packLines(lines).map((text) => section(text)));
  }
  blocks.push(...undoBlocks(request, lang));
  const text = maskMobilesInText(
    t.apprYourRequest(plainRefOf(request, lang), what.replace(/^:[a-z_]+: /, '')),
  );
  return { text: truncate(text, 1000), blocks };
}

/** How a submitted change ended, as the requester's answer shows it. */
export type SubmitOutcome =
  /** `said`: the refusal's sentence, worded in the reader's language; else `reason` (English). */
  | { kind: 'denied'; reason: string; said?: Said | undefined }
  | { kind: 'pending'; request: OperationRequest; why: Said | null }
  /** Ran at once (the policy needs no approval); `errorText` says why it failed, when it did. */
  | { kind: 'executed'; request: OperationRequest; errorText: string | null };

/**
 * What the requester reads after submitting a change: the request ID and where it waits, what it
 * will change (the preview), and any warning met on the way. Each entry is one section's text.
 */
export function submittedSections(
  outcome: SubmitOutcome,
  options: { approvalChannel: string; warnings?: readonly Said[] },
  lang: Lang,
): string[] {
  const t = lang.t.approvals;
  const warnings = (options.warnings ?? [])
    .slice(0, 5)
    .map((w) => t.apprSubmitWarning(safeWorded(sayIn(lang, w), 1000)));
  switch (outcome.kind) {
    case 'denied':
      return [t.apprSubmitDenied(safeWorded(reasonIn(lang, outcome), 1000))];
    case 'pending': {
      const { request } = outcome;
      const why = outcome.why === null ? '' : safeWorded(sayIn(lang, outcome.why), 200);
      return [
        t.apprSubmitPosted(
          boldId(lang, request.id),
          `<#${options.approvalChannel}>`,
          why,
          operationTitleOf(request, lang),
          targetCode(request.target, lang),
          ltr(lang, '`/vidops requests`'),
        ),
        ...timeBoxLines(request, new Date(request.updatedAt), lang),
        ...previewSections(request, lang, 5000),
        ...warnings,
      ];
    }
    case 'executed': {
      const { request } = outcome;
      const title = operationTitleOf(request, lang);
      const target = targetCode(request.target, lang);
      const id = boldId(lang, request.id);
      const head =
        request.state === 'succeeded'
          ? t.apprSubmitDone(title, target, id)
          : request.state === 'failed'
            ? t.apprSubmitFailed(
                title,
                target,
                id,
                safeWorded(outcome.errorText ?? t.apprSubmitServiceRefused, 1000),
              )
            : t.apprSubmitOther(stateLabel(request.state, lang), title, target, id);
      // Said right after it applied: until when, and how long that is from now.
      const until = inForceUntilLine(request, new Date(request.updatedAt), lang);
      return [head, ...(until === null ? [] : [until]), ...previewSections(request, lang, 5000), ...warnings];
    }
  }
}

/** The same as an ephemeral message. */
export function submittedMessage(
  outcome: SubmitOutcome,
  options: { approvalChannel: string; warnings?: readonly Said[] },
  lang: Lang,
): SlackMessage {
  const t = lang.t.approvals;
  const sections = submittedSections(outcome, options, lang);
  const text =
    outcome.kind === 'denied'
      ? t.apprSubmitDeniedText
      : outcome.kind === 'pending'
        ? t.apprSubmitPostedText(ltr(lang, outcome.request.id))
        : t.apprSubmitStateText(ltr(lang, outcome.request.id), stateWordForText(outcome.request.state, lang));
  const blocks: KnownBlock[] = sections.map((text) => section(text));
  // A change that applied at once offers its undo right under the answer.
  if (outcome.kind === 'executed' && boxInForce(outcome.request))
    blocks.push(...undoBlocks(outcome.request, lang));
  return { text, blocks };
}

/**
 * The state in a notification's plain text: its code word in English (as before), its word in
 * Persian; a word that names no state is shown as it is.
 */
export function stateWordForText(state: string, lang: Lang): string {
  return lang.locale === 'en' || !isState(state) ? state : stateWord(state, lang);
}

function isState(word: string): word is RequestState {
  return Object.hasOwn(STATE_EMOJI, word);
}

// --- Break-glass on the approval message (docs/architecture.md, "Break-glass and delegation") ---

/**
 * What the approval message of a break-glass change adds: who broke the glass, why, the review
 * (or that it is due, with Acknowledge / Flag… for the leads while it is not reviewed).
 */
export function breakGlassBlocks(request: OperationRequest, lang: Lang): KnownBlock[] {
  const t = lang.t.approvals;
  const record = request.breakGlass;
  if (record === undefined) return [];
  const blocks: KnownBlock[] = [
    section(
      t.apprGlassBy(
        who(lang, record.by.name),
        ltr(lang, code(record.by.id)),
        readerDate(record.at, lang),
        isolated(lang, record.reason, 1500),
      ),
    ),
  ];
  // A repeat viewer (alone, or inside a batch) run without the lead it needed is flagged to its reviewers.
  if (request.operation === 'viewer.unblock' && request.preview?.repeat !== undefined) {
    blocks.push(section(repeatBreakGlassLine(lang, request.params.mobileNumber, request.preview.repeat)));
  }
  const repeats = request.operation === 'viewer.unblock-many' ? (request.preview?.repeats.length ?? 0) : 0;
  if (repeats > 0) blocks.push(section(lang.t.batch.batchRepeatsBreakGlass(repeats)));
  if (record.review !== null) {
    const { review } = record;
    const verdict = review.verdict === 'flagged' ? t.apprGlassFlagged : t.apprGlassAcknowledged;
    blocks.push(
      section(
        t.apprGlassReviewed(
          verdict,
          who(lang, review.by.name),
          readerDate(review.at, lang),
          isolated(lang, review.note ?? '', 1000),
        ),
      ),
    );
    return blocks;
  }
  blocks.push(
    context(
      t.apprGlassNotReviewed(
        who(lang, record.by.name),
        readerDate(record.reviewDueAt, lang),
        record.overdueAt !== null,
      ),
    ),
  );
  if (request.state !== 'executing')
    blocks.push(actions(breakGlassReviewButtons(request, lang), `${BLOCKS.breakGlassActions}:${request.id}`));
  return blocks;
}

/** Acknowledge and Flag… (asks for a note) on a break-glass change; values carry only the ID. */
export function breakGlassReviewButtons(request: OperationRequest, lang: Lang = ENGLISH): Button[] {
  const t = lang.t.approvals;
  return [
    button(t.apprGlassAcknowledge, ACTIONS.breakGlassAcknowledge, request.id, 'primary'),
    button(t.apprGlassFlag, ACTIONS.breakGlassFlag, request.id, 'danger'),
  ];
}

// --- Changes that undo themselves: the DMs (docs/time-boxed.md) ---------------------------------

/**
 * The requester's reminder a little before a time-boxed change goes back, in their language:
 * what goes back and when (`preventZoom goes back to true in 10 minutes: extend?`), with Extend…
 * and Put back now.
 */
export function putBackReminderMessage(request: OperationRequest, now: Date, lang: Lang): SlackMessage {
  const t = lang.t.approvals;
  const first = t.apprBoxReminder(
    reminderText(lang, request, now) ?? timeBoxLines(request, now, lang).join(' '),
    refOf(request, lang),
  );
  const blocks: KnownBlock[] = [section(first), ...undoBlocks(request, lang)];
  const text = first.replace(/:[a-z_]+: /g, '').replace(/[*`]/g, '');
  return { text: truncate(maskMobilesInText(text), 1000), blocks };
}

/** A lead is told that putting a change back has failed for an hour: since when, the last error, and Put back now. */
export function putBackEscalationMessage(request: OperationRequest, lang: Lang): SlackMessage {
  const t = lang.t.approvals;
  const box = request.timeBox;
  const since = readerDate(box?.failingSince ?? request.updatedAt, lang);
  const error = box?.lastError ? shownError(lang, box.lastError, 300) : '';
  const first = t.apprBoxEscalated(refOf(request, lang), since, error);
  const blocks: KnownBlock[] = [
    section(first),
    ...previewSections(request, lang, 1500).map((text) => section(text)),
    ...undoBlocks(request, lang),
  ];
  const text = t.apprBoxEscalated(plainRefOf(request, lang), since, '');
  return {
    text: truncate(maskMobilesInText(text.replace(/:[a-z_]+: /g, '').replace(/\*/g, '')), 1000),
    blocks,
  };
}

/** A DM that offered Put back now or Extend… once the change is no longer in force: how its put-back stands, no buttons. */
export function settledTimeBoxMessage(request: OperationRequest, lang: Lang): SlackMessage {
  const t = lang.t.approvals;
  const first = t.apprBoxReminderGone(refOf(request, lang));
  const lines = timeBoxLines(request, new Date(request.updatedAt), lang);
  const blocks: KnownBlock[] = [section(first), ...packLines(lines).map((text) => section(text))];
  return {
    text: truncate(maskMobilesInText(t.apprBoxReminderGone(plainRefOf(request, lang))), 1000),
    blocks,
  };
}
