import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type CliRun, runVidops } from './run-vidops.js';

/**
 * Time-boxed changes and Revert on the command line: `--for`, `vidops put-back`, `vidops extend`
 * and `vidops revert`, against the documented-only sandbox, with the policy's identity rule.
 * @see docs/time-boxed.md
 */

const LEAD = 'ULEAD0001';
const AGENT = 'UAGENT001';
const OTHER = 'UAGENT002';
const REQUEST_ID = /R-[0-9A-HJKMNP-TV-Z]{8}/;

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
  dir = await mkdtemp(join(tmpdir(), 'vidops-time-boxed-'));
  await writeFile(join(dir, 'policy.yml'), 'cli: { approve: true }\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

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

/** An agent asks on the CLI, the lead approves on the CLI; the request ID. */
async function askedAndApproved(args: string[]): Promise<string> {
  const asked = await vidops([...args, '--as', AGENT]);
  expect(asked.code).toBe(0);
  const id = REQUEST_ID.exec(asked.stdout)?.[0] ?? '';
  const approved = await vidops(['approve', id, '--as', LEAD], 'lena');
  expect(approved.code).toBe(0);
  return id;
}

describe('vidops with --for, put-back, extend and revert', () => {
  test('an agent adds an address for 30 minutes, then puts it back early', async () => {
    const id = await askedAndApproved(['whitelist', 'add', '5.6.7.8', '--for', '30m']);
    expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
    const other = await vidops(['put-back', id, '--as', OTHER], 'omid');
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('Only the person who asked for');
    expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
    // Another OS user claiming to be the requester is not the requester: the machine says who ran it.
    const claimed = await vidops(['put-back', id, '--as', AGENT], 'omid');
    expect(claimed.code).toBe(1);
    expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
    const back = await vidops(['put-back', id, '--as', AGENT]);
    expect(back).toMatchObject({ code: 0, stderr: '' });
    expect(back.stdout).toContain(id);
    expect(sandbox.state().whitelist).toEqual([]);
  });

  test('an unreadable or too long window is refused and nothing is asked for', async () => {
    const bad = await vidops(['protect', 'set', 'preventZoom=true', '--for', 'soon', '--as', AGENT]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('soon');
    const long = await vidops(['protect', 'set', 'preventZoom=true', '--for', '30d', '--as', AGENT]);
    expect(long.code).toBe(1);
    const folder = await vidops(['folder', 'create', '--title', 'Demo', '--for', '2h', '--as', AGENT]);
    expect(folder.code).toBe(2);
    expect(sandbox.requests().filter((r) => r.method === 'POST')).toEqual([]);
  });

  test('extend asks for a later end that a lead approves; put back of the change still works, the Extend holds nothing', async () => {
    const id = await askedAndApproved(['protect', 'set', 'preventZoom=true', '--for', '۳۰m']);
    const asked = await vidops(['extend', id, '--for', '2h', '--as', AGENT]);
    expect(asked.code).toBe(0);
    const extension = REQUEST_ID.exec(asked.stdout)?.[0] ?? '';
    expect(extension).not.toBe(id);
    const approved = await vidops(['approve', extension, '--as', LEAD], 'lena');
    expect(approved.code).toBe(0);
    expect(sandbox.state().config.preventZoom).toBe(true);
    // One window: the Extend moved the change's end and has nothing of its own to put back.
    const later = await vidops(['put-back', extension, '--as', AGENT]);
    expect(later.code).toBe(1);
    const first = await vidops(['put-back', id, '--as', AGENT]);
    expect(first.code).toBe(0);
    expect(sandbox.state().config.preventZoom).toBe(false);
  });

  test('a lead reverts a done protection change: the inverse is a new request, approved like any', async () => {
    const id = await askedAndApproved(['protect', 'set', 'opacity=0.2']);
    expect(sandbox.state().config.opacity).toBe(0.2);
    const asked = await vidops(['revert', id, '--as', AGENT]);
    expect(asked.code).toBe(0);
    const revert = REQUEST_ID.exec(asked.stdout.replace(id, ''))?.[0] ?? '';
    expect(asked.stdout).toContain('0.2 → 0.6');
    const approved = await vidops(['approve', revert, '--as', LEAD], 'lena');
    expect(approved.code).toBe(0);
    expect(sandbox.state().config.opacity).toBe(0.6);
    const created = await vidops(['folder', 'create', '--title', 'Demo', '--as', AGENT]);
    const folderRequest = REQUEST_ID.exec(created.stdout)?.[0] ?? '';
    const refused = await vidops(['revert', folderRequest, '--as', AGENT]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cannot be reverted');
  });
});
