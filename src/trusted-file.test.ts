import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';

/**
 * The one rule vidops reads its trusted files by (src/trusted-file.ts; docs/security.md, "Files
 * vidops trusts"), unit by unit: what `distrustOf` judges, how `distrustWords` says it, and what
 * `readTrustedFile` does with what is at a path. `node:fs/promises` is wrapped (delegating to the real
 * one) so that a test can act between the module's `lstat` and its `open`, as a racing user would.
 * Changing a file's owner needs root, as CI runs; elsewhere those tests are skipped.
 */

const realFs = createRequire(import.meta.url)('node:fs/promises') as typeof import('node:fs/promises');
/** Run once right after the module's next `lstat` of the given path resolves (the race window). */
let afterLstat: { path: string; act: () => void } | null = null;

jest.unstable_mockModule('node:fs/promises', () => ({
  ...realFs,
  default: realFs,
  lstat: async (...args: Parameters<typeof realFs.lstat>) => {
    const result = await realFs.lstat(...args);
    const hook = afterLstat;
    if (hook !== null && String(args[0]) === hook.path) {
      afterLstat = null;
      hook.act();
    }
    return result;
  },
}));

const { distrustOf, distrustWords, readTrustedFile } = await import('./trusted-file.js');

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const THEM = 4242;
const ME = process.getuid?.() ?? 0;
const asRoot = process.getuid?.() === 0 ? test : test.skip;
const ENV_RULE = { folderOwner: true, refusedBits: 0o002 };
const KEY_RULE = { folderOwner: false, refusedBits: 0o077 };
const STATE_RULE = { folderOwner: false, refusedBits: 0o022 };

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidops-trusted-'));
  chmodSync(dir, 0o755);
  afterLstat = null;
});

afterEach(() => {
  afterLstat = null;
  rmSync(dir, { recursive: true, force: true });
});

describe('distrustOf: who may own a file and which bits it may not have', () => {
  const folder = { path: '/srv/vidops', uid: THEM, trusted: true };

  test('a file of this user with no refused bit is trusted', () => {
    expect(distrustOf({ uid: ME, mode: 0o100644 }, folder, ENV_RULE)).toBeNull();
  });

  test('a file of root is trusted whoever runs vidops', () => {
    expect(distrustOf({ uid: 0, mode: 0o100600 }, folder, KEY_RULE)).toBeNull();
  });

  asRoot('a file of the folder’s owner is trusted for .env, POLICY_FILE and the database only', () => {
    expect(distrustOf({ uid: THEM, mode: 0o100644 }, folder, ENV_RULE)).toBeNull();
    expect(distrustOf({ uid: THEM, mode: 0o100600 }, folder, KEY_RULE)).toEqual({
      kind: 'owner',
      uid: THEM,
      folder: null,
    });
  });

  asRoot(
    'a file of the owner of a folder others could have made or replaced is refused, naming the folder',
    () => {
      expect(distrustOf({ uid: THEM, mode: 0o100644 }, { ...folder, trusted: false }, ENV_RULE)).toEqual({
        kind: 'owner',
        uid: THEM,
        folder: '/srv/vidops',
      });
    },
  );

  asRoot('a file of a third user in the deployment’s folder is refused, naming the folder', () => {
    expect(distrustOf({ uid: 4343, mode: 0o100644 }, folder, ENV_RULE)).toEqual({
      kind: 'owner',
      uid: 4343,
      folder: '/srv/vidops',
    });
  });

  asRoot(
    'the owner is judged before the mode: a file of another user anyone may write names its owner',
    () => {
      expect(distrustOf({ uid: 4343, mode: 0o100666 }, folder, ENV_RULE)?.kind).toBe('owner');
    },
  );

  test('a .env anyone may write is refused as written; the group may write it', () => {
    expect(distrustOf({ uid: ME, mode: 0o100666 }, folder, ENV_RULE)).toEqual({
      kind: 'mode',
      mode: 0o666,
      risk: 'written',
    });
    expect(distrustOf({ uid: ME, mode: 0o100664 }, folder, ENV_RULE)).toBeNull();
  });

  test('a key its group may only read is refused as read, with the mode in its last nine bits', () => {
    expect(distrustOf({ uid: ME, mode: 0o100640 }, folder, KEY_RULE)).toEqual({
      kind: 'mode',
      mode: 0o640,
      risk: 'read',
    });
    // Set-user-ID and sticky bits are not part of what is said, nor the file type.
    expect(distrustOf({ uid: ME, mode: 0o104604 }, folder, KEY_RULE)).toEqual({
      kind: 'mode',
      mode: 0o604,
      risk: 'read',
    });
  });

  test('a key with an execute bit for its group is refused, though nobody may read or write it', () => {
    expect(distrustOf({ uid: ME, mode: 0o100610 }, folder, KEY_RULE)?.kind).toBe('mode');
  });

  test('a remembered checkpoint its group may read is trusted; one its group may write is refused as written', () => {
    expect(distrustOf({ uid: ME, mode: 0o100640 }, folder, STATE_RULE)).toBeNull();
    expect(distrustOf({ uid: ME, mode: 0o100620 }, folder, STATE_RULE)).toEqual({
      kind: 'mode',
      mode: 0o620,
      risk: 'written',
    });
  });

  test('with no refused bits (the database) any mode of a trusted owner is taken', () => {
    expect(distrustOf({ uid: ME, mode: 0o100777 }, folder, { folderOwner: true, refusedBits: 0 })).toBeNull();
  });
});

