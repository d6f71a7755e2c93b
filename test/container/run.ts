import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parse } from 'yaml';
import { z } from 'zod';
import { shortHash } from '../../src/core/audit-chain.js';
import {
  blockAction,
  type Emulator,
  postSigned,
  type ResponsePost,
  type StoredMessage,
  slashCommand,
  startEmulator,
} from '../../src/emulator/index.js';
import { DEMO, type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { ACTIONS } from '../../src/views/ids.js';
import { BASE_IMAGE, ensureBaseImage } from './base-image.js';
import { must, podmanEnvironment, run, stream } from './podman.js';

/**
 * `npm run test:container`: builds the Dockerfile with podman on a stand-in of its base image,
 * then runs the image as docs/operations.md says an operator does: alone on SQLite on a volume,
 * then as compose.yaml's two replicas on one PostgreSQL, secrets from files, against the
 * sandbox and the Slack emulator on this host's loopback.
 * @see docs/operations.md, "Run it with the image and compose"
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IMAGE = 'localhost/vidops:container-test';
const SECRET = 'container-signing-secret-5e1d';
const AGENT = { id: 'U0AGENT1', name: 'ana' };
const LEAD = { id: 'U0LEAD1', name: 'lena' };
/** A second lead: an approval needs someone other than the requester, leads included. */
const LEAD2 = { id: 'U0LEAD2', name: 'leo' };
const CHANNELS = { audit: 'C0AUDIT', approvals: 'C0APPROVALS' };
const TAG = `vidops-ct-${process.pid}`;

interface World {
  env: NodeJS.ProcessEnv;
  dir: string;
  slack: Emulator;
  sandbox: Sandbox;
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A port free on the loopback now; the containers share the host's network. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(),
      );
    });
  });
}

/** The sandbox and the team, as an operator sets them (in compose.yaml's .env). */
function teamValues(w: World): Record<string, string> {
  return {
    VIDEO_API_URL: w.sandbox.url,
    AUDIT_CHANNEL: CHANNELS.audit,
    APPROVAL_CHANNEL: CHANNELS.approvals,
    LEADS: `${LEAD.id},${LEAD2.id}`,
    AGENTS: AGENT.id,
  };
}

/** `podman run` as compose.yaml runs a replica: read-only root, a tmpfs /tmp, state on a volume. */
async function startContainer(
  w: World,
  name: string,
  env: Record<string, string>,
  mounts: readonly string[],
): Promise<void> {
  await must(
    'podman',
    [
      'run',
      '--detach',
      '--name',
      name,
      '--network=host',
      '--read-only',
      '--read-only-tmpfs=false',
      '--tmpfs',
      '/tmp',
      ...mounts.flatMap((m) => ['--volume', m]),
      ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
      IMAGE,
    ],
    { env: w.env },
  );
}

async function logsOf(w: World, name: string): Promise<string> {
  const logs = await run('podman', ['logs', name], { env: w.env });
  return `${logs.stdout}${logs.stderr}`.slice(-3000);
}

/** Waits for `/readyz` 200; a container that exits first fails with its logs. */
async function ready(w: World, name: string, port: number): Promise<void> {
  await until(`${name} ready`, async () => {
    const state = await must('podman', ['inspect', '--format', '{{.State.Running}}', name], { env: w.env });
    if (state.trim() !== 'true') throw new Error(`${name} stopped before ready:\n${await logsOf(w, name)}`);
    const answer = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    return answer?.status === 200 ? true : undefined;
  });
}

let tags = 0;

/** `/vidops <text>` typed by `user`, signed and posted to a container's receiver. */
async function slash(w: World, port: number, text: string, user = AGENT.id) {
  tags += 1;
  const tag = `slash-${tags}`;
  const request = slashCommand({ text, userId: user, responseUrl: w.slack.responseUrl(tag) });
  const ack = await postSigned(`http://127.0.0.1:${port}/slack/events`, request, SECRET);
  assert(ack.status === 200, `the ack of "${text}" was ${ack.status}: ${ack.text}`);
  return { reply: (ms = 30_000) => w.slack.waitForResponse((p: ResponsePost) => p.tag === tag, ms) };
}

