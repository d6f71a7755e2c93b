import type { StepPatch } from '../core/approvals.js';
import type { StoredAuditEvent } from '../core/audit-chain.js';
import type { BatchStep, StepEnd } from '../core/batch.js';
import type { Delegation } from '../core/delegation.js';
import type { JsonValue } from '../core/json.js';
import type {
  AuditEvent,
  NewAuditEvent,
  OperationRequest,
  RecordedError,
  RequestState,
} from '../core/model.js';
import type { ViewerUnblock } from '../core/viewer-history.js';

// The chain's hash function and genesis value belong to the core; the store only applies them.
export { GENESIS_HASH, type HashEvent } from '../core/audit-chain.js';

/** Fields of a request that a transition may change: what the core's approval steps produce. */
export type RequestPatch = StepPatch;

export interface RequestFilter {
  states?: readonly RequestState[];
  requesterId?: string;
  /** Only requests run by break-glass that no lead has reviewed yet. */
  breakGlassUnreviewed?: boolean;
  /** Only time-boxed changes not yet put back (waiting, running or retrying). */
  timeBoxOpen?: boolean;
  /** Newest first; default 50. */
  limit?: number;
}

/** The first rows of a list, and how many rows the whole list holds. */
export interface Counted<T> {
  items: T[];
  total: number;
}

/**
 * What a sweep reads by when it falls due: `expiry` (pending, by `expiresAt`), `followUp`
 * (pending, by when the follow-up sweep last said it is next owed something), `unannounced`
 * (pending with no approval message, by `createdAt`), `executing` (by `updatedAt`: a take-over
 * is due once it is stale), `review` (break-glass unreviewed and not yet reminded, by `reviewDueAt`).
 */
export type DueKind = 'expiry' | 'followUp' | 'unannounced' | 'executing' | 'review';

/** Where a page of {@link Store.listDue} starts: after this due time and request ID. */
export interface DueCursor {
  at: string;
  id: string;
}

export interface DueQuery {
  kind: DueKind;
  by: string;
  after?: DueCursor | undefined;
  limit: number;
}

/** A request a sweep owes something, and when it fell due (the cursor of the next page). */
export interface Due {
  request: OperationRequest;
  at: string;
}

/** What {@link Store.listPending} reads. */
export interface PendingFilter {
  operations: readonly string[];
  notRequesterId: string;
  now: string;
  limit: number;
}

/**
 * What a change modal was opened for, kept on the server while the modal is open: the modal
 * carries only a random ID, whose hash is `key` (src/services/drafts.ts).
 */
export interface ModalDraft {
  key: string;
  /** The Slack user who opened the modal; only they may submit it. */
  userId: string;
  /** The modal's `callback_id`: a draft is only good for the modal it was made for. */
  kind: string;
  payload: JsonValue;
  createdAt: string;
  expiresAt: string;
}

/**
 * One notification job: "request `requestId` changed to `state` (version `version`)", recorded in
 * the transaction that made the change. The Slack layer tells people about it later.
 * @see docs/architecture.md, "Approvals"
 */
export interface NotificationJob {
  /** Increasing in recording order; never reused. */
  id: number;
  requestId: string;
  state: RequestState;
  version: number;
  /** When the change was recorded (the transition's `at`). */
  at: string;
}

/** What {@link Store.claimNotifications} takes. */
export interface NotificationClaim {
  /** Names the claiming process in the lease; unique per replica. */
  worker: string;
  /** At most this many requests, each with all its waiting jobs. */
  requests: number;
  leaseMs: number;
  now: string;
  /**
   * Only requests whose newest job was recorded at or before this time: a burst of changes to one
   * request (approved, executing, succeeded) settles before it is told, as one update.
   */
  settledAt: string;
}

/**
 * A signed checkpoint of the audit chain as the store keeps it: the note exactly as signed, the
 * size and head it states (also in the note), and whether it was posted to the audit channel.
 * @see docs/audit-checkpoints.md
 */
