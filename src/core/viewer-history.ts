import { z } from 'zod';
import type { JsonValue } from './json.js';
import {
  type Actor,
  type AuditEvent,
  type AuditEventType,
  type NewAuditEvent,
  REQUEST_STATES,
  type RequestState,
} from './model.js';

/**
 * A viewer's history as vidops' own audit log tells it (the documented service keeps none): each
 * unblock asked for the number, folded from its events. The store indexes every event whose
 * parameters name a viewer ({@link viewersOfEvent}) under the number as the unblock normalised
 * it, so a viewer's history is read through that index, never by scanning the log.
 * @see docs/commands.md, "A viewer's history"
 */

/** The request's states a history shows as they are: an approved one stays `pending` until it runs. */
type ShownState = Exclude<RequestState, 'approved' | 'executing'>;

/**
 * Where an unblock ended, or stands, as its viewer's history shows it: its request's state
 * (`executing` reads `running`), or `denied`: the policy refused to ask at all.
 */
export const UNBLOCK_OUTCOMES = [
  'running',
  'denied',
  ...REQUEST_STATES.filter((s): s is ShownState => s !== 'approved' && s !== 'executing'),
] as const;
export type UnblockOutcome = (typeof UNBLOCK_OUTCOMES)[number];

/** One unblock of one viewer: who asked, who approved, when, how it ended, and why it was asked. */
export interface ViewerUnblock {
  /** Null for an ask the policy refused (no request was made). */
  requestId: string | null;
  /** The number as the unblock normalised it (national digits, or E.164 for another region). */
  viewer: string;
  askedAt: string;
  requester: Actor;
  approvers: Actor[];
  /** Who rejected, cancelled or settled it; null otherwise. */
  decidedBy: Actor | null;
  outcome: UnblockOutcome;
  /** The requester's reason, or the refusal's; null when none was given. */
  reason: string | null;
  /** The service's or vidops' error message of a failure; null otherwise. */
  error: string | null;
  /** Run by break-glass, without its approvals. */
  breakGlass: boolean;
}

/** Events that begin an unblock of a viewer: its request, or a refusal to make one. */
export const ASK_TYPES: readonly AuditEventType[] = ['requested', 'denied'];

/** Outcomes that undid nothing of the block: they do not count toward a repeat. */
const NOT_AN_UNBLOCK: readonly UnblockOutcome[] = ['failed', 'rejected', 'cancelled', 'expired', 'denied'];

/**
 * The viewers an event concerns: the numbers in its parameters (`mobileNumber`, or a batch's
 * `mobileNumbers`). An event of any operation that names one is indexed under it, so a later
 * operation on viewers joins the history by naming the number the same way; a batch's ask
 * counts for each of its viewers from the moment it is asked, as a single unblock's does.
 */
export function viewersOfEvent(event: Pick<NewAuditEvent, 'params'>): string[] {
  const { params } = event;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return [];
  const { mobileNumber, mobileNumbers } = params as { [key: string]: JsonValue | undefined };
  const named = [mobileNumber, ...(Array.isArray(mobileNumbers) ? mobileNumbers : [])];
  return [...new Set(named.filter((m): m is string => typeof m === 'string' && m !== ''))];
}

/** How a batch's step for one number ended, as that viewer's history shows it. */
const BATCH_STEP_OUTCOME: Readonly<Record<string, UnblockOutcome>> = {
  done: 'succeeded',
  failed: 'failed',
  unknown: 'unknown',
};

/** The outcome of a batch's `step` event when it is `viewer`'s; null for any other event. */
function stepOutcome(viewer: string, e: AuditEvent): UnblockOutcome | null {
  if (e.type !== 'step' || viewersOfEvent(e)[0] !== viewer) return null;
  const { outcome } = e;
  if (outcome === null || typeof outcome !== 'object' || Array.isArray(outcome)) return null;
  const state = (outcome as { [key: string]: JsonValue | undefined }).state;
  return typeof state === 'string' ? (BATCH_STEP_OUTCOME[state] ?? null) : null;
}

const STEP_OUTCOME: Partial<Record<AuditEventType, UnblockOutcome>> = {
  executing: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  rejected: 'rejected',
  cancelled: 'cancelled',
  expired: 'expired',
  unknown: 'unknown',
};

function reasonOf(outcome: JsonValue): string | null {
  if (outcome === null || typeof outcome !== 'object' || Array.isArray(outcome)) return null;
  const reason = (outcome as { [key: string]: JsonValue | undefined }).reason;
  return typeof reason === 'string' && reason.trim() !== '' ? reason : null;
}

/**
 * Folds a viewer's events (any order) into its unblocks, newest first. Events of a request whose
 * ask is not among them (it is older than what was read) are left out.
 */
