import { osUserOf } from '../core/actor.js';
import type { StepContext } from '../core/approvals.js';
import * as approvals from '../core/approvals.js';
import { type ChangeOperation, OPERATION_SPECS, type Preview, parsePreview } from '../core/catalog.js';
import { StateConflictError } from '../core/errors.js';
import type { JsonValue } from '../core/json.js';
import type { Actor, OperationRequest } from '../core/model.js';
import { type Decision, decide } from '../core/policy.js';
import type { BoxAsked, TimeBox } from '../core/time-box.js';
import {
  type RepeatNeed,
  type RepeatRule,
  repeatNeed,
  repeatShown,
  repeatSince,
  viewersOfEvent,
} from '../core/viewer-history.js';
import { english, reasoned } from '../i18n/said.js';
import { breakGlassOffered } from './break-glass.js';
import { auditDenied, policyActor, type ServiceContext } from './context.js';
import { execute } from './execute.js';
import { checkedBox, refuseHeld } from './time-box.js';
import type { Prepared, SubmitResult } from './types.js';

/**
 * A person's prepared change, submitted: refused by the policy (audited), recorded to wait for
 * approval, or recorded and run at once. The rate limit counts in the same transaction as the
 * insert, so requests sent at once to any replica cannot pass it.
 * @see docs/architecture.md, "Approvals"
 */

/** How many request IDs are drawn before a taken one is given up on (each is 40 random bits). */
const MAX_ID_DRAWS = 3;

/**
 * Records the request of a prepared change and decides it: denied, pending approval, or run at
 * once. The prepared values are typed (a modal's draft is parsed when it is taken back), so
 * nothing is read again here.
 */
export async function submit<O extends ChangeOperation>(
  svc: ServiceContext,
  actor: Actor,
  prepared: Prepared<O>,
  reason: string | null,
  window: { asked?: BoxAsked | null | undefined; extendsId?: string } = {},
): Promise<SubmitResult> {
  const { operation, params, target } = prepared;
  // A window out of bounds is bad input: refused before anything is decided or recorded.
  const timeBox = checkedBox(svc, operation, window.asked, window.extendsId, prepared.revertOf !== undefined);
  await refuseHeld(svc, prepared, timeBox);
  const who = await policyActor(svc, actor);
  const now = svc.clock();
  const batch = batchOf(prepared);
  const decideWith = (recentCount: number, repeat: RepeatNeed | null = null, repeats = batch?.repeats ?? 0) =>
    decide(svc.policy, {
      operation,
      actor: who,
      recentCount,
      now,
      repeat,
      ...(batch ? { batch: { size: batch.size, repeats } } : {}),
    });
  // Who may ask does not depend on how often they asked: a refusal counts nothing.
  const refusal = decideWith(0);
  if (refusal.kind === 'deny') {
    await auditDenied(svc, actor, { operation, target, params, requestId: null }, 'request', refusal);
    return { kind: 'denied', ...reasoned(refusal.said) };
  }
  const { request, decision } = await recordRequest(svc, actor, prepared, reason, {
    now,
    timeBox,
    decided: (recentCount, repeat, repeats) => going(decideWith(recentCount, repeat, repeats)),
  });
  // A request run at once is logged at info when it has run ("request executed", same ID);
  // its creation is a second line per command, wanted only when debugging.
  const line = { requestId: request.id, operation, state: request.state };
  if (decision.kind === 'allow') svc.logger?.debug?.(line, 'request created');
  else svc.logger?.info(line, 'request created');
  if (decision.kind === 'allow') return { kind: 'executed', request: await execute(svc, request) };
  const breakGlass = await breakGlassOffered(svc, request, actor);
  return { kind: 'pending', request, why: decision.why, ...(breakGlass ? { breakGlass } : {}) };
}

/**
 * Records the request of `prepared` as `decided` says (run at once, or wait for approval). An
 * operation with a rate limit is decided again inside the store's transaction, from the count
 * of the actor's `requested` events taken under the same lock as the insert
 * (`createCountedRequest`): requests sent at once, to any replica, each count the ones before
 * them, so at most the limit run without approval.
 * @see docs/architecture.md, "Approvals"
 */
