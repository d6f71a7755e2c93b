import { redactError } from '../core/mask.js';
import { settledWithin } from './timeout.js';

/** How long a stop waits for the runs in hand (a sweep's calls to the service time out well before). */
const STOP_BOUND_MS = 30_000;

/**
 * The one way vidops runs periodic work (the sweeps of requests, follow-ups, missing approval
 * messages, old records): each named task runs every `everyMs`, never twice at once (a tick that
 * finds the last run still going is skipped), a run that throws is logged and the next comes on
 * time, and `stop()` waits for the runs in hand, for a bounded time. Timers are unref'd: a schedule never keeps the
 * process alive. Work that is claimed, leased and woken runs on a `JobRunner` (./runner.ts).
 * @see docs/architecture.md, "Scale"
 */

/** The part of a logger background work writes to. */
export interface JobLogger {
  error(obj: object, msg?: string): void;
}

export interface Task {
  /** Names the task in the log line of a run that threw. */
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  /** Runs once at start too, rather than first a period later. */
  atStart?: boolean;
}

export class Scheduler {
  readonly #tasks: readonly Task[];
  readonly #logger: JobLogger | undefined;
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #inHand = new Map<string, Promise<void>>();
  #stopped = false;

  constructor(tasks: readonly Task[], logger: JobLogger | undefined) {
    this.#tasks = tasks;
    this.#logger = logger;
  }

  start(): void {
    if (this.#timers.length > 0 || this.#stopped) return;
    for (const task of this.#tasks) {
      const timer = setInterval(() => this.#run(task), task.everyMs);
      timer.unref();
      this.#timers.push(timer);
      if (task.atStart === true) this.#run(task);
    }
  }

  /**
   * Stops the timers; resolves once the runs in hand have ended, or after `boundMs` with those
   * still running named in the log (a run that hangs must not keep the rest of a stop waiting:
   * the audit backlog's flush, the store's close).
   */
  async stop(boundMs = STOP_BOUND_MS): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    const ended = await settledWithin(Promise.all(this.#inHand.values()), boundMs);
    if (ended.kind === 'late') {
      this.#logger?.error(
        { tasks: [...this.#inHand.keys()], boundMs },
        'tasks still running at stop; not waited for',
      );
    }
  }

  #run(task: Task): void {
    if (this.#inHand.has(task.name) || this.#stopped) return;
    // Begun on a later tick, so a task that throws at once is still one run in hand, then none.
    const run = Promise.resolve()
      .then(() => task.run())
      .then(
        () => undefined,
        (error: unknown) => {
          this.#logger?.error({ task: task.name, err: redactError(error) }, `${task.name} failed`);
        },
      )
      .finally(() => this.#inHand.delete(task.name));
    this.#inHand.set(task.name, run);
  }
}
