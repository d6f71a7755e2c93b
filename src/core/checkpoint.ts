import { GENESIS_HASH, type StoredAuditEvent, shortHash } from './audit-chain.js';
import { VidopsError } from './errors.js';
import type { AuditEvent } from './model.js';
import {
  hasControlCharacter,
  isValidKeyName,
  keyLabel,
  NoteFormatError,
  parseNote,
  type SignerKey,
  signNote,
  type VerifierKey,
  verifyNote,
} from './signed-note.js';
import { iteratorOf } from './tee.js';

/**
 * Signed checkpoints of the audit chain, in the C2SP tlog-checkpoint format: a signed note whose
 * text is the origin (`vidops/<deployment name>`), the number of events, the hash of the event at
 * that number in base64, and one extension line `time <ISO-8601 UTC>` saying when it was made.
 * The head is the chain's own hash (SHA-256 or HMAC-SHA256 of the newest covered event), not an
 * RFC 6962 Merkle root: only vidops' verifiers read it.
 * @see docs/audit-checkpoints.md, "Checkpoints" and "What the checks prove"
 */

/** The origin of a deployment's checkpoints: `vidops/<AUDIT_LOG_NAME>` (default `vidops/vidops`). */
export const ORIGIN_PREFIX = 'vidops/';
export const DEFAULT_LOG_NAME = 'vidops';

/** The start of the extension line that says when a checkpoint was made. */
export const TIME_PREFIX = 'time ';

/** ISO-8601 UTC, seconds or finer, `Z`: what `Date.prototype.toISOString` writes, less the milliseconds if wanted. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
const HEX_HASH = /^[0-9a-f]{64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A checkpoint text that is not of the format, or values that cannot make one. */
export class CheckpointFormatError extends VidopsError {}

export interface Checkpoint {
  origin: string;
  /** How many events it covers: events #1 to #size. */
  size: number;
  /** The hash of event #size as the chain writes it (64 lowercase hex digits); 64 zeros for size 0. */
  head: string;
  /** When it was made (ISO-8601 UTC), or null when the checkpoint has no time line. */
  time: string | null;
  /** Extension lines other than the time line, kept as they are. */
  extensions: readonly string[];
}

/** The origin for a deployment name (`AUDIT_LOG_NAME`); the name must be a valid key name. */
export function checkpointOrigin(logName: string = DEFAULT_LOG_NAME): string {
  const origin = `${ORIGIN_PREFIX}${logName}`;
  if (logName === '' || !isValidKeyName(origin)) {
    throw new CheckpointFormatError(
      `The audit log name must be non-empty, without spaces, "+" or control characters (not ${JSON.stringify(logName)}).`,
    );
  }
  return origin;
}

function isIsoUtc(time: string): boolean {
  return ISO_UTC.test(time) && !Number.isNaN(Date.parse(time));
}

/** The checkpoint text (the note's signed body), each line ending in a newline. */
export function formatCheckpoint(
  checkpoint: Omit<Checkpoint, 'extensions'> & { extensions?: readonly string[] },
): string {
  const { origin, size, head, time } = checkpoint;
  if (origin === '' || origin.includes('\n') || hasControlCharacter(origin)) {
    throw new CheckpointFormatError('A checkpoint origin is one non-empty line of printable text.');
  }
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new CheckpointFormatError(`A checkpoint size is a whole number of events, not ${size}.`);
  }
  if (!HEX_HASH.test(head)) throw new CheckpointFormatError('A checkpoint head is 64 lowercase hex digits.');
  if (size === 0 && head !== GENESIS_HASH) {
    throw new CheckpointFormatError('The checkpoint of an empty log has the head 64 zeros.');
  }
  let text = `${origin}\n${size}\n${Buffer.from(head, 'hex').toString('base64')}\n`;
  if (time !== null) {
    if (!isIsoUtc(time)) throw new CheckpointFormatError(`A checkpoint time is ISO-8601 UTC, not "${time}".`);
    text += `${TIME_PREFIX}${time}\n`;
  }
  for (const line of checkpoint.extensions ?? []) {
    if (line === '' || line.includes('\n') || line.startsWith(TIME_PREFIX)) {
      throw new CheckpointFormatError('An extension line is one non-empty line, not a second time line.');
    }
    text += `${line}\n`;
  }
  return text;
}

