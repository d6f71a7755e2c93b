import { Scheduler, type Task } from './scheduler.js';
import { settledWithin } from './timeout.js';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function logLines() {
  const lines: { obj: object; msg: string | undefined }[] = [];
  return { lines, error: (obj: object, msg?: string) => lines.push({ obj, msg }) };
}

describe('periodic work runs on time, one run of a task at a time', () => {
  it('a task runs every interval until stopped, and never after', async () => {
    let runs = 0;
    const third = deferred();
    const scheduler = new Scheduler(
      [
        {
          name: 'count',
          everyMs: 15,
          run: async () => {
            runs += 1;
            if (runs === 3) third.resolve();
          },
        },
      ],
      undefined,
    );
    scheduler.start();
    expect((await settledWithin(third.promise, 2000)).kind).toBe('ok');
    await scheduler.stop();
    const stoppedAt = runs;
    await wait(60);
    expect(runs).toBe(stoppedAt);
  });

  it('a task asked to run at start runs at once, not a period later', async () => {
    const ran = deferred();
    const scheduler = new Scheduler(
      [{ name: 'at start', everyMs: 60_000, atStart: true, run: async () => ran.resolve() }],
      undefined,
    );
    scheduler.start();
    expect((await settledWithin(ran.promise, 500)).kind).toBe('ok');
    await scheduler.stop();
  });

  it('a run still going when the next is due is not doubled: that tick is skipped', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const release = deferred();
    const scheduler = new Scheduler(
      [
        {
          name: 'slow',
          everyMs: 10,
          run: async () => {
            runs += 1;
            running += 1;
            most = Math.max(most, running);
            await release.promise;
            running -= 1;
          },
        },
      ],
      undefined,
    );
    scheduler.start();
    await wait(80);
    expect(runs).toBe(1);
    release.resolve();
    await wait(40);
    await scheduler.stop();
    expect(most).toBe(1);
    expect(runs).toBeGreaterThan(1);
  });

  it('a run that throws is logged with the task name, and the next comes on time', async () => {
    const log = logLines();
    let runs = 0;
    const second = deferred();
    const scheduler = new Scheduler(
      [
        {
          name: 'sweep',
          everyMs: 15,
          run: async () => {
            runs += 1;
            if (runs === 2) second.resolve();
            throw new Error('store down');
          },
        },
      ],
      log,
    );
    scheduler.start();
    expect((await settledWithin(second.promise, 2000)).kind).toBe('ok');
    await scheduler.stop();
    expect(log.lines[0]).toEqual({
      obj: { task: 'sweep', err: { name: 'Error', message: 'store down' } },
      msg: 'sweep failed',
    });
  });

  it('a task that throws before its first await is logged like any other failure', async () => {
    const log = logLines();
    const scheduler = new Scheduler(
      [
        {
          name: 'at once',
          everyMs: 60_000,
          atStart: true,
          run: () => {
            throw new Error('no');
          },
        },
      ],
      log,
    );
    scheduler.start();
    await scheduler.stop();
    expect(log.lines.map((l) => l.msg)).toEqual(['at once failed']);
  });

  it('stop waits for the run in hand before it resolves', async () => {
    const inRun = deferred();
    const finish = deferred();
    let finished = false;
    const scheduler = new Scheduler(
      [
        {
          name: 'long',
          everyMs: 60_000,
          atStart: true,
          run: async () => {
            inRun.resolve();
            await finish.promise;
            finished = true;
          },
        },
      ],
      undefined,
    );
    scheduler.start();
    await inRun.promise;
    const stopped = scheduler.stop();
    expect((await settledWithin(stopped, 50)).kind).toBe('late');
    finish.resolve();
    await stopped;
    expect(finished).toBe(true);
  });

  it('each task keeps its own pace: a slow task does not hold back another', async () => {
    const release = deferred();
    let quick = 0;
    const tasks: Task[] = [
      { name: 'slow', everyMs: 10, atStart: true, run: () => release.promise },
      {
        name: 'quick',
        everyMs: 10,
        run: async () => {
          quick += 1;
        },
      },
    ];
    const scheduler = new Scheduler(tasks, undefined);
    scheduler.start();
    await wait(80);
    release.resolve();
    await scheduler.stop();
    expect(quick).toBeGreaterThan(1);
  });

  it('a schedule does not keep the process alive', async () => {
    const scheduler = new Scheduler(
      [{ name: 'idle', everyMs: 60_000, run: async () => undefined }],
      undefined,
    );
    const before = keepingAlive();
    scheduler.start();
    expect(keepingAlive()).toBe(before);
    await scheduler.stop();
  });
});

/** How many timers keep the event loop alive now. */
function keepingAlive(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}
