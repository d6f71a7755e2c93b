import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHasher } from '../../src/core/audit-chain.js';
import type { AuditEvent } from '../../src/core/model.js';
import { DEMO, type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { openStore } from '../../src/store/index.js';
import { type CliRun, runVidops } from './run-vidops.js';

/**
 * `vidops resolve`: a lead settles from the command line a delete whose answer was lost, with the
 * same services, policy and audit log as the Slack buttons.
 * @see docs/architecture.md, "Approvals"
 */

const LEAD = 'ULEAD0001';
const AGENT = 'UAGENT001';
/** The OS users at the two keyboards: the CLI compares them as well as the Slack IDs. */
const AGENT_OS = 'sara';
const LEAD_OS = 'lena';
const REQUEST_ID = /R-[0-9A-HJKMNP-TV-Z]{8}/;

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(async () => {
  sandbox.reset();
  dir = await mkdtemp(join(tmpdir(), 'vidops-resolve-'));
  // Approvals from the command line are off by default; here the lead approves on the CLI.
  await writeFile(join(dir, 'policy.yml'), 'cli: { approve: true }\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function vidops(args: string[], osUser = AGENT_OS): Promise<CliRun> {
  return runVidops({ dir, sandboxUrl: sandbox.url, leads: LEAD, policy: true }, args, osUser);
}

async function auditEvents(): Promise<AuditEvent[]> {
  const store = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash: createHasher() });
  try {
    return await store.listAudit();
  } finally {
    await store.close();
  }
}

function deletes(path: string) {
  return sandbox.requests().filter((r) => r.method === 'DELETE' && r.path === path);
}

/** An agent asks for the delete, the lead approves it; the service deletes and the answer is lost. */
async function lostDelete(what: 'folder' | 'file' | 'playlist', id: string, path: string): Promise<string> {
  const asked = await vidops([what, 'delete', id, '--confirm', id, '--as', AGENT, '--reason', 'owner asked']);
  expect(asked.code).toBe(0);
  const requestId = REQUEST_ID.exec(asked.stdout)?.[0] ?? '';
  sandbox.setFaults([{ path, method: 'DELETE', resetAfter: true, times: 1 }]);
  const approved = await vidops(['approve', requestId, '--as', LEAD], LEAD_OS);
  expect(approved.code).toBe(1);
  expect(approved.stderr).toContain(`request ${requestId} is unknown: it may or may not have been applied`);
  expect(approved.stderr).toContain(`vidops resolve ${requestId} --check`);
  expect(deletes(path)).toHaveLength(1);
  return requestId;
}

describe('vidops resolve', () => {
  test('the requester cannot settle their delete; the lead checks: already deleted', async () => {
    const bucketId = DEMO.folders.lectures;
    const id = await lostDelete('folder', bucketId, '/v1/storage/bucket');

    const own = await vidops(['resolve', id, '--check', '--as', AGENT]);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('You asked for this change, so someone else has to settle its outcome.');

    const checked = await vidops(['resolve', id, '--check', '--as', LEAD, '--as-name', 'Lee'], LEAD_OS);
    expect(checked).toMatchObject({ code: 0, stderr: '' });
    expect(checked.stdout).toBe(
      `Settled ${id} (Delete folder: folder ${bucketId}): already deleted; it is now succeeded.\n`,
    );
    expect(deletes('/v1/storage/bucket')).toHaveLength(1);
    const events = (await auditEvents()).filter((e) => e.requestId === id);
    expect(events.map((e) => e.type)).toEqual([
      'requested',
      'approved',
      'executing',
      'unknown',
      'denied',
      'resolved',
    ]);
    expect(events.at(-1)).toMatchObject({ actor: { id: LEAD, name: 'Lee' }, outcome: { way: 'check' } });

    const twice = await vidops(['resolve', id, '--send-again', '--as', LEAD], LEAD_OS);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`Request ${id} cannot be settled: it was already approved by`);
    expect(deletes('/v1/storage/bucket')).toHaveLength(1);
  });

  test('--send-again on a file delete: the 404 is recorded as already deleted', async () => {
    const id = await lostDelete('file', DEMO.files.trailer, '/v1/storage/bucket/file');
    const again = await vidops(['resolve', id, '--send-again', '--as', LEAD], LEAD_OS);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already deleted; it is now succeeded.');
    expect(deletes('/v1/storage/bucket/file').map((r) => r.status)).toEqual([200, 404]);
  });

  test('--not-applied with a reason records it as failed, with the reason', async () => {
    const id = await lostDelete('playlist', DEMO.playlists.gettingStarted, '/v1/playlist');
    const marked = await vidops(
      ['resolve', id, '--not-applied', '--reason', 'restored from backup', '--as', LEAD],
      LEAD_OS,
    );
    expect(marked.code).toBe(0);
    expect(marked.stdout).toContain('not applied, as ULEAD0001 found on the service; it is now failed.');
    const resolved = (await auditEvents()).at(-1);
    expect(resolved).toMatchObject({
      type: 'resolved',
      outcome: { way: 'not-applied', state: 'failed', note: 'restored from backup' },
    });
  });

  /** The ways that change the record or the service: every one needs the same proof as an approval. */
  const SETTLING = [
    ['--send-again', ['--send-again']],
    ['--applied', ['--applied', '--reason', 'the panel no longer lists it']],
    ['--not-applied', ['--not-applied', '--reason', 'still in the panel']],
  ] as const;

  /** The request is still unknown, the service got no second DELETE, and the refusal is audited. */
  async function nothingSettled(id: string, path: string, actor: { id: string; osUser: string }) {
    expect(deletes(path)).toHaveLength(1);
    const events = (await auditEvents()).filter((e) => e.requestId === id);
    expect(events.map((e) => e.type)).toEqual(['requested', 'approved', 'executing', 'unknown', 'denied']);
    expect(events.at(-1)).toMatchObject({
      actor: { id: actor.id, via: { kind: 'cli', osUser: actor.osUser } },
      outcome: { action: 'resolve' },
    });
  }

  test.each(SETTLING)(
    'with approvals from the command line off, a lead cannot settle %s from the CLI: nothing is sent or recorded',
    async (_way, flags) => {
      const id = await lostDelete('folder', DEMO.folders.lectures, '/v1/storage/bucket');
      await writeFile(join(dir, 'policy.yml'), '');

      const refused = await vidops(['resolve', id, ...flags, '--as', LEAD], LEAD_OS);

      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain('Settling an unknown outcome from the command line is turned off');
      expect(refused.stderr).toContain('cli: { approve: true }');
      await nothingSettled(id, '/v1/storage/bucket', { id: LEAD, osUser: LEAD_OS });
    },
  );

  test.each(SETTLING)(
    'the OS user who asked cannot settle %s by claiming to be a lead, even with approvals from the command line on',
    async (_way, flags) => {
      const id = await lostDelete('folder', DEMO.folders.lectures, '/v1/storage/bucket');

      const refused = await vidops(['resolve', id, ...flags, '--as', LEAD], AGENT_OS);

      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `OS user ${AGENT_OS} asked for this change (as ${AGENT}), so someone else has to settle its outcome.`,
      );
      await nothingSettled(id, '/v1/storage/bucket', { id: LEAD, osUser: AGENT_OS });
    },
  );

  test.each([
    ['no way', ['resolve', 'R-7K2M9QXA', '--as', LEAD], 'exactly one of --check'],
    [
      'two ways',
      ['resolve', 'R-7K2M9QXA', '--check', '--send-again', '--as', LEAD],
      'not --check and --send-again',
    ],
    [
      '--applied without a reason',
      ['resolve', 'R-7K2M9QXA', '--applied', '--as', LEAD],
      '--applied needs --reason',
    ],
    ['no --as', ['resolve', 'R-7K2M9QXA', '--check'], 'needs --as'],
  ])('%s exits 2 with the usage, and nothing is opened or sent', async (_what, args, said) => {
    const result = await vidops(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(said);
    expect(result.stderr).toContain('Usage: vidops resolve <id>');
    expect(sandbox.requests()).toEqual([]);
  });
});
