import {
  ErrorCode,
  type Logger as SlackLogger,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebClient,
} from '@slack/web-api';
import type { Logger } from 'pino';
import { shortHash } from '../core/audit-chain.js';
import { redactError } from '../core/mask.js';
import type { AuditEvent } from '../core/model.js';
import { ENGLISH, type Lang } from '../i18n/index.js';
import { Backoff, IDLE_POLL, JobRunner } from '../jobs/runner.js';
import { within } from '../jobs/timeout.js';
import type { Store, StoredCheckpoint } from '../store/store.js';
import {
  type AuditPost,
  renderAuditPost,
  renderAuditSummary,
  renderCheckpointPost,
} from '../views/audit-post.js';
import { checkBlockKitLimits } from '../views/limits.js';
import { readChannelHistory } from './witness.js';

/**
 * How one post to the audit channel went: of a batch of events (`post: 'events'`; `firstSeq` and
 * `lastSeq` the events') or of a signed checkpoint (`post: 'checkpoint'`, `events` 0; `firstSeq`
 * and `lastSeq` the checkpoint's size).
 */
export type AuditPostResult = { post: 'events' | 'checkpoint' } & (
  | { outcome: 'ok'; events: number; firstSeq: number; lastSeq: number }
  | { outcome: 'rate_limited'; events: number; retryAfterMs: number }
  | { outcome: 'error'; events: number; error: string; retryInMs: number }
);

export interface AuditPublisherOptions {
  store: Store;
  /** Should not retry on its own: see {@link createPublisherWebClient}. */
  web: WebClient;
  channel: string;
  /** Timestamps for the store (claims, leases, `notBefore`). Must advance like real time. */
  clock: () => Date;
  logger: Logger;
  /** Names this process in outbox leases; unique per replica. */
  workerId: string;
  /** Slack allows about one message per second per channel. */
  minIntervalMs?: number;
  batchMax?: number;
  leaseMs?: number;
  /** First retry delay after an error other than 429; doubles per failure. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How often an idle publisher looks for events appended by other replicas. */
  idlePollMs?: number;
  /** The idle poll backs off up to this while it finds nothing (default: `idlePollMs` when given). */
  idlePollMaxMs?: number;
  /**
   * With more than this many events waiting, a claimed run is posted as one summary (see
   * {@link shapeRun}) of up to `summaryMax` events, rather than line by line.
   */
  summaryAfter?: number;
  summaryMax?: number;
  /** Called after every attempt, of events and of checkpoints alike (metrics). */
  onResult?: (result: AuditPostResult) => void;
  /** The language of the posts: `CHANNEL_LOCALE` (`ctx.languages.channel`); English when not given. */
  lang?: Lang;
}

export interface AuditPublisher {
  /** Starts the loop. */
  start(): void;
  /** Stops the loop; resolves after the post in flight (if any) finished and was recorded. */
  stop(): Promise<void>;
  /** One claim-and-post step (waiting first for the spacing or a pause); returns events delivered. */
  flushOnce(): Promise<number>;
  /** New events were appended: wake an idle loop now rather than at the next poll. */
  kick(): void;
  /** A checkpoint was signed: post it at the next turn, even while events keep coming. */
  kickCheckpoints(): void;
  /**
   * Stops the loop, then keeps posting what is left (events and checkpoints) for at most
   * `timeoutMs`, at shutdown. True when nothing is left; what is left is posted after the next start.
   */
  drain(timeoutMs: number): Promise<boolean>;
}

/**
 * Added to every pause: released events carry a `notBefore` in store time (ms resolution), and
 * waking a hair early would find nothing to claim and then idle for a whole poll interval.
 */
const WAKE_SLACK_MS = 10;

/**
 * A channel more than about ten posts behind gets summaries: each stands for up to 1,000 events,
 * so a backlog of N drains in about N / 1,000 posts (docs/slack.md, "Audit channel backlog").
 */
