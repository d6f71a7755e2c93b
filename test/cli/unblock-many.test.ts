import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DEMO, type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type CliPlace, type CliRun, runVidops } from './run-vidops.js';

/**
 * `vidops unblock` with many numbers (docs/commands.md, "Many numbers at once"): from a file,
 * from standard input (a real process with a pipe), or as words; the list shown before anything
 * is sent, confirmed with --yes where there is no terminal to ask on. Against the
 * documented-only sandbox.
 */

const ROOT = join(import.meta.dirname, '../..');
const UNBLOCK = '/v1/analysis/user/video/anomaly';
let sandbox: Sandbox;
let place: CliPlace;

const unblocks = () => sandbox.requests().filter((r) => r.method === 'POST' && r.path === UNBLOCK);

beforeEach(async () => {
  sandbox = await startSandbox({ extras: false });
  const dir = await mkdtemp(join(tmpdir(), 'vidops-cli-many-'));
  await writeFile(join(dir, 'policy.yml'), 'viewer.unblock: { repeat: { within: 30d, max: 1 } }\n');
  place = { dir, sandboxUrl: sandbox.url, policy: true };
});

afterEach(async () => {
  await sandbox.close();
  await rm(place.dir, { recursive: true, force: true });
});

it('an operator unblocks a ticket export from a file: the list shown, each number’s end, the request ID', async () => {
  expect((await runVidops(place, ['unblock', '09127000003'])).code).toBe(0);
  const ticket = ['mobile', '0912 700 0001، 09127000002', '۰۹۱۲۷۰۰۰۰۰۱', 'call 12345', '+98 912 700 0003'];
  await writeFile(join(place.dir, 'numbers.txt'), `${ticket.join('\n')}\n`);

  const run = await runVidops(place, ['unblock', '--file', 'numbers.txt', '--yes']);

  const lines = run.stdout.split('\n');
  expect(lines[0]).toBe('3 to unblock, 2 refused, 1 needs a lead');
  expect(run.stdout).toContain('A lead approves the whole list: it holds 1 repeat viewer.');
  expect(run.stdout).toContain('1 duplicate merged.');
  expect(run.stdout).toMatch(/^line 1: mobile: /m);
  expect(run.stdout).toMatch(/^line 4: 12345: /m);
  expect(run.stdout).toContain('09127000003: the 2nd unblock in 30 days');
  // It waits for a lead: nothing sent, the request ID printed.
  expect(run.stdout).toMatch(/R-[0-9A-Z]{8}/);
  expect(run.code).toBe(0);
  expect(unblocks()).toHaveLength(1);
});

it('several numbers as words run at once, one line per number whole, and the request ID', async () => {
  const run = await runVidops(place, ['unblock', '09127000001', '0912', '700', '0002', '--yes']);

  expect(run.stderr).toBe('');
  expect(run.stdout).toContain('2 to unblock, 0 refused, 0 need a lead');
  expect(run.stdout).toContain('09127000001  done\n09127000002  done\n');
  expect(run.stdout).toMatch(/2 done, 0 failed, 0 unknown \(request R-[0-9A-Z]{8}\)\./);
  expect(run.code).toBe(0);
  expect(unblocks()).toHaveLength(2);
});

it('a list from standard input without --yes is refused, saying why, and nothing is sent', async () => {
  const run = await runVidops({ ...place, stdin: Readable.from(['09127000001\n09127000002\n']) }, [
    'unblock',
    '-',
  ]);

  expect(run.code).toBe(1);
  expect(run.stdout).toContain('2 to unblock, 0 refused, 0 need a lead');
  expect(run.stderr).toContain('Add --yes to confirm without asking. Nothing was sent.');
  expect(unblocks()).toHaveLength(0);
});

it('numbers given two ways at once, or none at all, are a clear refusal', async () => {
  const two = await runVidops(place, ['unblock', '-', '--file', 'numbers.txt']);
  const none = await runVidops(place, ['unblock']);
  const missing = await runVidops(place, ['unblock', '--file', 'nope.txt', '--yes']);

  expect(two.stderr).toContain('Give the numbers one way only');
  expect(none.stderr).toContain('Give the numbers as words, --file numbers.txt, or -');
  expect(missing.stderr).toContain('Could not read nope.txt: ENOENT. Nothing was sent.');
  expect([two.code, none.code, missing.code]).toEqual([2, 2, 1]);
  expect(unblocks()).toHaveLength(0);
});

it('a list longer than one batch takes is refused before anything is asked', async () => {
  const many = Array.from({ length: 1001 }, (_, i) => `0912${String(7_300_000 + i)}`);
  await writeFile(join(place.dir, 'numbers.txt'), many.join('\n'));

  const run = await runVidops(place, ['unblock', '--file', 'numbers.txt', '--yes']);

  expect(run.code).toBe(1);
  expect(run.stderr).toContain('1001 numbers are more than one batch takes (1000): split the list.');
  expect(unblocks()).toHaveLength(0);
});

it('the real command reads a piped list from standard input, in Persian', async () => {
  const run = await vidopsProcess(['unblock', '--yes', '--lang', 'fa'], '09127000001\n۰۹۱۲۷۰۰۰۰۰۲\n');

  expect(run.stdout).toContain('۲ برای رفع مسدودی، ۰ ردشده، ۰ نیازمند سرپرست');
  expect(run.stdout).toContain('09127000002  انجام شد');
  expect(run.code).toBe(0);
  expect(unblocks()).toHaveLength(2);
});

/** `vidops …` as a process of its own (tsx on the sources), `input` piped to its standard input. */
function vidopsProcess(args: string[], input: string): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', `file://${ROOT}/node_modules/tsx/dist/loader.mjs`, join(ROOT, 'src/cli/main.ts'), ...args],
      {
        cwd: place.dir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: place.dir,
          DATABASE_URL: `sqlite:${join(place.dir, 'vidops.db')}`,
          VIDEO_API_URL: sandbox.url,
          VIDEO_API_KEY: DEMO.apiKey,
          VIDEO_SECRET_KEY: DEMO.secretKey,
          LEADS: 'ULEAD0001',
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}
