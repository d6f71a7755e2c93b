import { followUpOf, type OperationRequest } from './model.js';
import type { FollowUpRule } from './policy.js';

/**
 * When a waiting request is followed up, as pure functions of the request, its operation's rule
 * and the clock: the reminder to the approvers who have not decided, the escalation to backup
 * approvers, the warning before expiry, when the requester may remind again, and the coarse "time
 * left" the approval message shows. The sweeper and the Remind button act on what these say;
 * each act is a compare-and-set with its audit event, so it happens once.
 * @see docs/architecture.md, "Reminders, escalation and the expiry warning"
 */

/** A follow-up the sweeper may owe a request, in the order it does them. */
export type FollowUpKind = 'escalate' | 'remind' | 'warn';

type Waiting = Pick<OperationRequest, 'state' | 'createdAt' | 'expiresAt' | 'followUp'>;

function ms(iso: string | null): number | null {
  if (iso === null) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

/** Still open at `now`: pending and not past its expiry. */
function open(request: Waiting, now: number): boolean {
  const expires = ms(request.expiresAt);
  return request.state === 'pending' && (expires === null || now < expires);
}

/**
 * When each follow-up falls due, null when it never does (turned off, done already, or it would
 * come after the expiry). The reminder counts from the last reminder, so one the requester asked
 * for moves vidops' own later; the warning is left out when the request's whole life is shorter.
 */
export function followUpTimes(request: Waiting, rule: FollowUpRule): Record<FollowUpKind, number | null> {
  const done = followUpOf(request);
  const created = ms(request.createdAt) ?? 0;
  const expires = ms(request.expiresAt);
  const beforeExpiry = (at: number | null): number | null =>
    at === null || (expires !== null && at >= expires) ? null : at;

  const remindBase = Math.max(created, ms(done.remindedAt) ?? created);
  const remind =
    rule.remindAfterMs === null || done.autoReminded ? null : beforeExpiry(remindBase + rule.remindAfterMs);
  const escalate =
    rule.escalateTo.length === 0 || rule.escalateAfterMs === null || done.escalatedAt !== null
      ? null
      : beforeExpiry(created + rule.escalateAfterMs);
  let warn: number | null = null;
  if (rule.warnBeforeExpiryMs !== null && expires !== null && done.expiryWarnedAt === null) {
    const at = expires - rule.warnBeforeExpiryMs;
    warn = at > created ? at : null;
  }
  return { escalate, remind, warn };
}

/** The follow-ups due at `now`, in the order they are done; none once the request is decided. */
export function dueFollowUps(request: Waiting, rule: FollowUpRule, now: Date): FollowUpKind[] {
  const t = now.getTime();
  if (!open(request, t)) return [];
  const times = followUpTimes(request, rule);
  return (['escalate', 'remind', 'warn'] as const).filter((kind) => {
    const at = times[kind];
    return at !== null && at <= t;
  });
}

/**
 * When the sweeper next owes a waiting request something at or after `now` (a follow-up, or a
 * re-render as its time left changes words); null when never. One due and not done stays due.
 */
export function nextFollowUpAt(request: Waiting, rule: FollowUpRule, now: Date): number | null {
  if (!open(request, now.getTime())) return null;
  const times = followUpTimes(request, rule);
  const words = request.expiresAt === null ? null : timeLeftChangesAt(request.expiresAt, now);
  const all = [times.escalate, times.remind, times.warn, words].filter((t) => t !== null);
  return all.length === 0 ? null : Math.min(...all);
}

/**
 * When the requester may remind the approvers again: `remindAfter` after the last reminder (theirs
 * or vidops' own); null when they may now. Reminders turned off (`remindAfter: off`) allow none.
 */
export function nextReminderAt(request: Waiting, rule: FollowUpRule, now: Date): Date | 'never' | null {
  if (rule.remindAfterMs === null) return 'never';
  const last = ms(followUpOf(request).remindedAt);
  if (last === null) return null;
  const next = last + rule.remindAfterMs;
  return now.getTime() < next ? new Date(next) : null;
}

/** How long until expiry, coarsely: the words and the bucket they belong to. */
export interface TimeLeft {
  /** `2 days`, `3h`, `under 1h`, `under 15 min`. */
  words: string;
  /** Changes only when the words change: the approval message is re-rendered then, not every second. */
  bucket: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The time left before `expiresAt` at `now`, in coarse words (whole days, whole hours, then under 1h / 15 min). */
export function timeLeft(expiresAt: string, now: Date): TimeLeft {
  const left = (ms(expiresAt) ?? now.getTime()) - now.getTime();
  if (left <= 0) return { words: 'no time', bucket: 'over' };
  if (left >= 2 * DAY) {
    const days = Math.floor(left / DAY);
    return { words: `${days} days`, bucket: `d${days}` };
  }
  if (left >= HOUR) {
    const hours = Math.floor(left / HOUR);
    return { words: `${hours}h`, bucket: `h${hours}` };
  }
  if (left >= 15 * MINUTE) return { words: 'under 1h', bucket: 'm60' };
  return { words: 'under 15 min', bucket: 'm15' };
}

/** The first moment after `now` at which {@link timeLeft} says other words; null once over. */
export function timeLeftChangesAt(expiresAt: string, now: Date): number | null {
  const end = ms(expiresAt) ?? now.getTime();
  const left = end - now.getTime();
  if (left <= 0) return null;
  // The words change as soon as less than this is left: whole days, whole hours, 1h, then 15 min.
  const step = left >= 2 * DAY ? DAY : left >= HOUR ? HOUR : null;
  if (step === null) return left >= 15 * MINUTE ? end - 15 * MINUTE + 1 : end;
  return end - Math.floor(left / step) * step + 1;
}

/**
 * Whether the approval message, last rendered at `renderedAt`, says another time left at `now`
 * (a coarse bucket changed): the sweeper re-renders it then.
 */
export function timeLeftChanged(
  request: Pick<OperationRequest, 'state' | 'expiresAt'>,
  renderedAt: string,
  now: Date,
): string | null {
  if (request.state !== 'pending' || request.expiresAt === null) return null;
  const then = timeLeft(request.expiresAt, new Date(ms(renderedAt) ?? now.getTime()));
  const current = timeLeft(request.expiresAt, now);
  return then.bucket === current.bucket ? null : current.bucket;
}
