import { spawn, spawnSync } from 'node:child_process';
import { chmod, chown, lchown, mkdir, mkdtemp, open, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHasher } from '../../src/core/audit-chain.js';
import { openStore } from '../../src/store/index.js';
import { type CliRun, runVidops, unblockEvent } from './audit-runs.js';

/**
 * The CLI's local hardening attacked by a second OS user of the same machine: what they can leave
 * where a lead runs `vidops` (a `.env`, the POLICY_FILE) and beside the audit signing key (the key
 * itself, the file in which it remembers what it signed). Each test is named after what that person
 * does; "Was a defect" marks an attack that worked until its fix.
 * Changing a file's owner needs root, as CI runs; elsewhere those tests are skipped.
 * @see docs/security.md, "Identity on the command line" and "The signing key and what it remembers"
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const THEM = 4242;
const THIRD = 4343;
const LOG = 'tehran-1';
const KEY = 'keys/audit-signing.key';
const asRoot = process.getuid?.() === 0 ? test : test.skip;

let dir: string;
const now = new Date('2026-11-22T10:00:00.000Z');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vidops-local-'));
  // Others must reach the folders below (as on /tmp or /srv), so the temp folder is opened to them.
  await chmod(dir, 0o755);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function vidops(args: string[], env: Record<string, string | undefined>, cwd = dir): Promise<CliRun> {
  return runVidops(args, { env, cwd, clock: () => now });
}

/** A folder anyone may write and list, without the sticky bit (a shared team folder). */
async function sharedFolder(name = 'shared'): Promise<string> {
  const path = join(dir, name);
  await mkdir(path);
  await chmod(path, 0o777);
  return path;
}

/** A database with `n` events at `path`. */
async function database(path: string, n = 3): Promise<void> {
  const store = await openStore(`sqlite:${path}`, { hash: createHasher() });
  try {
    await store.appendAudit(Array.from({ length: n }, (_, i) => unblockEvent(i + 1)));
  } finally {
    await store.close();
  }
}

interface Ended {
  /** Whether the run had to be killed after `timeoutMs`. */
  killed: boolean;
  code: number | null;
  stderr: string;
}

/** `vidops <args>` as a child process in `cwd`, killed (with its group) after `timeoutMs`. */
function vidopsProcess(args: string[], cwd: string, timeoutMs: number): Promise<Ended> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', `file://${ROOT}/node_modules/tsx/dist/loader.mjs`, join(ROOT, 'src/cli/main.ts'), ...args],
      {
        cwd,
        env: { PATH: process.env.PATH ?? '', HOME: dir },
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const timer = setTimeout(() => {
      killed = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ killed, code, stderr });
    });
  });
}

