/**
 * One pass, two readers: `tee` splits an iterable into two async iterables that each see every
 * item in order, reading the source once. Both readers are meant to run at the same time
 * (`Promise.all`): the source is read ahead in chunks of a few hundred items (one wait per chunk
 * rather than per item), and a reader that gets a thousand items ahead of the other waits for it,
 * so memory stays bounded whichever is faster. A reader that stops
 * early (`return`) is no longer fed, and the source is closed when both stopped or it ended.
 * `audit verify` runs the chain check and the checkpoint check over one read of the log with it.
 * @see docs/architecture.md, "Audit log"
 */
/** Items read ahead at a time. */
const CHUNK = 256;
/** A reader this far ahead of the other waits for it: memory stays bounded whatever their speeds. */
const MAX_AHEAD = 4 * CHUNK;

/** An iterator over sync or async items, read one `next()` at a time. */
export function iteratorOf<T>(items: Iterable<T> | AsyncIterable<T>): AsyncIterator<T> | Iterator<T> {
  return Symbol.asyncIterator in items
    ? (items as AsyncIterable<T>)[Symbol.asyncIterator]()
    : (items as Iterable<T>)[Symbol.iterator]();
}

export function tee<T>(source: Iterable<T> | AsyncIterable<T>): [AsyncIterable<T>, AsyncIterable<T>] {
  const iterator = iteratorOf(source);
  const queues: T[][] = [[], []];
  /** Where each reader is in its queue (shifting a long array item by item would copy it each time). */
  const heads: number[] = [0, 0];
  const reading: boolean[] = [true, true];
  let ended = false;
  let failure: { error: unknown } | null = null;
  let pulling: Promise<void> | null = null;
  /** A reader waiting for the other to catch up. */
  let waiting: (() => void) | null = null;
  const backlog = (i: number) => (queues[i]?.length ?? 0) - (heads[i] ?? 0);
  const wakeWaiting = () => {
    const wake = waiting;
    waiting = null;
    wake?.();
  };

  /** Reads up to {@link CHUNK} items ahead for both readers: one wait per chunk, not per item. */
  async function pull(): Promise<void> {
    try {
      for (let n = 0; n < CHUNK && !ended; n += 1) {
        const step = await iterator.next();
        if (step.done === true) ended = true;
        else for (const i of [0, 1]) if (reading[i]) queues[i]?.push(step.value);
      }
    } catch (error) {
      failure = { error };
    }
  }

  async function close(): Promise<void> {
    if (!ended) {
      ended = true;
      await iterator.return?.();
    }
  }

  function reader(i: 0 | 1): AsyncIterable<T> {
    return {
      [Symbol.asyncIterator]: () => ({
        async next(): Promise<IteratorResult<T>> {
          for (;;) {
            const queue = queues[i] ?? [];
            const head = heads[i] ?? 0;
            if (head < queue.length) {
              const value = queue[head] as T;
              heads[i] = head + 1;
              if (head + 1 >= 1024 && (head + 1) * 2 >= queue.length) {
                queue.splice(0, head + 1);
                heads[i] = 0;
              }
              if (waiting !== null && backlog(i) < CHUNK) wakeWaiting();
              return { done: false, value };
            }
            if (failure !== null) throw failure.error;
            if (ended) return { done: true, value: undefined };
            const other = i === 0 ? 1 : 0;
            if (reading[other] && backlog(other) >= MAX_AHEAD) {
              await new Promise<void>((resolve) => {
                waiting = resolve;
              });
              continue;
            }
            pulling ??= pull().finally(() => {
              pulling = null;
            });
            await pulling;
          }
        },
        async return(): Promise<IteratorResult<T>> {
          reading[i] = false;
          queues[i] = [];
          heads[i] = 0;
          wakeWaiting();
          if (!reading[i === 0 ? 1 : 0]) await close();
          return { done: true, value: undefined };
        },
      }),
    };
  }
  return [reader(0), reader(1)];
}