const textOf = (post: ResponsePost) => JSON.stringify(post.body);

/** The sandbox's unblock calls for one number. */
const unblocksOf = (w: World, mobile: string) =>
  w.sandbox.requests().filter((r) => r.method === 'POST' && JSON.stringify(r.body).includes(mobile));

const EventSchema = z.object({ seq: z.number(), hash: z.string() });

/**
 * Every audit event of the database (through the image's own CLI) posted to the channel: once,
 * or, after a replica was killed, at most twice (a replica killed between Slack's answer and its
 * mark posts that batch again: shown twice, never lost; docs/audit.md).
 */
async function auditPosted(w: World, cli: readonly string[], most: 1 | 2 = 1): Promise<number> {
  const verify = await run('podman', [...cli, 'bin/vidops.js', 'audit', 'verify'], { env: w.env });
  assert(verify.code === 0, `audit verify exited ${verify.code}: ${verify.stderr}${verify.stdout}`);
  const exported = await must('podman', [...cli, 'bin/vidops.js', 'audit', 'export', '--format', 'jsonl'], {
    env: w.env,
  });
  const events = exported
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => EventSchema.parse(JSON.parse(l)));
  assert(events.length > 0, 'no audit event in the database');
  // The blocks only: the `text` fallback repeats each line.
  const posted = JSON.stringify(w.slack.messages(CHANNELS.audit).map((m) => m.blocks));
  for (const e of events) {
    const times = posted.split(shortHash(e.hash)).length - 1;
    assert(times >= 1 && times <= most, `audit event ${e.seq} was posted ${times} times`);
  }
  return events.length;
}

async function metric(port: number, name: string): Promise<number | undefined> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
    (r) => r.text(),
    () => '',
  );
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

/** Both outboxes empty on a replica's scrape. */
const drained = async (port: number) =>
  (await metric(port, 'vidops_audit_outbox_depth')) === 0 &&
  (await metric(port, 'vidops_notification_outbox_depth')) === 0
    ? true
    : undefined;

// ---------------------------------------------------------------------------------------------

async function buildImage(w: World): Promise<string> {
  let started = Date.now();
  const base = await ensureBaseImage(w.dir, w.env);
  console.log(`  base ${BASE_IMAGE}: ${base} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  started = Date.now();
  // docker format: OCI images have no HEALTHCHECK. Host network: npm and apt reach what the
  // host reaches; npm's cache is the host's (filled by its own `npm ci`), so less is downloaded.
  const cache = join((await must('npm', ['config', 'get', 'cache'], { env: w.env })).trim(), '_cacache');
  await mkdir(cache, { recursive: true });
  await stream(
    'podman',
    [
      'build',
      '--format',
      'docker',
      '--network=host',
      '--pull=never',
      '--volume',
      `${cache}:/root/.npm/_cacache`,
      '--tag',
      IMAGE,
      '--file',
      'Dockerfile',
      '.',
    ],
    w.env,
    ROOT,
  );
  const size = Number(
    await must('podman', ['image', 'inspect', '--format', '{{.Size}}', IMAGE], { env: w.env }),
  );
  const config = JSON.parse(
    await must('podman', ['image', 'inspect', '--format', '{{json .Config}}', IMAGE], { env: w.env }),
  ) as { User?: string; Env?: string[]; Entrypoint?: string[] };
  const health = await must('podman', ['image', 'inspect', '--format', '{{json .HealthCheck}}', IMAGE], {
    env: w.env,
  });
  assert(config.User === 'node', `the image runs as "${config.User}", not node`);
  assert(health.includes('/healthz'), 'no HEALTHCHECK on /healthz');
  assert((config.Env ?? []).includes('MALLOC_ARENA_MAX=2'), 'MALLOC_ARENA_MAX=2 not set');
  assert(
    JSON.stringify(config.Entrypoint).includes('--max-semi-space-size=4'),
    `npm start's node flags missing: ${JSON.stringify(config.Entrypoint)}`,
  );
  const toolchain = await run(
    'podman',
    [
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      IMAGE,
      '-c',
      'command -v g++ || command -v make || command -v python3',
    ],
    { env: w.env },
  );
  assert(toolchain.code !== 0, `the final stage has a toolchain: ${toolchain.stdout}`);
  return `${(size / 1e6).toFixed(0)} MB, built in ${((Date.now() - started) / 1000).toFixed(0)} s`;
}