export interface StoredCheckpoint {
  /** How many events it covers; one checkpoint per size. */
  size: number;
  /** The hash of event #size (64 hex digits). */
  head: string;
  /** When it was made (ISO-8601 UTC), as its `time` line says. */
  time: string;
  /** The signed note, as signed. */
  note: string;
  /** When Slack accepted its post in the audit channel; null while not yet posted. */
  postedAt: string | null;
}

/**
 * What a limit counts: the audit events of `types` that `actorId` caused on `operation` at or after
 * `since` (the per-agent rate limit counts `requested`, the break-glass limit `break-glass`).
 */
export interface EventCount {
  actorId: string;
  /**
   * A command line actor's OS user: their events count too, whatever Slack user each named with
   * `--as` (a claim; the OS user is the person the machine vouches for).
   */
  osUser?: string | undefined;
  operation: string;
  types: readonly string[];
  since: string;
  /**
   * Also reads the unblocks of this viewer asked at or after `since` (the repeat rule), under a
   * lock of that viewer: two agents asking at once for one viewer each see the other's ask.
   */
  viewer?: ViewerWindow | undefined;
  /**
   * Also reads the unblocks of each of these viewers (a batch), under their locks taken in one
   * order after the person's: a batch and a single unblock of one of its viewers see each other.
   */
  viewers?: ViewersWindow | undefined;
}

/** Several viewers' unblocks asked at or after `since` (a batch's numbers). */
export interface ViewersWindow {
  viewers: readonly string[];
  since: string;
}

/** A viewer's unblocks asked at or after `since`, the number as the unblock normalised it. */
export interface ViewerWindow {
  viewer: string;
  since: string;
}

/**
 * A viewer's history to read: its newest `limit` unblocks, only those asked at or after `since`
 * when given. Read through the viewer index, never by scanning the log.
 */
export interface ViewerQuery {
  viewer: string;
  limit: number;
  since?: string | undefined;
}

/** At most this many of a viewer's unblocks are read for the repeat rule's count. */
export const REPEAT_READ_LIMIT = 1000;

/** A limit: at most `max` of the counted events. */
export interface EventLimit extends EventCount {
  max: number;
}

/** What {@link Store.transitionWithin} did. */
export type LimitedTransition =
  | { kind: 'done'; request: OperationRequest; events: AuditEvent[] }
  /** The limit is reached (`used` events counted); nothing changed. */
  | { kind: 'limited'; used: number }
  /** Another writer changed the request first; nothing changed. */
  | { kind: 'stale' };

export interface AuditQuery {
  /** Events with seq greater than this. */
  afterSeq?: number;
  /** ISO-8601 bounds on `at`, inclusive. */
  since?: string;
  until?: string;
  /** Only the events of this request. */
  requestId?: string;
  /** Only the events of this operation (`delegation` for delegations). */
  operation?: string;
  /** Only the last N events (still returned oldest first). */
  last?: number;
  limit?: number;
}

/**
 * Durable state of vidops. Every method that changes a request also appends its audit events in
 * the same transaction, so the log and the state never disagree. Audit appends are serialised
 * across processes: the chain has one order per deployment.
 */
/**
 * A DM vidops sent with a request's buttons: `followUp` (a reminder, an escalation or an expiry
 * warning, to an approver or the requester), `breakGlass` (a lead told of a break-glass change)
 * or `breakGlassOverdue` (a lead reminded that it is still unreviewed); `batch`: a batch's one
 * message to its requester, edited in place as it runs and at its end.
 */
export interface RequestDm {
  requestId: string;
  channel: string;
  ts: string;
  userId: string;
  kind: RequestDmKind;
  postedAt: string;
}

export type RequestDmKind = 'followUp' | 'breakGlass' | 'breakGlassOverdue' | 'timeBox' | 'batch';

