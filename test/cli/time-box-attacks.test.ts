import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHasher } from '../../src/core/audit-chain.js';
import type { OperationRequest } from '../../src/core/model.js';
import { DEMO, type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { openStore } from '../../src/store/index.js';
import { type CliRun, runVidops } from './run-vidops.js';

/**
 * Attacks on `vidops put-back`, `vidops extend`, `vidops revert` and `--for` (docs/time-boxed.md,
 * docs/security.md "Identity on the command line"): someone else's `--as`, the requester's own OS
 * user claiming a lead, CLI approvals off, bad IDs, requests that are not time-boxed or not
 * reversible, windows out of bounds. Each refusal must exit non-zero, send nothing to the service
 * and ask for nothing.
 */

const LEAD = 'ULEAD0001';
const AGENT = 'UAGENT001';
const OTHER = 'UAGENT002';
const REQUEST_ID = /R-[0-9A-HJKMNP-TV-Z]{8}/;
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

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
  dir = await mkdtemp(join(tmpdir(), 'vidops-time-box-attacks-'));
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
      leads: LEAD,
      policy: true,
      clock: () => now,
      env: { DISPLAY_TIME_ZONE: 'Asia/Tehran' },
    },
    args,
    osUser,
  );
}

/** The requests and audit events in the CLI's database now. */
async function database(): Promise<{ requests: OperationRequest[]; events: string[] }> {
  const store = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash: createHasher() });
  try {
    return {
      requests: await store.listRequests({ limit: 500 }),
      events: (await store.listAudit()).map((e) => e.type),
    };
  } finally {
    await store.close();
  }
}

/** What must not move when a command is refused. */
async function snapshot() {
  const db = await database();
  return {
    requests: db.requests.map((r) => `${r.id}:${r.state}:${r.version}`).sort(),
    // A refusal may be audited (`denied`); no other event may appear.
    events: db.events.filter((type) => type !== 'denied'),
    writes: sandbox.requests().filter((r) => r.method !== 'GET').length,
    whitelist: [...sandbox.state().whitelist],
    preventZoom: sandbox.state().config.preventZoom,
  };
}

/** A refused command: exit 1 or 2, said on stderr, and nothing asked, written or sent. */
async function expectRefused(run: CliRun, before: Awaited<ReturnType<typeof snapshot>>, why?: RegExp) {
  expect(run.code).not.toBe(0);
  expect(run.stderr).not.toBe('');
  if (why) expect(run.stderr).toMatch(why);
  expect(await snapshot()).toEqual(before);
}

/** An agent asks on the CLI as OS user sara, a lead approves on the CLI as lena. */
async function askedAndApproved(args: string[], as = AGENT, osUser = 'sara'): Promise<string> {
  const asked = await vidops([...args, '--as', as], osUser);
  expect(asked.code).toBe(0);
  const id = REQUEST_ID.exec(asked.stdout)?.[0] ?? '';
  // Approved by a lead when it waits for one (an unblock runs at once).
  if ((await database()).requests.find((r) => r.id === id)?.state === 'pending') {
    const approved = await vidops(['approve', id, '--as', LEAD], 'lena');
    expect(approved).toMatchObject({ code: 0 });
  }
  expect((await database()).requests.find((r) => r.id === id)?.state).toBe('succeeded');
  return id;
}

