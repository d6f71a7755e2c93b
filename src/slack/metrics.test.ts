import { register as globalRegistry } from 'prom-client';
import { watchPerfMonitors } from '../../test/perf-monitors.js';
import {
  COMMAND_OUTCOMES,
  createVidopsMetrics,
  MetricsRegistry,
  outcomeOf,
  settleOutcome,
} from './metrics.js';

/** The `# TYPE` line of each metric family in a scrape, by name. */
function typesOf(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));
}

/** Process metrics prom-client adds, under the names operators' dashboards expect. */
const PROCESS_METRICS = [
  ['process_cpu_user_seconds_total', 'counter'],
  ['process_resident_memory_bytes', 'gauge'],
  ['process_open_fds', 'gauge'],
  ['nodejs_eventloop_lag_seconds', 'gauge'],
  ['nodejs_eventloop_lag_p99_seconds', 'gauge'],
  ['nodejs_gc_duration_seconds', 'histogram'],
  ['nodejs_heap_size_used_bytes', 'gauge'],
  ['nodejs_active_handles_total', 'gauge'],
] as const;

describe('metrics registry', () => {
  it('renders a labelled counter in Prometheus text with escaped label values', async () => {
    const registry = new MetricsRegistry();
    const c = registry.counter('vidops_things_total', 'Things\nseen', ['kind', 'outcome']);
    c.inc({ kind: 'a', outcome: 'ok' });
    c.inc({ outcome: 'ok', kind: 'a' }, 2);
    c.inc({ kind: 'say "hi"\\', outcome: 'error' });
    expect(await registry.render()).toBe(
      [
        '# HELP vidops_things_total Things\\nseen',
        '# TYPE vidops_things_total counter',
        'vidops_things_total{kind="a",outcome="ok"} 3',
        'vidops_things_total{kind="say \\"hi\\"\\\\",outcome="error"} 1',
        '',
      ].join('\n'),
    );
  });

  it('renders a histogram with cumulative buckets, sum and count', async () => {
    const registry = new MetricsRegistry();
    const h = registry.histogram('vidops_wait_seconds', 'Waits', ['op'], [0.1, 1]);
    for (const s of [0.05, 0.5, 0.7, 3]) h.observe({ op: 'x' }, s);
    const text = await registry.render();
    expect(text).toContain('# TYPE vidops_wait_seconds histogram\n');
    expect(text).toContain('vidops_wait_seconds_bucket{le="0.1",op="x"} 1\n');
    expect(text).toContain('vidops_wait_seconds_bucket{le="1",op="x"} 3\n');
    expect(text).toContain('vidops_wait_seconds_bucket{le="+Inf",op="x"} 4\n');
    expect(text).toContain('vidops_wait_seconds_sum{op="x"} 4.25\n');
    expect(text).toContain('vidops_wait_seconds_count{op="x"} 4\n');
  });

  it('times work with startTimer', async () => {
    const registry = new MetricsRegistry();
    const h = registry.histogram('vidops_t_seconds', 'T', ['op']);
    const end = h.startTimer({ op: 'a' });
    expect(end()).toBeGreaterThanOrEqual(0);
    expect(await registry.render()).toContain('vidops_t_seconds_count{op="a"} 1\n');
  });

  it('reads a gauge through its callback on every scrape, dropping label sets no longer reported', async () => {
    const registry = new MetricsRegistry();
    let depth = 7;
    registry.gauge('vidops_depth', 'Depth', async () => depth);
    let states = [
      { labels: { state: 'running' }, value: 2 },
      { labels: { state: 'queued' }, value: 5 },
    ];
    registry.gauge('vidops_jobs', 'Jobs', () => states, ['state']);
    const first = await registry.render();
    expect(first).toContain('vidops_depth 7\n');
    expect(first).toContain('vidops_jobs{state="queued"} 5\n');
    depth = 2;
    states = [{ labels: { state: 'running' }, value: 1 }];
    const second = await registry.render();
    expect(second).toContain('vidops_depth 2\n');
    expect(second).toContain('vidops_jobs{state="running"} 1\n');
    expect(second).not.toContain('state="queued"');
  });

  it('leaves out a gauge whose source fails and keeps the rest', async () => {
    const registry = new MetricsRegistry();
    registry.counter('vidops_ok_total', 'ok').inc();
    registry.gauge('vidops_broken', 'broken', () => Promise.reject(new Error('db down')));
    const text = await registry.render();
    expect(text).toContain('vidops_ok_total 1\n');
    expect(text).toContain('# vidops_broken not collected: its source failed');
    expect(text).not.toContain('# TYPE vidops_broken');
  });

  it.each([
    ['a duplicate name', (r: MetricsRegistry) => r.counter('x_total', 'x') && r.counter('x_total', 'again')],
    ['an invalid name', (r: MetricsRegistry) => r.counter('1bad', 'x')],
    ['the reserved label le', (r: MetricsRegistry) => r.histogram('h', 'h', ['le'])],
    // Typed as any label name, so the label the counter was not made with reaches prom-client.
    ['an unknown label', (r: MetricsRegistry) => r.counter<string>('y_total', 'y', ['a']).inc({ b: '1' })],
    ['a negative increment', (r: MetricsRegistry) => r.counter('z_total', 'z').inc(-1)],
  ])('refuses %s', (_what, misuse) => {
    expect(() => misuse(new MetricsRegistry())).toThrow();
  });

  it("adds Node's process metrics while started, and stops their monitors and removes them when stopped", async () => {
    const registry = new MetricsRegistry();
    registry.counter('vidops_own_total', 'own').inc();
    const watch = watchPerfMonitors();
    try {
      registry.startProcessMetrics();
      registry.startProcessMetrics();
      expect(watch.started()).toEqual({ eventLoop: 1, gc: 1 });
      // Idle is idle: a 10 ms sampling timer alone cost an idle replica about 5 ms of CPU a second.
      expect(watch.resolutions()).toEqual([100]);
      const running = typesOf(await registry.render());
      for (const [name, type] of PROCESS_METRICS) expect([name, running.get(name)]).toEqual([name, type]);
      const rss = /^process_resident_memory_bytes (\d+)$/m.exec(await registry.render());
      expect(Number(rss?.[1])).toBeGreaterThan(1_000_000);

      registry.stopProcessMetrics();
      expect(watch.end()).toEqual({ eventLoop: 0, gc: 0 });
      const stopped = typesOf(await registry.render());
      expect([...stopped.keys()]).toEqual(['vidops_own_total']);
    } finally {
      watch.end();
    }
    // Started again after a stop, as a restarted server would.
    registry.startProcessMetrics();
    expect(typesOf(await registry.render()).get('process_resident_memory_bytes')).toBe('gauge');
    registry.stopProcessMetrics();
  });
});

