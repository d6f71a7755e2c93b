import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliIo, runCli } from '../../src/cli/run.js';
import { DEMO, type Sandbox, startSandbox } from '../../src/sandbox/server.js';

/**
 * IDs made only of dots are refused on the command line before anything is read or sent: `..`
 * in the file edit's URL path would otherwise reach another route of the service.
 */

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(() => sandbox.close());

beforeEach(async () => {
  sandbox.reset();
  dir = await mkdtemp(join(tmpdir(), 'vidops-cli-ids-'));
});

afterEach(() => rm(dir, { recursive: true, force: true }));

async function vidops(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {
      DATABASE_URL: `sqlite:${join(dir, 'x.db')}`,
      VIDEO_API_URL: sandbox.url,
      VIDEO_API_KEY: DEMO.apiKey,
      VIDEO_SECRET_KEY: DEMO.secretKey,
      LEADS: 'ULEAD0001',
    },
    cwd: dir,
    clock: () => new Date('2024-10-17T06:00:00.000Z'),
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

describe('an operator gives an ID made only of dots', () => {
  it.each([
    [['file', 'edit', '..', '--title', 'x'], '".." is not a file ID'],
    [['file', 'delete', '.', '--confirm', '.'], '"." is not a file ID'],
    [['folder', 'delete', '..', '--confirm', '..'], '".." is not a folder ID'],
    [['retry', '...'], '"..." is not a file ID'],
  ])('vidops %j is refused with a clear message and sends nothing', async (args, message) => {
    const result = await vidops(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('an ID is never made only of dots');
    expect(sandbox.requests()).toEqual([]);
  });
});
