import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { requestSweep } from '../services/sweeps.js';
import type { Operations } from '../services/types.js';
import { Backoff, JobRunner, KeyedBackoff } from './runner.js';
import { Scheduler, type Task } from './scheduler.js';
import { createSleeper } from './sleeper.js';
import { orTimeout, settledWithin, within } from './timeout.js';

/**
 * Attacks on the background machinery as operations would hit it: sweeps that throw or hang,
 * Slack answering errors for minutes, stops at awkward moments. Fake timers move the clock
 * (performance.now() included), so counts and pauses are exact.
 */

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function errorLog() {
  const lines: { obj: object; msg: string | undefined }[] = [];
  return { lines, error: (obj: object, msg?: string) => void lines.push({ obj, msg }) };
}

/** Lets promise chains run without moving the clock. */
async function flush(times = 20): Promise<void> {
  for (let i = 0; i < times; i += 1) await Promise.resolve();
}

/** Whether `p` has settled, looked at without moving the clock. */
async function isSettled(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await flush();
  return settled;
}

const MINUTE = 60_000;

/**
 * Fake timers, with the monotonic clock the runner reads (perf_hooks' `performance.now`, which
 * Jest's fake timers do not replace) moved with them.
 */
function fakeTime(): void {
  jest.useFakeTimers();
  const start = Date.now();
  const base = performance.now();
  jest.spyOn(performance, 'now').mockImplementation(() => base + (Date.now() - start));
}

function realTime(): void {
  jest.clearAllTimers();
  jest.useRealTimers();
  jest.restoreAllMocks();
}