/**
 * Reads a checkpoint text strictly: at least three lines, none empty, each ending in a newline;
 * a size in decimal without leading zeros; a head of 32 bytes in standard base64; and, if the
 * fourth line starts with `time `, a time in ISO-8601 UTC (one time line at most).
 */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new CheckpointFormatError('The checkpoint does not end with a newline.');
  const lines = text.slice(0, -1).split('\n');
  const empty = lines.indexOf('');
  if (empty !== -1) throw new CheckpointFormatError(`Line ${empty + 1} of the checkpoint is empty.`);
  if (lines.length < 3) {
    throw new CheckpointFormatError('A checkpoint has at least three lines: origin, size, head hash.');
  }
  const [origin = '', sizeText = '', headText = '', ...rest] = lines;
  if (!DECIMAL.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) {
    throw new CheckpointFormatError(
      'Line 2 of the checkpoint is not a size in decimal without leading zeros.',
    );
  }
  const head = BASE64.test(headText) ? Buffer.from(headText, 'base64') : null;
  if (head === null || head.length !== 32 || head.toString('base64') !== headText) {
    throw new CheckpointFormatError('Line 3 of the checkpoint is not a 32-byte hash in base64.');
  }
  let time: string | null = null;
  const extensions: string[] = [];
  rest.forEach((line, i) => {
    if (!line.startsWith(TIME_PREFIX)) {
      extensions.push(line);
      return;
    }
    const value = line.slice(TIME_PREFIX.length);
    if (i !== 0) throw new CheckpointFormatError(`Line ${i + 4}: the time line is line 4, and there is one.`);
    if (!isIsoUtc(value))
      throw new CheckpointFormatError('Line 4 of the checkpoint has a time that is not ISO-8601 UTC.');
    time = value;
  });
  const size = Number(sizeText);
  const hex = head.toString('hex');
  if (size === 0 && hex !== GENESIS_HASH) {
    throw new CheckpointFormatError('The checkpoint of an empty log must have the head 64 zeros.');
  }
  return { origin, size, head: hex, time, extensions };
}

// ---------------------------------------------------------------------------------------------
// What a key signed before

/**
 * Reads the note of the last checkpoint a key signed, as it remembers it beside the key file: a
 * checkpoint of `origin`, and when `key` signed it, a signature that holds. A note signed only by
 * other keys (the key was replaced at the same path) is taken as it reads: it lies beside the key,
 * where the database cannot reach. Throws CheckpointFormatError saying what is wrong.
 */
export function readRememberedCheckpoint(text: string, key: VerifierKey, origin: string): Checkpoint {
  let note: ReturnType<typeof parseNote>;
  try {
    note = parseNote(text);
  } catch (error) {
    if (!(error instanceof NoteFormatError)) throw error;
    throw new CheckpointFormatError(`it is not a signed note: ${sentence(error.message)}.`);
  }
  if (note.signatures.some((s) => s.name === key.name && s.keyId === key.keyId)) {
    const verdict = verifyNote(note, [key]);
    if (!verdict.ok) {
      throw new CheckpointFormatError(`its signature by ${keyLabel(key)} does not hold.`);
    }
  }
  const checkpoint = parseCheckpoint(note.text);
  if (checkpoint.origin !== origin) {
    throw new CheckpointFormatError(
      `it is a checkpoint of ${JSON.stringify(checkpoint.origin)}, not ${JSON.stringify(origin)}.`,
    );
  }
  return checkpoint;
}

/**
 * Why a log does not extend a checkpoint signed before, as a phrase, or null when it does: it must
 * hold at least as many events, and its event at the checkpoint's size must have the checkpoint's
 * head (the chain's links tie every earlier event to it). `hashThere` is the log's hash of event
 * #`remembered.size` (64 zeros for size 0), or null when the log has no such event.
 */
export function extensionProblem(
  remembered: { size: number; head: string },
  log: { size: number; hashThere: string | null },
): string | null {
  const { size, head } = remembered;
  if (log.size < size || log.hashThere === null) {
    return `the log holds ${log.size} event${log.size === 1 ? '' : 's'}, fewer than the ${size} this key signed for`;
  }
  if (log.hashThere !== head) {
    return `the log's event #${size} has hash ${shortHash(log.hashThere)}, not ${shortHash(head)} as signed`;
  }
  return null;
}

/** A checkpoint made and signed: the whole note, as text. */
export function signCheckpoint(
  checkpoint: { origin: string; size: number; head: string; time: string | null },
  signers: readonly SignerKey[],
): string {
  return signNote(formatCheckpoint(checkpoint), signers);
}

// ---------------------------------------------------------------------------------------------
// The checkpoints file

/**
 * Splits a checkpoints file into its notes. The file holds signed checkpoint notes one after the
 * other, each followed by one empty line (so appending a note is writing it and a newline); the
 * empty line after the last note may be missing. A checkpoint's text has no empty line, so each
 * note is: its text lines, an empty line, its signature lines.
 */
