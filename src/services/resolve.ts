import { NotFoundError, NotSupportedError } from '../client/errors.js';
import type { VideoClient } from '../client/types.js';
import { identityRefusal, osUserOf } from '../core/actor.js';
import { OPERATION_SPECS } from '../core/catalog.js';
import type { Actor, OperationRequest } from '../core/model.js';
import type { Policy } from '../core/policy.js';
import { type Said, say } from '../core/said.js';
import { targetLookUp } from './catalog.js';

/**
 * Settling a request whose outcome is unknown: who may, on who they are (the identity rule of
 * every CLI action, src/core/actor.ts), and "Check now": what the service's look-up of its target
 * says. Deletes only; the look-ups are the read-only extras (folder, file and playlist info).
 * @see docs/architecture.md, "Approvals"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

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
