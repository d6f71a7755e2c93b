import type { Button, KnownBlock } from '@slack/types';
import { viaPhrase } from '../core/actor.js';
import { shortHash } from '../core/audit-chain.js';
import { type ChangeOperation, OPERATION_SPECS, type Preview } from '../core/catalog.js';
import { timeLeft } from '../core/follow-up.js';
import type { JsonValue } from '../core/json.js';
import { maskMobile, maskMobilesInText } from '../core/mask.js';
import { type Actor, followUpOf, type OperationRequest, type RequestState } from '../core/model.js';
import { escapeMrkdwn } from '../core/mrkdwn.js';
import { formatProtectionValue, protectionField } from '../core/validate/protection.js';
import {
  actions,
  button,
  code,
  context,
  header,
  mrkdwn,
  packLines,
  plain,
  plainText,
  type SlackMessage,
  safe,
  section,
} from './blocks.js';
import { ACTIONS, BLOCKS, requestActionsBlock } from './ids.js';
import { BLOCK_KIT_LIMITS, truncate } from './limits.js';

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
  if (!Number.isFinite(seconds)) return escapeMrkdwn(iso);
  return `<!date^${seconds}^{date_short_pretty} {time}|${utc(iso)}>`;
}

const STATE_LABELS: Record<RequestState, string> = {
  pending: ':hourglass_flowing_sand: waiting for approval',
  approved: ':thumbsup: approved',
  executing: ':gear: running',
  succeeded: ':white_check_mark: done',
  failed: ':x: failed',
  rejected: ':no_entry_sign: rejected',
  cancelled: ':leftwards_arrow_with_hook: cancelled',
  expired: ':hourglass: expired',
  unknown: ':grey_question: outcome unknown',
};

/** Where a request stands, with an emoji: `:white_check_mark: done`. */
export function stateLabel(state: RequestState): string {
  return STATE_LABELS[state];
}

/** Title of the operation: `Delete folder`. */
export function operationTitleOf(request: Pick<OperationRequest, 'operation'>): string {
  return OPERATION_SPECS[request.operation].title;
}

