import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { BatchStep } from '../core/batch.js';
import { VidopsError } from '../core/errors.js';
import type { Actor } from '../core/model.js';
import type { MobileOptions } from '../core/validate/phone.js';
import { type NumberList, parseNumberList } from '../core/validate/phone-list.js';
import type { Lang } from '../i18n/lang.js';
import { MAX_BATCH } from '../operations/viewer-unblock-many/spec.js';
import { batchPreviewLines } from '../views/batch.js';
import { type Flags, stringFlag } from './args.js';
import type { FullContext } from './context.js';
import type { ReadFile } from './cover.js';
import { errorWords, pendingLines } from './format.js';

/**
 * `vidops unblock` with many numbers: as words, `--file numbers.txt`, or `-` (standard input, also
 * read when it is not a terminal and no number is given). The list is read and shown first (each
 * refused line with its reason, duplicates merged, repeat viewers, the summary) and asked for only
 * once the operator confirms: on the terminal, or with `--yes` where there is none to ask on.
 * At the end, one line per number (whole, as `audit export` shows them) and the request ID.
 * @see docs/commands.md, "Many numbers at once"
 */

/** Standard input as the CLI sees it: a stream, and whether it is a terminal. */
export type CliStdin = Readable & { isTTY?: boolean };

/** What the batch reads of one CLI run. */
export interface BatchRun {
  lang: Lang;
  words: readonly string[];
  flags: Flags;
  cwd: string;
  readFile: ReadFile;
  stdin: CliStdin | undefined;
  out(line: string): void;
  err(line: string): void;
  /** Writes without a line end (the question asked). */
  ask(text: string): void;
  /** The usage error of the command (exit 2, its usage shown). */
  usage(message: string): Error;
}

/** A batch refused before anything was sent, said to the operator. */
export class BatchRefusal extends VidopsError {}

/** Where the numbers came from: their text, and whether standard input held it (then it cannot be asked on). */
export interface BatchText {
  text: string;
  fromStdin: boolean;
}

/**
 * The text of a batch, or null when the words are one number (or one refused entry): the
 * single unblock reads those, as before.
 */
export async function batchText(
  run: BatchRun,
  home: string,
  options: MobileOptions,
): Promise<BatchText | null> {
  const t = run.lang.t.batch;
  const file = stringFlag(run.flags, 'file');
  const dash = run.words.length === 1 && run.words[0] === '-';
  if ((file !== undefined ? 1 : 0) + (dash ? 1 : 0) + (run.words.length > 0 && !dash ? 1 : 0) > 1) {
    throw run.usage(t.batchCliTwoLists);
  }
  if (file !== undefined) return { text: await fileText(run, file), fromStdin: false };
  if (dash || (run.words.length === 0 && run.stdin !== undefined && run.stdin.isTTY !== true)) {
    return { text: await stdinText(run.stdin), fromStdin: true };
  }
  if (run.words.length === 0) throw run.usage(t.batchCliNoList);
  const text = run.words.join(' ');
  const list = parseNumberList(text, home, options);
  return list.numbers.length + list.refused.length > 1 ? { text, fromStdin: false } : null;
}

async function fileText(run: BatchRun, path: string): Promise<string> {
  try {
    return new TextDecoder().decode(await run.readFile(resolve(run.cwd, path)));
  } catch (error) {
    // The system's code (`ENOENT`, `EACCES`) says it shortest; the path is already named.
    const why =
      typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error);
    throw new BatchRefusal(run.lang.t.batch.batchCliUnread(path, why));
  }
}

async function stdinText(stdin: CliStdin | undefined): Promise<string> {
  if (stdin === undefined) return '';
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) text += String(chunk);
  return text;
}

/**
 * The batch of `text`: read, shown, confirmed, asked for and reported. Exit code 0 when every
 * number was unblocked (or the batch waits for a lead), 1 when one failed or is unknown.
 */
export async function unblockMany(
  run: BatchRun,
  ctx: FullContext,
  asked: BatchText,
  actor: Actor,
  reason: string | null,
): Promise<number> {
  const t = run.lang.t.batch;
  const list: NumberList = parseNumberList(asked.text, ctx.config.phoneRegion, {
    regions: ctx.config.phoneRegions,
  });
  const preview = await ctx.ops.previewBatch(list);
  for (const line of batchPreviewLines(preview, run.lang, true)) run.out(line);
  if (preview.numbers.length === 0) return 1;
  if (preview.numbers.length > MAX_BATCH) {
    throw new BatchRefusal(t.batchCliTooMany(preview.numbers.length, MAX_BATCH));
  }
  await confirm(run, preview.numbers.length, asked.fromStdin);
  const mobileNumbers = preview.numbers.map((n) => n.param);
  const prepared = await ctx.ops.prepare(actor, { kind: 'viewer.unblock-many', mobileNumbers });
  const result = await ctx.ops.submit(actor, prepared, { reason });
  if (result.kind === 'denied') throw new BatchRefusal(result.reason);
  const { request } = result;
  if (result.kind === 'pending') {
    const cliApproves = ctx.policy.cli.approve;
    for (const line of pendingLines(request, result.why, { cliApproves }, run.lang)) run.out(line);
    return 0;
  }
  const steps = new Map((await ctx.store.listSteps(request.id)).map((s) => [s.index, s]));
  const counts = { done: 0, failed: 0, unknown: 0 };
  mobileNumbers.forEach((number, index) => {
    const step = steps.get(index);
    if (step !== undefined && step.state !== 'sending') counts[step.state] += 1;
    run.out(`${number}  ${stepWords(run.lang, step)}`);
  });
  const end = t.batchCliEnd(counts.done, counts.failed, counts.unknown, request.id);
  if (request.state === 'succeeded' && counts.done === mobileNumbers.length) {
    run.out(end);
    return 0;
  }
  run.err(request.error === null ? end : `${end} ${errorWords(request.error, run.lang)}`);
  return 1;
}

/** How one number ended, with the service's reason for a failure. */
function stepWords(lang: Lang, step: BatchStep | undefined): string {
  const t = lang.t.batch;
  if (step === undefined || step.state === 'sending') return t.batchCliNotRun;
  if (step.state === 'done') return t.batchCliDone;
  if (step.state === 'unknown') return t.batchCliUnknown;
  return step.error === null ? t.batchCliFailed : `${t.batchCliFailed}: ${errorWords(step.error, lang)}`;
}

/** Asks on the terminal, unless `--yes`; with no terminal to ask on, refused: nothing is sent unconfirmed. */
async function confirm(run: BatchRun, count: number, fromStdin: boolean): Promise<void> {
  const t = run.lang.t.batch;
  if (run.flags.yes === true) return;
  const { stdin } = run;
  if (fromStdin || stdin === undefined || stdin.isTTY !== true) throw new BatchRefusal(t.batchCliNeedsYes);
  run.ask(t.batchCliAsk(count));
  const lines = createInterface({ input: stdin });
  const answer = await new Promise<string>((done) => {
    lines.once('line', done);
    lines.once('close', () => done(''));
  });
  lines.close();
  if (!/^\s*(y|yes|بله|آری)\s*$/i.test(answer)) throw new BatchRefusal(t.batchCliNotConfirmed);
}
