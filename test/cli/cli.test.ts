import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { type CliIo, runCli } from '../../src/cli/run.js';
import { createVideoClient } from '../../src/client/index.js';
import { actorLabel } from '../../src/core/actor.js';
import { createHasher, verifyChain } from '../../src/core/audit-chain.js';
import type { AuditEvent } from '../../src/core/model.js';
import { buildPolicy } from '../../src/core/policy.js';
import { sealKeyOf } from '../../src/core/seal.js';
import { DEMO, type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createOperations, RETRY_METHOD_SETTING } from '../../src/services/index.js';
import { openStore } from '../../src/store/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LEAD = 'ULEAD0001';
const AGENT = 'UAGENT001';
/** OS users on the machine the CLI runs on: the agent's account, and a lead's. */
const AGENT_OS = 'sara';
const LEAD_OS = 'lee';
const REQUEST_ID = /R-[0-9A-HJKMNP-TV-Z]{8}/;

let sandbox: Sandbox;
let dir: string;
let now: Date;
/** POLICY_FILE of `baseEnv`, when a test sets one. */
let policyFile: string | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, conversionDelayMs: 50 });
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(async () => {
  sandbox.reset();
  dir = await mkdtemp(join(tmpdir(), 'vidops-cli-'));
  now = new Date('2024-10-17T06:00:00.000Z');
  policyFile = undefined;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function dbPath(): string {
  return join(dir, 'x.db');
}

function baseEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    DATABASE_URL: `sqlite:${dbPath()}`,
    VIDEO_API_URL: sandbox.url,
    VIDEO_API_KEY: DEMO.apiKey,
    VIDEO_SECRET_KEY: DEMO.secretKey,
    LEADS: LEAD,
    POLICY_FILE: policyFile,
    ...overrides,
  };
}

/** Writes a policy file into the working directory and makes `baseEnv` use it. */
async function usePolicy(text: string): Promise<void> {
  policyFile = 'policy.yml';
  await writeFile(join(dir, policyFile), text);
}

