import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { examplePlaceholders, FIELDS } from '../config.js';
import { cliActor } from '../core/actor.js';
import {
  createHasher,
  type HashEvent,
  type StoredAuditEvent,
  shortHash,
  type VerifyResult,
  verifyChain,
} from '../core/audit-chain.js';
import {
  CheckpointFormatError,
  type CheckpointVerification,
  checkpointOrigin,
  formatCheckpointFile,
  splitCheckpointFile,
  verifyCheckpoints,
} from '../core/checkpoint.js';
import { ConfigError, InputError, VidopsError } from '../core/errors.js';
import { repeatedMember } from '../core/json.js';
import { maskMobilesInText } from '../core/mask.js';
import type { Actor, AuditEvent } from '../core/model.js';
import { keyLabel, type VerifierKey, verifierKeyOf } from '../core/signed-note.js';
import { tee } from '../core/tee.js';
import { compareWithChannel, tsMs, type WitnessFinding, type WitnessReport } from '../core/witness.js';
import { num } from '../i18n/format.js';
import { ENGLISH, type Lang } from '../i18n/lang.js';
import { loadPublicKey, loadSigningKey, writeKeyPair } from '../services/audit-keys.js';
import { fileMemory, memoryPathFor } from '../services/checkpoint-memory.js';
import { type AcceptBaseline, type CheckpointResult, createCheckpointer } from '../services/checkpoints.js';
import { readChannelHistory } from '../slack/witness.js';
import { type Flags, stringFlag, stringsFlag } from './args.js';
import type { Env, StoreContext } from './context.js';
import { cliTime } from './format.js';

/**
 * The audit log's checkpoint commands: `audit verify` (on the database, or on exported files with
 * no database), `audit checkpoint`, `audit checkpoints`, `audit keygen` and `audit witness`.
 * @see docs/audit-checkpoints.md; docs/architecture.md, "Audit log"; docs/audit.md
 */

/** What these commands need of a CLI run. */
export interface AuditRun {
  cwd: string;
  env: Env;
  flags: Flags;
  out(line: string): void;
  err(line: string): void;
  /** Raw stdout, for files written there. */
  write(chunk: string): void;
  /** Who runs it (recorded when `audit checkpoint --accept-baseline` accepts a new baseline). */
  actor?: Actor;
  /** The language `audit verify` prints (the CLI's); English when not given. */
  lang?: Lang;
}

/** A file named on the command line that cannot be read or is not of its kind: exit 2, like a usage error. */
export class AuditFileError extends VidopsError {}

/** Flags that do not go together: exit 2, like a usage error. */
export class AuditUsageError extends AuditFileError {}

