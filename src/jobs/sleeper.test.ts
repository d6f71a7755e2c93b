import { createSleeper } from './sleeper.js';

/** Resolves with which came first: the sleep ending, or `ms` passing. */
async function endsWithin(sleep: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([sleep.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a worker loop sleeps until work arrives', () => {
  it('work that arrives during a kickable sleep ends it at once', async () => {
    const s = createSleeper();
    const sleeping = s.sleep(60_000, true);
    s.wake();
    expect(await endsWithin(sleeping, 1000)).toBe(true);
  });

  it('work that arrived while the loop was busy ends the next kickable sleep, once', async () => {
    const s = createSleeper();
    s.wake();
    expect(await endsWithin(s.sleep(60_000, true), 1000)).toBe(true);
    const again = s.sleep(60_000, true);
    expect(await endsWithin(again, 50)).toBe(false);
    s.interrupt();
    await again;
  });

  it('a pause that is not kickable (a rate limit) is not cut short by work, only by stopping', async () => {
    const s = createSleeper();
    const pause = s.sleep(60_000, false);
    s.wake();
    expect(await endsWithin(pause, 50)).toBe(false);
    s.interrupt();
    expect(await endsWithin(pause, 1000)).toBe(true);
  });
});
