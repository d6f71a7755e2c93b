import type { KnownBlock, SectionBlock } from '@slack/types';
import { CLI_ACTOR_PREFIX, osUserOf } from '../core/actor.js';
import { shortHash } from '../core/audit-chain.js';
import { isChangeOperation, parsePreview } from '../core/catalog.js';
import type { JsonValue } from '../core/json.js';
import { maskMobilesInText } from '../core/mask.js';
import type { AuditEvent } from '../core/model.js';
import { escapeMrkdwn } from '../core/mrkdwn.js';
import { blocksText, context, packSections, section } from './blocks.js';
import { BLOCK_KIT_LIMITS, truncate } from './limits.js';

/**
 * How audit events read: one sentence per event kind (who asked for what, who decided, what
 * changed, how it ended), the same words in the audit channel, App Home, `/vidops audit` and
 * `vidops audit tail`. In Slack the free text is escaped for mrkdwn and IDs are `code`; in the
 * terminal the same sentence is plain. Mobile numbers are masked in both.
 * @see docs/architecture.md, "Audit log"
 */

/** A message for the audit channel: Block Kit blocks and the `text` fallback for notifications. */
export interface AuditPost {
  text: string;
  blocks: KnownBlock[];
}

/** Display lengths of free text in a line. IDs, request IDs and hashes are never cut. */
export const AUDIT_LINE_LIMITS = {
  actorName: 60,
  /** A target with spaces is descriptive text (a title, "protection settings"): cut it. */
  targetText: 120,
  /** A target without spaces is an ID or a number: kept whole up to Slack's ID length. */
  targetId: BLOCK_KIT_LIMITS.id,
  /** Titles of what is deleted or retried, and new titles of an edit. */
  title: 80,
  /** Reasons, rejection notes, refusals, notes of a settled outcome. */
  reason: 200,
  error: 200,
} as const;

/** Where a sentence goes: Slack mrkdwn (blocks), Slack's `text` fallback, or a terminal. */
export type AuditMedium = 'slack' | 'slack-text' | 'terminal';

/** How the pieces of a sentence are written for one medium. */
interface Style {
  /** Free text from outside: folded, masked, cut at `max`, escaped for Slack. */
  text(value: string, max: number): string;
  /** An ID, a hash, an operation name: masked, never cut; a `code` span in Slack blocks. */
  id(value: string): string;
}

// C0 and C1 control characters: a title must not move a terminal's cursor or colour its output.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

function fold(value: string): string {
  return maskMobilesInText(value.replace(/\s+/g, ' ').replace(CONTROL, '�').trim());
}

function styleFor(medium: AuditMedium, scale: number): Style {
  const cut = (value: string, max: number) => truncate(fold(value), limit(max, scale));
  switch (medium) {
    case 'slack':
      return {
        text: (value, max) => escapeMrkdwn(cut(value, max)),
        // A backtick inside would end the span early.
        id: (value) => `\`${escapeMrkdwn(fold(value).replace(/`/g, 'ˋ'))}\``,
      };
    case 'slack-text':
      return {
        text: (value, max) => escapeMrkdwn(cut(value, max)),
        id: (value) => escapeMrkdwn(fold(value)),
      };
    case 'terminal':
      return { text: cut, id: fold };
  }
}

/** A display limit scaled down for compact lines, never below a readable minimum. */
function limit(max: number, scale: number): number {
  return Math.max(16, Math.floor(max * scale));
}