/** The CLI run by the lead's OS account. */
function byLead(args: string[], env = baseEnv()): Promise<CliRun> {
  return vidops(args, env, { osUser: LEAD_OS });
}

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process in the temp directory, at the test's clock. */
async function vidops(args: string[], env = baseEnv(), extra: Partial<CliIo> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env,
    cwd: dir,
    clock: () => now,
    osUser: AGENT_OS,
    ...extra,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

async function auditEvents(): Promise<AuditEvent[]> {
  const store = await openStore(`sqlite:${dbPath()}`, { hash: createHasher() });
  try {
    return await store.listAudit();
  } finally {
    await store.close();
  }
}

function sent(method: string, path: string) {
  return sandbox.requests().filter((r) => r.method === method && r.path === path);
}

function requestIdIn(text: string): string {
  const match = REQUEST_ID.exec(text);
  if (match === null) throw new Error(`no request ID in: ${text}`);
  return match[0];
}

describe('changes that run at once', () => {
  test('agent unblocks a viewer by a Persian-digit number', async () => {
    const result = await vidops(['unblock', '۰۹۱۲', '۳۴۵', '۶۷۸۹']);

    expect(result.code).toBe(0);
    expect(sent('POST', '/v1/analysis/user/video/anomaly').map((r) => r.body)).toEqual([
      { mobileNumber: '09123456789' },
    ]);
    expect(result.stdout).toContain('Unblock viewer: viewer 0912***6789: done');
    expect(result.stdout).not.toContain('09123456789');
    const events = await auditEvents();
    expect(events.map((e) => e.type)).toEqual(['requested', 'executing', 'succeeded']);
    expect(events.map((e) => e.target)).toEqual(Array(3).fill('viewer 09123456789'));
    expect(events[0]?.actor).toEqual({
      id: `cli:${AGENT_OS}`,
      name: `cli:${AGENT_OS}`,
      via: { kind: 'cli', osUser: AGENT_OS },
    });
  });

  test('an invalid number is refused with exit 1 and nothing is sent', async () => {
    const result = await vidops(['unblock', '0912', '345']);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Nobody was unblocked');
    expect(sandbox.requests()).toEqual([]);
    expect(existsSync(dbPath())).toBe(false);
  });

  test('agent retries a failed conversion as a Slack user named with --as', async () => {
    const fileId = DEMO.failedFileIds[0];
    const result = await vidops(['retry', fileId, '--as', AGENT, '--as-name', 'Sara']);

    expect(result.code).toBe(0);
    expect(sent('POST', '/v1/storage/bucket/file/queue/retry').map((r) => r.body)).toEqual([{ fileId }]);
    const events = await auditEvents();
    expect(events[0]?.actor).toEqual({ id: AGENT, name: 'Sara', via: { kind: 'cli', osUser: AGENT_OS } });
    const [heading, answer] = result.stdout.split('\n');
    expect(heading).toMatch(new RegExp(`^Retry conversion: file ${fileId}.*: done \\(request R-`));
    // The upstream answer printed is the one the audit log recorded as the outcome.
    const succeeded = events.find((e) => e.type === 'succeeded');
    expect(JSON.parse(answer ?? '')).toEqual(succeeded?.outcome);
  });
});

test('the retry method learned on a 405 is kept in the store for the bot and later runs', async () => {
  sandbox.setFaults([{ path: '/v1/storage/bucket/file/queue/retry', method: 'POST', status: 405 }]);
  const first = await vidops(['retry', DEMO.failedFileIds[0]]);
  const second = await vidops(['retry', DEMO.failedFileIds[1]]);

  expect([first.code, second.code]).toEqual([0, 0]);
  expect(
    sandbox
      .requests()
      .filter((r) => r.path.endsWith('/queue/retry'))
      .map((r) => r.method),
  ).toEqual(['POST', 'PATCH', 'PATCH']);
  const store = await openStore(`sqlite:${dbPath()}`, { hash: createHasher() });
  try {
    expect(await store.getSetting(RETRY_METHOD_SETTING)).toBe('PATCH');
  } finally {
    await store.close();
  }
});

/**
 * A folder create asked for in Slack by the agent (no OS user: Slack vouched for who typed it),
 * written to the CLI's database through the same services the bot runs.
 */
async function askedInSlack(title: string): Promise<string> {
  const store = await openStore(`sqlite:${dbPath()}`, { hash: createHasher() });
  const client = createVideoClient({
    baseUrl: sandbox.url,
    apiKey: DEMO.apiKey,
    secretKey: DEMO.secretKey,
    timeoutMs: 2000,
    retryConversionMethod: 'auto',
  });
  try {
    const ops = createOperations({
      store,
      client,
      policy: buildPolicy({ leads: [LEAD] }),
      directory: { groupsOf: async () => [] },
      clock: () => now,
      sealKey: sealKeyOf(DEMO.secretKey),
    });
    const agent = { id: AGENT, name: 'Ana' };
    const submitted = await ops.submit(agent, await ops.prepare(agent, { kind: 'folder.create', title }));
    if (submitted.kind !== 'pending') throw new Error(`not pending: ${submitted.kind}`);
    return submitted.request.id;
  } finally {
    client.close();
    await store.close();
  }
}

describe('identity on the command line: --as is a claim the machine vouches for only when the policy says so', () => {
  test('with approvals from the command line off, cancel --as the Slack user who asked in Slack is refused; nothing changes and the attempt is audited', async () => {
    const id = await askedInSlack('Archive');

    const claimed = await byLead(['cancel', id, '--as', AGENT]);
    const sameName = await vidops(['cancel', id, '--as', AGENT]);

    for (const result of [claimed, sameName]) {
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`Request ${id} was asked for in Slack by Ana`);
      expect(result.stderr).toContain('cli: { approve: true }');
    }
    const events = (await auditEvents()).filter((e) => e.requestId === id);
    expect(events.map((e) => e.type)).toEqual(['requested', 'denied', 'denied']);
    expect(events[1]).toMatchObject({
      actor: { id: AGENT, via: { kind: 'cli', osUser: LEAD_OS } },
      outcome: { action: 'cancel' },
    });
    expect((await vidops(['requests', '--as', AGENT])).stdout).toContain('pending');
    expect(sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
  });

  test('with approvals from the command line on, the operator trusts --as: cancel --as the Slack requester works', async () => {
    await usePolicy('cli: { approve: true }\n');
    const id = await askedInSlack('Archive');

    const cancelled = await vidops(['cancel', id, '--as', AGENT]);

    expect(cancelled).toMatchObject({ code: 0, stdout: `Cancelled ${id}.\n` });
  });

  test('with approvals from the command line off, the OS user who asked on the CLI still cancels their own request', async () => {
    const asked = await vidops(['folder', 'create', '--title', 'Old', '--as', AGENT]);
    const id = requestIdIn(asked.stdout);

    expect((await byLead(['cancel', id, '--as', AGENT])).code).toBe(1);
    const cancelled = await vidops(['cancel', id, '--as', AGENT]);

    expect(cancelled).toMatchObject({ code: 0, stdout: `Cancelled ${id}.\n` });
  });
});

describe('refusals and failures', () => {
  test('a CLI user outside AGENTS is refused and the refusal is audited', async () => {
    const result = await vidops(
      ['unblock', '09121234567'],
      baseEnv({ AGENTS: AGENT, LEADS: `${LEAD},ULEAD0002` }),
    );

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Unblock viewer refused: You are not one of the agents');
    expect(sent('POST', '/v1/analysis/user/video/anomaly')).toEqual([]);
    expect((await auditEvents()).map((e) => e.type)).toEqual(['denied']);
  });

  test('a conversion retry the service fails exits 1 and the failure is recorded', async () => {
    sandbox.setFaults([{ path: '/v1/storage/bucket/file/queue/retry', status: 500 }]);
    const result = await vidops(['retry', DEMO.failedFileIds[1]]);

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Retry conversion: file \w+: failed \(HTTP 500\) \(request R-/);
    expect((await auditEvents()).map((e) => e.type)).toEqual(['requested', 'executing', 'failed']);
  });

  test('a refusal from the service with a right-to-left override prints no control that could reorder the line', async () => {
    sandbox.setFaults([
      {
        path: '/v1/storage/bucket/file/queue/retry',
        status: 400,
        body: JSON.stringify({ message: 'file \u202Eexe.gnp\u2066 is locked' }),
      },
    ]);
    const result = await vidops(['retry', DEMO.failedFileIds[1]]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('exe.gnp');
    expect(result.stderr).not.toMatch(/[\u202A-\u202E\u2066\u2067]/);
  });

  test('once the service has shown a file, a file that does not exist is refused before any change is asked for', async () => {
    // A file the service shows (converted already, so refused): file info is now known to work.
    expect((await vidops(['retry', DEMO.files.lecture1])).stderr).toContain('has converted already');
    const result = await vidops(['retry', '6710b00000000000000002ff']);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('File 6710b00000000000000002ff does not exist.');
    expect(await auditEvents()).toEqual([]);
  });

  test('a policy nobody could ever satisfy stops the CLI with exit 2', async () => {
    await writeFile(join(dir, 'policy.yml'), 'folder.delete: { quorum: 2 }\n');
    const result = await vidops(['whitelist'], baseEnv({ POLICY_FILE: 'policy.yml' }));

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('folder.delete needs approval from 2 distinct approvers');
    expect(sandbox.requests()).toEqual([]);
  });
});

describe('messages in the words of people', () => {
  /** An operation name as the code spells it (`whitelist.set`), which people never should read. */
  const OPERATION_NAME =
    /\b(whitelist|protect|folder|file|playlist|viewer)\.(set|get|create|edit|delete|retry|unblock|list|info|lookup)\b/;

  test('a refusal by the policy names the operation by its title', async () => {
    await usePolicy('folder.delete: { allowed: leads }\n');
    const bucketId = DEMO.folders.marketing;
    const result = await vidops(
      ['folder', 'delete', bucketId, '--confirm', bucketId, '--as', AGENT],
      baseEnv({ LEADS: `${LEAD},ULEAD0002` }),
    );

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Delete folder refused: Only leads may run "Delete folder".');
    expect(`${result.stdout}${result.stderr}`).not.toMatch(OPERATION_NAME);
  });

  test('an approval by someone who is not an approver names the operation by its title', async () => {
    await usePolicy('cli: { approve: true }\n');
    const asked = await vidops(['whitelist', 'add', '5.160.12.10', '--as', AGENT]);
    const result = await byLead(['approve', requestIdIn(asked.stdout), '--as', 'UOTHER001']);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Only leads can approve "Update whitelist" requests.');
    expect(`${asked.stdout}${asked.stderr}${result.stdout}${result.stderr}`).not.toMatch(OPERATION_NAME);
  });

  test('a failure of the service names the call by its title', async () => {
    sandbox.setFaults([{ path: '/v1/storage/dns/whitelist', status: 500 }]);
    const result = await vidops(['whitelist']);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(Show whitelist)');
    expect(result.stderr).not.toMatch(OPERATION_NAME);
  });
});

describe('typed confirmation and approval', () => {
  const bucketId = DEMO.folders.marketing;

  beforeEach(async () => {
    await usePolicy('cli: { approve: true }\n');
  });

  test.each([
    ['without --confirm (a usage error)', [] as string[], 2, 'repeat its ID with --confirm'],
    ['with a wrong --confirm', ['--confirm', DEMO.folders.lectures], 1, 'does not match'],
  ])('folder delete %s exits %i and sends nothing', async (_name, flags, code, message) => {
    const result = await vidops(['folder', 'delete', bucketId, ...flags]);

    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    expect(sandbox.requests()).toEqual([]);
    expect((await auditEvents()).length).toBe(0);
  });

  test('lead approves a folder delete requested by an agent; the requester cannot', async () => {
    const asked = await vidops([
      'folder',
      'delete',
      bucketId,
      '--confirm',
      bucketId,
      '--as',
      AGENT,
      '--reason',
      'customer left',
    ]);
    expect(asked.code).toBe(0);
    const id = requestIdIn(asked.stdout);
    expect(asked.stdout).toContain(`request ${id} is waiting for 1 lead approval`);
    expect(asked.stdout).toContain(`vidops approve ${id} --as U…`);
    expect(asked.stdout).toContain(`deletes folder ${bucketId} ("Marketing clips")`);
    expect(sent('DELETE', '/v1/storage/bucket')).toEqual([]);

    const own = await vidops(['approve', id, '--as', AGENT]);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('someone else has to approve it');
    expect(sent('DELETE', '/v1/storage/bucket')).toEqual([]);

    const lead = await byLead(['approve', id.toLowerCase(), '--as', LEAD, '--as-name', 'Lee']);
    expect(lead.code).toBe(0);
    expect(lead.stdout).toContain(`Approved ${id}, Delete folder: folder ${bucketId}: done`);
    expect(sent('DELETE', '/v1/storage/bucket').map((r) => r.body)).toEqual([{ bucketId }]);

    const again = await byLead(['approve', id, '--as', LEAD]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already approved by Lee');
    expect(sent('DELETE', '/v1/storage/bucket')).toHaveLength(1);

    const events = await auditEvents();
    expect(events.map((e) => e.type)).toEqual(['requested', 'denied', 'approved', 'executing', 'succeeded']);
    // Every event from the CLI says so, and which OS user ran it.
    expect(events.map((e) => e.actor)).toEqual([
      { id: AGENT, name: AGENT, via: { kind: 'cli', osUser: AGENT_OS } },
      { id: AGENT, name: AGENT, via: { kind: 'cli', osUser: AGENT_OS } },
      { id: LEAD, name: 'Lee', via: { kind: 'cli', osUser: LEAD_OS } },
      { id: LEAD, name: 'Lee', via: { kind: 'cli', osUser: LEAD_OS } },
      { id: 'system', name: 'vidops' },
    ]);
    expect(actorLabel(events[2]?.actor ?? { id: '', name: '' })).toBe(`Lee via cli:${LEAD_OS}`);
  });

  test('the OS user who asked as an agent cannot approve as a lead', async () => {
    const asked = await vidops(['folder', 'delete', bucketId, '--confirm', bucketId, '--as', AGENT]);
    const id = requestIdIn(asked.stdout);

    const same = await vidops(['approve', id, '--as', LEAD]);

    expect(same.code).toBe(1);
    expect(same.stderr).toContain(
      `OS user ${AGENT_OS} asked for this change (as ${AGENT}), so someone else has to approve it.`,
    );
    expect(sent('DELETE', '/v1/storage/bucket')).toEqual([]);
    const denied = (await auditEvents()).find((e) => e.type === 'denied');
    expect(denied?.actor).toEqual({ id: LEAD, name: LEAD, via: { kind: 'cli', osUser: AGENT_OS } });
  });

  test('one OS user gives one approval, whichever leads it names', async () => {
    await usePolicy('cli: { approve: true }\nfolder.delete: { quorum: 2 }\n');
    const env = baseEnv({ LEADS: `${LEAD},ULEAD0002` });
    const asked = await vidops(['folder', 'delete', bucketId, '--confirm', bucketId, '--as', AGENT], env);
    const id = requestIdIn(asked.stdout);

    expect((await byLead(['approve', id, '--as', LEAD], env)).code).toBe(0);
    const second = await byLead(['approve', id, '--as', 'ULEAD0002'], env);

    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`OS user ${LEAD_OS} already approved this request (as ${LEAD})`);
    expect(sent('DELETE', '/v1/storage/bucket')).toEqual([]);
  });

  test('by default the CLI asks but does not approve: approvals happen in Slack', async () => {
    policyFile = undefined;
    const asked = await vidops(['folder', 'delete', bucketId, '--confirm', bucketId, '--as', AGENT]);
    const id = requestIdIn(asked.stdout);
    expect(asked.stdout).toContain('a lead approves it in Slack.');
    expect(asked.stdout).not.toContain('vidops approve');

    const lead = await byLead(['approve', id, '--as', LEAD]);

    expect(lead.code).toBe(1);
    expect(lead.stderr).toContain('Approvals from the command line are turned off');
    expect(lead.stderr).toContain('cli: { approve: true }');
    expect(sent('DELETE', '/v1/storage/bucket')).toEqual([]);
    expect((await auditEvents()).map((e) => e.type)).toEqual(['requested', 'denied']);
  });

  test('whitelist add shows the list before and after, and runs once approved', async () => {
    const asked = await vidops(['whitelist', 'add', '5.160.12.10', '2a00:1::10', '--as', AGENT]);

    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('before: (empty)');
    expect(asked.stdout).toContain('after:  5.160.12.10, 2a00:1::10');
    expect(sent('POST', '/v1/storage/dns/whitelist')).toEqual([]);

    const approved = await byLead(['approve', requestIdIn(asked.stdout), '--as', LEAD]);
    expect(approved.code).toBe(0);
    expect(sandbox.state().whitelist).toEqual(['5.160.12.10', '2a00:1::10']);

    const shown = await vidops(['whitelist', '--json']);
    expect(JSON.parse(shown.stdout)).toEqual(['5.160.12.10', '2a00:1::10']);
  });

  test('protect set opacity=0.4 sends only the opacity once approved', async () => {
    const asked = await vidops(['protect', 'set', 'opacity=0.4', '--as', AGENT]);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/opacity: [\d.]+ → 0\.4/);

    const approved = await byLead(['approve', requestIdIn(asked.stdout), '--as', LEAD]);

    expect(approved.code).toBe(0);
    expect(sent('POST', '/v1/storage/protect/config').map((r) => r.body)).toEqual([{ opacity: 0.4 }]);
    expect(sandbox.state().config.opacity).toBe(0.4);
  });

  test('lead rejects with a reason; the agent cancels their own request', async () => {
    const first = await vidops(['folder', 'create', '--title', 'Archive', '--as', AGENT]);
    const second = await vidops(['folder', 'create', '--title', 'Old', '--as', AGENT]);
    const [a, b] = [requestIdIn(first.stdout), requestIdIn(second.stdout)];

    const rejected = await byLead(['reject', a, '--as', LEAD, '--reason', 'not needed']);
    expect(rejected).toMatchObject({ code: 0, stdout: `Rejected ${a}: not needed\n` });

    const notTheirs = await vidops(['cancel', b]);
    expect(notTheirs.code).toBe(1);
    expect(notTheirs.stderr).toContain(`Only ${AGENT} via cli:${AGENT_OS}, who asked for it, can cancel`);
    // Another OS user claiming the agent's Slack ID is not the agent either.
    const claimed = await byLead(['cancel', b, '--as', AGENT]);
    expect(claimed.code).toBe(1);
    expect(claimed.stderr).toContain('who asked for it, can cancel');

    const cancelled = await vidops(['cancel', b, '--as', AGENT]);
    expect(cancelled).toMatchObject({ code: 0, stdout: `Cancelled ${b}.\n` });
    expect(sent('POST', '/v1/storage/bucket')).toEqual([]);
  });

  test('requests lists my requests and, for a lead, those awaiting them', async () => {
    const asked = await vidops([
      'playlist',
      'edit',
      DEMO.playlists.gettingStarted,
      '--title',
      'Start',
      '--as',
      AGENT,
    ]);
    const id = requestIdIn(asked.stdout);

    const mine = await vidops(['requests', '--as', AGENT], { DATABASE_URL: `sqlite:${dbPath()}` });
    expect(mine.code).toBe(0);
    expect(mine.stdout).toContain(`Requests of ${AGENT}`);
    expect(mine.stdout).toContain(`${id}  Edit playlist: playlist ${DEMO.playlists.gettingStarted}`);
    expect(mine.stdout).not.toContain('Awaiting approval');

    const lead = await byLead(['requests', '--as', LEAD], {
      DATABASE_URL: `sqlite:${dbPath()}`,
      LEADS: LEAD,
      POLICY_FILE: policyFile,
    });
    expect(lead.stdout).toContain(`${LEAD} has no requests.`);
    expect(lead.stdout).toContain(`Awaiting approval by ${LEAD}:\n  ${id}`);

    const all = await vidops(['requests', '--all'], { DATABASE_URL: `sqlite:${dbPath()}` });
    expect(all.stdout).toContain(id);
  });

  test('file edit with a cover uploads the exact image after approval', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(32, 7),
    ]);
    await writeFile(join(dir, 'cover.png'), png);
    const fileId = DEMO.files.lecture1;
    const asked = await vidops([
      'file',
      'edit',
      fileId,
      '--title',
      'Lecture 1',
      '--cover',
      'cover.png',
      '--as',
      AGENT,
    ]);
    expect(asked.code).toBe(0);

    const approved = await byLead(['approve', requestIdIn(asked.stdout), '--as', LEAD]);

    expect(approved.code).toBe(0);
    const edits = sent('POST', `/v1/storage/bucket/file/${fileId}`);
    expect(edits.map((r) => r.body)).toEqual([
      {
        fields: { fileId, title: 'Lecture 1' },
        files: [{ field: 'file', filename: 'cover.png', size: png.length, contentType: 'image/png' }],
      },
    ]);
  });

  test('a cover changed after the request is refused before approving', async () => {
    const path = join(dir, 'cover.png');
    await writeFile(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]));
    const asked = await vidops([
      'file',
      'edit',
      DEMO.files.lecture2,
      '--title',
      'L2',
      '--cover',
      path,
      '--as',
      AGENT,
    ]);
    await writeFile(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 2]));

    const approved = await byLead(['approve', requestIdIn(asked.stdout), '--as', LEAD]);

    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('changed after the request was made');
    expect(sent('POST', `/v1/storage/bucket/file/${DEMO.files.lecture2}`)).toEqual([]);
  });
});

