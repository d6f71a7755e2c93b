import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { createHasher } from '../../src/core/audit-chain.js';
import { type Emulator, startEmulator } from '../../src/emulator/emulator.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { openStore } from '../../src/store/index.js';

/**
 * `npm start` (src/main.ts, through tsx) as an operator runs it on a host: a port someone else
 * holds, a container that passes empty variables next to a filled-in `.env`, a database that
 * cannot be reached, a database a newer vidops migrated. Each must end in one message that names
 * the setting, with no secret in it.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LOADER = `file://${ROOT}/node_modules/tsx/dist/loader.mjs`;
const MAIN = join(ROOT, 'src', 'main.ts');

interface Ended {
  code: number | null;
  killed: boolean;
  stdout: string;
  stderr: string;
}

function start(cwd: string, env: Record<string, string>, timeoutMs: number): Promise<Ended> {
  return new Promise((done) => {
    const proc = spawn(process.execPath, ['--import', LOADER, MAIN], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    proc.stdout.on('data', (chunk) => (stdout += String(chunk)));
    proc.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const timer = setTimeout(() => {
      killed = true;
      if (proc.pid !== undefined) process.kill(-proc.pid, 'SIGKILL');
    }, timeoutMs);
    proc.on('close', (code) => {
      clearTimeout(timer);
      done({ code, killed, stdout, stderr });
    });
  });
}

let slack: Emulator;
let video: Sandbox;
let dir: string;

beforeAll(async () => {
  slack = await startEmulator({});
  video = await startSandbox({});
  dir = await mkdtemp(join(tmpdir(), 'vidops-startup-'));
  await chmod(dir, 0o755);
});

afterAll(async () => {
  await slack.close();
  await video.close();
  await rm(dir, { recursive: true, force: true });
});

function configured(): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: slack.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    VIDEO_API_URL: video.url,
    VIDEO_API_KEY: 'demo-api-key',
    VIDEO_SECRET_KEY: 'demo-secret-key',
    AUDIT_CHANNEL: 'C0AUDIT',
    LEADS: 'U0LEAD1',
    DATABASE_URL: `sqlite:${join(dir, 'vidops.db')}`,
  };
}

describe('an operator runs npm start on a host', () => {
  it('an operator starting the bot on a port another service holds is told PORT is taken and how to choose one', async () => {
    // The playground says "The playground's port 3000 is taken; set PORT to a free one"; the bot
    // itself only prints Node's "listen EADDRINUSE: address already in use :::PORT".
    const holder: Server = createServer();
    await new Promise<void>((ready) => holder.listen(0, '0.0.0.0', ready));
    const address = holder.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const ended = await start(dir, { ...configured(), PORT: String(port) }, 20_000);
      expect(ended.killed).toBe(false);
      expect(ended.code).toBe(1);
      expect(ended.stderr).toContain(`port ${port} is taken`);
      expect(ended.stderr).toContain('PORT');
    } finally {
      await new Promise<void>((closed) => holder.close(() => closed()));
    }
  }, 30_000);

  it('a container that passes SLACK_BOT_TOKEN= empty beside a filled-in .env does not open the playground', async () => {
    // docker compose's `SLACK_BOT_TOKEN: ${SLACK_BOT_TOKEN}` with the host variable unset passes an
    // empty value. loadEnv lets any environment value, blank included, beat .env (undocumented),
    // so a deployment whose .env holds the real tokens and service serves the playground page,
    // which acts as anyone, leads included, on port 3000.
    const deployment = await mkdtemp(join(dir, 'deployment-'));
    await chmod(deployment, 0o755);
    const real = {
      ...configured(),
      SLACK_BOT_TOKEN: 'xoxb-real-token-from-dotenv',
      SLACK_SIGNING_SECRET: 'real-signing-secret',
      VIDEO_API_URL: 'https://video.example.invalid',
      VIDEO_API_KEY: 'real-api-key',
      VIDEO_SECRET_KEY: 'real-secret-key',
      DATABASE_URL: `sqlite:${join(deployment, 'vidops.db')}`,
      PORT: '0',
    };
    await writeFile(
      join(deployment, '.env'),
      Object.entries(real)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
      { mode: 0o600 },
    );
    const ended = await start(
      deployment,
      { SLACK_BOT_TOKEN: '', SLACK_SIGNING_SECRET: '', VIDEO_API_URL: '', PORT: '0' },
      8_000,
    );
    expect(ended.stdout).not.toContain('vidops playground');
  }, 20_000);

  it('an operator starts an older vidops on a database a newer one migrated: exit 1, said plainly, nothing changed', async () => {
    const file = join(dir, 'newer.db');
    await (await openStore(`sqlite:${file}`, { hash: createHasher() })).close();
    const db = new Database(file);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9001, 'newer', 'x')").run();
    const before = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    db.close();
    const ended = await start(dir, { ...configured(), PORT: '0', DATABASE_URL: `sqlite:${file}` }, 20_000);
    expect(ended.killed).toBe(false);
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain('The database was written by a newer vidops');
    expect(ended.stderr).toContain('schema version 9001');
    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual(before);
    after.close();
  }, 30_000);

  it('a PostgreSQL DATABASE_URL nobody answers at stops with exit 1 and never prints its password', async () => {
    const ended = await start(
      dir,
      { ...configured(), PORT: '0', DATABASE_URL: 'postgres://vidops:Hunter2Secret@127.0.0.1:1/vidops' },
      20_000,
    );
    expect(ended.killed).toBe(false);
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain('vidops could not start');
    expect(`${ended.stdout}${ended.stderr}`).not.toContain('Hunter2Secret');
  }, 30_000);
});
