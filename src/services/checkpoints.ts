import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { actorRecord } from '../core/actor.js';
import { GENESIS_HASH, type HashEvent, shortHash } from '../core/audit-chain.js';
import {
  type Checkpoint,
  CheckpointFormatError,
  extensionProblem,
  parseCheckpoint,
  readRememberedCheckpoint,
  signCheckpoint,
} from '../core/checkpoint.js';
import type { Actor, NewAuditEvent } from '../core/model.js';
import {
  keyLabel,
  NoteFormatError,
  parseNote,
  type SignerKey,
  type VerifierKey,
  verifierKeyOf,
  verifyNote,
} from '../core/signed-note.js';
import { Backoff, JobRunner, type StepResult } from '../jobs/runner.js';
import type { Store, StoredCheckpoint } from '../store/store.js';
import { type CheckpointMemory, CheckpointMemoryError } from './checkpoint-memory.js';
import type { ServiceLogger } from './types.js';

/**
 * Signed checkpoints of the audit chain: "the log holds N events and event #N has hash H", signed
 * with the deployment's Ed25519 key and kept in the store, from where the audit publisher posts it
 * to the audit channel. The bot makes one after every `every.events` events or `every.ms`,
 * whichever comes first, and one at shutdown; `vidops audit checkpoint` makes one at once.
 *
 * A key never vouches for a log that does not extend what it vouched for before, and it knows what
 * that was from its memory beside the key file (services/checkpoint-memory.ts), which whoever can
 * write to the database cannot rewrite: the log must hold at least the remembered number of events,
 * with the remembered head at that number. The events since then (or since the database's newest
 * checkpoint, when this key signed it and it holds) are checked too: each hash recomputed, each
 * `prevHash` the one before. A checkpoint is signed, remembered, then stored, so a crash in
 * between leaves the memory ahead of the database, which the next checkpoint extends.
 * @see docs/audit-checkpoints.md; docs/architecture.md, "Audit log"
 */

export interface CheckpointerOptions {
  store: Store;
  signer: SignerKey;
  /** `vidops/<AUDIT_LOG_NAME>`, the signer's name. */
  origin: string;
  /** The chain's hash (SHA-256 or HMAC), to check the events before signing them. */
  hash: HashEvent;
  /** Where the key remembers the last checkpoint it signed: beside the key file, never the database. */
  memory: CheckpointMemory;
  /** Told of every refusal to sign (the app counts them on `/metrics`). */
  onRefused?: (reason: string) => void;
  clock: () => Date;
  every: { events: number | null; ms: number | null };
  logger?: ServiceLogger | undefined;
  /** Told of every checkpoint written here (the publisher posts it). */
  onWritten?: (checkpoint: StoredCheckpoint) => void;
  /** How often the loop looks whether one is due without being woken (default 30 s). */
  pollMs?: number;
  /** At least this long between two looks when woken by appends (default 1 s). */
  minGapMs?: number;
}

/** An operator's acceptance of the log as it is, after a deliberate restore (`--accept-baseline`). */
export interface AcceptBaseline {
  actor: Actor;
  /** Why, in their words: recorded in the audit event. */
  reason: string;
}

/** A new baseline accepted: what the key no longer requires, and the audit event that says so. */
export interface BaselineAccepted {
  /** The checkpoint the key remembered, or null when its memory could not be read. */
  forgotten: { size: number; head: string; time: string | null } | null;
  /** Why the log did not extend it. */
  problem: string;
  /** The `seq` of the audit event recording the acceptance. */
  seq: number;
}

export type CheckpointResult =
  /** A new checkpoint, written by this call (on a new baseline when one was accepted). */
  | { kind: 'written'; checkpoint: StoredCheckpoint; baseline?: BaselineAccepted }
  /** Nothing new to vouch for: the log is empty or its head is covered already. */
  | { kind: 'covered'; latest: StoredCheckpoint | null; events: number }
  /** Another process wrote a checkpoint of this size first. */
  | { kind: 'taken'; size: number }
  /** The log does not extend what this key signed before, or the events do not link; nothing was signed. */
  | Refused;