/** One container on SQLite on a volume: ready, non-root, read-only, an unblock, SIGTERM. */
async function alone(w: World): Promise<string> {
  const name = `${TAG}-alone`;
  const volume = `${TAG}-data`;
  const port = await freePort();
  await must('podman', ['volume', 'create', volume], { env: w.env });
  const env = {
    ...teamValues(w),
    PORT: String(port),
    SLACK_API_URL: w.slack.apiUrl,
    SLACK_BOT_TOKEN: w.slack.botToken,
    SLACK_SIGNING_SECRET: SECRET,
    VIDEO_API_KEY: DEMO.apiKey,
    VIDEO_SECRET_KEY: DEMO.secretKey,
  };
  await startContainer(w, name, env, [`${volume}:/app/data`]);
  await ready(w, name, port);

  const inspect = JSON.parse(
    await must('podman', ['inspect', '--format', '{{json .HostConfig.ReadonlyRootfs}}', name], {
      env: w.env,
    }),
  );
  assert(inspect === true, 'the root filesystem is not read-only');
  const uid = (await must('podman', ['exec', name, 'id', '-u'], { env: w.env })).trim();
  assert(uid !== '0', 'the process runs as root');
  const write = await run('podman', ['exec', name, 'sh', '-c', 'touch /written || touch /app/written'], {
    env: w.env,
  });
  assert(write.code !== 0, 'a write to / or /app succeeded');
  const health = await run('podman', ['healthcheck', 'run', name], { env: w.env });
  assert(health.code === 0, `the HEALTHCHECK failed: ${health.stderr}${health.stdout}`);
  console.log(`  uid ${uid}, read-only root, healthy`);

  const mobile = DEMO.blockedMobiles[0];
  const first = await (await slash(w, port, `unblock ${mobile}`)).reply();
  assert(textOf(first).includes('is unblocked'), `unexpected reply: ${textOf(first)}`);
  assert(unblocksOf(w, mobile).length === 1, 'the sandbox did not get the unblock once');

  // SIGTERM just after the ack: the unblock in flight still finishes and is posted before exit.
  const second = DEMO.blockedMobiles[1];
  const inFlight = await slash(w, port, `unblock ${second}`);
  await must('podman', ['kill', '--signal', 'TERM', name], { env: w.env });
  const code = (await must('podman', ['wait', name], { env: w.env })).trim();
  assert(code === '0', `exit status ${code} after SIGTERM:\n${await logsOf(w, name)}`);
  assert(
    textOf(await inFlight.reply(5000)).includes('is unblocked'),
    'the unblock in flight was not answered',
  );
  assert(unblocksOf(w, second).length === 1, 'the unblock in flight did not reach the sandbox once');
  const events = await auditPosted(w, ['run', '--rm', '--volume', `${volume}:/app/data`, IMAGE]);
  return `SIGTERM: exit 0, ${events} audit events on the volume, each posted once`;
}

const ReplicaSchema = z.object({
  restart: z.enum(['always', 'unless-stopped', 'on-failure']),
  read_only: z.literal(true),
  tmpfs: z.array(z.string()),
  environment: z.record(z.string(), z.string()),
  secrets: z.array(z.string()),
});

/**
 * compose.yaml's replica as `podman run` arguments: its environment (`${NAME…}` filled from
 * `values`), its secrets as files under /run/secrets (from `secrets`), read-only with its tmpfs.
 * A name the test has no value for fails: the test runs what the file says.
 */
