import { execFileSync, spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHasher, verifyChain } from '../../src/core/audit-chain.js';
import type { Actor, AuditEvent, OperationRequest } from '../../src/core/model.js';
import { buildPolicy } from '../../src/core/policy.js';
import { sealKeyOf } from '../../src/core/seal.js';
import { DEMO, type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createOperations } from '../../src/services/operations.js';
import type { Operations } from '../../src/services/types.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sandboxClient } from '../sandbox-client.js';
import { type CliRun, runVidops } from './run-vidops.js';

/**
 * Limits and identities across surfaces: the `vidops` CLI (an OS user, and the Slack user it
 * claims with `--as`) and the Slack bot (a replica of the services on the same SQLite file) at
 * the same moment. No limit may be passed by even one, whichever surface or claimed name is
 * used, and one OS user may not act as another person.
 * @see docs/security.md, "Identity on the command line" and "Limits hold when requests arrive at the same moment"
 */

const LEAD = 'ULEAD0001';
/** A second lead, so that a lead's own request can be approved (the policy checks it). */
const LEO = 'ULEAD0002';
const AGENT = 'UAGENT001';
const OTHER = 'UAGENT002';
const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REQUEST_ID = /R-[0-9A-HJKMNP-TV-Z]{8}/;
/** A uid with no passwd entry (as in many containers), and root to give it a folder. */
const NOBODY_UID = 4545;
/**
 * Run only as root, and only where that uid can read the project (a clone in a private folder,
 * as `mktemp -d` makes, is closed to it).
 */
const asRoot =
  process.getuid?.() === 0 && uidCanRead(NOBODY_UID, join(ROOT, 'src/cli/main.ts')) ? it : it.skip;