/** At most this many problems are printed; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 20;
const MAX_FINDINGS_SHOWN = 50;

/** A stored time as checkpoints write it: to the second. */
function shownTime(iso: string | undefined): string {
  return iso === undefined ? 'earlier' : iso.replace(/\.000Z$/, 'Z');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/**
 * Checks the chain and the checkpoints in one read of the events (each check reads its own copy
 * of the stream); without checkpoints, only the chain.
 */
async function verifyBoth(
  events: AsyncIterable<AuditEvent | StoredAuditEvent>,
  hash: HashEvent,
  notes: readonly string[],
  keys: readonly VerifierKey[],
  origin: string,
): Promise<{ chain: VerifyResult; checkpoints: CheckpointVerification | null }> {
  if (notes.length === 0) return { chain: await verifyChain(events, hash), checkpoints: null };
  const [forChain, forCheckpoints] = tee(events);
  const [chain, checkpoints] = await Promise.all([
    verifyChain(forChain, hash),
    verifyCheckpoints(forCheckpoints, notes, keys, { origin }),
  ]);
  return { chain, checkpoints };
}

/** The keys `--pubkey` names, plus the public key of `signingKeyFile` when given; each once. */
async function knownKeys(
  run: AuditRun,
  signing: { file: string; logName: string } | null,
): Promise<VerifierKey[]> {
  const keys: VerifierKey[] = [];
  for (const path of stringsFlag(run.flags, 'pubkey')) {
    try {
      keys.push(await loadPublicKey(resolve(run.cwd, path)));
    } catch (error) {
      if (error instanceof InputError) throw new AuditFileError(error.message);
      throw error;
    }
  }
  if (signing !== null) {
    const { key } = await loadSigningKey(resolve(run.cwd, signing.file), signing.logName);
    keys.push(verifierKeyOf(key));
  }
  return keys.filter((k, i) => keys.findIndex((o) => o.keyId === k.keyId && o.name === k.name) === i);
}

/** `audit verify`'s words in the run's language, and its numbers formatted for it. */
function wordsOf(run: AuditRun): { t: Lang['t']['operator']; n: (v: number) => string; english: boolean } {
  const lang = run.lang ?? ENGLISH;
  return { t: lang.t.operator, n: (v) => num(lang, v), english: lang.locale === 'en' };
}

function chainProblem(run: AuditRun, chain: Extract<VerifyResult, { ok: false }>, hmacHint: string): void {
  const { t, n } = wordsOf(run);
  const reason = maskMobilesInText(chain.reason);
  run.err(chain.kind === 'column' ? t.verColumn(reason) : t.verBroken(n(chain.brokenAt), reason));
  run.err(t.verBefore(chain.count, n(chain.count)));
  if (chain.count === 0 && chain.reason.includes('altered')) run.err(hmacHint);
}

/** What the checkpoint check found, on stdout when it holds, stderr when not. Returns whether it holds. */
function reportCheckpoints(run: AuditRun, result: CheckpointVerification, originHint: string): boolean {
  const { t, n, english } = wordsOf(run);
  if (result.ok) {
    const newest = result.newest;
    if (newest === null) return true;
    const signers = [...new Set(result.checkpoints.flatMap((c) => c.signedBy))].join(', ');
    const after = result.events > newest.size ? t.verAfter(n(newest.size + 1), n(result.events)) : '';
    const count = result.checkpoints.length;
    // English prints as it always did (grouped size, ISO time); Persian its digits and calendar.
    const size = english ? newest.size.toLocaleString('en-US') : n(newest.size);
    const time = newest.time === null ? null : cliTime(run.lang ?? ENGLISH, newest.time);
    run.out(`${t.verHold(count, n(count), signers, time, size, result.events, n(result.events))}${after}`);
    return true;
  }
  for (const problem of result.problems.slice(0, MAX_PROBLEMS_SHOWN)) {
    run.err(t.verCheckpointFailed(problem.message));
  }
  if (result.problems.length > MAX_PROBLEMS_SHOWN) {
    run.err(t.verMoreProblems(n(result.problems.length - MAX_PROBLEMS_SHOWN)));
  }
  if (result.problems.some((p) => p.kind === 'origin')) run.err(originHint);
  if (result.problems.some((p) => p.kind === 'unknown-key')) run.err(t.verUnknownKey);
  return false;
}

/**
 * The checkpoint the signing key remembers beside it when the database does not hold it (a crash
 * before it was stored, or its row deleted): checked against the log like the stored ones, so that
 * a log rewritten with its checkpoint rows deleted fails verify as it fails `audit checkpoint`.
 */
async function rememberedNotStored(
  run: AuditRun,
  keyFile: string,
  stateFile: string | undefined,
  stored: readonly string[],
): Promise<{ path: string; note: string } | null> {
  const path = memoryPathFor(resolve(run.cwd, keyFile), stateFile && resolve(run.cwd, stateFile));
  const note = await fileMemory(path).read();
  if (note === null || stored.some((s) => s.trimEnd() === note.trimEnd())) return null;
  return { path, note };
}

/**
 * `vidops audit verify` on the database: the chain with its columns, every stored checkpoint, and
 * the one the signing key remembers when the database does not hold it.
 */
export async function verifyStore(run: AuditRun, ctx: StoreContext): Promise<number> {
  const { config, store } = ctx;
  const origin = checkpointOrigin(config.auditLogName);
  const stored = await store.listCheckpoints();
  const signing =
    config.auditSigningKeyFile === undefined
      ? null
      : { file: config.auditSigningKeyFile, logName: config.auditLogName };
  const notes = stored.map((c) => c.note);
  const remembered =
    signing === null
      ? null
      : await rememberedNotStored(run, signing.file, config.auditCheckpointStateFile, notes);
  if (remembered !== null) notes.push(remembered.note);
  const keys = notes.length === 0 ? [] : await knownKeys(run, signing);
  if (stored.length > 0 && keys.length === 0) {
    throw new ConfigError([
      `the database holds ${plural(stored.length, 'signed checkpoint')} but no public key was given to check them: set AUDIT_SIGNING_KEY_FILE or give --pubkey FILE`,
    ]);
  }
  const { chain, checkpoints } = await verifyBoth(
    store.iterateStoredAudit(),
    createHasher(config.auditHmacKey),
    notes,
    keys,
    origin,
  );
  const { t, n } = wordsOf(run);
  if (chain.ok) {
    const head =
      chain.head === null ? t.verHeadNone : t.verHead(n(chain.head.seq), shortHash(chain.head.hash));
    run.out(t.verChainIntact(chain.count, n(chain.count), head));
  } else {
    chainProblem(run, chain, t.verHmacStore(config.auditHmacKey !== undefined));
  }
  if (remembered !== null) run.out(t.verRemembered(remembered.path));
  if (checkpoints === null) {
    run.out(config.auditSigningKeyFile === undefined ? t.verNoneUnset : t.verNoneYet);
    return chain.ok ? 0 : 1;
  }
  const held = reportCheckpoints(run, checkpoints, t.verOriginStore(origin));
  return chain.ok && held ? 0 : 1;
}

async function readText(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new AuditFileError(`The ${flag} file ${path} cannot be read (${code}).`);
  }
}

