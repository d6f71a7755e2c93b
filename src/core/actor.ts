import type { Actor } from './model.js';
import { type Said, say } from './said.js';

/**
 * Identities of actors: who someone is when they act from Slack (the Slack user ID, vouched for
 * by Slack) or from the `vidops` CLI (the OS user who ran it, vouched for by the machine, and the
 * Slack user ID they claimed with `--as`, vouched for by nobody). The approval rules compare both.
 * @see docs/architecture.md, "Approvals" and "Audit log"
 */

/**
 * Someone acting now, as the edge that heard them worked them out once (the Slack handler's entry,
 * the CLI's start): who they are, and the watched user groups they belong to. It is what the
 * policy reads (a `PolicyActor`), so the services use its groups instead of asking the directory
 * again. The groups are never recorded: what is stored or hashed is {@link actorRecord}.
 * @see docs/architecture.md, "Each request's context once"
 */
export interface Caller extends Actor {
  readonly groups: readonly string[];
}

/** `actor` with the user groups its edge found. */
export function callerOf(actor: Actor, groups: readonly string[]): Caller {
  return { ...actorRecord(actor), groups };
}

/** True when `actor` came with its groups already worked out (a {@link Caller}). */
export function isCaller(actor: Actor): actor is Caller {
  return 'groups' in actor && Array.isArray(actor.groups);
}

/** The prefix of a CLI actor who gave no `--as`: `cli:<os user>`. */
export const CLI_ACTOR_PREFIX = 'cli:';

/**
 * The actor of a CLI command run by `osUser`: the claimed Slack user (`--as`, with `--as-name`)
 * when given, else `cli:<os user>`; `via` records the CLI and the OS user either way.
 */
export function cliActor(osUser: string, claimed?: { id: string; name?: string | undefined }): Actor {
  const via = { kind: 'cli' as const, osUser };
  if (claimed === undefined) {
    const id = `${CLI_ACTOR_PREFIX}${osUser}`;
    return { id, name: id, via };
  }
  const name = claimed.name === undefined || claimed.name === '' ? claimed.id : claimed.name;
  return { id: claimed.id, name, via };
}

/**
 * The actor as it is recorded (requests, approvals, audit events): `id`, `name`, and `via` only
 * when there is one, field by field, so stray runtime properties never reach the hashed JSON and
 * a Slack actor's record is exactly what it was before `via` existed.
 */
export function actorRecord(actor: Actor): Actor {
  if (actor.via === undefined) return { id: actor.id, name: actor.name };
  return { id: actor.id, name: actor.name, via: { kind: actor.via.kind, osUser: actor.via.osUser } };
}

/** The OS user behind a CLI actor; undefined for Slack actors. */
export function osUserOf(actor: Pick<Actor, 'via'>): string | undefined {
  return actor.via?.kind === 'cli' ? actor.via.osUser : undefined;
}

/**
 * A short label for lines people read: the name, and for the CLI `via cli:<os user>`
 * (`U0LEAD1 via cli:root`). A CLI actor without `--as` is already `cli:<os user>` and is shown once.
 */
export function actorLabel(actor: Actor): string {
  const osUser = osUserOf(actor);
  if (osUser === undefined || actor.id === `${CLI_ACTOR_PREFIX}${osUser}`) return actor.name;
  return `${actor.name} via ${CLI_ACTOR_PREFIX}${osUser}`;
}

/**
 * The words that mark an action taken on the CLI, for sentences: `via the CLI (OS user root)`;
 * null for Slack actors. Put after the name: "approved by U0LEAD1 via the CLI (OS user root)".
 */
export function viaPhrase(actor: Pick<Actor, 'via'>): string | null {
  const osUser = osUserOf(actor);
  return osUser === undefined ? null : `via the CLI (OS user ${osUser})`;
}

/**
 * True when `a` and `b` may be the same person, so that one must not stand in for the other (a
 * requester approving their own request, one person giving two of a quorum's approvals): the
 * same Slack user ID, or the same OS user on the CLI whatever Slack user each claimed.
 */
export function maybeSamePerson(a: Pick<Actor, 'id' | 'via'>, b: Pick<Actor, 'id' | 'via'>): boolean {
  if (a.id === b.id) return true;
  const osA = osUserOf(a);
  return osA !== undefined && osA === osUserOf(b);
}

/**
 * True when `actor` is the requester, for what only the requester may do (cancel): the same Slack
 * user ID and, when both came from the CLI, the same OS user too: on the CLI a Slack ID is only a
 * claim, so another OS user claiming it is not the requester.
 */
export function isSameRequester(
  requester: Pick<Actor, 'id' | 'via'>,
  actor: Pick<Actor, 'id' | 'via'>,
): boolean {
  if (requester.id !== actor.id) return false;
  const osRequester = osUserOf(requester);
  const osActor = osUserOf(actor);
  return osRequester === undefined || osActor === undefined || osRequester === osActor;
}

// ---------------------------------------------------------------------------------------------
// One identity rule for every command line action (docs/security.md, "Identity on the command line")

/**
 * Why `actor` may not decide on another's request: approve it, reject it, or settle its unknown
 * outcome (send it again, mark it applied or not applied, check it). The one rule every such
 * action follows; null when they may (whether they are an approver is the policy's to say).
 * - `cli-off`: from the CLI while the policy does not trust `--as` claims (`cli: { approve: true }`
 *   in the policy file, `cliTrusted`): on the CLI a Slack user ID is only claimed, so the decision
 *   belongs in Slack, where Slack vouches for who clicked.
 * - `own`: the requester, by Slack user ID.
 * - `os-user`: the OS user who asked, whatever Slack user each time claimed (`maybeSamePerson`).
 */
export type IdentityRefusal = 'cli-off' | 'own' | 'os-user';

export function identityRefusal(
  cliTrusted: boolean,
  requester: Pick<Actor, 'id' | 'via'>,
  actor: Pick<Actor, 'id' | 'via'>,
): IdentityRefusal | null {
  if (osUserOf(actor) !== undefined && !cliTrusted) return 'cli-off';
  if (requester.id === actor.id) return 'own';
  return maybeSamePerson(requester, actor) ? 'os-user' : null;
}

/**
 * Why `actor` may not cancel `request`, said for them; null when they may. Only the requester
 * cancels (`isSameRequester`), with the same proof as a decision: a request asked for in Slack is
 * cancelled from the CLI only where the policy trusts `--as` claims (`cliTrusted`), since there the
 * requester's Slack ID is only claimed; a request asked for on the CLI is cancelled by the OS user
 * who asked, whom the machine vouches for, whatever the policy says.
 */
export function cancelRefusal(
  cliTrusted: boolean,
  request: { id: string; requester: Actor },
  actor: Pick<Actor, 'id' | 'via'>,
): Said | null {
  const { requester } = request;
  if (!isSameRequester(requester, actor)) {
    return say.reqOnlyRequesterCancels(actorLabel(requester), request.id);
  }
  const claimedFromCli = osUserOf(actor) !== undefined && osUserOf(requester) === undefined;
  return claimedFromCli && !cliTrusted ? say.reqCancelInSlack(actorLabel(requester), request.id) : null;
}
