import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  chown,
  lchown,
  mkdir,
  mkdtemp,
  open,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { createHasher } from '../../src/core/audit-chain.js';
import { readPolicyFile } from '../../src/parts.js';
import { openStore } from '../../src/store/index.js';
import { type CliRun, runVidops, unblockEvent } from './audit-runs.js';

/**
 * The files vidops trusts (docs/security.md, "Files vidops trusts" and "The database file")
 * attacked further by a second OS user of the machine, beyond test/cli/local-attacks.test.ts and
 * src/store/sqlite-file-attacks.test.ts: chains of links, links and folders on the way to the file,
 * the SQLite files beside the database; and what the docs promise the people sharing a deployment
 * (its .env, its database through a group) still holding. Other OS users are played by child
 * processes run with their uid and gid. Changing owners needs root, as CI runs; elsewhere those
 * tests are skipped. "Was a defect" marks an attack that worked, or a promise that did not hold, until its fix.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LOADER = `file://${ROOT}/node_modules/tsx/dist/loader.mjs`;
const SQLITE = join(ROOT, 'node_modules/better-sqlite3');
/** Another user of the machine: a lead, or whoever attacks. */
const THEM = 4242;
/** The deployment's own user, which runs the bot and owns its folder. */
const BOT = 4343;
/** A second lead. */
const LEAD_B = 4545;
/** The group the deployment shares its database with (chgrp -R vidops data). */
const GROUP = 4444;
const asRoot = process.getuid?.() === 0 ? test : test.skip;
/**
 * Tests that run vidops' own code as another user need that user to reach this checkout: a clone
 * in a folder only its owner may enter (as `mktemp -d` makes for CI) cannot be, so they are
 * skipped there, and run where the checkout is open to others, as a deployment's is.
 */
const asOthers =
  process.getuid?.() === 0 &&
  spawnSync(process.execPath, ['-e', `require(${JSON.stringify(SQLITE)})`], { uid: LEAD_B, gid: GROUP })
    .status === 0
    ? test
    : test.skip;

let dir: string;
const now = new Date('2026-11-22T10:00:00.000Z');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vidops-trusted-'));
  // Others must reach the folders below (as on /tmp or /srv), so the temp folder is opened to them.
  await chmod(dir, 0o755);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function vidops(args: string[], env: Record<string, string | undefined>, cwd = dir): Promise<CliRun> {
  return runVidops(args, { env, cwd, clock: () => now });
}

