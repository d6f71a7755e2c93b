import { actorRecord, isSameRequester, maybeSamePerson } from './actor.js';
import {
  isPastExpiry,
  requestEvent,
  requireAsked,
  type Step,
  type StepContext,
  sealPatch,
  stateFacts,
} from './approvals.js';
import { InputError, PolicyDeniedError, StateConflictError } from './errors.js';
import type { Actor, BreakGlassRecord, BreakGlassReview, OperationRequest } from './model.js';
import { say } from './said.js';

/**
 * Break-glass: a person the policy lists for an operation (`breakGlass.allowed`) runs their own
 * pending request at once, without its approvals, after giving a reason and typing the words
 * `break glass`. The request goes through the same state machine (`pending` → `executing`, then
 * the usual exactly-once execution), its events are `break-glass` in the chain, and a lead other
 * than the one who broke the glass reviews it afterwards (acknowledge, or flag with a note).
 * @see docs/architecture.md, "Break-glass and delegation"
 */

/** What must be typed to break the glass. */
export const BREAK_GLASS_WORDS = 'break glass';

/** True when `text` is the words `break glass`, whatever the case and the spaces around them. */
export function isBreakGlassWords(text: string): boolean {
  return text.trim().replace(/\s+/g, ' ').toLowerCase() === BREAK_GLASS_WORDS;
}

/**
 * The requester runs their pending request now, by break-glass: [break-glass, executing]. The
 * caller has checked the policy (`mayBreakGlass`) and the rate limit; the words and the reason
 * are checked again here.
 */
export function breakGlass(
  request: OperationRequest,
  by: Actor,
  input: { reason: string; words: string; reviewWithinMs: number },
  ctx: StepContext,
): Step {
  if (!isBreakGlassWords(input.words)) throw new InputError(say.bgWrongWords());
  const reason = input.reason.trim();
  if (reason === '') throw new InputError(say.bgReasonRequired());
  if (!isSameRequester(request.requester, by)) {
    throw new PolicyDeniedError(say.glassNotRequester());
  }
  if (request.state !== 'pending' || isPastExpiry(request, ctx.now)) {
    throw new StateConflictError(
      say.reqCannot(request.id, 'run by break-glass', stateFacts(request, ctx.now)),
    );
  }
  requireAsked(request, ctx);
  const at = ctx.now.toISOString();
  const record: BreakGlassRecord = {
    by: actorRecord(by),
    at,
    reason,
    reviewDueAt: new Date(ctx.now.getTime() + input.reviewWithinMs).toISOString(),
    overdueAt: null,
    review: null,
  };
  return {
    patch: { state: 'executing', breakGlass: record, ...sealPatch(request, 'send', ctx) },
    events: [
      requestEvent(request, 'break-glass', by, ctx, {
        reason,
        reviewDueAt: record.reviewDueAt,
        approvals: request.approvals.length,
        quorum: request.quorum,
      }),
      requestEvent(request, 'executing', by, ctx, { breakGlass: true }),
    ],
  };
}

/** True for a break-glass request no lead has reviewed yet. */
export function awaitsReview(request: Pick<OperationRequest, 'breakGlass'>): boolean {
  return request.breakGlass !== undefined && request.breakGlass.review === null;
}

/**
 * A lead reviews a break-glass change: acknowledged, or flagged with a note. Never the one who
 * broke the glass; once. The state of the request is unchanged.
 */
export function reviewBreakGlass(
  request: OperationRequest,
  by: Actor,
  input: { verdict: BreakGlassReview['verdict']; note: string | null },
  ctx: StepContext,
): Step {
  const record = request.breakGlass;
  if (record === undefined) throw new StateConflictError(say.glassNotBroken(request.id));
  if (record.review !== null) {
    throw new StateConflictError(say.glassReviewed(request.id, record.review.by.name, record.review.verdict));
  }
  if (maybeSamePerson(record.by, by)) throw new PolicyDeniedError(say.glassOwnReview());
  const note = input.note?.trim() || null;
  if (input.verdict === 'flagged' && note === null) throw new InputError(say.bgNoteRequired());
  const review: BreakGlassReview = {
    by: actorRecord(by),
    at: ctx.now.toISOString(),
    verdict: input.verdict,
    note,
  };
  return {
    patch: { breakGlass: { ...record, review } },
    events: [requestEvent(request, 'break-glass-reviewed', by, ctx, { verdict: input.verdict, note })],
  };
}

/**
 * The sweep found a break-glass change unreviewed past its `reviewDueAt`: recorded once
 * (`break-glass-overdue`), which reminds the leads. Null when there is nothing to do.
 */
export function markReviewOverdue(request: OperationRequest, by: Actor, ctx: StepContext): Step | null {
  const record = request.breakGlass;
  if (record === undefined || record.review !== null || record.overdueAt !== null) return null;
  if (Date.parse(record.reviewDueAt) > ctx.now.getTime()) return null;
  return {
    patch: { breakGlass: { ...record, overdueAt: ctx.now.toISOString() } },
    events: [requestEvent(request, 'break-glass-overdue', by, ctx, { reviewDueAt: record.reviewDueAt })],
  };
}
