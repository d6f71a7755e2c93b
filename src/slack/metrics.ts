/**
 * A small Prometheus registry: counters, histograms and scrape-time gauges with labels, rendered
 * in the text exposition format (version 0.0.4). Enough for `/metrics`; no dependency.
 * @see docs/architecture.md, "Runtime contract" (`GET /metrics`) and "Who uses it" (Operator)
 */

/** Label values by label name. Missing labels render as the empty string. */
export type Labels = Readonly<Record<string, string>>;

export interface Counter {
  inc(labels?: Labels, by?: number): void;
  /** Current value for these labels (tests, and callers who want to read back). */
  get(labels?: Labels): number;
}

export interface Histogram {
  observe(labels: Labels, seconds: number): void;
  /** Starts a timer; calling the returned function observes the elapsed seconds. */
  startTimer(labels?: Labels): (extra?: Labels) => number;
  /** Number of observations for these labels. */
  count(labels?: Labels): number;
}

/** Produces a gauge's samples when `/metrics` is scraped. */
export type GaugeValue = number | ReadonlyArray<{ labels: Labels; value: number }>;
export type GaugeCollector = () => GaugeValue | Promise<GaugeValue>;

/** Default buckets in seconds: from a fast ack to a slow upstream call. */
export const DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function formatLabels(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const parts = names.map((n, i) => `${n}="${escapeLabelValue(values[i] ?? '')}"`);
  if (extra) parts.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

interface Family {
  render(): Promise<string[]>;
}

/**
 * Keeps series in a map keyed by their label values in label-name order, so `{a,b}` and `{b,a}`
 * are the same series.
 */
class SeriesMap<T> {
  private readonly series = new Map<string, { values: string[]; data: T }>();
  constructor(
    private readonly metric: string,
    private readonly labelNames: readonly string[],
    private readonly create: () => T,
  ) {}

  get(labels: Labels = {}): T {
    for (const key of Object.keys(labels)) {
      if (!this.labelNames.includes(key)) {
        throw new Error(`metric ${this.metric} has no label "${key}"`);
      }
    }
    const values = this.labelNames.map((n) => labels[n] ?? '');
    const key = JSON.stringify(values);
    let entry = this.series.get(key);
    if (!entry) {
      entry = { values, data: this.create() };
      this.series.set(key, entry);
    }
    return entry.data;
  }

  peek(labels: Labels = {}): T | undefined {
    const values = this.labelNames.map((n) => labels[n] ?? '');
    return this.series.get(JSON.stringify(values))?.data;
  }

  entries(): Array<{ values: string[]; data: T }> {
    return [...this.series.values()];
  }
}

/** A set of metric families rendered together. */
export class MetricsRegistry {
  private readonly families = new Map<string, Family>();

  private register(name: string, labelNames: readonly string[], family: Family): void {
    if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name "${name}"`);
    for (const l of labelNames) {
      if (!LABEL_NAME.test(l) || l === 'le') throw new Error(`invalid label name "${l}" on ${name}`);
    }
    if (this.families.has(name)) throw new Error(`metric ${name} is already registered`);
    this.families.set(name, family);
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    const series = new SeriesMap(name, labelNames, () => ({ value: 0 }));
    this.register(name, labelNames, {
      render: async () => [
        `# HELP ${name} ${escapeHelp(help)}`,
        `# TYPE ${name} counter`,
        ...series
          .entries()
          .map((e) => `${name}${formatLabels(labelNames, e.values)} ${formatNumber(e.data.value)}`),
      ],
    });
    return {
      inc(labels, by = 1) {
        if (!(by >= 0)) throw new Error(`counter ${name} can only go up (got ${by})`);
        series.get(labels).value += by;
      },
      get(labels) {
        return series.peek(labels)?.value ?? 0;
      },
    };
  }

  histogram(
    name: string,
    help: string,
    labelNames: readonly string[] = [],
    buckets: readonly number[] = DEFAULT_BUCKETS,
  ): Histogram {
    const bounds = [...buckets].sort((a, b) => a - b);
    const series = new SeriesMap(name, labelNames, () => ({
      counts: bounds.map(() => 0),
      sum: 0,
      count: 0,
    }));
    this.register(name, labelNames, {
      render: async () => {
        const lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} histogram`];
        for (const { values, data } of series.entries()) {
          // Buckets are cumulative in the exposition format.
          let cumulative = 0;
          bounds.forEach((le, i) => {
            cumulative += data.counts[i] ?? 0;
            lines.push(
              `${name}_bucket${formatLabels(labelNames, values, ['le', formatNumber(le)])} ${cumulative}`,
            );
          });
          lines.push(`${name}_bucket${formatLabels(labelNames, values, ['le', '+Inf'])} ${data.count}`);
          lines.push(`${name}_sum${formatLabels(labelNames, values)} ${formatNumber(data.sum)}`);
          lines.push(`${name}_count${formatLabels(labelNames, values)} ${data.count}`);
        }
        return lines;
      },
    });
    const observe = (labels: Labels, seconds: number): void => {
      if (!Number.isFinite(seconds)) return;
      const data = series.get(labels);
      const i = bounds.findIndex((le) => seconds <= le);
      if (i >= 0) data.counts[i] = (data.counts[i] ?? 0) + 1;
      data.sum += seconds;
      data.count += 1;
    };
    return {
      observe,
      startTimer(labels = {}) {
        const started = process.hrtime.bigint();
        return (extra = {}) => {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          observe({ ...labels, ...extra }, seconds);
          return seconds;
        };
      },
      count(labels) {
        return series.peek(labels)?.count ?? 0;
      },
    };
  }

  /** A gauge whose value is read when the registry is rendered (e.g. a queue depth in the store). */
  gauge(name: string, help: string, collect: GaugeCollector, labelNames: readonly string[] = []): void {
    this.register(name, labelNames, {
      render: async () => {
        const head = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} gauge`];
        const result = await collect();
        const samples = typeof result === 'number' ? [{ labels: {}, value: result }] : result;
        return [
          ...head,
          ...samples.map(
            (s) =>
              `${name}${formatLabels(
                labelNames,
                labelNames.map((n) => s.labels[n] ?? ''),
              )} ${formatNumber(s.value)}`,
          ),
        ];
      },
    });
  }

  /**
   * The whole registry as Prometheus text. A gauge whose collector fails is left out (with a
   * comment saying so) rather than failing the scrape: one broken source must not hide the rest.
   */
  async render(): Promise<string> {
    const out: string[] = [];
    for (const [name, family] of this.families) {
      try {
        out.push(...(await family.render()));
      } catch {
        out.push(`# ${name} not collected: its source failed`);
      }
    }
    return `${out.join('\n')}\n`;
  }
}

