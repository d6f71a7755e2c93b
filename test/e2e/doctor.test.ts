import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHasher } from '../../src/core/audit-chain.js';
import { DEMO } from '../../src/sandbox/server.js';
import { writeKeyPair } from '../../src/services/audit-keys.js';
import { BOT_SCOPES } from '../../src/slack/scopes.js';
import { openStore } from '../../src/store/index.js';
import { runVidops } from '../cli/audit-runs.js';
import { schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';
import { CHANNELS, GROUPS, type Harness, SIGNING_SECRET, startHarness, USERS } from './app-harness.js';

/**
 * `vidops doctor` against the Slack emulator, the sandbox and the bot's own database: all well
 * first, then each fault an operator meets at 3 a.m. injected alone, named on its line with its fix.
 * @see docs/operations.md, "Doctor"
 */

const WHITELIST = '/v1/storage/dns/whitelist';

let h: Harness;
let keys: string;
let keyFile: string;

beforeAll(async () => {
  keys = await mkdtemp(join(tmpdir(), 'vidops-doctor-'));
  keyFile = (await writeKeyPair(keys, 'doctor')).privatePath;
  h = await startHarness({ env: { AUDIT_SIGNING_KEY_FILE: keyFile, AUDIT_LOG_NAME: 'doctor' } });
});

afterAll(async () => {
  await h.stop();
  await rm(keys, { recursive: true, force: true });
});

beforeEach(() => {
  h.slack.setScopes(BOT_SCOPES);
  h.slack.setChannels([
    { id: CHANNELS.audit, name: 'vidops-audit' },
    { id: CHANNELS.approvals, name: 'vidops-approvals' },
  ]);
});

/** The bot's environment, as the operator's shell would hold it. */
function env(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    SLACK_BOT_TOKEN: h.slack.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: h.slack.apiUrl,
    VIDEO_API_URL: h.sandbox.url,
    VIDEO_API_KEY: DEMO.apiKey,
    VIDEO_SECRET_KEY: DEMO.secretKey,
    AUDIT_CHANNEL: CHANNELS.audit,
    APPROVAL_CHANNEL: CHANNELS.approvals,
    LEADS: `${USERS.lead.id},${GROUPS.leads}`,
    AGENTS: `${USERS.agent.id},${GROUPS.agents}`,
    DATABASE_URL: h.config.databaseUrl,
    AUDIT_SIGNING_KEY_FILE: keyFile,
    AUDIT_LOG_NAME: 'doctor',
    ...overrides,
  };
}

async function doctor(overrides: Record<string, string | undefined> = {}, clock = () => new Date()) {
  return runVidops(['doctor'], { env: env(overrides), cwd: keys, clock });
}

/** The line of one check. */
function line(out: string, check: string): string {
  return out.split('\n').find((l) => l.includes(` ${check}: `)) ?? `(no line for ${check})`;
}

it('an operator runs doctor on a healthy deployment: every line ok, exit 0', async () => {
  const run = await doctor();
  expect(run.stderr).toBe('');
  expect(run.stdout).toContain('All checks passed.');
  expect(run.code).toBe(0);
  for (const check of [
    'configuration',
    'database',
    'slack token',
    'slack scopes',
    'audit channel',
    'approval channel',
    'signing key',
    'video service',
    'clock',
    'policy people',
  ]) {
    expect(line(run.stdout, check)).toMatch(/^ok {4}/);
  }
});

it('--json gives scripts every check with ok, detail and fix', async () => {
  const run = await runVidops(['doctor', '--json'], {
    env: env({ VIDEO_SECRET_KEY: 'wrong-secret' }),
    cwd: keys,
    clock: () => new Date(),
  });
  expect(run.code).toBe(1);
  const report = JSON.parse(run.stdout) as {
    ok: boolean;
    checks: { check: string; ok: boolean; fix: string }[];
  };
  expect(report.ok).toBe(false);
  expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['video service']);
  expect(report.checks.find((c) => c.check === 'video service')?.fix).toContain('VIDEO_SECRET_KEY');
  expect(run.stdout).not.toContain('wrong-secret');
});

