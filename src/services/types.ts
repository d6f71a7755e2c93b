import type { VideoClient } from '../client/types.js';
import type { BatchCounts, BatchPreview } from '../core/batch.js';
import type { ChangeOperation, CoverRef, OperationInput, OperationParams, Preview } from '../core/catalog.js';
import type { DelegateWords, Delegation } from '../core/delegation.js';
import type { JsonValue } from '../core/json.js';
import type { Actor, AuditEvent, OperationRequest, ResolveWay } from '../core/model.js';
import type { Policy } from '../core/policy.js';
import type { Said } from '../core/said.js';
import type { BoxAsked, RevertOf } from '../core/time-box.js';
import type { NumberList } from '../core/validate/phone-list.js';
import type { Reasoned } from '../i18n/said.js';
import type { Store } from '../store/store.js';
import type { BreakGlassResult, ReviewResult } from './break-glass.js';
import type { DelegateResult } from './delegation.js';
import type { Reads } from './reads.js';
import type { FollowUps } from './reminders.js';
import type { ViewerHistory } from './viewers.js';

export type { CoverRef } from '../core/catalog.js';

/**
 * What a person asked for, typed by the edge that read it (the slash grammar, a modal, the CLI's
 * words and flags): one variant per change operation, `kind` its name and the rest its input as
 * the catalog declares it. `PrepareInput<O>` is operation `O`'s alone.
 * @see docs/architecture.md, "The operation catalog"
 */
export type PrepareInput<O extends ChangeOperation = ChangeOperation> = {
  [P in O]: { kind: P } & OperationInput[P];
}[O];

/**
 * What `prepare` gives back: the exact params that will be sent, the human target, what people
 * see before deciding (typed per operation), and soft problems met on the way (e.g. a look-up not
 * supported).
 */
export type Prepared<O extends ChangeOperation = ChangeOperation> = {
  [P in O]: {
    operation: P;
    params: OperationParams[P];
    target: string;
    preview: Preview<P>;
    warnings: Said[];
    /** Set when this is the inverse of a done change (`prepareRevert`). */
    revertOf?: RevertOf;
  };
}[O];

/** What `submit` takes besides the prepared change. */
export interface SubmitOptions {
  reason?: string | null | undefined;
  /** Put it back after this (`for 2h`); only for operations whose `undo` is `time-box`. */
  timeBox?: BoxAsked | null | undefined;
}

/** How "Put back now" ended: the put-back is under way (or done), or nothing changed and why. */
export type PutBackResult =
  | { kind: 'putting-back'; request: OperationRequest }
  | ({ kind: 'refused'; request?: OperationRequest } & Reasoned);

/** What one sweep of the time-boxed changes did. */
export interface TimeBoxSweep {
  /** Put-backs planned or sent this sweep (the time-boxed requests). */
  putBack: OperationRequest[];
  /** Requesters reminded that the end is near. */
  reminded: OperationRequest[];
  /** Put-backs failing for an hour, told to a lead. */
  escalated: OperationRequest[];
}

export type SubmitResult =
  | ({ kind: 'denied' } & Reasoned)
  | { kind: 'executed'; request: OperationRequest }
  /**
   * `why`: `'policy'`, or e.g. `'over the rate limit of 30 per hour'`. `breakGlass`: the requester
   * may run it now by break-glass (the policy lists them for this operation).
   */
  /** `why`: what asks for approval beyond the policy (a rate limit, a repeat viewer), null when only it does. */
  | { kind: 'pending'; request: OperationRequest; why: Said | null; breakGlass?: boolean };

export type DecisionResult =
  | { kind: 'pending'; request: OperationRequest }
  | { kind: 'executed'; request: OperationRequest }
  | { kind: 'rejected'; request: OperationRequest }
  | { kind: 'cancelled'; request: OperationRequest }
  /** Nothing changed; `request` is the request as it stands, when there is one. */
  | ({ kind: 'refused'; request?: OperationRequest } & Reasoned);

/** Whether a person may decide on a request, asked before a form wants their note. */
export type PrecheckResult =
  | { kind: 'allowed'; request: OperationRequest }
  /** `request` is the request as it stands, when there is one. */
  | ({ kind: 'refused'; request?: OperationRequest } & Reasoned);

/** How a lead's attempt to settle an unknown outcome ended. */
export type ResolveResult =
  /** Settled: `succeeded` or `failed`, the lead in `decidedBy`, one `resolved` event. */
  | { kind: 'resolved'; request: OperationRequest }
  /**
   * Still `unknown`: the look-up cannot tell (nothing changed), or the repeat got no clear answer
   * either (recorded with an `unknown` event); `reason` says which.
   */
  | ({ kind: 'unsettled'; request: OperationRequest } & Reasoned)
  /** Nothing changed; `request` is the request as it stands, when there is one. */
  | ({ kind: 'refused'; request?: OperationRequest } & Reasoned);

