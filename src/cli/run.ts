import { readFile as fsReadFile, open } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { loadCliConfig } from '../config.js';
import { type Caller, callerOf, cliActor } from '../core/actor.js';
import { isPastExpiry } from '../core/approvals.js';
import { neutraliseBidi } from '../core/bidi.js';
import { type ChangeOperation, OPERATION_SPECS, operationTitle, type Spec } from '../core/catalog.js';
import { SLASH_COMMAND } from '../core/commands-help.js';
import { ConfigError, InputError, VidopsError, wasNotSent } from '../core/errors.js';
import { type ParseOptions, parseWords } from '../core/grammar.js';
import { normalizeRequestId } from '../core/ids.js';
import { maskMobilesInJson, maskMobilesInText } from '../core/mask.js';
import { type AuditEvent, type OperationRequest, TERMINAL_STATES } from '../core/model.js';
import { CHANGE_OPERATIONS, type OperationName, READ_OPERATIONS } from '../core/operations.js';
import { explainCode, normalizeErrorCode } from '../core/player-errors.js';
import { mayApprove, type Policy } from '../core/policy.js';
import type { Said } from '../core/said.js';
import { wordsInput } from '../core/shapes.js';
import { type BoxAsked, readWindow } from '../core/time-box.js';
import { normalizeDigits } from '../core/validate/digits.js';
import { parseResourceId } from '../core/validate/ids.js';
import { parseMobile } from '../core/validate/phone.js';
import { num } from '../i18n/format.js';
import { ENGLISH, type Lang, langFor } from '../i18n/lang.js';
import { DEFAULT_TIME_ZONE, isLocale, isTimeZone, localeOf } from '../i18n/locale.js';
import { english, messageOf, sayWith } from '../i18n/said.js';
import { spec as fileEdit } from '../operations/file-edit/spec.js';
import { spec as viewerUnblock } from '../operations/viewer-unblock/spec.js';
import type { DecisionResult, Prepared, PrepareInput, SubmitResult } from '../services/types.js';
import { loadEnv } from '../trusted-file.js';
import { viewerHistoryLines } from '../views/viewer-history.js';
import {
  type CliCommand,
  type FlagName,
  type Flags,
  parseInvocation,
  stringFlag,
  stringsFlag,
} from './args.js';
import {
  AuditFileError,
  type AuditRun,
  checkpointNow,
  exportCheckpoints,
  keygen,
  verifyFiles,
  verifyStore,
  witness,
} from './audit.js';
import { backup } from './backup.js';
import {
  type Env,
  type FullContext,
  openFullContext,
  openStoreContext,
  type StoreContext,
} from './context.js';
import { coverFromFile, createCoverFetcher, type ReadFile } from './cover.js';
import { doctor } from './doctor.js';
import {
  auditCsvHeader,
  auditCsvLine,
  auditJsonLine,
  auditTailLine,
  cliTargetOf,
  commandHelp,
  compactJson,
  errorWords,
  explainLines,
  generalHelp,
  pendingLines,
  previewLines,
  protectionLines,
  requestLine,
  timeBoxReport,
  unblockedLine,
  usageError,
  whitelistLines,
  windowLines,
} from './format.js';
import { resolveReport, resolveWayOf } from './resolve.js';
import { type BatchRun, batchText, type CliStdin, unblockMany } from './unblock-many.js';

/**
 * The `vidops` CLI, run in-process: argv in, exit code out. Same grammar, policy, services and
 * audit log as the slash command; the store and the API client are opened per run and closed.
 * @see docs/architecture.md, "Slash command grammar" and "Audit log"
 */

/** Where the CLI writes and what it reads; tests pass their own. */
export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  env: Env;
  cwd: string;
  clock?: () => Date;
  readFile?: ReadFile;
  /** The OS user running the command; default: the process's user. */
  osUser?: string;
  /** Standard input: `vidops unblock -` reads its numbers there, and asks there to confirm. */
  stdin?: CliStdin;
}

/** Wrong words or flags: exit 2 with the usage of the command. */
class UsageError extends VidopsError {
  constructor(
    message: string,
    readonly command: CliCommand | null,
  ) {
    super(message);
  }
}

/** A refusal or failure already explained to the person: exit 1 with these lines on stderr. */
class Refusal extends VidopsError {}

const TAIL_DEFAULT = 10;
const TAIL_MAX = 1000;
const REQUESTS_LIMIT = 50;
const RECENT_FINISHED = 10;
const PENDING_SCAN_LIMIT = 500;
const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;
const EXPORT_FLUSH_BYTES = 64 * 1024;

interface Run {
  io: CliIo;
  /** The language printed: `--lang`, else `LANG`, else English. */
  lang: Lang;
  command: CliCommand;
  words: string[];
  flags: Flags;
  env: Env;
  clock: () => Date;
  readFile: ReadFile;
  out(line: string): void;
  err(line: string): void;
}

