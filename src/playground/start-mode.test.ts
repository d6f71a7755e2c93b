import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'dotenv';
import { chooseStart } from './mode.js';

/**
 * Which `npm start` runs: the real app, the playground, or neither. A playground acts as anyone,
 * leads included, so it never stands in for a production host whose Slack secrets did not load,
 * nor acts on a real video service unless someone asked for exactly that; and a production start
 * does not even load its code.
 * @see docs/architecture.md, "Emulator and playground"
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
const MAIN = join(ROOT, 'src', 'main.ts');

describe('npm start with no Slack settings', () => {
  it('a fresh clone and an unfilled copy of .env.example open the playground with its own sandbox', () => {
    expect(chooseStart({})).toEqual({ kind: 'playground', realService: undefined, production: false });
    const example = parse(readFileSync(new URL('../../.env.example', import.meta.url), 'utf8'));
    expect(chooseStart(example)).toMatchObject({ kind: 'playground', realService: undefined });
  });

  it('with NODE_ENV=production it refuses and names the missing Slack variables', () => {
    const choice = chooseStart({ NODE_ENV: 'production' });
    expect(choice.kind).toBe('refused');
    const said = choice.kind === 'refused' ? choice.problems.join('\n') : '';
    expect(said).toContain('NODE_ENV is production');
    expect(said).toContain('SLACK_BOT_TOKEN');
    expect(said).toContain('SLACK_SIGNING_SECRET');
    expect(said).toContain('SLACK_APP_TOKEN');
    expect(said).toContain('VIDOPS_PLAYGROUND=1');
  });

  it('with VIDEO_API_URL naming a service it refuses unless VIDOPS_PLAYGROUND=1 asks for it', () => {
    const env = { VIDEO_API_URL: 'http://example.invalid' };
    const refused = chooseStart(env);
    expect(refused.kind).toBe('refused');
    expect(refused.kind === 'refused' ? refused.problems.join('\n') : '').toContain('http://example.invalid');
    expect(chooseStart({ ...env, VIDOPS_PLAYGROUND: '0' }).kind).toBe('refused');
    expect(chooseStart({ ...env, VIDOPS_PLAYGROUND: '1' })).toEqual({
      kind: 'playground',
      realService: 'http://example.invalid',
      production: false,
    });
  });

  it('in production even VIDOPS_PLAYGROUND=1 is needed, and is enough', () => {
    expect(chooseStart({ NODE_ENV: 'production', VIDOPS_PLAYGROUND: '1' })).toEqual({
      kind: 'playground',
      realService: undefined,
      production: true,
    });
  });

  it('a VIDOPS_PLAYGROUND that is neither 1 nor 0 is refused, not guessed', () => {
    const choice = chooseStart({ VIDOPS_PLAYGROUND: 'yes' });
    expect(choice.kind).toBe('refused');
    expect(choice.kind === 'refused' ? choice.problems.join('\n') : '').toContain('VIDOPS_PLAYGROUND');
  });

  it('one real Slack value runs the real app, whatever VIDOPS_PLAYGROUND says', () => {
    expect(chooseStart({ SLACK_BOT_TOKEN: 'xoxb-1-2-real', NODE_ENV: 'production' })).toEqual({
      kind: 'app',
    });
    expect(chooseStart({ SLACK_APP_TOKEN: 'xapp-1-real', VIDOPS_PLAYGROUND: '1' })).toEqual({ kind: 'app' });
  });
});

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/** `npm start`'s entry (under tsx) in an empty directory, with only the given variables. */
async function start(dir: string, vars: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ['--import', TSX, MAIN], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, PORT: '0', LOG_LEVEL: 'warn', ...vars },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** Waits for `pattern` on stdout, or fails with what was printed if the process exits first. */
async function printed(run: Run, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = pattern.exec(run.out());
    if (found !== null) return found;
    if (run.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`not printed: ${pattern}\nstdout:\n${run.out()}\nstderr:\n${run.err()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The exit code, or `'still running'` (then stopped) when the process did not end in time. */
async function finished(run: Run, timeoutMs = 15_000): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((resolve) => {
    timer = setTimeout(() => resolve('still running'), timeoutMs);
  });
  const result = await Promise.race([run.exited, late]);
  clearTimeout(timer);
  if (result === 'still running') await stop(run);
  return result;
}

async function stop(run: Run): Promise<void> {
  if (run.child.exitCode === null) {
    run.child.kill('SIGTERM');
    await run.exited;
  }
}

/** A module hook that writes down every module resolved, one URL a line, to LOADED_LOG. */
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.LOADED_LOG, result.url + '\\n');
  return result;
}
`;

/** The modules `src/main.ts` loads with `vars`, as file paths under the project; and its exit code. */
async function modulesLoaded(
  dir: string,
  vars: Record<string, string>,
): Promise<{ code: number | null; loaded: string[] }> {
  const log = join(dir, 'loaded.txt');
  await writeFile(log, '');
  await writeFile(join(dir, 'hooks.mjs'), HOOKS);
  await writeFile(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
  );
  const child = spawn(process.execPath, ['--import', TSX, '--import', join(dir, 'register.mjs'), MAIN], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, LOADED_LOG: log, LOG_LEVEL: 'warn', ...vars },
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const loaded = (await readFile(log, 'utf8'))
    .split('\n')
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url))
    .filter((path) => path.startsWith(ROOT) && !path.includes('node_modules'))
    .map((path) => path.slice(ROOT.length));
  return { code, loaded: [...new Set(loaded)].sort() };
}