export function foldViewerUnblocks(viewer: string, events: readonly AuditEvent[]): ViewerUnblock[] {
  const byAsk = new Map<string, ViewerUnblock & { seq: number }>();
  // In a batch, this number's own step says how its unblock ended, whatever the batch's end.
  const stepped = new Set<string>();
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    const key = e.requestId ?? `event:${e.id}`;
    if (ASK_TYPES.includes(e.type)) {
      byAsk.set(key, {
        seq: e.seq,
        requestId: e.requestId,
        viewer,
        askedAt: e.at,
        requester: e.actor,
        approvers: [],
        decidedBy: null,
        outcome: e.type === 'denied' ? 'denied' : 'pending',
        reason: reasonOf(e.outcome),
        error: null,
        breakGlass: false,
      });
      continue;
    }
    const u = byAsk.get(key);
    if (u === undefined) continue;
    if (e.type === 'approved') u.approvers.push(e.actor);
    else if (e.type === 'break-glass') u.breakGlass = true;
    const step = stepOutcome(viewer, e);
    if (step !== null) stepped.add(key);
    const outcome = step ?? (stepped.has(key) ? undefined : STEP_OUTCOME[e.type]);
    if (outcome !== undefined) u.outcome = outcome;
    if (e.type === 'rejected' || e.type === 'cancelled' || e.type === 'resolved') u.decidedBy = e.actor;
    if (e.error !== null && outcome === 'failed') u.error = e.error.message;
  }
  return [...byAsk.values()].sort((a, b) => b.seq - a.seq).map(({ seq: _, ...u }) => u);
}

/** Whether an unblock counts toward the repeat rule: asked, and not refused, withdrawn or failed. */
export function countsAsUnblock(u: Pick<ViewerUnblock, 'outcome'>): boolean {
  return !NOT_AN_UNBLOCK.includes(u.outcome);
}

/** `viewer.unblock: { repeat: { within: 30d, max: 2 } }`, ready to apply. */
export interface RepeatRule {
  within: string;
  withinMs: number;
  max: number;
}

/** Why an unblock needs a lead: it would be the `nth` of its viewer within `within` (over `max`). */
export interface RepeatNeed {
  viewer: string;
  nth: number;
  max: number;
  within: string;
}

/**
 * The repeat rule applied to an unblock of `viewer` asked after `earlier` (those of the window,
 * newest first, as {@link foldViewerUnblocks} gives them): null when it is within `max`, or why
 * it needs a lead's approval. Off (null) when the policy sets no rule.
 * @see docs/approvals.md, "Repeat unblocks"
 */
export function repeatNeed(
  rule: RepeatRule | null,
  viewer: string,
  earlier: readonly Pick<ViewerUnblock, 'outcome'>[],
): RepeatNeed | null {
  if (rule === null) return null;
  const nth = earlier.filter(countsAsUnblock).length + 1;
  return nth > rule.max ? { viewer, nth, max: rule.max, within: rule.within } : null;
}

/** The start of the repeat rule's window ending at `now`. */
export function repeatSince(rule: RepeatRule, now: Date): string {
  return new Date(now.getTime() - rule.withinMs).toISOString();
}

const ActorShownSchema = z.object({ id: z.string(), name: z.string() });

/** An earlier unblock as an approver is shown it: who, when, how it ended, why. */
export const UnblockShownSchema = z.object({
  askedAt: z.string(),
  requester: ActorShownSchema,
  approvers: z.array(ActorShownSchema),
  outcome: z.enum(UNBLOCK_OUTCOMES),
  reason: z.string().nullable(),
  breakGlass: z.boolean(),
});
export type UnblockShown = z.infer<typeof UnblockShownSchema>;

/**
 * Why an unblock waits for a lead, kept in its preview (so the approval message shows it, sealed
 * with what the approvers see): the `nth` within `within`, and the unblocks before it.
 */
export const RepeatShownSchema = z.object({
  nth: z.number().int(),
  max: z.number().int(),
  within: z.string(),
  history: z.array(UnblockShownSchema),
});
export type RepeatShown = z.infer<typeof RepeatShownSchema>;

/** At most this many earlier unblocks ride in an approval's preview. */
export const REPEAT_HISTORY_SHOWN = 5;

/** What an approver is shown of a repeat: the need, and the newest earlier unblocks. */
export function repeatShown(need: RepeatNeed, earlier: readonly ViewerUnblock[]): RepeatShown {
  return {
    nth: need.nth,
    max: need.max,
    within: need.within,
    history: earlier.slice(0, REPEAT_HISTORY_SHOWN).map((u) => ({
      askedAt: u.askedAt,
      requester: { id: u.requester.id, name: u.requester.name },
      approvers: u.approvers.map((a) => ({ id: a.id, name: a.name })),
      outcome: u.outcome,
      reason: u.reason,
      breakGlass: u.breakGlass,
    })),
  };
}
