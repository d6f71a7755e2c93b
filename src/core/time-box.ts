import { InputError } from './errors.js';
import type { JsonValue } from './json.js';
import type { RecordedError } from './model.js';
import type { UndoRule } from './operation-spec.js';
import { type Said, say } from './said.js';
import type { ProtectionValue } from './validate/protection.js';
import { readWhen, zonedToUtc } from './when.js';

/**
 * Changes that undo themselves (issue 23): a protection or whitelist change asked "for 2h" is
 * put back by vidops at its end, exactly once, and only where nobody changed it since; any done
 * reversible change can be reverted by a new request. These are the types every layer shares;
 * the pure rules (reading a window, planning a put-back) live beside them in the core.
 * @see docs/time-boxed.md
 */

/**
 * How long a change was asked for, as typed: a window that starts when the change is applied
 * (`for 2h`), or an end (`until 1405/09/07T18:00`, read in the display time zone). `text` is
 * what was typed, for people to read back.
 */
export type BoxAsked =
  | { kind: 'for'; ms: number; text: string }
  | { kind: 'until'; at: string; text: string };

/**
 * What a done change replaced and what it set, recorded when it succeeded: enough to put it
 * back (or revert it) without clobbering what others changed since.
 * - `protection`: one row per setting sent (dotted name), its value read just before sending
 *   (`null`: not set) and the value sent;
 * - `whitelist`: the addresses vidops added and removed (the list as read before is `before`);
 * - `record`: a change of one record's fields (a folder, file or playlist edit), as the look-up
 *   saw them before (null when the service could not say) and as sent, as its preview showed
 *   them. The name is neutral: the request's operation says which change it undoes.
 */
export type Undo =
  | {
      kind: 'protection';
      rows: { field: string; before: ProtectionValue | null; after: ProtectionValue }[];
    }
  | { kind: 'whitelist'; before: string[]; added: string[]; removed: string[] }
  | {
      kind: 'record';
      resource: 'folder' | 'file' | 'playlist';
      id: string;
      /** As the change's preview showed them: the look-up before (null: not known) and what was sent. */
      before: JsonValue;
      after: JsonValue;
    };

type RecordUndo = Extract<Undo, { kind: 'record' }>;

/** An undo as a request holds it: also a record change's as builds before it had a neutral name stored it. */
export type StoredUndo = Undo | (Omit<RecordUndo, 'kind'> & { kind: 'edit' });

/** The undo under its current name (the seal is checked on what was stored, before this). */
export function undoNow(undo: StoredUndo): Undo {
  return undo.kind === 'edit' ? { ...undo, kind: 'record' } : undo;
}

/**
 * How the put-back of a time-boxed change stands, on the change itself:
 * - `waiting`: in force, goes back at `endsAt`;
 * - `running`: put-back request `requestId` is planned or being sent;
 * - `retrying`: the last attempt failed (`lastError`); the next is due at `nextAt`;
 * - `done`: put back (`conflicts` lists what was left alone because others changed it since);
 * - `left`: nothing was put back, everything had been changed since (or taken over for good);
 * - `cancelled`: nothing of its own is due: the change never applied, or it is an Extend, whose
 *   end the window it extends carries.
 */
export type PutBackState = 'waiting' | 'running' | 'retrying' | 'done' | 'left' | 'cancelled';

/** Whether a change in this put-back state is still in force, waiting to go back (`waiting`, `retrying`). */
export function awaitsPutBack(state: PutBackState | undefined): boolean {
  return state === 'waiting' || state === 'retrying';
}

/** Something a put-back left alone, and why: another person changed it, or a later time-boxed change holds it. */
export type PutBackConflict = {
  /** A protection field (dotted) or an IP address. */
  item: string;
  /** What the service shows now (`null`: not set / not listed). */
  now: ProtectionValue | null;
  /** The later time-boxed request that holds it now, when there is one. */
  heldBy: string | null;
};

export type TimeBox = {
  asked: BoxAsked;
  /** When it goes back (ISO); set when the change is applied, moved by an approved Extend. */
  endsAt: string | null;
  state: PutBackState;
  /** The put-back request of the current attempt (linked by its `revertOf`). */
  requestId: string | null;
  attempts: number;
  nextAt: string | null;
  /** When the first failed attempt was, so a lead is told after an hour; null while none failed. */
  failingSince: string | null;
  leadTold: boolean;
  /** When the requester was reminded that the end is near; null before. */
  remindedAt: string | null;
  conflicts: PutBackConflict[];
  lastError: RecordedError | null;
  /** On an Extend: the time-boxed request whose window this one continues. */
  extends?: string;
  /** When the change was applied (its window started). */
  appliedAt?: string;
  /**
   * Settings or addresses (as the undo names them) a change for good took over while the window
   * was in force: the put-back leaves them alone, and says so.
   */
  overridden?: string[];
};