/** The part of a pino logger the services use. */
export interface ServiceLogger {
  /** Lines wanted only when debugging (pino's `debug`); left out, they are not written. */
  debug?(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * What Slack says a user ID is (`users.info`): a person, a bot (`is_bot`, or Slackbot), no active
 * member (`user_not_found`, or `deleted`: deactivated), or it could not say just now.
 */
export type UserKind = 'person' | 'bot' | 'unknown' | 'cannot-tell';

/** User groups of a user (Slack `usergroups.users.list`, cached by the Slack layer). */
export interface Directory {
  groupsOf(userId: string): Promise<string[]>;
  /**
   * What a user ID is, for who may be handed a lead's approvals (`/vidops delegate`). A directory
   * without it (the CLI's) cannot tell, and nothing is delegated.
   */
  kindOf?(userId: string): Promise<UserKind>;
}

export interface OperationsDeps {
  store: Store;
  client: VideoClient;
  policy: Policy;
  directory: Directory;
  clock: () => Date;
  /**
   * The key of request seals, `sealKeyOf(VIDEO_SECRET_KEY)` (src/core/seal.ts): what this process
   * seals, every process with the same secret key may send, and nothing else.
   */
  sealKey: Uint8Array;
  logger?: ServiceLogger | undefined;
  ids?: { request(): string; event(): string } | undefined;
  /** A request `executing` for longer than this is taken as interrupted (default 120000). */
  staleExecutionMs?: number | undefined;
  /**
   * "Check now" finding the target still there counts as "not applied" only this long after the
   * request became unknown (default 60000): before, the service may still be working on it.
   */
  checkGraceMs?: number | undefined;
  /** Downloads a cover image for file.edit (the Slack layer supplies it). */
  fetchCover?: ((cover: CoverRef) => Promise<Uint8Array>) | undefined;
  /** `DISPLAY_TIME_ZONE`: where a time people write (a delegation's `until`) is read. */
  timeZone?: string | undefined;
  /** Told after each number of a running batch ends (the Slack layer updates the reply in place). */
  onBatchProgress?: ((request: OperationRequest, counts: BatchCounts) => void) | undefined;
}

export interface RequestsOverview {
  /** The actor's open requests, then their most recent finished ones; newest first within each. */
  mine: OperationRequest[];
  /** Pending requests this actor may approve. */
  awaitingMe: OperationRequest[];
  /** Of those, the IDs this actor approves only in a lead's place: rejecting is not theirs. */
  inPlace?: readonly string[];
  /**
   * How many open requests the actor has, and how many await them, when the lists hold only the
   * newest (absent: the lists are whole). Counted through indexes; of the pending requests not
   * read, one this actor approved already (a quorum of two or more) still counts.
   */
  openCount?: number;
  awaitingCount?: number;
}

/**
 * The use cases of vidops, shared by Slack and the CLI.
 * @see docs/architecture.md, "Approvals" and "Audit log"
 */
export interface Operations extends Reads, FollowUps {
  /** Prepares what a person asked for: the exact params, the target, the typed preview, warnings. */
  prepare<O extends ChangeOperation>(actor: Actor, input: PrepareInput<O>): Promise<Prepared<O>>;
  submit(actor: Actor, prepared: Prepared, options?: SubmitOptions): Promise<SubmitResult>;
  approve(id: string, actor: Actor): Promise<DecisionResult>;
  reject(id: string, actor: Actor, note: string): Promise<DecisionResult>;
  /**
   * Whether `actor` may reject request `id` now, asked before the form wants their reason (a
   * refused click is answered at once). Changes and audits nothing; `reject` checks again.
   */
  checkReject(id: string, actor: Actor): Promise<PrecheckResult>;
  /** The same for settling an unknown outcome, before the form wants the note (`resolve`). */
  checkResolve(id: string, actor: Actor): Promise<PrecheckResult>;
  cancel(id: string, actor: Actor, note?: string | null): Promise<DecisionResult>;
  /**
   * Settles a request whose outcome is `unknown`: anyone who may approve its operation, never its
   * requester. `check` looks the target up; `applied`/`not-applied` record what the lead found
   * (note required); `send-again` sends a delete once more, a 404 to it reading "already deleted".
   */
  resolve(id: string, actor: Actor, way: ResolveWay, note?: string | null): Promise<ResolveResult>;
  /** The text the person must type before submitting, when the policy wants a typed confirmation. */
  confirmationFor(input: PrepareInput): string | null;
  /**
   * Audits a refusal that changes no request (`denied`), e.g. someone outside AGENTS acting in
   * Slack: who, what they tried (`operation`, `target`, `params`), how (`action`) and why.
   */
  auditRefusal(
    actor: Actor,
    subject: { operation: string; target: string; params: JsonValue },
    action: string,
    reason: string,
  ): Promise<void>;
  /** The last `n` audit events, oldest first; leads only (policy `audit`). */
  recentAudit(actor: Actor, n: number): Promise<AuditEvent[]>;
  /** A viewer's unblocks from the audit log, by the number as the unblock normalises it. */
  viewerHistory(viewer: string): Promise<ViewerHistory>;
  /**
   * A pasted list (read by the edge with `parseNumberList`) as a person confirms it before a batch
   * is asked for: repeat viewers marked, and whether a lead approves the batch. Changes nothing.
   */
  previewBatch(list: NumberList): Promise<BatchPreview>;
  expireDue(): Promise<OperationRequest[]>;

  // --- Break-glass and delegation (docs/architecture.md, "Break-glass and delegation") ------
  /** Whether the break-glass button is offered to `actor` on `request` (their own, pending, policy lists them). */
  breakGlassOffered(request: OperationRequest, actor: Actor): Promise<boolean>;
  /** Whether `actor` may break the glass on request `id` now (asked before the form); changes nothing. */
  checkBreakGlass(id: string, actor: Actor): Promise<PrecheckResult>;
  /** Runs the requester's pending request now, by break-glass, after the reason and the typed words. */
  breakGlass(id: string, actor: Actor, input: { reason: string; words: string }): Promise<BreakGlassResult>;
  checkBreakGlassReview(id: string, actor: Actor): Promise<PrecheckResult>;
  /** A lead (never the one who broke the glass) acknowledges or flags (note required) a break-glass change. */
  reviewBreakGlass(
    id: string,
    actor: Actor,
    verdict: 'acknowledged' | 'flagged',
    note?: string | null,
  ): Promise<ReviewResult>;
  /** Records (once) each break-glass change unreviewed past its review time, which reminds the leads. */
  remindBreakGlass(): Promise<OperationRequest[]>;
  /** A lead delegates their approvals (`/vidops delegate`). */
  delegate(lead: Actor, words: DelegateWords): Promise<DelegateResult>;
  /** A lead ends their delegation early (`/vidops delegate cancel`). */
  cancelDelegation(lead: Actor): Promise<DelegateResult>;
  /** Records delegations found past their `until`. */
  expireDelegations(): Promise<Delegation[]>;

  // --- Time-boxed changes and Revert (docs/time-boxed.md) ------------------------------------
  /** Puts a time-boxed change in force back now: its requester or a lead. */
  putBackNow(id: string, actor: Actor): Promise<PutBackResult>;
  /**
   * Asks for a new end of a time-boxed change in force: a new request that sets the same values
   * for the new window and goes through the policy as the change did; the first hands its
   * put-back over to it once it applies.
   */
  extend(id: string, actor: Actor, asked: BoxAsked, reason?: string | null): Promise<SubmitResult>;
  /**
   * Refuses (InputError, saying why) a window `operation` cannot take under the policy: checked
   * before a typed change reads the service, and again when it is submitted.
   */
  checkWindow(operation: ChangeOperation, asked: BoxAsked | null | undefined): void;
  /** Whether `actor` may ask to extend change `id` now (asked before the form); changes nothing. */
  checkExtend(id: string, actor: Actor): Promise<PrecheckResult>;
  /**
   * The inverse of a done reversible change (its requester or a lead), from what it replaced and
   * what the service shows now; submitted like any change. Refuses (InputError) what cannot be
   * reverted, saying why.
   */
  prepareRevert(id: string, actor: Actor): Promise<Prepared>;
  /** Time-boxed changes not yet put back (waiting, running or retrying), soonest end first. */
  timeBoxesInForce(): Promise<OperationRequest[]>;
  /** Puts back every due time-boxed change, reminds of ends near, tells a lead of put-backs failing for an hour. */
  sweepTimeBoxes(): Promise<TimeBoxSweep>;

  resumeInterrupted(): Promise<{ resumed: OperationRequest[]; unknown: OperationRequest[] }>;
  /** Runs `expireDue` and `resumeInterrupted` now and every `intervalMs`; `stop()` waits for a sweep in flight. */
  startSweeper(intervalMs: number): () => Promise<void>;
}