export function splitCheckpointFile(file: string): string[] {
  if (file === '') return [];
  if (!file.endsWith('\n'))
    throw new CheckpointFormatError('The checkpoints file does not end with a newline.');
  const lines = file.slice(0, -1).split('\n');
  const notes: string[] = [];
  let body: string[] = [];
  let signatures: string[] | null = null;
  for (const [i, line] of lines.entries()) {
    const where = `Line ${i + 1} of the checkpoints file`;
    if (signatures === null) {
      if (line !== '') body.push(line);
      else if (body.length === 0)
        throw new CheckpointFormatError(`${where} is empty where a note should start.`);
      else signatures = [];
    } else if (line.startsWith('\u2014 ')) {
      signatures.push(line);
    } else if (line === '' && signatures.length > 0) {
      notes.push(`${body.join('\n')}\n\n${signatures.join('\n')}\n`);
      body = [];
      signatures = null;
    } else {
      throw new CheckpointFormatError(
        `${where} is ${line === '' ? 'empty where a signature line should be' : 'neither a signature line nor the empty line after a note'}.`,
      );
    }
  }
  if (signatures !== null && signatures.length > 0) {
    notes.push(`${body.join('\n')}\n\n${signatures.join('\n')}\n`);
  } else if (body.length > 0 || signatures !== null) {
    throw new CheckpointFormatError('The checkpoints file ends inside a note, before its signatures.');
  }
  return notes;
}

/** The file text for `notes`: each note followed by one empty line. */
export function formatCheckpointFile(notes: readonly string[]): string {
  return notes.map((note) => `${note}\n`).join('');
}

// ---------------------------------------------------------------------------------------------
// Verifying checkpoints against the log

export type CheckpointProblemKind =
  /** Not a signed note, or not a checkpoint. */
  | 'malformed'
  /** Signed by no known key. */
  | 'unknown-key'
  /** A known key's signature does not hold. */
  | 'bad-signature'
  /** Another log's checkpoint. */
  | 'origin'
  /** The log does not hold as many events as the checkpoint covers. */
  | 'missing-events'
  /** The log's event at the checkpoint's size has another hash. */
  | 'head-mismatch';

export interface CheckpointProblem {
  kind: CheckpointProblemKind;
  /** Which checkpoint: `checkpoint of <time>`, `checkpoint #<n>` (its place in the list) when it has no time. */
  checkpoint: string;
  /** One sentence, without a final full stop. */
  message: string;
}

/** A checkpoint whose signature holds, with the keys that signed it (`<name>+<key ID>`). */
export interface SignedCheckpoint extends Checkpoint {
  signedBy: readonly string[];
}

export interface CheckpointVerification {
  /** Every checkpoint is signed by a known key, of this log, and matches the log. */
  ok: boolean;
  /** Events read. */
  events: number;
  /** The `seq` of the last event read, 0 when there is none. */
  lastSeq: number;
  /** The checkpoints whose signature and origin hold, smallest first. */
  checkpoints: readonly SignedCheckpoint[];
  /** The largest of them, or null. */
  newest: SignedCheckpoint | null;
  /** Each problem found: those of the notes in their order, then those against the log by size. */
  problems: readonly CheckpointProblem[];
}

/** How a checkpoint is named in a message. */
export function checkpointName(time: string | null, position: number): string {
  return time === null ? `checkpoint #${position}` : `checkpoint of ${time}`;
}

/** An error's message inside a longer sentence: without its final full stop. */
function sentence(message: string): string {
  return message.replace(/\.$/, '');
}

/** The claimed time of an unverified note, only to name it (never trusted for anything else). */
function claimedTime(noteText: string): string | null {
  try {
    const split = noteText.lastIndexOf('\n\n');
    return split === -1 ? null : parseCheckpoint(noteText.slice(0, split + 1)).time;
  } catch {
    return null;
  }
}

/** Reads, checks the signature and the origin of one note; a problem or the checkpoint. */
function openCheckpoint(
  note: string,
  position: number,
  keys: readonly VerifierKey[],
  origin: string,
): CheckpointProblem | SignedCheckpoint {
  const problem = (kind: CheckpointProblemKind, name: string, message: string): CheckpointProblem => ({
    kind,
    checkpoint: name,
    message: `${name} ${message}`,
  });
  let parsed: ReturnType<typeof parseNote>;
  try {
    parsed = parseNote(note);
  } catch (error) {
    if (!(error instanceof NoteFormatError)) throw error;
    return problem(
      'malformed',
      checkpointName(claimedTime(note), position),
      `is not a signed note: ${sentence(error.message)}`,
    );
  }
  const verdict = verifyNote(parsed, keys);
  if (!verdict.ok) {
    const name = checkpointName(claimedTime(note), position);
    return verdict.problem === 'bad-signature'
      ? problem(
          'bad-signature',
          name,
          `was signed by key ${keyLabel(verdict.key)} but the signature does not hold`,
        )
      : problem(
          'unknown-key',
          name,
          `is not signed by any known key (it names ${verdict.signedBy.join(', ')})`,
        );
  }
  let checkpoint: Checkpoint;
  try {
    checkpoint = parseCheckpoint(verdict.text);
  } catch (error) {
    if (!(error instanceof CheckpointFormatError)) throw error;
    return problem(
      'malformed',
      checkpointName(null, position),
      `is not a checkpoint: ${sentence(error.message)}`,
    );
  }
  const name = checkpointName(checkpoint.time, position);
  if (checkpoint.origin !== origin) {
    return problem(
      'origin',
      name,
      `is of the log ${JSON.stringify(checkpoint.origin)}, not ${JSON.stringify(origin)}`,
    );
  }
  return { ...checkpoint, signedBy: verdict.verifiedBy.map(keyLabel) };
}