/** A box not yet applied: what `submit` stores with a time-boxed request. */
export function newTimeBox(asked: BoxAsked, extendsId?: string): TimeBox {
  return {
    asked,
    endsAt: null,
    state: 'waiting',
    requestId: null,
    attempts: 0,
    nextAt: null,
    failingSince: null,
    leadTold: false,
    remindedAt: null,
    conflicts: [],
    lastError: null,
    ...(extendsId === undefined ? {} : { extends: extendsId }),
  };
}

/** On a request made to undo another: a put-back (no approval, planned by vidops) or a Revert. */
export type RevertOf = {
  id: string;
  kind: 'put-back' | 'revert';
};

// ---------------------------------------------------------------------------------------------
// Reading, bounding and resolving a window (pure: the clock and the time zone are passed in)

/** A window refused: the sentence to say in the reader's language. */
export type WindowRefusal = { ok: false; said: Said };

function refusal(said: Said): WindowRefusal {
  return { ok: false, said };
}

/** The shortest window: a change goes back one minute after it applies at the earliest. */
export const MIN_WINDOW_MS = 60_000;

/**
 * Reads a window as typed after `for` or `until`, or in the modal's "other" field: a duration
 * (`15m`, `2h`, `1d`, `1w`, `1h30m`) is a window from when the change applies (`for`); a date or
 * time (`2026-12-01T18:00`, Solar Hijri `1405/09/07T18:00` or `1405/09/07 18:00`, a date alone
 * meaning its start) is an end (`until`), kept as the wall clock typed (`2026-12-01T18:00:00`,
 * read in the display time zone) or, with a final `Z`, as UTC (`2026-12-01T18:00:00Z`). Persian
 * and Arabic-Indic digits are read. Zero or a negative duration is refused with its reason.
 * @see docs/commands.md, "Time-boxed changes"
 */
export function readWindow(text: string): { ok: true; asked: BoxAsked } | WindowRefusal {
  const typed = text.trim();
  const when = readWhen(typed);
  if (when === null) return refusal(say.boxUnreadable(typed));
  if (when.kind === 'duration') {
    if (when.ms <= 0) return refusal(say.boxNotPositive(typed));
    return { ok: true, asked: { kind: 'for', ms: when.ms, text: typed } };
  }
  return { ok: true, asked: { kind: 'until', at: `${when.local}${when.utc ? 'Z' : ''}`, text: typed } };
}

const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/**
 * The moment an `until` window's `at` names, in UTC milliseconds: a wall clock
 * (`2026-12-01T18:00:00`) in `timeZone`, or an instant (`…Z`, as `resolveWindow` leaves it).
 * NaN when it is neither.
 */
export function untilMs(at: string, timeZone: string): number {
  if (WALL_CLOCK.test(at)) return zonedToUtc(at, timeZone);
  return /(?:Z|[+-]\d{2}:\d{2})$/i.test(at) ? Date.parse(at) : Number.NaN;
}

/** What `resolveWindow` checks a window against: the clock, the display time zone, the policy's bounds. */
export interface WindowBounds {
  now: Date;
  /** The display time zone (`DISPLAY_TIME_ZONE`), where a wall clock typed is read. */
  timeZone: string;
  /** The policy's `maxDuration`, in milliseconds. */
  maxMs: number;
  /** Default {@link MIN_WINDOW_MS}. */
  minMs?: number;
}

/**
 * A window checked against its bounds: longer than zero, at least `minMs` (one minute), at most
 * the policy's `maxMs`, an end in the future. `endsAt` is when it goes back if applied `now`;
 * `asked` is the window with an `until`'s end made an absolute instant (`…Z`), to keep with the
 * request, so that a later change of time zone does not move it.
 */
