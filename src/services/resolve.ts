import { NotFoundError, NotSupportedError } from '../client/errors.js';
import type { VideoClient } from '../client/types.js';
import { identityRefusal, osUserOf } from '../core/actor.js';
import * as approvals from '../core/approvals.js';
import { stateFacts } from '../core/approvals.js';
import { OPERATION_SPECS } from '../core/catalog.js';
import { InputError } from '../core/errors.js';
import type { Actor, OperationRequest, ResolveWay } from '../core/model.js';
import { isApproverOf, type Policy, type PolicyActor } from '../core/policy.js';
import { type Said, say } from '../core/said.js';
import { english, reasoned } from '../i18n/said.js';
import { targetLookUp } from './catalog.js';
import {
  about,
  apply,
  auditDenied,
  foundInLog,
  policyActor,
  SETTLED,
  type ServiceContext,
  stepContext,
} from './context.js';
import { execute } from './execute.js';
import { MAX_CAS_ATTEMPTS } from './reads.js';
import type { ResolveResult } from './types.js';

/**
 * Settling a request whose outcome is unknown: who may, on who they are (the identity rule of
 * every CLI action, src/core/actor.ts) and on the policy; "Check now": what the service's look-up
 * of its target says (deletes only; the look-ups are the read-only extras: folder, file and
 * playlist info); what the lead found; or "Send again".
 * @see docs/architecture.md, "Approvals"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

export async function resolve(
  svc: ServiceContext,
  id: string,
  actor: Actor,
  way: ResolveWay,
  note: string | null,
): Promise<ResolveResult> {
  const text = note?.trim() || null;
  if (text === null && (way === 'applied' || way === 'not-applied')) {
    throw new InputError(say.noteToSettle());
  }
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const request = await svc.store.getRequest(id);
    if (!request) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
    if (request.state !== 'unknown') {
      return {
        kind: 'refused',
        ...reasoned(say.reqCannot(id, 'settled', stateFacts(request, svc.clock()))),
        request,
      };
    }
    // Who may settle, checked before anything is looked up or sent; a refusal is audited.
    const denied = resolveRefusal(svc.policy, request, actor, await policyActor(svc, actor));
    if (denied !== null) {
      await auditDenied(svc, actor, about(request), 'resolve', denied);
      return { kind: 'refused', reason: denied.reason, said: denied.said, request };
    }
    const result = await resolveOnce(svc, request, actor, way, text);
    if (result) return result;
  }
  const latest = await svc.store.getRequest(id);
  return { kind: 'refused', ...reasoned(say.svcBusy(id)), ...(latest ? { request: latest } : {}) };
}

/** Why `actor` may not settle `request`'s unknown outcome: never its requester, only an approver. */
export function resolveRefusal(
  policy: Policy,
  request: OperationRequest,
  actor: Actor,
  who: PolicyActor,
): { reason: string; said: Said } | null {
  const refusal = (said: Said) => ({ reason: english(said), said });
  // The same identity rule as an approval (src/core/actor.ts), in a settlement's words.
  const identity = settleIdentityRefusal(policy, request, actor);
  if (identity !== null) return refusal(identity);
  if (!isApproverOf(policy, request, who)) return refusal(say.svcOnlyApproversSettle(request.operation));
  return null;
}

/** One attempt at settling: null when another writer changed the request first. */
async function resolveOnce(
  svc: ServiceContext,
  request: OperationRequest,
  actor: Actor,
  way: ResolveWay,
  note: string | null,
): Promise<ResolveResult | null> {
  switch (way) {
    case 'applied':
    case 'not-applied': {
      const c = stepContext(svc);
      const state = way === 'applied' ? 'succeeded' : 'failed';
      const words = way === 'applied' ? say.outcomeApplied(actor.name) : say.outcomeNotApplied(actor.name);
      const step = approvals.resolve(
        request,
        actor,
        { way, state, outcome: english(words), outcomeSaid: words, note },
        c,
      );
      const done = await apply(svc.store, request, step, c.now);
      return done ? { kind: 'resolved', request: done } : null;
    }
    case 'check':
      return checkNow(svc, request, actor, note);
    case 'send-again':
      return sendAgain(svc, request, actor, note);
  }
}

