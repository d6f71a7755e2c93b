import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { newTimeBox } from '../../src/core/time-box.js';
import { memoryLimitBytes } from '../../src/slack/metrics.js';
import { newRequest } from '../store/fixtures.js';
import { type Harness, startHarness } from './app-harness.js';

/**
 * The alert rules an operator loads (deploy/prometheus/alerts.yaml) against what a running vidops
 * serves on `/metrics`: a rule on a metric that does not exist would never fire, so it fails here.
 * `npm run test:alerts` runs promtool on the rules and their tests; this checks the names, that
 * every rule has its test file, and the gauges added for the rules.
 * @see docs/operations.md, "Alerts"
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PROMETHEUS = join(ROOT, 'deploy/prometheus');

interface Rule {
  alert: string;
  expr: string;
  annotations: Record<string, string>;
}

const rules: Rule[] = (
  parse(readFileSync(join(PROMETHEUS, 'alerts.yaml'), 'utf8')) as { groups: { rules: Rule[] }[] }
).groups.flatMap((g) => g.rules);

/** Series Prometheus makes itself for every target, not served by vidops. */
const MADE_BY_PROMETHEUS = new Set(['up']);
const PROMQL_WORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
]);

/** The metric names an expression reads: identifiers that are not functions, keywords, labels or durations. */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const names = [...bare.matchAll(/\b[a-zA-Z_:][a-zA-Z0-9_:]*\b(?!\s*\()/g)].map((m) => m[0]);
  return [...new Set(names.filter((n) => !PROMQL_WORDS.has(n) && !/^\d/.test(n)))];
}

/** Every series name `/metrics` serves: each family, and a histogram's `_bucket`, `_count` and `_sum`. */
function served(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (name === undefined) continue;
    names.add(name);
    if (type === 'histogram')
      for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${name}${suffix}`);
  }
  return names;
}

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

test('every metric an alert rule reads is one a running vidops serves on /metrics', async () => {
  const exported = served((await h.get('/metrics')).text);
  const used = rules.flatMap((r) => metricsOf(r.expr).map((metric) => ({ alert: r.alert, metric })));
  expect(used.length).toBeGreaterThan(rules.length);
  expect(used.filter((u) => !exported.has(u.metric) && !MADE_BY_PROMETHEUS.has(u.metric))).toEqual([]);
});

test('a rule on a metric vidops does not serve is caught', () => {
  expect(metricsOf('sum by (instance) (rate(vidops_no_such_total{outcome="x"}[5m])) > 0')).toEqual([
    'vidops_no_such_total',
  ]);
});

test('every rule says what is wrong and the command to run first, and has a test file that names it', () => {
  const tests = readdirSync(join(PROMETHEUS, 'tests')).map((f) =>
    readFileSync(join(PROMETHEUS, 'tests', f), 'utf8'),
  );
  for (const rule of rules) {
    expect([rule.alert, Object.keys(rule.annotations).sort()]).toEqual([
      rule.alert,
      ['description', 'first_command', 'summary'],
    ]);
    const mine = tests.filter((t) => t.includes(`alertname: ${rule.alert}\n`));
    // One file per rule, where it fires (exp_alerts listed) and stays silent (exp_alerts: []).
    expect([rule.alert, mine.length]).toEqual([rule.alert, 1]);
    expect(mine[0]).toContain('exp_alerts: []');
    expect(mine[0]).toContain('exp_labels:');
  }
});

test('a lead has not decided for three hours: the oldest waiting request is three hours old on /metrics', async () => {
  const sent = await h.slash('whitelist add 8.8.4.4');
  expect(JSON.stringify((await sent.reply()).body)).toContain('R-');
  expect((await h.get('/metrics')).text).toMatch(/^vidops_approval_oldest_pending_seconds [0-9.]+$/m);
  h.clock.advance(3 * 3600_000);
  const age = /^vidops_approval_oldest_pending_seconds ([0-9.]+)$/m.exec((await h.get('/metrics')).text)?.[1];
  expect(Number(age)).toBeGreaterThanOrEqual(3 * 3600);
  expect(Number(age)).toBeLessThan(3 * 3600 + 60);
});

test('a put-back handed to a lead counts on /metrics until it is back; ready and the memory limit are served', async () => {
  const metrics = async () => (await h.get('/metrics')).text;
  expect(await metrics()).toMatch(/^vidops_put_backs_escalated 0$/m);
  const timeBox = {
    ...newTimeBox({ kind: 'for', ms: 3600_000, text: '1h' }),
    state: 'retrying' as const,
    leadTold: true,
  };
  await h.store.createRequest(newRequest({ state: 'succeeded', timeBox }), []);
  expect(await metrics()).toMatch(/^vidops_put_backs_escalated 1$/m);
  expect(await metrics()).toMatch(/^vidops_ready 1$/m);
  expect(await metrics()).toMatch(new RegExp(`^vidops_memory_limit_bytes ${memoryLimitBytes()}$`, 'm'));
});

test("the memory limit is the cgroup's when it is set, else the machine's", () => {
  const dir = mkdtempSync(join(tmpdir(), 'vidops-cgroup-'));
  try {
    writeFileSync(join(dir, 'v2'), 'max\n');
    writeFileSync(join(dir, 'v1'), '536870912\n');
    expect(memoryLimitBytes([join(dir, 'v2')])).toBe(totalmem());
    expect(memoryLimitBytes([join(dir, 'v2'), join(dir, 'v1')])).toBe(536870912);
    expect(memoryLimitBytes([join(dir, 'missing')])).toBe(totalmem());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
