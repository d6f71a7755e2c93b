import { isIP } from 'node:net';
import type { KnownBlock, SectionBlock } from '@slack/types';
import { CLI_ACTOR_PREFIX, osUserOf } from '../core/actor.js';
import { shortHash } from '../core/audit-chain.js';
import { neutraliseBidi, oneLine, stripBidiControls } from '../core/bidi.js';
import {
  type ChangeOperation,
  isChangeOperation,
  parsePreview,
  type Target,
  targetOf,
} from '../core/catalog.js';
import type { JsonValue } from '../core/json.js';
import { maskMobilesInText } from '../core/mask.js';
import type { AuditEvent, OperationRequest, RecordedError } from '../core/model.js';
import { escapeMrkdwn, escapeOutside } from '../core/mrkdwn.js';
import { saidJson } from '../core/said.js';
import { untilMs } from '../core/time-box.js';
import { dateTime, num as digits, ENGLISH, type Lang, ltr } from '../i18n/index.js';
import { saidFromJson } from '../i18n/said.js';
import {
  AUDIT_TITLE_LIMIT,
  type AuditParts,
  capitalize,
  isObj,
  numberIn as num,
  str,
} from '../operations/common/views.js';
import { VIEWS } from '../operations/views.js';
import { blocksText, context, isolateOutside, packSections, section } from './blocks.js';
import { recordedWords, sayIn } from './errors.js';
import { BLOCK_KIT_LIMITS, truncate } from './limits.js';
import { protectionValueText } from './protection-text.js';
import { spanText } from './time-box.js';

/**
 * How audit events read: one sentence per event kind (who asked for what, who decided, what
 * changed, how it ended), the same words in the audit channel, App Home, `/vidops audit` and
 * `vidops audit tail`. In Slack the free text is escaped for mrkdwn and IDs are `code`; in the
 * terminal the same sentence is plain. Mobile numbers are masked in both. The words are the
 * reader's language (`CHANNEL_LOCALE` in the audit channel): in Persian, IDs, hashes and free text
 * are isolated and dates are Solar Hijri; the audit log itself is never translated. Free text
 * loses its bidi controls in both (the stored event keeps them: the hash chain covers it), and in
 * Slack it is isolated also in English when it holds more than printable ASCII, so a title in
 * Arabic script cannot reorder the request ID or the hash after it.
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
  title: AUDIT_TITLE_LIMIT,
  /** Reasons, rejection notes, refusals, notes of a settled outcome. */
  reason: 200,
  error: 200,
  /** vidops' own sentence recorded as an error (a Revert not sent, a put-back planned again). */
  said: 320,
  /** A value a put-back found on the service (`opacity (now 0.45)`). */
  value: 60,
  /** Settings or addresses named in one line; the rest are counted (`and 3 more`). */
  items: 10,
} as const;

/** Where a sentence goes: Slack mrkdwn (blocks), Slack's `text` fallback, or a terminal. */
export type AuditMedium = 'slack' | 'slack-text' | 'terminal';

/** How the pieces of a sentence are written for one medium. */
interface Style {
  /**
   * Free text from outside: bidi controls dropped, folded, masked, cut at `max`, escaped for
   * Slack; isolated in Persian, and in Slack also in English when it holds more than printable
   * ASCII (a right-to-left letter, a bidi control).
   */
  text(value: string, max: number): string;
  /** A sentence vidops worded (a stored `said`), outside words in it: as `text`, its own isolates kept. */
  worded(value: string, max: number): string;
  /** Our own words (a date, the names of the fields changed): as `worded`, isolated in Persian only. */
  own(value: string, max: number): string;
  /**
   * An ID, a hash, an operation name: masked, never cut; a `code` span in Slack blocks. Isolated
   * as `text` is (an ID as someone typed it may hold anything).
   */
  id(value: string): string;
}

/** Outside text folded: its bidi controls dropped, then as {@link foldWorded}. */
function fold(value: string): string {
  return foldWorded(stripBidiControls(value));
}

/** Whitespace folded, C0/C1 controls replaced, mobile numbers masked; our own isolates kept, paired. */
function foldWorded(value: string): string {
  return maskMobilesInText(oneLine(neutraliseBidi(value)));
}

