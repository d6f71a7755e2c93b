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

describe('an idle worker looks less and less often, and never misses work', () => {
  /** A worker whose step takes the rows another process put in `rows`; the times of its looks. */
  function idleWorker(idlePollMs: number, idlePollMaxMs: number) {
    const rows: string[] = [];
    const looks: number[] = [];
    const taken: { row: string; at: number }[] = [];
    const runner = new JobRunner({
      name: 'test',
      logger,
      idlePollMs,
      idlePollMaxMs,
      backoff: new Backoff(10, 100),
      step: async () => {
        looks.push(performance.now());
        const row = rows.shift();
        if (row === undefined) return { claimed: 0 };
        taken.push({ row, at: performance.now() });
        return { claimed: 1 };
      },
    });
    const takenBy = async (row: string, ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        const found = taken.find((t) => t.row === row);
        if (found) return found.at;
        await new Promise((r) => setTimeout(r, 5));
      }
      return null;
    };
    return { runner, rows, looks, takenBy };
  }

  it('finding nothing, the worker doubles its pause up to the longest, then keeps that pace', async () => {
    const { runner, looks } = idleWorker(25, 100);
    runner.start();
    await new Promise((r) => setTimeout(r, 520));
    await runner.stop();
    const gaps = looks.slice(1).map((t, i) => t - (looks[i] as number));
    // 25, 50, 100, 100, … ms: about 7 looks in 520 ms, where a steady 25 ms pace makes 21.
    expect(gaps[1] as number).toBeGreaterThan(gaps[0] as number);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(90);
    expect(looks.length).toBeLessThanOrEqual(9);
  });

  it('a backed-off worker still takes a row another replica recorded, within the longest pause', async () => {
    const { runner, rows, takenBy } = idleWorker(20, 200);
    runner.start();
    await new Promise((r) => setTimeout(r, 500)); // backed off to 200 ms
    const recorded = performance.now();
    rows.push('from another replica'); // no wake: that replica's nudge reaches only its own workers
    const at = await takenBy('from another replica', 1000);
    await runner.stop();
    expect(at).not.toBeNull();
    expect((at as number) - recorded).toBeLessThanOrEqual(350);
  });

  it("this process's own write wakes a backed-off worker at once, and it looks often again", async () => {
    const { runner, rows, looks, takenBy } = idleWorker(60, 60_000);
    runner.start();
    await new Promise((r) => setTimeout(r, 500)); // looks at 0, 60, 180, 420 ms, then sleeps 480 ms
    const recorded = performance.now();
    rows.push('own');
    runner.wake();
    const at = await takenBy('own', 1000);
    expect(at).not.toBeNull();
    expect((at as number) - recorded).toBeLessThan(200);
    // Work found: the next looks come at the first pace, not the backed-off one.
    const before = looks.length;
    await new Promise((r) => setTimeout(r, 100));
    await runner.stop();
    expect(looks.length).toBeGreaterThan(before);
  });

  it('work given back for later is looked for when it falls due, not at the next slow poll', async () => {
    const { runner, rows, takenBy } = idleWorker(1000, 60_000);
    runner.start();
    await new Promise((r) => setTimeout(r, 50)); // the first look found nothing: asleep for 1 s
    // A step gives a row back for 150 ms from now and says so, as the notification worker does.
    rows.push('give back');
    let given = 0;
    const step = rows.shift.bind(rows);
    rows.shift = () => {
      const row = step();
      if (row === 'give back') {
        given = performance.now();
        setTimeout(() => rows.push('retry'), 150);
        runner.wakeIn(160);
      }
      return row;
    };
    runner.wake();
    const at = await takenBy('retry', 3000);
    await runner.stop();
    expect(at).not.toBeNull();
    expect((at as number) - given).toBeGreaterThanOrEqual(150);
    // Without wakeIn the row waits for the poll, a second after the give-back.
    expect((at as number) - given).toBeLessThan(800);
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