/** The events of a JSONL export, oldest first; a line that is not an event stops the check. */
async function* readEventsFile(path: string): AsyncIterable<AuditEvent> {
  const input = createReadStream(path);
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  try {
    for await (const line of lines) {
      n += 1;
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch {
        throw new InputError(`Line ${n} of the events file is not JSON.`);
      }
      if (
        typeof event !== 'object' ||
        event === null ||
        !('seq' in event) ||
        !Number.isSafeInteger(event.seq) ||
        !('hash' in event) ||
        typeof event.hash !== 'string' ||
        !('prevHash' in event) ||
        typeof event.prevHash !== 'string'
      ) {
        throw new InputError(
          `Line ${n} of the events file is not an audit event with seq, prevHash and hash.`,
        );
      }
      // Never a database row's shape, whose outer members no hash covers; never a member written
      // twice, whose first reading no hash covers (JSON.parse keeps the last).
      if ('event' in event || 'columns' in event) {
        throw new InputError(
          `Line ${n} of the events file is not an exported audit event (it has the "event" and "columns" of a database row): event #${String(event.seq)} was altered.`,
        );
      }
      const twice = repeatedMember(line);
      if (twice !== null) {
        throw new InputError(
          `Line ${n} of the events file writes the member ${JSON.stringify(twice)} twice: event #${String(event.seq)} was altered.`,
        );
      }
      if (n === 1 && event.seq !== 1) {
        throw new InputError(
          `The export starts at event #${String(event.seq)}, not #1: export the whole log (without --since or --until).`,
        );
      }
      yield event as AuditEvent;
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

/**
 * `vidops audit verify --events F --checkpoints F --pubkey F…`: the export and the checkpoints
 * file checked with no database and no configuration. Exit 0 only when every event links, every
 * checkpoint is signed by a given key, and the export holds every event the newest one covers.
 */
export async function verifyFiles(run: AuditRun): Promise<number> {
  const eventsPath = resolve(run.cwd, stringFlag(run.flags, 'events') ?? '');
  const checkpointsPath = resolve(run.cwd, stringFlag(run.flags, 'checkpoints') ?? '');
  const keys = await knownKeys(run, null);
  const names = [...new Set(keys.map((k) => k.name))];
  if (names.length !== 1) {
    throw new AuditFileError(
      `The public keys are of different logs (${names.join(', ')}); give those of the log the export is of.`,
    );
  }
  const hmacFile = stringFlag(run.flags, 'hmac-key-file');
  let hmacKey: string | undefined;
  if (hmacFile !== undefined) {
    hmacKey = (await readText(resolve(run.cwd, hmacFile), '--hmac-key-file')).trim();
    if (hmacKey === '') throw new AuditFileError(`The --hmac-key-file file ${hmacFile} is empty.`);
  }
  // A missing events file is a usage error before anything is checked.
  const isFile = await stat(eventsPath).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) throw new AuditFileError(`The --events file ${eventsPath} cannot be read (no such file).`);
  let notes: string[];
  try {
    notes = splitCheckpointFile(await readText(checkpointsPath, '--checkpoints'));
  } catch (error) {
    if (!(error instanceof CheckpointFormatError)) throw error;
    run.err(wordsOf(run).t.verNotCheckpoints(error.message));
    return 1;
  }
  const { t, n } = wordsOf(run);
  if (notes.length === 0) {
    run.err(t.verNoCheckpoint);
    return 1;
  }
  const { chain, checkpoints } = await verifyBoth(
    readEventsFile(eventsPath),
    createHasher(hmacKey),
    notes,
    keys,
    names[0] as string,
  );
  if (chain.ok) run.out(t.verEventsOk(chain.count, n(chain.count)));
  else chainProblem(run, chain, t.verHmacFiles);
  const held = checkpoints !== null && reportCheckpoints(run, checkpoints, t.verOriginFiles(names[0] ?? ''));
  if (chain.ok && held) {
    run.out(t.verOk);
    return 0;
  }
  run.err(t.verExportFailed);
  return 1;
}

/** `vidops audit keygen --out DIR`. */
export async function keygen(run: AuditRun): Promise<number> {
  const parsed = FIELDS.AUDIT_LOG_NAME.safeParse(run.env.AUDIT_LOG_NAME);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `AUDIT_LOG_NAME ${issue.message}`));
  }
  const dir = resolve(run.cwd, stringFlag(run.flags, 'out') ?? '');
  const { key, privatePath, publicPath } = await writeKeyPair(dir, parsed.data);
  run.out(`Made a new audit signing key for ${key.name}.`);
  run.out(`  private key: ${privatePath} (mode 600: keep it secret, off the database server)`);
  run.out(`  public key:  ${publicPath}`);
  run.out(`public key: ${(await readFile(publicPath, 'utf8')).trim()}`);
  run.out(`key ID: ${key.keyId}`);
  run.out(
    `Set AUDIT_SIGNING_KEY_FILE=${privatePath} for the bot and the CLI, and give ${publicPath} to compliance.`,
  );
  return 0;
}