/** A real service and its keys, as a `.env` would hold them. */
const SERVICE = { VIDEO_API_URL: 'http://example.invalid', VIDEO_API_KEY: 'k-1', VIDEO_SECRET_KEY: 's-1' };

describe("npm start's entry point", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vidops-start-'));
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('with NODE_ENV=production and no Slack variables exits 1 naming them, and serves nothing', async () => {
    const run = await start(dir, { NODE_ENV: 'production' });
    const code = await finished(run);
    expect({ code, stdout: run.out() }).toEqual({ code: 1, stdout: '' });
    expect(run.err()).toContain('SLACK_BOT_TOKEN');
    expect(run.err()).toContain('SLACK_SIGNING_SECRET');
  });

  it('with VIDEO_API_URL=http://example.invalid and no VIDOPS_PLAYGROUND exits 1 and says how to ask for it', async () => {
    const run = await start(dir, { ...SERVICE });
    const code = await finished(run);
    expect({ code, stdout: run.out() }).toEqual({ code: 1, stdout: '' });
    expect(run.err()).toContain('VIDOPS_PLAYGROUND=1');
    expect(run.err()).toContain('SLACK_BOT_TOKEN');
  });

  it('with VIDOPS_PLAYGROUND=1 the playground starts against the service and says so loudly', async () => {
    const run = await start(dir, { ...SERVICE, VIDOPS_PLAYGROUND: '1' });
    try {
      await printed(run, /vidops playground: open http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}\n/);
      expect(run.out()).toMatch(/WARNING.*real video service at http:\/\/example\.invalid/);
      // The log line, at warn level: shown even with LOG_LEVEL=warn.
      expect(run.out()).toMatch(/"level":40.*acts on the real video service at http:\/\/example\.invalid/);
    } finally {
      await stop(run);
    }
  });

  it("a newcomer's start with no settings at all opens the playground and prints its address with the token", async () => {
    const run = await start(dir, {});
    try {
      await printed(run, /vidops playground: open http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}\n/);
      expect(run.out()).not.toContain('WARNING');
    } finally {
      await stop(run);
    }
  });

  // The playground (the emulator and the sandbox, some 6,000 lines) is code for a developer's
  // computer. One real Slack value chooses the real app, which then fails on the configuration it
  // lacks: by then the whole static import graph of src/main.ts was loaded.
  it('a production start loads no module of the emulator, the sandbox or the playground start', async () => {
    const { code, loaded } = await modulesLoaded(dir, {
      SLACK_BOT_TOKEN: 'xoxb-1-2-real',
      NODE_ENV: 'production',
    });
    expect(code).toBe(1);
    expect(loaded).toEqual(expect.arrayContaining(['src/main.ts', 'src/app.ts', 'src/playground/mode.ts']));
    const playground = loaded.filter(
      (path) =>
        path.startsWith('src/emulator/') ||
        path.startsWith('src/sandbox/') ||
        path === 'src/playground/start.ts',
    );
    expect(playground).toEqual([]);
  });
});
