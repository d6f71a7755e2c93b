import { shortHash } from './audit-chain.js';
import { CheckpointFormatError, parseCheckpoint } from './checkpoint.js';
import type { AuditEvent } from './model.js';
import { NoteFormatError, parseNote } from './signed-note.js';
import { iteratorOf } from './tee.js';

/**
 * The audit channel as a witness of the log: what the channel shows (each event's short hash,
 * each checkpoint's signed note, read back from its history) compared with what the database
 * holds. Pure: the Slack edge reads the history (slack/witness.ts), the CLI prints the report.
 * @see docs/architecture.md, "Audit log"; docs/audit.md
 */

/** An event line read from the channel: `#seq` and the short hash it shows. */
export interface ChannelLine {
  seq: number;
  short: string;
  /** The message's `ts`. */
  ts: string;
  /** Posted by vidops (the bot user); lines by anyone else are not taken as witness. */
  byBot: boolean;
  /** Who posted it, as Slack names them (a user or bot ID). */
  author: string;
  /**
   * A summary's line (a backlog posted as one message): the first seq of the run it stands for,
   * up to `seq`, whose hash vouches for the events before it through the chain.
   */
  covers?: number;
}

/** A checkpoint note read from the channel, as shown (not yet checked). */
export interface ChannelCheckpoint {
  note: string;
  ts: string;
  byBot: boolean;
  author: string;
}

export interface WitnessInput {
  /** The database's events, oldest first. */
  events: Iterable<AuditEvent> | AsyncIterable<AuditEvent>;
  lines: readonly ChannelLine[];
  checkpoints: readonly ChannelCheckpoint[];
  /** The database's checkpoints. */
  stored: readonly { size: number; note: string; postedAt: string | null }[];
  /** Events still in the outbox: not posted yet, so not expected in the channel. */
  undelivered: ReadonlySet<number>;
  /**
   * From when on the channel was read (ms since the epoch): events and checkpoints older than this
   * are not expected in what was read. Null: the whole history was read.
   */
  readFrom: number | null;
}

export type WitnessFinding =
  /** A posted event whose line is not in the channel (deleted, or never shown). */
  | { kind: 'missing-from-channel'; seq: number; short: string }
  /** The channel shows a hash for `#seq` that the database does not have there. */
  | { kind: 'not-in-database'; seq: number; short: string; ts: string; databaseShort: string | null }
  /** A checkpoint the channel shows that is not the database's of that size, or has none. */
  | { kind: 'checkpoint-differs'; size: number; ts: string; databaseHas: 'other' | 'none' }
  /** A checkpoint the database says was posted and the channel does not show. */
  | { kind: 'checkpoint-missing-from-channel'; size: number }
  /** A note in a bot post that is not a checkpoint. */
  | { kind: 'checkpoint-unreadable'; ts: string; problem: string };

export interface WitnessReport {
  /** Events compared with the channel. */
  compared: number;
  /** Events older than what was read, not compared. */
  notCompared: number;
  /** Events not posted yet (in the outbox). */
  notYetPosted: number;
  /** Checkpoints stored but not posted yet. */
  checkpointsNotYetPosted: number;
  /** Checkpoints the channel and the database agree on. */
  checkpointsMatched: number;
  findings: WitnessFinding[];
  /** Audit-like lines posted by someone other than vidops: shown, never taken as witness. */
  othersLines: readonly ChannelLine[];
}

/** The size a note states, read without checking its signature (the database copy is compared as text). */
function sizeOf(note: string): number | string {
  try {
    const parsed = parseNote(note);
    return parseCheckpoint(parsed.text).size;
  } catch (error) {
    if (error instanceof NoteFormatError || error instanceof CheckpointFormatError) return error.message;
    throw error;
  }
}

/** Notes compared as Slack gives them back: the final newline may be gone. */
function sameNote(a: string, b: string): boolean {
  return a.trimEnd() === b.trimEnd();
}

