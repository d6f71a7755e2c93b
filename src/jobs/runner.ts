import { performance } from 'node:perf_hooks';
import { redactError } from '../core/mask.js';
import type { JobLogger } from './scheduler.js';
import { createSleeper, type Sleeper } from './sleeper.js';

/**
 * The idle polls of the audit publisher and the notification worker: this process's own writes
 * wake them at once; the poll, backing off from 2 s to 15 s while it finds nothing, only finds
 * what other processes wrote (replicas, the CLI) or left behind (a lease that ran out).
 */
export const IDLE_POLL = { ms: 2000, maxMs: 15_000 } as const;

/**
 * The one way vidops runs background work that waits to be woken (the audit publisher, the
 * notification worker, the audit checkpointer; periodic sweeps run on ./scheduler.ts): a loop that
 * takes one step at a time, pauses when a step asks it to (a 429's `Retry-After`, a backoff, the
 * channel's spacing), sleeps when a step found nothing until it is woken or the idle poll comes
 * round, and stops on shutdown after the step in hand. A step claims its work from the store with
 * a lease, so a replica that dies leaves nothing claimed for good; what a step does with its claim
 * is the worker's own business. Pauses are measured on the monotonic clock: they are about real
 * seconds, not the injected time the store is given.
 * @see docs/architecture.md, "Scale"
 */
export interface StepResult {
  /** How much work the step found; 0 sends the loop to sleep until woken or the idle poll. */
  claimed: number;
}

export interface JobRunnerOptions<R extends StepResult> {
  /** Names the worker in the log line of a step that threw. */
  name: string;
  logger: JobLogger | undefined;
  /** One step of the loop: claim, do, acknowledge or give back. */
  step: () => Promise<R>;
  /** How often an idle loop looks for work recorded by other processes. */
  idlePollMs: number;
  /**
   * Each look that finds nothing doubles the idle poll up to this (absent: `idlePollMs` every
   * time); work found or a wake brings it back to `idlePollMs`.
   */
  idlePollMaxMs?: number | undefined;
  /** The pause after a step that threw. */
  backoff: Backoff;
}

export class JobRunner<R extends StepResult> {
  readonly #options: JobRunnerOptions<R>;
  readonly #sleeper: Sleeper = createSleeper();
  #running = false;
  #stopping = false;
  #loop: Promise<void> | null = null;
  #nextAt = 0;
  /** The next idle sleep: `idlePollMs`, doubled by each look that found nothing. */
  #idleMs: number;
  /** When work given back for later falls due (`wakeIn`), on `performance.now()`'s clock. */
  #dueAt = Number.POSITIVE_INFINITY;
  /** Whether the last step of the loop threw. */
  #threw = false;
  // One step at a time, whether from the loop or from a caller's `exclusive`.
  #lock: Promise<unknown> = Promise.resolve();

  constructor(options: JobRunnerOptions<R>) {
    this.#options = options;
    this.#idleMs = options.idlePollMs;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops the loop; resolves once the step in hand (if any) finished. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopping = true;
    this.#sleeper.interrupt();
    try {
      await this.#loop;
      this.#loop = null;
      await this.#lock;
    } finally {
      this.#stopping = false;
    }
  }

  /** True while `stop` waits for the step in hand: that step gives back what it has not begun. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** The next step waits until `ms` from now (overrides an earlier pause). */
  pauseFor(ms: number): void {
    this.#nextAt = performance.now() + ms;
  }

  /** When the next step may start, on `performance.now()`'s clock. */
  get nextAt(): number {
    return this.#nextAt;
  }

  /** Work arrived: end an idle sleep now (or the next one, when the loop is busy). */
  wake(): void {
    this.#idleMs = this.#options.idlePollMs;
    this.#sleeper.wake();
  }

  /**
   * Work given back for later falls due in `ms` (said by a step): the idle sleeps that begin from
   * now on end by then, however backed off.
   */
  wakeIn(ms: number): void {
    this.#dueAt = Math.min(this.#dueAt, performance.now() + ms);
  }

  /** Sleeps `ms`, or less when the runner stops. */
  sleep(ms: number): Promise<void> {
    return this.#sleeper.sleep(ms, false);
  }

  /** Runs `work` after any pause, alone: no step of the loop runs at the same time. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.#locked(async () => {
      await this.#waitForTurn();
      return work();
    });
  }

  /** Runs `work` as a step, at once: for work that no pause is meant for (a read, at shutdown). */
  now<T>(work: () => Promise<T>): Promise<T> {
    return this.#locked(work);
  }

  #locked<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(work, work);
    this.#lock = run.catch(() => undefined);
    return run;
  }

  async #waitForTurn(): Promise<void> {
    const wait = this.#nextAt - performance.now();
    if (wait > 0) await this.#sleeper.sleep(wait, false);
  }

  async #run(): Promise<void> {
    const { step, logger, name, backoff, idlePollMs } = this.#options;
    while (this.#running) {
      if (this.#nextAt > performance.now()) {
        await this.#waitForTurn();
        continue;
      }
      const { claimed } = await this.#locked(step).then(
        (result) => {
          // A step that went through after steps that threw ends that run of failures: the next
          // one pauses briefly again. (A worker that counts its own failures resets them itself.)
          if (this.#threw) backoff.reset();
          this.#threw = false;
          return result;
        },
        (error: unknown) => {
          logger?.error({ err: redactError(error) }, `${name} step failed`);
          this.#threw = true;
          this.pauseFor(backoff.next());
          return { claimed: 0 };
        },
      );
      if (claimed > 0) this.#idleMs = idlePollMs;
      else if (this.#running && this.#nextAt <= performance.now()) await this.#idle();
    }
  }

  /** One idle sleep: until woken, work given back falls due, or the (backed-off) poll comes round. */
  async #idle(): Promise<void> {
    const due = this.#dueAt - performance.now();
    if (due <= this.#idleMs) {
      this.#dueAt = Number.POSITIVE_INFINITY;
      return this.#sleeper.sleep(Math.max(0, due), true);
    }
    const ms = this.#idleMs;
    // Doubled before the sleep, so that a wake during it (which resets) is not undone after.
    this.#idleMs = Math.min(ms * 2, Math.max(this.#options.idlePollMaxMs ?? 0, this.#options.idlePollMs));
    return this.#sleeper.sleep(ms, true);
  }
}

/** Exponential backoff: `base`, `2 × base`, … up to `max`, until `reset`. */
export class Backoff {
  #failures = 0;

  constructor(
    readonly baseMs: number,
    readonly maxMs: number,
  ) {}

  /** One more failure: how long to wait before the next try. */
  next(): number {
    this.#failures += 1;
    return delayAfter(this.#failures, this.baseMs, this.maxMs);
  }

  reset(): void {
    this.#failures = 0;
  }
}

/**
 * Exponential backoff per key (a request that keeps failing waits longer, the others do not),
 * remembering at most `limit` keys; beyond that the one failed longest ago is forgotten.
 */
export class KeyedBackoff {
  readonly #failures = new Map<string, number>();

  constructor(
    readonly baseMs: number,
    readonly maxMs: number,
    readonly limit = 1000,
  ) {}

  next(key: string): number {
    const n = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.delete(key);
    this.#failures.set(key, n);
    if (this.#failures.size > this.limit) {
      const oldest = this.#failures.keys().next().value;
      if (oldest !== undefined) this.#failures.delete(oldest);
    }
    return delayAfter(n, this.baseMs, this.maxMs);
  }

  reset(key: string): void {
    this.#failures.delete(key);
  }
}

function delayAfter(failures: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** (failures - 1));
}