const TYPE_EMOJI: Readonly<Record<string, string>> = {
  requested: ':inbox_tray:',
  approved: ':thumbsup:',
  rejected: ':no_entry_sign:',
  cancelled: ':leftwards_arrow_with_hook:',
  expired: ':hourglass:',
  executing: ':gear:',
  succeeded: ':white_check_mark:',
  failed: ':x:',
  denied: ':no_entry:',
  unknown: ':grey_question:',
  resolved: ':ballot_box_with_check:',
  reminded: ':alarm_clock:',
  escalated: ':arrow_up:',
  'expiry-warned': ':hourglass_flowing_sand:',
  'break-glass': ':rotating_light:',
  'break-glass-reviewed': ':mag:',
  'break-glass-overdue': ':alarm_clock:',
  delegated: ':busts_in_silhouette:',
  'delegation-cancelled': ':busts_in_silhouette:',
  'delegation-expired': ':busts_in_silhouette:',
};

type Obj = { readonly [key: string]: JsonValue };

function isObj(value: JsonValue | undefined): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member of the outcome (or any JSON object) as the type it should have; undefined otherwise. */
function str(value: JsonValue | undefined, key: string): string | undefined {
  const v = isObj(value) ? value[key] : undefined;
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function num(value: JsonValue | undefined, key: string): number | undefined {
  const v = isObj(value) ? value[key] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `2024-05-01T10:22:03.123Z` → `2024-05-01 10:22 UTC`; anything else is shown as it is. */
function minutes(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

interface Parts {
  event: AuditEvent;
  s: Style;
}

/**
 * `ana (U0AGENT1)`, or only the ID when the name is the ID; an action taken on the command line
 * says so with the OS user who ran it (`U0LEAD1 via the CLI (OS user root)`).
 */
function who({ event, s }: Parts): string {
  const { id, name } = event.actor;
  const person =
    name === id || name.trim() === ''
      ? s.id(id)
      : `${s.text(name, AUDIT_LINE_LIMITS.actorName)} (${s.id(id)})`;
  const osUser = osUserOf(event.actor);
  if (osUser === undefined) return person;
  // A CLI actor with no `--as` is `cli:<os user>` already: name the CLI without repeating the user.
  if (id === `${CLI_ACTOR_PREFIX}${osUser}`) return `${person} on the CLI`;
  return `${person} via the CLI (OS user ${s.text(osUser, AUDIT_LINE_LIMITS.actorName)})`;
}

function quoted(s: Style, text: string, max: number): string {
  return `“${s.text(text, max)}”`;
}

const RESOURCE_TARGET = /^(folder|file|playlist|viewer) (\S+)$/;

/** The target for a sentence: `folder `6710…``, or descriptive text (`new folder "…"`) cut. */
function target({ event, s }: Parts): string {
  const m = RESOURCE_TARGET.exec(event.target);
  if (m) return `${m[1]} ${s.id(m[2] ?? '')}`;
  return /\s/.test(event.target) || event.target === ''
    ? s.text(event.target, AUDIT_LINE_LIMITS.targetText)
    : s.id(event.target);
}

/** What is asked, as a verb phrase: `delete folder `6710…``, `update the whitelist`. */
function asked(p: Parts): string {
  switch (p.event.operation) {
    case 'whitelist.set':
      return 'update the whitelist';
    case 'protect.set':
      return 'change the protection settings';
    case 'whitelist.get':
      return 'read the whitelist';
    case 'protect.get':
      return 'read the protection settings';
    case 'audit':
      return 'read the audit log';
    case 'command':
      return `run a command (${target(p)})`;
    case 'file.retry':
      return `retry the conversion of ${target(p)}`;
    default: {
      const verb = /^[a-z]+\.([a-z]+)$/.exec(p.event.operation)?.[1];
      if (verb === undefined || !['create', 'edit', 'delete', 'unblock'].includes(verb)) {
        return `run ${p.s.id(p.event.operation)} on ${target(p)}`;
      }
      return `${verb} ${target(p)}`;
    }
  }
}

/**
 * What the preview says is changed, briefly: `(“Old course”, 3 files)`, `(adds 2, removes 1)`.
 * The event keeps the preview as it was asked; it is read with its operation's preview schema,
 * and one this build does not read adds nothing.
 */
function changeSummary({ event, s }: Parts, stored: JsonValue | undefined): string {
  if (!isChangeOperation(event.operation)) return '';
  const preview = parsePreview(event.operation, stored);
  if (preview === null) return '';
  const facts: string[] = [];
  switch (preview.kind) {
    case 'whitelist':
      if (preview.added.length > 0)
        facts.push(`adds ${plural(preview.added.length, 'address', 'addresses')}`);
      if (preview.removed.length > 0) {
        facts.push(`removes ${plural(preview.removed.length, 'address', 'addresses')}`);
      }
      break;
    case 'protection':
      if (preview.rows.length > 0) {
        facts.push(s.text(preview.rows.map((row) => row.field).join(', '), AUDIT_LINE_LIMITS.title));
      }
      break;
    case 'edit':
      if (preview.after.title !== null) {
        facts.push(`title → ${quoted(s, preview.after.title, AUDIT_LINE_LIMITS.title)}`);
      }
      break;
    case 'delete':
      if (preview.title !== null) facts.push(quoted(s, preview.title, AUDIT_LINE_LIMITS.title));
      if (preview.resource === 'folder' && preview.filesCount !== null)
        facts.push(plural(preview.filesCount, 'file'));
      break;
    case 'retry':
      if (preview.title !== null) facts.push(quoted(s, preview.title, AUDIT_LINE_LIMITS.title));
      break;
    default:
      break;
  }
  return facts.length === 0 ? '' : ` (${facts.join(', ')})`;
}

function requestRef({ event, s }: Parts): string {
  return event.requestId === null ? 'the request' : s.id(event.requestId);
}

function requestedSentence(p: Parts): string {
  const { event, s } = p;
  const o = event.outcome;
  const parts = [`${who(p)} asked to ${asked(p)}${changeSummary(p, isObj(o) ? o.preview : undefined)}`];
  const reason = str(o, 'reason');
  parts.push(
    reason === undefined ? 'no reason given' : `reason: ${quoted(s, reason, AUDIT_LINE_LIMITS.reason)}`,
  );
  const quorum = num(o, 'quorum');
  if (quorum === 0 || str(o, 'state') === 'executing') parts.push('runs without approval');
  else if (quorum !== undefined) {
    const why = str(o, 'why');
    const because =
      why === undefined || why === 'policy' ? '' : ` (${s.text(why, AUDIT_LINE_LIMITS.reason)})`;
    const expires = str(o, 'expiresAt');
    parts.push(
      `needs ${plural(quorum, 'lead approval')}${because}${expires === undefined ? '' : `, expires ${s.text(minutes(expires), 40)}`}`,
    );
  }
  return parts.join(', ');
}

/** `Folder `6710…` deleted (3 files)`: what the service did, read from the answer where it says. */
function succeededSentence(p: Parts): string {
  const { event, s } = p;
  const result = event.outcome;
  const params = event.params;
  const id = RESOURCE_TARGET.exec(event.target)?.[2];
  const thing = id === undefined ? target(p) : `${RESOURCE_TARGET.exec(event.target)?.[1] ?? ''} ${s.id(id)}`;
  switch (event.operation) {
    case 'whitelist.set': {
      const list = isObj(result) ? result.allowedDNS : undefined;
      return `Whitelist updated${Array.isArray(list) ? ` (${plural(list.length, 'address', 'addresses')} now)` : ''}`;
    }
    case 'protect.set': {
      const changes = isObj(params) && isObj(params.changes) ? Object.keys(params.changes) : [];
      return `Protection settings changed${changes.length > 0 ? ` (${s.text(changes.join(', '), AUDIT_LINE_LIMITS.title)})` : ''}`;
    }
    case 'folder.create': {
      const title = str(params, 'title');
      const newId = str(result, '_id') ?? str(result, 'id') ?? str(result, 'bucketId');
      return `Folder ${title === undefined ? target(p) : quoted(s, title, AUDIT_LINE_LIMITS.title)} created${newId === undefined ? '' : ` as ${s.id(newId)}`}`;
    }
    case 'folder.delete': {
      const files = num(result, 'deletedFiles') ?? num(result, 'filesCount') ?? num(result, 'deletedCount');
      return `${capitalize(thing)} deleted${files === undefined ? '' : ` (${plural(files, 'file')})`}`;
    }
    case 'file.delete':
    case 'playlist.delete':
      return `${capitalize(thing)} deleted`;
    case 'folder.edit':
    case 'file.edit':
    case 'playlist.edit': {
      const title = str(params, 'title');
      return `${capitalize(thing)} edited${title === undefined ? '' : `: title ${quoted(s, title, AUDIT_LINE_LIMITS.title)}`}`;
    }
    case 'file.retry': {
      const status = str(result, 'hlsStatus');
      return `Conversion of ${thing} queued again${status === undefined ? '' : ` (status ${s.text(status, 20)})`}`;
    }
    case 'viewer.unblock':
      return `Viewer ${id === undefined ? target(p) : s.id(id)} unblocked`;
    default:
      return `${capitalize(asked(p))}: done`;
  }
}

function errorText({ event, s }: Parts): string {
  if (event.error === null) return '';
  const status = event.error.status === undefined ? '' : ` (${event.error.status})`;
  return s.text(`${event.error.name}${status}: ${event.error.message}`, AUDIT_LINE_LIMITS.error);
}

/** What a refused person tried: `approve `R-…``, `retry the conversion of file `…``. */
function refusedAction(p: Parts): string {
  switch (str(p.event.outcome, 'action')) {
    case 'approve':
      return `approve ${requestRef(p)}`;
    case 'reject':
      return `reject ${requestRef(p)}`;
    case 'cancel':
      return `cancel ${requestRef(p)}`;
    case 'remind':
      return `remind the approvers of ${requestRef(p)}`;
    case 'break-glass':
      return `break the glass on ${requestRef(p)}`;
    case 'review':
      return `review the break-glass of ${requestRef(p)}`;
    default:
      return asked(p);
  }
}

/**
 * A lead settling an unknown outcome (the `resolved` event): how it was settled and the note,
 * read defensively, since the shape of the outcome is the settling code's.
 */
function resolvedSentence(p: Parts): string {
  const { event, s } = p;
  const o = event.outcome;
  const how = str(o, 'how') ?? str(o, 'resolution') ?? str(o, 'outcome') ?? str(o, 'state');
  const note = str(o, 'note');
  return [
    `${who(p)} settled the unknown outcome of ${requestRef(p)}${how === undefined ? '' : `: ${s.text(how, AUDIT_LINE_LIMITS.reason)}`}`,
    ...(note === undefined ? [] : [`note: ${quoted(s, note, AUDIT_LINE_LIMITS.reason)}`]),
  ].join(', ');
}

/** `(1 of 2 approvals)` from an outcome that carries the count, else nothing. */
function standing(o: JsonValue): string {
  const count = num(o, 'approvals');
  const quorum = num(o, 'quorum');
  return count !== undefined && quorum !== undefined ? ` (${count} of ${quorum} approvals)` : '';
}

/**
 * The follow-ups of a waiting request (issue 13): a reminder (by vidops or the requester), the
 * escalation to backup approvers, the warning before expiry. Read defensively, like every outcome.
 */
function followUpSentence(p: Parts, type: 'reminded' | 'escalated' | 'expiry-warned'): string {
  const { event, s } = p;
  const o = event.outcome;
  switch (type) {
    case 'reminded': {
      const by = event.actor.id === 'system' ? 'vidops' : who(p);
      return `${by} reminded the approvers of ${requestRef(p)} who have not decided${standing(o)}`;
    }
    case 'escalated': {
      const to = isObj(o) && Array.isArray(o.to) ? o.to.filter((x) => typeof x === 'string') : [];
      const list = to.length === 0 ? 'the backup approvers' : to.map((id) => s.id(id)).join(', ');
      return `${capitalize(requestRef(p))} was not decided in time and is offered to ${list} as well${standing(o)}`;
    }
    case 'expiry-warned': {
      const at = str(o, 'expiresAt');
      return `${capitalize(requestRef(p))} expires soon${at === undefined ? '' : ` (at ${s.text(minutes(at), 40)})`}: its requester and approvers were warned${standing(o)}`;
    }
  }
}

// --- Break-glass and delegation (docs/architecture.md, "Break-glass and delegation") -----------

/** ` for lena (U0LEAD1) (delegated)` after the approver, when they approved in a lead's place. */
function forLead({ event, s }: Parts): string {
  const lead = isObj(event.outcome) ? event.outcome.for : undefined;
  const id = str(lead, 'id');
  if (id === undefined) return '';
  const name = str(lead, 'name');
  const person =
    name === undefined || name === id
      ? s.id(id)
      : `${s.text(name, AUDIT_LINE_LIMITS.actorName)} (${s.id(id)})`;
  return ` for ${person} (delegated)`;
}

/** The person a delegation event names (`params.delegate`/`params.lead`). */
function paramPerson({ event, s }: Parts, key: 'lead' | 'delegate'): string {
  const person = isObj(event.params) ? event.params[key] : undefined;
  const id = str(person, 'id') ?? '?';
  const name = str(person, 'name');
  return name === undefined || name === id
    ? s.id(id)
    : `${s.text(name, AUDIT_LINE_LIMITS.actorName)} (${s.id(id)})`;
}

function breakGlassOrDelegationSentence(p: Parts, type: string): string {
  const { event, s } = p;
  const o = event.outcome;
  const reason = str(o, 'reason');
  const until = str(isObj(event.params) ? event.params : undefined, 'until');
  switch (type) {
    case 'break-glass':
      return `BREAK-GLASS: ${who(p)} ran ${requestRef(p)} without waiting for approval: ${asked(p)}; reason: ${reason === undefined ? 'none' : quoted(s, reason, AUDIT_LINE_LIMITS.reason)}; a lead reviews it${str(o, 'reviewDueAt') === undefined ? '' : ` by ${s.text(minutes(str(o, 'reviewDueAt') ?? ''), 40)}`}`;
    case 'break-glass-reviewed': {
      const note = str(o, 'note');
      const flagged = str(o, 'verdict') === 'flagged';
      return `BREAK-GLASS review: ${who(p)} ${flagged ? 'flagged' : 'acknowledged'} ${requestRef(p)}${note === undefined ? '' : `: ${quoted(s, note, AUDIT_LINE_LIMITS.reason)}`}`;
    }
    case 'break-glass-overdue':
      return `BREAK-GLASS: ${requestRef(p)} is still not reviewed by a lead; the leads are reminded`;
    case 'delegated':
      return `${who(p)} delegated approvals to ${paramPerson(p, 'delegate')} until ${s.text(minutes(until ?? '?'), 40)}${reason === undefined ? '' : `; reason: ${quoted(s, reason, AUDIT_LINE_LIMITS.reason)}`}`;
    case 'delegation-cancelled':
      return `${who(p)} cancelled the delegation of approvals to ${paramPerson(p, 'delegate')} (it ran until ${s.text(minutes(until ?? '?'), 40)})`;
    default:
      return `The delegation of approvals from ${paramPerson(p, 'lead')} to ${paramPerson(p, 'delegate')} expired at ${s.text(minutes(until ?? '?'), 40)}`;
  }
}

function sentence(p: Parts): string {
  const { event, s } = p;
  const o = event.outcome;
  // Compared as a string: event kinds added later (e.g. `resolved`) read the same way.
  const type: string = event.type;
  switch (type) {
    case 'requested':
      return requestedSentence(p);
    case 'approved': {
      const count = num(o, 'approvals');
      const quorum = num(o, 'quorum');
      return `${who(p)}${forLead(p)} approved ${requestRef(p)}${count !== undefined && quorum !== undefined ? ` (${count} of ${quorum})` : ''}`;
    }
    case 'rejected': {
      const note = str(o, 'note');
      return `${who(p)} rejected ${requestRef(p)}${note === undefined ? '' : `: ${quoted(s, note, AUDIT_LINE_LIMITS.reason)}`}`;
    }
    case 'cancelled': {
      const note = str(o, 'note');
      return `${who(p)} cancelled ${requestRef(p)}${note === undefined ? '' : `: ${quoted(s, note, AUDIT_LINE_LIMITS.reason)}`}`;
    }
    case 'expired': {
      const count = num(o, 'approvals');
      const quorum = num(o, 'quorum');
      const had = count !== undefined && quorum !== undefined ? ` with ${count} of ${quorum} approvals` : '';
      return `${capitalize(requestRef(p))} expired${had}; nothing was changed`;
    }
    case 'executing':
      if (isObj(o) && o.breakGlass === true) {
        return `BREAK-GLASS: ${requestRef(p)} started without its approvals: ${asked(p)}`;
      }
      return `${capitalize(requestRef(p))} ${isObj(o) && o.resumed === true ? 'resumed after a restart' : 'started'}: ${asked(p)}`;
    case 'break-glass':
    case 'break-glass-reviewed':
    case 'break-glass-overdue':
    case 'delegated':
    case 'delegation-cancelled':
    case 'delegation-expired':
      return breakGlassOrDelegationSentence(p, type);
    case 'succeeded':
      return succeededSentence(p);
    case 'failed':
      return `Could not ${asked(p)}: ${errorText(p) || 'no error recorded'}`;
    case 'denied': {
      const reason = str(o, 'reason');
      return `${who(p)} refused: ${reason === undefined ? 'not allowed' : s.text(reason, AUDIT_LINE_LIMITS.reason)} (tried to ${refusedAction(p)})`;
    }
    case 'unknown':
      return `Outcome unknown: ${asked(p)} may or may not have been applied; check the service before asking again`;
    case 'resolved':
      return resolvedSentence(p);
    case 'reminded':
    case 'escalated':
    case 'expiry-warned':
      return followUpSentence(p, type);
    default:
      return `${s.text(type, 30)} by ${who(p)}: ${asked(p)}`;
  }
}

/**
 * The one sentence of an event, for `medium`: what was asked, by whom, what changed, the result,
 * and the request ID (in the words where they name it, else after them). No JSON: members of the
 * outcome that are not understood are left out. `scale` (0..1] shortens the free text for big
 * batches; IDs are never shortened.
 */
export function auditSentence(event: AuditEvent, medium: AuditMedium, scale = 1): string {
  const s = styleFor(medium, scale);
  const p: Parts = { event, s };
  let said = sentence(p);
  const error = event.type === 'failed' ? '' : errorText(p);
  if (error !== '') said += `; error: ${error}`;
  if (event.requestId !== null) {
    const ref = s.id(event.requestId);
    if (!said.includes(ref)) said += ` · ${ref}`;
  }
  return said;
}

/** `2024-05-01T10:22:03.123Z` → `2024-05-01 10:22:03Z`; anything else is shown as it is. */
function formatTime(at: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(at);
  return m ? `${m[1]} ${m[2]}Z` : escapeMrkdwn(at);
}

/**
 * One event as a mrkdwn line for Slack: emoji, seq and time, the sentence, and the short hash
 * that makes the channel a witness of the chain.
 * @see docs/architecture.md, "Audit log"
 */
export function auditLine(event: AuditEvent, scale = 1): string {
  const emoji = TYPE_EMOJI[event.type] ?? ':grey_exclamation:';
  return `${emoji} *#${event.seq}* ${formatTime(event.at)} · ${auditSentence(event, 'slack', scale)} · hash \`${shortHash(event.hash)}\``;
}

/** The same event for the notification `text` (mrkdwn too, so escaped, but without markup). */
function textLine(event: AuditEvent): string {
  return `#${event.seq} ${auditSentence(event, 'slack-text', 0.5)} · hash ${shortHash(event.hash)}`;
}

/** The same event for a terminal (`vidops audit tail`): plain, masked, control characters replaced. */
export function auditTerminalLine(event: AuditEvent): string {
  return auditSentence(event, 'terminal');
}

/** Keeps the fallback short: Slack only shows it in notifications and to screen readers. */
const TEXT_BUDGET = 3000;

/** The seq numbers a list of events spans: `#7`, `#7–#12`. */
export function seqRange(events: readonly AuditEvent[]): string {
  const first = events[0];
  const last = events[events.length - 1];
  if (!first || !last) return '';
  return first.seq === last.seq ? `#${first.seq}` : `#${first.seq}–#${last.seq}`;
}

function packEvents(events: readonly AuditEvent[], scale: number): SectionBlock[] {
  // A line only exceeds a section with absurd IDs; cutting it then beats losing the post.
  return packSections(events.map((event) => auditLine(event, scale)));
}

/**
 * One audit channel message for a batch of events, oldest first: a context line naming the
 * range, then the event lines packed into sections of at most 3000 characters, with the free
 * text shortened when the batch would be too long for one message. Pure.
 * @see docs/architecture.md, "Audit log"; docs/slack.md, "Block Kit limits"
 */
export function renderAuditPost(events: readonly AuditEvent[]): AuditPost {
  if (events.length === 0) {
    return {
      text: 'vidops audit: no events',
      blocks: [context('vidops audit: no events')],
    };
  }
  const count = events.length === 1 ? '1 event' : `${events.length} events`;
  const header = context(`:scroll: *vidops audit* · ${seqRange(events)} · ${count}`);

  // Slack refuses a message whose blocks hold too much text in total (`msg_blocks_too_long`):
  // shorten the free text of every line until the batch fits.
  let sections = packEvents(events, 1);
  for (const scale of [0.5, 0.25]) {
    if (blocksText(sections) + 200 <= BLOCK_KIT_LIMITS.messageBlocksText) break;
    sections = packEvents(events, scale);
  }

  let text = `vidops audit ${seqRange(events)} (${count})`;
  let shown = 0;
  for (const event of events) {
    const next = `\n${textLine(event)}`;
    if (text.length + next.length > TEXT_BUDGET) break;
    text += next;
    shown += 1;
  }
  if (shown < events.length) text += `\n… and ${events.length - shown} more`;

  return { text, blocks: [header, ...sections] };
}

/** What a checkpoint post shows: the numbers it states, and its signed note as written. */
export interface CheckpointPostInput {
  size: number;
  head: string;
  note: string;
}

/**
 * A signed checkpoint for the audit channel: a context line with the number of events and the
 * head's short hash, and the signed note whole in a code block, so the channel keeps a copy a
 * verifier can read back (`vidops audit witness`). The note is our own text (origin, numbers,
 * base64, the time), escaped all the same. Pure.
 * @see docs/architecture.md, "Audit log"; docs/audit-checkpoints.md
 */
export function renderCheckpointPost(checkpoint: CheckpointPostInput): AuditPost {
  const covers = checkpoint.size === 1 ? '1 event' : `${checkpoint.size} events`;
  const noteBlock = `\`\`\`\n${escapeMrkdwn(checkpoint.note)}\`\`\``;
  const short = shortHash(checkpoint.head);
  return {
    text: `vidops audit checkpoint: ${covers}, head ${short}\n${noteBlock}`,
    blocks: [
      context(`:lock: *vidops audit checkpoint* · covers ${covers} · head \`${short}\``),
      section(noteBlock),
    ],
  };
}