async function composeReplica(
  w: World,
  values: Record<string, string>,
  secrets: Record<string, string>,
): Promise<{ env: Record<string, string>; mounts: string[] }> {
  const compose = z
    .object({ services: z.object({ 'vidops-a': ReplicaSchema, 'vidops-b': ReplicaSchema }) })
    .parse(parse(await readFile(join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }));
  const replica = compose.services['vidops-a'];
  assert(JSON.stringify(replica) === JSON.stringify(compose.services['vidops-b']), 'the replicas differ');
  assert(
    JSON.stringify(replica.tmpfs) === '["/tmp"]',
    `tmpfs ${replica.tmpfs.join(', ')}: the test mounts /tmp`,
  );
  const fill = (text: string) =>
    text.replace(/\$\{(\w+)[^}]*\}/g, (_, name: string) => {
      const value = values[name];
      assert(value !== undefined, `compose.yaml uses \${${name}}, which the test does not set`);
      return value;
    });
  const env = Object.fromEntries(Object.entries(replica.environment).map(([k, v]) => [k, fill(v)]));
  const mounts: string[] = [];
  for (const name of replica.secrets) {
    const value = secrets[name];
    assert(value !== undefined, `compose.yaml gives the secret ${name}, which the test does not have`);
    const file = join(w.dir, name);
    await writeFile(file, `${value}\n`);
    await chown(file, 1000, 1000);
    await chmod(file, 0o400);
    mounts.push(`${file}:/run/secrets/${name}:ro`);
  }
  return { env, mounts };
}

/** Two replicas on one PostgreSQL: a click on one decides on the other; one killed mid-work. */
async function replicas(w: World, pool: pg.Pool, databaseUrl: string): Promise<string> {
  const { env, mounts } = await composeReplica(w, teamValues(w), {
    slack_bot_token: w.slack.botToken,
    slack_signing_secret: SECRET,
    video_api_key: DEMO.apiKey,
    video_secret_key: DEMO.secretKey,
    audit_hmac_key: 'container-hmac-key-0b7e2c',
    database_url: databaseUrl,
  });
  const [portA, portB] = [await freePort(), await freePort()];
  const [a, b] = [`${TAG}-a`, `${TAG}-b`];
  // Host network: each replica on its own port, and the emulator as Slack (SLACK_API_URL).
  const local = (port: number) => ({ PORT: String(port), SLACK_API_URL: w.slack.apiUrl });
  await Promise.all([
    startContainer(w, a, { ...env, ...local(portA) }, mounts),
    startContainer(w, b, { ...env, ...local(portB) }, mounts),
  ]);
  await Promise.all([ready(w, a, portA), ready(w, b, portB)]);
  console.log('  two replicas ready on one PostgreSQL, secrets from files');

  // The agent asks on A; the lead approves on B; the whitelist is sent once.
  const ip = '5.160.10.20';
  const asked = textOf(await (await slash(w, portA, `whitelist add ${ip}`)).reply());
  const id = /R-[0-9A-HJKMNP-TV-Z]{8}/.exec(asked)?.[0];
  assert(id !== undefined, `no request ID in: ${asked}`);
  const message = await until('the approval message', () =>
    w.slack
      .messages(CHANNELS.approvals)
      .find((m: StoredMessage) => JSON.stringify(m.blocks ?? []).includes(id)),
  );
  const click = blockAction({
    userId: LEAD.id,
    userName: LEAD.name,
    actionId: ACTIONS.approve,
    value: id,
    message,
    responseUrl: w.slack.responseUrl(`approve-${id}`),
  });
  const answer = await postSigned(`http://127.0.0.1:${portB}/slack/events`, click, SECRET);
  assert(answer.status === 200, `the approval click was answered ${answer.status}`);
  const writes = () =>
    w.sandbox.requests().filter((r) => r.method !== 'GET' && JSON.stringify(r.body).includes(ip));
  await until('the whitelist sent', () => (writes().length > 0 ? true : undefined));
  const row = await until('the request done', async () => {
    const { rows } = await pool.query<{ state: string }>('SELECT state FROM requests WHERE id = $1', [id]);
    return rows[0]?.state === 'succeeded' ? rows[0] : undefined;
  });
  assert(writes().length === 1, `the whitelist was sent ${writes().length} times`);
  console.log(`  ${id} asked on A, approved on B: ${row.state}, sent once`);

  // A batch of unblocks on A; A is killed while its audit and notification outboxes are still
  // being worked off. B takes them over once A's leases run out.
  const mobiles = Array.from({ length: 6 }, (_, i) => `0912000${String(1000 + i)}`);
  const sent = await Promise.all(mobiles.map((m) => slash(w, portA, `unblock ${m}`)));
  await Promise.all(sent.map((s) => s.reply()));
  const pending = await metric(portA, 'vidops_audit_outbox_depth');
  await must('podman', ['kill', '--signal', 'KILL', a], { env: w.env });
  assert((pending ?? 0) > 0, 'the audit outbox was already empty when A was killed: nothing was mid-work');
  await until('B to work off what A left', () => drained(portB), 120_000);
  for (const m of mobiles)
    assert(unblocksOf(w, m).length === 1, `${m} was sent ${unblocksOf(w, m).length} times`);
  const events = await auditPosted(
    w,
    [
      'run',
      '--rm',
      '--network=host',
      ...mounts.flatMap((m) => ['--volume', m]),
      ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
      IMAGE,
    ],
    2,
  );
  console.log(
    `  A killed with ${pending} audit events owed: B posted them (none lost; a batch in flight may show twice); ${events} events, chain verifies`,
  );
  await must('podman', ['kill', '--signal', 'TERM', b], { env: w.env });
  const code = (await must('podman', ['wait', b], { env: w.env })).trim();
  assert(code === '0', `B exited ${code} after SIGTERM`);
  return 'B stopped with SIGTERM: exit 0';
}

