import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type CliPlace, runVidops } from './run-vidops.js';

/**
 * `vidops viewer <mobile>`: a viewer's unblocks from the audit log on the operator's command
 * line, the number whole (as `audit export` shows it), against the documented-only sandbox.
 * @see docs/commands.md, "A viewer's history"
 */

let sandbox: Sandbox;
let place: CliPlace;

beforeEach(async () => {
  sandbox = await startSandbox({ extras: false });
  const dir = await mkdtemp(join(tmpdir(), 'vidops-cli-viewer-'));
  await writeFile(join(dir, 'policy.yml'), 'viewer.unblock: { repeat: { within: 30d, max: 2 } }\n');
  place = { dir, sandboxUrl: sandbox.url, policy: true };
});

afterEach(async () => {
  await sandbox.close();
  await rm(place.dir, { recursive: true, force: true });
});

it('an operator reads the history of a viewer two agents unblocked: newest first, the number whole', async () => {
  expect(
    (await runVidops(place, ['unblock', '0912', '456', '4567', '--reason', 'ticket 41'], 'sara')).code,
  ).toBe(0);
  expect((await runVidops(place, ['unblock', '+989124564567'], 'omid')).code).toBe(0);

  const read = await runVidops(place, ['viewer', '۰۰۹۸', '۹۱۲', '۴۵۶', '۴۵۶۷']);

  expect(read.code).toBe(0);
  const lines = read.stdout.split('\n');
  expect(lines[0]).toBe('What vidops did for viewer 09124564567');
  expect(read.stdout).toContain('2 unblocks in the last 30 days.');
  expect(read.stdout).toContain(
    'The next unblock would be the 3rd in 30 days: it will need a lead’s approval.',
  );
  const omid = lines.findIndex((l) => l.includes('asked by cli:omid'));
  const sara = lines.findIndex((l) => l.includes('asked by cli:sara · reason: ticket 41'));
  expect(omid).toBeGreaterThan(0);
  expect(sara).toBeGreaterThan(omid);
});

it('the history as JSON, and in Persian', async () => {
  await runVidops(place, ['unblock', '09124564567']);

  const json = await runVidops(place, ['viewer', '09124564567', '--json']);
  const fa = await runVidops(place, ['viewer', '09124564567', '--lang', 'fa']);

  expect(JSON.parse(json.stdout)).toMatchObject({ viewer: '09124564567', inWindow: 1, next: null });
  expect(fa.stdout).toContain('۱ رفع مسدودی در ۳۰ روز گذشته.');
  expect(fa.stdout).toMatch(/۱۴۰[۵-۶]/);
});

it('a number that is not a mobile is refused, and nothing is read', async () => {
  const read = await runVidops(place, ['viewer', '021', '1234', '5678']);
  expect(read.code).not.toBe(0);
  expect(read.stderr).toMatch(/landline|not a mobile/i);
});
