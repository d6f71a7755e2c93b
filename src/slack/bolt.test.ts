import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The packages under node_modules that loading `module` brings in, read in a fresh process. */
async function packagesLoadedBy(module: string): Promise<string[]> {
  // Run as CommonJS by tsx, where `require.cache` lists every CommonJS module loaded (Bolt's are).
  const script = `
    import(${JSON.stringify(module)}).then(() => {
      const names = new Set(Object.keys(require.cache)
        .map((path) => path.split('/node_modules/').pop().split('/'))
        .map((parts) => (parts[0].startsWith('@') ? parts[0] + '/' + parts[1] : parts[0])));
      process.stdout.write(JSON.stringify([...names]));
    });
  `;
  const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules/.bin/tsx'), ['--eval', script], {
    cwd: ROOT,
  });
  return JSON.parse(stdout) as string[];
}

describe('the Bolt vidops runs', () => {
  it('is loaded without the receivers vidops never uses, so every process holds less', async () => {
    const loaded = await packagesLoadedBy(join(ROOT, 'src/slack/app.ts'));
    // Bolt and its Web API client are there; Express (Bolt's ExpressReceiver) is not.
    expect(loaded).toEqual(expect.arrayContaining(['@slack/bolt', '@slack/web-api']));
    expect(loaded).not.toContain('express');
    expect(loaded).not.toContain('body-parser');
  }, 60_000);
});