describe('distrustWords: the end of a sentence that starts with the path', () => {
  test('another user’s file names their uid, and the folder when its owner would have been trusted', () => {
    expect(distrustWords({ kind: 'owner', uid: 4242, folder: '/srv/vidops' })).toBe(
      'belongs to another user (uid 4242), not to you, root or the owner of /srv/vidops',
    );
    expect(distrustWords({ kind: 'owner', uid: 4242, folder: null })).toBe(
      'belongs to another user (uid 4242), not to you, root',
    );
  });

  test('a mode says whether others may have read or written it, in octal', () => {
    expect(distrustWords({ kind: 'mode', mode: 0o640, risk: 'read' })).toBe(
      'may be read by other users (mode 640)',
    );
    expect(distrustWords({ kind: 'mode', mode: 0o666, risk: 'written' })).toBe(
      'may be written by other users (mode 666)',
    );
    expect(distrustWords({ kind: 'mode', mode: 0o002, risk: 'written' })).toBe(
      'may be written by other users (mode 2)',
    );
  });

  test('anything but a regular file is said to be one', () => {
    expect(distrustWords({ kind: 'not-a-file' })).toBe('is not a regular file');
  });
});

describe('readTrustedFile: what is at the path', () => {
  test('a file that is not there is missing, as is one in a folder that is not there', async () => {
    expect(await readTrustedFile(join(dir, '.env'), ENV_RULE)).toEqual({ kind: 'missing' });
    expect(await readTrustedFile(join(dir, 'nowhere', '.env'), ENV_RULE)).toEqual({ kind: 'missing' });
  });

  test('a dangling link of this user’s is missing, not an error', async () => {
    symlinkSync(join(dir, 'gone'), join(dir, '.env'));
    expect(await readTrustedFile(join(dir, '.env'), ENV_RULE)).toEqual({ kind: 'missing' });
  });

  test('a path through a file (ENOTDIR) is thrown, not taken as missing', async () => {
    writeFileSync(join(dir, 'plain'), 'x');
    await expect(readTrustedFile(join(dir, 'plain', '.env'), ENV_RULE)).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
  });

  test('a file of this user with a safe mode is read whole, as UTF-8', async () => {
    writeFileSync(join(dir, '.env'), 'DISPLAY_NAME=وید\nB=2\n', { mode: 0o644 });
    expect(await readTrustedFile(join(dir, '.env'), ENV_RULE)).toEqual({
      kind: 'read',
      text: 'DISPLAY_NAME=وید\nB=2\n',
    });
  });

  test('a link of this user’s to a file of this user’s is followed', async () => {
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'policy.yml'), 'cli: {}\n', { mode: 0o644 });
    symlinkSync(join(dir, 'real', 'policy.yml'), join(dir, 'policy.yml'));
    expect(await readTrustedFile(join(dir, 'policy.yml'), ENV_RULE)).toEqual({
      kind: 'read',
      text: 'cli: {}\n',
    });
  });

  test('a directory is not a regular file', async () => {
    mkdirSync(join(dir, '.env'));
    expect(await readTrustedFile(join(dir, '.env'), ENV_RULE)).toEqual({
      kind: 'refused',
      why: { kind: 'not-a-file' },
    });
  });

  test('a device (/dev/zero) is not a regular file and is not read', async () => {
    symlinkSync('/dev/zero', join(dir, 'key'));
    expect(await readTrustedFile(join(dir, 'key'), KEY_RULE)).toEqual({
      kind: 'refused',
      why: { kind: 'not-a-file' },
    });
  });

  test('a FIFO with no writer is refused at once, not waited on', () => {
    const fifo = join(dir, '.env');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // In a child process: if the open waited on the FIFO, only the timeout would end it.
    const script = `import { readTrustedFile } from ${JSON.stringify(join(ROOT, 'src/trusted-file.ts'))};
      process.stdout.write(JSON.stringify(await readTrustedFile(${JSON.stringify(fifo)}, { folderOwner: true, refusedBits: 2 })));`;
    const child = spawnSync(
      process.execPath,
      ['--import', `file://${ROOT}/node_modules/tsx/dist/loader.mjs`, '--input-type=module', '-e', script],
      { timeout: 10_000, killSignal: 'SIGKILL', encoding: 'utf8' },
    );
    expect(child.signal).toBeNull();
    expect(JSON.parse(child.stdout)).toEqual({ kind: 'refused', why: { kind: 'not-a-file' } });
  }, 15_000);

  test('a key file its group may read is refused with the words for read', async () => {
    writeFileSync(join(dir, 'key'), 'secret', { mode: 0o640 });
    chmodSync(join(dir, 'key'), 0o640);
    const read = await readTrustedFile(join(dir, 'key'), KEY_RULE);
    expect(read).toEqual({ kind: 'refused', why: { kind: 'mode', mode: 0o640, risk: 'read' } });
    if (read.kind === 'refused')
      expect(distrustWords(read.why)).toBe('may be read by other users (mode 640)');
  });

  asRoot('a link another user made to root’s file is refused by the link’s owner, not followed', async () => {
    writeFileSync(join(dir, 'root.key'), 'secret', { mode: 0o600 });
    symlinkSync(join(dir, 'root.key'), join(dir, 'key'));
    lchownSync(join(dir, 'key'), THEM, THEM);
    expect(await readTrustedFile(join(dir, 'key'), KEY_RULE)).toEqual({
      kind: 'refused',
      why: { kind: 'link', uid: THEM, link: join(dir, 'key') },
    });
  });

  asRoot(
    'another user swaps .env for a link of theirs between the check of the path and its opening',
    async () => {
      // Was a defect: readTrustedFile judges the link's maker by an lstat, then opens the path following links (no O_NOFOLLOW,
      // no dev/ino match), so a link swapped in between is never judged. Open with O_NOFOLLOW (or compare fstat's dev/ino with lstat's) in src/trusted-file.ts.
      const shared = join(dir, 'shared');
      mkdirSync(shared);
      chmodSync(shared, 0o777);
      const staging = join(dir, 'staging');
      mkdirSync(staging, { mode: 0o700 });
      writeFileSync(join(staging, '.env'), 'DATABASE_URL=sqlite:/srv/staging.db\n', { mode: 0o600 });
      const path = join(shared, '.env');
      writeFileSync(path, 'DATABASE_URL=sqlite:/srv/team.db\n', { mode: 0o644 });
      afterLstat = {
        path,
        act: () => {
          // What the other user's loop does in a folder anyone may write: the name now is their link.
          unlinkSync(path);
          symlinkSync(join(staging, '.env'), path);
          lchownSync(path, THEM, THEM);
        },
      };
      const read = await readTrustedFile(path, ENV_RULE);
      expect(afterLstat).toBeNull();
      expect(read.kind === 'read' ? read.text : '').not.toContain('staging.db');
    },
  );
});