describe('a .env left where a lead runs vidops', () => {
  asRoot(
    'a FIFO another user left as .env in a shared folder does not hang a lead’s CLI',
    async () => {
      // Was a defect: loadEnv (src/cli/context.ts) opens .env for reading before it checks anything, and opening a
      // FIFO with no writer blocks forever: the CLI hangs. It should open with O_NONBLOCK (and O_NOFOLLOW), then
      // refuse what fstat says is not a regular file or belongs to another user (exit 2).
      const shared = await sharedFolder();
      expect(spawnSync('mkfifo', [join(shared, '.env')]).status).toBe(0);
      await chown(join(shared, '.env'), THEM, THEM);
      const ended = await vidopsProcess(['audit', 'tail'], shared, 8_000);
      expect(ended.killed).toBe(false);
      expect(ended.code).toBe(2);
    },
    15_000,
  );

  asRoot(
    'a .env symlink another user left in a shared folder, pointing at root’s staging settings, is not followed',
    async () => {
      // Was a defect: loadEnv (src/cli/context.ts) follows the link and checks the owner of what it points at (root),
      // never who made the link, so another user chooses which file of root's or the lead's becomes the lead's
      // settings. The link's owner should be checked (lstat, or O_NOFOLLOW) and the CLI stop with exit 2.
      const staging = join(dir, 'staging');
      await mkdir(staging, { mode: 0o700 });
      await writeFile(join(staging, '.env'), `DATABASE_URL=sqlite:${join(staging, 'staging.db')}\n`, {
        mode: 0o600,
      });
      const shared = await sharedFolder();
      await symlink(join(staging, '.env'), join(shared, '.env'));
      await lchown(join(shared, '.env'), THEM, THEM);
      const result = await vidops(['audit', 'tail'], {}, shared);
      expect(result.stderr).not.toContain('staging.db');
      expect(result.code).toBe(2);
    },
  );

  test('a .env the deployment’s own folder holds but anyone may write is not taken', async () => {
    // Was a defect: loadEnv (src/cli/context.ts) checks only the owner, so a .env of the lead's (or root's) with mode
    // 666 is read although any user may have rewritten it, e.g. to send the API keys elsewhere. A .env with a
    // group or other write bit should be refused (exit 2, with the chmod), as the signer's state file is.
    const deployment = join(dir, 'deployment');
    await mkdir(deployment);
    await writeFile(join(deployment, '.env'), `DATABASE_URL=sqlite:${join(dir, 'theirs.db')}\n`);
    await chmod(join(deployment, '.env'), 0o666);
    const result = await vidops(['audit', 'tail'], {}, deployment);
    expect(result.stderr).not.toContain('theirs.db');
    expect(result.code).toBe(2);
  });

  test('a directory named .env stops the CLI at once with a non-zero exit, without reading anything', async () => {
    const deployment = join(dir, 'deployment');
    await mkdir(join(deployment, '.env'), { recursive: true });
    await database(join(deployment, 'x.db'));
    const result = await vidops(['audit', 'tail'], { DATABASE_URL: 'sqlite:x.db' }, deployment);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
  });

  asRoot('a 2 GiB .env another user left in a shared folder is refused without being read', async () => {
    const shared = await sharedFolder();
    const handle = await open(join(shared, '.env'), 'w');
    try {
      await handle.truncate(2 * 1024 ** 3);
    } finally {
      await handle.close();
    }
    await chown(join(shared, '.env'), THEM, THEM);
    const started = Date.now();
    const result = await vidops(['audit', 'tail'], {}, shared);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('belongs to another user (uid 4242)');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  asRoot(
    'another user hard-links root’s .env into a shared folder: the kernel or the CLI refuses it',
    async () => {
      const staging = join(dir, 'staging');
      await mkdir(staging, { mode: 0o755 });
      await writeFile(join(staging, '.env'), `DATABASE_URL=sqlite:${join(staging, 'staging.db')}\n`, {
        mode: 0o644,
      });
      const shared = await sharedFolder();
      const linked = spawnSync('ln', [join(staging, '.env'), join(shared, '.env')], { uid: THEM, gid: THEM });
      if (linked.status !== 0) {
        // fs.protected_hardlinks: a user may not link a file they neither own nor may write.
        expect(String(linked.stderr)).toMatch(/Operation not permitted/);
        return;
      }
      const result = await vidops(['audit', 'tail'], {}, shared);
      expect(result.code).toBe(2);
    },
  );

  asRoot(
    'a .env a third user left in the deployment’s folder (owned by its deploy user) is refused',
    async () => {
      const deployment = await sharedFolder('deployment');
      await chown(deployment, THEM, THEM);
      await writeFile(join(deployment, '.env'), `DATABASE_URL=sqlite:${join(dir, 'theirs.db')}\n`);
      await chown(join(deployment, '.env'), THIRD, THIRD);
      const result = await vidops(['audit', 'tail'], {}, deployment);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`belongs to another user (uid ${THIRD})`);
      expect(result.stderr).not.toContain('theirs.db');
    },
  );
});

describe('the POLICY_FILE a lead’s CLI reads', () => {
  async function deploymentWithPolicy(): Promise<{ deployment: string; policy: string }> {
    const deployment = join(dir, 'deployment');
    await mkdir(deployment);
    await database(join(deployment, 'x.db'));
    const policy = join(deployment, 'policy.yml');
    // What another user would want: `--as` claims trusted on this machine.
    await writeFile(policy, 'cli: { approve: true }\n');
    return { deployment, policy };
  }

  const env = { DATABASE_URL: 'sqlite:x.db', LEADS: 'U0LEAD1', POLICY_FILE: 'policy.yml' };

  asRoot('a policy file another user owns is not taken as the deployment’s rules', async () => {
    // Was a defect: the POLICY_FILE is read whoever owns it (policyReader in src/cli/context.ts, readPolicyFile in
    // src/app.ts), though it decides who approves what and whether `--as` is trusted. It should be refused as
    // another user's .env is (exit 2 naming its owner), unless this user, root or the folder's owner owns it.
    const { deployment, policy } = await deploymentWithPolicy();
    await chown(policy, THEM, THEM);
    const result = await vidops(['audit', 'tail'], env, deployment);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('POLICY_FILE');
  });

  test('a policy file anyone may write is not taken as the deployment’s rules', async () => {
    // Was a defect: a POLICY_FILE with mode 666 is read as it is (src/cli/context.ts policyReader, src/app.ts
    // readPolicyFile), so any user of the machine can loosen the rules. A policy file with a group or other
    // write bit should stop the CLI and the bot (exit 2, with the chmod to run).
    const { deployment, policy } = await deploymentWithPolicy();
    await chmod(policy, 0o666);
    const result = await vidops(['audit', 'tail'], env, deployment);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('POLICY_FILE');
  });

  test('a policy file only its owner may write is read as before', async () => {
    const { deployment, policy } = await deploymentWithPolicy();
    await chmod(policy, 0o644);
    const result = await vidops(['audit', 'tail'], env, deployment);
    expect(result.code).toBe(0);
  });
});

describe('the signing key and what it remembers', () => {
  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: 'sqlite:x.db',
    AUDIT_LOG_NAME: LOG,
    AUDIT_SIGNING_KEY_FILE: KEY,
    ...extra,
  });

  async function keyAndLog(): Promise<void> {
    expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
    await database(join(dir, 'x.db'), 5);
  }

  async function checkpointRows(): Promise<number> {
    const store = await openStore(`sqlite:${join(dir, 'x.db')}`, { hash: createHasher() });
    try {
      return (await store.listCheckpoints()).length;
    } finally {
      await store.close();
    }
  }

  asRoot('another user owns the signing key file (mode 600): nothing is signed with it', async () => {
    // Was a defect: loadSigningKey (src/services/audit-keys.ts) checks only the mode; a key owned by another user has
    // been readable by them (and they may chmod it at will), so they can sign for the log. A key not owned by
    // this user or root should be refused as a readable one is (exit 2, naming the owner).
    await keyAndLog();
    await chown(join(dir, KEY), THEM, THEM);
    const result = await vidops(['audit', 'checkpoint'], env());
    expect(result.code).toBe(2);
    expect(await checkpointRows()).toBe(0);
  });

  test('a signing key that is a symlink to a key its group may read is refused', async () => {
    await keyAndLog();
    await chmod(join(dir, KEY), 0o640);
    await symlink(join(dir, KEY), join(dir, 'keys/linked.key'));
    const result = await vidops(['audit', 'checkpoint'], env({ AUDIT_SIGNING_KEY_FILE: 'keys/linked.key' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('may be read by other users (mode 640)');
    expect(await checkpointRows()).toBe(0);
  });

  asRoot(
    'another user owns the file in which the key remembers its checkpoint (mode 600): nothing is signed',
    async () => {
      // Was a defect: readState (src/services/checkpoint-memory.ts) refuses a state file others may write by its mode
      // only; one owned by another user is taken although its owner can chmod and rewind it at will (making the key
      // forget what it signed). A state file not owned by this user or root should be refused like a writable one.
      await keyAndLog();
      expect((await vidops(['audit', 'checkpoint'], env())).code).toBe(0);
      await database(join(dir, 'x.db'), 2);
      await chown(join(dir, `${KEY}.last`), THEM, THEM);
      expect((await stat(join(dir, `${KEY}.last`))).mode & 0o777).toBe(0o600);
      const result = await vidops(['audit', 'checkpoint'], env());
      expect(result.code).toBe(1);
      expect(await checkpointRows()).toBe(1);
    },
  );

  test('a state file its group may write is refused, also through AUDIT_CHECKPOINT_STATE_FILE', async () => {
    await keyAndLog();
    await mkdir(join(dir, 'state'));
    const extra = { AUDIT_CHECKPOINT_STATE_FILE: 'state/checkpoint.last' };
    expect((await vidops(['audit', 'checkpoint'], env(extra))).code).toBe(0);
    await database(join(dir, 'x.db'), 2);
    await chmod(join(dir, 'state/checkpoint.last'), 0o620);
    const result = await vidops(['audit', 'checkpoint'], env(extra));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('may be written by other users (mode 620)');
    expect(await checkpointRows()).toBe(1);
  });
});