describe('the sweeps scheduler, attacked', () => {
  beforeEach(fakeTime);
  afterEach(realTime);

  test('a sweep that throws every time is logged once per run, and the other sweeps still run on time', async () => {
    const log = errorLog();
    let broken = 0;
    const healthy: number[] = [];
    const scheduler = new Scheduler(
      [
        {
          name: 'broken',
          everyMs: 30_000,
          run: async () => {
            broken += 1;
            throw new Error('database is locked');
          },
        },
        { name: 'healthy', everyMs: 30_000, run: async () => void healthy.push(Date.now()) },
      ],
      log,
    );
    const t0 = Date.now();
    scheduler.start();
    await jest.advanceTimersByTimeAsync(5 * MINUTE);
    expect(broken).toBe(10);
    expect(log.lines).toHaveLength(10);
    expect(log.lines.every((l) => l.msg === 'broken failed')).toBe(true);
    expect(healthy.map((t) => t - t0)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => n * 30_000));
    await scheduler.stop();
    expect(jest.getTimerCount()).toBe(0);
  });

  test('a sweep that throws before it returns a promise is logged, not a crash, and comes again', async () => {
    const log = errorLog();
    let runs = 0;
    const scheduler = new Scheduler(
      [
        {
          name: 'sync thrower',
          everyMs: 1000,
          atStart: true,
          run: () => {
            runs += 1;
            throw new TypeError('cannot read properties of undefined');
          },
        },
      ],
      log,
    );
    scheduler.start();
    await jest.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(4);
    expect(log.lines).toHaveLength(4);
    await scheduler.stop();
  });

  test('a sweep that hangs forever runs once, and the other sweeps keep their schedule', async () => {
    const log = errorLog();
    let hung = 0;
    let healthy = 0;
    const scheduler = new Scheduler(
      [
        {
          name: 'hung',
          everyMs: 30_000,
          atStart: true,
          run: () => {
            hung += 1;
            return new Promise(() => undefined);
          },
        },
        {
          name: 'healthy',
          everyMs: 30_000,
          run: async () => {
            healthy += 1;
          },
        },
      ],
      log,
    );
    scheduler.start();
    await jest.advanceTimersByTimeAsync(10 * MINUTE);
    expect(hung).toBe(1);
    expect(healthy).toBe(20);
    expect(log.lines).toHaveLength(0);
    const stopped = scheduler.stop();
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(healthy).toBe(20);
    void stopped;
  });

  // Was a defect: Scheduler.stop() waits for the runs in hand with no bound (scheduler.ts:49). One sweep
  // stuck on a DB lock or a hung socket makes vidops.stop() (sweeps are stopped first) never
  // resolve: SIGTERM never drains the audit backlog nor closes the store, and the process is
  // SIGKILLed by its supervisor.
  test('an operator stopping vidops while a sweep hangs gets the stop back within a bound', async () => {
    const scheduler = new Scheduler(
      [{ name: 'hung', everyMs: 30_000, atStart: true, run: () => new Promise(() => undefined) }],
      undefined,
    );
    scheduler.start();
    await jest.advanceTimersByTimeAsync(1000);
    const stopped = scheduler.stop();
    await jest.advanceTimersByTimeAsync(10 * MINUTE);
    expect(await isSettled(stopped)).toBe(true);
  });

  test('a sweep slower than its interval never runs twice at once, nor back to back to catch up', async () => {
    let running = 0;
    let most = 0;
    const starts: number[] = [];
    const scheduler = new Scheduler(
      [
        {
          name: 'slow',
          everyMs: 30_000,
          run: async () => {
            starts.push(Date.now());
            running += 1;
            most = Math.max(most, running);
            await new Promise((r) => setTimeout(r, 45_000));
            running -= 1;
          },
        },
      ],
      undefined,
    );
    const t0 = Date.now();
    scheduler.start();
    await jest.advanceTimersByTimeAsync(5 * MINUTE);
    expect(most).toBe(1);
    // Runs at 30 s (ends 75 s), 90 s (ends 135 s), 150 s, 210 s, 270 s: every other tick skipped.
    expect(starts.map((t) => t - t0)).toEqual([30_000, 90_000, 150_000, 210_000, 270_000]);
    const stopped = scheduler.stop();
    expect(await isSettled(stopped)).toBe(false);
    await jest.advanceTimersByTimeAsync(45_000);
    expect(await isSettled(stopped)).toBe(true);
    expect(starts).toHaveLength(5);
  });

  test('stop during a run waits for exactly that run, and nothing runs after it', async () => {
    const release = deferred();
    let runs = 0;
    let finished = 0;
    const scheduler = new Scheduler(
      [
        {
          name: 'sweep',
          everyMs: 1000,
          atStart: true,
          run: async () => {
            runs += 1;
            await release.promise;
            finished += 1;
          },
        },
      ],
      undefined,
    );
    scheduler.start();
    await jest.advanceTimersByTimeAsync(10);
    const stopped = scheduler.stop();
    const again = scheduler.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(await isSettled(stopped)).toBe(false);
    release.resolve();
    await flush();
    expect(await isSettled(stopped)).toBe(true);
    expect(await isSettled(again)).toBe(true);
    expect(finished).toBe(1);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('a scheduler stopped before it started, or started twice, leaves no timer and runs nothing', async () => {
    let runs = 0;
    const task: Task = {
      name: 't',
      everyMs: 100,
      atStart: true,
      run: async () => {
        runs += 1;
      },
    };
    const early = new Scheduler([task], undefined);
    await early.stop();
    early.start();
    expect(jest.getTimerCount()).toBe(0);
    const twice = new Scheduler([task], undefined);
    twice.start();
    twice.start();
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(11); // once at start and every 100 ms: not doubled
    await twice.stop();
    expect(jest.getTimerCount()).toBe(0);
  });

  // Was a defect: the request sweep runs its five steps in one chain (sweeps.ts:84-90): when expiring
  // keeps throwing (one request whose transition the store refuses), interrupted requests are
  // never resumed, time-boxed changes are never put back (an IP stays whitelisted past its
  // time box), break-glass is never chased and delegations never end, every 30 s, for good.
  test('a lead whose time-boxed change is due gets it put back even while expiring keeps failing', async () => {
    const calls: string[] = [];
    const ops = {
      expireDue: async () => {
        calls.push('expire');
        throw new Error('SQLITE_CONSTRAINT: one poisoned request');
      },
      resumeInterrupted: async () => void calls.push('resume'),
      sweepTimeBoxes: async () => void calls.push('put back'),
      remindBreakGlass: async () => void calls.push('break-glass'),
      expireDelegations: async () => void calls.push('delegations'),
    } as unknown as Operations;
    const log = errorLog();
    const scheduler = new Scheduler([requestSweep(ops, 30_000)], log);
    scheduler.start();
    await jest.advanceTimersByTimeAsync(5 * MINUTE);
    await scheduler.stop();
    expect(calls.filter((c) => c === 'expire')).toHaveLength(11);
    expect(calls.filter((c) => c === 'put back')).toHaveLength(11);
    expect(calls.filter((c) => c === 'resume')).toHaveLength(11);
    expect(calls.filter((c) => c === 'delegations')).toHaveLength(11);
  });
});

describe('a background worker against a failing Slack, attacked', () => {
  beforeEach(fakeTime);
  afterEach(realTime);

  test('Slack failing for ten minutes: the retries double up to the cap, one log line each, no busy loop', async () => {
    const log = errorLog();
    const at: number[] = [];
    const runner = new JobRunner({
      name: 'audit publisher',
      logger: log,
      idlePollMs: 2000,
      backoff: new Backoff(1000, 60_000),
      step: async () => {
        at.push(performance.now());
        throw new Error('An API error occurred: internal_error');
      },
    });
    runner.start();
    await jest.advanceTimersByTimeAsync(10 * MINUTE);
    // 0, 1, 3, 7, 15, 31, 63, 123, 183, … 603 s: 15 tries in ten minutes.
    expect(at.length).toBeGreaterThanOrEqual(13);
    expect(at.length).toBeLessThanOrEqual(16);
    expect(log.lines).toHaveLength(at.length);
    const gaps = at.slice(1).map((t, i) => Math.round((t - (at[i] as number)) / 100) * 100);
    expect(gaps.slice(0, 6)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(60_000);
    const stopped = runner.stop();
    expect(await isSettled(stopped)).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('when Slack comes back the worker goes back to work, and idles on the poll, not in a loop', async () => {
    let failing = true;
    let steps = 0;
    const runner = new JobRunner({
      name: 'notification worker',
      logger: errorLog(),
      idlePollMs: 2000,
      backoff: new Backoff(1000, 60_000),
      step: async () => {
        steps += 1;
        if (failing) throw new Error('ECONNRESET');
        return { claimed: 0 };
      },
    });
    runner.start();
    await jest.advanceTimersByTimeAsync(5 * MINUTE);
    failing = false;
    await jest.advanceTimersByTimeAsync(60_000);
    const after = steps;
    await jest.advanceTimersByTimeAsync(60_000);
    // One look per idle poll: 30 in a minute.
    expect(steps - after).toBe(30);
    await runner.stop();
  });

  // Was a defect: the runner calls backoff.next() after every step that threw but never reset() after a
  // step that did not (runner.ts:124-129); only the workers' own Slack paths reset it. After a
  // long outage the first new failure waits the full cap (60 s) instead of the base (1 s).
  test('after an outage is over, a single new failure waits the base pause, not the cap', async () => {
    let failing = true;
    const at: number[] = [];
    const runner = new JobRunner({
      name: 'checkpointer',
      logger: errorLog(),
      idlePollMs: 500,
      backoff: new Backoff(1000, 60_000),
      step: async () => {
        at.push(performance.now());
        if (failing) throw new Error('database unavailable');
        return { claimed: 0 };
      },
    });
    runner.start();
    await jest.advanceTimersByTimeAsync(5 * MINUTE);
    failing = false;
    await jest.advanceTimersByTimeAsync(2 * MINUTE);
    failing = true;
    await jest.advanceTimersByTimeAsync(600); // the next idle poll fails
    const failedAt = at[at.length - 1] as number;
    failing = false;
    await jest.advanceTimersByTimeAsync(70_000);
    await runner.stop();
    const next = at.find((t) => t > failedAt);
    expect(next).toBeDefined();
    expect((next as number) - failedAt).toBeLessThanOrEqual(1000);
  });

  test('stop while the worker waits out a long Retry-After comes back at once', async () => {
    let steps = 0;
    const runner: JobRunner<{ claimed: number }> = new JobRunner({
      name: 'audit publisher',
      logger: errorLog(),
      idlePollMs: 2000,
      backoff: new Backoff(1000, 60_000),
      step: async () => {
        steps += 1;
        runner.pauseFor(30 * MINUTE);
        return { claimed: 1 };
      },
    });
    runner.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(steps).toBe(1);
    const stopped = runner.stop();
    expect(await isSettled(stopped)).toBe(true);
    expect(steps).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('stop in the middle of a step waits for that step and starts no other', async () => {
    const release = deferred();
    let steps = 0;
    let stoppingSeen = false;
    const runner: JobRunner<{ claimed: number }> = new JobRunner({
      name: 'notification worker',
      logger: errorLog(),
      idlePollMs: 10,
      backoff: new Backoff(10, 100),
      step: async () => {
        steps += 1;
        await release.promise;
        stoppingSeen = runner.stopping;
        return { claimed: 3 };
      },
    });
    runner.start();
    await flush();
    const stopped = runner.stop();
    const twice = runner.stop();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(await isSettled(stopped)).toBe(false);
    release.resolve();
    await flush();
    expect(await isSettled(stopped)).toBe(true);
    expect(await isSettled(twice)).toBe(true);
    expect(stoppingSeen).toBe(true);
    expect(steps).toBe(1);
    expect(runner.stopping).toBe(false);
  });

  test('a wake that arrives while a step is busy is not lost: the next idle sleep ends at once', async () => {
    let steps = 0;
    const gate = deferred();
    const runner: JobRunner<{ claimed: number }> = new JobRunner({
      name: 'notification worker',
      logger: errorLog(),
      idlePollMs: 60_000,
      backoff: new Backoff(10, 100),
      step: async () => {
        steps += 1;
        if (steps === 1) await gate.promise;
        return { claimed: 0 };
      },
    });
    runner.start();
    await flush();
    runner.wake(); // work arrived while the first step runs
    gate.resolve();
    await jest.advanceTimersByTimeAsync(5);
    expect(steps).toBe(2);
    await runner.stop();
  });

  // Was a defect: the one sleeper keeps one wake-up handle (sleeper.ts:29-30); a caller's exclusive()
  // waiting out the same pause as the loop overwrites the loop's handle, so stop() interrupts only
  // the caller and then waits the loop's whole pause (here a 30-minute Retry-After).
  test('stop during a long pause comes back at once even when a flush waits on the same pause', async () => {
    let steps = 0;
    const runner: JobRunner<{ claimed: number }> = new JobRunner({
      name: 'audit publisher',
      logger: errorLog(),
      idlePollMs: 2000,
      backoff: new Backoff(1000, 60_000),
      step: async () => {
        steps += 1;
        runner.pauseFor(30 * MINUTE);
        return { claimed: 1 };
      },
    });
    runner.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(steps).toBe(1);
    const flushed = runner.exclusive(async () => 'flushed');
    await jest.advanceTimersByTimeAsync(1000);
    const stopped = runner.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(await isSettled(flushed)).toBe(true);
    expect(await isSettled(stopped)).toBe(true);
  });

  test('many requests failing for good are remembered up to the limit, the one failed longest ago forgotten first', () => {
    const keyed = new KeyedBackoff(1000, 60_000, 3);
    expect(keyed.next('a')).toBe(1000);
    expect(keyed.next('a')).toBe(2000);
    keyed.next('b');
    keyed.next('c');
    keyed.next('a'); // a failed last now
    keyed.next('d'); // four keys: b, failed longest ago, goes
    expect(keyed.next('b')).toBe(1000);
    expect(keyed.next('a')).toBe(8000); // its fourth failure in a row
    for (let i = 0; i < 100_000; i += 1) keyed.next(`req-${i}`);
    expect(keyed.next('a')).toBe(1000); // forgotten under the flood; the map stayed at 3
  });

  test('a backoff after thousands of failures stays at the cap, never Infinity or NaN', () => {
    const backoff = new Backoff(1000, 60_000);
    let last = 0;
    for (let i = 0; i < 5000; i += 1) last = backoff.next();
    expect(last).toBe(60_000);
    backoff.reset();
    expect(backoff.next()).toBe(1000);
  });
});

describe('the sleeper and the timeout helpers, attacked', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  // Was a defect: a pause longer than setTimeout's limit (2^31-1 ms, about 24.8 days; a Retry-After of
  // 2147484 s or more) is not clamped (sleeper.ts:27, runner.ts:73): Node fires it after 1 ms, so
  // the loop spins in waitForTurn, about a thousand timers a second, instead of waiting.
  test('a worker told to wait longer than a timer can hold waits, it does not spin', async () => {
    const realSetTimeout = globalThis.setTimeout;
    let timers = 0;
    const counting = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      timers += 1;
      return realSetTimeout(fn, ms, ...args);
    }) as typeof setTimeout;
    const warn = process.emitWarning;
    process.emitWarning = () => undefined;
    globalThis.setTimeout = counting;
    let steps = 0;
    const runner: JobRunner<{ claimed: number }> = new JobRunner({
      name: 'audit publisher',
      logger: errorLog(),
      idlePollMs: 2000,
      backoff: new Backoff(1000, 60_000),
      step: async () => {
        steps += 1;
        runner.pauseFor(2 ** 31 + 1000);
        return { claimed: 1 };
      },
    });
    try {
      runner.start();
      await new Promise((r) => realSetTimeout(r, 200));
      await runner.stop();
    } finally {
      globalThis.setTimeout = realSetTimeout;
      process.emitWarning = warn;
    }
    expect(steps).toBe(1);
    expect(timers).toBeLessThanOrEqual(3);
  });

  test('an interrupted sleeper ends its sleep at once and leaves no timer behind', async () => {
    jest.useFakeTimers();
    const sleeper = createSleeper();
    const slept = sleeper.sleep(60_000, false);
    sleeper.interrupt();
    expect(await isSettled(slept)).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
    sleeper.wake(); // kept for the next kickable sleep
    expect(await isSettled(sleeper.sleep(60_000, true))).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('waiting at most so long: a hung promise is "late" on time and its timer is cleared either way', async () => {
    jest.useFakeTimers();
    const hung = new Promise<string>(() => undefined);
    const late = settledWithin(hung, 5000);
    await jest.advanceTimersByTimeAsync(4999);
    expect(await isSettled(late)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await late).toEqual({ kind: 'late' });
    expect(await within(Promise.resolve(7), 5000)).toBe(7);
    expect(jest.getTimerCount()).toBe(0);
    await expect(within(Promise.reject(new Error('boom')), 5000)).rejects.toThrow('boom');
    const timedOut = orTimeout(hung, 1000, 'Slack did not answer in time');
    const caught = timedOut.catch((e: Error) => e.message);
    await jest.advanceTimersByTimeAsync(1000);
    expect(await caught).toBe('Slack did not answer in time');
    expect(await settledWithin(Promise.resolve(1), -5)).toEqual({ kind: 'ok', value: 1 });
    expect(jest.getTimerCount()).toBe(0);
  });
});
