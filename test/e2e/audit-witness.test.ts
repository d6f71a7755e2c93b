import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import Database from 'better-sqlite3';
import { type CliIo, runCli } from '../../src/cli/run.js';
import { createHasher, GENESIS_HASH } from '../../src/core/audit-chain.js';
import { canonicalJson } from '../../src/core/json.js';
import { DEMO } from '../../src/sandbox/server.js';
import { writeKeyPair } from '../../src/services/audit-keys.js';
import { openStore } from '../../src/store/index.js';
import { renderAuditPost } from '../../src/views/audit-post.js';
import { CHANNELS, type Harness, startHarness } from './app-harness.js';

/**
 * The audit channel as a witness, end to end: the bot signs checkpoints and posts them beside
 * the events, and `vidops audit witness` reads the channel's history back from (fake) Slack and
 * names what was deleted from it and what was forged into it.
 * @see docs/audit.md; docs/architecture.md, "Audit log"
 */

let keysDir: string;
let h: Harness;

beforeAll(async () => {
  keysDir = await mkdtemp(join(tmpdir(), 'vidops-e2e-keys-'));
  const { privatePath } = await writeKeyPair(keysDir, 'e2e');
  h = await startHarness({
    env: { AUDIT_SIGNING_KEY_FILE: privatePath, AUDIT_LOG_NAME: 'e2e', AUDIT_CHECKPOINT_EVERY: '6' },
  });
});

afterAll(async () => {
  await h.stop();
  await rm(keysDir, { recursive: true, force: true });
});

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `vidops audit witness` on the bot's database and the fake Slack. */
async function witness(): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {
      DATABASE_URL: h.config.databaseUrl,
      SLACK_BOT_TOKEN: h.slack.botToken,
      SLACK_API_URL: h.slack.apiUrl,
      AUDIT_CHANNEL: CHANNELS.audit,
    },
    cwd: keysDir,
    osUser: 'compliance',
  };
  const code = await runCli(['audit', 'witness'], io);
  return { code, stdout, stderr };
}

/** Seqs an audit channel message shows, from its text fallback. */
function seqsOf(text: string): number[] {
  return [...text.matchAll(/^#(\d+) /gm)].map((m) => Number(m[1]));
}

describe('the audit channel witnesses the signed log', () => {
  it('/readyz and the start log say checkpoints are signed, and by which key', async () => {
    const ready = await h.get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({
      ok: true,
      checkpoints: expect.stringMatching(
        /^signed by vidops\/e2e\+[0-9a-f]{8} every 6 events and at shutdown$/,
      ),
    });
    expect(h.logs.join('')).toMatch(
      /"msg":"audit checkpoints signed by vidops\/e2e\+[0-9a-f]{8} every 6 events/,
    );
  });

  it('a checkpoint is signed after every 6 events and posted to the channel; the witness finds them agreeing', async () => {
    for (const mobile of DEMO.unblockedMobiles.slice(0, 3))
      await (await h.slash(`unblock ${mobile}`)).reply();
    await until('a checkpoint posted and every event posted', async () => {
      const [stored, depth] = await Promise.all([h.store.listCheckpoints(), h.store.outboxDepth()]);
      return stored.length > 0 && stored.every((c) => c.postedAt !== null) && depth === 0;
    });
    const posted = h.slack
      .messages(CHANNELS.audit)
      .filter((m) => m.text.startsWith('vidops audit checkpoint'));
    expect(posted.length).toBeGreaterThanOrEqual(1);
    const stored = await h.store.listCheckpoints();
    expect(posted[0]?.text).toContain(stored[0]?.note.trimEnd());
    // The operator sees them on /metrics, apart from the posts of events.
    const { text } = await h.get('/metrics');
    const count = /^vidops_audit_checkpoint_posts_total\{outcome="ok"\} (\d+)$/m.exec(text)?.[1];
    expect(Number(count)).toBe(stored.filter((c) => c.postedAt !== null).length);

    const result = await witness();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('the whole history');
    expect(result.stdout).toContain('witness: the channel and the database agree.');
  });

  it('a message deleted from the channel and one forged into it are both named', async () => {
    const web = new WebClient(h.slack.botToken, { slackApiUrl: h.slack.apiUrl });
    const messages = h.slack.messages(CHANNELS.audit).filter((m) => seqsOf(m.text).length > 0);
    const victim = messages[0];
    if (victim === undefined) throw new Error('no event message in the channel');
    await web.chat.delete({ channel: CHANNELS.audit, ts: victim.ts });
    // Someone holding the bot token posts a line for an event the database does not have.
    const head = (await h.store.auditHead())?.seq ?? 0;
    const [real] = await h.store.listAudit({ afterSeq: head - 1, limit: 1 });
    if (real === undefined) throw new Error('no head event');
    const forgedEvent = { ...real, seq: head + 1, hash: 'feedface'.repeat(8) };
    const forged = renderAuditPost([forgedEvent]);
    await web.chat.postMessage({ channel: CHANNELS.audit, text: forged.text, blocks: forged.blocks });

    const result = await witness();
    expect(result.code).toBe(1);
    for (const seq of seqsOf(victim.text)) {
      expect(result.stderr).toMatch(
        new RegExp(`^missing from the channel: #${seq} \\(hash [0-9a-f]{12}\\)`, 'm'),
      );
    }
    expect(result.stderr).toContain(
      `not in the database: the channel shows #${head + 1} with hash feedfacefeed`,
    );
    expect(result.stderr).toContain(`the database has no event #${head + 1}`);
    const discrepancies = seqsOf(victim.text).length + 1;
    expect(
      result.stderr.endsWith(
        `\nwitness: ${discrepancies} discrepancies between the channel and the database.\n`,
      ),
    ).toBe(true);
  });

  it('a checkpoint message deleted from the channel is named', async () => {
    const checkpoint = h.slack
      .messages(CHANNELS.audit)
      .find((m) => m.text.startsWith('vidops audit checkpoint'));
    if (checkpoint === undefined) throw new Error('no checkpoint message');
    await new WebClient(h.slack.botToken, { slackApiUrl: h.slack.apiUrl }).chat.delete({
      channel: CHANNELS.audit,
      ts: checkpoint.ts,
    });
    const size = Number(/^vidops audit checkpoint: (\d+) event/.exec(checkpoint.text)?.[1]);
    const result = await witness();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `checkpoint missing from the channel: the checkpoint of ${size} events was posted, but the channel does not show it`,
    );
  });

  it('at shutdown the bot signs a checkpoint of every event and posts it before it stops', async () => {
    await (await h.slash(`unblock ${DEMO.blockedMobiles[0]}`)).reply();
    const head = await h.store.auditHead();
    await h.vidops.stop();
    const store = await openStore(h.config.databaseUrl, { hash: createHasher() });
    try {
      const latest = await store.latestCheckpoint();
      expect(latest?.size).toBe(head?.seq);
      expect(latest?.postedAt).not.toBeNull();
    } finally {
      await store.close();
    }
  });
});

describe('without a signing key', () => {
  it('/readyz and the start log say no checkpoints are signed', async () => {
    const plain = await startHarness();
    try {
      const ready = await plain.get('/readyz');
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text)).toEqual({
        ok: true,
        checkpoints: 'off: AUDIT_SIGNING_KEY_FILE is not set, no audit checkpoints are signed',
      });
      expect(plain.logs.join('')).toContain(
        '"msg":"audit checkpoints off: AUDIT_SIGNING_KEY_FILE is not set, no audit checkpoints are signed"',
      );
    } finally {
      await plain.stop();
    }
  });
});