/** Slack's `ts` (seconds since the epoch, with microseconds) in milliseconds. */
export function tsMs(ts: string): number {
  return Math.floor(Number(ts) * 1000);
}

/**
 * Compares the channel with the database, reading the events once: every posted event must show
 * in the channel with its own short hash, every line the bot posted must be an event of the
 * database with that hash, and every checkpoint the bot posted must be one the database holds,
 * note for note (and the other way round for checkpoints marked posted).
 */
export async function compareWithChannel(input: WitnessInput): Promise<WitnessReport> {
  const findings: WitnessFinding[] = [];
  const byBot = input.lines.filter((l) => l.byBot);
  const othersLines = input.lines.filter((l) => !l.byBot);
  const shown = new Map<number, ChannelLine[]>();
  for (const line of byBot) {
    const list = shown.get(line.seq) ?? [];
    list.push(line);
    shown.set(line.seq, list);
  }
  const readFrom = input.readFrom;
  const summaries = byBot.flatMap((l) => (l.covers === undefined ? [] : [{ from: l.covers, to: l.seq }]));
  const summarised = (seq: number) => summaries.some((r) => r.from <= seq && seq < r.to);

  let compared = 0;
  let notCompared = 0;
  let notYetPosted = 0;
  const iterator = iteratorOf(input.events);
  try {
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next()) {
      const event = step.value;
      const short = shortHash(event.hash);
      const lines = shown.get(event.seq) ?? [];
      shown.delete(event.seq);
      for (const line of lines) {
        if (line.short !== short) {
          findings.push({
            kind: 'not-in-database',
            seq: line.seq,
            short: line.short,
            ts: line.ts,
            databaseShort: short,
          });
        }
      }
      if (input.undelivered.has(event.seq)) {
        notYetPosted += 1;
        continue;
      }
      if (readFrom !== null && Date.parse(event.at) < readFrom && lines.length === 0) {
        notCompared += 1;
        continue;
      }
      compared += 1;
      if (!lines.some((line) => line.short === short) && !summarised(event.seq)) {
        findings.push({ kind: 'missing-from-channel', seq: event.seq, short });
      }
    }
  } finally {
    await iterator.return?.();
  }
  // Lines for events the database does not hold at all (cut from its end, or forged).
  for (const [seq, lines] of [...shown].sort(([a], [b]) => a - b)) {
    for (const line of lines) {
      findings.push({ kind: 'not-in-database', seq, short: line.short, ts: line.ts, databaseShort: null });
    }
  }

  const storedBySize = new Map(input.stored.map((c) => [c.size, c]));
  const seenSizes = new Set<number>();
  let checkpointsMatched = 0;
  for (const posted of input.checkpoints.filter((c) => c.byBot)) {
    const size = sizeOf(posted.note);
    if (typeof size === 'string') {
      findings.push({ kind: 'checkpoint-unreadable', ts: posted.ts, problem: size });
      continue;
    }
    seenSizes.add(size);
    const stored = storedBySize.get(size);
    if (stored !== undefined && sameNote(stored.note, posted.note)) {
      checkpointsMatched += 1;
      continue;
    }
    findings.push({
      kind: 'checkpoint-differs',
      size,
      ts: posted.ts,
      databaseHas: stored === undefined ? 'none' : 'other',
    });
  }
  let checkpointsNotYetPosted = 0;
  for (const stored of input.stored) {
    if (stored.postedAt === null) {
      checkpointsNotYetPosted += 1;
      continue;
    }
    if (seenSizes.has(stored.size)) continue;
    if (readFrom !== null && Date.parse(stored.postedAt) < readFrom) continue;
    findings.push({ kind: 'checkpoint-missing-from-channel', size: stored.size });
  }

  return {
    compared,
    notCompared,
    notYetPosted,
    checkpointsNotYetPosted,
    checkpointsMatched,
    findings,
    othersLines,
  };
}
