import type { ChangeOperation, OperationParams, Preview } from './catalog.js';
import type { JsonValue } from './json.js';
import type { StoredSaid } from './said.js';
import type { RevertOf, StoredUndo, TimeBox } from './time-box.js';

/**
 * Where an actor acted from when it was not Slack: the `vidops` CLI, run by an OS user. Slack
 * actors have no `via` at all, so their canonical JSON (and every chain written before `via`
 * existed) is unchanged.
 * @see docs/architecture.md, "Audit log"
 */
export interface ActorVia {
  kind: 'cli';
  /** The OS user who ran the command: the one identity the CLI can vouch for. */
  osUser: string;
}

/**
 * Who did something: a Slack user (`U…`/`W…`), possibly claimed on the CLI with `--as`, or a CLI
 * user (`cli:<os user>`). `via` says it came from the CLI and which OS user ran it.
 */
export interface Actor {
  id: string;
  name: string;
  via?: ActorVia;
}

/**
 * Request states of the design (Approvals). `unknown` is "outcome unknown": the request may or
 * may not have been applied (vidops stopped while it ran, or its answer was lost after sending)
 * and it is not sent again by itself; a lead settles it (see {@link RESOLVE_WAYS}), which moves
 * it to `succeeded` or `failed`.
 */
export const REQUEST_STATES = [
  'pending',
  'approved',
  'executing',
  'succeeded',
  'failed',
  'rejected',
  'cancelled',
  'expired',
  'unknown',
] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

export const TERMINAL_STATES: readonly RequestState[] = [
  'succeeded',
  'failed',
  'rejected',
  'cancelled',
  'expired',
  'unknown',
];

/**
 * Whether a change of this request is told in Slack (approval message, DM, Home tabs): a request
 * that waits for approval, a time-boxed one (its put-back, reminder and buttons are told there,
 * docs/time-boxed.md), and a direct one whose outcome became unknown (its requester's answer
 * never came). Other direct requests are answered where they were asked, so their changes record
 * no notification job.
 */
export function tellsSlack(request: {
  quorum: number;
  state: RequestState | string;
  timeBox?: unknown;
}): boolean {
  return request.quorum > 0 || request.timeBox !== undefined || request.state === 'unknown';
}

export interface Approval {
  by: Actor;
  at: string;
  /**
   * The lead `by` approved in the place of, through a delegation (`/vidops delegate`); absent for
   * an approval in one's own right. The lead then counts as having approved, once.
   */
  for?: Actor;
  /** Its seal (./seal.ts): only sealed approvals count toward the quorum. */
  seal?: string;
}

/**
 * A lead's review of a break-glass change: acknowledged, or flagged with a note.
 * @see docs/architecture.md, "Break-glass and delegation"
 */
export interface BreakGlassReview {
  by: Actor;
  at: string;
  verdict: 'acknowledged' | 'flagged';
  note: string | null;
}

/** How a pending request was run without its approvals: who broke the glass, why, and its review. */
export interface BreakGlassRecord {
  by: Actor;
  at: string;
  reason: string;
  /** A lead should have reviewed it by then; after that it is reminded once. */
  reviewDueAt: string;
  /** When the sweep found it unreviewed past `reviewDueAt` (the reminder); null before. */
  overdueAt: string | null;
  review: BreakGlassReview | null;
}

/** Error as recorded: never carries secrets. */
export type RecordedError = {
  name: string;
  message: string;
  status?: number;
  /** vidops' own sentence, when it is one (stored form): `message` is its English; readers get their language. */
  said?: StoredSaid;
};

/** Where the approval message for a request lives in Slack, once posted. */
export interface SlackRef {
  channel: string;
  ts: string;
}

/** What every request has, whatever its operation. */
export interface RequestFields {
  id: string;
  /** SHA-256 hex of the canonical JSON of `{operation, params}`; binds approvals to parameters. */
  paramsHash: string;
  /** Human-readable target: mobile number, file ID, "whitelist", "protection settings". */
  target: string;
  reason: string | null;
  requester: Actor;
  state: RequestState;
  /** How many distinct approvals are needed; 0 for operations that run directly. */
  quorum: number;
  approvals: Approval[];
  /**
   * Who rejected, cancelled, or settled an `unknown` outcome (then the request is `succeeded` or
   * `failed` with `decidedBy` set); null otherwise, and for `expired`.
   */
  decidedBy: Actor | null;
  decisionNote: string | null;
  createdAt: string;
  expiresAt: string | null;
  updatedAt: string;
  /** What the upstream answered on success. */
  result: JsonValue | null;
  error: RecordedError | null;
  slack: SlackRef | null;
  /**
   * Reminders, escalation and the expiry warning done so far while it waits (issue 13); absent
   * on requests made before these existed, and read as {@link NO_FOLLOW_UP}.
   */
  followUp?: FollowUp;
  /** Incremented on every change; the compare-and-set token. */
  version: number;
  /** Set when the request was run by break-glass instead of its approvals; absent otherwise. */
  breakGlass?: BreakGlassRecord;
  /** A change asked for a while (`for 2h`): when it goes back, and how its put-back stands. */
  timeBox?: TimeBox;
  /** What a done reversible change replaced and set, recorded when it succeeded. */
  undo?: StoredUndo;
  /** Set on a request made to undo another: a put-back, or a Revert. */
  revertOf?: RevertOf;
  /**
   * Its seal (./seal.ts): `asked` while it waits, `send` once a judging step let it run; checked
   * before an approval, break-glass, and every send.
   */
  seal?: string;
  /** The key's seal of `undo` (./seal.ts): a put-back, Revert or Extend trusts only sealed values. */
  undoSeal?: string;
}

