import { createVidopsMetrics, MetricsRegistry } from './metrics.js';

describe('metrics registry', () => {
  it('renders a labelled counter in Prometheus text with escaped label values', async () => {
    const registry = new MetricsRegistry();
    const c = registry.counter('vidops_things_total', 'Things\nseen', ['kind', 'outcome']);
    c.inc({ kind: 'a', outcome: 'ok' });
    c.inc({ outcome: 'ok', kind: 'a' }, 2);
    c.inc({ kind: 'say "hi"\\', outcome: 'error' });
    const text = await registry.render();
    expect(text).toBe(
      [
        '# HELP vidops_things_total Things\\nseen',
        '# TYPE vidops_things_total counter',
        'vidops_things_total{kind="a",outcome="ok"} 3',
        'vidops_things_total{kind="say \\"hi\\"\\\\",outcome="error"} 1',
        '',
      ].join('\n'),
    );
    expect(c.get({ kind: 'a', outcome: 'ok' })).toBe(3);
    expect(c.get({ kind: 'b', outcome: 'ok' })).toBe(0);
  });

  it('renders a histogram with cumulative buckets, sum and count', async () => {
    const registry = new MetricsRegistry();
    const h = registry.histogram('vidops_wait_seconds', 'Waits', ['op'], [0.1, 1]);
    for (const s of [0.05, 0.5, 0.7, 3]) h.observe({ op: 'x' }, s);
    const text = await registry.render();
    expect(text).toContain('vidops_wait_seconds_bucket{op="x",le="0.1"} 1\n');
    expect(text).toContain('vidops_wait_seconds_bucket{op="x",le="1"} 3\n');
    expect(text).toContain('vidops_wait_seconds_bucket{op="x",le="+Inf"} 4\n');
    expect(text).toContain('vidops_wait_seconds_sum{op="x"} 4.25\n');
    expect(text).toContain('vidops_wait_seconds_count{op="x"} 4\n');
    expect(h.count({ op: 'x' })).toBe(4);
  });

  it('times work with startTimer', async () => {
    const registry = new MetricsRegistry();
    const h = registry.histogram('vidops_t_seconds', 'T', ['op']);
    const end = h.startTimer({ op: 'a' });
    const seconds = end();
    expect(seconds).toBeGreaterThanOrEqual(0);
    expect(h.count({ op: 'a' })).toBe(1);
  });

  it('collects a gauge through its callback on every scrape', async () => {
    const registry = new MetricsRegistry();
    let depth = 7;
    registry.gauge('vidops_depth', 'Depth', async () => depth);
    expect(await registry.render()).toContain('vidops_depth 7\n');
    depth = 2;
    expect(await registry.render()).toContain('vidops_depth 2\n');
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
    ['an unknown label', (r: MetricsRegistry) => r.counter('y_total', 'y', ['a']).inc({ b: '1' })],
    ['a negative increment', (r: MetricsRegistry) => r.counter('z_total', 'z').inc({}, -1)],
  ])('refuses %s', (_what, misuse) => {
    expect(() => misuse(new MetricsRegistry())).toThrow();
  });
});

describe('vidops metrics', () => {
  it('exposes the operator contract names, with the outbox depth read on scrape', async () => {
    const m = createVidopsMetrics();
    m.commands.inc({ command: 'unblock', outcome: 'ok' });
    m.ackSeconds.observe({}, 0.02);
    m.upstreamSeconds.observe({ operation: 'viewer.unblock' }, 0.3);
    m.upstreamErrors.inc({ operation: 'viewer.unblock', error: 'ServerError' });
    m.collectOutboxDepth(() => 12);
    const text = await m.registry.render();
    expect(text).toContain('vidops_commands_total{command="unblock",outcome="ok"} 1\n');
    expect(text).toContain('vidops_ack_seconds_count 1\n');
    expect(text).toContain('vidops_upstream_seconds_count{operation="viewer.unblock"} 1\n');
    expect(text).toContain(
      'vidops_upstream_errors_total{operation="viewer.unblock",error="ServerError"} 1\n',
    );
    expect(text).toContain('vidops_audit_outbox_depth 12\n');
    const rss = /^process_resident_memory_bytes (\d+)$/m.exec(text);
    expect(Number(rss?.[1])).toBeGreaterThan(1_000_000);
  });
});
