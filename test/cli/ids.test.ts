import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { runVidops } from './run-vidops.js';

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

function vidops(args: string[]) {
  return runVidops({ dir, sandboxUrl: sandbox.url, clock: () => new Date('2024-10-17T06:00:00.000Z') }, args);
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