async function recordRequest<O extends ChangeOperation>(
  svc: ServiceContext,
  actor: Actor,
  prepared: Prepared<O>,
  reason: string | null,
  when: {
    now: Date;
    timeBox: TimeBox | undefined;
    /** `repeats`: how many of a batch's numbers are repeat viewers, counted under their locks. */
    decided: (recentCount: number, repeat: RepeatNeed | null, repeats?: number) => Going;
  },
): Promise<{ request: OperationRequest; decision: Going }> {
  const { operation, params, target, preview } = prepared;
  const { decided } = when;
  const c: StepContext = { now: when.now, eventId: svc.eventId, seal: svc.sealer };
  const make = (id: string, decision: Going, shown: Preview<O> = preview) =>
    approvals.newRequest(
      {
        id,
        operation,
        params,
        target,
        preview: shown,
        reason,
        requester: actor,
        mode: modeOf(decision),
        timeBox: when.timeBox,
        revertOf: prepared.revertOf,
      },
      c,
    );
  const { rateLimit: limit, repeat } = svc.policy.rules[operation];
  // The viewer a repeat rule counts: its unblocks are read under the viewer's lock.
  const viewer = repeat === null ? undefined : viewersOfEvent({ params: params as JsonValue })[0];
  const batch = batchRepeat(svc, prepared);
  return createWithFreshId(svc, async (id) => {
    if (limit === null && viewer === undefined && batch === null) {
      const decision = decided(0, null);
      const made = make(id, decision);
      return { request: (await svc.store.createRequest(made.request, made.events)).request, decision };
    }
    let decision = decided(0, null);
    const since = new Date(c.now.getTime() - (limit?.perMs ?? 0)).toISOString();
    const count = {
      actorId: actor.id,
      osUser: osUserOf(actor),
      operation,
      types: limit === null ? [] : ['requested'],
      since,
      viewer:
        repeat === null || viewer === undefined ? undefined : { viewer, since: repeatSince(repeat, c.now) },
      viewers: batch === null ? undefined : { viewers: batch.numbers, since: repeatSince(batch.rule, c.now) },
    };
    const created = await svc.store.createCountedRequest(count, (counted, earlier, byViewer) => {
      if (batch !== null) {
        const repeats = batch.numbers.filter(
          (v) => repeatNeed(batch.rule, v, byViewer.get(v) ?? []) !== null,
        );
        decision = decided(counted, null, repeats.length);
        return make(id, decision, parsePreview(operation, { ...preview, repeats }) ?? preview);
      }
      const need = viewer === undefined ? null : repeatNeed(repeat, viewer, earlier);
      decision = decided(counted, need);
      // The approvers see why it came to them, and the unblocks before it (sealed with the preview).
      const shown =
        need === null ? preview : parsePreview(operation, { ...preview, repeat: repeatShown(need, earlier) });
      return make(id, decision, shown ?? preview);
    });
    return { request: created.request, decision };
  });
}

/**
 * Stores a new request, drawing another ID when the one drawn is taken: request IDs are 40
 * random bits, short enough to read out, so among tens of thousands of requests two can meet
 * (the store refuses the second, and nothing of it is written).
 */
async function createWithFreshId<T>(svc: ServiceContext, save: (id: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const id = svc.requestId();
    try {
      return await save(id);
    } catch (error) {
      if (!(error instanceof StateConflictError) || attempt >= MAX_ID_DRAWS) throw error;
      svc.logger?.warn({ requestId: id }, 'request ID already taken; drawing another');
    }
  }
}

/** A batch of unblocks' size and repeat viewers, which the policy decides on once for the whole list. */
function batchOf(prepared: { operation: ChangeOperation; params: unknown; preview: unknown }): {
  size: number;
  repeats: number;
} | null {
  if (prepared.operation !== 'viewer.unblock-many') return null;
  const params = OPERATION_SPECS['viewer.unblock-many'].params.parse(prepared.params);
  const preview = OPERATION_SPECS['viewer.unblock-many'].preview.safeParse(prepared.preview);
  return { size: params.mobileNumbers.length, repeats: preview.success ? preview.data.repeats.length : 0 };
}

/**
 * A batch's numbers and the single unblock's repeat rule they are counted by, or null (not a
 * batch, or the rule is off): the repeat viewers a lead is asked about are counted again under
 * the viewers' locks, so a batch and a single unblock asked at once each count the other.
 */
function batchRepeat(
  svc: ServiceContext,
  prepared: { operation: ChangeOperation; params: unknown },
): { numbers: readonly string[]; rule: RepeatRule } | null {
  const rule = svc.policy.rules['viewer.unblock'].repeat;
  if (prepared.operation !== 'viewer.unblock-many' || rule === null) return null;
  return {
    numbers: OPERATION_SPECS['viewer.unblock-many'].params.parse(prepared.params).mobileNumbers,
    rule,
  };
}

/** A decision that records the request: run at once, or wait for approval. */
type Going = Exclude<Decision, { kind: 'deny' }>;

/**
 * The decision of an actor `decide` did not refuse, counted again: whether someone may ask does
 * not depend on the count, so a refusal here is a defect, not a person's mistake.
 */
function going(decision: Decision): Going {
  if (decision.kind === 'deny') throw new Error(`a count changed who may ask: ${english(decision.said)}`);
  return decision;
}

/** How a request is created under `decision`. */
function modeOf(decision: Going): approvals.NewRequestInput<ChangeOperation>['mode'] {
  return decision.kind === 'allow'
    ? { kind: 'direct' }
    : {
        kind: 'approval',
        quorum: decision.quorum,
        expiresAt: decision.expiresAt,
        // The `requested` event keeps its English as before: `policy`, or the sentence's words.
        why: decision.why === null ? 'policy' : english(decision.why),
      };
}