describe('vidops metrics', () => {
  it('exposes the operator contract names, types and labels, with the outbox depth read on scrape', async () => {
    const m = createVidopsMetrics();
    m.countCommand('unblock', 'ok');
    m.ackSeconds.observe({}, 0.02);
    m.upstreamSeconds.observe({ operation: 'viewer.unblock' }, 0.3);
    m.upstreamErrors.inc({ operation: 'viewer.unblock', error: 'ServerError' });
    m.auditPosts.inc({ outcome: 'rate_limited' });
    m.auditCheckpointPosts.inc({ outcome: 'ok' });
    m.collectDepths({ audit: () => 12, notifications: () => 3 });
    const text = await m.registry.render();
    expect(Object.fromEntries(typesOf(text))).toEqual({
      vidops_commands_total: 'counter',
      vidops_ack_seconds: 'histogram',
      vidops_upstream_seconds: 'histogram',
      vidops_upstream_errors_total: 'counter',
      vidops_audit_posts_total: 'counter',
      vidops_audit_checkpoint_posts_total: 'counter',
      vidops_audit_checkpoint_refused_total: 'counter',
      vidops_audit_outbox_depth: 'gauge',
      vidops_notification_outbox_depth: 'gauge',
      vidops_ready: 'gauge',
      vidops_memory_limit_bytes: 'gauge',
    });
    expect(text).toContain('vidops_commands_total{command="unblock",outcome="ok"} 1\n');
    expect(text).toContain('vidops_ack_seconds_bucket{le="3"} 1\n');
    expect(text).toContain('vidops_ack_seconds_count 1\n');
    expect(text).toContain('vidops_upstream_seconds_count{operation="viewer.unblock"} 1\n');
    expect(text).toContain(
      'vidops_upstream_errors_total{operation="viewer.unblock",error="ServerError"} 1\n',
    );
    expect(text).toContain('vidops_audit_posts_total{outcome="rate_limited"} 1\n');
    expect(text).toContain('vidops_audit_checkpoint_posts_total{outcome="ok"} 1\n');
    expect(text).toContain('vidops_audit_outbox_depth 12\n');
    expect(text).toContain('vidops_notification_outbox_depth 3\n');
    // Served from the start, so that an alert on any increase works from the first refusal.
    expect(text).toContain('vidops_audit_checkpoint_refused_total 0\n');
    expect(m.registry.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('serves vidops_ready as /readyz answers: 1 while its check passes, 0 once it fails', async () => {
    const m = createVidopsMetrics();
    let up = true;
    m.collectReady(async () => {
      if (!up) throw new Error('store unreachable');
    });
    expect(await m.registry.render()).toContain('vidops_ready 1\n');
    up = false;
    expect(await m.registry.render()).toContain('vidops_ready 0\n');
  });

  it('counts every documented outcome under its own label', async () => {
    const m = createVidopsMetrics();
    for (const outcome of COMMAND_OUTCOMES) m.countCommand('unblock', outcome);
    const text = await m.registry.render();
    for (const outcome of ['ok', 'denied', 'invalid', 'error', 'busy']) {
      expect(text).toContain(`vidops_commands_total{command="unblock",outcome="${outcome}"} 1\n`);
    }
  });

  it("two vidops in one process keep their own counts, and nothing goes to prom-client's global registry", async () => {
    const first = createVidopsMetrics();
    const second = createVidopsMetrics();
    first.countCommand('unblock', 'ok');
    first.countCommand('unblock', 'ok');
    second.countCommand('unblock', 'denied');
    const [a, b] = [await first.registry.render(), await second.registry.render()];
    expect(a).toContain('vidops_commands_total{command="unblock",outcome="ok"} 2\n');
    expect(a).not.toContain('outcome="denied"');
    expect(b).toContain('vidops_commands_total{command="unblock",outcome="denied"} 1\n');
    expect(b).not.toContain('outcome="ok"');
    expect(globalRegistry.getMetricsAsArray().map((metric) => metric.name)).not.toContain(
      'vidops_commands_total',
    );
  });
});

describe('how a request ended, as its listener says it', () => {
  it('a listener that says nothing ended ok; the gate says denied; a slash command says it later', async () => {
    const quiet: Record<string, unknown> = {};
    expect(outcomeOf(quiet)).toBe('ok');
    const refused: Record<string, unknown> = {};
    settleOutcome(refused, 'denied');
    expect(outcomeOf(refused)).toBe('denied');
    const slash: Record<string, unknown> = {};
    settleOutcome(slash, Promise.resolve('invalid'));
    await expect(outcomeOf(slash)).resolves.toBe('invalid');
    // Something else under the key (another middleware's value) is not an outcome.
    expect(outcomeOf({ vidopsOutcome: 'maybe' })).toBe('ok');
  });
});
