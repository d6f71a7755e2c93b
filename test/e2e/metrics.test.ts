import { createHook } from 'node:async_hooks';
import { DEMO } from '../../src/sandbox/server.js';
import { watchPerfMonitors } from '../perf-monitors.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import { until } from './change-helpers.js';

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';

/** One metric family of a scrape: its `# TYPE` and its samples with their label names. */
interface Family {
  type: string;
  samples: Array<{ line: string; labels: string[] }>;
}

/** Families of a Prometheus text scrape by name; `_bucket`, `_sum`, `_count` lines join theirs. */
function families(text: string): Map<string, Family> {
  const found = new Map<string, Family>();
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      current = { type: type[2] ?? '', samples: [] };
      found.set(type[1] ?? '', current);
    } else if (line !== '' && !line.startsWith('#') && current) {
      const labels = [...line.matchAll(/([a-zA-Z_]\w*)="(?:[^"\\]|\\.)*"/g)].map((m) => m[1] ?? '');
      current.samples.push({ line, labels: labels.filter((l) => l !== 'le').sort() });
    }
  }
  return found;
}

/** What README "Running it" promises: name, type, label names. */
const DOCUMENTED: ReadonlyArray<[string, string, string[]]> = [
  ['vidops_commands_total', 'counter', ['command', 'outcome']],
  ['vidops_ack_seconds', 'histogram', []],
  ['vidops_upstream_seconds', 'histogram', ['operation']],
  ['vidops_upstream_errors_total', 'counter', ['error', 'operation']],
  ['vidops_audit_posts_total', 'counter', ['outcome']],
  ['vidops_audit_checkpoint_posts_total', 'counter', ['outcome']],
  ['vidops_audit_outbox_depth', 'gauge', []],
  ['vidops_work_jobs', 'gauge', ['state']],
  ['vidops_work_failures_total', 'counter', ['command']],
  ['vidops_work_turned_away_total', 'counter', ['command']],
  ['process_resident_memory_bytes', 'gauge', []],
  ['process_cpu_user_seconds_total', 'counter', []],
  ['nodejs_eventloop_lag_seconds', 'gauge', []],
  ['nodejs_gc_duration_seconds', 'histogram', ['kind']],
  ['nodejs_heap_size_used_bytes', 'gauge', []],
  ['nodejs_active_handles_total', 'gauge', []],
];

/** `vidops_commands_total` for a command and outcome in a scrape. */
function counted(text: string, command: string, outcome: string): number {
  const prefix = `vidops_commands_total{command="${command}",outcome="${outcome}"} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? 0 : Number(line.slice(prefix.length));
}

/**
 * Watches the timers made from now on. `keepingAlive` lists, by where each was made, those still
 * pending that would keep the process alive (not unref'd). The test runner's own timers (Jest's
 * reporter ticks in the same process when it runs in band) are not vidops' and are left out.
 */
function watchTimers(): { keepingAlive(): string[]; end(): void } {
  const made = new Map<number, { timer: NodeJS.Timeout; where: string }>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type !== 'Timeout') return;
      const where = (new Error().stack ?? '').split('\n').slice(2).join('\n');
      if (!/node_modules[\\/](@jest|jest-)/.test(where))
        made.set(id, { timer: resource as NodeJS.Timeout, where });
    },
    destroy(id) {
      made.delete(id);
    },
  }).enable();
  return {
    keepingAlive: () => [...made.values()].filter(({ timer }) => timer.hasRef()).map(({ where }) => where),
    end: () => hook.disable(),
  };
}

describe('an operator scrapes /metrics', () => {
  let h: Harness;
  let other: Harness;

  beforeAll(async () => {
    [h, other] = await Promise.all([startHarness(), startHarness()]);
  });

  afterAll(() => Promise.all([h.stop(), other.stop()]));

  it('after a few commands it serves the documented names with their types and labels, and the process metrics', async () => {
    await (await h.slash(`unblock ${DEMO.blockedMobiles[0]}`)).reply();
    await (await h.slash(`unblock ${DEMO.blockedMobiles[1]}`, { userId: USERS.outsider.id })).reply();
    await (await h.slash('unblock 021 1234 5678')).reply();
    h.sandbox.setFaults([{ path: UNBLOCK_PATH, status: 502 }]);
    await (await h.slash(`unblock ${DEMO.blockedMobiles[2]}`)).reply();
    h.sandbox.setFaults([]);

    const text = await until(async () => {
      const { text } = await h.get('/metrics');
      const ended = ['ok', 'denied', 'invalid', 'error'].reduce((n, o) => n + counted(text, 'unblock', o), 0);
      const posted = /^vidops_audit_posts_total\{outcome="ok"\} [1-9]/m.test(text);
      return ended === 4 && posted ? text : undefined;
    }, 'the four unblocks counted and their audit events posted');
    // The unblock the service answered 502 is an error, though its answer reached the agent.
    expect(['ok', 'denied', 'invalid', 'error'].map((o) => counted(text, 'unblock', o))).toEqual([
      1, 1, 1, 1,
    ]);

    const scraped = families(text);
    for (const [name, type, labels] of DOCUMENTED) {
      const family = scraped.get(name);
      expect([name, family?.type]).toEqual([name, type]);
      for (const sample of family?.samples ?? [])
        expect([sample.line, sample.labels]).toEqual([sample.line, labels]);
    }
    // The families this scenario fed have samples; the work counters may have none yet.
    for (const name of [
      'vidops_ack_seconds',
      'vidops_upstream_seconds',
      'vidops_upstream_errors_total',
      'vidops_audit_outbox_depth',
      'vidops_work_jobs',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect([name, scraped.get(name)?.samples.length ?? 0]).not.toEqual([name, 0]);
    }
    expect(text).toMatch(/^vidops_upstream_errors_total\{operation="viewer.unblock",error="\w+"\} [1-9]/m);

    const response = await fetch(`${h.url}/metrics`);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    await response.arrayBuffer();
  });

  it('two vidops in one process count only their own commands', async () => {
    const before = counted((await other.get('/metrics')).text, 'explain', 'ok');
    await (await h.slash('explain 9910')).reply();
    await until(
      async () => (counted((await h.get('/metrics')).text, 'explain', 'ok') > 0 ? true : undefined),
      'explain counted by the vidops that ran it',
    );
    const { text } = await other.get('/metrics');
    expect(counted(text, 'explain', 'ok')).toBe(before);
    expect(families(text).get('process_resident_memory_bytes')?.type).toBe('gauge');
  });
});

describe('a vidops stopped', () => {
  it('leaves no process-metric monitor and no timer running', async () => {
    const timers = watchTimers();
    const watch = watchPerfMonitors();
    try {
      const h = await startHarness();
      expect(watch.started()).toEqual({ eventLoop: 1, gc: 1 });
      await (await h.slash('help')).reply();
      expect((await h.get('/metrics')).text).toContain('nodejs_eventloop_lag_seconds ');
      await h.stop();
      expect(watch.end()).toEqual({ eventLoop: 0, gc: 0 });
    } finally {
      watch.end();
    }
    try {
      expect(timers.keepingAlive()).toEqual([]);
    } finally {
      timers.end();
    }
  });
});
