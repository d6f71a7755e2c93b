import { isIP } from 'node:net';
import { type ChangeOperation, OPERATION_SPECS } from '../core/catalog.js';
import type { OperationRequest } from '../core/model.js';
import { type BoxAsked, type PutBackConflict, untilMs } from '../core/time-box.js';
import { dateTime, type Lang, langFor, list, ltr, num, persianDigits, relative } from '../i18n/index.js';
import { VIEWS } from '../operations/views.js';
import { code } from './blocks.js';
import { protectionValueText } from './protection-text.js';

/**
 * Changes that undo themselves, in words (issue 23): the window of a change not yet applied
 * ("for 2 hours (until about 16:05 if applied now)"), the end of one in force ("goes back at
 * 16:05, in 2 hours"), where its put-back stands and what it left alone, the reminder before the
 * end, the "Put back after" choices, and why a change has no Revert…. Pure: the reader's
 * language, the model, the clock reading and the display time zone come in; text comes out.
 * Times are read in `timeZone` (by default the reader's): the hour alone today, with the date
 * (Solar Hijri in Persian) on another day.
 * @see docs/commands.md, "Time-boxed changes"
 */

/** What the wording reads of a request: its operation, its window and put-back, what it replaced. */
export type BoxModel = Pick<OperationRequest, 'operation' | 'timeBox' | 'undo' | 'updatedAt'>;

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string, kind: 'day' | 'hour'): Intl.DateTimeFormat {
  const key = `${timeZone}|${kind}`;
  let format = dayFormats.get(key);
  if (format === undefined) {
    format =
      kind === 'day'
        ? new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
        : new Intl.DateTimeFormat('en-GB', {
            timeZone,
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          });
    dayFormats.set(key, format);
  }
  return format;
}

/**
 * A moment as a clock in `timeZone` shows it to the reader: `16:05` (`ساعت ۱۶:۰۵`) when it is
 * today there, else with its date, Solar Hijri in Persian (`۷ آذر ۱۴۰۵ ساعت ۱۸:۰۰`).
 */
export function clockText(lang: Lang, iso: string, now: Date, timeZone: string = lang.timeZone): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return ltr(lang, iso);
  const day = formatIn(timeZone, 'day');
  if (day.format(ms) !== day.format(now)) return dateTime(langFor(lang.locale, timeZone), iso);
  const hour = formatIn(timeZone, 'hour').format(ms);
  return lang.t.timeBox.boxClockToday(lang.locale === 'fa' ? persianDigits(hour) : hour, timeZone);
}

