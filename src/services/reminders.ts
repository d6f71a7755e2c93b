import { actorLabel, isSameRequester } from '../core/actor.js';
import * as approvals from '../core/approvals.js';
import { isPastExpiry, SYSTEM_ACTOR, stateFacts } from '../core/approvals.js';
import {
  dueFollowUps,
  type FollowUpKind,
  nextFollowUpAt,
  nextReminderAt,
  timeLeftChanged,
} from '../core/follow-up.js';
import { redactError } from '../core/mask.js';
import type { Actor, OperationRequest } from '../core/model.js';
import { operationWords } from '../core/policy.js';
import { say } from '../core/said.js';
import { type Reasoned, reasoned } from '../i18n/said.js';
import type { Store } from '../store/store.js';
import {
  about,
  apply,
  auditDenied,
  dueNow,
  refused,
  type ServiceContext,
  stepContext,
  stepOrNull,
} from './context.js';
import { MAX_CAS_ATTEMPTS } from './reads.js';

/**
 * Requests that never stall: the sweeper's follow-ups of waiting requests (a reminder to the
 * approvers who have not decided, the escalation to backup approvers, the warning before expiry)
 * and the requester's Remind button. Each is a compare-and-set of the request's `followUp` with
 * its audit event, through the store's `transition`, so it happens once across replicas and
 * records a notification job in the same transaction: the Slack layer sends the DMs from the
 * notification outbox and re-renders the approval message.
 * @see docs/architecture.md, "Reminders, escalation and the expiry warning"
 */

/** How the requester's Remind click ended. */
export type RemindResult =
  | { kind: 'reminded'; request: OperationRequest }
  /** Nothing changed; `request` is the request as it stands, when there is one. */
  | ({ kind: 'refused'; request?: OperationRequest } & Reasoned);

/** What one sweep did. */
export interface FollowUpSweep {
  reminded: number;
  escalated: number;
  warned: number;
  /** Approval messages queued for a re-render because their time left changed words. */
  rerendered: number;
}

export interface FollowUps {
  /** The requester nudges the approvers who have not decided; at most once per `remindAfter`. */
  remind(id: string, actor: Actor): Promise<RemindResult>;
  /** Does every follow-up due now, once each; re-renders approval messages whose time left changed. */
  sweepFollowUps(): Promise<FollowUpSweep>;
}

export type FollowUpDeps = Pick<ServiceContext, 'policy' | 'clock' | 'eventId' | 'logger'> & {
  store: Pick<
    Store,
    | 'getRequest'
    | 'transition'
    | 'listDue'
    | 'setFollowUpAt'
    | 'appendAudit'
    | 'markDelivered'
    | 'enqueueNotification'
  >;
};

/** `14:05 UTC`, or with the date when it is not today. */
function when(at: Date, now: Date): string {
  const iso = at.toISOString();
  const day = iso.slice(0, 10) === now.toISOString().slice(0, 10) ? '' : `${iso.slice(0, 10)} `;
  return `${day}${iso.slice(11, 16)} UTC`;
}

/** The requester nudges the approvers who have not decided; at most once per `remindAfter`. */
export async function remind(f: FollowUpDeps, id: string, actor: Actor): Promise<RemindResult> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const request = await f.store.getRequest(id);
    if (request === null) return refused(say.svcNoRequest(id));
    const now = f.clock();
    if (request.state !== 'pending' || isPastExpiry(request, now)) {
      return refused(
        request.state === 'pending' && request.expiresAt !== null
          ? say.reqExpiredAt(id, 'reminded about', when(new Date(request.expiresAt), now))
          : say.reqCannot(id, 'reminded about', stateFacts(request, now)),
        request,
      );
    }
    if (!isSameRequester(request.requester, actor)) {
      const said = say.remindOnlyRequester(actorLabel(request.requester), id);
      await auditDenied(f, actor, about(request), 'remind', reasoned(said));
      return refused(said, request);
    }
    const rule = f.policy.rules[request.operation].followUp;
    const next = nextReminderAt(request, rule, now);
    if (next === 'never') {
      return refused(say.remindOff(operationWords(request.operation)), request);
    }
    if (next !== null) {
      const last = when(new Date(request.followUp?.remindedAt ?? now.toISOString()), now);
      return refused(say.remindTooSoon(id, last, when(next, now), rule.remindAfter), request);
    }
    const c = stepContext(f);
    const done = await apply(f.store, request, approvals.remind(request, actor, c, false), c.now);
    if (done) return { kind: 'reminded', request: done };
  }
  const latest = await f.store.getRequest(id);
  return refused(say.svcBusy(id), latest ?? undefined);
}