function styleFor(medium: AuditMedium, scale: number, lang: Lang): Style {
  const cut = (value: string, max: number) => truncate(fold(value), limit(max, scale));
  const cutWorded = (value: string, max: number) => truncate(foldWorded(value), limit(max, scale));
  // In Persian every token is isolated, so it keeps its own order (no-op in English).
  const iso = (value: string) => ltr(lang, value);
  const slack = medium !== 'terminal';
  // In Slack, outside text that could reorder an English line is isolated there too; an English
  // terminal line stays plain (its outside text has lost its bidi controls all the same).
  const outside = (raw: string, shown: string) => (slack ? isolateOutside(lang, raw, shown) : iso(shown));
  const esc = slack ? escapeMrkdwn : (value: string) => value;
  const id = (value: string) => {
    const folded = fold(value);
    // A backtick inside would end the span early.
    const shown = medium === 'slack' ? `\`${escapeMrkdwn(folded.replace(/`/g, 'ˋ'))}\`` : esc(folded);
    return outside(value, shown);
  };
  // Our sentences mark IDs as Slack code (`R-…`); a terminal shows no markup.
  const unmarked = slack ? (value: string) => value : (value: string) => value.replace(/`/g, '');
  return {
    text: (value, max) => outside(value, esc(cut(value, max))),
    worded: (value, max) => outside(value, esc(cutWorded(unmarked(value), max))),
    own: (value, max) => iso(esc(cutWorded(value, max))),
    id,
  };
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
  reverting: ':rewind:',
  reverted: ':back:',
  'revert-conflict': ':warning:',
  'put-back-retrying': ':repeat:',
  'put-back-reminded': ':bell:',
  'put-back-escalated': ':sos:',
  'window-changed': ':hourglass_flowing_sand:',
};

/**
 * `2024-05-01T10:22:03.123Z` → `2024-05-01 10:22 UTC` in English; the Solar Hijri date in the
 * display time zone in Persian. Anything unreadable is shown as it is.
 */
function minutes(iso: string, lang: Lang): string {
  if (lang.locale !== 'en') return dateTime(lang, iso);
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

interface Parts {
  event: AuditEvent;
  s: Style;
  lang: Lang;
  t: Lang['t']['audit'];
}

/** What a sentence about a change acts on: an event's fields, or a request's. */
type SubjectParts = Omit<Parts, 'event'> & { event: Pick<AuditEvent, 'operation' | 'params' | 'target'> };

/** A date in a sentence, as free text (cut at 40 characters). */
function when({ s, lang }: Parts, iso: string): string {
  return s.own(minutes(stripBidiControls(iso), lang), 40);
}

/**
 * `ana (U0AGENT1)`, or only the ID when the name is the ID; an action taken on the command line
 * says so with the OS user who ran it (`U0LEAD1 via the CLI (OS user root)`).
 */
function who({ event, s, t }: Parts): string {
  const { id, name } = event.actor;
  const person =
    name === id || name.trim() === ''
      ? s.id(id)
      : `${s.text(name, AUDIT_LINE_LIMITS.actorName)} (${s.id(id)})`;
  const osUser = osUserOf(event.actor);
  if (osUser === undefined) return person;
  // A CLI actor with no `--as` is `cli:<os user>` already: name the CLI without repeating the user.
  if (id === `${CLI_ACTOR_PREFIX}${osUser}`) return t.auditOnCli(person);
  return t.auditViaCli(person, s.text(osUser, AUDIT_LINE_LIMITS.actorName));
}

function quoted({ s, t }: Pick<Parts, 's' | 't'>, text: string, max: number): string {
  return t.auditQuoted(s.text(text, max));
}

/** What the event acts on, typed: from its operation and parameters, else from its stored text. */
function typedTarget({ event }: SubjectParts): Target {
  return targetOf(event.operation, event.params, event.target);
}

/**
 * The target for a sentence: `folder `6710…`` (in Persian `پوشه‌ی …`), the kind named in the
 * reader's language; a new folder or playlist named by its kind in Persian; any other target as
 * its text (cut), or kept whole when it has no spaces.
 */
function target(p: SubjectParts): string {
  const { event, s, t, lang } = p;
  const typed = typedTarget(p);
  switch (typed.kind) {
    case 'folder':
    case 'file':
    case 'playlist':
    case 'viewer':
      return t.auditResource(typed.kind, s.id(typed.id));
    case 'new':
      // The stored English is the sentence itself; Persian names the kind.
      if (lang.locale !== 'en' && typed.resource !== 'file') {
        return t.auditNewResource(typed.resource, s.text(`"${typed.title}"`, AUDIT_LINE_LIMITS.targetText));
      }
      break;
    case 'whitelist':
    case 'protection':
    case 'stored':
      break;
  }
  const text = typed.kind === 'stored' ? typed.text : event.target;
  return /\s/.test(text) || text === '' ? s.text(text, AUDIT_LINE_LIMITS.targetText) : s.id(text);
}

/** The pieces an operation's audit sentences are made of (its module's `views.ts` words them). */
function auditParts(p: SubjectParts, result: JsonValue | undefined): AuditParts {
  const { event, s, t, lang } = p;
  const typed = typedTarget(p);
  return {
    t,
    lang,
    target: target(p),
    targetId: 'id' in typed ? typed.id : undefined,
    result,
    params: event.params,
    quoted: (text) => quoted(p, text, AUDIT_LINE_LIMITS.title),
    id: (text) => s.id(text),
    text: (text, max) => s.text(text, max),
    own: (text, max) => s.own(text, max),
  };
}

/** What is asked, as a verb phrase: `delete folder `6710…``, `update the whitelist`. */
function asked(p: Parts): string {
  const { t, event } = p;
  if (isChangeOperation(event.operation)) return VIEWS[event.operation].ask(auditParts(p, undefined));
  // The read operations and the commands that are no operation.
  switch (event.operation) {
    case 'whitelist.get':
      return t.auditAskWhitelistGet;
    case 'protect.get':
      return t.auditAskProtectGet;
    case 'audit':
      return t.auditAskAudit;
    case 'command':
      return t.auditAskCommand(target(p));
    default:
      return t.auditAskRun(p.s.id(event.operation), target(p));
  }
}

/**
 * What the preview says is changed, briefly: `(“Old course”, 3 files)`, `(adds 2, removes 1)`.
 * The event keeps the preview as it was asked; it is read with its operation's preview schema,
 * and one this build does not read adds nothing.
 */
/** The facts a change's preview gives (its module says which): ` (2 addresses added)`. */
function changeSummary(p: Parts, stored: JsonValue | undefined): string {
  if (!isChangeOperation(p.event.operation)) return '';
  const facts = previewFacts(p.event.operation, stored, auditParts(p, undefined));
  return facts.length === 0 ? '' : ` (${facts.join(p.t.auditListSep)})`;
}

function previewFacts<O extends ChangeOperation>(
  operation: O,
  stored: JsonValue | undefined,
  parts: AuditParts,
): string[] {
  const preview = parsePreview(operation, stored);
  return preview === null ? [] : VIEWS[operation].facts(preview, parts);
}

function requestRef({ event, s, t }: Parts): string {
  return event.requestId === null ? t.auditTheRequest : s.id(event.requestId);
}

function requestedSentence(p: Parts): string {
  const { event, s, t, lang } = p;
  const o = event.outcome;
  const by = event.actor.id === 'system' ? 'vidops' : who(p);
  const summary = `${changeSummary(p, isObj(o) ? o.preview : undefined)}${windowAsked(p)}${undoes(p)}`;
  const parts = [t.auditAskedTo(by, asked(p), summary)];
  const reason = str(o, 'reason');
  parts.push(
    reason === undefined ? t.auditNoReason : t.auditReason(quoted(p, reason, AUDIT_LINE_LIMITS.reason)),
  );
  const quorum = num(o, 'quorum');
  if (quorum === 0 || str(o, 'state') === 'executing') parts.push(t.auditRunsWithoutApproval);
  else if (quorum !== undefined) {
    const why = str(o, 'why');
    const because = why === undefined || why === 'policy' ? '' : ` (${s.own(why, AUDIT_LINE_LIMITS.reason)})`;
    const expires = str(o, 'expiresAt');
    parts.push(
      t.auditNeeds(
        quorum,
        digits(lang, quorum),
        because,
        expires === undefined ? '' : t.auditExpiresAt(when(p, expires)),
      ),
    );
  }
  return parts.join(t.auditListSep);
}

/**
 * What a done change did, in its operation's words, as the audit channel says it (`Protection
 * settings changed (preventZoom)`), for the approval message: never the service's raw answer.
 */
export function doneSentence(
  request: Pick<OperationRequest, 'operation' | 'params' | 'target' | 'result'>,
  lang: Lang,
): string {
  const p: SubjectParts = { event: request, s: styleFor('slack', 1, lang), lang, t: lang.t.audit };
  return VIEWS[request.operation].done(auditParts(p, request.result));
}

/** `Folder `6710…` deleted (3 files)`: what the service did, in its operation's words (its `views.ts`). */
function succeededSentence(p: Parts): string {
  const { event, t } = p;
  if (isChangeOperation(event.operation)) return VIEWS[event.operation].done(auditParts(p, event.outcome));
  return t.auditDone(capitalize(asked(p)));
}

function errorText(p: Parts): string {
  return p.event.error === null ? '' : recordedErrorText(p, p.event.error);
}

/**
 * A recorded error: vidops' own sentence in the reader's language (cut later than outside words,
 * so that "Nothing was changed" stays), else `Name (status): message` as outside text.
 */
function recordedErrorText({ s, lang }: Parts, error: RecordedError): string {
  // The sentence goes inside a line that goes on (`; retrying at …`): its own full stop is dropped.
  const words = recordedWords(error, lang)?.replace(/\.$/, '');
  if (words !== undefined) return s.worded(words, AUDIT_LINE_LIMITS.said);
  const status = error.status === undefined ? '' : ` (${error.status})`;
  return s.text(`${error.name}${status}: ${error.message}`, AUDIT_LINE_LIMITS.error);
}

/** What a refused person tried: `approve `R-…``, `retry the conversion of file `…``. */
function refusedAction(p: Parts): string {
  const { t } = p;
  switch (str(p.event.outcome, 'action')) {
    case 'approve':
      return t.auditTryApprove(requestRef(p));
    case 'reject':
      return t.auditTryReject(requestRef(p));
    case 'cancel':
      return t.auditTryCancel(requestRef(p));
    case 'remind':
      return t.auditTryRemind(requestRef(p));
    case 'break-glass':
      return t.auditTryBreakGlass(requestRef(p));
    case 'review':
      return t.auditTryReview(requestRef(p));
    default:
      return asked(p);
  }
}

/**
 * A sentence stored beside the English in the event's outcome (`said`, newer events), worded in
 * the reader's language; undefined for English readers (the English is stored already), for
 * older events and for a sentence this build does not know.
 */
function worded({ event, lang }: Parts, field: string): string | undefined {
  if (lang.locale === 'en') return undefined;
  const o = event.outcome;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return undefined;
  const said = saidFromJson(o[field]);
  return said === null ? undefined : sayIn(lang, said);
}

/**
 * A lead settling an unknown outcome (the `resolved` event): how it was settled and the note,
 * read defensively, since the shape of the outcome is the settling code's.
 */
function resolvedSentence(p: Parts): string {
  const { event, s, t } = p;
  const o = event.outcome;
  const recorded = str(o, 'how') ?? str(o, 'resolution');
  const said = recorded === undefined ? worded(p, 'outcomeSaid') : undefined;
  const how = recorded ?? str(o, 'outcome') ?? str(o, 'state');
  const shown =
    said !== undefined
      ? s.worded(said, AUDIT_LINE_LIMITS.reason)
      : how === undefined
        ? undefined
        : s.text(how, AUDIT_LINE_LIMITS.reason);
  const note = str(o, 'note');
  return [
    t.auditSettled(who(p), requestRef(p), shown === undefined ? '' : `: ${shown}`),
    ...(note === undefined ? [] : [t.auditNote(quoted(p, note, AUDIT_LINE_LIMITS.reason))]),
  ].join(t.auditListSep);
}

/** `(1 of 2 approvals)` from an outcome that carries the count, else nothing. */
function standing(p: Parts, o: JsonValue): string {
  return ofQuorum(p, o, (count, quorum) => p.t.auditStanding(count, quorum));
}

/** The approvals and quorum an outcome carries, in the reader's digits, said by `say`; else nothing. */
function ofQuorum({ lang }: Parts, o: JsonValue, say: (count: string, quorum: string) => string): string {
  const count = num(o, 'approvals');
  const quorum = num(o, 'quorum');
  return count !== undefined && quorum !== undefined ? say(digits(lang, count), digits(lang, quorum)) : '';
}

/** `: "the note"` from an outcome that carries a note, else nothing. */
function noteSuffix(p: Parts, o: JsonValue): string {
  const note = str(o, 'note');
  return note === undefined ? '' : `: ${quoted(p, note, AUDIT_LINE_LIMITS.reason)}`;
}

/**
 * The follow-ups of a waiting request (issue 13): a reminder (by vidops or the requester), the
 * escalation to backup approvers, the warning before expiry. Read defensively, like every outcome.
 */
function followUpSentence(p: Parts, type: 'reminded' | 'escalated' | 'expiry-warned'): string {
  const { event, s, t } = p;
  const o = event.outcome;
  switch (type) {
    case 'reminded': {
      const by = event.actor.id === 'system' ? 'vidops' : who(p);
      return t.auditReminded(by, requestRef(p), standing(p, o));
    }
    case 'escalated': {
      const to = isObj(o) && Array.isArray(o.to) ? o.to.filter((x) => typeof x === 'string') : [];
      const list = to.length === 0 ? t.auditBackupApprovers : to.map((id) => s.id(id)).join(t.auditListSep);
      return t.auditEscalated(capitalize(requestRef(p)), list, standing(p, o));
    }
    case 'expiry-warned': {
      const at = str(o, 'expiresAt');
      return t.auditExpiryWarned(
        capitalize(requestRef(p)),
        at === undefined ? '' : t.auditAtDate(when(p, at)),
        standing(p, o),
      );
    }
  }
}

// --- Break-glass and delegation (docs/architecture.md, "Break-glass and delegation") -----------

/** ` for lena (U0LEAD1) (delegated)` after the approver, when they approved in a lead's place. */
function forLead({ event, s, t }: Parts): string {
  const lead = isObj(event.outcome) ? event.outcome.for : undefined;
  const id = str(lead, 'id');
  if (id === undefined) return '';
  const name = str(lead, 'name');
  const person =
    name === undefined || name === id
      ? s.id(id)
      : `${s.text(name, AUDIT_LINE_LIMITS.actorName)} (${s.id(id)})`;
  return t.auditForLead(person);
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
  const { event, t } = p;
  const o = event.outcome;
  const reason = str(o, 'reason');
  const until = str(isObj(event.params) ? event.params : undefined, 'until');
  switch (type) {
    case 'break-glass': {
      const due = str(o, 'reviewDueAt');
      return t.auditBreakGlass(
        who(p),
        requestRef(p),
        asked(p),
        reason === undefined ? t.auditNone : quoted(p, reason, AUDIT_LINE_LIMITS.reason),
        due === undefined ? '' : t.auditReviewBy(when(p, due)),
      );
    }
    case 'break-glass-reviewed':
      return t.auditBreakGlassReviewed(
        who(p),
        str(o, 'verdict') === 'flagged',
        requestRef(p),
        noteSuffix(p, o),
      );
    case 'break-glass-overdue':
      return t.auditBreakGlassOverdue(requestRef(p));
    case 'delegated':
      return t.auditDelegated(
        who(p),
        paramPerson(p, 'delegate'),
        when(p, until ?? '?'),
        reason === undefined ? '' : t.auditDelegationReason(quoted(p, reason, AUDIT_LINE_LIMITS.reason)),
      );
    case 'delegation-cancelled':
      return t.auditDelegationCancelled(who(p), paramPerson(p, 'delegate'), when(p, until ?? '?'));
    default:
      return t.auditDelegationExpired(
        paramPerson(p, 'lead'),
        paramPerson(p, 'delegate'),
        when(p, until ?? '?'),
      );
  }
}

// --- Time-boxed changes and Revert (docs/time-boxed.md, "Exactly once") ---------------------

/**
 * The window a change was asked for, after what it changes: ` for 2 hours`, ` until <date>`
 * (the `requested` event's `timeBox`); nothing when it has none or one this build cannot read.
 */
function windowAsked(p: Parts): string {
  const { event, s, t, lang } = p;
  const box = isObj(event.outcome) ? event.outcome.timeBox : undefined;
  const typed = str(box, 'text');
  switch (str(box, 'kind')) {
    case 'for': {
      const ms = num(box, 'ms');
      if (ms !== undefined && ms > 0) return t.auditForWindow(s.own(spanText(lang, ms), 60));
      return typed === undefined ? '' : t.auditForWindow(s.text(typed, 40));
    }
    case 'until': {
      const at = str(box, 'at');
      const end = at === undefined ? Number.NaN : untilMs(stripBidiControls(at), lang.timeZone);
      if (Number.isFinite(end)) return t.auditUntilWindow(when(p, new Date(end).toISOString()));
      return typed === undefined ? '' : t.auditUntilWindow(s.text(typed, 40));
    }
    default:
      return '';
  }
}

/**
 * What a request follows up (the `requested` event's `revertOf` or `extends`): ` (puts back R-…)`,
 * ` (reverts R-…)`, ` (extends R-…)`.
 */
function undoes({ event, s, t }: Parts): string {
  const extended = str(event.outcome, 'extends');
  if (extended !== undefined) return t.auditExtends(s.id(extended));
  const of = isObj(event.outcome) ? event.outcome.revertOf : undefined;
  const id = str(of, 'id');
  if (id === undefined) return '';
  return str(of, 'kind') === 'put-back' ? t.auditPutsBack(s.id(id)) : t.auditReverts(s.id(id));
}

/** Something a put-back left alone, as its event stores it (read defensively: it is the service's). */
interface Left {
  item: string;
  now: JsonValue | undefined;
  heldBy: string | undefined;
}

function leftIn(outcome: JsonValue): Left[] {
  const conflicts = isObj(outcome) && Array.isArray(outcome.conflicts) ? outcome.conflicts : [];
  return conflicts.flatMap((c) => {
    const item = str(c, 'item');
    return item === undefined || !isObj(c) ? [] : [{ item, now: c.now, heldBy: str(c, 'heldBy') }];
  });
}

/** A list of items worded by `word`: the first {@link AUDIT_LINE_LIMITS.items}, the rest counted. */
function counted<T>({ t, lang }: Parts, all: readonly T[], word: (item: T) => string): string {
  const shown = all.slice(0, AUDIT_LINE_LIMITS.items).map(word);
  const more = all.length - shown.length;
  return `${shown.join(t.auditListSep)}${more > 0 ? t.auditMoreItems(more, digits(lang, more)) : ''}`;
}

/** Settings or addresses, as IDs (`preventZoom, opacity`). */
function items(p: Parts, names: readonly string[]): string {
  return counted(p, names, (name) => p.s.id(name));
}

/** `opacity (now 0.45)`, `1.2.3.4 (now not listed)`: an item and what the service shows now. */
function nowValue(p: Parts, left: Left): string {
  const { s, t, lang } = p;
  const item = s.id(left.item);
  const now = left.now;
  if (now === undefined) return item;
  // An item is an address of the whitelist, or the dotted name of a protection setting.
  if (isIP(left.item) !== 0) {
    return t.auditNowValue(item, now === null ? t.auditNotListed : t.auditListed);
  }
  if (now !== null && typeof now !== 'string' && typeof now !== 'number' && typeof now !== 'boolean') {
    return item;
  }
  return t.auditNowValue(item, s.worded(protectionValueText(left.item, now, lang), AUDIT_LINE_LIMITS.value));
}

/**
 * What a put-back left alone, in parts: `left as others changed them: opacity (now 0.45)`, and
 * per later change that holds some, `preventZoom left to R-…, which holds it`.
 */
function leftParts(p: Parts, left: readonly Left[]): string[] {
  const { s, t } = p;
  const changed = left.filter((l) => l.heldBy === undefined);
  const parts = changed.length === 0 ? [] : [t.auditLeftChanged(counted(p, changed, (l) => nowValue(p, l)))];
  const holders = [...new Set(left.flatMap((l) => (l.heldBy === undefined ? [] : [l.heldBy])))];
  for (const holder of holders) {
    const held = left.filter((l) => l.heldBy === holder).map((l) => l.item);
    parts.push(t.auditLeftHeld(held.length, items(p, held), s.id(holder)));
  }
  return parts;
}

/** The names an event's outcome lists under `key` (`goesBack`, `items`, `recorded`), read defensively. */
function names({ event }: Parts, key: string): string[] {
  const list = isObj(event.outcome) ? event.outcome[key] : undefined;
  return Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [];
}

/** A failed put-back's error: the event's, else the `lastError` its outcome keeps. */
function putBackError(p: Parts): string {
  const shown = errorText(p);
  if (shown !== '') return shown;
  const last = lastErrorOf(p);
  return last === null ? '' : recordedErrorText(p, last);
}

/** The `lastError` a put-back's outcome keeps, read defensively; null when there is none. */
function lastErrorOf(p: Parts): RecordedError | null {
  const last = isObj(p.event.outcome) ? p.event.outcome.lastError : undefined;
  const name = str(last, 'name');
  const message = str(last, 'message');
  if (name === undefined && message === undefined) return null;
  const status = num(last, 'status');
  const known = isObj(last) ? saidFromJson(last.said) : null;
  const said = known === null ? {} : { said: saidJson(known) };
  return {
    name: name ?? 'Error',
    message: message ?? '',
    ...(status === undefined ? {} : { status }),
    ...said,
  };
}

function revertConflictSentence(p: Parts, ref: string): string {
  const { event, t } = p;
  const o = event.outcome;
  if (str(o, 'undo') === 'unknown') return t.auditUndoUnknown(ref);
  const left = leftIn(o);
  const parts = leftParts(p, left);
  if (str(o, 'state') === 'done' && parts.length > 0) {
    return t.auditPartlyPutBack(ref, parts.join(t.auditPartSep));
  }
  if (parts.length === 0) return t.auditNothingToPutBack(ref);
  if (left.every((l) => l.heldBy === undefined)) {
    return t.auditAllChangedSince(
      ref,
      counted(p, left, (l) => nowValue(p, l)),
    );
  }
  return t.auditNothingPutBack(ref, parts.join(t.auditPartSep));
}

/**
 * The steps of a time-boxed change's put-back, on the change (issue 23): claimed (by the sweep,
 * or a person's Put back now), done, what it left alone, an attempt failed, the requester
 * reminded, the leads told. The outcome (`state`, `endsAt`, `putBack`, `conflicts`, `handedTo`)
 * is read defensively, like every outcome.
 */
function putBackSentence(
  p: Parts,
  type:
    | 'reverting'
    | 'reverted'
    | 'revert-conflict'
    | 'put-back-retrying'
    | 'put-back-reminded'
    | 'put-back-escalated'
    | 'window-changed',
): string {
  const { event, s, t } = p;
  const o = event.outcome;
  // The request ID; `The request` at the start of a sentence when the event has none.
  const mid = requestRef(p);
  const ref = capitalize(mid);
  const putBackId = str(o, 'putBack');
  const putBack = putBackId === undefined ? '' : s.id(putBackId);
  switch (type) {
    case 'reverting': {
      const back = names(p, 'goesBack');
      const shown = back.length === 0 ? '' : t.auditGoesBack(items(p, back));
      return event.actor.id === 'system'
        ? t.auditPuttingBack(mid, shown, putBack)
        : t.auditPutBackNow(who(p), mid, shown, putBack);
    }
    case 'reverted': {
      const parts = leftParts(p, leftIn(o));
      return [t.auditReverted(ref, putBack), ...parts].join(t.auditPartSep);
    }
    case 'revert-conflict': {
      // Put back now found nothing to put back: no `reverting` names who asked, so this does.
      const asked = event.actor.id === 'system' ? '' : t.auditAskedNowBy(who(p));
      return `${revertConflictSentence(p, ref)}${asked}`;
    }
    case 'put-back-retrying': {
      const error = putBackError(p);
      const next = str(o, 'nextAt');
      return t.auditPutBackRetrying(
        mid,
        error === '' ? '' : `: ${error}`,
        next === undefined ? '' : when(p, next),
      );
    }
    case 'put-back-reminded': {
      const ends = str(o, 'endsAt');
      return t.auditPutBackReminded(ref, ends === undefined ? '' : when(p, ends));
    }
    case 'put-back-escalated': {
      const error = event.error === null ? putBackError(p) : '';
      return `${t.auditPutBackEscalated(mid)}${error === '' ? '' : t.auditError(error)}`;
    }
    case 'window-changed': {
      const extendedBy = str(o, 'extendedBy');
      const ends = str(o, 'endsAt');
      if (extendedBy !== undefined) {
        return t.auditWindowExtended(ref, s.id(extendedBy), ends === undefined ? '' : when(p, ends));
      }
      const recorded = names(p, 'recorded');
      if (recorded.length > 0) return t.auditWindowRecorded(ref, items(p, recorded));
      return t.auditWindowOverridden(ref, s.id(str(o, 'overriddenBy') ?? '?'), items(p, names(p, 'items')));
    }
  }
}

function sentence(p: Parts): string {
  const { event, s, t } = p;
  const o = event.outcome;
  // Compared as a string: event kinds added later (e.g. `resolved`) read the same way.
  const type: string = event.type;
  switch (type) {
    case 'requested':
      return requestedSentence(p);
    case 'approved':
      return t.auditApproved(
        who(p),
        forLead(p),
        requestRef(p),
        ofQuorum(p, o, (count, quorum) => t.auditOfQuorum(count, quorum)),
      );
    case 'rejected':
      return t.auditRejected(who(p), requestRef(p), noteSuffix(p, o));
    case 'cancelled':
      return t.auditCancelled(who(p), requestRef(p), noteSuffix(p, o));
    case 'expired':
      return t.auditExpired(
        capitalize(requestRef(p)),
        ofQuorum(p, o, (count, quorum) => t.auditExpiredHad(count, quorum)),
      );
    case 'executing':
      if (isObj(o) && o.breakGlass === true) {
        return t.auditBreakGlassStarted(requestRef(p), asked(p));
      }
      return t.auditStarted(capitalize(requestRef(p)), isObj(o) && o.resumed === true, asked(p));
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
      return t.auditFailed(asked(p), errorText(p) || t.auditNoError);
    case 'denied': {
      const said = worded(p, 'said');
      const reason = str(o, 'reason');
      return t.auditDenied(
        who(p),
        said !== undefined
          ? s.worded(said, AUDIT_LINE_LIMITS.reason)
          : reason === undefined
            ? t.auditNotAllowed
            : s.text(reason, AUDIT_LINE_LIMITS.reason),
        refusedAction(p),
      );
    }
    case 'unknown':
      return t.auditUnknown(asked(p));
    case 'step':
      return stepSentence(p);
    case 'resolved':
      return resolvedSentence(p);
    case 'reminded':
    case 'escalated':
    case 'expiry-warned':
      return followUpSentence(p, type);
    case 'reverting':
    case 'reverted':
    case 'revert-conflict':
    case 'put-back-retrying':
    case 'put-back-reminded':
    case 'put-back-escalated':
    case 'window-changed':
      return putBackSentence(p, type);
    default:
      return t.auditOther(s.text(type, 30), who(p), asked(p));
  }
}

/**
 * One number of a batch (`step`): its place in the list, the viewer, and how its unblock ended.
 * The channel does not post these (the batch's few lines do); `audit tail` reads them, the
 * error, as for any event, after the sentence.
 */
function stepSentence(p: Parts): string {
  const { event, s, t, lang } = p;
  const index = num(event.params, 'index');
  const mobile = str(event.params, 'mobileNumber');
  const nth = digits(lang, index === undefined ? '?' : index + 1);
  const viewer = t.auditResource('viewer', s.id(mobile ?? '?'));
  const state = str(event.outcome, 'state');
  if (state === 'done') return t.auditStepDone(nth, requestRef(p), viewer);
  if (state === 'failed') return t.auditStepFailed(nth, requestRef(p), viewer);
  return t.auditStepUnknown(nth, requestRef(p), viewer);
}

/**
 * The one sentence of an event, for `medium`: what was asked, by whom, what changed, the result,
 * and the request ID (in the words where they name it, else after them). No JSON: members of the
 * outcome that are not understood are left out. `scale` (0..1] shortens the free text for big
 * batches; IDs are never shortened. `lang` is the reader's language (English by default).
 */
export function auditSentence(
  event: AuditEvent,
  medium: AuditMedium,
  scale = 1,
  lang: Lang = ENGLISH,
): string {
  const s = styleFor(medium, scale, lang);
  const p: Parts = { event, s, lang, t: lang.t.audit };
  let said = sentence(p);
  // A failure, and a failed put-back, word their error in the sentence already.
  const error = event.type === 'failed' || event.type === 'put-back-retrying' ? '' : errorText(p);
  if (error !== '') said += p.t.auditError(error);
  if (event.requestId !== null) {
    const ref = s.id(event.requestId);
    if (!said.includes(ref)) said += ` · ${ref}`;
  }
  return said;
}

/**
 * `2024-05-01T10:22:03.123Z` → `2024-05-01 10:22:03Z`; in Persian the Solar Hijri date in the
 * display time zone. Anything else is shown as it is.
 */
function formatTime(at: string, lang: Lang): string {
  if (lang.locale !== 'en') return escapeMrkdwn(dateTime(lang, at));
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(at);
  return m ? `${m[1]} ${m[2]}Z` : escapeOutside(at);
}

/**
 * One event as a mrkdwn line for Slack: emoji, seq and time, the sentence, and the short hash
 * that makes the channel a witness of the chain.
 * @see docs/architecture.md, "Audit log"
 */
export function auditLine(event: AuditEvent, scale = 1, lang: Lang = ENGLISH): string {
  const emoji = TYPE_EMOJI[event.type] ?? ':grey_exclamation:';
  // The seq and the short hash keep Latin digits whatever the language: `audit witness` reads them.
  return lang.t.audit.auditLine(
    emoji,
    String(event.seq),
    formatTime(event.at, lang),
    auditSentence(event, 'slack', scale, lang),
    shortHash(event.hash),
  );
}

/** The same event for the notification `text` (mrkdwn too, so escaped, but without markup). */
function textLine(event: AuditEvent, lang: Lang): string {
  return lang.t.audit.auditTextLine(
    String(event.seq),
    auditSentence(event, 'slack-text', 0.5, lang),
    shortHash(event.hash),
  );
}

/** The same event for a terminal (`vidops audit tail`): plain, masked, control characters replaced. */
export function auditTerminalLine(event: AuditEvent, lang: Lang = ENGLISH): string {
  return auditSentence(event, 'terminal', 1, lang);
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

function packEvents(events: readonly AuditEvent[], scale: number, lang: Lang): SectionBlock[] {
  // A line only exceeds a section with absurd IDs; cutting it then beats losing the post.
  return packSections(events.map((event) => auditLine(event, scale, lang)));
}

/**
 * One audit channel message for a batch of events, oldest first: a context line naming the
 * range, then the event lines packed into sections of at most 3000 characters, with the text
 * shortened when the batch would be too long for one message. In `lang` (`CHANNEL_LOCALE`). Pure.
 * @see docs/architecture.md, "Audit log"; docs/slack.md, "Block Kit limits"
 */
export function renderAuditPost(events: readonly AuditEvent[], lang: Lang = ENGLISH): AuditPost {
  const t = lang.t.audit;
  if (events.length === 0) {
    return {
      text: t.auditNoEvents,
      blocks: [context(t.auditNoEvents)],
    };
  }
  const count = t.auditEvents(events.length, digits(lang, events.length));
  const range = ltr(lang, seqRange(events));
  const header = context(t.auditPostHeader(range, count));

  // Slack refuses a message whose blocks hold too much text in total (`msg_blocks_too_long`):
  // shorten the free text of every line until the batch fits.
  let sections = packEvents(events, 1, lang);
  for (const scale of [0.5, 0.25]) {
    if (blocksText(sections) + 200 <= BLOCK_KIT_LIMITS.messageBlocksText) break;
    sections = packEvents(events, scale, lang);
  }

  let text = t.auditPostText(range, count);
  let shown = 0;
  for (const event of events) {
    const next = `\n${textLine(event, lang)}`;
    if (text.length + next.length > TEXT_BUDGET) break;
    text += next;
    shown += 1;
  }
  if (shown < events.length) text += t.auditAndMore(digits(lang, events.length - shown));

  return { text, blocks: [header, ...sections] };
}

/**
 * One audit channel message standing for a run of events too long to post line by line (a
 * backlog): how many, their seq range, that all are in `vidops audit tail`, and the last one's
 * hash, short in a line `audit witness` reads as that event's and whole below it. The chain makes
 * that hash vouch for every event before it, so the channel stays a witness. In `lang`. Pure.
 * @see docs/slack.md, "Audit channel backlog"
 */
export function renderAuditSummary(events: readonly AuditEvent[], lang: Lang = ENGLISH): AuditPost {
  const last = events[events.length - 1];
  if (last === undefined) return renderAuditPost(events, lang);
  const t = lang.t.audit;
  const count = t.auditEvents(events.length, digits(lang, events.length));
  const range = seqRange(events);
  const seq = String(last.seq);
  const short = shortHash(last.hash);
  return {
    text: `${t.auditPostText(ltr(lang, range), count)}\n${t.auditSummaryTextLine(seq, count, range, short)}`,
    blocks: [
      context(t.auditPostHeader(ltr(lang, range), count)),
      section(t.auditSummaryLine(seq, count, range, short)),
      context(t.auditSummaryHead(seq, last.hash)),
    ],
  };
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
 * base64, the time), escaped all the same; only the words around it are in `lang`. Pure.
 * @see docs/architecture.md, "Audit log"; docs/audit-checkpoints.md
 */
export function renderCheckpointPost(checkpoint: CheckpointPostInput, lang: Lang = ENGLISH): AuditPost {
  const t = lang.t.audit;
  const covers = t.auditEvents(checkpoint.size, digits(lang, checkpoint.size));
  const noteBlock = `\`\`\`\n${escapeMrkdwn(checkpoint.note)}\`\`\``;
  const short = shortHash(checkpoint.head);
  return {
    text: `${t.auditCheckpointText(covers, short)}\n${noteBlock}`,
    blocks: [context(t.auditCheckpointHeader(covers, short)), section(noteBlock)],
  };
}
