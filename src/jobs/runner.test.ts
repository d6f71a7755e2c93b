import pino from 'pino';
import { Backoff, JobRunner, KeyedBackoff } from './runner.js';
import { settledWithin } from './timeout.js';

const logger = pino({ level: 'silent' });

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('a background worker runs one step at a time and stops cleanly', () => {
  it('an idle worker is woken by new work instead of waiting for the next poll', async () => {
    let steps = 0;
    const second = deferred();
    const runner = new JobRunner({
      name: 'test',
      logger,
      idlePollMs: 60_000,
      backoff: new Backoff(10, 100),
      step: async () => {
        steps += 1;
        if (steps === 2) second.resolve();
        return { claimed: 0 };
      },
    });
    runner.start();
    await new Promise((r) => setTimeout(r, 20));
    runner.wake();
    expect((await settledWithin(second.promise, 1000)).kind).toBe('ok');
    await runner.stop();
  });

  it('a step that throws pauses the loop for the backoff, then tries again', async () => {
    const times: number[] = [];
    const third = deferred();
    const runner = new JobRunner({
      name: 'test',
      logger,
      idlePollMs: 0,
      backoff: new Backoff(40, 1000),
      step: async () => {
        times.push(performance.now());
        if (times.length === 3) third.resolve();
        throw new Error('store down');
      },
    });
    runner.start();
    await settledWithin(third.promise, 2000);
    await runner.stop();
    expect(times.length).toBeGreaterThanOrEqual(3);
    // 40 ms, then 80 ms: the pause doubles while the failures go on.
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(35);
    expect((times[2] as number) - (times[1] as number)).toBeGreaterThanOrEqual(75);
  });

  it('stop waits for the step in hand and tells it to give back the rest', async () => {
    const inStep = deferred();
    const finish = deferred();
    let sawStopping = false;
    const runner: JobRunner<{ claimed: number }> = new JobRunner({
      name: 'test',
      logger,
      idlePollMs: 60_000,
      backoff: new Backoff(10, 100),
      step: async () => {
        inStep.resolve();
        await finish.promise;
        sawStopping = runner.stopping;
        return { claimed: 1 };
      },
    });
    runner.start();
    await inStep.promise;
    const stopped = runner.stop();
    expect((await settledWithin(stopped, 50)).kind).toBe('late');
    finish.resolve();
    expect((await settledWithin(stopped, 1000)).kind).toBe('ok');
    expect(sawStopping).toBe(true);
    expect(runner.stopping).toBe(false);
  });

  it('work run from outside never overlaps a step of the loop, and waits out a pause', async () => {
    let inside = 0;
    let overlapped = false;
    const runner = new JobRunner({
      name: 'test',
      logger,
      idlePollMs: 1,
      backoff: new Backoff(10, 100),
      step: async () => {
        inside += 1;
        if (inside > 1) overlapped = true;
        await new Promise((r) => setTimeout(r, 2));
        inside -= 1;
        return { claimed: 1 };
      },
    });
    runner.start();
    const outside = async () => {
      inside += 1;
      if (inside > 1) overlapped = true;
      await new Promise((r) => setTimeout(r, 2));
      inside -= 1;
    };
    await Promise.all([runner.exclusive(outside), runner.exclusive(outside), runner.exclusive(outside)]);
    await runner.stop();
    expect(overlapped).toBe(false);

    runner.pauseFor(60);
    const started = performance.now();
    await runner.exclusive(async () => undefined);
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
  });
});

describe('backoff', () => {
  it('doubles up to its maximum and starts over after a success', () => {
    const b = new Backoff(100, 350);
    expect([b.next(), b.next(), b.next(), b.next()]).toEqual([100, 200, 350, 350]);
    b.reset();
    expect(b.next()).toBe(100);
  });

  it('per key, one request that keeps failing does not slow the others, and old keys are forgotten', () => {
    const b = new KeyedBackoff(100, 10_000, 2);
    expect([b.next('a'), b.next('a'), b.next('b')]).toEqual([100, 200, 100]);
    b.next('c'); // 'a' failed longest ago: forgotten
    expect(b.next('a')).toBe(100);
    b.reset('c');
    expect(b.next('c')).toBe(100);
  });
});
