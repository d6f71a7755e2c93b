import { request } from 'node:http';
import { personOf } from '../emulator/index.js';
import { PLAYGROUND_CHANNELS, PLAYGROUND_PEOPLE, type Playground, startPlayground } from './start.js';

/**
 * The playground's page acts as anyone, leads included, so only that page may drive it: a web
 * page the developer happens to visit (a forged cross-site post, a DNS-rebinding page, another
 * local page on another port) is refused before anything is read or done. Each test sends the
 * raw HTTP a browser would send (fetch cannot set `Host`), against the real server.
 * @see docs/architecture.md, "Emulator and playground"
 */

const quiet = { write: () => {} };
const ATTACKER = 'attacker.example';

interface Sent {
  method?: string;
  path: string;
  host: string;
  origin?: string;
  type?: string;
  token?: string;
  cookie?: string;
  body?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends one request as given (Host included) and reads the whole answer (an event stream: its first bytes). */
function send(port: number, sent: Sent): Promise<Answer> {
  const headers: Record<string, string> = { host: sent.host };
  if (sent.origin !== undefined) headers.origin = sent.origin;
  if (sent.type !== undefined) headers['content-type'] = sent.type;
  if (sent.token !== undefined) headers['x-vidops-token'] = sent.token;
  if (sent.cookie !== undefined) headers.cookie = sent.cookie;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: sent.method ?? 'GET', path: sent.path, headers },
      (res) => {
        let text = '';
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a web page the developer visits cannot drive the playground', () => {
  let pg: Playground;
  let port: number;
  let own: { host: string; origin: string };
  const agent = PLAYGROUND_PEOPLE.agent.id;
  const lead = PLAYGROUND_PEOPLE.lead.id;
  const support = PLAYGROUND_CHANNELS.support.id;
  const approvals = PLAYGROUND_CHANNELS.approvals.id;
  const json = 'application/json';

  beforeAll(async () => {
    pg = await startPlayground({ env: { LOG_LEVEL: 'warn' }, port: 0, logDestination: quiet });
    port = Number(new URL(pg.url).port);
    own = { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` };
  });

  afterAll(() => pg.stop());

  const whitelist = () => pg.sandbox?.state().whitelist ?? [];

  it('the reproduced attack (foreign Host and Origin, text/plain) is refused 403 and the whitelist stays as it was', async () => {
    const before = whitelist();
    const attack = { host: ATTACKER, origin: `http://${ATTACKER}`, type: 'text/plain' };
    const command = await send(port, {
      ...attack,
      method: 'POST',
      path: '/ui/command',
      body: JSON.stringify({ user: agent, channel: support, text: '/vidops whitelist add 8.8.8.8' }),
    });
    expect(command.status).toBe(403);

    // The request made for real, so that there is something for the attacker to approve.
    await personOf(pg.emulator, agent).command('whitelist add 8.8.8.8', { channel: support });
    const message = await until(
      () => pg.emulator.messages(approvals).find((m) => JSON.stringify(m.blocks).includes('request_approve')),
      'the approval request',
    );
    const approve = JSON.stringify({
      user: lead,
      actionId: 'request_approve',
      channel: approvals,
      ts: message.ts,
    });
    const tries: Sent[] = [
      { ...attack, method: 'POST', path: '/ui/action', body: approve },
      // Each fault alone is enough, even with the token in hand.
      {
        ...own,
        host: ATTACKER,
        type: json,
        token: pg.token,
        method: 'POST',
        path: '/ui/action',
        body: approve,
      },
      {
        ...own,
        origin: `http://${ATTACKER}`,
        type: json,
        token: pg.token,
        method: 'POST',
        path: '/ui/action',
        body: approve,
      },
      { ...own, type: 'text/plain', token: pg.token, method: 'POST', path: '/ui/action', body: approve },
    ];
    for (const tried of tries) expect((await send(port, tried)).status).toBe(403);
    await pause(500);
    expect(whitelist()).toEqual(before);

    // The same click from the page itself goes through: the refusals above were the guard's.
    const real = await send(port, {
      ...own,
      type: json,
      token: pg.token,
      method: 'POST',
      path: '/ui/action',
      body: approve,
    });
    expect(real.status).toBe(200);
    await until(() => (whitelist().includes('8.8.8.8') ? true : undefined), 'the approved whitelist');
  });

  it("a request with the page's own Host, Origin and JSON but no token or a wrong one is refused 403; with the token it works", async () => {
    const body = JSON.stringify({ user: agent, channel: support, text: 'hello from the page' });
    const post = { ...own, type: json, method: 'POST', path: '/ui/message', body };
    const count = () => pg.emulator.messages(support).length;
    const before = count();
    expect((await send(port, post)).status).toBe(403);
    expect((await send(port, { ...post, token: `${pg.token}x` })).status).toBe(403);
    expect((await send(port, { ...post, token: 'x'.repeat(pg.token.length) })).status).toBe(403);
    expect((await send(port, { ...post, cookie: `${pg.cookieName}=wrong` })).status).toBe(403);
    expect(count()).toBe(before);
    expect((await send(port, { ...post, token: pg.token })).status).toBe(200);
    expect((await send(port, { ...post, cookie: `${pg.cookieName}=${pg.token}` })).status).toBe(200);
    expect(count()).toBe(before + 2);

    // Reads reveal the workspace: they need the token too.
    for (const path of ['/ui/workspace', `/ui/state?user=${agent}&conversation=${support}`, '/ui/events']) {
      expect((await send(port, { ...own, path })).status).toBe(403);
      expect((await send(port, { ...own, path, token: 'wrong' })).status).toBe(403);
      expect((await send(port, { ...own, path, token: pg.token })).status).toBe(200);
    }
  });

  it('a DNS-rebinding page (Host: attacker.example:PORT) reads nothing, even holding the token', async () => {
    const foreign = `${ATTACKER}:${port}`;
    const paths = [
      `/ui/state?user=${lead}&conversation=${approvals}`,
      '/ui/workspace',
      '/ui/events',
      '/',
      `/?token=${pg.token}`,
      '/static/app.js',
      '/api/auth.test',
    ];
    for (const path of paths) {
      const answer = await send(port, { host: foreign, path, token: pg.token });
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
      expect(answer.text).not.toContain(PLAYGROUND_PEOPLE.lead.real_name);
    }
    // Another name for the same loopback address is the page's own.
    const local = await send(port, { host: `localhost:${port}`, path: '/ui/workspace', token: pg.token });
    expect(local.status).toBe(200);
    // Another port on the right address is not.
    expect(
      (await send(port, { host: `127.0.0.1:${port + 1}`, path: '/ui/workspace', token: pg.token })).status,
    ).toBe(403);
  });

  it('another page on this computer (same host, another port) cannot act, even though the browser sends it the cookie', async () => {
    const body = JSON.stringify({ user: lead, channel: support, text: 'posted by another local page' });
    const cookie = `${pg.cookieName}=${pg.token}`;
    const post = { host: own.host, type: json, cookie, method: 'POST', path: '/ui/message', body };
    const before = pg.emulator.messages(support).length;
    for (const origin of [`http://127.0.0.1:${port + 1}`, 'null', `https://127.0.0.1:${port}`, undefined]) {
      const answer = await send(port, origin === undefined ? post : { ...post, origin });
      expect({ origin, status: answer.status }).toEqual({ origin, status: 403 });
    }
    // A cross-origin read is refused as well (a browser sends its Origin on a CORS fetch).
    const read = await send(port, {
      ...own,
      origin: `http://127.0.0.1:${port + 1}`,
      cookie,
      path: '/ui/workspace',
    });
    expect(read.status).toBe(403);
    expect(pg.emulator.messages(support).length).toBe(before);
  });

  it('a body that is not application/json is refused and never parsed, even from the page with its token', async () => {
    const body = JSON.stringify({ user: agent, channel: support, text: 'sent as text/plain' });
    const before = pg.emulator.messages(support).length;
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ]) {
      const sent: Sent = { ...own, token: pg.token, method: 'POST', path: '/ui/message', body };
      const answer = await send(port, type === undefined ? sent : { ...sent, type });
      expect({ type, status: answer.status }).toEqual({ type, status: 403 });
    }
    expect(pg.emulator.messages(support).length).toBe(before);
    const withCharset = await send(port, {
      ...own,
      token: pg.token,
      type: 'application/json; charset=utf-8',
      method: 'POST',
      path: '/ui/message',
      body,
    });
    expect(withCharset.status).toBe(200);
  });

  it('the printed address carries a random token: opening it sets an HttpOnly, SameSite=Strict cookie; the page without it is refused', async () => {
    expect(pg.openUrl).toBe(`${pg.url}?token=${pg.token}`);
    expect(pg.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const opened = await send(port, { ...own, path: `/?token=${pg.token}` });
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('Local playground: this is not Slack.');
    const cookie = String(opened.headers['set-cookie']);
    expect(cookie).toContain(`${pg.cookieName}=${pg.token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(opened.headers['referrer-policy']).toBe('no-referrer');
    expect(opened.headers['x-frame-options']).toBe('DENY');

    const again = await send(port, { ...own, path: '/', cookie: `${pg.cookieName}=${pg.token}` });
    expect(again.status).toBe(200);
    const bare = await send(port, { ...own, path: '/' });
    expect(bare.status).toBe(403);
    expect(bare.text).toContain('printed');
    expect(bare.text).not.toContain(pg.token);
    expect((await send(port, { ...own, path: '/?token=wrong' })).status).toBe(403);
  });
});
