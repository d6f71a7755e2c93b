import { performance } from 'node:perf_hooks';

/**
 * The pause of a worker loop (see `runner.ts`): `sleep` waits, and a
 * kickable sleep ends early when work arrives (`wake`); a wake while the loop is busy is kept for
 * its next kickable sleep, so no arrival is missed. `interrupt` ends every sleep at once (stop),
 * the loop's and those of callers waiting their turn. Timers are unref'd: a sleeping worker never
 * keeps the process alive.
 */
export interface Sleeper {
  sleep(ms: number, kickable: boolean): Promise<void>;
  wake(): void;
  interrupt(): void;
}

/** The longest delay a Node.js timer takes (about 24.8 days); a longer pause is slept in parts. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Sleeping {
  kickable: boolean;
  done: () => void;
}

export function createSleeper(): Sleeper {
  let kicked = false;
  const sleeping = new Set<Sleeping>();
  return {
    sleep(ms, kickable) {
      return new Promise((resolve) => {
        if (kickable && kicked) {
          kicked = false;
          resolve();
          return;
        }
        const endsAt = performance.now() + ms;
        let timer: NodeJS.Timeout;
        const arm = (left: number) => {
          timer = setTimeout(
            () => {
              const rest = endsAt - performance.now();
              if (rest > 0) arm(rest);
              else me.done();
            },
            Math.min(Math.max(left, 0), MAX_TIMER_MS),
          );
          timer.unref();
        };
        const me: Sleeping = {
          kickable,
          done() {
            clearTimeout(timer);
            sleeping.delete(me);
            resolve();
          },
        };
        sleeping.add(me);
        arm(ms);
      });
    },
    wake() {
      const sleeper = [...sleeping].find((s) => s.kickable);
      if (sleeper) sleeper.done();
      else kicked = true;
    },
    interrupt() {
      for (const sleeper of [...sleeping]) sleeper.done();
    },
  };
}