describe('in Persian (--lang fa, or a shell whose LANG is fa_IR)', () => {
  const PERSIAN = /[\u0600-\u06FF]/;
  /** The Persian prose of a line: without the isolated Latin runs (paths, IDs, commands). */
  const prose = (text: string) => text.replace(/\u2068[^\u2069]*\u2069/g, ' ');

  it('an operator whose shell speaks Persian runs doctor on a healthy deployment: every line in Persian, exit 0', async () => {
    const run = await doctor({ LANG: 'fa_IR.UTF-8' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    // The same checks as in English, one line each, and the closing line.
    expect(lines).toHaveLength((await doctor()).stdout.trim().split('\n').length);
    for (const l of lines) {
      expect(l).toMatch(PERSIAN);
      expect(prose(l)).not.toMatch(/[0-9]/);
      expect(l).not.toMatch(/^(ok|FAIL) /);
    }
    expect(lines.slice(0, -1).every((l) => l.startsWith('درست  '))).toBe(true);
    expect(run.stdout).toContain('همه‌ی بررسی‌ها درست بودند.');
    expect(run.stdout).toContain('پایگاه داده: پاسخ می‌دهد');
  });

  it('the host clock is ten minutes ahead: the fault in Persian, Solar Hijri dates and Persian digits, with the NTP fix', async () => {
    const run = await runVidops(['doctor', '--lang', 'fa'], {
      env: env(),
      cwd: keys,
      clock: () => new Date(Date.now() + 10 * 60_000),
    });
    expect(run.code).toBe(1);
    const failed = run.stdout.split('\n').find((l) => l.startsWith('خطا   ساعت: ')) ?? '(no clock line)';
    expect(failed).toContain('(۶۰۰ ثانیه فاصله)');
    // Solar Hijri year (14xx) in Persian digits, not the Gregorian one.
    expect(failed).toMatch(/۱۴[۰-۹]{2}/);
    expect(failed).not.toMatch(/20[0-9]{2}-/);
    expect(failed).toContain('راه رفع: NTP');
    expect(run.stdout).toContain('۱ بررسی از ۱۲ بررسی نادرست بود.');
  });

  it('--json keeps the stable check names for scripts; detail and fix follow the language', async () => {
    const run = await runVidops(['doctor', '--json', '--lang', 'fa'], {
      env: env({ VIDEO_SECRET_KEY: 'wrong-secret' }),
      cwd: keys,
      clock: () => new Date(),
    });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { checks: { check: string; ok: boolean; fix: string }[] };
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['video service']);
    expect(report.checks.find((c) => c.check === 'video service')?.fix).toMatch(PERSIAN);
  });

  it('a variable does not parse: said in Persian, the variable named, exit 1', async () => {
    const run = await doctor({ LANG: 'fa_IR.UTF-8', VIDEO_API_URL: 'not a url' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^خطا {3}پیکربندی: متغیرهای نادرست: .*VIDEO_API_URL.* — راه رفع: /m);
    expect(run.stdout).toContain('۱ بررسی از ۱ بررسی نادرست بود.');
  });
});

it.each<[string, Record<string, string | undefined>, string, RegExp, RegExp]>([
  [
    'a variable does not parse',
    { VIDEO_API_URL: 'not a url' },
    'configuration',
    /VIDEO_API_URL/,
    /\.env\.example/,
  ],
  [
    'the Slack token was revoked',
    { SLACK_BOT_TOKEN: 'xoxb-0000-revoked' },
    'slack token',
    /invalid_auth/,
    /SLACK_BOT_TOKEN/,
  ],
  [
    'the video service refuses the keys',
    { VIDEO_API_KEY: 'wrong-key' },
    'video service',
    /AuthError|401/,
    /VIDEO_API_KEY/,
  ],
  [
    'the database is not where DATABASE_URL says',
    { DATABASE_URL: 'sqlite:/nonexistent/vidops.db' },
    'database',
    /no database at/,
    /DATABASE_URL/,
  ],
  [
    'a lead in LEADS left the workspace',
    { LEADS: `${USERS.lead.id},U0GONE001` },
    'policy people',
    /U0GONE001/,
    /LEADS/,
  ],
  [
    'a user group in AGENTS does not exist',
    { AGENTS: 'S0NOSUCH1' },
    'policy people',
    /S0NOSUCH1/,
    /user group/,
  ],
])('%s: its line fails with the fix, exit 1', async (_what, overrides, check, detail, fix) => {
  const run = await doctor(overrides);
  expect(run.code).toBe(1);
  const failed = line(run.stdout, check);
  expect(failed).toMatch(/^FAIL {2}/);
  expect(failed).toMatch(detail);
  expect(failed.split(' — fix: ')[1]).toMatch(fix);
});

it('the token lacks scopes the manifest asks for: named, with how to reinstall', async () => {
  h.slack.setScopes(BOT_SCOPES.filter((s) => s !== 'usergroups:read' && s !== 'channels:read'));
  const run = await doctor();
  expect(run.code).toBe(1);
  expect(line(run.stdout, 'slack scopes')).toMatch(
    /^FAIL {2}slack scopes: the token lacks usergroups:read, channels:read — fix: .*reinstall/,
  );
  expect(line(run.stdout, 'slack token')).toMatch(/^ok/);
});

it('the bot was removed from the approval channel: the fix is the /invite', async () => {
  h.slack.setChannels([{ id: CHANNELS.approvals, name: 'vidops-approvals', botIsMember: false }]);
  const run = await doctor();
  expect(run.code).toBe(1);
  expect(line(run.stdout, 'approval channel')).toContain('/invite @vidops in #vidops-approvals');
  expect(line(run.stdout, 'audit channel')).toMatch(/^ok/);
});

it('the signing key is readable by others: chmod 600 is the fix', async () => {
  await chmod(keyFile, 0o644);
  try {
    const run = await doctor();
    expect(run.code).toBe(1);
    expect(line(run.stdout, 'signing key')).toContain(`fix: chmod 600 ${keyFile}`);
  } finally {
    await chmod(keyFile, 0o600);
  }
});

it("the signing key's state file is readable by others: that line fails, chmod 600 of it is the fix", async () => {
  const state = `${keyFile}.last`;
  // The first checkpoint of a log with events makes the state file, with mode 600.
  const before = (await h.store.auditHead())?.seq ?? 0;
  await (await h.slash('unblock 0912 123 4567')).reply();
  await h.waitForAudit((e) => e.seq > before + 2);
  expect(
    (await runVidops(['audit', 'checkpoint'], { env: env(), cwd: keys, clock: () => new Date() })).code,
  ).toBe(0);
  await chmod(state, 0o644);
  try {
    const run = await doctor();
    expect(run.code).toBe(1);
    expect(line(run.stdout, 'signing key state')).toBe(
      `FAIL  signing key state: ${state} has mode 644: others may read or change it — fix: chmod 600 ${state}`,
    );
    expect(line(run.stdout, 'signing key')).toMatch(/^ok/);
    const fa = await doctor({ LANG: 'fa_IR.UTF-8' });
    expect(fa.stdout).toContain(`خطا   وضعیت کلید امضا: \u2068${state}\u2069`);
    expect(fa.stdout).toContain(`راه رفع: اجرا کنید: \u2068chmod 600 ${state}\u2069`);
  } finally {
    await chmod(state, 0o600);
  }
  expect(line((await doctor()).stdout, 'signing key state')).toBe(
    `ok    signing key state: ${state} has mode 600`,
  );
});

describe('the video service answers slower than 1,000 ms', () => {
  afterEach(() => h.sandbox.clearFaults());

  it('a warning with the measured time and the threshold, not a failure: exit 0', async () => {
    h.sandbox.setFaults([{ path: WHITELIST, method: 'GET', latencyMs: 1_300 }]);
    const run = await doctor();
    expect(run.code).toBe(0);
    const warned = line(run.stdout, 'video service');
    const ms = Number(/in (\d+) ms, slower than 1000 ms/.exec(warned)?.[1]);
    expect(ms).toBeGreaterThanOrEqual(1_300);
    expect(warned).toMatch(
      /^warn {2}video service: http:\/\/127\.0\.0\.1:\d+ answered a whitelist read in \d+ ms, slower than 1000 ms \(\d+ addresses\): every reply that waits on it is as slow — fix: check the network/,
    );
    expect(run.stdout).toContain('All checks passed; 1 with a warning.');
    const json = JSON.parse(
      (await runVidops(['doctor', '--json'], { env: env(), cwd: keys, clock: () => new Date() })).stdout,
    ) as {
      ok: boolean;
      checks: { check: string; ok: boolean; warning?: boolean }[];
    };
    expect(json.ok).toBe(true);
    expect(json.checks.find((c) => c.check === 'video service')).toMatchObject({ ok: true, warning: true });
  });

  it('in Persian: the warning in Persian with Persian digits', async () => {
    h.sandbox.setFaults([{ path: WHITELIST, method: 'GET', latencyMs: 1_300 }]);
    const run = await doctor({ LANG: 'fa_IR.UTF-8' });
    expect(run.code).toBe(0);
    const warned = run.stdout.split('\n').find((l) => l.startsWith('هشدار سرویس ویدیو: ')) ?? '(no line)';
    expect(warned).toMatch(/در [۰-۹٬]+ میلی‌ثانیه پاسخ داد، کندتر از ۱٬۰۰۰ میلی‌ثانیه/);
    expect(warned.replace(/\u2068[^\u2069]*\u2069/g, ' ')).not.toMatch(/[0-9]/);
    expect(run.stdout).toContain('همه‌ی بررسی‌ها درست بودند؛ ۱ بررسی با هشدار.');
  });

  it('a service that cannot be reached is a failure, not a warning', async () => {
    const run = await doctor({ VIDEO_API_URL: 'http://127.0.0.1:9' });
    expect(run.code).toBe(1);
    expect(line(run.stdout, 'video service')).toMatch(
      /^FAIL {2}video service: http:\/\/127\.0\.0\.1:9: .* — fix: check VIDEO_API_URL/,
    );
  });
});

it('the database no longer extends what the key signed: said, with the command that accepts a restore', async () => {
  const before = (await h.store.auditHead())?.seq ?? 0;
  const slash = await h.slash('unblock 0912 123 4567');
  await slash.reply();
  await h.waitForAudit((e) => e.seq > before + 2);
  expect(
    (await runVidops(['audit', 'checkpoint'], { env: env(), cwd: keys, clock: () => new Date() })).code,
  ).toBe(0);
  // Someone cuts the log's end, as a restore from an older backup would.
  const head = (await h.store.auditHead())?.seq ?? 0;
  const db = new Database(h.config.databaseUrl.slice('sqlite:'.length));
  try {
    db.prepare('DELETE FROM outbox WHERE seq = ?').run(head);
    db.prepare('DELETE FROM audit_events WHERE seq = ?').run(head);
  } finally {
    db.close();
  }
  const run = await doctor();
  expect(run.code).toBe(1);
  const failed = line(run.stdout, 'signing key and database');
  expect(failed).toContain('the log does not extend the checkpoint this key signed before');
  expect(failed).toContain('vidops audit checkpoint --accept-baseline');
});

it('the host clock is ten minutes ahead of the database: NTP is the fix', async () => {
  const run = await doctor({}, () => new Date(Date.now() + 10 * 60_000));
  expect(run.code).toBe(1);
  expect(line(run.stdout, 'clock')).toMatch(/^FAIL {2}clock: .*\(600 s apart\) — fix: turn on NTP/);
});

it('a database a newer vidops migrated: named, not misread', async () => {
  const db = new Database(h.config.databaseUrl.slice('sqlite:'.length));
  db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9001, 'newer', 'x')").run();
  db.close();
  try {
    const run = await doctor();
    expect(run.code).toBe(1);
    expect(line(run.stdout, 'database')).toContain('written by a newer vidops');
  } finally {
    const again = new Database(h.config.databaseUrl.slice('sqlite:'.length));
    again.prepare('DELETE FROM schema_migrations WHERE version = 9001').run();
    again.close();
  }
});

it('a database an older vidops left, its last migration not applied: named, and starting vidops is the fix', async () => {
  const db = new Database(h.config.databaseUrl.slice('sqlite:'.length));
  const last = db.prepare('SELECT * FROM schema_migrations ORDER BY version DESC LIMIT 1').get() as {
    version: number;
    name: string;
    applied_at: string;
  };
  db.prepare('DELETE FROM schema_migrations WHERE version = ?').run(last.version);
  db.close();
  try {
    const run = await doctor();
    expect(run.code).toBe(1);
    expect(line(run.stdout, 'database')).toMatch(
      /^FAIL {2}database: answers, but 1 of \d+ migrations are not applied — fix: start vidops/,
    );
  } finally {
    const again = new Database(h.config.databaseUrl.slice('sqlite:'.length));
    again
      .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
      .run(last.version, last.name, last.applied_at);
    again.close();
  }
});

it('a PostgreSQL nobody answers at: the database line fails with the fix, and the checks that need it say they were not made', async () => {
  const run = await doctor({ DATABASE_URL: 'postgres://vidops:Hunter2Secret@127.0.0.1:1/vidops' });
  expect(run.code).toBe(1);
  expect(line(run.stdout, 'database')).toMatch(
    /^FAIL {2}database: does not answer: .* — fix: check DATABASE_URL/,
  );
  expect(line(run.stdout, 'video service')).toContain('not checked: the database does not answer');
  expect(line(run.stdout, 'clock')).toContain('not checked: the database does not answer');
  expect(run.stdout).not.toContain('Hunter2Secret');
});

it('AUDIT_CHANNEL names a channel Slack does not have: the line says so, and the fix asks for the ID', async () => {
  const run = await doctor({ AUDIT_CHANNEL: 'C0NOSUCH1' });
  expect(run.code).toBe(1);
  expect(line(run.stdout, 'audit channel')).toMatch(
    /^FAIL {2}audit channel: C0NOSUCH1: .* — fix: set the channel ID/,
  );
  expect(line(run.stdout, 'approval channel')).toMatch(/^ok/);
});

it('the policy file does not parse: the policy line fails on one line with its fix, naming POLICY_FILE', async () => {
  // Was a defect: the parser's message spans lines, so the fix landed apart from its check.
  await writeFile(join(keys, 'broken-policy.yml'), 'rules: [this is: not, a policy\n');
  const run = await doctor({ POLICY_FILE: 'broken-policy.yml' });
  expect(run.code).toBe(1);
  expect(line(run.stdout, 'policy')).toMatch(/^FAIL {2}policy: .* — fix: fix POLICY_FILE/);
});

const pgIt = TEST_DATABASE_URL === undefined ? it.skip : it;

pgIt('on PostgreSQL: the database answers with a current schema, and its clock is compared', async () => {
  const schemas = schemaPool(TEST_DATABASE_URL ?? '', 'doctor');
  try {
    const url = schemas.url();
    await (await openStore(url, { hash: createHasher() })).close();
    const run = await doctor({ DATABASE_URL: url, AUDIT_SIGNING_KEY_FILE: undefined });
    expect(line(run.stdout, 'database')).toMatch(/^ok {4}database: answers; schema current/);
    expect(line(run.stdout, 'clock')).toMatch(/^ok {4}clock: within 5 s/);
    expect(run.code).toBe(0);
  } finally {
    await schemas.dropAll();
  }
});
