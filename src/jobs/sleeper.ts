/**
 * The pause of a worker loop (see `runner.ts`): `sleep` waits, and a
 * kickable sleep ends early when work arrives (`wake`); a wake while the loop is busy is kept for
 * its next kickable sleep, so no arrival is missed. `interrupt` ends any sleep at once (stop).
 * Timers are unref'd: a sleeping worker never keeps the process alive.
 */
export interface Sleeper {
  sleep(ms: number, kickable: boolean): Promise<void>;
  wake(): void;
  interrupt(): void;
}

export function createSleeper(): Sleeper {
  let kicked = false;
  let wakeSleeper: (() => void) | null = null;
  let sleeperKickable = false;
  return {
    sleep(ms, kickable) {
      return new Promise((resolve) => {
        if (kickable && kicked) {
          kicked = false;
          resolve();
          return;
        }
        const timer = setTimeout(done, ms);
        timer.unref();
        sleeperKickable = kickable;
        wakeSleeper = done;
        function done() {
          clearTimeout(timer);
          wakeSleeper = null;
          resolve();
        }
      });
    },
    wake() {
      if (wakeSleeper && sleeperKickable) wakeSleeper();
      else kicked = true;
    },
    interrupt() {
      wakeSleeper?.();
    },
  };
}