export function resolveWindow(
  asked: BoxAsked,
  bounds: WindowBounds,
): { ok: true; endsAt: string; asked: BoxAsked } | WindowRefusal {
  const { now, timeZone, maxMs, minMs = MIN_WINDOW_MS } = bounds;
  const end = asked.kind === 'for' ? Number.NaN : untilMs(asked.at, timeZone);
  if (asked.kind === 'until' && !Number.isFinite(end)) return refusal(say.boxUnreadable(asked.text));
  const ms = asked.kind === 'for' ? asked.ms : end - now.getTime();
  if (asked.kind === 'for' && !(ms > 0)) return refusal(say.boxNotPositive(asked.text));
  if (asked.kind === 'until' && ms <= 0) return refusal(say.boxPast(asked.text));
  if (ms < minMs) return refusal(say.boxTooShort(asked.text, minMs));
  if (ms > maxMs) return refusal(say.boxTooLong(asked.text, maxMs));
  const endsAt = new Date(now.getTime() + ms).toISOString();
  return { ok: true, endsAt, asked: asked.kind === 'for' ? asked : { ...asked, at: endsAt } };
}

/**
 * When a time-boxed change goes back, once it applied at `appliedAt`: a `for` window from then,
 * an `until` at its end (a wall clock read in `timeZone`). Throws on an `until` that names no
 * moment: it was checked when asked, so that is a damaged row.
 */
export function endsAtFrom(asked: BoxAsked, appliedAt: Date, timeZone: string): string {
  if (asked.kind === 'for') return new Date(appliedAt.getTime() + asked.ms).toISOString();
  const end = untilMs(asked.at, timeZone);
  if (!Number.isFinite(end)) throw new InputError(say.boxUnreadable(asked.text));
  return new Date(end).toISOString();
}

/**
 * What the policy says of windows for one operation (src/core/policy.ts `windowRule`): whether
 * its changes can be time-boxed (`undo: 'time-box'`), whether a window is required, the bounds.
 */
export interface WindowRule {
  operation: string;
  /** The operation's English title, for the refusals. */
  title: string;
  undo: UndoRule;
  /** The policy's `requireDuration`, for an operation that can be time-boxed (false otherwise). */
  requireDuration: boolean;
  maxMs: number;
  minMs: number;
}

/**
 * The window a request carries, checked against its operation's rule: none when none was asked
 * and none is required; refused when one is required and missing, when the operation cannot go
 * back by itself, or when the window is out of bounds (see {@link resolveWindow}).
 */
export function checkWindow(
  rule: WindowRule,
  asked: BoxAsked | null | undefined,
  at: { now: Date; timeZone: string },
): { ok: true; window: { asked: BoxAsked; endsAt: string } | null } | WindowRefusal {
  if (asked === null || asked === undefined) {
    return rule.requireDuration
      ? refusal(say.boxRequired(rule.operation, rule.title, rule.maxMs))
      : { ok: true, window: null };
  }
  if (rule.undo !== 'time-box') {
    return refusal(say.boxNotTimeBoxed(rule.operation, rule.title, rule.undo));
  }
  const resolved = resolveWindow(asked, { ...at, maxMs: rule.maxMs, minMs: rule.minMs });
  return resolved.ok ? { ok: true, window: { asked: resolved.asked, endsAt: resolved.endsAt } } : resolved;
}

/** The words that open a window at the end of a command. */
const WINDOW_WORDS = ['for', 'until'] as const;

/** Whether `token` is `for` or `until` (any case). */
export function isWindowWord(token: string): boolean {
  return (WINDOW_WORDS as readonly string[]).includes(token.toLowerCase());
}

/**
 * Takes a window off the end of a command's words: `… for 2h`, `… until 1405/09/07T18:00`, or a
 * date and a time as two words (`… until 1405/09/07 18:00`, joined). Returns the other words and
 * the window (null when there is none), or what was wrong: nothing after the word, a window that
 * is not last, two windows, or one that cannot be read.
 */
export function splitWindowWords(
  tokens: readonly string[],
): { ok: true; rest: string[]; asked: BoxAsked | null } | WindowRefusal {
  const at = tokens.findLastIndex(isWindowWord);
  if (at < 0) return { ok: true, rest: [...tokens], asked: null };
  const word = (tokens[at] ?? '').toLowerCase();
  const after = tokens.slice(at + 1);
  const rest = tokens.slice(0, at);
  if (after.length === 0) return refusal(say.boxNoWindow(word));
  if (after.length > 2) return refusal(say.boxNotLast(word));
  const read = readWindow(after.join(' '));
  if (!read.ok) {
    // `for 2h 1.2.3.4`: a window, then more words.
    return after.length === 2 && readWindow(after[0] ?? '').ok ? refusal(say.boxNotLast(word)) : read;
  }
  if (rest.some(isWindowWord)) return refusal(say.boxTwice());
  return { ok: true, rest, asked: read.asked };
}