// ---------------------------------------------------------------------------------------------

async function cleanUp(w: World, pool: pg.Pool, schema: string): Promise<void> {
  const names = [`${TAG}-alone`, `${TAG}-a`, `${TAG}-b`];
  await run('podman', ['rm', '--force', '--ignore', ...names], { env: w.env });
  await run('podman', ['volume', 'rm', '--force', `${TAG}-data`], { env: w.env });
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
  await pool.end();
  await Promise.allSettled([w.slack.close(), w.sandbox.close()]);
  await rm(w.dir, { recursive: true, force: true });
}

async function main(): Promise<number> {
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'vidops-container-'));
  const [env, sandbox, slack] = await Promise.all([
    podmanEnvironment(dir),
    startSandbox({ conversionDelayMs: 60_000 }),
    startEmulator({ signingSecret: SECRET }),
  ]);
  slack.setUsers([AGENT, LEAD, LEAD2]);
  const w: World = { env, dir, slack, sandbox };
  const server = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/vidops_test';
  const schema = `container_${process.pid}`;
  const pool = new pg.Pool({ connectionString: server, max: 2, options: `-c search_path=${schema}` });
  const databaseUrl = `${server}?schema=${schema}`;
  const steps: [string, () => Promise<string>][] = [
    ['operator builds the image on node:20-bookworm-slim', () => buildImage(w)],
    ['operator runs it alone, read-only on a volume: an unblock, then SIGTERM', () => alone(w)],
    [
      "operator runs compose.yaml's two replicas: approved across, one killed mid-work",
      () => replicas(w, pool, databaseUrl),
    ],
  ];
  let passed = 0;
  let failed = 0;
  try {
    for (const [name, step] of steps) {
      const at = Date.now();
      console.log(`container: ${name}`);
      try {
        const note = await step();
        passed += 1;
        console.log(`  ok (${((Date.now() - at) / 1000).toFixed(0)} s)${note ? `: ${note}` : ''}`);
      } catch (error) {
        failed += 1;
        console.log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
        if (passed === 0) break;
      }
    }
  } finally {
    await cleanUp(w, pool, schema);
  }
  console.log(`container test took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed === steps.length ? 0 : 1;
}

/** `--base-only`: the stand-in base alone (CI makes it, mostly downloads, while the suite runs). */
async function baseOnly(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'vidops-container-'));
  try {
    const started = Date.now();
    const base = await ensureBaseImage(dir, await podmanEnvironment(dir));
    console.log(`base ${BASE_IMAGE}: ${base} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return 0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

process.exitCode = process.argv.includes('--base-only') ? await baseOnly() : await main();