const SUMMARY_AFTER = 500;
const SUMMARY_MAX = 1_000;

/** Slack errors that say the message was too big; a smaller batch will go through. */
const TOO_BIG = new Set(['msg_too_long', 'msg_blocks_too_long', 'invalid_blocks']);

/**
 * A WebClient for the publisher: a 429 is handed back at once (`rejectRateLimitedCalls`) and
 * nothing is retried inside the client, so the publisher's own policy decides instead of the
 * default 30-minute stall of the whole client queue. The timeout stays well inside the lease.
 * @see docs/slack.md, "Rate limits"
 */
export function createPublisherWebClient(
  token: string,
  options: { slackApiUrl?: string | undefined; logger?: SlackLogger; timeoutMs?: number } = {},
): WebClient {
  return new WebClient(token, {
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: options.timeoutMs ?? 10_000,
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

type StepCounts = { claimed: number; delivered: number };
const NOTHING: StepCounts = { claimed: 0, delivered: 0 };

/** A post whose answer was lost, and the Slack time from which the channel is read back for it. */
type Unsure =
  | { post: 'events'; events: readonly AuditEvent[]; summary: boolean; since: string }
  | { post: 'checkpoint'; checkpoint: StoredCheckpoint; since: string };

/** One publisher's settings and state; the functions below take it explicitly. */
interface Publisher {
  readonly store: Store;
  readonly web: WebClient;
  readonly channel: string;
  readonly clock: () => Date;
  readonly logger: Logger;
  readonly workerId: string;
  readonly minIntervalMs: number;
  readonly batchMax: number;
  readonly summaryAfter: number;
  readonly summaryMax: number;
  readonly leaseMs: number;
  readonly lang: Lang;
  readonly onResult: ((result: AuditPostResult) => void) | undefined;
  readonly runner: JobRunner<StepCounts>;
  readonly backoff: Backoff;
  /** Shrinks when Slack finds a message too big, grows back after each post. */
  batchLimit: number;
  /** Seqs posted but not yet marked delivered (the store failed on ack); retried first. */
  unacked: number[];
  /** A checkpoint posted but not yet marked posted; retried first. */
  unackedCheckpoint: number | null;
  /**
   * A post Slack may have taken though its answer was lost (a timeout, a reset): of events, or of
   * a checkpoint. Still leased here (renewed at each turn), and looked for in the channel before
   * it is posted again.
   */
  unsure: Unsure | null;
  /** Not before then (`performance.now()`) is the channel read back again: Slack's Retry-After. */
  readBackAt: number;
  /** A checkpoint was signed here: give checkpoints the next turn. */
  checkpointHint: boolean;
}

/**
 * Posts audit events from the store's outbox to the audit channel: batches a backlog into few
 * messages, keeps at least `minIntervalMs` between posts, honours 429 `Retry-After`, backs off
 * exponentially on other errors (up to `backoffMaxMs`) and never drops an event. Leases in the
 * store keep replicas from posting the same events.
 *
 * Signed checkpoints are posted by the same loop, one per message, with the same spacing, leases,
 * `Retry-After` and backoff (they share the channel's rate limit): when the loop finds no events
 * to post, and after a batch of events when a checkpoint was signed in this process
 * (`kickCheckpoints`), so a steady stream of events does not hold them back.
 * @see docs/architecture.md, "Audit log" and "Scale"
 */
export function createAuditPublisher(options: AuditPublisherOptions): AuditPublisher {
  const batchMax = options.batchMax ?? 50;
  if (batchMax < 1) throw new RangeError('batchMax must be at least 1');
  const backoff = new Backoff(options.backoffBaseMs ?? 1000, options.backoffMaxMs ?? 60_000);
  const p: Publisher = {
    store: options.store,
    web: options.web,
    channel: options.channel,
    clock: options.clock,
    logger: options.logger,
    workerId: options.workerId,
    minIntervalMs: options.minIntervalMs ?? 1100,
    batchMax,
    summaryAfter: options.summaryAfter ?? SUMMARY_AFTER,
    summaryMax: Math.max(batchMax, options.summaryMax ?? SUMMARY_MAX),
    leaseMs: options.leaseMs ?? 30_000,
    lang: options.lang ?? ENGLISH,
    onResult: options.onResult,
    runner: new JobRunner<StepCounts>({
      name: 'audit publisher',
      logger: options.logger,
      step: () => step(p),
      idlePollMs: options.idlePollMs ?? IDLE_POLL.ms,
      idlePollMaxMs: options.idlePollMaxMs ?? options.idlePollMs ?? IDLE_POLL.maxMs,
      backoff,
    }),
    backoff,
    batchLimit: batchMax,
    unacked: [],
    unackedCheckpoint: null,
    unsure: null,
    readBackAt: 0,
    checkpointHint: true,
  };
  return {
    start: () => p.runner.start(),
    stop: () => p.runner.stop(),
    flushOnce: async () => (await p.runner.exclusive(() => step(p))).delivered,
    kick: () => p.runner.wake(),
    kickCheckpoints() {
      p.checkpointHint = true;
      p.runner.wake();
    },
    drain: (timeoutMs) => drain(p, timeoutMs),
  };
}

async function drain(p: Publisher, timeoutMs: number): Promise<boolean> {
  await p.runner.stop();
  const deadline = Date.now() + timeoutMs;
  try {
    // A post whose answer was lost is read back at once: it is a read, and waiting out the pause
    // before it would leave it to the next start, which would post it again.
    await within(
      p.runner.now(async () => p.unsure === null || (await settleUnsure(p, p.unsure))),
      timeoutMs,
    );
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const depth = await within(
        Promise.all([p.store.outboxDepth(), p.store.unpostedCheckpoints()]).then(([a, b]) => a + b),
        left,
      );
      if (depth === undefined || depth === 0) return depth === 0;
      const posted = await within(
        p.runner.exclusive(() => step(p)),
        left,
      );
      if (posted === undefined) break;
    }
  } catch (error) {
    p.logger.error({ err: redactError(error) }, 'could not flush the audit backlog');
    return false;
  }
  p.logger.warn(
    'stopped with audit events or checkpoints not yet posted; they are posted after the next start',
  );
  return false;
}

function report(p: Publisher, result: AuditPostResult): void {
  try {
    p.onResult?.(result);
  } catch (error) {
    p.logger.warn({ err: redactError(error) }, 'audit publisher metrics callback failed');
  }
}

/** Gives back events (or a checkpoint) at once, not claimable for `delayMs`; only what this publisher holds. */
async function release(
  p: Publisher,
  what: readonly number[] | { size: number },
  delayMs: number,
): Promise<void> {
  const notBefore = new Date(p.clock().getTime() + delayMs).toISOString();
  try {
    if ('size' in what) await p.store.releaseCheckpoints([what.size], notBefore, p.workerId);
    else await p.store.releaseOutbox(what, notBefore, p.workerId);
  } catch (error) {
    // The lease runs out on its own; the rows come back then.
    p.logger.error(
      { err: redactError(error) },
      'could not release audit posts; they return when the lease ends',
    );
  }
}

async function ack(p: Publisher, seqs: readonly number[]): Promise<boolean> {
  try {
    await p.store.ackOutbox(seqs);
    return true;
  } catch (error) {
    p.logger.error(
      { err: redactError(error), seqs: seqs.length },
      'posted audit events but could not mark them',
    );
    return false;
  }
}

async function markPosted(p: Publisher, size: number): Promise<boolean> {
  try {
    await p.store.markCheckpointPosted(size, p.clock().toISOString());
    return true;
  } catch (error) {
    p.logger.error({ err: redactError(error), size }, 'posted an audit checkpoint but could not mark it');
    return false;
  }
}

/** The largest prefix of `events` whose message Slack will accept; never less than one event. */
function fitToLimits(
  p: Pick<Publisher, 'lang' | 'logger'>,
  events: AuditEvent[],
): { post: AuditPost; count: number } {
  let count = events.length;
  for (;;) {
    const post = renderAuditPost(events.slice(0, count), p.lang);
    const problems = checkBlockKitLimits(post, 'message');
    if (problems.length === 0) return { post, count };
    if (count === 1) {
      p.logger.warn({ problems, seq: events[0]?.seq }, 'audit post breaks Block Kit limits; posting anyway');
      return { post, count };
    }
    count = Math.ceil(count / 2);
  }
}

/**
 * Posts one message and, when Slack did not take it, sets the next turn and says how long the
 * claimed rows stay back: a 429's `Retry-After` (at least the spacing), else the backoff. A post
 * that failed is reported to `onResult` here; one that succeeded, by the caller once recorded.
 */
async function deliver(
  p: Publisher,
  post: AuditPost,
  what: { post: AuditPostResult['post']; events: number; seqs?: readonly number[] },
): Promise<{ ok: true } | { ok: false; delayMs: number; answerLost: boolean }> {
  try {
    await p.web.chat.postMessage({
      channel: p.channel,
      text: post.text,
      blocks: post.blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
  } catch (error) {
    // Sent, but no answer came back: Slack may have taken it.
    const answerLost = (error as { code?: unknown } | null)?.code === ErrorCode.RequestError;
    return { ok: false, delayMs: postFailed(p, error, what), answerLost };
  }
  p.backoff.reset();
  p.runner.pauseFor(p.minIntervalMs);
  return { ok: true };
}

/** Sets the next turn after a post Slack did not take; returns how long its rows stay back. */
function postFailed(
  p: Publisher,
  error: unknown,
  what: { post: AuditPostResult['post']; events: number; seqs?: readonly number[] },
): number {
  if (error instanceof WebAPIRateLimitedError) {
    const pause = Math.max(error.retryAfter * 1000, p.minIntervalMs);
    p.runner.pauseFor(pause + WAKE_SLACK_MS);
    p.logger.warn({ retryAfterMs: pause, events: what.events }, 'audit channel rate limited; waiting');
    report(p, { post: what.post, outcome: 'rate_limited', events: what.events, retryAfterMs: pause });
    return pause;
  }
  const code = error instanceof WebAPIPlatformError ? error.data.error : undefined;
  if (code !== undefined && TOO_BIG.has(code) && what.seqs !== undefined) {
    p.batchLimit = Math.max(1, Math.floor(what.seqs.length / 2));
  }
  const delay = p.backoff.next();
  p.runner.pauseFor(delay + WAKE_SLACK_MS);
  const { message } = redactError(error);
  p.logger.error(
    { err: { message, code }, events: what.events, retryInMs: delay },
    what.seqs === undefined
      ? 'could not post an audit checkpoint; will retry'
      : 'could not post audit events; will retry',
  );
  report(p, {
    post: what.post,
    outcome: 'error',
    events: what.events,
    error: code ?? message,
    retryInMs: delay,
  });
  return delay;
}

/** Claims one unposted checkpoint and posts it; null when there is none to post. */
async function checkpointStep(p: Publisher): Promise<StepCounts | null> {
  let claimed: StoredCheckpoint[];
  try {
    claimed = await p.store.claimCheckpoints(p.workerId, 1, p.leaseMs, p.clock().toISOString());
  } catch (error) {
    p.logger.error({ err: redactError(error) }, 'could not claim audit checkpoints');
    return null;
  }
  const checkpoint = claimed[0];
  if (checkpoint === undefined) {
    p.checkpointHint = false;
    return null;
  }
  const since = slackTs(p.clock().getTime() - UNSURE_MARGIN_MS);
  const sent = await deliver(p, renderCheckpointPost(checkpoint, p.lang), { post: 'checkpoint', events: 0 });
  if (!sent.ok) {
    if (sent.answerLost) becameUnsure(p, { post: 'checkpoint', checkpoint, since });
    else await release(p, { size: checkpoint.size }, sent.delayMs);
    return { claimed: 1, delivered: 0 };
  }
  await checkpointPosted(p, checkpoint.size);
  return { claimed: 1, delivered: 1 };
}

/** A checkpoint the channel shows: marked posted (or kept to mark at the next turn), and counted. */
async function checkpointPosted(p: Publisher, size: number): Promise<void> {
  if (!(await markPosted(p, size))) p.unackedCheckpoint = size;
  p.logger.info({ size }, 'posted an audit checkpoint');
  report(p, { post: 'checkpoint', outcome: 'ok', events: 0, firstSeq: size, lastSeq: size });
}

/**
 * Keeps a post whose answer was lost leased, to be looked for in the channel at the next turn,
 * which comes before a third of the lease has passed (the turn renews it) whatever the backoff.
 */
function becameUnsure(p: Publisher, unsure: Unsure): void {
  p.unsure = unsure;
  pauseHolding(p, p.runner.nextAt - performance.now());
}

/** Marks what was posted but not recorded; false (with the next turn set) when the store still fails. */
async function settleUnacked(p: Publisher): Promise<boolean> {
  if (p.unacked.length > 0) {
    if (!(await ack(p, p.unacked))) {
      pauseHolding(p, p.backoff.next());
      return false;
    }
    p.unacked = [];
  }
  if (p.unackedCheckpoint !== null) {
    if (!(await markPosted(p, p.unackedCheckpoint))) {
      pauseHolding(p, p.backoff.next());
      return false;
    }
    p.unackedCheckpoint = null;
  }
  return true;
}

/**
 * Sets the next turn `ms` away, or within a third of the lease while this publisher holds rows it
 * has posted, or may have (`unacked`, `unsure`): each turn renews their lease ({@link renewHeld}),
 * so no other replica takes and posts them again meanwhile.
 */
function pauseHolding(p: Publisher, ms: number): void {
  const holding = p.unacked.length > 0 || p.unackedCheckpoint !== null || p.unsure !== null;
  p.runner.pauseFor(holding ? Math.min(ms, p.leaseMs / 3) : ms);
}

/** How far before a post the channel is read back for it (clocks of Slack and of this host differ). */
const UNSURE_MARGIN_MS = 60_000;

/** A time as Slack's `ts` reads it: seconds, with microseconds. */
function slackTs(ms: number): string {
  return (ms / 1000).toFixed(6);
}

/** At most this many pages of the channel (200 messages each) are read back for a lost answer. */
const UNSURE_PAGES = 25;

/**
 * A post whose answer was lost: its lease renewed, then the channel read back from just before it
 * (every page, up to UNSURE_PAGES). What the bot's own messages show (an event's seq and short
 * hash, a checkpoint's note; anyone else's lines do not count) is marked delivered; the rest is
 * released to be posted again. When the channel cannot be read (no `channels:history` scope, say),
 * it is all posted again, and may show twice, as the log says. False, with the next turn set
 * within a third of the lease, while Slack asks to wait or is not answering.
 */
async function settleUnsure(p: Publisher, unsure: Unsure): Promise<boolean> {
  const wait = p.readBackAt - performance.now();
  if (wait > 0) {
    // Slack asked to wait: the turns go on renewing the lease, the channel is not read before.
    pauseHolding(p, wait + WAKE_SLACK_MS);
    return false;
  }
  let shown: Shown;
  try {
    shown = await shownByBot(p, unsure.since);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (error instanceof WebAPIRateLimitedError) {
      p.readBackAt = performance.now() + error.retryAfter * 1000;
      pauseHolding(p, error.retryAfter * 1000 + WAKE_SLACK_MS);
      return false;
    }
    if (code === ErrorCode.RequestError || code === ErrorCode.HTTPError) {
      pauseHolding(p, p.backoff.next());
      return false;
    }
    p.logger.warn(
      { err: redactError(error), post: unsure.post },
      'could not read the audit channel back after a post whose answer was lost; posting it again (it may show twice)',
    );
    shown = { lines: new Set(), notes: new Set() };
  }
  p.unsure = null;
  if (unsure.post === 'checkpoint') {
    if (shown.notes.has(unsure.checkpoint.note.trimEnd())) await checkpointPosted(p, unsure.checkpoint.size);
    else await release(p, { size: unsure.checkpoint.size }, 0);
    return true;
  }
  const seqs = unsure.events.map((e) => e.seq);
  const last = unsure.events[unsure.events.length - 1];
  // A summary shows its last event's line only, standing for the whole run.
  const summaryLanded =
    unsure.summary && last !== undefined && shown.lines.has(`${last.seq}:${shortHash(last.hash)}`);
  const landed = unsure.events
    .filter((e) => summaryLanded || shown.lines.has(`${e.seq}:${shortHash(e.hash)}`))
    .map((e) => e.seq);
  const again = seqs.filter((seq) => !landed.includes(seq));
  if (again.length > 0) await release(p, again, 0);
  if (landed.length > 0) {
    p.logger.info(
      { seqs: landed.length },
      'an audit post whose answer was lost had landed; not posted again',
    );
    await delivered(p, landed);
  }
  return true;
}

/**
 * Keeps the rows this publisher has posted, or may have, leased here: those Slack took but the
 * store did not mark, and those of a post whose answer was lost. Another replica took them if the
 * lease ran out anyway (a stalled process), and may post them again: the log says so.
 */
async function renewHeld(p: Publisher): Promise<void> {
  const seqs = [...p.unacked, ...(p.unsure?.post === 'events' ? p.unsure.events.map((e) => e.seq) : [])];
  const sizes = [
    ...(p.unackedCheckpoint === null ? [] : [p.unackedCheckpoint]),
    ...(p.unsure?.post === 'checkpoint' ? [p.unsure.checkpoint.size] : []),
  ];
  if (seqs.length + sizes.length === 0) return;
  const until = new Date(p.clock().getTime() + p.leaseMs).toISOString();
  try {
    const held =
      (await p.store.renewOutbox(seqs, p.workerId, until)) +
      (await p.store.renewCheckpoints(sizes, p.workerId, until));
    if (held < seqs.length + sizes.length) {
      p.logger.warn(
        { held, of: seqs.length + sizes.length },
        'the lease of audit posts not yet settled ran out; another replica may post them again',
      );
    }
  } catch (error) {
    p.logger.error({ err: redactError(error) }, 'could not renew the lease of audit posts not yet settled');
  }
}

/** What the bot's own messages since `since` show: event lines (`seq:short`) and checkpoint notes. */
type Shown = { lines: Set<string>; notes: Set<string> };

async function shownByBot(p: Publisher, since: string): Promise<Shown> {
  // No 429 waited out inside the step: the turn renews the lease, and reads after Retry-After.
  const history = await readChannelHistory({
    web: p.web,
    channel: p.channel,
    oldest: since,
    maxPages: UNSURE_PAGES,
    maxWaits: 0,
  });
  return {
    lines: new Set(history.lines.filter((l) => l.byBot).map((l) => `${l.seq}:${l.short}`)),
    notes: new Set(history.checkpoints.filter((c) => c.byBot).map((c) => c.note.trimEnd())),
  };
}

/** Events the channel shows: marked delivered (or kept to mark at the next turn), and counted. */
async function delivered(p: Publisher, seqs: readonly number[]): Promise<void> {
  if (!(await ack(p, seqs))) p.unacked = [...seqs];
  report(p, {
    post: 'events',
    outcome: 'ok',
    events: seqs.length,
    firstSeq: seqs[0] ?? 0,
    lastSeq: seqs[seqs.length - 1] ?? 0,
  });
}

/**
 * What a claimed run of events becomes in the channel: lines, as many as one message holds, while
 * the channel keeps up; one summary of the whole run when more than one batch was claimed because
 * the channel is behind. The rest of a run of lines goes back to the outbox.
 */
export function shapeRun(
  p: Pick<Publisher, 'batchMax' | 'lang' | 'logger'>,
  events: AuditEvent[],
): { post: AuditPost; count: number; summary: boolean } {
  if (events.length > p.batchMax) {
    return { post: renderAuditSummary(events, p.lang), count: events.length, summary: true };
  }
  return { ...fitToLimits(p, events), summary: false };
}

/**
 * A full batch was claimed: when the outbox holds more than `summaryAfter` events, claims the rest
 * of a summary's run too. The depth is a maintained number, read only after a full claim.
 */
async function claimMoreWhenBehind(p: Publisher, claimed: number): Promise<AuditEvent[]> {
  try {
    if ((await p.store.outboxDepth()) <= p.summaryAfter) return [];
    return await p.store.claimOutbox(p.workerId, p.summaryMax - claimed, p.leaseMs, p.clock().toISOString());
  } catch (error) {
    p.logger.error({ err: redactError(error) }, 'could not claim a backlog of audit events; posting lines');
    return [];
  }
}

/** Claims a batch and posts it. Returns the number of events delivered (0 when none or failed). */
async function step(p: Publisher): Promise<StepCounts> {
  await renewHeld(p);
  if (!(await settleUnacked(p))) return NOTHING;
  if (p.unsure !== null && !(await settleUnsure(p, p.unsure))) return NOTHING;
  if (p.checkpointHint) {
    const posted = await checkpointStep(p);
    if (posted !== null) return posted;
  }
  let events: AuditEvent[];
  try {
    events = await p.store.claimOutbox(p.workerId, p.batchLimit, p.leaseMs, p.clock().toISOString());
  } catch (error) {
    const delay = p.backoff.next();
    p.logger.error({ err: redactError(error), retryInMs: delay }, 'could not claim audit events');
    p.runner.pauseFor(delay);
    return NOTHING;
  }
  if (events.length === 0) return (await checkpointStep(p)) ?? NOTHING;
  if (events.length === p.batchLimit) events = [...events, ...(await claimMoreWhenBehind(p, events.length))];
  // A batch's per-number steps stay in the log, `audit tail` and the export; the channel shows the
  // batch as its request's few lines, the last carrying the hash of the batch's last event.
  const silent = events.filter((e) => e.type === 'step').map((e) => e.seq);
  if (silent.length > 0) {
    if (!(await ack(p, silent))) return NOTHING;
    events = events.filter((e) => e.type !== 'step');
    if (events.length === 0) return { claimed: silent.length, delivered: silent.length };
  }

  const { post, count, summary } = shapeRun(p, events);
  const seqs = events.slice(0, count).map((e) => e.seq);
  const rest = events.slice(count);
  if (rest.length > 0)
    await release(
      p,
      rest.map((e) => e.seq),
      0,
    );

  const since = slackTs(p.clock().getTime() - UNSURE_MARGIN_MS);
  const sent = await deliver(p, post, { post: 'events', events: seqs.length, seqs });
  if (!sent.ok) {
    // Kept leased, and looked for in the channel at the next turn (settleUnsure).
    if (sent.answerLost) becameUnsure(p, { post: 'events', events: events.slice(0, count), summary, since });
    else await release(p, seqs, sent.delayMs);
    return { claimed: events.length, delivered: 0 };
  }
  p.batchLimit = Math.min(p.batchMax, p.batchLimit * 2);
  await delivered(p, seqs);
  return { claimed: events.length, delivered: seqs.length };
}