/** The OS user running the command, when the caller did not say who acts. */
function osUserName(env: Env): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'unknown';
  }
}

/** `--accept-baseline --reason "…"`, or undefined without the flag; the flag needs a reason. */
function acceptBaselineOf(run: AuditRun): AcceptBaseline | undefined {
  if (run.flags['accept-baseline'] !== true) return undefined;
  const reason = stringFlag(run.flags, 'reason')?.trim() ?? '';
  if (reason === '') {
    throw new AuditUsageError(
      '--accept-baseline needs --reason "…": why the log no longer extends what the key signed (it is recorded in the audit log).',
    );
  }
  return { actor: run.actor ?? cliActor(osUserName(run.env)), reason };
}

/** What `audit checkpoint` says of a checkpoint it signed (and of the baseline it accepted). */
function reportWritten(
  run: AuditRun,
  result: Extract<CheckpointResult, { kind: 'written' }>,
  signer: string,
  asked: boolean,
): void {
  const { checkpoint, baseline } = result;
  if (baseline !== undefined) {
    const forgotten =
      baseline.forgotten === null
        ? 'what this key remembered could not be read and is replaced'
        : `the checkpoint of ${plural(baseline.forgotten.size, 'event')} this key signed before${baseline.forgotten.time === null ? '' : ` (of ${baseline.forgotten.time})`} is no longer required`;
    run.out(`Accepted a new baseline: ${forgotten}; event #${baseline.seq} records who accepted it and why.`);
  } else if (asked) {
    run.out('The log extends what this key signed before: no new baseline was needed.');
  }
  run.out(
    `Signed the checkpoint of ${plural(checkpoint.size, 'event')} (head #${checkpoint.size} ${shortHash(checkpoint.head)}…) with ${signer}; the bot posts it to the audit channel.`,
  );
}