describe('audit', () => {
  async function someHistory(): Promise<void> {
    now = new Date('2024-10-17T06:00:00.000Z');
    await vidops(['unblock', '09121234567']);
    now = new Date('2024-10-18T09:30:00.000Z');
    await vidops(['unblock', '09351234567', '--as', AGENT]);
  }

  test('verify reports an intact chain, then names the row edited behind its back', async () => {
    await someHistory();
    const ok = await vidops(['audit', 'verify'], { DATABASE_URL: `sqlite:${dbPath()}` });
    const events = await auditEvents();
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(
      `chain intact: 6 events, head #6 ${events[5]?.hash.slice(0, 12)}…; every stored column matches its event\n` +
        'checkpoints: none stored (AUDIT_SIGNING_KEY_FILE is not set here); only the chain vouches for the log, and it cannot show events cut from its end\n',
    );

    const db = new Database(dbPath());
    db.prepare(
      `UPDATE audit_events SET event = json_set(event, '$.target', 'viewer 09990000000') WHERE seq = 5`,
    ).run();
    db.close();

    const broken = await vidops(['audit', 'verify'], { DATABASE_URL: `sqlite:${dbPath()}` });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('chain broken at event #5: event #5 was altered');
    expect(broken.stderr).toContain('4 events before it verified');
  });

  test('verify names a column edited beside the hashed event, which queries would believe', async () => {
    await someHistory();
    const db = new Database(dbPath());
    db.prepare(`UPDATE audit_events SET actor_id = 'U0EVIL' WHERE seq = 4`).run();
    db.close();

    const result = await vidops(['audit', 'verify'], { DATABASE_URL: `sqlite:${dbPath()}` });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `audit log edited beside the chain: event #4: column actor_id says U0EVIL but the hashed event says ${AGENT}.`,
    );
    expect(result.stderr).toContain('3 events before it verified');
  });

  test('verify with the wrong AUDIT_HMAC_KEY fails at the first event and says why', async () => {
    await someHistory();
    const result = await vidops(['audit', 'verify'], {
      DATABASE_URL: `sqlite:${dbPath()}`,
      AUDIT_HMAC_KEY: 'k',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('event #1 was altered');
    expect(result.stderr).toContain('check AUDIT_HMAC_KEY');
  });

  test('export jsonl round-trips the chain with full numbers; --since keeps later events', async () => {
    await someHistory();
    const all = await vidops(['audit', 'export', '--format', 'jsonl'], {
      DATABASE_URL: `sqlite:${dbPath()}`,
    });
    expect(all.code).toBe(0);
    const exported = all.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEvent);
    expect(exported).toEqual(await auditEvents());
    expect(await verifyChain(exported, createHasher())).toMatchObject({ ok: true, count: 6 });
    expect(all.stdout).toContain('viewer 09121234567');

    const later = await vidops(['audit', 'export', '--format', 'jsonl', '--since', '2024-10-18'], {
      DATABASE_URL: `sqlite:${dbPath()}`,
    });
    const seqs = later.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as AuditEvent).seq);
    expect(seqs).toEqual([4, 5, 6]);
  });

  test('a time without a zone in --until means UTC, whatever zone the machine is in', async () => {
    await someHistory();
    // The suite runs in Asia/Tehran (test/global-setup.cjs): read as local time, 09:30 would be
    // 06:00 UTC and leave out the events of 09:30 UTC.
    const env = { DATABASE_URL: `sqlite:${dbPath()}` };
    const utc = await vidops(
      ['audit', 'export', '--format', 'jsonl', '--until', '2024-10-18T09:30:00Z'],
      env,
    );
    const bare = await vidops(
      ['audit', 'export', '--format', 'jsonl', '--until', '2024-10-18T09:30:00'],
      env,
    );
    expect(utc.code).toBe(0);
    expect(utc.stdout).toContain('2024-10-18T09:30:00.000Z');
    expect(bare).toEqual(utc);
  });

  test('export csv to a file has a header row and quotes fields so they parse back', async () => {
    await someHistory();
    await vidops(['folder', 'create', '--title', 'Say "hi", then\nleave', '--as', AGENT]);
    const result = await vidops(
      ['audit', 'export', '--format', 'csv', '--until', '2024-10-18T09:30:00Z', '--out', 'audit.csv'],
      { DATABASE_URL: `sqlite:${dbPath()}` },
    );
    expect(result).toMatchObject({
      code: 0,
      stdout: 'exported 7 events to audit.csv (csv; full mobile numbers).\n',
    });

    const rows = parseCsv(await readFile(join(dir, 'audit.csv'), 'utf8'));
    const [header, ...body] = rows;
    expect(header?.slice(0, 4)).toEqual(['seq', 'id', 'at', 'type']);
    const events = await auditEvents();
    const back = body.map((cells) => Object.fromEntries((header ?? []).map((h, i) => [h, cells[i] ?? ''])));
    expect(back.map((r) => Number(r.seq))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const [i, row] of back.entries()) {
      const event = events[i];
      expect(row).toMatchObject({
        id: event?.id,
        at: event?.at,
        type: event?.type,
        actor_id: event?.actor.id,
        target: event?.target,
        hash: event?.hash,
        prev_hash: event?.prevHash,
      });
      expect(JSON.parse(row.params ?? '')).toEqual(event?.params);
    }
    expect(back[6]?.target).toBe('new folder "Say "hi", then\nleave"');
  });

  test('tail shows the last events with numbers masked', async () => {
    await someHistory();
    const result = await vidops(['audit', 'tail', '-n', '2'], { DATABASE_URL: `sqlite:${dbPath()}` });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^#5 {2}2024-10-18T09:30:00.000Z {2}executing {2}R-[0-9A-Z]{8} started: unblock viewer 0935\*\*\*4567 {2}hash [0-9a-f]{12}$/,
    );
    expect(result.stdout).not.toContain('09351234567');
  });

  test('audit commands refuse a database that does not exist instead of creating it', async () => {
    const result = await vidops(['audit', 'verify'], { DATABASE_URL: 'sqlite:nowhere/x.db' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`There is no vidops database at ${join(dir, 'nowhere/x.db')}`);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });
});

