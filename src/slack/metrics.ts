/**
 * vidops' Prometheus metrics, kept by prom-client. Each vidops instance has its own registry, never
 * prom-client's global one: tests and benchmarks build several apps in one process, and each must
 * count only its own work. Node's process metrics join the registry while `/metrics` is served.
 * @see docs/architecture.md, "Runtime contract" (`GET /metrics`) and "Who uses it" (Operator)
 */
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import perfHooks from 'node:perf_hooks';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Default buckets in seconds: from a fast ack to a slow upstream call. */
export const DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A gauge's samples, read when `/metrics` is scraped: one number, or one per label set. */
export type GaugeValue<L extends string> =
  | number
  | ReadonlyArray<{ labels: Readonly<Record<L, string>>; value: number }>;

/**
 * A prom-client registry with the few ways vidops makes metrics. Names, label names and values
 * are checked by prom-client, which throws on a duplicate or invalid name, the reserved label
 * `le`, an unknown label or a counter going down.
 */
export class MetricsRegistry {
  /** What `/metrics` serves. */
  readonly register = new Registry();
  private stopProcess: (() => void) | null = null;

  counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.register] });
  }

  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    buckets: readonly number[] = DEFAULT_BUCKETS,
  ): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets: [...buckets], registers: [this.register] });
  }

  /** A gauge whose samples are read on every scrape (e.g. a queue depth in the store). */
  gauge<L extends string = never>(
    name: string,
    help: string,
    read: () => GaugeValue<L> | Promise<GaugeValue<L>>,
    labelNames: readonly L[] = [],
  ): Gauge<L> {
    return new Gauge({
      name,
      help,
      labelNames,
      registers: [this.register],
      async collect() {
        const value = await read();
        // Label sets the source no longer reports are dropped, not left at their last value.
        this.reset();
        if (typeof value === 'number') this.set(value);
        else for (const sample of value) this.set(sample.labels, sample.value);
      },
    });
  }

  /** Content type of what {@link render} returns (Prometheus text, version 0.0.4). */
  get contentType(): string {
    return this.register.contentType;
  }

  /**
   * The whole registry as Prometheus text. A metric whose source fails is left out (with a comment
   * saying so) rather than failing the scrape: one broken source must not hide the rest.
   */
  async render(): Promise<string> {
    const families = await Promise.all(
      this.register
        .getMetricsAsArray()
        .map(({ name }) =>
          this.register
            .getSingleMetricAsString(name)
            .catch(() => `# ${name} not collected: its source failed`),
        ),
    );
    return `${families.join('\n\n')}\n`;
  }

  /**
   * Adds Node's process metrics, prom-client's defaults under their standard names (`process_*`:
   * CPU, resident memory, file descriptors; `nodejs_*`: event-loop lag, GC, heap, active handles),
   * until {@link stopProcessMetrics}. Called when the ops server listens; does nothing if running.
   */
  startProcessMetrics(): void {
    if (this.stopProcess) return;
    const names = () => this.register.getMetricsAsArray().map((m) => m.name);
    const before = new Set(names());
    const stopMonitors = collectDefaultMetricsStoppably(this.register);
    const added = names().filter((name) => !before.has(name));
    this.stopProcess = () => {
      stopMonitors();
      for (const name of added) this.register.removeSingleMetric(name);
    };
  }

  /** Stops what {@link startProcessMetrics} started and removes its metrics. */
  stopProcessMetrics(): void {
    this.stopProcess?.();
    this.stopProcess = null;
  }
}

/**
 * How often the event-loop delay is sampled, in ms: prom-client's 10 ms default is a libuv timer
 * waking 100 times a second, about 5 ms of CPU a second on an idle replica; 100 ms still sees any
 * stall a person would notice. See docs/benchmarks.md, "Aging".
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** The functions of `node:perf_hooks` through which prom-client starts its monitors. */
type PerfHooks = Pick<typeof perfHooks, 'monitorEventLoopDelay' | 'PerformanceObserver'>;