/**
 * Checks signed checkpoints against the events of the chain, in one pass over the events:
 * every checkpoint must be signed by one of `keys` (several keys: old checkpoints keep verifying
 * after a key rotation), be of `origin`, cover no more events than the log holds, and name as its
 * head the stored hash of the event at its size. Events are matched by `seq`; their own hashes
 * and links are `verifyChain`'s to check, so run both (they take the same stream, events or
 * events with their stored columns, so one read of the log can feed both: core/tee.ts).
 */
export async function verifyCheckpoints(
  events: Iterable<AuditEvent | StoredAuditEvent> | AsyncIterable<AuditEvent | StoredAuditEvent>,
  notes: readonly string[],
  keys: readonly VerifierKey[],
  options: { origin: string },
): Promise<CheckpointVerification> {
  const problems: CheckpointProblem[] = [];
  const held: { checkpoint: SignedCheckpoint; position: number }[] = [];
  notes.forEach((note, i) => {
    const opened = openCheckpoint(note, i + 1, keys, options.origin);
    if ('kind' in opened) problems.push(opened);
    else held.push({ checkpoint: opened, position: i + 1 });
  });
  // Stable: checkpoints of the same size stay in the order they were given.
  held.sort((a, b) => a.checkpoint.size - b.checkpoint.size);

  const against: CheckpointProblem[] = [];
  const mismatch = (entry: (typeof held)[number], actual: string) => {
    const { checkpoint, position } = entry;
    const name = checkpointName(checkpoint.time, position);
    against.push({
      kind: 'head-mismatch',
      checkpoint: name,
      message:
        checkpoint.size === 0
          ? `${name} covers no event but its head is not 64 zeros`
          : `${name} says event #${checkpoint.size} has hash ${shortHash(checkpoint.head)} but the log's event #${checkpoint.size} has hash ${shortHash(actual)}`,
    });
  };

  let next = 0;
  /** The next checkpoint to settle when its size passes `test`, or undefined. */
  const nextIf = (test: (size: number) => boolean) => {
    const entry = held[next];
    return entry !== undefined && test(entry.checkpoint.size) ? entry : undefined;
  };
  // A checkpoint of size 0 holds the hash every chain starts from.
  for (let entry = nextIf((size) => size === 0); entry; entry = nextIf((size) => size === 0)) {
    if (entry.checkpoint.head !== GENESIS_HASH) mismatch(entry, GENESIS_HASH);
    next += 1;
  }
  let count = 0;
  let lastSeq = 0;
  const iterator = iteratorOf(events);
  try {
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next()) {
      // Events as a store reads them with their columns are taken as their events.
      const entry = step.value;
      const event = 'columns' in entry ? entry.event : entry;
      count += 1;
      lastSeq = event.seq;
      // A checkpoint whose event was skipped (a gap in seq).
      for (
        let entry = nextIf((size) => size < event.seq);
        entry;
        entry = nextIf((size) => size < event.seq)
      ) {
        const { size, time } = entry.checkpoint;
        const name = checkpointName(time, entry.position);
        against.push({
          kind: 'missing-events',
          checkpoint: name,
          message: `event #${size} is missing: ${name} covers it, the log has no event #${size}`,
        });
        next += 1;
      }
      for (
        let entry = nextIf((size) => size === event.seq);
        entry;
        entry = nextIf((size) => size === event.seq)
      ) {
        if (entry.checkpoint.head !== event.hash) mismatch(entry, event.hash);
        next += 1;
      }
    }
  } finally {
    await iterator.return?.();
  }
  for (const entry of held.slice(next)) {
    const { size, time } = entry.checkpoint;
    const name = checkpointName(time, entry.position);
    against.push({
      kind: 'missing-events',
      checkpoint: name,
      message: `events #${lastSeq + 1}… are missing: ${name} covers ${size} event${size === 1 ? '' : 's'}, the log holds ${count}`,
    });
  }
  problems.push(...against);
  const checkpoints = held.map((h) => h.checkpoint);
  return {
    ok: problems.length === 0,
    events: count,
    lastSeq,
    checkpoints,
    newest: checkpoints.at(-1) ?? null,
    problems,
  };
}
