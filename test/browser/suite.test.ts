import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `npm test` runs the browser suite (`npm run test:browser`, test/browser/playground.ts) when a
 * browser is installed: Debian's chromium at /usr/bin/chromium, or CHROMIUM_PATH. `.ci/run`
 * installs it and runs the suite on its own (VIDOPS_BROWSER_SUITE=separate keeps it out of
 * `npm test` there, so it runs once).
 * @see docs/architecture.md, "Emulator and playground"
 */

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const separate = process.env.VIDOPS_BROWSER_SUITE === 'separate';
const here = existsSync(CHROMIUM) && !separate;
const why = separate ? 'run on its own (VIDOPS_BROWSER_SUITE=separate)' : `no browser at ${CHROMIUM}`;

(here ? it : it.skip)(
  here
    ? 'a person does every step of an approval in the playground, in a real browser'
    : `the browser suite (${why})`,
  async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/browser/playground.ts'], {
      cwd: ROOT,
      env: { ...process.env, CHROMIUM_PATH: CHROMIUM },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`npm run test:browser failed (exit ${code}):\n${output}`);
    expect(output).toMatch(/\nbrowser: (\d+) passed, 0 failed\n/);
  },
  180_000,
);
