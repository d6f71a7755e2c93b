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

  /** What the page sends: its token (kept in its cookie), its Origin on a change, JSON. */
  const asPage = (): Record<string, string> => ({
    'x-vidops-token': pg.token,
    origin: new URL(pg.url).origin,
    'content-type': 'application/json',
  });
  const getJson = async (path: string) => (await fetch(`${pg.url}${path}`, { headers: asPage() })).json();

  it('serves its page on loopback and says it is not Slack', async () => {
    expect(pg.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await (await fetch(pg.openUrl)).text();
    expect(page).toContain('Local playground: this is not Slack.');
    expect(page).toContain('<script type="module" src="/static/app.js"></script>');
    expect((await fetch(`${pg.url}static/app.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${pg.url}static/../../config.ts`)).status).toBe(404);
    const workspace = (await getJson('ui/workspace')) as { personas: { id: string }[] };
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
          headers: asPage(),
          body: JSON.stringify({ user, ...body }),
        })
      ).json()) as { ok: boolean; error?: string };
    const workspace = (await getJson('ui/workspace')) as {
      shortcuts: { name: string; type: string; callbackId: string }[];
    };
    expect(workspace.shortcuts.map((s) => s.name)).toEqual(['Unblock viewer', 'Retry conversion', 'vidops']);
    expect(await post('message', { channel, text: 'شماره من ۰۹۱۲۳۴۵۶۷۸۹ است' })).toEqual({ ok: true });
    const message = pg.emulator.messages(channel).at(-1);
    const state = (await getJson(`ui/state?user=${user}&conversation=${channel}`)) as {
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

  it('a file put into a modal goes up as JSON (its bytes in base64) and reaches the emulator whole', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const answer = (await (
      await fetch(`${pg.url}ui/files`, {
        method: 'POST',
        headers: asPage(),
        body: JSON.stringify({
          user: PLAYGROUND_PEOPLE.lead.id,
          name: 'cover.png',
          mimetype: 'image/png',
          content: bytes.toString('base64'),
        }),
      })
    ).json()) as { ok: boolean; id: string; name: string };
    expect(answer).toMatchObject({ ok: true, name: 'cover.png' });
    const raw = await fetch(`${pg.url}ui/files?user=${PLAYGROUND_PEOPLE.lead.id}&name=x.png`, {
      method: 'POST',
      headers: { ...asPage(), 'content-type': 'image/png' },
      body: bytes,
    });
    expect(raw.status).toBe(403);
  });
});

describe('the playground pointed at a service by VIDEO_API_URL', () => {
  let service: Sandbox;

  beforeAll(async () => {
    service = await startSandbox({ apiKey: 'k-1', secretKey: 's-1' });
  });

  afterAll(() => service.close());

  const env = () => ({
    VIDEO_API_URL: service.url,
    VIDEO_API_KEY: 'k-1',
    VIDEO_SECRET_KEY: 's-1',
    LOG_LEVEL: 'warn',
  });

  it('is refused unless VIDOPS_PLAYGROUND=1 asks for it, and nothing is started', async () => {
    await expect(startPlayground({ env: env(), port: 0, logDestination: quiet })).rejects.toThrow(
      /VIDEO_API_URL names a service .*VIDOPS_PLAYGROUND=1/s,
    );
    await expect(
      startPlayground({ env: { LOG_LEVEL: 'warn', NODE_ENV: 'production' }, port: 0, logDestination: quiet }),
    ).rejects.toThrow(/NODE_ENV is production/);
    expect(service.requests()).toEqual([]);
  });

  it('asked for with VIDOPS_PLAYGROUND=1: says so in a warning and on the page, starts no sandbox of its own, sends the changes there, and leaves nothing behind at stop', async () => {
    const lines: string[] = [];
    const pg = await startPlayground({
      env: { ...env(), VIDOPS_PLAYGROUND: '1' },
      port: 0,
      logDestination: { write: (line: string) => lines.push(line) },
    });
    const dir = dirname(pg.config.databaseUrl.replace(/^sqlite:/, ''));
    try {
      expect(pg.sandbox).toBeUndefined();
      expect(pg.videoApi).toContain(service.url);
      expect(pg.realService).toBe(service.url);
      const warnings = lines
        .map((l) => JSON.parse(l) as { level: number; msg: string })
        .filter((l) => l.level === 40)
        .map((l) => l.msg);
      expect(warnings).toContainEqual(
        expect.stringContaining(`acts on the real video service at ${service.url}`),
      );
      const workspace = (await (
        await fetch(`${pg.url}ui/workspace`, { headers: { 'x-vidops-token': pg.token } })
      ).json()) as { realService: string | null };
      expect(workspace.realService).toBe(service.url);
      const page = await (await fetch(pg.openUrl)).text();
      expect(page).toContain('id="real-service"');
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