/** A folder with `mode` (0o777: a shared team folder; 0o1777: a sticky one, as /tmp). */
async function folder(name: string, mode: number): Promise<string> {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  await chmod(path, mode);
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

/** How many audit events the database at `path` holds. */
async function events(path: string): Promise<number> {
  const store = await openStore(`sqlite:${path}`, { hash: createHasher() });
  try {
    return (await store.listAudit()).length;
  } finally {
    await store.close();
  }
}

/** Opens the store at `path` as the bot's start does; what it threw, or null. */
async function botOpens(path: string): Promise<unknown> {
  try {
    const store = await openStore(`sqlite:${path}`, { hash: createHasher() });
    await store.close();
    return null;
  } catch (error) {
    return error;
  }
}

interface Ended {
  /** Whether the run had to be killed after `timeoutMs`. */
  killed: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A TypeScript entry of vidops (`src/cli/main.ts`, or `src/main.ts` for `npm start`) as a child
 * process in `cwd`, as `user` (uid and gid) when given, killed with its group after `timeoutMs`.
 */
function child(
  entry: string,
  args: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    user?: { uid: number; gid: number };
    timeoutMs: number;
  },
): Promise<Ended> {
  return new Promise((done) => {
    const proc = spawn(process.execPath, ['--import', LOADER, join(ROOT, entry), ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: options.cwd, ...options.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options.user,
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    proc.stdout.on('data', (chunk) => (stdout += String(chunk)));
    proc.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const timer = setTimeout(() => {
      killed = true;
      if (proc.pid !== undefined) process.kill(-proc.pid, 'SIGKILL');
    }, options.timeoutMs);
    proc.on('close', (code) => {
      clearTimeout(timer);
      done({ killed, code, stdout, stderr });
    });
  });
}

/** Plain Node (CommonJS `-e`) as `user`; its exit status and output. */
function nodeAs(
  user: { uid: number; gid: number },
  script: string,
): { status: number | null; signal: string | null; out: string } {
  const ran = spawnSync(process.execPath, ['-e', script], { ...user, timeout: 10_000, encoding: 'utf8' });
  return { status: ran.status, signal: ran.signal, out: `${ran.stdout}${ran.stderr}` };
}

describe('links on the way to a file vidops trusts', () => {
  asRoot(
    'a lead links .env to a team file whose name another user took with a link to root’s staging settings',
    async () => {
      // Was a defect: readTrustedFile (src/trusted-file.ts) judges only the first link's maker (root, here) and then follows
      // the whole chain, so the second link, made by another user, chooses the lead's settings. Every link followed
      // should be judged by its maker (resolve link by link with lstat, or open each step with O_NOFOLLOW).
      const staging = await folder('staging', 0o700);
      await writeFile(join(staging, '.env'), `DATABASE_URL=sqlite:${join(staging, 'staging.db')}\n`, {
        mode: 0o600,
      });
      const shared = await folder('shared', 0o1777);
      await symlink(join(staging, '.env'), join(shared, 'team.env'));
      await lchown(join(shared, 'team.env'), THEM, THEM);
      const deployment = await folder('deployment', 0o755);
      await symlink(join(shared, 'team.env'), join(deployment, '.env'));
      const result = await vidops(['audit', 'tail'], {}, deployment);
      expect(result.stderr).not.toContain('staging.db');
      expect(result.code).toBe(2);
    },
  );

  asRoot(
    'another user links a folder on a lead’s POLICY_FILE path to root’s staging folder, with its looser policy',
    async () => {
      // Was a defect: readTrustedFile (src/trusted-file.ts) lstat()s only the last part of the path, so a folder on the way that
      // is a link another user made is followed: they choose which of root's policies is read (here `cli: { approve:
      // true }`). Links among the path's folders should be judged by their makers as the last one is.
      const staging = await folder('staging', 0o755);
      await writeFile(join(staging, 'policy.yml'), 'cli: { approve: true }\n', { mode: 0o644 });
      const shared = await folder('shared', 0o1777);
      await symlink(staging, join(shared, 'team'));
      await lchown(join(shared, 'team'), THEM, THEM);
      const deployment = await folder('deployment', 0o755);
      await database(join(deployment, 'x.db'));
      const env = {
        DATABASE_URL: 'sqlite:x.db',
        LEADS: 'U0LEAD1',
        POLICY_FILE: join(shared, 'team', 'policy.yml'),
      };
      const result = await vidops(['audit', 'tail'], env, deployment);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('POLICY_FILE');
    },
  );

  asRoot(
    'another user moves root’s policy folder aside in a team folder anyone may write and puts their own in its place',
    async () => {
      // Was a defect: the folder-owner rule (readTrustedFile, src/trusted-file.ts) trusts whoever owns the file's folder, even
      // when that folder sits in one anyone may write: any user renames it and makes their own, and so owns "its
      // folder". The folder's owner should be trusted only when nobody else could have made or replaced the folder
      // (its parent not writable by others), or the folder refused as the database's is (src/store/sqlite.ts).
      const team = await folder('team', 0o777);
      const vidopsFolder = await folder('team/vidops', 0o755);
      await writeFile(join(vidopsFolder, 'policy.yml'), 'cli: { approve: false }\n', { mode: 0o644 });
      const deployment = await folder('deployment', 0o755);
      await database(join(deployment, 'x.db'));
      // The other user, in a folder anyone may write: rename root's folder, make their own with their policy.
      const swapped = nodeAs(
        { uid: THEM, gid: THEM },
        `const fs = require('fs');
         fs.renameSync(${JSON.stringify(vidopsFolder)}, ${JSON.stringify(join(team, 'old'))});
         fs.mkdirSync(${JSON.stringify(vidopsFolder)}, { mode: 0o755 });
         fs.writeFileSync(${JSON.stringify(join(vidopsFolder, 'policy.yml'))}, 'cli: { approve: true }\\n', { mode: 0o644 });`,
      );
      expect(swapped.status).toBe(0);
      expect((await stat(join(vidopsFolder, 'policy.yml'))).uid).toBe(THEM);
      const env = {
        DATABASE_URL: 'sqlite:x.db',
        LEADS: 'U0LEAD1',
        POLICY_FILE: join(vidopsFolder, 'policy.yml'),
      };
      const result = await vidops(['audit', 'tail'], env, deployment);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('POLICY_FILE');
    },
  );

  asRoot(
    'another user hard-links root’s looser policy where a lead’s POLICY_FILE points, in a sticky folder',
    async () => {
      const staging = await folder('staging', 0o755);
      await writeFile(join(staging, 'policy.yml'), 'cli: { approve: true }\n', { mode: 0o644 });
      const shared = await folder('shared', 0o1777);
      const linked = spawnSync('ln', [join(staging, 'policy.yml'), join(shared, 'policy.yml')], {
        uid: THEM,
        gid: THEM,
        encoding: 'utf8',
      });
      if (linked.status !== 0) {
        // fs.protected_hardlinks=1: a user may not link a file they neither own nor may write.
        expect(linked.stderr).toMatch(/Operation not permitted/);
        expect(existsSync(join(shared, 'policy.yml'))).toBe(false);
        return;
      }
      const deployment = await folder('deployment', 0o755);
      await database(join(deployment, 'x.db'));
      const env = { DATABASE_URL: 'sqlite:x.db', LEADS: 'U0LEAD1', POLICY_FILE: join(shared, 'policy.yml') };
      expect((await vidops(['audit', 'tail'], env, deployment)).code).toBe(2);
    },
  );
});

describe('what a careful operator gives vidops to read', () => {
  test('a lead’s own 3 GiB .env (a log written there by mistake) stops the CLI at once, naming the file', async () => {
    // Was a defect: loadEnv (src/trusted-file.ts) lets readFile's RangeError through, so the CLI says only "unexpected error:
    // RangeError [ERR_FS_FILE_TOO_LARGE]: File size (3221***5472) …" without naming .env. It should name the file and
    // what is wrong, as readPolicyFile does, ideally refusing any settings file larger than a few MiB before reading it.
    const deployment = await folder('deployment', 0o755);
    const handle = await open(join(deployment, '.env'), 'w', 0o644);
    try {
      await handle.truncate(3 * 1024 ** 3);
    } finally {
      await handle.close();
    }
    const started = Date.now();
    const result = await vidops(['audit', 'tail'], {}, deployment);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(join(deployment, '.env'));
  });

  asRoot(
    'the bot given a relative POLICY_FILE of another user’s says which folder it means, not "."',
    async () => {
      // Was a defect: readTrustedFile (src/trusted-file.ts) takes dirname() of the path as given, so for the bot's relative
      // POLICY_FILE the refusal reads "not to you, root or the owner of .". The path should be resolved first so the
      // message names the folder (and the file) a person can find.
      const deployment = await folder('deployment', 0o755);
      await writeFile(join(deployment, 'policy.yml'), 'cli: { approve: true }\n', { mode: 0o644 });
      await chown(join(deployment, 'policy.yml'), THEM, THEM);
      const before = process.cwd();
      process.chdir(deployment);
      let message = '';
      try {
        await readPolicyFile('policy.yml');
      } catch (error) {
        message = (error as Error).message;
      } finally {
        process.chdir(before);
      }
      expect(message).toContain('belongs to another user (uid 4242)');
      expect(message).toContain(`the owner of ${deployment}`);
    },
  );
});

describe('the SQLite files beside the database', () => {
  asOthers(
    'another user plants a hot rollback journal beside the database in a sticky folder: their rows do not become the log',
    async () => {
      // Was a defect: refuseOthersFiles (src/store/sqlite.ts) checks the database, -wal and -shm but not `-journal`; SQLite
      // rolls a hot journal back into the database on open (before it looks at the WAL), so another user who cannot
      // even read the database replaces its pages with theirs. `${path}-journal` should be refused like -wal and -shm.
      const shared = await folder('shared', 0o1777);
      const path = join(shared, 'vidops.db');
      await database(path, 3);
      // The other user makes a vidops database of their own with one event, then starts a change in
      // rollback-journal mode and dies: the journal holds their pages, as a crash would leave it.
      const theirs = await folder('theirs', 0o755);
      await database(join(theirs, 'x.db'), 1);
      await chown(theirs, THEM, THEM);
      await chown(join(theirs, 'x.db'), THEM, THEM);
      const crashed = nodeAs(
        { uid: THEM, gid: THEM },
        `const Database = require(${JSON.stringify(SQLITE)});
         const db = new Database(${JSON.stringify(join(theirs, 'x.db'))});
         db.pragma('journal_mode = DELETE'); db.pragma('synchronous = OFF'); db.pragma('foreign_keys = OFF');
         db.exec('BEGIN'); for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()) db.exec('DELETE FROM "' + name + '"');
         process.kill(process.pid, 'SIGKILL');`,
      );
      expect([crashed.signal, crashed.out]).toEqual(['SIGKILL', '']);
      const journal = nodeAs(
        { uid: THEM, gid: THEM },
        `require('fs').copyFileSync(${JSON.stringify(join(theirs, 'x.db-journal'))}, ${JSON.stringify(`${path}-journal`)});`,
      );
      expect(journal.status).toBe(0);
      expect((await stat(`${path}-journal`)).uid).toBe(THEM);
      const threw = await botOpens(path);
      if (threw === null) expect(await events(path)).toBe(3);
      else expect(String(threw)).toContain('-journal');
    },
  );

  asRoot(
    'another user plants vidops.db-shm in a sticky folder before the bot starts: the start stops, naming it',
    async () => {
      const shared = await folder('shared', 0o1777);
      const path = join(shared, 'vidops.db');
      await database(path);
      await writeFile(`${path}-shm`, '', { mode: 0o666 });
      await chown(`${path}-shm`, THEM, THEM);
      const threw = await botOpens(path);
      expect(String(threw)).toContain(`${path}-shm belongs to another user (uid ${THEM})`);
      expect((await stat(`${path}-shm`)).size).toBe(0);
    },
  );

  asRoot(
    'another user plants vidops.db-wal as a link to their own file in a sticky folder: the start stops',
    async () => {
      const shared = await folder('shared', 0o1777);
      const path = join(shared, 'vidops.db');
      await database(path);
      const theirs = await folder('theirs', 0o777);
      await writeFile(join(theirs, 'wal'), '', { mode: 0o666 });
      await chown(join(theirs, 'wal'), THEM, THEM);
      await symlink(join(theirs, 'wal'), `${path}-wal`);
      await lchown(`${path}-wal`, THEM, THEM);
      const threw = await botOpens(path);
      expect(String(threw)).toContain(`${path}-wal belongs to another user (uid ${THEM})`);
      expect((await stat(join(theirs, 'wal'))).size).toBe(0);
    },
  );

  test('a database in a sticky folder anyone may write opens; in one without the sticky bit it does not', async () => {
    const sticky = await folder('sticky', 0o1777);
    expect(await botOpens(join(sticky, 'vidops.db'))).toBeNull();
    const open777 = await folder('open', 0o777);
    const threw = await botOpens(join(open777, 'vidops.db'));
    expect(String(threw)).toContain(`the folder ${open777} may be written by other users (mode 777)`);
    expect(String(threw)).toContain(`chmod o-w ${open777}`);
    expect(existsSync(join(open777, 'vidops.db'))).toBe(false);
  });

  test('an operator keeps the data folder on a volume through a link of their own: the bot starts', async () => {
    // Was a defect: refuseOthersFiles (src/store/sqlite.ts) lstat()s the folder, and a link's mode is always 777, so a data
    // folder that is a link (to a mounted volume) is refused as "may be written by other users (mode 777)" with a
    // chmod that cannot help. The folder should be judged by what it is (stat), and the link by who made it.
    const volume = await folder('volume/vidops-data', 0o770);
    const deployment = await folder('deployment', 0o755);
    await symlink(volume, join(deployment, 'data'));
    const threw = await botOpens(join(deployment, 'data', 'vidops.db'));
    expect(threw).toBeNull();
  });

  asRoot(
    'another user makes the folder DATABASE_URL names in a sticky /tmp before the bot first starts, then swaps in their own database',
    async () => {
      // Was a defect: the database "may belong to the owner of its folder" (refuseOthersFiles, src/store/sqlite.ts), but that
      // folder sits in a sticky folder anyone may make folders in, so whoever made it first owns it and may replace the
      // database with theirs. The folder's owner should be trusted only when its own folder is not writable by others.
      const tmp = await folder('tmp', 0o1777);
      const made = nodeAs(
        { uid: THEM, gid: THEM },
        `require('fs').mkdirSync(${JSON.stringify(join(tmp, 'vidops'))}, { mode: 0o755 });`,
      );
      expect(made.status).toBe(0);
      const path = join(tmp, 'vidops', 'vidops.db');
      // The bot's first start already finds the folder theirs, before any database is made.
      const threw = await botOpens(path);
      expect(String(threw)).toContain('belongs to another user (uid 4242)');
    },
  );
});

describe('a database shared with the CLI through a group, as docs/security.md says', () => {
  /** The bot's deployment: its folder, the data folder 0770 and the database 0660, the bot's user's, group GROUP. */
  async function deployment(): Promise<{ deployment: string; path: string }> {
    const deploymentFolder = await folder('deployment', 0o755);
    await chown(deploymentFolder, BOT, GROUP);
    const data = join(deploymentFolder, 'data');
    const path = join(data, 'vidops.db');
    await database(path, 3);
    await chown(data, BOT, GROUP);
    await chmod(data, 0o770);
    for (const name of await readdir(data)) await chown(join(data, name), BOT, GROUP);
    await chmod(path, 0o660);
    return { deployment: deploymentFolder, path };
  }

  asOthers(
    'a lead in the database’s group runs the CLI on the bot’s database',
    async () => {
      const { deployment: cwd } = await deployment();
      const ended = await child('src/cli/main.ts', ['audit', 'tail'], {
        cwd,
        env: { DATABASE_URL: 'sqlite:data/vidops.db' },
        user: { uid: THEM, gid: GROUP },
        timeoutMs: 12_000,
      });
      expect(ended.stderr).toBe('');
      expect(ended.code).toBe(0);
      expect(ended.stdout).toContain('unblocked');
    },
    15_000,
  );

  asOthers(
    'a lead’s CLI dies mid-command and leaves its WAL: the bot’s user can still open the database',
    async () => {
      // Was a defect: SQLite makes -wal and -shm as the user whose process opened the database first, so a lead of the group
      // whose CLI was killed (or ran while the bot was stopped) leaves files refuseOthersFiles (src/store/sqlite.ts)
      // then refuses to the bot: the documented group sharing stops the start. -wal/-shm made by a member of the
      // database file's group, in a folder only owner and group may write, should be taken.
      const { deployment: cwd, path } = await deployment();
      const died = nodeAs(
        { uid: THEM, gid: GROUP },
        `const Database = require(${JSON.stringify(SQLITE)});
         const db = new Database(${JSON.stringify(path)});
         db.prepare('SELECT count(*) FROM sqlite_master').get();
         process.kill(process.pid, 'SIGKILL');`,
      );
      expect(died.signal).toBe('SIGKILL');
      expect((await stat(`${path}-wal`)).uid).toBe(THEM);
      const ended = await child('src/cli/main.ts', ['audit', 'tail'], {
        cwd,
        env: { DATABASE_URL: 'sqlite:data/vidops.db' },
        user: { uid: BOT, gid: GROUP },
        timeoutMs: 12_000,
      });
      expect(ended.stderr).not.toContain('belongs to another user');
      expect(ended.code).toBe(0);
    },
    15_000,
  );

  asOthers(
    'a second lead of the group runs the CLI while the first one’s long command holds the database, with the bot stopped',
    async () => {
      // Was a defect: the first lead's process made -wal and -shm (owned by them), and refuseOthersFiles (src/store/sqlite.ts)
      // refuses them to the second lead although both are in the group the docs share the database with. Files of the
      // database's group in a folder only owner and group may write should be taken.
      const { deployment: cwd, path } = await deployment();
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `const Database = require(${JSON.stringify(SQLITE)});
           const db = new Database(${JSON.stringify(path)});
           db.prepare('SELECT count(*) FROM sqlite_master').get();
           process.stdout.write('ready\\n'); setTimeout(() => {}, 20000);`,
        ],
        { uid: THEM, gid: GROUP, stdio: ['ignore', 'pipe', 'ignore'] },
      );
      try {
        await new Promise<void>((ready, failed) => {
          holder.stdout.on('data', () => ready());
          holder.on('exit', () => failed(new Error('the first lead’s process ended early')));
        });
        const ended = await child('src/cli/main.ts', ['audit', 'tail'], {
          cwd,
          env: { DATABASE_URL: 'sqlite:data/vidops.db' },
          user: { uid: LEAD_B, gid: GROUP },
          timeoutMs: 12_000,
        });
        expect(ended.stderr).not.toContain('belongs to another user');
        expect(ended.code).toBe(0);
      } finally {
        holder.kill('SIGKILL');
      }
    },
    15_000,
  );
});

describe('a deployment’s .env, for the CLI and for npm start', () => {
  asOthers(
    'a lead runs the CLI in the deployment’s folder, whose .env its deploy user owns',
    async () => {
      const deployment = await folder('deployment', 0o755);
      await chown(deployment, BOT, BOT);
      await writeFile(join(deployment, '.env'), 'DATABASE_URL=sqlite:from-dotenv.db\n', { mode: 0o644 });
      await chown(join(deployment, '.env'), BOT, BOT);
      const ended = await child('src/cli/main.ts', ['audit', 'tail'], {
        cwd: deployment,
        user: { uid: THEM, gid: THEM },
        timeoutMs: 12_000,
      });
      // Read, as the folder's owner's: the CLI looks for the database the .env names.
      expect(ended.stderr).toContain(join(deployment, 'from-dotenv.db'));
      expect(ended.stderr).not.toContain('belongs to another user');
    },
    15_000,
  );

  asOthers(
    'a lead runs the CLI in a folder whose .env a third user left: refused, even for a lead who is not root',
    async () => {
      const deployment = await folder('deployment', 0o1777);
      await chown(deployment, BOT, BOT);
      await writeFile(join(deployment, '.env'), 'DATABASE_URL=sqlite:from-dotenv.db\n', { mode: 0o644 });
      await chown(join(deployment, '.env'), LEAD_B, LEAD_B);
      const ended = await child('src/cli/main.ts', ['audit', 'tail'], {
        cwd: deployment,
        user: { uid: THEM, gid: THEM },
        timeoutMs: 12_000,
      });
      expect(ended.code).toBe(2);
      expect(ended.stderr).toContain(`${join(deployment, '.env')} belongs to another user (uid ${LEAD_B})`);
      expect(ended.stderr).not.toContain('from-dotenv.db');
    },
    15_000,
  );

  asRoot(
    'npm start in a folder where another user left .env stops with exit 1, naming the file, and starts nothing',
    async () => {
      const shared = await folder('shared', 0o1777);
      const theirs = join(dir, 'theirs.db');
      await writeFile(join(shared, '.env'), `DATABASE_URL=sqlite:${theirs}\nPORT=39717\n`, { mode: 0o644 });
      await chown(join(shared, '.env'), THEM, THEM);
      const ended = await child('src/main.ts', [], { cwd: shared, timeoutMs: 12_000 });
      expect(ended.killed).toBe(false);
      expect(ended.code).toBe(1);
      expect(ended.stderr).toContain(`${join(shared, '.env')} belongs to another user (uid ${THEM})`);
      expect(ended.stderr).toContain('remove that file');
      expect(ended.stderr).not.toContain('theirs.db');
      expect(ended.stdout).not.toContain('playground');
      expect(existsSync(theirs)).toBe(false);
    },
    15_000,
  );

  test('npm start with a .env anyone may write stops with exit 1 and the chmod that fixes it', async () => {
    // Was a defect: loadEnv (src/trusted-file.ts) refuses a .env others may write with "Run vidops from the deployment's folder,
    // or remove that file." but never the `chmod o-w` the docs promise ("naming the file, its owner or mode, and the
    // chmod that fixes it"), as readPolicyFile does for the POLICY_FILE.
    const deployment = await folder('deployment', 0o755);
    const theirs = join(dir, 'theirs.db');
    await writeFile(join(deployment, '.env'), `DATABASE_URL=sqlite:${theirs}\nPORT=39718\n`);
    await chmod(join(deployment, '.env'), 0o666);
    const ended = await child('src/main.ts', [], { cwd: deployment, timeoutMs: 12_000 });
    expect(ended.killed).toBe(false);
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain(`${join(deployment, '.env')} may be written by other users (mode 666)`);
    expect(existsSync(theirs)).toBe(false);
    expect(ended.stderr).toContain(`chmod o-w ${join(deployment, '.env')}`);
  }, 15_000);
});
