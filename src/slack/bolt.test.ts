import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP = join(ROOT, 'src/slack/app.ts');

/**
 * What `then` (CommonJS, given `require`) writes after vidops' Slack app module was imported, in
 * a fresh process run by tsx, where `require.cache` lists every CommonJS module loaded (Bolt's are).
 */
async function afterImportingTheApp(then: string): Promise<string> {
  const script = `import(${JSON.stringify(APP)}).then(() => { ${then} });`;
  const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules/.bin/tsx'), ['--eval', script], {
    cwd: ROOT,
  });
  return stdout;
}

describe('the Bolt vidops runs', () => {
  it('is loaded without the receivers this process does not use, so every process holds less', async () => {
    const loaded = JSON.parse(
      await afterImportingTheApp(`
        const names = new Set(Object.keys(require.cache)
          .map((path) => path.split('/node_modules/').pop().split('/'))
          .map((parts) => (parts[0].startsWith('@') ? parts[0] + '/' + parts[1] : parts[0])));
        process.stdout.write(JSON.stringify([...names]));
      `),
    ) as string[];
    // Bolt and its Web API client are there; Express (Bolt's ExpressReceiver) never is.
    expect(loaded).toEqual(expect.arrayContaining(['@slack/bolt', '@slack/web-api']));
    expect(loaded).not.toContain('express');
    expect(loaded).not.toContain('body-parser');
    // Socket Mode's client (and undici with it) waits until a Socket Mode receiver is made.
    expect(loaded).not.toContain('@slack/socket-mode');
    expect(loaded).not.toContain('undici');
  }, 60_000);

  it("still hands Bolt's index the real Socket Mode receiver when something loads the index later", async () => {
    const said = await afterImportingTheApp(`
      const fromIndex = require('@slack/bolt').SocketModeReceiver;
      const own = require('@slack/bolt/dist/receivers/SocketModeReceiver.js').default;
      process.stdout.write(JSON.stringify({ same: fromIndex === own, name: own.name,
        loaded: Object.keys(require.cache).some((p) => p.includes('/@slack/socket-mode/')) }));
    `);
    expect(JSON.parse(said)).toEqual({ same: true, name: 'SocketModeReceiver', loaded: true });
  }, 60_000);
});