const SPAN_UNITS: readonly ['day' | 'hour' | 'minute' | 'second', number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** A length of time, exactly, from days down: `2 hours`, `1 hour and 30 minutes`, `۱ ساعت و ۳۰ دقیقه`. */
export function spanText(lang: Lang, ms: number): string {
  const parts: string[] = [];
  let left = Math.max(0, Math.floor(ms / 1000) * 1000);
  for (const [unit, size] of SPAN_UNITS) {
    const amount = Math.floor(left / size);
    left -= amount * size;
    if (amount === 0) continue;
    const format = new Intl.NumberFormat(lang.locale === 'fa' ? 'fa-IR' : 'en', {
      style: 'unit',
      unit,
      unitDisplay: 'long',
    });
    parts.push(format.format(amount));
  }
  return parts.length === 0 ? num(lang, 0) : list(lang, parts);
}

/**
 * The window of a change not yet applied: `for 2 hours (until about 16:05 if applied now)`, or
 * `until 18:00, in 3 hours` for an end.
 */
export function windowText(lang: Lang, asked: BoxAsked, now: Date, timeZone: string = lang.timeZone): string {
  const t = lang.t.timeBox;
  if (asked.kind === 'for') {
    const end = new Date(now.getTime() + asked.ms).toISOString();
    return t.boxAskedFor(spanText(lang, asked.ms), clockText(lang, end, now, timeZone));
  }
  const end = untilMs(asked.at, timeZone);
  if (!Number.isFinite(end)) return ltr(lang, asked.text);
  const iso = new Date(end).toISOString();
  return t.boxAskedUntil(clockText(lang, iso, now, timeZone), relative(lang, iso, now));
}

/** A change in force: `goes back at 16:05, in 2 hours`. */
export function goesBackText(
  lang: Lang,
  endsAt: string,
  now: Date,
  timeZone: string = lang.timeZone,
): string {
  return lang.t.timeBox.boxGoesBack(clockText(lang, endsAt, now, timeZone), relative(lang, endsAt, now));
}

/** `preventZoom`, `5.6.7.8`: an item isolated as code. */
function itemCode(lang: Lang, item: string): string {
  return ltr(lang, code(item));
}

/** One thing a put-back left alone, and why (`heldBy`: a record from before one holder per setting). */
function conflictText(lang: Lang, conflict: PutBackConflict): string {
  const t = lang.t.timeBox;
  const item = itemCode(lang, conflict.item);
  if (conflict.heldBy !== null) return t.boxHeldNow(item, ltr(lang, conflict.heldBy));
  // An item is an address of the whitelist, or the dotted name of a protection setting.
  if (isIP(conflict.item) !== 0) return conflict.now === null ? t.boxGoneSince(item) : t.boxBackSince(item);
  return t.boxChangedSince(item, itemCode(lang, protectionValueText(conflict.item, conflict.now, lang)));
}

const MAX_CONFLICTS = 10;

/** What a put-back left alone, one clause each (at most ten, then `…`); '' when nothing. */
function conflictsText(lang: Lang, model: BoxModel): string {
  const conflicts = model.timeBox?.conflicts ?? [];
  const lines = conflicts.slice(0, MAX_CONFLICTS).map((c) => conflictText(lang, c));
  if (conflicts.length > MAX_CONFLICTS) lines.push('…');
  return lines.length === 0 ? '' : lang.t.timeBox.boxConflicts(lines);
}

/**
 * Where a time-boxed change's put-back stands, in one line: before it applies, its window; in
 * force, when it goes back; then putting back, failing and retrying (when next), put back (and
 * what was left alone, and why), or nothing put back. Null for a change with no window, or one
 * that never applied (`cancelled`).
 */
export function putBackText(
  lang: Lang,
  model: BoxModel,
  now: Date,
  timeZone: string = lang.timeZone,
): string | null {
  const box = model.timeBox;
  if (box === undefined) return null;
  const t = lang.t.timeBox;
  const conflicts = () => conflictsText(lang, model);
  switch (box.state) {
    case 'waiting':
      return box.endsAt === null
        ? windowText(lang, box.asked, now, timeZone)
        : goesBackText(lang, box.endsAt, now, timeZone);
    case 'running':
      return t.boxRunning;
    case 'retrying':
      return t.boxRetrying(clockText(lang, box.nextAt ?? box.endsAt ?? model.updatedAt, now, timeZone));
    case 'done': {
      const done = t.boxDone(clockText(lang, model.updatedAt, now, timeZone));
      const left = conflicts();
      return left === '' ? done : t.boxThen(done, left);
    }
    case 'left': {
      const left = conflicts();
      return left === '' ? t.boxLeft : t.boxLeftBecause(left);
    }
    case 'cancelled':
      return null;
  }
}

/**
 * The reminder DM a little before the end: `preventZoom goes back to true in 10 minutes: extend?`,
 * `5.6.7.8 leaves the whitelist in 10 minutes: extend?`. Null when the change recorded nothing to
 * put back, or has no end. (How far off the end is needs no time zone.)
 */
export function reminderText(
  lang: Lang,
  model: Pick<BoxModel, 'timeBox' | 'undo'>,
  now: Date,
): string | null {
  const endsAt = model.timeBox?.endsAt;
  const undo = model.undo;
  if (endsAt === null || endsAt === undefined || undo === undefined) return null;
  const t = lang.t.timeBox;
  const fromNow = relative(lang, endsAt, now);
  const parts: string[] = [];
  if (undo.kind === 'protection') {
    const [only] = undo.rows;
    if (only !== undefined && undo.rows.length === 1) {
      const value = itemCode(lang, protectionValueText(only.field, only.before, lang));
      parts.push(t.boxRemindField(itemCode(lang, only.field), value, fromNow));
    } else if (only !== undefined) {
      const fields = undo.rows.slice(0, 5).map((r) => itemCode(lang, r.field));
      const named = list(lang, undo.rows.length > 5 ? [...fields, '…'] : fields);
      parts.push(t.boxRemindFields(num(lang, undo.rows.length), named, fromNow));
    }
  } else if (undo.kind === 'whitelist') {
    const ips = (items: readonly string[]) =>
      list(
        lang,
        items.map((ip) => itemCode(lang, ip)),
      );
    if (undo.added.length > 0) parts.push(t.boxRemindLeaves(undo.added.length > 1, ips(undo.added), fromNow));
    if (undo.removed.length > 0) {
      parts.push(t.boxRemindReturns(undo.removed.length > 1, ips(undo.removed), fromNow));
    }
  }
  return parts.length === 0 ? null : t.boxRemindExtend(t.boxRemindJoin(parts));
}

const MINUTE = 60_000;

/** The values of "Put back after", in order; `ms` null for never and for a window typed instead. */
const CHOICES = [
  { value: 'never', ms: null },
  { value: '15m', ms: 15 * MINUTE },
  { value: '1h', ms: 60 * MINUTE },
  { value: '4h', ms: 4 * 60 * MINUTE },
  { value: '1d', ms: 24 * 60 * MINUTE },
  { value: 'other', ms: null },
] as const;

/** One choice of "Put back after": its option value, its window (null: never, or typed) and its label. */
export interface PutBackChoice {
  value: (typeof CHOICES)[number]['value'];
  ms: number | null;
  label: string;
}

/**
 * The "Put back after" choices of the protection and whitelist modals, in the reader's language:
 * never (not when the policy requires a window), 15 minutes, 1 hour, 4 hours, 1 day (those
 * within `maxMs`), and other (type a duration or date).
 */
export function putBackChoices(
  lang: Lang,
  bounds: { maxMs: number; required: boolean } = { maxMs: Number.POSITIVE_INFINITY, required: false },
): PutBackChoice[] {
  const t = lang.t.timeBox;
  return CHOICES.filter((c) =>
    c.value === 'never' ? !bounds.required : c.ms === null || c.ms <= bounds.maxMs,
  ).map((c) => ({
    value: c.value,
    ms: c.ms,
    label:
      c.value === 'never'
        ? t.boxChoiceNever
        : c.value === 'other'
          ? t.boxChoiceOther
          : spanText(lang, c.ms ?? 0),
  }));
}

/** The same choices with their labels in every language, as data. */
export const PUT_BACK_CHOICES: readonly {
  value: PutBackChoice['value'];
  ms: number | null;
  label: { en: string; fa: string };
}[] = CHOICES.map((c, i) => ({
  value: c.value,
  ms: c.ms,
  label: {
    en: putBackChoices(langFor('en'))[i]?.label ?? c.value,
    fa: putBackChoices(langFor('fa'))[i]?.label ?? c.value,
  },
}));

/**
 * Why a done change has no Revert…, where someone looks for it: deletes and creates, an unblock,
 * a conversion retry. Null for an operation that can be reverted.
 */
export function notRevertibleText(lang: Lang, operation: ChangeOperation): string | null {
  const spec = OPERATION_SPECS[operation];
  if (spec.undo !== 'none') return null;
  const t = lang.t.timeBox;
  if (spec.risk === 'irreversible') return t.boxNoRevertDelete;
  return VIEWS[operation].noRevert?.(lang) ?? t.boxNoRevertCreate;
}