/**
 * Runs prom-client's `collectDefaultMetrics` into `register` and returns what stops the two
 * monitors it starts: the event-loop delay histogram (a libuv timer sampling every 10 ms) and the
 * GC PerformanceObserver. Neither keeps the process alive, but prom-client 15 gives no way to stop
 * them, so every app stopped in a process (the tests build hundreds) would leave both running.
 * They are caught as prom-client creates them through the `node:perf_hooks` module it calls,
 * replaced for this synchronous call only (no other code can run in between).
 */
function collectDefaultMetricsStoppably(register: Registry): () => void {
  const hooks: PerfHooks = perfHooks;
  const { monitorEventLoopDelay, PerformanceObserver } = hooks;
  const histograms: perfHooks.IntervalHistogram[] = [];
  const observers: perfHooks.PerformanceObserver[] = [];
  hooks.monitorEventLoopDelay = (options) => {
    const histogram = monitorEventLoopDelay(options);
    histograms.push(histogram);
    return histogram;
  };
  hooks.PerformanceObserver = class extends PerformanceObserver {
    constructor(callback: perfHooks.PerformanceObserverCallback) {
      super(callback);
      observers.push(this);
    }
  };
  try {
    collectDefaultMetrics({ register, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  } finally {
    hooks.monitorEventLoopDelay = monitorEventLoopDelay;
    hooks.PerformanceObserver = PerformanceObserver;
  }
  return () => {
    for (const histogram of histograms) histogram.disable();
    for (const observer of observers) observer.disconnect();
  };
}

/**
 * The `outcome` label of `vidops_commands_total`: `ok` (done as asked, or waiting for approval),
 * `denied` (the policy refused the person: not an agent, not allowed that operation), `invalid`
 * (the words were refused: a bad number, an unknown command), `error` (it failed: the service
 * down, or a fault of ours), `busy` (turned away because the work queue was full).
 */
export const COMMAND_OUTCOMES = ['ok', 'denied', 'invalid', 'error', 'busy'] as const;
export type CommandOutcome = (typeof COMMAND_OUTCOMES)[number];

/**
 * The key on Bolt's request `context` where a listener says how the request ended, when that is
 * not a plain `ok`: a refusal by the gate (`denied`), a slash command turned away (`busy`), or the
 * end of a slash command's work after the acknowledgement (a promise of its outcome, since it is
 * answered later through `response_url`). The counting middleware reads it and counts once.
 */
const OUTCOME = 'vidopsOutcome';

/** Says how this request ended (or will end, for work that runs after the acknowledgement). */
export function settleOutcome(
  context: Record<string, unknown>,
  outcome: CommandOutcome | Promise<CommandOutcome>,
): void {
  context[OUTCOME] = outcome;
}

/** How the request ended, as its listener said: `ok` when it said nothing. */
export function outcomeOf(context: Record<string, unknown>): CommandOutcome | Promise<CommandOutcome> {
  const said = context[OUTCOME];
  return said instanceof Promise || (COMMAND_OUTCOMES as readonly unknown[]).includes(said)
    ? (said as CommandOutcome | Promise<CommandOutcome>)
    : 'ok';
}

/** The metrics vidops exports. Names are part of the operator's contract; keep them stable. */
export interface VidopsMetrics {
  readonly registry: MetricsRegistry;
  /**
   * Slash commands and interactions handled, by command (or interaction type) and outcome
   * ({@link COMMAND_OUTCOMES}).
   */
  readonly commands: Counter<'command' | 'outcome'>;
  /** Counts one command with how it ended. */
  countCommand(command: string, outcome: CommandOutcome): void;
  /** Seconds from receiving a Slack request to acknowledging it. */
  readonly ackSeconds: Histogram<never>;
  /** Seconds spent in calls to the video protection API, by operation. */
  readonly upstreamSeconds: Histogram<'operation'>;
  /** Failed calls to the video protection API, by operation and error class. */
  readonly upstreamErrors: Counter<'operation' | 'error'>;
  /** Audit channel posts, by outcome (`ok`, `rate_limited`, `error`). */
  readonly auditPosts: Counter<'outcome'>;
  /** Signed audit checkpoints posted to the audit channel, by outcome (`ok`, `rate_limited`, `error`). */
  readonly auditCheckpointPosts: Counter<'outcome'>;
  /**
   * Times the checkpointer refused to sign: the log does not extend what the key signed before
   * (rewritten or cut), or its events do not link. Alert on any increase.
   */
  readonly auditCheckpointRefused: Counter<never>;
  /**
   * Sets the callbacks read on each scrape: the audit events not yet posted, and the Slack updates
   * (request messages, DMs, Home tabs) still owed.
   */
  collectDepths(read: {
    audit: () => Promise<number> | number;
    notifications: () => Promise<number> | number;
  }): void;
  /** Sets the check `vidops_ready` reports on each scrape: 1 when it resolves, as `/readyz` answers 200. */
  collectReady(ready: () => Promise<void>): void;
}

/**
 * Creates a registry with every vidops metric. The outbox depths are read through callbacks set
 * with `collectDepths` (until then they report 0). Process metrics are added by the ops server.
 */
export function createVidopsMetrics(): VidopsMetrics {
  const registry = new MetricsRegistry();
  const commands = registry.counter(
    'vidops_commands_total',
    'Slack commands and interactions handled, by how they ended',
    ['command', 'outcome'],
  );
  let depths: Parameters<VidopsMetrics['collectDepths']>[0] = { audit: () => 0, notifications: () => 0 };
  let ready: () => Promise<void> = async () => undefined;
  const metrics: VidopsMetrics = {
    registry,
    commands,
    countCommand(command, outcome) {
      commands.inc({ command, outcome });
    },
    ackSeconds: registry.histogram(
      'vidops_ack_seconds',
      'Seconds from receiving a Slack request to acknowledging it (Slack allows 3)',
      [],
      [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
    ),
    upstreamSeconds: registry.histogram(
      'vidops_upstream_seconds',
      'Seconds spent in calls to the video protection API',
      ['operation'],
    ),
    upstreamErrors: registry.counter(
      'vidops_upstream_errors_total',
      'Failed calls to the video protection API',
      ['operation', 'error'],
    ),
    auditPosts: registry.counter('vidops_audit_posts_total', 'Audit channel posts by outcome', ['outcome']),
    auditCheckpointPosts: registry.counter(
      'vidops_audit_checkpoint_posts_total',
      'Signed audit checkpoints posted to the audit channel, by outcome',
      ['outcome'],
    ),
    auditCheckpointRefused: registry.counter(
      'vidops_audit_checkpoint_refused_total',
      'Times the bot refused to sign an audit checkpoint because the log does not extend what the key signed before, or its events do not link',
    ),
    collectDepths(read) {
      depths = read;
    },
    collectReady(check) {
      ready = check;
    },
  };
  registry.gauge('vidops_ready', '1 when /readyz answers 200 (the database and Slack answer), else 0', () =>
    ready().then(
      () => 1,
      () => 0,
    ),
  );
  registry.gauge(
    'vidops_memory_limit_bytes',
    "Memory the process may use: its cgroup's limit (a container's), else the machine's memory",
    memoryLimitBytes,
  );
  registry.gauge('vidops_audit_outbox_depth', 'Audit events not yet posted to the audit channel', () =>
    depths.audit(),
  );
  registry.gauge(
    'vidops_notification_outbox_depth',
    'Slack updates of requests (messages, DMs, Home tabs) not yet made',
    () => depths.notifications(),
  );
  return metrics;
}

/** cgroup v2's limit, then v1's; what they say when there is none ("max", or a page-rounded 2^63). */
const CGROUP_LIMITS = ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes'];

/**
 * The memory this process may use: the smallest of its cgroup's limit (set by a container runtime
 * or systemd's MemoryMax) and the machine's memory. Read on each scrape: a limit can change.
 */
export function memoryLimitBytes(files: readonly string[] = CGROUP_LIMITS): number {
  let limit = totalmem();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch {
      continue;
    }
    const bytes = Number(text);
    if (/^\d+$/.test(text) && bytes > 0 && bytes < limit) limit = bytes;
  }
  return limit;
}
