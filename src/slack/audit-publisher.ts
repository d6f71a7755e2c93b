import { performance } from 'node:perf_hooks';
import {
  type Logger as SlackLogger,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebClient,
} from '@slack/web-api';
import type { Logger } from 'pino';
import { redactError } from '../core/mask.js';
import type { AuditEvent } from '../core/model.js';
import { ENGLISH, type Lang } from '../i18n/index.js';
import type { Store, StoredCheckpoint } from '../store/store.js';
import { type AuditPost, renderAuditPost, renderCheckpointPost } from '../views/audit-post.js';
import { checkBlockKitLimits } from '../views/limits.js';
import { createSleeper } from './sleeper.js';

/** What happened to one attempt to post a batch; fed to metrics. */
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
}

/**
 * Added to every pause: released events carry a `notBefore` in store time (ms resolution), and
 * waking a hair early would find nothing to claim and then idle for a whole poll interval.
 */
const WAKE_SLACK_MS = 10;

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
  const {
    store,
    web,
    channel,
    clock,
    logger,
    workerId,
    minIntervalMs = 1100,
    batchMax = 20,
    leaseMs = 30_000,
    backoffBaseMs = 1000,
    backoffMaxMs = 60_000,
    idlePollMs = 2000,
    onResult,
    lang = ENGLISH,
  } = options;
  if (batchMax < 1) throw new RangeError('batchMax must be at least 1');

  let running = false;
  let loop: Promise<void> | null = null;
  // Pauses are measured on the monotonic clock: they are about real seconds, not the injected time.
  let nextPostAt = 0;
  let failures = 0;
  let batchLimit = batchMax;
  // Seqs posted but not yet marked delivered (the store failed on ack); retried first.
  let unacked: number[] = [];
  // A checkpoint posted but not yet marked posted; retried first.
  let unackedCheckpoint: number | null = null;
  // A checkpoint was signed here: give checkpoints the next turn.
  let checkpointHint = true;
  // One step at a time, whether from the loop or from flushOnce.
  let lock: Promise<unknown> = Promise.resolve();

  const { sleep, wake, interrupt } = createSleeper();

  const report = (result: AuditPostResult) => {
    try {
      onResult?.(result);
    } catch (error) {
      logger.warn({ err: redactError(error) }, 'audit publisher metrics callback failed');
    }
  };

  async function release(seqs: readonly number[], delayMs: number): Promise<void> {
    try {
      await store.releaseOutbox(seqs, new Date(clock().getTime() + delayMs).toISOString());
    } catch (error) {
      // The lease runs out on its own; the events come back then.
      logger.error(
        { err: redactError(error) },
        'could not release audit events; they return when the lease ends',
      );
    }
  }

  async function ack(seqs: readonly number[]): Promise<boolean> {
    try {
      await store.ackOutbox(seqs);
      return true;
    } catch (error) {
      logger.error(
        { err: redactError(error), seqs: seqs.length },
        'posted audit events but could not mark them',
      );
      return false;
    }
  }

  function backoff(): number {
    failures += 1;
    return Math.min(backoffMaxMs, backoffBaseMs * 2 ** (failures - 1));
  }

  /** The largest prefix of `events` whose message Slack will accept; never less than one event. */
  function fitToLimits(events: AuditEvent[]): { post: AuditPost; count: number } {
    let count = events.length;
    for (;;) {
      const post = renderAuditPost(events.slice(0, count), lang);
      const problems = checkBlockKitLimits(post, 'message');
      if (problems.length === 0) return { post, count };
      if (count === 1) {
        logger.warn({ problems, seq: events[0]?.seq }, 'audit post breaks Block Kit limits; posting anyway');
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
    post: AuditPost,
    what: { post: AuditPostResult['post']; events: number; seqs?: readonly number[] },
  ): Promise<{ ok: true } | { ok: false; delayMs: number }> {
    try {
      await web.chat.postMessage({
        channel,
        text: post.text,
        blocks: post.blocks,
        unfurl_links: false,
        unfurl_media: false,
      });
    } catch (error) {
      if (error instanceof WebAPIRateLimitedError) {
        const pause = Math.max(error.retryAfter * 1000, minIntervalMs);
        nextPostAt = performance.now() + pause + WAKE_SLACK_MS;
        logger.warn({ retryAfterMs: pause, events: what.events }, 'audit channel rate limited; waiting');
        report({ post: what.post, outcome: 'rate_limited', events: what.events, retryAfterMs: pause });
        return { ok: false, delayMs: pause };
      }
      const code = error instanceof WebAPIPlatformError ? error.data.error : undefined;
      if (code !== undefined && TOO_BIG.has(code) && what.seqs !== undefined) {
        batchLimit = Math.max(1, Math.floor(what.seqs.length / 2));
      }
      const delay = backoff();
      nextPostAt = performance.now() + delay + WAKE_SLACK_MS;
      const { message } = redactError(error);
      logger.error(
        { err: { message, code }, events: what.events, retryInMs: delay },
        what.seqs === undefined
          ? 'could not post an audit checkpoint; will retry'
          : 'could not post audit events; will retry',
      );
      report({
        post: what.post,
        outcome: 'error',
        events: what.events,
        error: code ?? message,
        retryInMs: delay,
      });
      return { ok: false, delayMs: delay };
    }
    failures = 0;
    nextPostAt = performance.now() + minIntervalMs;
    return { ok: true };
  }

  async function markPosted(size: number): Promise<boolean> {
    try {
      await store.markCheckpointPosted(size, clock().toISOString());
      return true;
    } catch (error) {
      logger.error({ err: redactError(error), size }, 'posted an audit checkpoint but could not mark it');
      return false;
    }
  }

  /** Claims one unposted checkpoint and posts it; null when there is none to post. */
  async function checkpointStep(): Promise<{ claimed: number; delivered: number } | null> {
    let claimed: StoredCheckpoint[];
    try {
      claimed = await store.claimCheckpoints(workerId, 1, leaseMs, clock().toISOString());
    } catch (error) {
      logger.error({ err: redactError(error) }, 'could not claim audit checkpoints');
      return null;
    }
    const checkpoint = claimed[0];
    if (checkpoint === undefined) {
      checkpointHint = false;
      return null;
    }
    const sent = await deliver(renderCheckpointPost(checkpoint, lang), { post: 'checkpoint', events: 0 });
    if (!sent.ok) {
      try {
        await store.releaseCheckpoints(
          [checkpoint.size],
          new Date(clock().getTime() + sent.delayMs).toISOString(),
        );
      } catch (error) {
        logger.error(
          { err: redactError(error) },
          'could not release an audit checkpoint; it returns when the lease ends',
        );
      }
      return { claimed: 1, delivered: 0 };
    }
    if (!(await markPosted(checkpoint.size))) unackedCheckpoint = checkpoint.size;
    logger.info({ size: checkpoint.size }, 'posted an audit checkpoint');
    report({
      post: 'checkpoint',
      outcome: 'ok',
      events: 0,
      firstSeq: checkpoint.size,
      lastSeq: checkpoint.size,
    });
    return { claimed: 1, delivered: 1 };
  }

  /** Claims a batch and posts it. Returns the number of events delivered (0 when none or failed). */
  async function step(): Promise<{ claimed: number; delivered: number }> {
    if (unacked.length > 0) {
      if (!(await ack(unacked))) {
        nextPostAt = performance.now() + backoff();
        return { claimed: 0, delivered: 0 };
      }
      unacked = [];
    }
    if (unackedCheckpoint !== null) {
      if (!(await markPosted(unackedCheckpoint))) {
        nextPostAt = performance.now() + backoff();
        return { claimed: 0, delivered: 0 };
      }
      unackedCheckpoint = null;
    }
    if (checkpointHint) {
      const posted = await checkpointStep();
      if (posted !== null) return posted;
    }

    let events: AuditEvent[];
    try {
      events = await store.claimOutbox(workerId, batchLimit, leaseMs, clock().toISOString());
    } catch (error) {
      const delay = backoff();
      logger.error({ err: redactError(error), retryInMs: delay }, 'could not claim audit events');
      nextPostAt = performance.now() + delay;
      return { claimed: 0, delivered: 0 };
    }
    if (events.length === 0) return (await checkpointStep()) ?? { claimed: 0, delivered: 0 };

    const { post, count } = fitToLimits(events);
    const batch = events.slice(0, count);
    const rest = events.slice(count);
    if (rest.length > 0)
      await release(
        rest.map((e) => e.seq),
        0,
      );
    const seqs = batch.map((e) => e.seq);

    const sent = await deliver(post, { post: 'events', events: seqs.length, seqs });
    if (!sent.ok) {
      await release(seqs, sent.delayMs);
      return { claimed: events.length, delivered: 0 };
    }

    batchLimit = Math.min(batchMax, batchLimit * 2);
    if (!(await ack(seqs))) unacked = seqs;
    report({
      post: 'events',
      outcome: 'ok',
      events: seqs.length,
      firstSeq: seqs[0] ?? 0,
      lastSeq: seqs[seqs.length - 1] ?? 0,
    });
    return { claimed: events.length, delivered: seqs.length };
  }

  function locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = lock.then(fn, fn);
    lock = run.catch(() => undefined);
    return run;
  }

  async function waitForTurn(): Promise<void> {
    const wait = nextPostAt - performance.now();
    if (wait > 0) await sleep(wait, false);
  }

  async function run(): Promise<void> {
    while (running) {
      if (nextPostAt > performance.now()) {
        await waitForTurn();
        continue;
      }
      const { claimed } = await locked(step).catch((error: unknown) => {
        logger.error({ err: redactError(error) }, 'audit publisher step failed');
        nextPostAt = performance.now() + backoff();
        return { claimed: 0, delivered: 0 };
      });
      if (claimed === 0 && running && nextPostAt <= performance.now()) await sleep(idlePollMs, true);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      interrupt();
      await loop;
      loop = null;
      await lock;
    },
    async flushOnce() {
      return locked(async () => {
        await waitForTurn();
        return (await step()).delivered;
      });
    },
    kick() {
      wake();
    },
    kickCheckpoints() {
      checkpointHint = true;
      wake();
    },
  };
}