/** "Check now": the look-up of the target settles the request, or says why it cannot yet. */
async function checkNow(
  svc: ServiceContext,
  request: OperationRequest,
  actor: Actor,
  note: string | null,
): Promise<ResolveResult | null> {
  const finding = await checkTarget(svc.client, request);
  if (finding.kind === 'cannot-tell') return { kind: 'unsettled', request, ...reasoned(finding.said) };
  const c = stepContext(svc);
  // "Still there" proves nothing while the service may still be working on a send whose
  // answer was lost moments ago; "gone" is proof at once.
  const settlesAt = Date.parse(request.updatedAt) + svc.checkGraceMs;
  if (finding.kind === 'present' && c.now.getTime() < settlesAt) {
    const after = new Date(settlesAt).toISOString();
    return {
      kind: 'unsettled',
      request,
      ...reasoned(say.svcStillWorking(request.target, after.slice(11, 19))),
    };
  }
  const gone = finding.kind === 'gone';
  const outcome = gone ? say.outcomeDeleted() : say.outcomeStillThere(request.target, actor.name);
  const state = gone ? 'succeeded' : 'failed';
  const step = approvals.resolve(
    request,
    actor,
    { way: 'check', state, outcome: english(outcome), outcomeSaid: outcome, note },
    c,
  );
  const done = await apply(svc.store, request, step, c.now);
  return done ? { kind: 'resolved', request: done } : null;
}

/** "Send again", for the operations whose catalog entry lets a lead repeat them. */
async function sendAgain(
  svc: ServiceContext,
  request: OperationRequest,
  actor: Actor,
  note: string | null,
): Promise<ResolveResult | null> {
  const spec = OPERATION_SPECS[request.operation];
  if (spec.endpoint.repeat !== 'lead') {
    return {
      kind: 'refused',
      ...reasoned(say.svcCannotSendAgain(request.id, request.operation, spec.title)),
      request,
    };
  }
  // Settled, or never unknown, by its own log: the row was set back in the database.
  const settled = await foundInLog(svc, request.id, SETTLED);
  if (settled !== null) {
    svc.logger?.error(
      { requestId: request.id, operation: request.operation, logSays: settled },
      'not sent again: the audit log says this request was settled; its record was set back in the database',
    );
    return { kind: 'refused', ...reasoned(say.resumeEnded(request.id, settled)), request };
  }
  const c = stepContext(svc);
  const claimed = await apply(svc.store, request, approvals.sendAgain(request, actor, c), c.now);
  if (!claimed) return null;
  svc.logger?.warn({ requestId: request.id, operation: request.operation }, 'sending a request again');
  const done = await execute(svc, claimed, { resent: { by: actor, note } });
  if (done.state === 'unknown') {
    return { kind: 'unsettled', request: done, ...reasoned(say.svcNoClearAnswer()) };
  }
  return { kind: 'resolved', request: done };
}

/**
 * Why `actor` may not settle `request`'s unknown outcome on who they are, in a settlement's words;
 * null when they may (whether they may approve the operation is checked next). The same rule as
 * an approval (`identityRefusal`): from the CLI only where the policy trusts `--as`
 * (`cli: { approve: true }`), never the requester, by Slack user ID or by OS user.
 */
export function settleIdentityRefusal(
  policy: Pick<Policy, 'cli'>,
  request: Pick<OperationRequest, 'requester'>,
  actor: Pick<Actor, 'id' | 'via'>,
): Said | null {
  switch (identityRefusal(policy.cli.approve, request.requester, actor)) {
    case 'cli-off':
      return say.resolveCliOff();
    case 'own':
      return say.reqOwnSettle();
    case 'os-user':
      return say.resolveOsUserAsked(osUserOf(actor) ?? '', request.requester.id);
    case null:
      return null;
  }
}

/** What the look-up found: the target is gone, it is still there, or the look-up cannot tell. */
export type CheckFinding = { kind: 'gone' } | { kind: 'present' } | { kind: 'cannot-tell'; said: Said };

/**
 * True when the look-up of this target answered 200 when the request was made: the preview then
 * holds what it found (a title, a file count or a folder). Only then is a 404 now proof that the
 * target is gone, rather than a look-up this service answers in its own way.
 */
export function lookedUpBefore(request: OperationRequest): boolean {
  const { preview } = request;
  if (preview === null || preview.kind !== 'delete') return false;
  return (
    preview.title !== null ||
    ('filesCount' in preview && preview.filesCount !== null) ||
    ('bucketId' in preview && preview.bucketId !== null)
  );
}

/** Looks the target of `request` up. Failures of the look-up itself (timeouts…) propagate. */
export async function checkTarget(client: VideoClient, request: OperationRequest): Promise<CheckFinding> {
  const spec = OPERATION_SPECS[request.operation];
  const lookUp = targetLookUp(request, client);
  if (lookUp === null) {
    return {
      kind: 'cannot-tell',
      said: say.resolveCannotLookUp(request.operation, spec.title),
    };
  }
  try {
    await lookUp();
    return { kind: 'present' };
  } catch (error) {
    if (error instanceof NotSupportedError) {
      return {
        kind: 'cannot-tell',
        said: say.resolveNoLookUp(request.target),
      };
    }
    if (error instanceof NotFoundError) {
      if (lookedUpBefore(request)) return { kind: 'gone' };
      return {
        kind: 'cannot-tell',
        said: say.resolveNotProof(request.target),
      };
    }
    throw error;
  }
}
