import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { loadConfig } from './config.js';
import { ConfigError } from './core/errors.js';
import { chooseStart } from './playground/mode.js';
import { loadEnv } from './trusted-file.js';

/**
 * `<NAME>_FILE`: a variable's value from a file, as Docker and compose secrets give it.
 * @see docs/operations.md, "Run it with the image and compose"
 */

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vidops-secrets-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function secret(name: string, text: string, mode = 0o600): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  await chmod(file, mode);
  return file;
}

async function problemsOf(promise: Promise<unknown>): Promise<readonly string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error instanceof ConfigError ? error.problems : [];
}

const rest = {
  VIDEO_API_URL: 'https://video.example.com',
  AUDIT_CHANNEL: 'C0AUDIT',
  LEADS: 'U0LEAD1',
  NODE_ENV: 'production',
};

describe('operator gives secrets as files', () => {
  test('the token, the keys and the database URL are read from their files, the newline dropped', async () => {
    const env = await loadEnv(
      {
        ...rest,
        SLACK_BOT_TOKEN_FILE: await secret('token', 'xoxb-from-a-file\n'),
        SLACK_SIGNING_SECRET_FILE: await secret('signing', 'signing-from-a-file\r\n'),
        VIDEO_API_KEY_FILE: await secret('api', 'api-key-from-a-file'),
        VIDEO_SECRET_KEY_FILE: await secret('secret', 'secret-key-from-a-file\n'),
        DATABASE_URL_FILE: await secret('db', 'postgres://vidops:pw@db:5432/vidops\n\n'),
      },
      dir,
    );
    expect(chooseStart(env)).toEqual({ kind: 'app' });
    const config = loadConfig(env);
    expect(config.slack.botToken).toBe('xoxb-from-a-file');
    expect(config.slack.signingSecret).toBe('signing-from-a-file');
    expect(config.video).toMatchObject({
      apiKey: 'api-key-from-a-file',
      secretKey: 'secret-key-from-a-file',
    });
    expect(config.databaseUrl).toBe('postgres://vidops:pw@db:5432/vidops');
  });

  test('a _FILE variable written in .env is read too', async () => {
    const token = await secret('token', 'xoxb-from-a-file\n');
    await writeFile(join(dir, '.env'), `SLACK_BOT_TOKEN_FILE=${token}\n`, { mode: 0o600 });
    expect((await loadEnv({}, dir)).SLACK_BOT_TOKEN).toBe('xoxb-from-a-file');
  });

  test('a variable given both ways is refused, naming both', async () => {
    const problems = await problemsOf(
      loadEnv({ SLACK_BOT_TOKEN: 'xoxb-inline', SLACK_BOT_TOKEN_FILE: await secret('t', 'xoxb-file') }, dir),
    );
    expect(problems).toEqual(['SLACK_BOT_TOKEN and SLACK_BOT_TOKEN_FILE are both set; keep one']);
  });

  test('a missing file and one anyone may write are each named, and nothing of their contents is said', async () => {
    const open = await secret('open', 'secret-nobody-may-see', 0o666);
    const problems = await problemsOf(
      loadEnv({ VIDEO_API_KEY_FILE: join(dir, 'absent'), VIDEO_SECRET_KEY_FILE: open }, dir),
    );
    expect(problems).toEqual([
      `VIDEO_API_KEY_FILE: ${join(dir, 'absent')} does not exist`,
      `VIDEO_SECRET_KEY_FILE: ${open} may be written by other users (mode 666)`,
    ]);
    expect(problems.join('\n')).not.toContain('secret-nobody-may-see');
  });

  test('a name that is not a variable of vidops is left alone', async () => {
    const env = await loadEnv({ AUDIT_SIGNING_KEY_FILE: '/keys/absent.key', OTHER_FILE: '/absent' }, dir);
    expect(env).toEqual({ AUDIT_SIGNING_KEY_FILE: '/keys/absent.key', OTHER_FILE: '/absent' });
  });
});