/** A batch step's end: from `sending` to how it ended, with the error that ended it. */
export interface StepEndChange {
  requestId: string;
  index: number;
  from: 'sending';
  to: StepEnd;
  error: RecordedError | null;
  at: string;
}

/** What {@link Store.createCountedRequest} builds a request with, inside its transaction. */
export type CountedBuild = (
  counted: number,
  /** With `count.viewer`: that viewer's unblocks in the window, newest first (else none). */
  viewerUnblocks: readonly ViewerUnblock[],
  /** With `count.viewers`: each one's unblocks in the window, newest first (else empty). */
  byViewer: ReadonlyMap<string, readonly ViewerUnblock[]>,
) => { request: OperationRequest; events: readonly NewAuditEvent[] };

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Applies pending versioned migrations. Safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;
  /** The migration versions the database records as applied (none before the first migrate). */
  schemaVersions(): Promise<number[]>;
  /** The database server's clock (`vidops doctor` compares it with this host's). */
  databaseNow(): Promise<Date>;
  close(): Promise<void>;

  /** Inserts a new request and its events atomically. Fails if the ID exists. */
  createRequest(
    request: OperationRequest,
    events: readonly NewAuditEvent[],
  ): Promise<{ request: OperationRequest; events: AuditEvent[] }>;
  getRequest(id: string): Promise<OperationRequest | null>;
  /**
   * Compare-and-set: applies `patch` (and bumps `version`, sets `updatedAt` to `at`) only if the
   * request is still at `expectedVersion`; appends `events` in the same transaction.
   * Returns null, changing nothing, when another writer got there first. With `whileDelegated`
   * (a delegation's ID), also null unless that delegation is still open at `at` (not ended, its
   * `until` later), checked in the same transaction: an approval in a lead's place never commits
   * after the delegation's end did.
   */
  transition(
    id: string,
    expectedVersion: number,
    patch: RequestPatch,
    at: string,
    events: readonly NewAuditEvent[],
    whileDelegated?: string,
  ): Promise<{ request: OperationRequest; events: AuditEvent[] } | null>;
  listRequests(filter?: RequestFilter): Promise<OperationRequest[]>;
  /**
   * A person's open requests (pending, approved, executing), newest first, at most `limit`, with
   * how many there are: read through an index of open requests alone (`requests_open`).
   * @see docs/benchmarks.md, "Aging"
   */
  listOpenRequests(requesterId: string, limit: number): Promise<Counted<OperationRequest>>;
  /**
   * Pending requests not yet expired at `now` of `operations`, not asked by `notRequesterId`,
   * newest first, at most `limit`, with how many there are: what a person may be asked to decide.
   */
  listPending(filter: PendingFilter): Promise<Counted<OperationRequest>>;
  /** When the oldest pending request was made (one index row), or null when none waits. */
  oldestPendingAt(): Promise<string | null>;
  /** Time-boxed changes whose put-back was handed to a lead and is not yet back (their own index). */
  countPutBacksEscalated(): Promise<number>;
  /** The Reverts asked of request `id`, whatever their state, oldest first (their own index). */
  listReverts(id: string): Promise<OperationRequest[]>;
  /**
   * A page of what a sweep owes, the soonest due first: requests of `kind` due at or before `by`,
   * after `after` (the last of the page before), read through a partial index of that kind alone,
   * however many requests wait or are done.
   * @see docs/benchmarks.md, "Aging"
   */
  listDue(query: DueQuery): Promise<Due[]>;
  /**
   * When the follow-up sweep next owes pending request `id` something (null: never); a new
   * pending request is due at once. A request no longer pending is left as it is.
   */
  setFollowUpAt(id: string, at: string | null): Promise<void>;

  /**
   * Calls `listener` after every commit in this process that appended audit events (a created
   * request, a transition with events, `appendAudit`); returns what stops it. The audit publisher
   * subscribes, so an event is posted at once instead of at its next poll.
   */
  onAppend(listener: () => void): () => void;

  /** Appends events that belong to no request change (e.g. `denied`). */
  appendAudit(events: readonly NewAuditEvent[]): Promise<AuditEvent[]>;
  /** Oldest first. */
  listAudit(query?: AuditQuery): Promise<AuditEvent[]>;
  /** Streams the whole chain oldest first in pages, for verify and export. */
  iterateAudit(pageSize?: number): AsyncIterable<AuditEvent>;
  /**
   * The same stream with the columns kept beside each event's JSON (`actor_id`, `at`…), read as
   * they are, so `audit verify` can check them against the hashed event.
   */
  iterateStoredAudit(pageSize?: number): AsyncIterable<StoredAuditEvent>;
  auditHead(): Promise<{ seq: number; hash: string } | null>;
  /** How many events `actor` caused of `operation` with one of `types` since `since`. */
  countEvents(actorId: string, operation: string, types: readonly string[], since: string): Promise<number>;
  /**
   * Counts the events `count` names, then creates the request `build` makes of that number (as
   * `createRequest`), in one transaction. Counted creates and {@link transitionWithin} calls of the
   * same person, operation and types wait for each other, on every replica, so each counts what
   * the one before it wrote: the per-agent rate limit cannot be passed by asking at once.
   * `build` runs inside the transaction: it must be synchronous and do no I/O.
   */
  createCountedRequest(
    count: EventCount,
    build: CountedBuild,
  ): Promise<{ request: OperationRequest; events: AuditEvent[] }>;
  /**
   * A viewer's unblocks, newest first, folded from the audit events indexed under its number (in
   * the same transaction as each append, so the index never lags the log).
   * @see docs/commands.md, "A viewer's history"
   */
  viewerUnblocks(query: ViewerQuery): Promise<ViewerUnblock[]>;
  /**
   * `transition`, made only while fewer than `limit.max` of the events `limit` counts exist: the
   * count and the change are one step, serialised as in {@link createCountedRequest} (the
   * break-glass limit). `stale` when the request is no longer at `expectedVersion`; `limited` when
   * the limit is reached. Either way nothing changes.
   */
  transitionWithin(
    limit: EventLimit,
    id: string,
    expectedVersion: number,
    patch: RequestPatch,
    at: string,
    events: readonly NewAuditEvent[],
  ): Promise<LimitedTransition>;

  /**
   * Outbox of audit events to post to Slack. Every appended event enters it. `claimOutbox` leases
   * up to `limit` undelivered events (oldest first) to `worker` for `leaseMs`; other workers do
   * not see leased events until the lease runs out. `ackOutbox` marks them delivered.
   */
  claimOutbox(worker: string, limit: number, leaseMs: number, now: string): Promise<AuditEvent[]>;
  ackOutbox(seqs: readonly number[]): Promise<void>;
  /**
   * Gives back at once the events `worker` still holds (e.g. Slack said 429); `notBefore` delays
   * the next claim. Events whose lease ran out and another worker took stay with it.
   */
  releaseOutbox(seqs: readonly number[], notBefore: string, worker: string): Promise<void>;
  /** Moves the lease of the events `worker` still holds to `until`; how many it still held. */
  renewOutbox(seqs: readonly number[], worker: string, until: string): Promise<number>;
  outboxDepth(): Promise<number>;

  /** Records a delivery key (Slack retry de-duplication). True the first time, false after. */
  markDelivered(key: string, at: string): Promise<boolean>;
  /** Forgets delivery keys recorded before `before`; returns how many. */
  pruneDeliveries(before: string): Promise<number>;
  /**
   * Forgets one delivery key, so that the next `markDelivered` of it is first again: a claim to
   * send something once, given back when Slack said for sure that it was not sent.
   */
  forgetDelivery(key: string): Promise<void>;

  /**
   * Takes lease `name` for `holder` until `until`, when nobody holds it, its holder's `until` is
   * not after `now` (a holder that stopped without giving it back loses it then), or `holder`
   * holds it already (a renewal). True when taken.
   */
  takeLease(name: string, holder: string, until: string, now: string): Promise<boolean>;
  /** Gives lease `name` back, if `holder` still holds it. */
  giveLease(name: string, holder: string): Promise<void>;

  /**
   * Time-boxed changes in force (succeeded, not yet put back), the soonest due first (its
   * `nextAt` when an attempt is planned, else its `endsAt`; one with no end yet first), read
   * through an index of those alone: requests waiting for approval never hide one. With `dueBy`,
   * only those due at or before it. Default limit 500.
   * @see docs/time-boxed.md, "Exactly once"
   */
  listWindows(filter?: { dueBy?: string; limit?: number }): Promise<OperationRequest[]>;
  /**
   * Makes request `requestId` the one holder of every item (`protect.set:opacity`,
   * `whitelist.set:1.2.3.4`) in one atomic step, unless another request still holds one (its
   * window not ended: not failed, rejected, cancelled or expired, and not put back or left). The
   * holder's ID then, and nothing taken; null when taken (or held by `requestId` already).
   * @see docs/time-boxed.md, "One window at a time"
   */
  holdItems(requestId: string, items: readonly string[]): Promise<string | null>;

  /** Keeps a modal draft (replacing one with the same key: a draft given back after a refused submission). */
  putDraft(draft: ModalDraft): Promise<void>;
  /**
   * Removes the draft and returns it, once: a second take of the same key gets null, as does a
   * take at or after `expiresAt` (the expired draft is removed all the same).
   */
  takeDraft(key: string, now: string): Promise<ModalDraft | null>;
  /** Removes drafts expired at `now`; returns how many. */
  pruneDrafts(now: string): Promise<number>;

  /**
   * Notification outbox. `createRequest` and every `transition` that appends audit events also
   * record one {@link NotificationJob} in the same transaction (a transition without events, such
   * as noting where the approval message lives, records none).
   *
   * `claimNotifications` leases, to one worker, every waiting job of up to `requests` requests,
   * oldest first. A request is claimed whole or not at all, and not while another worker holds a
   * lease on any of its jobs, so one request is worked on by one worker at a time and its updates
   * cannot overtake each other. `ackNotifications` removes jobs that are done;
   * `releaseNotifications` gives back those `worker` still holds, their request not claimable
   * before `notBefore` (jobs another worker took once the lease ran out stay with it).
   * `renewNotifications` moves the lease of the jobs `worker` still holds to `until`, while a
   * slow Slack keeps it working on them (how many it still held).
   */
  claimNotifications(claim: NotificationClaim): Promise<NotificationJob[]>;
  ackNotifications(ids: readonly number[]): Promise<void>;
  releaseNotifications(ids: readonly number[], notBefore: string, worker: string): Promise<void>;
  renewNotifications(ids: readonly number[], worker: string, until: string): Promise<number>;
  /** Records a job for the request as it stands now (announcing it again); false when there is no such request. */
  enqueueNotification(requestId: string, at: string): Promise<boolean>;
  /** Jobs not yet done, leased or not. */
  notificationDepth(): Promise<number>;

  /**
   * Signed audit checkpoints. `addCheckpoint` keeps one unless a checkpoint of the same size is
   * there already (another replica made it): false then, and nothing changes. Each enters a small
   * outbox of its own: `claimCheckpoints` leases unposted ones (smallest first) to `worker` like
   * `claimOutbox`, `markCheckpointPosted` records Slack's acceptance, `releaseCheckpoints` gives
   * back those `worker` still holds, not claimable before `notBefore`, and `renewCheckpoints`
   * moves their lease to `until` (how many it still held).
   */
  addCheckpoint(checkpoint: { size: number; head: string; time: string; note: string }): Promise<boolean>;
  /** Every checkpoint, smallest first. */
  listCheckpoints(): Promise<StoredCheckpoint[]>;
  /** The largest checkpoint, or null. */
  latestCheckpoint(): Promise<StoredCheckpoint | null>;
  claimCheckpoints(worker: string, limit: number, leaseMs: number, now: string): Promise<StoredCheckpoint[]>;
  markCheckpointPosted(size: number, at: string): Promise<void>;
  releaseCheckpoints(sizes: readonly number[], notBefore: string, worker: string): Promise<void>;
  renewCheckpoints(sizes: readonly number[], worker: string, until: string): Promise<number>;
  /** Checkpoints not yet posted, leased or not. */
  unpostedCheckpoints(): Promise<number>;
  /** Seqs of events not yet posted to the audit channel (oldest first, at most `limit`). */
  undeliveredSeqs(limit: number): Promise<number[]>;

  /**
   * Delegations (`/vidops delegate`). `addDelegation` inserts one with its audit events in one
   * transaction; it fails with StateConflictError, changing nothing, while its lead has another
   * that has not ended (cancelled or recorded as expired). `endDelegation` ends one that has not
   * ended yet, with its events; null, changing nothing, when it had ended already.
   * `listDelegations` is newest first; `open` keeps those not ended (whatever their `until`).
   */
  addDelegation(delegation: Delegation, events: readonly NewAuditEvent[]): Promise<Delegation>;
  endDelegation(
    id: string,
    end: Pick<Delegation, 'endedAt' | 'endedBy' | 'ending'>,
    events: readonly NewAuditEvent[],
  ): Promise<Delegation | null>;
  listDelegations(filter?: {
    leadId?: string;
    delegateId?: string;
    open?: boolean;
    limit?: number;
  }): Promise<Delegation[]>;

  /**
   * The language a person chose with `/vidops lang` (`fa`, `en`), or null when they never chose.
   * The store keeps the tag as given; the Slack layer checks it when it reads it back.
   * @see docs/architecture.md, "Languages"
   */
  getLanguageChoice(userId: string): Promise<string | null>;
  /** Keeps (or replaces) a person's language choice, noting when it was made. */
  setLanguageChoice(userId: string, locale: string, at: string): Promise<void>;

  /**
   * Records a DM that carries a request's buttons (a reminder, an escalation, an expiry warning,
   * a break-glass notice), so that it can be shown without them once the request no longer waits
   * on its reader. Recording the same message again changes nothing.
   * @see docs/architecture.md, "Approvals"
   */
  recordRequestDm(dm: RequestDm): Promise<void>;
  /** The DMs recorded for a request, oldest first. */
  requestDms(requestId: string): Promise<RequestDm[]>;
  /** Forgets one recorded DM (it was brought up to date, or it is gone). */
  forgetRequestDm(dm: Pick<RequestDm, 'requestId' | 'channel' | 'ts'>): Promise<void>;

  /**
   * The steps of a batch (`viewer.unblock-many`), one per number. `beginStep` records a step
   * `sending` before its number is sent: false, changing nothing, when the step exists already
   * (another run took it). `endStep` moves a step from `from` to `to` and appends `events` in the
   * same transaction: false, changing nothing, when the step is no longer at `from`.
   * @see docs/approvals.md, "Many numbers at once"
   */
  beginStep(step: { requestId: string; index: number; mobileNumber: string; at: string }): Promise<boolean>;
  endStep(step: StepEndChange, events: readonly NewAuditEvent[]): Promise<boolean>;
  /** A batch's steps, in list order. */
  listSteps(requestId: string): Promise<BatchStep[]>;
  /**
   * Keeps a long run's claim fresh: moves `updatedAt` of a request still `executing` with
   * `updatedAt` at `from` to `to`, its version unchanged (the run records its end as usual).
   * False, changing nothing, when it is no longer (taken over, or ended).
   */
  renewExecution(id: string, from: string, to: string): Promise<boolean>;

  /** Small key-value settings shared by replicas (e.g. learned retry-conversion method). */
  getSetting(key: string): Promise<string | null>;
  setSetting(key: string, value: string): Promise<void>;
}