/**
 * What vidops did so a waiting request does not stall: each is recorded by a compare-and-set with
 * its audit event (`reminded`, `escalated`, `expiry-warned`), so it happens once across replicas.
 * @see docs/architecture.md, "Reminders, escalation and the expiry warning"
 */
export interface FollowUp {
  /** The last reminder sent to the approvers who had not decided, and who asked for it. */
  remindedAt: string | null;
  remindedBy: Actor | null;
  /** Whether vidops has sent its one automatic reminder (`remindAfter`). */
  autoReminded: boolean;
  /** When the request was offered to the backup approvers (`escalateTo`), and to whom. */
  escalatedAt: string | null;
  escalatedTo: string[];
  /** When the requester and the approvers were told that it expires soon. */
  expiryWarnedAt: string | null;
}

/** A request with nothing followed up yet. */
export const NO_FOLLOW_UP: Readonly<FollowUp> = {
  remindedAt: null,
  remindedBy: null,
  autoReminded: false,
  escalatedAt: null,
  escalatedTo: [],
  expiryWarnedAt: null,
};

/** The follow-up record of a request, {@link NO_FOLLOW_UP} when it has none. */
export function followUpOf(request: { followUp?: FollowUp | undefined }): FollowUp {
  return request.followUp ?? { ...NO_FOLLOW_UP, escalatedTo: [] };
}

/**
 * One request to run a change operation; the unit of approval and of exactly-once execution.
 * `OperationRequest<O>` is operation `O`'s; the default is any of them.
 */
export type OperationRequest<O extends ChangeOperation = ChangeOperation> = {
  [P in O]: RequestFields & {
    operation: P;
    /** Typed parameters exactly as they will be sent; parsed once when read from the store. */
    params: OperationParams[P];
    /**
     * What people see before deciding: diff, before/after lists, title of what is deleted. Null
     * when a stored request's preview is not one this build reads ("preview not available").
     */
    preview: Preview<P> | null;
  };
}[O];

export const AUDIT_EVENT_TYPES = [
  'requested',
  'approved',
  'rejected',
  'cancelled',
  'expired',
  'executing',
  'succeeded',
  'failed',
  'denied',
  'unknown',
  'resolved',
  // Follow-ups of a waiting request (issue 13): approvers reminded, backups offered it, expiry near.
  'reminded',
  'escalated',
  'expiry-warned',
  // Break-glass and delegation (docs/architecture.md, "Break-glass and delegation")
  'break-glass',
  'break-glass-reviewed',
  'break-glass-overdue',
  'delegated',
  'delegation-cancelled',
  'delegation-expired',
  // Time-boxed changes and Revert (docs/time-boxed.md): a put-back planned, done, or leaving
  // what others changed since; an attempt failed and is retried; the requester reminded of the
  // end; a lead told of a put-back failing for an hour.
  'reverting',
  'reverted',
  'revert-conflict',
  'put-back-retrying',
  'put-back-reminded',
  'put-back-escalated',
  // What a window in force will do changed: an Extend moved its end, or a change for good took
  // one of its settings or addresses over (its put-back leaves that one alone).
  'window-changed',
  // One number of a batch of unblocks ended (docs/audit.md, "A batch in the channel"): in the
  // log, `audit tail` and the export, without a channel post of its own.
  'step',
  // An operator accepted the audit log as a new baseline for the signing key (docs/audit-checkpoints.md).
  'checkpoint-baseline',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/**
 * How a lead settles a request whose outcome is unknown: look the target up (`check`), say what
 * they found on the service (`applied`, `not-applied`, with a note), or send it once more
 * (`send-again`, deletes only).
 */
export const RESOLVE_WAYS = ['check', 'applied', 'not-applied', 'send-again'] as const;
export type ResolveWay = (typeof RESOLVE_WAYS)[number];

/** An audit event before the store gives it a place in the chain. */
export interface NewAuditEvent {
  /** Random unique ID (UUID). */
  id: string;
  type: AuditEventType;
  /** ISO-8601 UTC, from the injected clock. */
  at: string;
  actor: Actor;
  operation: string;
  target: string;
  params: JsonValue;
  requestId: string | null;
  /** Outcome detail: upstream answer, approval count, reason of a refusal. */
  outcome: JsonValue;
  error: RecordedError | null;
}

/** An audit event in the chain. `hash` covers every other field, including `seq` and `prevHash`. */
export interface AuditEvent extends NewAuditEvent {
  seq: number;
  prevHash: string;
  hash: string;
}