/** Flag values checked before anything is opened or sent. */
interface Checked {
  actor: Caller;
  /** `audit export`. */
  format: 'jsonl' | 'csv';
  since: TimeBound | null;
  until: TimeBound | null;
  /** `audit tail -n`. */
  lines: number;
}

interface TimeBound {
  ms: number;
  inclusive: boolean;
}

/**
 * Runs one CLI invocation. Exit codes: 0 success, 1 refused or failed (message on stderr),
 * 2 usage or configuration error (usage on stderr).
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const chosen = cliLang(argv, io.env);
  const lang = chosen.lang;
  if (chosen.problem !== null) {
    io.stderr.write(usageError(chosen.problem, null, lang));
    return 2;
  }
  const invocation = parseInvocation(argv, lang);
  if (invocation.kind === 'help') {
    io.stdout.write(invocation.command === null ? generalHelp(lang) : commandHelp(invocation.command, lang));
    return 0;
  }
  if (invocation.kind === 'usage') {
    io.stderr.write(usageError(invocation.message, invocation.command, lang));
    return 2;
  }
  const readFile: ReadFile = io.readFile ?? ((path) => fsReadFile(path));
  const run: Run = {
    io,
    lang,
    command: invocation.command,
    words: invocation.words,
    flags: invocation.flags,
    env: {},
    clock: io.clock ?? (() => new Date()),
    readFile,
    out: (line) => io.stdout.write(`${line}\n`),
    err: (line) => io.stderr.write(`${line}\n`),
  };
  try {
    const checked = checkFlags(run);
    run.env = await loadEnv(io.env, io.cwd);
    // `.env` may set DISPLAY_TIME_ZONE (or LANG) too.
    run.lang = cliLang(argv, run.env).lang;
    return await dispatch(run, checked);
  } catch (error) {
    return report(run, error);
  }
}

/**
 * The language the CLI prints: `--lang fa|en`, else the shell's `LANG` (`fa_IR.UTF-8` is Persian),
 * else English; dates in `DISPLAY_TIME_ZONE` (default Asia/Tehran). A `--lang` vidops does not
 * speak is a usage error, said in English.
 * @see docs/architecture.md, "Languages"
 */
export function cliLang(argv: readonly string[], env: Env): { lang: Lang; problem: string | null } {
  let flag: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === '--lang') flag = argv[i + 1] ?? '';
    else if (arg.startsWith('--lang=')) flag = arg.slice('--lang='.length);
  });
  const zone = env.DISPLAY_TIME_ZONE?.trim() || DEFAULT_TIME_ZONE;
  const timeZone = isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
  const wanted = flag?.trim().toLowerCase();
  if (wanted !== undefined && !isLocale(wanted)) {
    return { lang: langFor('en', timeZone), problem: ENGLISH.t.cli.cliLangFlag(flag ?? '') };
  }
  // A zone this Node does not know is refused with the configuration (src/config.ts).
  return { lang: langFor(wanted ?? localeOf(env.LANG) ?? 'en', timeZone), problem: null };
}

/** Every operation name, longest first so that no name matches inside a longer one. */
const OPERATION_NAME = new RegExp(
  `(?<![\\w.])(${[...CHANGE_OPERATIONS, ...READ_OPERATIONS]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace('.', '\\.'))
    .join('|')})(?![\\w.])`,
  'g',
);

/**
 * Messages in the words of people: an operation name that reached a message (an upstream error
 * says which call failed) is written as its title, `whitelist.set` → `Update whitelist`.
 */
export function peopleWords(text: string): string {
  return text.replace(OPERATION_NAME, (name) => operationTitle(name as OperationName));
}

/**
 * What the CLI writes for a message from elsewhere: people's words, mobile numbers masked, and no
 * bidi control that could reorder the line in a terminal (only paired isolates stay).
 */
function shown(text: string): string {
  return neutraliseBidi(maskMobilesInText(peopleWords(text)));
}