/** A checkpoint not signed, and why (logged at level error and counted). */
export type Refused = { kind: 'refused'; reason: string };

export interface Checkpointer {
  /**
   * Signs and keeps a checkpoint of the current head if it covers events no checkpoint covers.
   * With `accept`, a log that does not extend what the key remembers is signed all the same when
   * its chain holds from event #1, after an audit event records who accepted it and why.
   */
  checkpointNow(accept?: AcceptBaseline): Promise<CheckpointResult>;
  /** The same, only when one is due (by count or time); null when none is. */
  checkIfDue(): Promise<CheckpointResult | null>;
  /**
   * Whether the log extends what the key signed before, looked at without signing: a refusal
   * (logged, counted, with the command that accepts a restore) when it does not, else null.
   */
  checkExtends(): Promise<Refused | null>;
  /** Starts the loop that makes them when due. */
  start(): void;
  /** Events were appended: look soon (at most once per `minGapMs`). */
  kick(): void;
  /** Stops the loop; resolves after the look in flight. Makes no checkpoint (call `checkpointNow`). */
  stop(): Promise<void>;
}

const PAGE = 2000;

/** ISO-8601 UTC to the second, as checkpoints are dated. */
function checkpointTime(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** What the key's memory holds, as read under the lock. */
interface Recalled {
  /** The memory's text as read: what the next write replaces. */
  text: string | null;
  /** The checkpoint remembered, or null when none (or when it cannot be used). */
  checkpoint: Checkpoint | null;
  /** Why the memory cannot be used, or null. */
  problem: string | null;
}

type Head = { seq: number; hash: string };

const REWRITE_HINT =
  'someone with access to the database may have rewritten or cut the audit log: run `vidops audit verify` and `vidops audit witness`; if the database was restored from a backup on purpose, accept the log as a new baseline with `vidops audit checkpoint --accept-baseline --reason "…"`';

/** One checkpointer's settings and state; the functions below take it explicitly. */
interface Signing extends CheckpointerOptions {
  readonly ownKey: VerifierKey;
  readonly startedAt: number;
  /** The head a refusal was for: not checked again until the head moves. */
  refusedAt: { seq: number; reason: string } | null;
  /** When the loop last looked whether one is due (`performance.now()`). */
  lastLook: number;
}

export function createCheckpointer(options: CheckpointerOptions): Checkpointer {
  const s: Signing = {
    ...options,
    ownKey: verifierKeyOf(options.signer),
    startedAt: options.clock().getTime(),
    refusedAt: null,
    lastLook: Number.NEGATIVE_INFINITY,
  };
  const pollMs = options.pollMs ?? 30_000;
  const minGapMs = options.minGapMs ?? 1000;
  const runner: JobRunner<StepResult> = new JobRunner({
    name: 'audit checkpointer',
    logger: options.logger,
    step: () => look(s, runner, minGapMs),
    idlePollMs: pollMs,
    // Never used: a look catches its own failures and waits for the next poll or append.
    backoff: new Backoff(pollMs, pollMs),
  });
  return {
    checkpointNow: (accept) => checkpointNow(s, accept),
    checkIfDue: () => checkIfDue(s),
    checkExtends: () => s.memory.exclusive(() => checkExtends(s)),
    start: () => runner.start(),
    kick: () => runner.wake(),
    stop: () => runner.stop(),
  };
}

/**
 * One turn of the loop: whether a checkpoint is due, looked at most once per `minGapMs`. Woken
 * sooner, it asks the runner to come back once the gap has passed (counted as work in hand).
 */
async function look(s: Signing, runner: JobRunner<StepResult>, minGapMs: number): Promise<StepResult> {
  const early = s.lastLook + minGapMs - performance.now();
  if (early > 0) {
    runner.pauseFor(early);
    return { claimed: 1 };
  }
  s.lastLook = performance.now();
  try {
    await checkIfDue(s);
  } catch (error) {
    s.logger?.error(
      { err: { message: error instanceof Error ? error.message : String(error) } },
      'could not make an audit checkpoint; will try again',
    );
  }
  return { claimed: 0 };
}

/**
 * What the newest stored checkpoint covers, and whether this key signed it, read from a row that
 * says what its note says (size, head, time): the database's columns alone are not trusted, since
 * a row that claims a size its note does not would make the signer think the log covered and
 * fall silent. A sentence when this key's signature on it does not hold, when the row and its
 * note disagree, or when the note is not a checkpoint.
 */
function storedCovers(
  s: Signing,
  latest: StoredCheckpoint | null,
): { size: number; time: string | null; ours: boolean } | string {
  if (latest === null) return { size: 0, time: null, ours: false };
  try {
    const note = parseNote(latest.note);
    const ours = note.signatures.some((sig) => sig.name === s.ownKey.name && sig.keyId === s.ownKey.keyId);
    if (ours && !verifyNote(note, [s.ownKey]).ok) {
      return `the stored checkpoint of ${latest.size} events does not verify`;
    }
    const stated = parseCheckpoint(note.text);
    const sameTime = stated.time !== null && Date.parse(stated.time) === Date.parse(latest.time);
    if (
      (ours && stated.origin !== s.origin) ||
      stated.size !== latest.size ||
      stated.head !== latest.head ||
      !sameTime
    ) {
      return `the stored checkpoint of ${latest.size} events says something else in its note`;
    }
    return { size: stated.size, time: stated.time, ours };
  } catch (error) {
    if (error instanceof NoteFormatError || error instanceof CheckpointFormatError) {
      return `the stored checkpoint of ${latest.size} events is not a checkpoint: ${error.message}`;
    }
    throw error;
  }
}

/** Checks that events #from+1…#to link to `head` and hash right; a sentence when they do not. */
async function extendsFrom(
  s: Signing,
  from: { size: number; head: string },
  to: number,
): Promise<string | null> {
  let prevHash = from.head;
  let expected = from.size + 1;
  while (expected <= to) {
    const page = await s.store.listAudit({
      afterSeq: expected - 1,
      limit: Math.min(PAGE, to - expected + 1),
    });
    if (page.length === 0) return `event #${expected} is missing`;
    for (const event of page) {
      if (event.seq !== expected) return `event #${expected} is missing (the next is #${event.seq})`;
      if (event.prevHash !== prevHash) {
        return `event #${event.seq} does not link to ${expected === from.size + 1 && from.size > 0 ? `the checkpoint of ${from.size} events` : `event #${expected - 1}`}`;
      }
      if (s.hash(event) !== event.hash) return `event #${event.seq} was altered (its hash does not match)`;
      prevHash = event.hash;
      expected += 1;
    }
  }
  return null;
}

/** Reads the key's memory; a memory that cannot be read or used is a problem, never a blank. */
async function recall(s: Signing): Promise<Recalled> {
  let text: string | null;
  try {
    text = await s.memory.read();
  } catch (error) {
    if (!(error instanceof CheckpointMemoryError)) throw error;
    return {
      text: null,
      checkpoint: null,
      problem: `what this key signed before cannot be read: ${error.message.replace(/\.$/, '')}`,
    };
  }
  if (text === null) return { text, checkpoint: null, problem: null };
  try {
    return { text, checkpoint: readRememberedCheckpoint(text, s.ownKey, s.origin), problem: null };
  } catch (error) {
    if (!(error instanceof CheckpointFormatError)) throw error;
    const why = error.message.replace(/\.$/, '');
    return {
      text,
      checkpoint: null,
      problem: `the checkpoint remembered in ${s.memory.where} cannot be used: ${why}`,
    };
  }
}

/** The log's hash of event #seq, or null when it has none. */
async function hashAt(s: Signing, seq: number): Promise<string | null> {
  if (seq === 0) return GENESIS_HASH;
  const [event] = await s.store.listAudit({ afterSeq: seq - 1, limit: 1 });
  return event?.seq === seq ? event.hash : null;
}

/** Why the log does not extend what the key remembers, or null when it does (or remembers nothing). */
async function memoryProblem(s: Signing, recalled: Recalled, head: Head | null): Promise<string | null> {
  if (recalled.problem !== null) return recalled.problem;
  const remembered = recalled.checkpoint;
  if (remembered === null) return null;
  const problem = extensionProblem(remembered, {
    size: head?.seq ?? 0,
    hashThere: (head?.seq ?? 0) < remembered.size ? null : await hashAt(s, remembered.size),
  });
  if (problem === null) return null;
  const when = remembered.time === null ? '' : `, of ${remembered.time}`;
  return `the log does not extend the checkpoint this key signed before (${remembered.size} events${when}, remembered in ${s.memory.where}): ${problem}`;
}

/**
 * Where the events to sign must start from: the newest of the remembered checkpoint and the stored
 * one, when this key signed it (`ours`, checked by {@link storedCovers}; a key vidops cannot check
 * vouches for nothing).
 */
function baseOf(
  latest: StoredCheckpoint | null,
  ours: boolean,
  remembered: Checkpoint | null,
): { size: number; head: string } {
  const stored = ours && latest !== null ? { size: latest.size, head: latest.head } : null;
  const bases = [stored, remembered].filter((b): b is { size: number; head: string } => b !== null);
  bases.sort((a, b) => b.size - a.size);
  return bases[0] ?? { size: 0, head: GENESIS_HASH };
}

function refuse(s: Signing, head: Head | null, covered: number, reason: string): Refused {
  if (s.refusedAt?.reason !== reason) {
    s.logger?.error({ head: head?.seq ?? 0, covered, alert: 'audit_checkpoint_refused' }, reason);
  }
  s.refusedAt = { seq: head?.seq ?? 0, reason };
  s.onRefused?.(reason);
  return { kind: 'refused', reason };
}

/** Signs the head, remembers it, then stores it: a crash in between leaves the memory ahead. */
async function sign(s: Signing, head: Head, recalled: Recalled): Promise<CheckpointResult> {
  s.refusedAt = null;
  const time = checkpointTime(s.clock());
  const note = signCheckpoint({ origin: s.origin, size: head.seq, head: head.hash, time }, [s.signer]);
  await s.memory.write(note, recalled.text);
  const written = await s.store.addCheckpoint({ size: head.seq, head: head.hash, time, note });
  if (!written) return { kind: 'taken', size: head.seq };
  const checkpoint: StoredCheckpoint = { size: head.seq, head: head.hash, time, note, postedAt: null };
  s.logger?.info(
    { size: head.seq, head: shortHash(head.hash) },
    `signed the audit checkpoint of ${head.seq} events`,
  );
  s.onWritten?.(checkpoint);
  return { kind: 'written', checkpoint };
}

/** The audit event that records a new baseline: who accepted it, why, and what was forgotten. */
function baselineEvent(
  s: Signing,
  accept: AcceptBaseline,
  recalled: Recalled,
  problem: string,
  head: Head | null,
): NewAuditEvent {
  const forgotten = recalled.checkpoint;
  return {
    id: randomUUID(),
    type: 'checkpoint-baseline',
    at: s.clock().toISOString(),
    actor: actorRecord(accept.actor),
    operation: 'audit.checkpoint',
    target: `audit log ${s.origin}`,
    params: { reason: accept.reason },
    requestId: null,
    outcome: {
      key: keyLabel(s.signer),
      forgotten:
        forgotten === null ? null : { size: forgotten.size, head: forgotten.head, time: forgotten.time },
      accepted: { size: head?.seq ?? 0, head: head?.hash ?? GENESIS_HASH },
      problem,
    },
    error: null,
  };
}

/** Signs a log that does not extend the memory, when its chain holds from #1, after recording why. */
async function acceptBaseline(
  s: Signing,
  accept: AcceptBaseline,
  recalled: Recalled,
  problem: string,
  head: Head | null,
): Promise<CheckpointResult> {
  const chain = await extendsFrom(s, { size: 0, head: GENESIS_HASH }, head?.seq ?? 0);
  if (chain !== null) {
    return refuse(
      s,
      head,
      0,
      `no new baseline accepted: ${chain}; a baseline is accepted only for a log whose chain holds from event #1; run \`vidops audit verify\``,
    );
  }
  const [event] = await s.store.appendAudit([baselineEvent(s, accept, recalled, problem, head)]);
  if (event === undefined) throw new Error('the store appended no baseline event');
  // Events another process appended meanwhile are checked like any others.
  const since = await extendsFrom(s, { size: head?.seq ?? 0, head: head?.hash ?? GENESIS_HASH }, event.seq);
  if (since !== null)
    return refuse(s, head, 0, `no checkpoint signed: ${since}; run \`vidops audit verify\``);
  s.logger?.warn(
    { seq: event.seq, forgotten: recalled.checkpoint?.size ?? null },
    `audit checkpoints: a new baseline was accepted: ${accept.reason}`,
  );
  const forgotten = recalled.checkpoint;
  const result = await sign(s, { seq: event.seq, hash: event.hash }, recalled);
  if (result.kind !== 'written') return result;
  return {
    ...result,
    baseline: {
      forgotten:
        forgotten === null ? null : { size: forgotten.size, head: forgotten.head, time: forgotten.time },
      problem,
      seq: event.seq,
    },
  };
}

/** The whole decision, under the memory's lock. */
async function decide(s: Signing, accept: AcceptBaseline | undefined): Promise<CheckpointResult> {
  const [head, latest] = await Promise.all([s.store.auditHead(), s.store.latestCheckpoint()]);
  const covers = storedCovers(s, latest);
  const covered = typeof covers === 'string' ? 0 : covers.size;
  if (accept === undefined && s.refusedAt !== null && s.refusedAt.seq === (head?.seq ?? 0)) {
    return refuse(s, head, covered, s.refusedAt.reason);
  }
  const recalled = await recall(s);
  const remembering = await memoryProblem(s, recalled, head);
  if (remembering !== null) {
    if (accept !== undefined) return acceptBaseline(s, accept, recalled, remembering, head);
    return refuse(s, head, covered, `no checkpoint signed: ${remembering}; ${REWRITE_HINT}`);
  }
  if (typeof covers === 'string') {
    return refuse(s, head, covered, `no checkpoint signed: ${covers}; run \`vidops audit verify\``);
  }
  if (head === null || head.seq <= covered) {
    return { kind: 'covered', latest, events: head?.seq ?? 0 };
  }
  const problem = await extendsFrom(s, baseOf(latest, covers.ours, recalled.checkpoint), head.seq);
  if (problem !== null) {
    return refuse(s, head, covered, `no checkpoint signed: ${problem}; run \`vidops audit verify\``);
  }
  return sign(s, head, recalled);
}

async function checkExtends(s: Signing): Promise<Refused | null> {
  const head = await s.store.auditHead();
  const problem = await memoryProblem(s, await recall(s), head);
  if (problem === null) return null;
  return refuse(s, head, 0, `no checkpoint signed: ${problem}; ${REWRITE_HINT}`);
}

function checkpointNow(s: Signing, accept?: AcceptBaseline): Promise<CheckpointResult> {
  return s.memory.exclusive(() => decide(s, accept));
}

async function checkIfDue(s: Signing): Promise<CheckpointResult | null> {
  const [head, latest] = await Promise.all([s.store.auditHead(), s.store.latestCheckpoint()]);
  const covers = storedCovers(s, latest);
  // A row that is not its note: the decision refuses, saying so (the alert an operator sees).
  if (typeof covers === 'string') return checkpointNow(s);
  if (head === null || head.seq <= covers.size) return null;
  const byCount = s.every.events !== null && head.seq - covers.size >= s.every.events;
  const since = covers.time === null ? s.startedAt : Date.parse(covers.time);
  const byTime = s.every.ms !== null && s.clock().getTime() - since >= s.every.ms;
  return byCount || byTime ? checkpointNow(s) : null;
}
