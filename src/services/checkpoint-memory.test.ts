import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointMemoryError, fileMemory, memoryPathFor } from './checkpoint-memory.js';

let dir: string;
let path: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vidops-memory-'));
  path = join(dir, 'audit-signing.key.last');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the memory beside the signing key', () => {
  it('lives in <key file>.last', () => {
    expect(memoryPathFor('/etc/vidops/audit-signing.key')).toBe('/etc/vidops/audit-signing.key.last');
  });

  it('is written whole, mode 600, and leaves no temporary file', async () => {
    const memory = fileMemory(path);
    expect(await memory.read()).toBeNull();
    await memory.write('first\n', null);
    await memory.write('second\n', 'first\n');
    expect(await memory.read()).toBe('second\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['audit-signing.key.last']);
  });

  it('refuses to replace what it no longer holds, and changes nothing', async () => {
    const memory = fileMemory(path);
    await memory.write('newer\n', null);
    await expect(memory.write('older\n', null)).rejects.toThrow(CheckpointMemoryError);
    await expect(memory.write('older\n', null)).rejects.toThrow(
      'changed while this checkpoint was being signed',
    );
    expect(await readFile(path, 'utf8')).toBe('newer\n');
    expect(await readdir(dir)).toEqual(['audit-signing.key.last']);
  });

  it('a memory file others may write is refused, naming the fix', async () => {
    await writeFile(path, 'x\n');
    await chmod(path, 0o666);
    await expect(fileMemory(path).read()).rejects.toThrow(
      `${path} may be written by other users (mode 666): run \`chmod 600 ${path}\`.`,
    );
  });

  it('one signer at a time: the second waits for the first, and a lock held too long is named', async () => {
    const memory = fileMemory(path, { lockWaitMs: 200 });
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = memory.exclusive(async () => {
      order.push('first in');
      await held;
      order.push('first out');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(fileMemory(path, { lockWaitMs: 100 }).exclusive(async () => undefined)).rejects.toThrow(
      `another signer holds the lock file ${path}.lock; if no vidops signs with this key now, remove the file.`,
    );
    const second = fileMemory(path, { lockWaitMs: 5000 }).exclusive(async () => {
      order.push('second');
    });
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second']);
    expect(await readdir(dir)).toEqual([]);
  });
});