describe('usage, configuration and help', () => {
  test.each([
    ['no command', []],
    ['an unknown command', ['unblok', '09121234567']],
    ['unblock without a number', ['unblock']],
    ['unblock with an empty number', ['unblock', '']],
    ['unblock with a blank number', ['unblock', '  ']],
    ['retry with two IDs', ['retry', 'a', 'b']],
    ['an unknown flag', ['whitelist', '--bogus']],
    ['a flag the command does not take', ['whitelist', 'add', '5.160.12.1', '--confirm', 'x']],
    ['folder with no action', ['folder']],
    ['audit with an unknown action', ['audit', 'purge']],
    ['export without --format', ['audit', 'export']],
    ['export as xml', ['audit', 'export', '--format', 'xml']],
    ['export since a non-date', ['audit', 'export', '--format', 'csv', '--since', 'yesterday']],
    ['tail of zero events', ['audit', 'tail', '-n', '0']],
    ['approve without --as', ['approve', 'R-7K2M9QXA']],
    ['reject without a reason', ['reject', 'R-7K2M9QXA', '--as', LEAD]],
    ['--as that is not a Slack user', ['requests', '--as', 'bob']],
    ['--as-name without --as', ['requests', '--as-name', 'Bob']],
    ['playlist edit with nothing to change', ['playlist', 'edit', DEMO.playlists.gettingStarted]],
  ])('%s exits 2 with the usage on stderr', async (_name, args) => {
    const result = await vidops(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^vidops: .+\n(Usage: vidops|Run `vidops help`)/);
    expect(sandbox.requests()).toEqual([]);
  });

  test('missing configuration exits 2 listing the variables', async () => {
    const result = await vidops(['whitelist'], { DATABASE_URL: `sqlite:${dbPath()}` });
    expect(result.code).toBe(2);
    for (const name of ['VIDEO_API_URL', 'VIDEO_API_KEY', 'VIDEO_SECRET_KEY', 'LEADS']) {
      expect(result.stderr).toContain(`${name} is required`);
    }
  });

  test('.env in the working directory fills what the environment leaves out', async () => {
    await writeFile(
      join(dir, '.env'),
      `VIDEO_API_URL=${sandbox.url}\nVIDEO_API_KEY=${DEMO.apiKey}\nVIDEO_SECRET_KEY=wrong\nLEADS=${LEAD}\n`,
    );
    const result = await vidops(['whitelist'], {
      DATABASE_URL: 'sqlite:x.db',
      VIDEO_SECRET_KEY: DEMO.secretKey,
    });
    expect(result).toMatchObject({ code: 0, stdout: 'The whitelist is empty.\n' });
    expect(existsSync(dbPath())).toBe(true);
  });

  // Another OS user's `.env`: its settings would choose where the API keys go and which database
  // is trusted. Changing a file's owner needs root, as CI runs; elsewhere the two tests are skipped.
  const asRoot = process.getuid?.() === 0 ? test : test.skip;

  asRoot(
    'a .env another user left in a folder anyone may write is refused, and nothing is sent',
    async () => {
      await writeFile(join(dir, '.env'), 'VIDEO_API_URL=http://127.0.0.1:9/theirs\n');
      await chown(join(dir, '.env'), 4242, 4242);
      const before = sandbox.requests().length;
      const result = await vidops(['whitelist'], {
        DATABASE_URL: 'sqlite:x.db',
        VIDEO_API_KEY: DEMO.apiKey,
        VIDEO_SECRET_KEY: DEMO.secretKey,
        LEADS: LEAD,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('belongs to another user (uid 4242)');
      expect(sandbox.requests()).toHaveLength(before);
    },
  );

  asRoot(
    'a .env of the folder’s owner is read: the deployment’s own folder, shared by its leads',
    async () => {
      // The deploy user's folder, made in a folder only root may write (not in /tmp, where anyone
      // could have made it): its owner is trusted for the files in it.
      const deployment = join(dir, 'deployment');
      await mkdir(deployment);
      await writeFile(
        join(deployment, '.env'),
        `VIDEO_API_URL=${sandbox.url}\nVIDEO_API_KEY=${DEMO.apiKey}\nVIDEO_SECRET_KEY=${DEMO.secretKey}\nLEADS=${LEAD}\n`,
      );
      await chown(deployment, 4242, 4242);
      await chown(join(deployment, '.env'), 4242, 4242);
      const result = await vidops(['whitelist'], { DATABASE_URL: 'sqlite:x.db' }, { cwd: deployment });
      expect(result).toMatchObject({ code: 0, stdout: 'The whitelist is empty.\n' });
    },
  );

  test('explain needs no configuration', async () => {
    const result = await vidops(['explain', '۹۹۱۰'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Player error 9910: The viewer was blocked');
    expect(result.stdout).toContain('vidops unblock <mobile>');
    expect((await vidops(['explain', 'oops'], {})).code).toBe(1);
  });

  test('--help on a command explains it, and help lists the commands', async () => {
    const folder = await vidops(['folder', 'delete', '--help'], {});
    expect(folder).toMatchObject({ code: 0, stderr: '' });
    expect(folder.stdout).toContain('Usage: vidops folder delete <bucketId> --confirm <bucketId>');
    const help = await vidops(['help'], {});
    expect(help.stdout).toContain('vidops audit export --format jsonl|csv');
    expect(help.stdout).toContain('meant for compliance');
  });

  test('the installed entry point runs', async () => {
    const built = existsSync(join(ROOT, 'dist/cli/main.js'));
    const [command, args] = built
      ? [process.execPath, [join(ROOT, 'bin/vidops.js'), '--help']]
      : [join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'src/cli/main.ts'), '--help']];
    const { stdout } = await promisify(execFile)(command, args, { cwd: dir, timeout: 20_000 });
    expect(stdout).toContain('Usage: vidops <command>');
  });
});

/** RFC 4180 reader, written apart from the exporter so that the test can catch its mistakes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