/** Content type of the text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The `outcome` label of `vidops_commands_total`: `ok` (done as asked, or waiting for approval),
 * `denied` (the policy refused the person: not an agent, not allowed that operation), `invalid`
 * (the words were refused: a bad number, an unknown command), `error` (it failed: the service
 * down, or a fault of ours), `busy` (turned away because the work queue was full).
 */
export const COMMAND_OUTCOMES = ['ok', 'denied', 'invalid', 'error', 'busy'] as const;
export type CommandOutcome = (typeof COMMAND_OUTCOMES)[number];

/**
 * The key a listener sets on Bolt's request `context` when it counts its own outcome once the
 * work after the acknowledgement has run (a slash command is answered later, through
 * `response_url`): the counting middleware then leaves that request alone, since what it sees
 * when the acknowledgement returns is not how the command ended.
 */
export const COUNTS_ITS_OWN_OUTCOME = 'vidopsCountsItsOwnOutcome';

/** Marks a request whose listener counts its own outcome (see {@link COUNTS_ITS_OWN_OUTCOME}). */
export function countOwnOutcome(context: Record<string, unknown>): void {
  context[COUNTS_ITS_OWN_OUTCOME] = true;
}

/** True when the listener of this request counts its own outcome. */
export function countsOwnOutcome(context: Record<string, unknown>): boolean {
  return context[COUNTS_ITS_OWN_OUTCOME] === true;
}

/** The metrics vidops exports. Names are part of the operator's contract; keep them stable. */
export interface VidopsMetrics {
  readonly registry: MetricsRegistry;
  /**
   * Slash commands and interactions handled, by command (or interaction type) and outcome
   * ({@link COMMAND_OUTCOMES}).
   */
  readonly commands: Counter;
  /** Counts one command with how it ended. */
  countCommand(command: string, outcome: CommandOutcome): void;
  /** Seconds from receiving a Slack request to acknowledging it. */
  readonly ackSeconds: Histogram;
  /** Seconds spent in calls to the video protection API, by operation. */
  readonly upstreamSeconds: Histogram;
  /** Failed calls to the video protection API, by operation and error class. */
  readonly upstreamErrors: Counter;
  /** Audit channel posts, by outcome (`ok`, `rate_limited`, `error`). */
  readonly auditPosts: Counter;
  /** Sets the callback that reads the audit outbox depth on each scrape. */
  collectOutboxDepth(collect: () => Promise<number> | number): void;
}

/**
 * Creates the registry with every vidops metric. The outbox depth is read through a callback set
 * with `collectOutboxDepth` (until then it reports 0).
 */
export function createVidopsMetrics(): VidopsMetrics {
  const registry = new MetricsRegistry();
  let outboxDepth: () => Promise<number> | number = () => 0;
  const metrics: VidopsMetrics = {
    registry,
    commands: registry.counter('vidops_commands_total', 'Slack commands and interactions handled', [
      'command',
      'outcome',
    ]),
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
    countCommand(command, outcome) {
      metrics.commands.inc({ command, outcome });
    },
    collectOutboxDepth(collect) {
      outboxDepth = collect;
    },
  };
  registry.gauge('vidops_audit_outbox_depth', 'Audit events not yet posted to the audit channel', () =>
    outboxDepth(),
  );
  registry.gauge('process_resident_memory_bytes', 'Resident memory size in bytes', () =>
    process.memoryUsage.rss(),
  );
  return metrics;
}
