import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse } from 'dotenv';
import { personOf } from '../emulator/index.js';
import { DEMO } from '../sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../sandbox/server.js';
import { wantsPlayground } from './mode.js';
import { PLAYGROUND_CHANNELS, PLAYGROUND_PEOPLE, type Playground, startPlayground } from './start.js';

/**
 * `npm start` with no Slack workspace: when it opens the playground instead of the real app, and
 * what a person finds there: the page, the personas the configuration names, the real vidops
 * answering over Socket Mode, data that goes away at stop.
 * @see docs/architecture.md, "Emulator and playground"
 */

const quiet = { write: () => {} };

/** Resolves once `probe` gives a value (bounded). */
async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('npm start decides between the playground and the real app', () => {
  it('a fresh clone (no Slack variables) and a copy of .env.example not yet filled in open the playground', () => {
    expect(wantsPlayground({})).toBe(true);
    const example = parse(readFileSync(new URL('../../.env.example', import.meta.url), 'utf8'));
    expect(wantsPlayground(example)).toBe(true);
    expect(wantsPlayground({ SLACK_BOT_TOKEN: '  ', SLACK_SIGNING_SECRET: '' })).toBe(true);
  });

  it('one real Slack value runs the real app (which then says what else it needs)', () => {
    expect(wantsPlayground({ SLACK_BOT_TOKEN: 'xoxb-1-2-real' })).toBe(false);
    expect(wantsPlayground({ SLACK_APP_TOKEN: 'xapp-1-real' })).toBe(false);
    expect(
      wantsPlayground({ SLACK_BOT_TOKEN: 'xoxb-your-bot-token', SLACK_SIGNING_SECRET: 'a-real-secret' }),
    ).toBe(false);
  });
});

describe('the playground', () => {
  let pg: Playground;

  beforeAll(async () => {
    pg = await startPlayground({ env: { LOG_LEVEL: 'warn' }, port: 0, logDestination: quiet });
  });

  afterAll(() => pg.stop());

  it('serves its page on loopback and says it is not Slack', async () => {
    expect(pg.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await (await fetch(pg.url)).text();
    expect(page).toContain('Local playground: this is not Slack.');
    expect(page).toContain('<script type="module" src="/static/app.js"></script>');
    expect((await fetch(`${pg.url}static/app.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${pg.url}static/../../config.ts`)).status).toBe(404);
    const workspace = (await (await fetch(`${pg.url}ui/workspace`)).json()) as { personas: { id: string }[] };
    expect(workspace.personas.map((p) => p.id)).toEqual(Object.values(PLAYGROUND_PEOPLE).map((p) => p.id));
  });

  it('runs the real vidops in Socket Mode with random local credentials and its own sandbox', () => {
    expect(pg.config.slack.socketMode).toBe(true);
    expect(pg.config.slack.apiUrl).toBe(pg.emulator.apiUrl);
    expect(pg.config.slack.appToken).toBe(pg.emulator.appToken);
    expect(pg.config.slack.botToken).toMatch(/^xoxb-[0-9a-f]{8}-/);
    expect(pg.emulator.socketMode.connections).toBe(1);
    expect(pg.sandbox?.url).toBe(pg.config.video.url);
    expect(pg.config.databaseUrl).toMatch(/^sqlite:.*vidops-playground-.*playground\.db$/);
  });

  it('names its personas in LEADS and AGENTS: the agent is answered, the outsider refused', async () => {
    expect(pg.config.leads).toEqual([PLAYGROUND_PEOPLE.lead.id, 'S0LEADS']);
    expect(pg.config.agents).toEqual([PLAYGROUND_PEOPLE.agent.id, 'S0AGENTS']);
    const channel = PLAYGROUND_CHANNELS.support.id;
    await personOf(pg.emulator, PLAYGROUND_PEOPLE.agent2.id).command(`retry ${DEMO.files.lecture3}`, {
      channel,
    });
    await personOf(pg.emulator, PLAYGROUND_PEOPLE.outsider.id).command('help', { channel });
    const agentReply = await until(
      () => pg.emulator.ephemerals(PLAYGROUND_PEOPLE.agent2.id, channel).find((e) => e.from === 'app'),
      "the agent's reply",
    );
    expect(JSON.stringify(agentReply)).toContain('queued again');
    const outsiderReply = await until(
      () => pg.emulator.ephemerals(PLAYGROUND_PEOPLE.outsider.id, channel).find((e) => e.from === 'app'),
      "the outsider's reply",
    );
    expect(JSON.stringify(outsiderReply)).toContain('vidops is only for the support team');
    expect(JSON.stringify(outsiderReply)).not.toContain('queued');
  });

  it('a message shows its "More actions" button; "Unblock viewer" run from the page opens the numbers found', async () => {
    const channel = PLAYGROUND_CHANNELS.support.id;
    const user = PLAYGROUND_PEOPLE.agent.id;
    const post = async (path: string, body: object) =>
      (await (
        await fetch(`${pg.url}ui/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user, ...body }),
        })
      ).json()) as { ok: boolean; error?: string };
    const workspace = (await (await fetch(`${pg.url}ui/workspace`)).json()) as {
      shortcuts: { name: string; type: string; callbackId: string }[];
    };
    expect(workspace.shortcuts.map((s) => s.name)).toEqual(['Unblock viewer', 'Retry conversion', 'vidops']);
    expect(await post('message', { channel, text: 'شماره من ۰۹۱۲۳۴۵۶۷۸۹ است' })).toEqual({ ok: true });
    const message = pg.emulator.messages(channel).at(-1);
    const state = (await (await fetch(`${pg.url}ui/state?user=${user}&conversation=${channel}`)).json()) as {
      conversation: { html: string };
    };
    expect(state.conversation.html).toContain('data-more');
    expect(await post('shortcut', { callbackId: 'unblock_from_message', channel, ts: message?.ts })).toEqual({
      ok: true,
    });
    const modal = await until(() => pg.emulator.modalStack(user).at(-1), 'the modal of the shortcut');
    expect(JSON.stringify(modal.blocks)).toContain('`09123456789`');
    expect(await post('shortcut', { callbackId: 'no_such_shortcut' })).toMatchObject({ ok: false });
  });
});

describe('the playground pointed at a service by VIDEO_API_URL', () => {
  let service: Sandbox;

  beforeAll(async () => {
    service = await startSandbox({ apiKey: 'k-1', secretKey: 's-1' });
  });

  afterAll(() => service.close());

  it('starts no sandbox of its own, sends the changes there, and leaves nothing behind at stop', async () => {
    const pg = await startPlayground({
      env: { VIDEO_API_URL: service.url, VIDEO_API_KEY: 'k-1', VIDEO_SECRET_KEY: 's-1', LOG_LEVEL: 'warn' },
      port: 0,
      logDestination: quiet,
    });
    const dir = dirname(pg.config.databaseUrl.replace(/^sqlite:/, ''));
    try {
      expect(pg.sandbox).toBeUndefined();
      expect(pg.videoApi).toContain(service.url);
      await personOf(pg.emulator, PLAYGROUND_PEOPLE.agent.id).command('unblock 09121234567', {
        channel: PLAYGROUND_CHANNELS.support.id,
      });
      await until(
        () => service.requests().find((r) => r.path === '/v1/analysis/user/video/anomaly'),
        'the unblock at the service',
      );
      expect(existsSync(dir)).toBe(true);
    } finally {
      await pg.stop();
    }
    expect(existsSync(dir)).toBe(false);
  });
});