/**
 * `vidops audit checkpoint [--accept-baseline --reason "…"]`: signs a checkpoint of the head now,
 * only when the log extends what the key remembers it signed before (beside the key file).
 */
export async function checkpointNow(run: AuditRun, ctx: StoreContext, clock: () => Date): Promise<number> {
  const { config, store } = ctx;
  if (config.auditSigningKeyFile === undefined) {
    throw new ConfigError([
      'AUDIT_SIGNING_KEY_FILE is not set: it names the private key that signs checkpoints (`vidops audit keygen` makes one)',
    ]);
  }
  const accept = acceptBaselineOf(run);
  const keyFile = resolve(run.cwd, config.auditSigningKeyFile);
  const { key } = await loadSigningKey(keyFile, config.auditLogName);
  const checkpointer = createCheckpointer({
    store,
    signer: key,
    origin: checkpointOrigin(config.auditLogName),
    hash: createHasher(config.auditHmacKey),
    memory: fileMemory(
      memoryPathFor(
        keyFile,
        config.auditCheckpointStateFile && resolve(run.cwd, config.auditCheckpointStateFile),
      ),
      {
        onStaleLock: (path) =>
          run.err(`note: took over the lock file ${path}, left by a signer that stopped.`),
      },
    ),
    clock,
    every: { events: null, ms: null },
  });
  const result = await checkpointer.checkpointNow(accept);
  switch (result.kind) {
    case 'written':
      reportWritten(run, result, keyLabel(key), accept !== undefined);
      return 0;
    case 'covered':
      run.out(
        result.events === 0
          ? 'The audit log is empty: there is nothing to sign.'
          : `The checkpoint of ${shownTime(result.latest?.time)} covers all ${plural(result.events, 'event')} already: there is nothing new to sign.`,
      );
      return 0;
    case 'taken':
      run.out(`Another process signed the checkpoint of ${plural(result.size, 'event')} at the same time.`);
      return 0;
    case 'refused':
      throw new InputError(`${result.reason.charAt(0).toUpperCase()}${result.reason.slice(1)}.`);
  }
}