function report(run: Run, error: unknown): number {
  const t = run.lang.t.cli;
  if (error instanceof UsageError) {
    run.io.stderr.write(usageError(error.message, error.command, run.lang));
    return 2;
  }
  if (error instanceof AuditFileError) {
    run.err(`vidops: ${error.message}`);
    return 2;
  }
  if (error instanceof ConfigError) {
    run.err(`vidops: ${error.message}`);
    run.err(t.cliConfigHint);
    return 2;
  }
  if (error instanceof InputError) {
    const message = messageOf(error);
    run.err(`vidops: ${shown(message)}`);
    for (const issue of error.issues) {
      if (!message.includes(issue)) run.err(`  - ${shown(issue)}`);
    }
    return 1;
  }
  if (error instanceof VidopsError) {
    // ApiError messages name the operation and status, never the keys (client/errors).
    run.err(`vidops: ${shown(messageOf(error))}`);
    return 1;
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  run.err(`vidops: ${t.cliUnexpected(shown(text))}`);
  return 1;
}

/** Every flag value, read and checked up front: a usage error opens no database and sends nothing. */
function checkFlags(run: Run): Checked {
  const t = run.lang.t.cli;
  const id = run.command.id;
  const { operation } = run.command;
  // A change whose fields are all optional (a playlist edit) still needs one of them.
  const fields = (operation === undefined ? [] : OPERATION_SPECS[operation].fields) as readonly FlagName[];
  const noneRequired = !fields.some((f) => run.command.required.includes(f));
  if (fields.length > 0 && noneRequired && fields.every((f) => run.flags[f] === undefined)) {
    throw new UsageError(t.cliGiveFields(fields.map((f) => `--${f}`)), run.command);
  }
  if (id === 'resolve') {
    const way = resolveWayOf(run.flags, run.lang);
    if (!way.ok) throw new UsageError(way.message, run.command);
  }
  let format: Checked['format'] = 'jsonl';
  if (id === 'audit export') {
    const raw = stringFlag(run.flags, 'format')?.trim().toLowerCase();
    if (raw !== 'jsonl' && raw !== 'csv') {
      throw new UsageError(t.cliFormatFlag(stringFlag(run.flags, 'format') ?? ''), run.command);
    }
    format = raw;
  }
  if (id === 'audit verify') checkVerifyFlags(run);
  const raw = stringFlag(run.flags, 'lines')?.trim();
  const lines = raw === undefined ? TAIL_DEFAULT : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(lines) || lines < 1 || lines > TAIL_MAX) {
    throw new UsageError(t.cliLinesFlag(num(run.lang, TAIL_MAX), raw ?? ''), run.command);
  }
  return {
    actor: actorOf(run),
    format,
    since: timeBound(run, 'since'),
    until: timeBound(run, 'until'),
    lines,
  };
}

/** `audit verify` checks the database, or with `--events` files alone: never half of each. */
function checkVerifyFlags(run: Run): void {
  const t = run.lang.t.cli;
  const events = run.flags.events !== undefined;
  const checkpoints = run.flags.checkpoints !== undefined;
  if (events !== checkpoints) {
    throw new UsageError(t.cliVerifyBoth, run.command);
  }
  if (events && stringsFlag(run.flags, 'pubkey').length === 0) {
    throw new UsageError(t.cliVerifyPubkey, run.command);
  }
  if (!events && run.flags['hmac-key-file'] !== undefined) {
    throw new UsageError(t.cliVerifyHmac, run.command);
  }
}

function auditRun(run: Run): AuditRun {
  return {
    cwd: run.io.cwd,
    env: run.env,
    flags: run.flags,
    out: run.out,
    err: run.err,
    write: (chunk) => run.io.stdout.write(chunk),
    lang: run.lang,
  };
}

async function dispatch(run: Run, checked: Checked): Promise<number> {
  // Files alone: no database, no configuration.
  if (run.command.id === 'audit verify' && run.flags.events !== undefined) return verifyFiles(auditRun(run));
  switch (run.command.needs) {
    case 'none':
      if (run.command.id === 'backup') return backup(auditRun(run), run.words[0] ?? '', run.lang);
      if (run.command.id === 'doctor') return doctor(auditRun(run), run.clock, run.lang);
      return run.command.id === 'audit keygen' ? keygen(auditRun(run)) : explain(run);
    case 'store': {
      const ctx = await openStoreContext(run.env, opening(run));
      try {
        return await storeCommand(run, ctx, checked);
      } finally {
        await ctx.close();
      }
    }
    case 'full': {
      const config = loadCliConfig(run.env);
      const phone = { regions: config.phoneRegions };
      const many =
        run.command.id === 'unblock' ? await batchText(batchRun(run), config.phoneRegion, phone) : null;
      if (many !== null) {
        const ctx = await openFullContext(config, opening(run));
        try {
          return await unblockMany(batchRun(run), ctx, many, checked.actor, reasonOf(run));
        } finally {
          await ctx.close();
        }
      }
      // The words and flags are read before anything is opened: a refused number costs no connection.
      const asked = await readChange(run, {
        phoneRegion: config.phoneRegion,
        phoneRegions: config.phoneRegions,
      });
      const ctx = await openFullContext(config, opening(run));
      try {
        return await fullCommand(run, ctx, asked, checked.actor);
      } finally {
        await ctx.close();
      }
    }
  }
}