function uidCanRead(uid: number, path: string): boolean {
  try {
    execFileSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(path)})`], {
      uid,
      gid: uid,
      stdio: 'ignore',
      timeout: 10_000,
    });
    return true;
  } catch {
    return false;
  }
}
const RATE_POLICY = 'viewer.unblock: { rateLimit: { max: 2, per: 1h } }\n';

const hash = createHasher();
let sandbox: Sandbox;
let dir: string;
let now: Date;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, extras: false });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  sandbox.reset();
  now = new Date('2026-11-26T08:00:00.000Z');
  dir = await mkdtemp(join(tmpdir(), 'vidops-identity-attacks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function policy(text: string): Promise<void> {
  return writeFile(join(dir, 'policy.yml'), text);
}

function vidops(args: string[], osUser = 'sara'): Promise<CliRun> {
  return runVidops(
    {
      dir,
      sandboxUrl: sandbox.url,
      leads: `${LEAD},${LEO}`,
      policy: true,
      clock: () => now,
      env: { AGENTS: `${AGENT},${OTHER}` },
    },
    args,
    osUser,
  );
}

const unblocks = () =>
  sandbox.requests().filter((r) => r.method === 'POST' && r.path === UNBLOCK_PATH).length;

async function withStore<T>(use: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function database(): Promise<{ requests: OperationRequest[]; events: AuditEvent[] }> {
  return withStore(async (store) => ({
    requests: await store.listRequests({ limit: 500 }),
    events: await store.listAudit(),
  }));
}

/** The Slack bot: a replica of the services on the CLI's database file, under `policyText`. */
async function slackReplica(policyText: string): Promise<{ ops: Operations; close(): Promise<void> }> {
  const store = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash });
  const client = sandboxClient(sandbox.url);
  const ops = createOperations({
    store,
    client,
    policy: buildPolicy({
      leads: [LEAD, LEO],
      agents: [AGENT, OTHER],
      fileText: policyText,
      fileName: 'policy.yml',
    }),
    directory: { groupsOf: async () => [] },
    clock: () => now,
    sealKey: sealKeyOf(DEMO.secretKey),
  });
  return {
    ops,
    async close() {
      client.close();
      await store.close();
    },
  };
}

describe('the per-agent rate limit on the command line (2 unblocks per hour)', () => {
  beforeEach(async () => {
    await policy(RATE_POLICY);
  });

  it('one OS user sends two unblocks as one agent and a third naming another agent with --as: the third waits for a lead', async () => {
    expect(await vidops(['unblock', '09351234500', '--as', AGENT])).toMatchObject({ code: 0 });
    expect(await vidops(['unblock', '09351234501', '--as', AGENT])).toMatchObject({ code: 0 });
    expect(unblocks()).toBe(2);

    // The same person at the same keyboard: --as is only a claim, so it must not buy a new allowance.
    const third = await vidops(['unblock', '09351234502', '--as', OTHER]);

    expect(unblocks()).toBe(2);
    expect(third.stdout).toMatch(/over the rate limit of 2 per hour/);
    const requests = (await database()).requests;
    expect(requests.map((r) => r.state).sort()).toEqual(['pending', 'succeeded', 'succeeded']);
  });

  it('an agent sends unblocks from Slack and from the CLI --as themselves at the same instant: two run, the rest wait', async () => {
    // The CLI makes the database first, as a deployment's would be there already.
    const first = await vidops(['requests', '--as', AGENT]);
    expect(first.stderr).not.toMatch(/Error:/);
    const slack = await slackReplica(RATE_POLICY);
    const ava: Actor = { id: AGENT, name: 'Ava' };
    try {
      const fromSlack = Array.from({ length: 3 }, async (_, i) => {
        const prepared = await slack.ops.prepare(ava, {
          kind: 'viewer.unblock',
          mobileNumber: `0935123451${i}`,
        });
        return (await slack.ops.submit(ava, prepared)).kind;
      });
      const fromCli = Array.from({ length: 3 }, (_, i) =>
        vidops(['unblock', `0935123452${i}`, '--as', AGENT]).then((run) => run.code),
      );
      const [slackKinds, cliCodes] = await Promise.all([Promise.all(fromSlack), Promise.all(fromCli)]);

      expect(cliCodes).toEqual([0, 0, 0]);
      expect(slackKinds.filter((k) => k === 'executed').length).toBeLessThanOrEqual(2);
      expect(unblocks()).toBe(2);
      const { requests, events } = await database();
      expect(requests.filter((r) => r.state === 'succeeded')).toHaveLength(2);
      expect(requests.filter((r) => r.state === 'pending')).toHaveLength(4);
      expect(events.filter((e) => e.type === 'executing')).toHaveLength(2);
    } finally {
      await slack.close();
    }
    expect(await withStore((store) => verifyChain(store.iterateAudit(), hash))).toMatchObject({ ok: true });
  });
});

/**
 * `vidops <args>` as a child process run by uid {@link NOBODY_UID}, which has no passwd entry,
 * with `USER` set to `claimedUser`: what anyone can type in front of a command.
 */
function vidopsAsUid(args: string[], claimedUser: string): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', `file://${ROOT}/node_modules/tsx/dist/loader.mjs`, join(ROOT, 'src/cli/main.ts'), ...args],
      {
        cwd: dir,
        uid: NOBODY_UID,
        gid: NOBODY_UID,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          USER: claimedUser,
          DATABASE_URL: `sqlite:${join(dir, 'vidops.db')}`,
          VIDEO_API_URL: sandbox.url,
          VIDEO_API_KEY: DEMO.apiKey,
          VIDEO_SECRET_KEY: DEMO.secretKey,
          LEADS: `${LEAD},${LEO}`,
          POLICY_FILE: join(dir, 'policy.yml'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

describe('who the OS user is when the machine has no name for them', () => {
  asRoot(
    'an OS user with no passwd entry asks as an agent, then sets USER=lena and approves their own request as a lead',
    async () => {
      await policy('cli: { approve: true }\nwhitelist.set: { approval: true }\n');
      await chown(dir, NOBODY_UID, NOBODY_UID);
      await chmod(dir, 0o700);
      await chown(join(dir, 'policy.yml'), NOBODY_UID, NOBODY_UID);

      const asked = await vidopsAsUid(['whitelist', 'add', '3.3.3.9', '--as', AGENT], 'sara');
      const id = REQUEST_ID.exec(asked.stdout)?.[0] ?? '';
      expect({ id: id !== '', stderr: asked.stderr }).toEqual({ id: true, stderr: '' });

      // The same uid, another word in USER: the kernel knows it is the requester.
      const approved = await vidopsAsUid(['approve', id, '--as', LEAD], 'lena');

      expect(approved.code).toBe(1);
      expect(approved.stderr).toContain(`OS user uid:${NOBODY_UID} asked for this change (as ${AGENT})`);
      expect(sandbox.requests().filter((r) => r.method === 'POST')).toHaveLength(0);
    },
    60_000,
  );
});