/** Does every follow-up due now, once each; re-renders approval messages whose time left changed. */
export async function sweepFollowUps(f: FollowUpDeps): Promise<FollowUpSweep> {
  const result: FollowUpSweep = { reminded: 0, escalated: 0, warned: 0, rerendered: 0 };
  const now = f.clock();
  for await (const listed of dueNow(f.store, 'followUp', now.toISOString())) {
    // One that keeps failing stays due, first in every pass: it must not stop the others.
    await followUpOne(f, listed, now, result).catch((error: unknown) =>
      f.logger?.error(
        { requestId: listed.id, err: redactError(error) },
        'sweep: could not follow up a request',
      ),
    );
  }
  if (result.reminded + result.escalated + result.warned > 0) {
    f.logger?.info({ ...result }, 'followed up waiting requests');
  }
  return result;
}

/** The follow-ups due of one request, a re-render when its time left changed words, and when next. */
async function followUpOne(
  f: FollowUpDeps,
  listed: OperationRequest,
  now: Date,
  result: FollowUpSweep,
): Promise<void> {
  const rule = f.policy.rules[listed.operation].followUp;
  const kinds = listed.quorum === 0 ? [] : dueFollowUps(listed, rule, f.clock());
  let request: OperationRequest | null = listed;
  for (const kind of kinds) {
    if (request === null) break;
    if (await followUp(f, request, kind)) {
      if (kind === 'escalate') result.escalated += 1;
      else if (kind === 'remind') result.reminded += 1;
      else result.warned += 1;
    }
    request = await f.store.getRequest(listed.id);
  }
  if (request === null || listed.quorum === 0) {
    await f.store.setFollowUpAt(listed.id, null);
    return;
  }
  // Every change re-renders the message; a time left that changed words does too, once per
  // bucket across replicas (the delivery key), with no audit event: nothing happened.
  if (kinds.length === 0 && (await queueRerender(f, request))) result.rerendered += 1;
  // Read again by this sweep only when something next falls due (as this policy says).
  const next = nextFollowUpAt(request, rule, now);
  await f.store.setFollowUpAt(listed.id, next === null ? null : new Date(next).toISOString());
}

/** Queues a re-render of the approval message when its time left changed words; once per bucket. */
async function queueRerender(f: FollowUpDeps, request: OperationRequest): Promise<boolean> {
  const now = f.clock();
  const bucket = timeLeftChanged(request, request.updatedAt, now);
  if (bucket === null) return false;
  if (!(await f.store.markDelivered(`time-left:${request.id}:${bucket}`, now.toISOString()))) return false;
  await f.store.enqueueNotification(request.id, now.toISOString());
  return true;
}

/** One follow-up of one request; false when it was no longer due or another replica did it. */
async function followUp(f: FollowUpDeps, request: OperationRequest, kind: FollowUpKind): Promise<boolean> {
  const c = stepContext(f);
  const rule = f.policy.rules[request.operation].followUp;
  // Still due on what is stored now: the listing may be stale, and a step before changed it.
  if (!dueFollowUps(request, rule, c.now).includes(kind)) return false;
  const step = stepOrNull(() =>
    kind === 'escalate'
      ? approvals.escalate(request, rule.escalateTo, c)
      : kind === 'remind'
        ? approvals.remind(request, SYSTEM_ACTOR, c, true)
        : approvals.warnExpiry(request, c),
  );
  return step !== null && (await apply(f.store, request, step, c.now)) !== null;
}
