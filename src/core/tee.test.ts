import { tee } from './tee.js';

async function collect<T>(items: AsyncIterable<T>, stopAfter = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= stopAfter) break;
  }
  return out;
}

/** A source that counts how often it was read and whether it was closed. */
function counted(n: number) {
  const stats = { reads: 0, closed: false };
  async function* source() {
    try {
      for (let i = 1; i <= n; i += 1) {
        stats.reads += 1;
        yield i;
      }
    } finally {
      stats.closed = true;
    }
  }
  return { stats, source: source() };
}

describe('two checks read the audit log once', () => {
  it('both readers see every event in order, and the source is read once', async () => {
    const { stats, source } = counted(5000);
    const [a, b] = tee(source);
    const [x, y] = await Promise.all([collect(a), collect(b)]);
    expect(x).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(y).toEqual(x);
    expect(stats.reads).toBe(5000);
  });

  it('a reader that stops early (a broken chain) leaves the other reading to the end', async () => {
    const { stats, source } = counted(3000);
    const [a, b] = tee(source);
    const [x, y] = await Promise.all([collect(a, 7), collect(b)]);
    expect(x).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(y).toHaveLength(3000);
    expect(stats.closed).toBe(true);
  });

  it('when both stop early the source is closed, read only a chunk ahead', async () => {
    const { stats, source } = counted(100_000);
    const [a, b] = tee(source);
    await Promise.all([collect(a, 3), collect(b, 5)]);
    expect(stats.closed).toBe(true);
    expect(stats.reads).toBeLessThanOrEqual(256);
  });

  it('a fast reader waits for a slow one: the backlog stays bounded', async () => {
    const { stats, source } = counted(20_000);
    const [fast, slow] = tee(source);
    let most = 0;
    const slowly = async () => {
      let n = 0;
      for await (const _ of slow) {
        n += 1;
        most = Math.max(most, stats.reads - n);
        // A slow reader: every item costs it a few turns of the event loop.
        for (let k = 0; k < 3; k += 1) await Promise.resolve();
      }
      return n;
    };
    const [x, y] = await Promise.all([collect(fast), slowly()]);
    expect([x.length, y]).toEqual([20_000, 20_000]);
    expect(most).toBeLessThanOrEqual(4 * 256 + 256);
  });

  it('a source that fails fails both readers', async () => {
    async function* failing() {
      yield 1;
      throw new Error('database gone');
    }
    const [a, b] = tee(failing());
    const results = await Promise.allSettled([collect(a), collect(b)]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual([
      'Error: database gone',
      'Error: database gone',
    ]);
  });

  it('takes a plain array too', async () => {
    const [a, b] = tee([1, 2, 3]);
    expect(await Promise.all([collect(a), collect(b)])).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });
});