/** `vidops audit checkpoints [--out file]`: the stored notes as a checkpoints file. */
export async function exportCheckpoints(run: AuditRun, ctx: StoreContext): Promise<number> {
  const stored = await ctx.store.listCheckpoints();
  if (stored.length === 0) {
    throw new InputError(
      'The database holds no signed checkpoint: the bot signs them when AUDIT_SIGNING_KEY_FILE is set (or run `vidops audit checkpoint`).',
    );
  }
  const text = formatCheckpointFile(stored.map((c) => c.note));
  const out = stringFlag(run.flags, 'out');
  if (out === undefined) {
    run.write(text);
    return 0;
  }
  const handle = await open(resolve(run.cwd, out), 'w', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  const newest = stored.at(-1);
  run.out(
    `wrote ${plural(stored.length, 'checkpoint')} to ${out} (the newest covers ${plural(newest?.size ?? 0, 'event')}).`,
  );
  return 0;
}

const WitnessEnv = z.object({
  SLACK_BOT_TOKEN: FIELDS.SLACK_BOT_TOKEN,
  AUDIT_CHANNEL: FIELDS.AUDIT_CHANNEL,
  SLACK_API_URL: FIELDS.SLACK_API_URL,
});

function findingLine(f: WitnessFinding): string {
  switch (f.kind) {
    case 'missing-from-channel':
      return `missing from the channel: #${f.seq} (hash ${f.short}) was posted, but no line in the channel shows it`;
    case 'not-in-database':
      return f.databaseShort === null
        ? `not in the database: the channel shows #${f.seq} with hash ${f.short} (message ${f.ts}); the database has no event #${f.seq}`
        : `not in the database: the channel shows #${f.seq} with hash ${f.short} (message ${f.ts}); the database's #${f.seq} has hash ${f.databaseShort}`;
    case 'checkpoint-differs':
      return f.databaseHas === 'none'
        ? `checkpoint differs: the channel shows a checkpoint of ${plural(f.size, 'event')} (message ${f.ts}) that the database does not hold`
        : `checkpoint differs: the channel's checkpoint of ${plural(f.size, 'event')} (message ${f.ts}) is not the one the database holds`;
    case 'checkpoint-missing-from-channel':
      return `checkpoint missing from the channel: the checkpoint of ${plural(f.size, 'event')} was posted, but the channel does not show it`;
    case 'checkpoint-unreadable':
      return `checkpoint unreadable: a note the bot posted (message ${f.ts}) is not a checkpoint: ${f.problem}`;
  }
}

/** `vidops audit witness [--since]`: the audit channel's history compared with the database. */
export async function witness(run: AuditRun, ctx: StoreContext, sinceMs: number | null): Promise<number> {
  const parsed = WitnessEnv.safeParse(run.env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`)),
    ...examplePlaceholders(run.env, Object.keys(WitnessEnv.shape)),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const slack = parsed.data;
  const history = await readChannelHistory({
    token: slack.SLACK_BOT_TOKEN,
    channel: slack.AUDIT_CHANNEL,
    slackApiUrl: slack.SLACK_API_URL,
    oldest: sinceMs === null ? undefined : String(sinceMs / 1000),
    onWait: (seconds) => run.err(`note: Slack asked to wait ${seconds} s (rate limit); waiting.`),
  });
  const readFrom =
    sinceMs !== null
      ? sinceMs
      : history.complete
        ? null
        : history.oldestTs === null
          ? null
          : tsMs(history.oldestTs);
  const [stored, undelivered] = await Promise.all([
    ctx.store.listCheckpoints(),
    ctx.store.undeliveredSeqs(1_000_000),
  ]);
  const report = await compareWithChannel({
    events: ctx.store.iterateAudit(),
    lines: history.lines,
    checkpoints: history.checkpoints,
    stored,
    undelivered: new Set(undelivered),
    readFrom,
  });
  printWitness(run, history, report, sinceMs, readFrom);
  return report.findings.length === 0 ? 0 : 1;
}

function printWitness(
  run: AuditRun,
  history: { messages: number; complete: boolean },
  report: WitnessReport,
  sinceMs: number | null,
  readFrom: number | null,
): void {
  const span =
    sinceMs !== null
      ? `since ${new Date(sinceMs).toISOString()}`
      : history.complete
        ? 'the whole history'
        : `the newest ones, back to ${new Date(readFrom ?? 0).toISOString()} (the limit of what is read)`;
  run.out(`read ${plural(history.messages, 'message')} of the audit channel: ${span}`);
  run.out(
    `events: ${plural(report.compared, 'event')} compared with the channel, ${report.notYetPosted} not posted yet, ${report.notCompared} older than what was read`,
  );
  run.out(
    `checkpoints: ${report.checkpointsMatched} match the database, ${report.checkpointsNotYetPosted} not posted yet`,
  );
  for (const finding of report.findings.slice(0, MAX_FINDINGS_SHOWN)) run.err(findingLine(finding));
  if (report.findings.length > MAX_FINDINGS_SHOWN) {
    run.err(`… and ${report.findings.length - MAX_FINDINGS_SHOWN} more.`);
  }
  if (report.othersLines.length > 0) {
    const authors = [...new Set(report.othersLines.map((l) => l.author))].slice(0, 5).join(', ');
    run.err(
      `note: ${plural(report.othersLines.length, 'audit-like line')} posted by someone other than vidops (${authors}) ${report.othersLines.length === 1 ? 'is' : 'are'} not taken as witness.`,
    );
  }
  if (report.findings.length === 0) run.out('witness: the channel and the database agree.');
  else
    run.err(
      `witness: ${plural(report.findings.length, 'discrepancy', 'discrepancies')} between the channel and the database.`,
    );
}