/** Human names in a list: `Lee`, `Lee and Kim`, `Lee, Kim and Max`. */
function names(list: readonly string[]): string {
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/** Who approved; an approval from the CLI says so: "U0LEAD1 via the CLI (OS user root)". */
function approvers(request: OperationRequest): string {
  return names(
    request.approvals.map((a) => {
      const via = viaPhrase(a.by);
      const who = via === null ? safe(a.by.name, 60) : `${safe(a.by.name, 60)} ${safe(via, 100)}`;
      // In a lead's place, by delegation: "sara for lena (delegated)".
      return a.for === undefined ? who : `${who} for ${safe(a.for.name, 60)} (delegated)`;
    }),
  );
}

/**
 * The target of a request for display: an ID (no spaces) is kept whole; descriptive text
 * (`new folder "…"`) is cut.
 */
export function targetCode(target: string): string {
  return code(/\s/.test(target) ? truncate(target, 120) : target);
}

/** One line per request for lists: ID, operation, target, state, and who asked. */
export function requestLine(request: OperationRequest, options: { showRequester?: boolean } = {}): string {
  const who = options.showRequester ? ` · by ${safe(request.requester.name, 60)}` : '';
  const count =
    request.state === 'pending' && request.quorum > 0
      ? ` (${request.approvals.length} of ${request.quorum})`
      : '';
  return `*${request.id}* · ${operationTitleOf(request)} ${targetCode(request.target)} · ${stateLabel(request.state)}${count}${who}`;
}

/** What happened to a decided request, in one or two lines; null while it is still open. */
export function outcomeText(request: OperationRequest): string | null {
  const approved =
    request.breakGlass !== undefined
      ? `*BREAK-GLASS:* run by ${safe(request.breakGlass.by.name, 60)} without waiting for approval`
      : request.approvals.length > 0
        ? `Approved by ${approvers(request)}`
        : 'Ran directly';
  switch (request.state) {
    case 'pending':
      return request.approvals.length > 0
        ? `Approved by ${approvers(request)} (${request.approvals.length} of ${request.quorum}); waiting for more.`
        : null;
    case 'approved':
      return `${approved}; waiting to run.`;
    case 'executing':
      return `${approved}; running since ${slackDate(request.updatedAt)}.`;
    case 'succeeded':
      if (request.decidedBy !== null) return `${approved}; ${settledText(request)}`;
      return `${approved}; done at ${slackDate(request.updatedAt)}.${resultText(request.result)}`;
    case 'failed': {
      if (request.decidedBy !== null) return `${approved}; ${settledText(request)}`;
      const error = request.error;
      const why =
        error === null
          ? ''
          : ` ${safe(`${error.name}${error.status === undefined ? '' : ` (${error.status})`}: ${error.message}`, 400)}`;
      // Edits and the like keep `failed` when their answer was lost (asking again is harmless).
      const lost = error !== null && (error.name === 'TimeoutError' || error.name === 'NetworkError');
      const after = lost
        ? ' Its answer was lost, so it may or may not have been applied; asking for it again gives the same end state.'
        : ' Nothing else was changed.';
      return `${approved}; it failed at ${slackDate(request.updatedAt)}.${why}${after}`;
    }
    case 'rejected':
      return `Rejected by ${safe(request.decidedBy?.name ?? 'a lead', 60)} at ${slackDate(request.updatedAt)}: ${safe(request.decisionNote ?? '', 500)}`;
    case 'cancelled':
      return `Cancelled by ${safe(request.decidedBy?.name ?? request.requester.name, 60)} at ${slackDate(request.updatedAt)}.${request.decisionNote ? ` ${safe(request.decisionNote, 300)}` : ''}`;
    case 'expired':
      return `Expired at ${slackDate(request.expiresAt ?? request.updatedAt)} with ${request.approvals.length} of ${request.quorum} approvals; nothing was changed.`;
    case 'unknown':
      return `${approved}; ${unknownText(request)}`;
  }
}

/** Why the outcome of an `unknown` request is not known, and how it gets settled. */
function unknownText(request: OperationRequest): string {
  const error = request.error;
  const why =
    error === null
      ? 'vidops stopped while it ran'
      : `the service gave no clear answer (${safe(`${error.name}${error.status === undefined ? '' : ` ${error.status}`}: ${error.message}`, 300)})`;
  const ways = sendableAgain(request)
    ? 'check now, send it again (a 404 then means it was already deleted), or mark it applied or not applied'
    : 'mark it applied or not applied after looking at the service';
  return `it may or may not have been applied: ${why} at ${slackDate(request.updatedAt)}, and vidops does not send it again by itself. Someone who may approve it, never the requester, settles it: ${ways}.`;
}

const WAY_WORDS: Record<string, string> = {
  check: 'checked now',
  applied: 'marked applied',
  'not-applied': 'marked not applied',
  'send-again': 'sent again',
};

/** How a lead settled an outcome that was unknown: who, how, what and their note. */
function settledText(request: OperationRequest): string {
  const result = request.result;
  const record = result !== null && typeof result === 'object' && !Array.isArray(result) ? result : {};
  const way =
    typeof record.resolved === 'string' ? (WAY_WORDS[record.resolved] ?? record.resolved) : 'settled';
  const outcome =
    request.state === 'failed'
      ? (request.error?.message ?? 'not applied')
      : typeof record.outcome === 'string'
        ? record.outcome
        : 'applied';
  const note = request.decisionNote ? ` Note: ${safe(request.decisionNote, 500)}` : '';
  return `its outcome was unknown; ${safe(request.decidedBy?.name ?? 'a lead', 60)} ${way} at ${slackDate(request.updatedAt)}: *${safe(outcome, 300)}*.${note}`;
}

/** Deletes only: a lead may send them once more, a 404 then meaning "already deleted". */
function sendableAgain(request: OperationRequest): boolean {
  return OPERATION_SPECS[request.operation].repeat === 'lead';
}

/** What the service answered, compact and masked. */
function resultText(result: JsonValue): string {
  if (result === null) return '';
  const raw = typeof result === 'string' ? result : JSON.stringify(result);
  if (raw === '{}' || raw === '' || raw === '[]') return '';
  return ` The service answered: ${code(truncate(maskMobilesInText(raw), 300))}`;
}

// ---------------------------------------------------------------------------------------------
// Previews: what approvers see before deciding, typed per operation (built by its prepare, or
// parsed once when a request is read from the store), each rendered by its entry of
// `PREVIEW_VIEWS`.

/** Renders one operation's preview as lines of mrkdwn. */
export type PreviewView<O extends ChangeOperation> = (preview: Preview<O>) => string[];

/** Said for a stored request whose preview this build cannot read (made by an older one). */
export const PREVIEW_NOT_AVAILABLE =
  '_Preview not available: this request was made by an earlier version of vidops._';

/** A comma list of `code` items, wrapped into lines of about `width` characters. */
function wrapList(label: string, items: readonly string[], width = 1200): string[] {
  if (items.length === 0) return [`${label}: _none_`];
  const lines: string[] = [];
  let current = `${label}:`;
  for (const [i, item] of items.entries()) {
    const piece = `${i === 0 ? ' ' : ', '}${code(item)}`;
    if (current.length + piece.length > width) {
      lines.push(`${current},`);
      current = `    ${code(item)}`;
      continue;
    }
    current += piece;
  }
  lines.push(current);
  return lines;
}

function quotedTitle(title: string | null | undefined): string {
  return title ? ` “${safe(title, 150)}”` : '';
}

function changeLine(label: string, before: string | null | undefined, after: string | null | undefined) {
  const from = before === undefined ? '' : `${before ? `“${safe(before, 300)}”` : '_empty_'} → `;
  return `• ${label}: ${from}${after ? `*“${safe(after, 300)}”*` : '_empty_'}`;
}

function playlistLines(label: string, files: readonly { _id: string; title?: string | null | undefined }[]) {
  const lines = [`${label} (${files.length}):`];
  files.forEach((f, i) => {
    lines.push(`${i + 1}. ${code(f._id)}${quotedTitle(f.title)}`);
  });
  return lines;
}

const whitelistLines: PreviewView<'whitelist.set'> = (preview) => [
  ...(preview.added.length > 0 ? wrapList(`*Adds* (${preview.added.length})`, preview.added) : []),
  ...(preview.removed.length > 0 ? wrapList(`*Removes* (${preview.removed.length})`, preview.removed) : []),
  ...wrapList(`*Whitelist after* (${preview.after.length})`, preview.after),
  ...wrapList(`Whitelist before (${preview.before.length})`, preview.before),
  ...(preview.after.length === 0
    ? [':warning: The whitelist will be empty: while ipValidation is on, no server can create links.']
    : []),
];

const protectionLines: PreviewView<'protect.set'> = (preview) => [
  `*Settings that change* (${preview.rows.length}):`,
  ...preview.rows.map((row) => {
    const label = protectionField(row.field)?.label ?? row.field;
    return `• ${safe(label, 80)} (${code(row.field)}): ${safe(formatProtectionValue(row.field, row.before), 200)} → *${safe(formatProtectionValue(row.field, row.after), 200)}*`;
  }),
];

function createLines(preview: Preview<'folder.create' | 'playlist.create'>): string[] {
  const after: { title: string; description?: string } = preview.after;
  return [
    `*Creates* a ${preview.resource}:`,
    changeLine('Title', undefined, after.title),
    ...(preview.resource === 'folder' ? [changeLine('Description', undefined, after.description)] : []),
  ];
}

function editLines(preview: Preview<'folder.edit' | 'file.edit' | 'playlist.edit'>): string[] {
  const known = preview.before !== null;
  const lines = [
    `*Changes* ${preview.resource} ${code(preview.id)}${known ? '' : ' (its current values could not be read)'}:`,
  ];
  const title = (before: { title: string | null } | null, after: string | null) => {
    if (after !== null) lines.push(changeLine('Title', before === null ? undefined : before.title, after));
  };
  switch (preview.resource) {
    case 'folder':
    case 'file':
      title(preview.before, preview.after.title);
      lines.push(
        changeLine(
          'Description',
          preview.before === null ? undefined : preview.before.description,
          preview.after.description,
        ),
      );
      if (preview.resource === 'file' && preview.after.cover !== null) {
        lines.push(`• Cover image: new image ${code(preview.after.cover)}`);
      }
      return lines;
    case 'playlist':
      title(preview.before, preview.after.title);
      if (preview.after.files !== null) {
        lines.push(...playlistLines('*Files after*', preview.after.files));
        if (preview.before !== null) lines.push(...playlistLines('Files before', preview.before.files));
      }
      return lines;
  }
}

function deleteLines(preview: Preview<'folder.delete' | 'file.delete' | 'playlist.delete'>): string[] {
  const count =
    'filesCount' in preview && preview.filesCount !== null
      ? preview.resource === 'folder'
        ? ` and its ${preview.filesCount} file${preview.filesCount === 1 ? '' : 's'}`
        : ` (${preview.filesCount} file${preview.filesCount === 1 ? '' : 's'} in it)`
      : '';
  const where = 'bucketId' in preview && preview.bucketId ? ` in folder ${code(preview.bucketId)}` : '';
  return [
    `:warning: *Deletes* ${preview.resource} ${code(preview.id)}${quotedTitle(preview.title)}${where}${count}. This cannot be undone.`,
  ];
}

const retryLines: PreviewView<'file.retry'> = (preview) => [
  `*Retries the conversion* of file ${code(preview.id)}${quotedTitle(preview.title)}${preview.hlsStatus ? ` (status ${safe(preview.hlsStatus, 20)})` : ''}.`,
];

const unblockLines: PreviewView<'viewer.unblock'> = (preview) => {
  const facts = [
    preview.blocked === true ? 'blocked' : preview.blocked === false ? 'not listed as blocked' : null,
    preview.actionType ? `risk ${safe(preview.actionType, 20)}` : null,
  ].filter((f) => f !== null);
  return [
    `*Unblocks* viewer ${code(maskMobile(preview.mobileNumber))}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}.`,
  ];
};

/** How each operation's preview reads in Slack; the compiler checks every operation has one. */
export const PREVIEW_VIEWS: { readonly [O in ChangeOperation]: PreviewView<O> } = {
  'whitelist.set': whitelistLines,
  'protect.set': protectionLines,
  'folder.create': createLines,
  'folder.edit': editLines,
  'folder.delete': deleteLines,
  'file.edit': editLines,
  'file.delete': deleteLines,
  'file.retry': retryLines,
  'playlist.create': createLines,
  'playlist.edit': editLines,
  'playlist.delete': deleteLines,
  'viewer.unblock': unblockLines,
};

/** The lines of a request's (or a prepared change's) preview. */
function previewLines<O extends ChangeOperation>(subject: {
  operation: O;
  preview: Preview<O> | null;
}): string[] {
  if (subject.preview === null) return [PREVIEW_NOT_AVAILABLE];
  const view: PreviewView<O> = PREVIEW_VIEWS[subject.operation];
  return view(subject.preview);
}

/**
 * The preview of a request (or a prepared change) as section texts, at most `budget` characters
 * in all: lines past the budget are dropped with a note saying how many.
 */
export function previewSections<O extends ChangeOperation>(
  subject: { operation: O; preview: Preview<O> | null },
  budget = 7000,
): string[] {
  const lines = previewLines(subject);
  const kept: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    if (used + line.length + 1 > budget) {
      kept.push(`_… and ${lines.length - i} more line${lines.length - i === 1 ? '' : 's'} not shown._`);
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
): Button[] {
  const buttons: Button[] = [];
  if (which.approve) {
    const what = `${operationTitleOf(request)}: ${plain(request.target, 120)}.`;
    buttons.push({
      ...button('Approve', ACTIONS.approve, request.id, 'primary'),
      confirm: {
        title: plainText(`Approve ${request.id}?`),
        text: plainText(
          truncate(
            `${what} It runs as soon as you approve.${irreversible(request) ? ' This cannot be undone.' : ''}`,
            BLOCK_KIT_LIMITS.confirmText,
          ),
        ),
        confirm: plainText('Approve'),
        deny: plainText('Not yet'),
        ...(irreversible(request) ? { style: 'danger' as const } : {}),
      },
    });
  }
  if (which.reject) buttons.push(button('Reject…', ACTIONS.reject, request.id, 'danger'));
  if (which.cancel) buttons.push(button('Cancel request', ACTIONS.cancel, request.id));
  if (which.remind) buttons.push(button(FOLLOW_UP_WORDS.remindButton, ACTIONS.remind, request.id));
  return buttons;
}

/**
 * The buttons that settle an unknown outcome: Check now and Send again (deletes only, Send again
 * with a confirmation), Mark applied… and Mark not applied… (each asks for a note). Values carry
 * only the request ID; who may press them is checked when they are pressed.
 */
export function resolveButtons(request: OperationRequest): Button[] {
  const buttons: Button[] = [];
  const id = request.id;
  if (sendableAgain(request)) buttons.push(button('Check now', ACTIONS.resolveCheck, id, 'primary'));
  buttons.push(
    button('Mark applied…', ACTIONS.resolveApplied, id),
    button('Mark not applied…', ACTIONS.resolveNotApplied, id),
  );
  if (sendableAgain(request)) {
    buttons.push({
      ...button('Send again', ACTIONS.resolveSendAgain, id, 'danger'),
      confirm: {
        title: plainText(`Send ${id} again?`),
        text: plainText(
          truncate(
            `${operationTitleOf(request)}: ${plain(request.target, 120)}. It is sent once more; if the service answers 404, it had already been deleted. This cannot be undone.`,
            BLOCK_KIT_LIMITS.confirmText,
          ),
        ),
        confirm: plainText('Send again'),
        deny: plainText('Not now'),
        style: 'danger',
      },
    });
  }
  return buttons;
}

function headline(request: OperationRequest): string {
  return request.breakGlass === undefined
    ? stateHeadline(request)
    : `BREAK-GLASS · ${stateHeadline(request)}`;
}

function stateHeadline(request: OperationRequest): string {
  switch (request.state) {
    case 'pending':
      return `Approval needed: ${operationTitleOf(request)}`;
    case 'succeeded':
      return request.decidedBy === null
        ? `${operationTitleOf(request)}: approved and done`
        : `${operationTitleOf(request)}: done (outcome settled by a lead)`;
    case 'failed':
      return request.decidedBy === null
        ? `${operationTitleOf(request)}: approved, but it failed`
        : `${operationTitleOf(request)}: not applied (outcome settled by a lead)`;
    case 'approved':
    case 'executing':
      return `${operationTitleOf(request)}: approved, running`;
    case 'rejected':
      return `${operationTitleOf(request)}: rejected`;
    case 'cancelled':
      return `${operationTitleOf(request)}: cancelled`;
    case 'expired':
      return `${operationTitleOf(request)}: expired`;
    case 'unknown':
      return `${operationTitleOf(request)}: approved, outcome unknown`;
  }
}

/**
 * The approval message in `APPROVAL_CHANNEL`: operation, target, preview (diff, before/after,
 * what is deleted), requester, reason, expiry, request ID and the short params hash; the
 * Approve/Reject/Cancel buttons while it is pending, and who decided and what happened after; the
 * buttons that settle it while its outcome is unknown.
 * @see docs/architecture.md, "Approvals"
 */
export function approvalMessage(request: OperationRequest, now: Date): SlackMessage {
  const open = request.state === 'pending';
  const fields = [
    mrkdwn(`*Target*\n${targetCode(request.target)}`),
    mrkdwn(`*Requested by*\n${safe(request.requester.name, 80)} (${code(request.requester.id)})`),
    mrkdwn(`*Status*\n${stateLabel(request.state)}`),
    mrkdwn(
      open
        ? `*Expires*\n${request.expiresAt ? expiryText(request.expiresAt, now) : 'never'}`
        : `*Approvals*\n${request.approvals.length} of ${request.quorum}`,
    ),
    ...(open ? [mrkdwn(`*Approvals*\n${progressText(request)}`)] : []),
  ];
  const blocks: KnownBlock[] = [
    header(
      plain(`${irreversible(request) && open ? '⚠️ ' : ''}${headline(request)}`, BLOCK_KIT_LIMITS.headerText),
    ),
    { type: 'section', fields },
    ...previewSections(request).map((text) => section(text)),
    section(`*Reason:* ${request.reason ? safe(request.reason, 1500) : '_none given_'}`),
  ];
  const escalated = open ? escalationText(request) : null;
  if (escalated !== null) blocks.push(section(escalated));
  const outcome = outcomeText(request);
  if (outcome !== null) blocks.push(section(outcome));
  blocks.push(
    context(
      `Request ${code(request.id)} · ${code(request.operation)} · params ${code(shortHash(request.paramsHash))} · asked ${slackDate(request.createdAt)}${open ? ` · needs ${request.quorum} approval${request.quorum === 1 ? '' : 's'}, never the requester's own` : ''}`,
    ),
  );
  if (open) {
    blocks.push(
      actions(
        requestButtons(request, { approve: true, reject: true, cancel: true, remind: true }),
        requestActionsBlock(request.id),
      ),
    );
  } else if (request.state === 'unknown') {
    blocks.push(actions(resolveButtons(request), requestActionsBlock(request.id)));
  }
  blocks.push(...breakGlassBlocks(request));
  const text = maskMobilesInText(
    `${headline(request)}: ${escapeMrkdwn(truncate(request.target, 200))}, requested by ${escapeMrkdwn(request.requester.name)} (${request.id})`,
  );
  return { text: truncate(text, 1000), blocks };
}

// ---------------------------------------------------------------------------------------------
// Quorum progress, time left, escalation and the follow-up DMs (issue 13). Every phrase people
// read is in FOLLOW_UP_WORDS, so a translation has one place to go through.

/** The words of the follow-ups, in one place. */
export const FOLLOW_UP_WORDS = {
  remindButton: 'Remind approvers',
  approvedSoFar: (count: number, quorum: number) => `${count} of ${quorum} approved`,
  noneYet: 'no approvals yet',
  expiresIn: (left: string) => `in ${left}`,
  escalatedTo: (who: string) => `:arrow_up: *Escalated to* ${who}: they may approve it as well.`,
  reminder: (ref: string, by: string) =>
    `:alarm_clock: *Reminder:* ${ref} by ${by} is waiting for your decision.`,
  reminderAsked: (name: string) => ` ${name} asked for this reminder.`,
  escalation: (ref: string, by: string) =>
    `:arrow_up: ${ref} by ${by} has not been decided in time and is now offered to you as a backup approver.`,
  warnApprover: (ref: string, left: string) => `:hourglass: ${ref} expires ${left} unless it is decided.`,
  warnRequester: (ref: string, left: string) =>
    `:hourglass: Your request ${ref} expires ${left}; if it is not approved by then, nothing is changed.`,
  standing: (progress: string) => `So far: ${progress}.`,
  reminded: (id: string, count: number) =>
    `:alarm_clock: The approvers of *${id}* who have not decided are reminded (${count === 1 ? '1 approval' : `${count} approvals`} so far).`,
} as const;

/** A person as a Slack mention when the ID is a Slack user's, else their name. */
function mention(actor: Actor): string {
  return /^[UW][A-Z0-9]{2,}$/.test(actor.id) ? `<@${actor.id}>` : safe(actor.name, 60);
}

/** A user or user-group ID as a mention: `<@U…>`, `<!subteam^S…>`. */
function principalMention(id: string): string {
  if (/^S[A-Z0-9]{2,}$/.test(id)) return `<!subteam^${id}>`;
  if (/^[UW][A-Z0-9]{2,}$/.test(id)) return `<@${id}>`;
  return code(id);
}

/** `1 of 2 approved: <@U0LEAD1>`, or `0 of 2 approved (no approvals yet)`. */
export function progressText(request: OperationRequest): string {
  const head = FOLLOW_UP_WORDS.approvedSoFar(request.approvals.length, request.quorum);
  if (request.approvals.length === 0) return `${head} (${FOLLOW_UP_WORDS.noneYet})`;
  return `${head}: ${names(request.approvals.map((a) => mention(a.by)))}`;
}

/** `in 3h (Mar 1 14:05)`: the coarse time left and the date Slack shows in the reader's zone. */
export function expiryText(expiresAt: string, now: Date): string {
  return `${FOLLOW_UP_WORDS.expiresIn(timeLeft(expiresAt, now).words)} (${slackDate(expiresAt)})`;
}

/** Who a waiting request was escalated to, or null when it was not. */
function escalationText(request: OperationRequest): string | null {
  const done = followUpOf(request);
  if (done.escalatedAt === null) return null;
  return `${FOLLOW_UP_WORDS.escalatedTo(names(done.escalatedTo.map(principalMention)))} (${slackDate(done.escalatedAt)})`;
}

/** What a follow-up DM is about. */
export type FollowUpNotice = 'reminder' | 'escalation' | 'warning';

/**
 * A follow-up DM: to an approver (a reminder, the escalation to a backup, the expiry warning),
 * with the request's preview and its Approve/Reject buttons; or to the requester (the expiry
 * warning), with Remind. Pure: the clock reading comes in as `now`.
 */
export function followUpMessage(
  request: OperationRequest,
  notice: FollowUpNotice,
  to: 'approver' | 'requester',
  now: Date,
): SlackMessage {
  const W = FOLLOW_UP_WORDS;
  const ref = `*${request.id}* (${operationTitleOf(request)} ${targetCode(request.target)})`;
  const by = safe(request.requester.name, 60);
  const left = request.expiresAt === null ? 'never' : expiryText(request.expiresAt, now);
  const done = followUpOf(request);
  let first: string;
  if (to === 'requester') first = W.warnRequester(ref, left);
  else if (notice === 'reminder') {
    const asker = done.remindedBy;
    const asked = asker !== null && asker.id !== 'system' ? W.reminderAsked(safe(asker.name, 60)) : '';
    first = `${W.reminder(ref, by)}${asked}`;
  } else if (notice === 'escalation') first = W.escalation(ref, by);
  else first = W.warnApprover(ref, left);
  const blocks: KnownBlock[] = [
    section(first),
    context(`${W.standing(progressText(request))} Expires ${left}.`),
  ];
  if (to === 'approver') {
    blocks.push(...previewSections(request, 4000).map((text) => section(text)));
    if (request.reason) blocks.push(section(`*Reason:* ${safe(request.reason, 1500)}`));
  }
  blocks.push(
    actions(
      to === 'approver'
        ? requestButtons(request, { approve: true, reject: true, cancel: false })
        : requestButtons(request, { approve: false, reject: false, cancel: true, remind: true }),
      requestActionsBlock(request.id),
    ),
  );
  const text = maskMobilesInText(`${first.replace(/:[a-z_]+: /g, '').replace(/\*/g, '')}`);
  return { text: truncate(text, 1000), blocks };
}

/**
 * What the requester is told in a DM when their request is decided or has run; null when there
 * is nothing to tell (still waiting, running, or they cancelled it themselves).
 */
export function requesterNotice(request: OperationRequest): SlackMessage | null {
  const tell: Partial<Record<RequestState, string>> = {
    pending: request.approvals.length > 0 ? ':thumbsup: got an approval' : '',
    succeeded: ':white_check_mark: was approved and is done',
    failed: ':x: was approved but failed',
    rejected: ':no_entry_sign: was rejected',
    expired: ':hourglass: expired',
    unknown: ':grey_question: may or may not have been applied; its outcome is unknown',
  };
  if (request.breakGlass !== undefined) {
    // The requester broke the glass themselves and saw the outcome where they did it.
    if (request.state === 'succeeded') tell.succeeded = ':rotating_light: ran by break-glass and is done';
    if (request.state === 'failed') tell.failed = ':x: ran by break-glass but failed';
  }
  const what = tell[request.state];
  if (what === undefined || what === '') return null;
  const first = `Your request *${request.id}* (${operationTitleOf(request)} ${targetCode(request.target)}) ${what}.`;
  const outcome = outcomeText(request);
  const blocks: KnownBlock[] = [section(first)];
  if (outcome !== null) blocks.push(section(outcome));
  const text = maskMobilesInText(
    `Your request ${request.id} (${operationTitleOf(request)}: ${escapeMrkdwn(truncate(request.target, 200))}) ${what.replace(/^:[a-z_]+: /, '')}.`,
  );
  return { text: truncate(text, 1000), blocks };
}

/** How a submitted change ended, as the requester's answer shows it. */
export type SubmitOutcome =
  | { kind: 'denied'; reason: string }
  | { kind: 'pending'; request: OperationRequest; why: string }
  /** Ran at once (the policy needs no approval); `errorText` says why it failed, when it did. */
  | { kind: 'executed'; request: OperationRequest; errorText: string | null };

/**
 * What the requester reads after submitting a change: the request ID and where it waits, what it
 * will change (the preview), and any warning met on the way. Each entry is one section's text.
 */
export function submittedSections(
  outcome: SubmitOutcome,
  options: { approvalChannel: string; warnings?: readonly string[] },
): string[] {
  const warnings = (options.warnings ?? []).slice(0, 5).map((w) => `:warning: ${safe(w, 1000)}`);
  switch (outcome.kind) {
    case 'denied':
      return [`:no_entry: Nothing was asked: ${safe(outcome.reason, 1000)}`];
    case 'pending': {
      const { request } = outcome;
      const why = outcome.why === 'policy' ? '' : ` (${safe(outcome.why, 200)})`;
      return [
        `:inbox_tray: Request *${request.id}* posted to <#${options.approvalChannel}> for approval${why}: ${operationTitleOf(request)} ${targetCode(request.target)}. You will get a direct message when a lead decides; \`/vidops requests\` shows where it stands.`,
        ...previewSections(request, 5000),
        ...warnings,
      ];
    }
    case 'executed': {
      const { request } = outcome;
      const head =
        request.state === 'succeeded'
          ? `:white_check_mark: Done: ${operationTitleOf(request)} ${targetCode(request.target)} (request *${request.id}*).`
          : request.state === 'failed'
            ? `:x: ${operationTitleOf(request)} ${targetCode(request.target)} failed (request *${request.id}*): ${safe(outcome.errorText ?? 'the service refused it', 1000)}`
            : `${stateLabel(request.state)}: ${operationTitleOf(request)} ${targetCode(request.target)} (request *${request.id}*).`;
      return [head, ...previewSections(request, 5000), ...warnings];
    }
  }
}

/** The same as an ephemeral message. */
export function submittedMessage(
  outcome: SubmitOutcome,
  options: { approvalChannel: string; warnings?: readonly string[] },
): SlackMessage {
  const sections = submittedSections(outcome, options);
  const text =
    outcome.kind === 'denied'
      ? 'Nothing was asked: the policy refused it.'
      : outcome.kind === 'pending'
        ? `Request ${outcome.request.id} posted for approval.`
        : `Request ${outcome.request.id}: ${outcome.request.state}.`;
  return { text, blocks: sections.map((text) => section(text)) };
}

// --- Break-glass on the approval message (docs/architecture.md, "Break-glass and delegation") ---

/**
 * What the approval message of a break-glass change adds: who broke the glass, why, the review
 * (or that it is due, with Acknowledge / Flag… for the leads while it is not reviewed).
 */
export function breakGlassBlocks(request: OperationRequest): KnownBlock[] {
  const record = request.breakGlass;
  if (record === undefined) return [];
  const blocks: KnownBlock[] = [
    section(
      `:rotating_light: *BREAK-GLASS* by ${safe(record.by.name, 60)} (${code(record.by.id)}) at ${slackDate(record.at)}, without waiting for approval.\n*Why it could not wait:* ${safe(record.reason, 1500)}`,
    ),
  ];
  if (record.review !== null) {
    const { review } = record;
    const verdict =
      review.verdict === 'flagged' ? ':triangular_flag_on_post: Flagged' : ':white_check_mark: Acknowledged';
    blocks.push(
      section(
        `${verdict} by ${safe(review.by.name, 60)} at ${slackDate(review.at)}${review.note ? `: ${safe(review.note, 1000)}` : '.'}`,
      ),
    );
    return blocks;
  }
  blocks.push(
    context(
      `Not reviewed yet: a lead other than ${safe(record.by.name, 60)} reviews it by ${slackDate(record.reviewDueAt)}.${record.overdueAt === null ? '' : ' *Overdue.*'}`,
    ),
  );
  if (request.state !== 'executing')
    blocks.push(actions(breakGlassReviewButtons(request), `${BLOCKS.breakGlassActions}:${request.id}`));
  return blocks;
}

/** Acknowledge and Flag… (asks for a note) on a break-glass change; values carry only the ID. */
export function breakGlassReviewButtons(request: OperationRequest): Button[] {
  return [
    button('Acknowledge', ACTIONS.breakGlassAcknowledge, request.id, 'primary'),
    button('Flag…', ACTIONS.breakGlassFlag, request.id, 'danger'),
  ];
}