describe('with CLI approvals trusted (cli: { approve: true })', () => {
  beforeEach(async () => {
    await policy('cli: { approve: true }\n');
  });

  test('another agent runs put-back, extend and revert --as themselves on the agent’s change', async () => {
    const id = await askedAndApproved(['whitelist', 'add', '5.6.7.8', '--for', '2h']);
    const before = await snapshot();
    for (const args of [
      ['put-back', id],
      ['extend', id, '--for', '4h'],
      ['revert', id],
    ]) {
      await expectRefused(
        await vidops([...args, '--as', OTHER], 'omid'),
        before,
        /Only the person who asked for/,
      );
    }
    expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
  });

  test('another OS user claims to be the requester with --as: refused for put-back, extend and revert', async () => {
    const id = await askedAndApproved(['protect', 'set', 'preventZoom=true', '--for', '2h']);
    const before = await snapshot();
    for (const args of [
      ['put-back', id],
      ['extend', id, '--for', '4h'],
      ['revert', id],
    ]) {
      await expectRefused(await vidops([...args, '--as', AGENT], 'omid'), before);
    }
    // And without --as at all: `cli:omid` is nobody's requester and no lead.
    await expectRefused(await vidops(['put-back', id], 'omid'), before);
    expect(sandbox.state().config.preventZoom).toBe(true);
  });

  test('bad IDs: garbage, an ID that names no request, an empty one', async () => {
    await askedAndApproved(['whitelist', 'add', '5.6.7.8', '--for', '2h']);
    const before = await snapshot();
    for (const command of ['put-back', 'revert']) {
      for (const raw of ['not-an-id', 'R-ZZZZZZZZ', '', 'R-00000000; rm -rf /']) {
        await expectRefused(await vidops([command, raw, '--as', LEAD], 'lena'), before);
      }
    }
    await expectRefused(await vidops(['extend', 'R-ZZZZZZZZ', '--for', '1h', '--as', AGENT]), before);
  });

  test('put-back and extend of a change that is not time-boxed, of a put-back request, and of one still pending', async () => {
    const plain = await askedAndApproved(['protect', 'set', 'opacity=0.3']);
    const boxed = await askedAndApproved(['whitelist', 'add', '5.6.7.8', '--for', '2h']);
    const back = await vidops(['put-back', boxed, '--as', AGENT]);
    expect(back.code).toBe(0);
    const putBack = (await database()).requests.find((r) => r.revertOf?.id === boxed)?.id ?? '';
    expect(putBack).toMatch(REQUEST_ID);
    const pendingRun = await vidops(['protect', 'set', 'preventZoom=true', '--for', '1h', '--as', AGENT]);
    const pending = REQUEST_ID.exec(pendingRun.stdout)?.[0] ?? '';
    const before = await snapshot();
    for (const id of [plain, putBack, pending, boxed]) {
      await expectRefused(
        await vidops(['put-back', id, '--as', LEAD], 'lena'),
        before,
        /not a time-boxed change in force/,
      );
      await expectRefused(
        await vidops(['extend', id, '--for', '1h', '--as', LEAD], 'lena'),
        before,
        /not a time-boxed change in force/,
      );
    }
    await expectRefused(
      await vidops(['revert', putBack, '--as', LEAD], 'lena'),
      before,
      /cannot be reverted/,
    );
    await expectRefused(await vidops(['revert', pending, '--as', AGENT]), before, /has not been applied/);
  });

  test('revert of a delete, a create and an unblock is refused, even by a lead', async () => {
    const created = await askedAndApproved(['folder', 'create', '--title', 'Demo']);
    const deleted = await askedAndApproved([
      'folder',
      'delete',
      DEMO.folders.lectures,
      '--confirm',
      DEMO.folders.lectures,
    ]);
    const unblocked = await askedAndApproved(['unblock', '09121234567']);
    expect(sandbox.requests().filter((r) => r.method !== 'GET').length).toBeGreaterThanOrEqual(3);
    const before = await snapshot();
    for (const id of [created, deleted, unblocked]) {
      for (const [as, osUser] of [
        [AGENT, 'sara'],
        [LEAD, 'lena'],
      ] as const) {
        await expectRefused(await vidops(['revert', id, '--as', as], osUser), before, /cannot be reverted/);
      }
    }
  });

  test('extend past maxDuration, for zero, negative, unreadable or an end passed: refused, nothing asked', async () => {
    await policy('cli: { approve: true }\nprotect.set: { maxDuration: 4h }\n');
    const id = await askedAndApproved(['protect', 'set', 'preventZoom=true', '--for', '4h']);
    const before = await snapshot();
    for (const window of [
      '5h',
      '1d',
      '0m',
      '-1h',
      '1e9h',
      '2h30',
      '1405/09/01T10:00',
      '1405/12/30',
      'soon',
    ]) {
      await expectRefused(await vidops(['extend', id, '--for', window, '--as', AGENT]), before);
    }
    await expectRefused(await vidops(['extend', id, '--as', AGENT]), before, /--for/);
  });

  test('--for windows that are hostile are refused before anything is asked; the refusal carries no bidi control', async () => {
    const before = await snapshot();
    for (const window of [
      '0m',
      '-1h',
      '30s',
      '8d',
      '99999999999d',
      '1e9h',
      '2h30',
      '1405/12/30',
      '2h\u200b',
    ]) {
      await expectRefused(
        await vidops(['whitelist', 'add', '5.6.7.8', '--for', window, '--as', AGENT]),
        before,
      );
    }
    const bidi = await vidops(['whitelist', 'add', '5.6.7.8', '--for', '9\u202ed', '--as', AGENT]);
    await expectRefused(bidi, before, /too long/);
    expect(bidi.stderr).not.toMatch(BIDI);
  });

  test('--for on a change that cannot be time-boxed (a folder edit, an unblock) is refused', async () => {
    const before = await snapshot();
    await expectRefused(
      await vidops(['folder', 'edit', DEMO.folders.lectures, '--title', 'X', '--for', '2h', '--as', AGENT]),
      before,
    );
    await expectRefused(await vidops(['unblock', '09121234567', '--for', '2h', '--as', AGENT]), before);
  });

  test('the requester puts back the same change twice: the second is refused and nothing more is sent', async () => {
    const id = await askedAndApproved(['whitelist', 'add', '5.6.7.8', '--for', '2h']);
    const first = await vidops(['put-back', id, '--as', AGENT]);
    expect(first.code).toBe(0);
    const before = await snapshot();
    await expectRefused(
      await vidops(['put-back', id, '--as', AGENT]),
      before,
      /not a time-boxed change in force/,
    );
    expect(sandbox.requests().filter((r) => r.method === 'POST')).toHaveLength(2);
  });
  // Was a defect: an extension approved after its change was put back set the change again.
  test('a lead approves an extend after the change was put back: preventZoom must stay off', async () => {
    const id = await askedAndApproved(['protect', 'set', 'preventZoom=true', '--for', '2h']);
    const asked = await vidops(['extend', id, '--for', '4h', '--as', AGENT]);
    expect(asked.code).toBe(0);
    const extension = REQUEST_ID.exec(asked.stdout.replaceAll(id, ''))?.[0] ?? '';
    const back = await vidops(['put-back', id, '--as', LEAD], 'lena');
    expect(back.code).toBe(0);
    expect(sandbox.state().config.preventZoom).toBe(false);
    await vidops(['approve', extension, '--as', LEAD], 'lena');
    expect(sandbox.state().config.preventZoom).toBe(false);
    expect(sandbox.requests().filter((r) => r.method === 'POST')).toHaveLength(2);
  });
});

