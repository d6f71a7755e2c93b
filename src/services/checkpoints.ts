import { performance } from 'node:perf_hooks';
import { GENESIS_HASH, type HashEvent, shortHash } from '../core/audit-chain.js';
import { CheckpointFormatError, parseCheckpoint, signCheckpoint } from '../core/checkpoint.js';
import {
  NoteFormatError,
  parseNote,
  type SignerKey,
  verifierKeyOf,
  verifyNote,
} from '../core/signed-note.js';
import type { Store, StoredCheckpoint } from '../store/store.js';
import type { ServiceLogger } from './types.js';

/**
 * Signed checkpoints of the audit chain: "the log holds N events and event #N has hash H", signed
 * with the deployment's Ed25519 key and kept in the store, from where the audit publisher posts it
 * to the audit channel. The bot makes one after every `every.events` events or `every.ms`,
 * whichever comes first, and one at shutdown; `vidops audit checkpoint` makes one at once.
 *
 * Before signing, the events since the previous checkpoint are checked to extend it: each hash
 * recomputed, each `prevHash` the one before, from the previous checkpoint's head. A key never
 * vouches for a chain that does not extend what it vouched for before.
 * @see docs/audit-checkpoints.md; docs/architecture.md, "Audit log"
 */

export interface CheckpointerOptions {
  store: Store;
  signer: SignerKey;
  /** `vidops/<AUDIT_LOG_NAME>`, the signer's name. */
  origin: string;
  /** The chain's hash (SHA-256 or HMAC), to check the events before signing them. */
  hash: HashEvent;
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

export type CheckpointResult =
  /** A new checkpoint, written by this call. */
  | { kind: 'written'; checkpoint: StoredCheckpoint }
  /** Nothing new to vouch for: the log is empty or its head is covered already. */
  | { kind: 'covered'; latest: StoredCheckpoint | null; events: number }
  /** Another process wrote a checkpoint of this size first. */
  | { kind: 'taken'; size: number }
  /** The events since the previous checkpoint do not extend it; nothing was signed. */
  | { kind: 'refused'; reason: string };

export interface Checkpointer {
  /** Signs and keeps a checkpoint of the current head if it covers events no checkpoint covers. */
  checkpointNow(): Promise<CheckpointResult>;
  /** The same, only when one is due (by count or time); null when none is. */
  checkIfDue(): Promise<CheckpointResult | null>;
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

export function createCheckpointer(options: CheckpointerOptions): Checkpointer {
  const { store, signer, origin, hash, clock, every, logger, onWritten } = options;
  const pollMs = options.pollMs ?? 30_000;
  const minGapMs = options.minGapMs ?? 1000;
  const ownKey = verifierKeyOf(signer);
  const startedAt = clock().getTime();

  /** The head a refusal was for: not checked again until the head moves. */
  let refusedAt: { seq: number; reason: string } | null = null;

  /** The size and head the previous checkpoint states in its note, or why it cannot be used. */
  function previousHead(latest: StoredCheckpoint | null): { size: number; head: string } | string {
    if (latest === null) return { size: 0, head: GENESIS_HASH };
    try {
      const note = parseNote(latest.note);
      // A note by this key must hold; one by an earlier key (before a rotation) is taken as it reads.
      if (note.signatures.some((s) => s.name === ownKey.name && s.keyId === ownKey.keyId)) {
        const verdict = verifyNote(note, [ownKey]);
        if (!verdict.ok) return `the stored checkpoint of ${latest.size} events does not verify`;
      }
      const stated = parseCheckpoint(note.text);
      if (stated.origin !== origin || stated.size !== latest.size || stated.head !== latest.head) {
        return `the stored checkpoint of ${latest.size} events says something else in its note`;
      }
      return { size: stated.size, head: stated.head };
    } catch (error) {
      if (error instanceof NoteFormatError || error instanceof CheckpointFormatError) {
        return `the stored checkpoint of ${latest.size} events is not a checkpoint: ${error.message}`;
      }
      throw error;
    }
  }

  /** Checks that events #from+1…#to link to `head` and hash right; a sentence when they do not. */
  async function extends_(from: { size: number; head: string }, to: number): Promise<string | null> {
    let prevHash = from.head;
    let expected = from.size + 1;
    while (expected <= to) {
      const page = await store.listAudit({
        afterSeq: expected - 1,
        limit: Math.min(PAGE, to - expected + 1),
      });
      if (page.length === 0) return `event #${expected} is missing`;
      for (const event of page) {
        if (event.seq !== expected) return `event #${expected} is missing (the next is #${event.seq})`;
        if (event.prevHash !== prevHash) {
          return `event #${event.seq} does not link to ${expected === from.size + 1 && from.size > 0 ? `the checkpoint of ${from.size} events` : `event #${expected - 1}`}`;
        }
        if (hash(event) !== event.hash) return `event #${event.seq} was altered (its hash does not match)`;
        prevHash = event.hash;
        expected += 1;
      }
    }
    return null;
  }

  async function checkpointNow(): Promise<CheckpointResult> {
    const [head, latest] = await Promise.all([store.auditHead(), store.latestCheckpoint()]);
    const covered = latest?.size ?? 0;
    if (head === null || head.seq <= covered) {
      return { kind: 'covered', latest, events: head?.seq ?? 0 };
    }
    if (refusedAt !== null && refusedAt.seq === head.seq)
      return { kind: 'refused', reason: refusedAt.reason };
    const previous = previousHead(latest);
    const problem = typeof previous === 'string' ? previous : await extends_(previous, head.seq);
    if (problem !== null) {
      const reason = `no checkpoint signed: ${problem}; run \`vidops audit verify\``;
      if (refusedAt?.reason !== reason) logger?.error({ head: head.seq, covered }, reason);
      refusedAt = { seq: head.seq, reason };
      return { kind: 'refused', reason };
    }
    refusedAt = null;
    const time = checkpointTime(clock());
    const note = signCheckpoint({ origin, size: head.seq, head: head.hash, time }, [signer]);
    const written = await store.addCheckpoint({ size: head.seq, head: head.hash, time, note });
    if (!written) return { kind: 'taken', size: head.seq };
    const checkpoint: StoredCheckpoint = { size: head.seq, head: head.hash, time, note, postedAt: null };
    logger?.info(
      { size: head.seq, head: shortHash(head.hash) },
      `signed the audit checkpoint of ${head.seq} events`,
    );
    onWritten?.(checkpoint);
    return { kind: 'written', checkpoint };
  }

  async function checkIfDue(): Promise<CheckpointResult | null> {
    const [head, latest] = await Promise.all([store.auditHead(), store.latestCheckpoint()]);
    const covered = latest?.size ?? 0;
    if (head === null || head.seq <= covered) return null;
    const byCount = every.events !== null && head.seq - covered >= every.events;
    const since = latest === null ? startedAt : Date.parse(latest.time);
    const byTime = every.ms !== null && clock().getTime() - since >= every.ms;
    return byCount || byTime ? checkpointNow() : null;
  }

  let running = false;
  let loop: Promise<void> | null = null;
  let kicked = false;
  let lastLook = Number.NEGATIVE_INFINITY;
  let wake: (() => void) | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      timer.unref();
      wake = done;
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
    });

  async function run(): Promise<void> {
    while (running) {
      const sinceLook = performance.now() - lastLook;
      const wait = kicked ? minGapMs - sinceLook : pollMs - sinceLook;
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      kicked = false;
      lastLook = performance.now();
      try {
        await checkIfDue();
      } catch (error) {
        logger?.error(
          { err: { message: error instanceof Error ? error.message : String(error) } },
          'could not make an audit checkpoint; will try again',
        );
      }
    }
  }

  return {
    checkpointNow,
    checkIfDue,
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    kick() {
      kicked = true;
      wake?.();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
  };
}
