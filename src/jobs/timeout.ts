/**
 * The one way vidops waits for something at most so long: `settledWithin` says whether `work`
 * settled within `ms` (and how), or that it is late. The work is not cancelled: it goes on
 * unobserved.
 */
export type Settled<T> = { kind: 'ok'; value: T } | { kind: 'error'; error: unknown } | { kind: 'late' };

export async function settledWithin<T>(work: Promise<T>, ms: number): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ kind: 'late' }>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'late' }), Math.max(0, ms));
  });
  try {
    return await Promise.race([
      work.then(
        (value) => ({ kind: 'ok' as const, value }),
        (error: unknown) => ({ kind: 'error' as const, error }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** `work`'s value, or `undefined` once `ms` passed; a rejection is passed on. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  const settled = await settledWithin(work, ms);
  if (settled.kind === 'error') throw settled.error;
  return settled.kind === 'ok' ? settled.value : undefined;
}

/** `work`'s value; rejects with `new Error(message)` once `ms` passed. */
export async function orTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  const settled = await settledWithin(work, ms);
  if (settled.kind === 'late') throw new Error(message);
  if (settled.kind === 'error') throw settled.error;
  return settled.value;
}