describe('with CLI approvals off (no cli: { approve: true })', () => {
  beforeEach(async () => {
    await policy('protect.set: { approval: false }\nwhitelist.set: { approval: false }\n');
  });

  test('a lead from the command line cannot put back, extend or revert an agent’s change: --as is only a claim', async () => {
    const asked = await vidops(['whitelist', 'add', '5.6.7.8', '--for', '2h', '--as', AGENT]);
    expect(asked.code).toBe(0);
    const id = REQUEST_ID.exec(asked.stdout)?.[0] ?? '';
    expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
    const before = await snapshot();
    for (const args of [
      ['put-back', id],
      ['extend', id, '--for', '4h'],
      ['revert', id],
    ]) {
      await expectRefused(await vidops([...args, '--as', LEAD], 'lena'), before, /may undo it/);
      // Nor from the requester's own OS user claiming the lead.
      await expectRefused(await vidops([...args, '--as', LEAD], 'sara'), before, /may undo it/);
    }
    // The requester's own OS user, as themselves, may.
    const back = await vidops(['put-back', id, '--as', AGENT]);
    expect(back.code).toBe(0);
    expect(sandbox.state().whitelist).toEqual([]);
  });

  test('another OS user claiming to be the requester cannot put back a CLI change', async () => {
    const asked = await vidops(['protect', 'set', 'preventZoom=true', '--for', '2h', '--as', AGENT]);
    const id = REQUEST_ID.exec(asked.stdout)?.[0] ?? '';
    expect(sandbox.state().config.preventZoom).toBe(true);
    const before = await snapshot();
    await expectRefused(await vidops(['put-back', id, '--as', AGENT], 'omid'), before);
    await expectRefused(await vidops(['extend', id, '--for', '1h', '--as', AGENT], 'omid'), before);
    await expectRefused(await vidops(['revert', id, '--as', AGENT], 'omid'), before);
  });
});