describe('a log rewritten under the bot', () => {
  let dir: string;
  let privatePath: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vidops-e2e-keys-'));
    ({ privatePath } = await writeKeyPair(dir, 'e2e'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * Someone with the database file but not the key: edits event #2, recomputes every hash from
   * there with vidops' own hash function, and deletes the checkpoint rows.
   */
  async function rewrite(app: Harness): Promise<void> {
    const hash = createHasher();
    const events = await app.store.listAudit({ afterSeq: 0, limit: 1000 });
    const db = new Database(app.config.databaseUrl.slice('sqlite:'.length));
    try {
      const update = db.prepare('UPDATE audit_events SET event = ?, prev_hash = ?, hash = ? WHERE seq = ?');
      let prevHash = GENESIS_HASH;
      for (const event of events) {
        const { seq, prevHash: _prev, hash: _hash, ...body } = event;
        const edited = seq === 2 ? { ...body, target: 'viewer 09000000000' } : body;
        const rehashed = hash({ ...edited, seq, prevHash });
        update.run(canonicalJson(edited), prevHash, rehashed, seq);
        prevHash = rehashed;
      }
      db.prepare('DELETE FROM checkpoints').run();
    } finally {
      db.close();
    }
  }

  it('the bot signs nothing, says so in its log as an error, and counts it on /metrics', async () => {
    const app = await startHarness({
      env: { AUDIT_SIGNING_KEY_FILE: privatePath, AUDIT_LOG_NAME: 'e2e', AUDIT_CHECKPOINT_EVERY: '3' },
    });
    try {
      for (const mobile of DEMO.unblockedMobiles.slice(0, 2))
        await (await app.slash(`unblock ${mobile}`)).reply();
      await until('a checkpoint signed', async () => (await app.store.listCheckpoints()).length > 0);
      // The key remembers it beside itself, out of the database's reach.
      expect(await readFile(`${privatePath}.last`, 'utf8')).toMatch(/^vidops\/e2e\n\d+\n/);
      expect((await app.get('/metrics')).text).toMatch(/^vidops_audit_checkpoint_refused_total 0$/m);

      await rewrite(app);
      await (await app.slash(`unblock ${DEMO.unblockedMobiles[2]}`)).reply();
      await until('the refusal counted on /metrics', async () =>
        /^vidops_audit_checkpoint_refused_total [1-9]\d*$/m.test((await app.get('/metrics')).text),
      );
      const refusal = app.logs
        .map((line) => JSON.parse(line) as { level: number; msg: string; alert?: string })
        .find((line) => line.alert === 'audit_checkpoint_refused');
      expect(refusal).toMatchObject({ level: 50 });
      expect(refusal?.msg).toContain('does not extend the checkpoint this key signed before');
      expect(await app.store.listCheckpoints()).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  it('a signing key file its group may read stops the start, naming the file and the fix', async () => {
    await chmod(privatePath, 0o640);
    const started = startHarness({ env: { AUDIT_SIGNING_KEY_FILE: privatePath, AUDIT_LOG_NAME: 'e2e' } });
    // A harness that started after all is stopped, so the failure is the only thing left behind.
    const outcome = await started.then(
      async (app) => {
        await app.stop();
        return 'started';
      },
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(outcome).toContain(`AUDIT_SIGNING_KEY_FILE ${privatePath} may be read by other users (mode 640)`);
    expect(outcome).toContain(`run \`chmod 600 ${privatePath}\``);
  });
});