/** What `vidops unblock` with many numbers reads of the run. */
function batchRun(run: Run): BatchRun {
  return {
    lang: run.lang,
    words: run.words,
    flags: run.flags,
    cwd: run.io.cwd,
    readFile: run.readFile,
    stdin: run.io.stdin,
    out: run.out,
    err: run.err,
    ask: (text) => run.io.stderr.write(text),
    usage: (message) => new UsageError(message, run.command),
  };
}

/** What opening the store or the services reads of the run. */
function opening(run: Run) {
  return { cwd: run.io.cwd, readFile: run.readFile, clock: run.clock };
}

/** Grammar messages name the slash command; here they name the CLI. */
function cliText(message: string): string {
  return message.split(`${SLASH_COMMAND} `).join('vidops ');
}

/** A sentence of the core in the CLI's language, its slash commands as CLI commands, without Slack's code marks. */
function cliSaid(run: Run, said: Said): string {
  return cliText(sayWith(run.lang.t.errors, said)).replace(/`/g, '');
}

/**
 * Who runs the command, worked out once at the CLI's start: the OS user always (recorded as `via`
 * in every event), acting as the Slack user named by `--as` or as `cli:<os user>`. Slack's user
 * groups are unknown here (leads approve from the CLI by their own user ID), so none.
 * @see docs/architecture.md, "Each request's context once"
 */
function actorOf(run: Run): Caller {
  const as = stringFlag(run.flags, 'as')?.trim();
  const asName = stringFlag(run.flags, 'as-name')?.trim();
  const user = run.io.osUser ?? osUser();
  if (as === undefined) {
    if (asName !== undefined) throw new UsageError(run.lang.t.cli.cliAsNameAlone, run.command);
    return callerOf(cliActor(user), []);
  }
  if (!SLACK_USER.test(as)) {
    throw new UsageError(run.lang.t.cli.cliAsFlag(as), run.command);
  }
  return callerOf(cliActor(user, { id: as, name: asName }), []);
}

/**
 * The OS user running the command, as the machine vouches for it. With no passwd entry (some
 * containers) it is the kernel's uid (`uid:4545`): never `USER`, which anyone sets to any name.
 */
export function osUser(
  whoami: () => { username: string } = userInfo,
  uid: number | null = process.getuid?.() ?? null,
): string {
  try {
    return whoami().username;
  } catch {
    return uid === null ? 'unknown' : `uid:${uid}`;
  }
}

function reasonOf(run: Run): string | null {
  const reason = stringFlag(run.flags, 'reason')?.trim();
  return reason === undefined || reason === '' ? null : reason;
}

// ---------------------------------------------------------------------------------------------
// Commands needing no configuration

function explain(run: Run): number {
  const raw = run.words.join(' ');
  const explanation = explainCode(raw);
  if (explanation === null) {
    const code = normalizeErrorCode(raw);
    throw new Refusal(
      code === null ? run.lang.t.cli.cliNotErrorCode(raw) : run.lang.t.cli.cliUndocumentedCode(code),
    );
  }
  for (const line of explainLines(explanation, run.lang)) run.out(line);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Commands on the store alone

async function storeCommand(run: Run, ctx: StoreContext, checked: Checked): Promise<number> {
  switch (run.command.id) {
    case 'requests':
      return listRequests(run, ctx, checked.actor);
    case 'audit verify':
      return verifyStore(auditRun(run), ctx);
    case 'audit checkpoint':
      return checkpointNow({ ...auditRun(run), actor: checked.actor }, ctx, run.clock);
    case 'audit checkpoints':
      return exportCheckpoints(auditRun(run), ctx);
    case 'audit witness':
      return witness(auditRun(run), ctx, checked.since?.ms ?? null);
    case 'audit export':
      return auditExport(run, ctx, checked);
    case 'audit tail':
      return auditTail(run, ctx, checked.lines);
    default:
      throw new Error(`no store handler for ${run.command.id}`);
  }
}

async function listRequests(run: Run, ctx: StoreContext, actor: Caller): Promise<number> {
  const now = run.clock();
  const { lang } = run;
  const t = lang.t.cli;
  if (run.flags.all === true) {
    const all = await ctx.store.listRequests({ limit: REQUESTS_LIMIT });
    if (all.length === 0) run.out(t.cliNoRequests);
    else run.out(t.cliLatestRequests(all.length, num(lang, all.length)));
    for (const request of all) run.out(`  ${requestLine(request, now, lang)}`);
    return 0;
  }
  const mine = await ctx.store.listRequests({ requesterId: actor.id, limit: REQUESTS_LIMIT });
  const open = mine.filter((r) => !TERMINAL_STATES.includes(r.state));
  const finished = mine.filter((r) => TERMINAL_STATES.includes(r.state)).slice(0, RECENT_FINISHED);
  const shown = [...open, ...finished];
  run.out(shown.length === 0 ? t.cliNoOwnRequests(actor.id) : t.cliOwnRequests(actor.id));
  for (const request of shown) run.out(`  ${requestLine(request, now, lang)}`);
  if (ctx.policy !== null) {
    const policy = ctx.policy;
    const pending = await ctx.store.listRequests({ states: ['pending'], limit: PENDING_SCAN_LIMIT });
    // Listed even where the CLI may not approve: the lead then approves them in Slack.
    const anywhere: Policy = { ...policy, cli: { approve: true } };
    const awaiting = pending.filter((r) => !isPastExpiry(r, now) && mayApprove(anywhere, r, actor).ok);
    if (awaiting.length > 0) {
      run.out(t.cliAwaiting(actor.id, !policy.cli.approve));
      for (const request of awaiting) run.out(`  ${requestLine(request, now, lang)}`);
    }
  }
  return 0;
}

/** A time bound of `--since`/`--until`: a date alone covers that whole day. */
function timeBound(run: Run, flag: 'since' | 'until'): TimeBound | null {
  const raw = stringFlag(run.flags, flag)?.trim();
  if (raw === undefined) return null;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  // The audit log is in UTC; a time written without a zone means UTC too, not this machine's zone.
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(raw);
  const ms = Date.parse(dateOnly ? `${raw}T00:00:00Z` : zoned ? raw : `${raw}Z`);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(ms)) {
    throw new UsageError(run.lang.t.cli.cliTimeFlag(flag, raw), run.command);
  }
  if (flag === 'until' && dateOnly) return { ms: ms + 86_400_000, inclusive: false };
  return { ms, inclusive: true };
}

/** Where the export goes: a buffered file (created private: it holds full numbers) or stdout. */
async function exportSink(run: Run, path: string | undefined) {
  if (path === undefined) {
    return { write: async (chunk: string) => void run.io.stdout.write(chunk), close: async () => undefined };
  }
  const handle = await open(resolve(run.io.cwd, path), 'w', 0o600);
  return {
    write: async (chunk: string) => {
      await handle.write(chunk);
    },
    close: () => handle.close(),
  };
}

async function auditExport(run: Run, ctx: StoreContext, checked: Checked): Promise<number> {
  const { format, since, until } = checked;
  const inRange = (event: AuditEvent): boolean => {
    const at = Date.parse(event.at);
    if (since !== null && at < since.ms) return false;
    if (until !== null && (until.inclusive ? at > until.ms : at >= until.ms)) return false;
    return true;
  };
  const outPath = stringFlag(run.flags, 'out');
  const sink = await exportSink(run, outPath);
  let count = 0;
  try {
    let buffer = format === 'csv' ? auditCsvHeader() : '';
    for await (const event of ctx.store.iterateAudit()) {
      if (!inRange(event)) continue;
      buffer += format === 'csv' ? auditCsvLine(event) : auditJsonLine(event);
      count += 1;
      if (buffer.length >= EXPORT_FLUSH_BYTES) {
        await sink.write(buffer);
        buffer = '';
      }
    }
    if (buffer !== '') await sink.write(buffer);
  } finally {
    await sink.close();
  }
  if (outPath !== undefined) {
    run.out(run.lang.t.cli.cliExported(count, num(run.lang, count), outPath, format));
  }
  return 0;
}

async function auditTail(run: Run, ctx: StoreContext, n: number): Promise<number> {
  const events = await ctx.store.listAudit({ last: n });
  if (events.length === 0) run.out(run.lang.t.cli.cliAuditEmpty);
  for (const event of events) run.out(auditTailLine(event, run.lang));
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Commands on the services

async function fullCommand(run: Run, ctx: FullContext, asked: Asked | null, actor: Caller): Promise<number> {
  for (const warning of asked?.warnings ?? []) run.err(run.lang.t.cli.cliNote(warning));
  const id = run.command.id;
  switch (id) {
    case 'whitelist':
    case 'whitelist show': {
      const ips = await ctx.client.whitelist.get();
      if (run.flags.json === true) run.out(compactJson(ips));
      else for (const line of whitelistLines(ips, run.lang)) run.out(line);
      return 0;
    }
    case 'protect':
    case 'protect show': {
      const config = await ctx.client.protection.get();
      if (run.flags.json === true) run.out(compactJson(config.raw));
      else for (const line of protectionLines(config, run.lang)) run.out(line);
      return 0;
    }
    case 'viewer':
      return viewerCommand(run, ctx);
    case 'approve':
    case 'reject':
    case 'cancel':
      return decide(run, ctx, actor);
    case 'resolve':
      return settleUnknown(run, ctx, actor);
    case 'revert':
      return revertCommand(run, ctx, actor);
    case 'put-back':
      return putBackCommand(run, ctx, actor);
    case 'extend':
      return extendCommand(run, ctx, actor);
    default:
      if (asked === null) throw new Error(`no handler for ${id}`);
      return change(run, ctx, asked, actor);
  }
}

/** A change as asked on the command line: the operation's input, and the notes met reading it. */
interface Asked {
  input: PrepareInput;
  warnings: string[];
  /** `--for`: put it back after this window. */
  window: BoxAsked | null;
}

/**
 * Reads a change command into its operation's input: the words with the grammar's `parseWords`
 * (numbers, addresses, settings and IDs read exactly as in Slack), the flags into the input's
 * named fields. A refusal exits 1 before anything is opened or sent. Null for other commands.
 */
/** `vidops viewer <mobile>`: the viewer's unblocks from the audit log, the number whole. */
async function viewerCommand(run: Run, ctx: FullContext): Promise<number> {
  const { phoneRegion, phoneRegions } = ctx.config;
  const mobile = parseMobile(run.words.map((w) => normalizeDigits(w)).join(' '), phoneRegion, {
    regions: phoneRegions,
  });
  if (!mobile.ok) throw new Refusal(cliSaid(run, mobile.said));
  const history = await ctx.ops.viewerHistory(mobile.param);
  if (run.flags.json === true) run.out(JSON.stringify(history));
  else for (const line of viewerHistoryLines(history, run.lang)) run.out(line);
  return 0;
}

async function readChange(run: Run, options: ParseOptions): Promise<Asked | null> {
  const { spec, operation } = run.command;
  if (spec === undefined || operation === undefined) return null;
  const words = run.words.map((w) => normalizeDigits(w));
  const read = parseWords(spec.args, words, options, run.command.id);
  if (!read.ok) throw new Refusal(cliText(english(read.said)));
  const warnings = read.warnings.map((w) => cliSaid(run, w));
  const values: Record<string, unknown> = { kind: operation, ...wordsInput(spec.args, read.value) };
  const shape: Record<string, z.ZodType> = OPERATION_SPECS[operation].input.shape;
  for (const field of OPERATION_SPECS[operation].fields) {
    const raw = stringFlag(run.flags, field as FlagName);
    const schema = shape[field];
    if (raw === undefined || schema === undefined) continue;
    const given = await readFlag(run, field, raw, warnings);
    const parsed = schema.safeParse(given);
    if (!parsed.success) {
      throw new Refusal(
        run.lang.t.cli.cliFieldRefused(field, parsed.error.issues.map((i) => i.message).join('; ')),
      );
    }
    if (parsed.data !== undefined) values[field] = parsed.data;
  }
  // Every piece was read above, each by its own reader; together they are the operation's input.
  return { input: values as PrepareInput, warnings, window: windowFlag(run) };
}

/** A flag's text as its field takes it: a cover is read from its file, files from `id[:title],…`. */
async function readFlag(run: Run, field: string, raw: string, warnings: string[]): Promise<unknown> {
  if (field === 'cover') return coverFromFile(raw, run.io.cwd, run.readFile);
  if (field === 'files') return playlistFiles(raw, warnings);
  return raw;
}

/** `--files id[:title],…`; an empty value empties the playlist. IDs are read as in Slack. */
function playlistFiles(raw: string, warnings: string[]): { _id: string; title?: string }[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const colon = entry.indexOf(':');
      const rawId = colon === -1 ? entry : entry.slice(0, colon);
      const id = parseResourceId(rawId, 'file');
      if (!id.ok) throw new Refusal(`--files: ${english(id.said)}. Nothing was sent.`);
      const warning = id.warning === null ? null : english(id.warning);
      if (warning !== null && !warnings.includes(warning)) warnings.push(warning);
      const title = colon === -1 ? '' : entry.slice(colon + 1).trim();
      return title === '' ? { _id: id.id } : { _id: id.id, title };
    });
}

/**
 * The typed confirmation, checked before anything is read or sent: `--confirm` must repeat what
 * the policy asks for (the ID); given where the policy asks nothing, it must still match the ID.
 */
function checkConfirmation(run: Run, ctx: FullContext, input: PrepareInput): void {
  const spec = run.command.spec;
  if (!run.command.flags.includes('confirm') || spec?.args.kind !== 'id') return;
  const what = spec.args.resource;
  const id = confirmTarget(input);
  const expected = ctx.ops.confirmationFor(input);
  const given = stringFlag(run.flags, 'confirm')?.trim();
  if (expected === null && given === undefined) return;
  const wanted = expected ?? id;
  if (given === undefined) {
    // A flag the command needs is missing: a usage error (exit 2), like any other.
    throw new UsageError(
      run.lang.t.cli.cliConfirmMissing(run.lang.t.cli.cliResource(what), id, wanted),
      run.command,
    );
  }
  if (given !== wanted) {
    throw new Refusal(run.lang.t.cli.cliConfirmWrong(given, run.lang.t.cli.cliResource(what), wanted));
  }
}

/** What the catalog says a confirmation of `input` repeats (for a delete, the ID). */
function confirmTarget<O extends ChangeOperation>(input: PrepareInput<O>): string {
  const spec: Spec<O> = OPERATION_SPECS[input.kind];
  return spec.confirm(input);
}

async function change(run: Run, ctx: FullContext, asked: Asked, actor: Caller): Promise<number> {
  checkConfirmation(run, ctx, asked.input);
  ctx.ops.checkWindow(asked.input.kind, asked.window);
  const prepared = await ctx.ops.prepare(actor, asked.input);
  for (const warning of prepared.warnings) {
    const text = cliSaid(run, warning);
    if (!asked.warnings.includes(text)) run.err(run.lang.t.cli.cliNote(shown(text)));
  }
  const result = await ctx.ops.submit(actor, prepared, { reason: reasonOf(run), timeBox: asked.window });
  return reportSubmit(run, prepared, result, ctx.policy.cli.approve);
}

/** `--for`, read as in Slack (`2h`, `1405/09/07T18:00`); refused with its reason before anything is sent. */
function windowFlag(run: Run): BoxAsked | null {
  const raw = stringFlag(run.flags, 'for');
  if (raw === undefined) return null;
  const read = readWindow(raw);
  if (!read.ok) throw new Refusal(cliSaid(run, read.said));
  return read.asked;
}

/** The request ID a command names, or a refusal. */
function requestIdOf(run: Run): string {
  const raw = run.words[0] ?? '';
  // Typed on a Persian keyboard, its digits are Persian or Arabic-Indic.
  const id = normalizeRequestId(normalizeDigits(raw));
  if (id === null) throw new Refusal(run.lang.t.cli.cliNotRequestId(raw));
  return id;
}

/** `vidops revert`: the inverse of a done change, previewed and submitted like any change. */
async function revertCommand(run: Run, ctx: FullContext, actor: Caller): Promise<number> {
  const prepared = await ctx.ops.prepareRevert(requestIdOf(run), actor);
  for (const warning of prepared.warnings) run.err(run.lang.t.cli.cliNote(shown(cliSaid(run, warning))));
  const result = await ctx.ops.submit(actor, prepared, { reason: reasonOf(run) });
  return reportSubmit(run, prepared, result, ctx.policy.cli.approve);
}

/** `vidops put-back`: a time-boxed change put back now. */
async function putBackCommand(run: Run, ctx: FullContext, actor: Caller): Promise<number> {
  const result = await ctx.ops.putBackNow(requestIdOf(run), actor);
  if (result.kind === 'refused') throw new Refusal(result.said ? cliSaid(run, result.said) : result.reason);
  for (const line of timeBoxReport(result.request, run.lang, run.clock())) run.out(line);
  const state = result.request.timeBox?.state;
  if (state === 'done' || state === 'left') return 0;
  // Exit 1 says it is not back yet; stderr says so too, and why, as every exit 1 does.
  const last = result.request.timeBox?.lastError;
  const why = last == null ? '' : errorWords(last, run.lang);
  run.err(run.lang.t.cli.cliNotPutBackYet(result.request.id, why));
  return 1;
}

/** `vidops extend`: a new window for a time-boxed change in force, approved as the change was. */
async function extendCommand(run: Run, ctx: FullContext, actor: Caller): Promise<number> {
  const window = windowFlag(run);
  if (window === null) throw new UsageError(run.lang.t.cli.cliExtendNeedsFor, run.command);
  const id = requestIdOf(run);
  const result = await ctx.ops.extend(id, actor, window, reasonOf(run));
  if (result.kind === 'denied') throw new Refusal(result.said ? cliSaid(run, result.said) : result.reason);
  // An extension shows no preview: it sets again what the change it extends set.
  return reportSubmitted(run, result, ctx.policy.cli.approve, false);
}

function reportSubmit(run: Run, prepared: Prepared, result: SubmitResult, cliApproves: boolean): number {
  if (result.kind === 'denied') {
    throw new Refusal(run.lang.t.cli.cliRefused(titleOf(run, prepared.operation), result.reason));
  }
  return reportSubmitted(run, result, cliApproves, true);
}

/** A request submitted: what ran, or what it waits for (with its preview, unless `preview` is false). */
function reportSubmitted(
  run: Run,
  result: Exclude<SubmitResult, { kind: 'denied' }>,
  cliApproves: boolean,
  preview: boolean,
): number {
  const heading = `${titleOf(run, result.request.operation)}: ${targetOf(run, result.request)}`;
  if (result.kind === 'executed') return reportExecuted(run, result.request, heading);
  run.out(heading);
  if (preview) for (const line of previewLines(result.request, run.lang)) run.out(line);
  for (const line of windowLines(result.request, run.lang, run.clock())) run.out(line);
  for (const line of pendingLines(result.request, result.why, { cliApproves }, run.lang)) run.out(line);
  return 0;
}

/** An operation's title in the CLI's language. */
function titleOf(run: Run, operation: ChangeOperation): string {
  return run.lang.t.cli.cliOperationTitle(operation, OPERATION_SPECS[operation].title);
}

/** What a request acts on, its mobile numbers masked. */
function targetOf(run: Run, request: OperationRequest): string {
  return cliTargetOf(request, run.lang, maskMobilesInText);
}

/** A request that ran: the upstream answer on stdout, or why it failed on stderr. */
function reportExecuted(run: Run, request: OperationRequest, heading: string): number {
  const t = run.lang.t.cli;
  if (request.state === 'succeeded') {
    run.out(t.cliDone(heading, request.id));
    for (const line of windowLines(request, run.lang, run.clock())) run.out(line);
    if (request.operation === viewerUnblock.name) run.out(unblockedLine(request.preview, run.lang));
    run.out(resultText(request));
    return 0;
  }
  if (request.state === 'failed') {
    const error = request.error;
    const status = error?.status === undefined ? null : String(error.status);
    const why = error === null ? t.cliNoDetail : cliText(errorWords(error, run.lang));
    if (wasNotSent(error)) throw new Refusal(t.cliNotSent(heading, request.id, why));
    throw new Refusal(t.cliFailed(heading, status, request.id, why));
  }
  if (request.state === 'unknown') {
    throw new Refusal(
      t.cliUnknownOutcome(heading, request.id, request.error?.message ?? t.cliStoppedWhileRunning),
    );
  }
  throw new Refusal(t.cliOtherState(heading, request.id, request.state));
}

/** The upstream answer as compact JSON; the viewer's number masked like everywhere else outside the store. */
function resultText(request: OperationRequest): string {
  return compactJson(
    request.operation === viewerUnblock.name ? maskMobilesInJson(request.result) : request.result,
  );
}

async function decide(run: Run, ctx: FullContext, actor: Caller): Promise<number> {
  const id = requestIdOf(run);
  const { lang } = run;
  const t = lang.t.cli;
  let result: DecisionResult;
  if (run.command.id === 'approve') {
    await checkRunnableHere(run, ctx, id);
    result = await ctx.ops.approve(id, actor);
  } else if (run.command.id === 'reject') {
    result = await ctx.ops.reject(id, actor, reasonOf(run) ?? '');
  } else {
    result = await ctx.ops.cancel(id, actor, reasonOf(run));
  }
  switch (result.kind) {
    case 'refused':
      throw new Refusal(result.reason);
    case 'pending': {
      const r = result.request;
      const left = r.quorum - r.approvals.length;
      run.out(
        t.cliApprovedWaiting(r.id, num(lang, r.approvals.length), num(lang, r.quorum), left, num(lang, left)),
      );
      for (const line of windowLines(r, lang, run.clock())) run.out(line);
      return 0;
    }
    case 'executed': {
      const r = result.request;
      const heading = t.cliApprovedHeading(r.id, titleOf(run, r.operation), targetOf(run, r));
      return reportExecuted(run, r, heading);
    }
    case 'rejected':
      run.out(t.cliRejected(result.request.id, result.request.decisionNote ?? ''));
      return 0;
    case 'cancelled':
      run.out(t.cliCancelled(result.request.id));
      return 0;
  }
}

/** `vidops resolve`: a lead settles a request whose outcome is unknown. */
async function settleUnknown(run: Run, ctx: FullContext, actor: Caller): Promise<number> {
  const id = requestIdOf(run);
  const way = resolveWayOf(run.flags, run.lang);
  if (!way.ok) throw new UsageError(way.message, run.command);
  const report = resolveReport(await ctx.ops.resolve(id, actor, way.way, reasonOf(run)), run.lang);
  for (const line of report.out) run.out(line);
  for (const line of report.err) run.err(line);
  return report.code;
}

/**
 * A file edit with a cover runs only where its image can be read: refused before approving, so
 * an approval from the wrong machine does not turn into a failed request.
 */
async function checkRunnableHere(run: Run, ctx: FullContext, id: string): Promise<void> {
  const request = await ctx.ops.getRequest(id);
  if (request?.operation !== fileEdit.name || request.state !== 'pending') return;
  const { cover } = request.params;
  if (cover === undefined) return;
  try {
    await createCoverFetcher(run.readFile)(cover);
  } catch (error) {
    if (error instanceof InputError)
      throw new Refusal(run.lang.t.cli.cliNotApprovedHere(id, messageOf(error)));
    throw error;
  }
}
