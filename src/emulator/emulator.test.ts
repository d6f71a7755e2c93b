import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { App, LogLevel, verifySlackRequest } from '@slack/bolt';
import { WebAPIHTTPError, WebAPIPlatformError, WebAPIRateLimitedError, WebClient } from '@slack/web-api';
import type { JsonValue } from '../core/json.js';
import { type Emulator, startEmulator } from './emulator.js';
import {
  appHomeOpened,
  blockAction,
  globalShortcut,
  messageAction,
  postSigned,
  sign,
  slashCommand,
  textInput,
  viewClosed,
  viewSubmission,
} from './payloads.js';
import { BOT_USER_ID, TEAM_ID } from './workspace.js';

const SECRET = 'harness-signing-secret';
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

let slack: Emulator;
let web: WebClient;

beforeAll(async () => {
  slack = await startEmulator();
  web = new WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    logLevel: LogLevel.ERROR,
  });
});

afterEach(() => slack.reset());
afterAll(() => slack.close());

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

function slackErrorCode(error: unknown): string | undefined {
  return error instanceof WebAPIPlatformError ? error.data.error : undefined;
}

/** The algorithm of docs/slack.md, written out independently of the helper under test. */
function verifiesPerReadme(
  secret: string,
  headers: Record<string, string>,
  body: string,
  nowSec: number,
): boolean {
  const ts = Number(headers['x-slack-request-timestamp']);
  if (!Number.isInteger(ts) || Math.abs(nowSec - ts) > 300) return false;
  const expected = Buffer.from(
    `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`,
    'utf8',
  );
  const given = Buffer.from(headers['x-slack-signature'] ?? '', 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('the bot posts through the emulated Web API', () => {
  it('an approval message gets a ts that increases per channel and is kept as posted', async () => {
    const first = await web.chat.postMessage({
      channel: 'C0APPROVE',
      text: 'Approval needed',
      blocks: [section('hi')],
    });
    const second = await web.chat.postMessage({ channel: 'C0APPROVE', text: 'Second' });
    const elsewhere = await web.chat.postMessage({ channel: 'C0AUDIT', text: 'audit' });

    expect(first.ok).toBe(true);
    expect(first.ts).toMatch(/^\d+\.\d{6}$/);
    expect(Number(second.ts)).toBeGreaterThan(Number(first.ts));
    expect(elsewhere.channel).toBe('C0AUDIT');
    expect(slack.message('C0APPROVE', first.ts ?? '')).toMatchObject({
      text: 'Approval needed',
      blocks: [section('hi')],
    });
    const [call] = slack.callsTo('chat.postMessage');
    expect(call?.args).toEqual({ channel: 'C0APPROVE', text: 'Approval needed', blocks: [section('hi')] });
    expect(slack.warnings).toEqual([]);
  });

  it('a message whose blocks break a Block Kit limit is refused with invalid_blocks', async () => {
    const error = await rejection(
      web.chat.postMessage({ channel: 'C0APPROVE', text: 'too long', blocks: [section('x'.repeat(3001))] }),
    );
    expect(slackErrorCode(error)).toBe('invalid_blocks');
    expect(error).toMatchObject({ data: { errors: ['blocks[0].text.text: 3001 chars > 3000'] } });
    expect(slack.messages('C0APPROVE')).toEqual([]);
  });

  it('blocks without a text fallback are accepted with a warning', async () => {
    const result = await web.chat.postMessage({ channel: 'C0AUDIT', blocks: [section('event')] });
    expect(result.ok).toBe(true);
    expect(slack.warnings).toEqual(['chat.postMessage to C0AUDIT: blocks without a `text` fallback']);
  });

  it('an ephemeral reply gets a message_ts, is limit-checked, and cannot be updated later', async () => {
    const reply = await web.chat.postEphemeral({ channel: 'C1', user: 'U1', text: 'Unblocked 0912***6789' });
    expect(reply.message_ts).toMatch(/^\d+\.\d{6}$/);
    const tooMany = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    expect(
      slackErrorCode(
        await rejection(web.chat.postEphemeral({ channel: 'C1', user: 'U1', text: 't', blocks: tooMany })),
      ),
    ).toBe('invalid_blocks');
    const update = web.chat.update({ channel: 'C1', ts: reply.message_ts ?? '', text: 'changed' });
    expect(slackErrorCode(await rejection(update))).toBe('message_not_found');
  });

  it('a 429 surfaces as a rate-limit error with Retry-After, then the next call goes through', async () => {
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    const error = await rejection(web.chat.postMessage({ channel: 'C0AUDIT', text: 'audit event' }));
    expect(error).toBeInstanceOf(WebAPIRateLimitedError);
    expect(error instanceof WebAPIRateLimitedError && error.retryAfter).toBe(7);
    await expect(web.chat.postMessage({ channel: 'C0AUDIT', text: 'audit event' })).resolves.toMatchObject({
      ok: true,
    });
    expect(slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
  });

  it.each([
    ['a 500', { status: 500 } as const, (e: unknown) => e instanceof WebAPIHTTPError && e.statusCode === 500],
    [
      'a Slack error',
      { error: 'channel_not_found' },
      (e: unknown) => slackErrorCode(e) === 'channel_not_found',
    ],
  ])('%s injected twice fails exactly the next two calls', async (_what, failure, isExpected) => {
    slack.failNext('chat.update', failure, 2);
    const posted = await web.chat.postMessage({ channel: 'C1', text: 'before' });
    const update = () => web.chat.update({ channel: 'C1', ts: posted.ts ?? '', text: 'after' });
    expect(isExpected(await rejection(update()))).toBe(true);
    expect(isExpected(await rejection(update()))).toBe(true);
    await expect(update()).resolves.toMatchObject({ ok: true, text: 'after' });
  });

  it('a wrong token is invalid_auth and an unknown method is unknown_method', async () => {
    const stranger = new WebClient('xoxb-wrong', {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      logLevel: LogLevel.ERROR,
    });
    expect(slackErrorCode(await rejection(stranger.auth.test()))).toBe('invalid_auth');
    expect(slackErrorCode(await rejection(web.apiCall('chat.teleport', {})))).toBe('unknown_method');
    await expect(web.auth.test()).resolves.toMatchObject({
      team_id: TEAM_ID,
      user_id: BOT_USER_ID,
    });
  });

  it('chat.update keeps the blocks it is not given and removes them with []', async () => {
    const posted = await web.chat.postMessage({
      channel: 'C1',
      text: 'pending',
      blocks: [section('Approve?')],
    });
    const ts = posted.ts ?? '';
    await web.chat.update({ channel: 'C1', ts, text: 'approved' });
    expect(slack.message('C1', ts)).toMatchObject({ text: 'approved', blocks: [section('Approve?')] });
    await web.chat.update({ channel: 'C1', ts, text: 'approved by <@U2>', blocks: [] });
    expect(slack.message('C1', ts)?.blocks).toEqual([]);
    const error = await rejection(web.chat.update({ channel: 'C1', ts: '1.000000', text: 'x' }));
    expect(slackErrorCode(error)).toBe('message_not_found');
  });
});

describe('waitFor', () => {
  it('resolves with a call that already arrived and with one still to come', async () => {
    await web.chat.postMessage({ channel: 'C1', text: 'first' });
    await expect(slack.waitFor('chat.postMessage')).resolves.toMatchObject({ args: { text: 'first' } });

    const later = slack.waitFor('chat.postMessage', (c) => c.args.text === 'second');
    await web.chat.postMessage({ channel: 'C1', text: 'second' });
    await expect(later).resolves.toMatchObject({
      method: 'chat.postMessage',
      args: { channel: 'C1', text: 'second' },
    });
  });

  it('rejects on timeout with the recent calls listed', async () => {
    await web.chat.postMessage({ channel: 'C1', text: 'only this' });
    const error = await rejection(slack.waitFor('views.open', undefined, 50));
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toContain('no matching views.open call within 50 ms');
    expect(String(error)).toContain('chat.postMessage → ok {"channel":"C1","text":"only this"}');
  });
});

describe('modals and the Home tab', () => {
  const modal = (title = 'Unblock viewer') => ({
    type: 'modal' as const,
    callback_id: 'unblock',
    title: { type: 'plain_text' as const, text: title },
    blocks: [section('Loading…')],
  });

  it('views.open returns a view that views.update changes, with hash checks', async () => {
    const trigger = slack.issueTrigger('U1');
    const opened = await web.views.open({
      trigger_id: trigger,
      view: { ...modal(), external_id: 'req-1' },
    });
    const view = opened.view;
    expect(view?.id).toMatch(/^V/);
    expect(view?.hash).toMatch(/^\d+\.[0-9a-f]{8}$/);

    const updated = await web.views.update({
      view_id: view?.id ?? '',
      hash: view?.hash ?? '',
      view: modal('Done'),
    });
    expect(updated.view?.id).toBe(view?.id);
    expect(slack.view(view?.id ?? '')?.title).toEqual({ type: 'plain_text', text: 'Done' });

    expect(
      slackErrorCode(
        await rejection(web.views.update({ view_id: view?.id ?? '', hash: view?.hash ?? '', view: modal() })),
      ),
    ).toBe('hash_conflict');
    await expect(
      web.views.update({ external_id: 'req-1', view: modal('By external id') }),
    ).resolves.toMatchObject({
      view: { id: view?.id },
    });
    expect(slackErrorCode(await rejection(web.views.open({ trigger_id: trigger, view: modal() })))).toBe(
      'exchanged_trigger_id',
    );
  });

  it('a modal over the limits is refused with invalid_arguments', async () => {
    const error = await rejection(
      web.views.open({ trigger_id: slack.issueTrigger('U1'), view: modal('A title much longer than 24') }),
    );
    expect(slackErrorCode(error)).toBe('invalid_arguments');
    expect(error).toMatchObject({ data: { errors: ['view.title.text: 27 chars > 24'] } });
  });

  it('views.publish keeps one Home tab per user', async () => {
    await web.views.publish({ user_id: 'U1', view: { type: 'home', blocks: [section('Your requests')] } });
    expect(slack.homeView('U1')?.blocks).toEqual([section('Your requests')]);
    expect(slack.homeView('U2')).toBeUndefined();
  });
});

describe('directory, DMs and files', () => {
  it('users.info, usergroups.users.list and conversations.open answer from what the test set', async () => {
    slack.setUsers([{ id: 'U1', name: 'sara', real_name: 'Sara Ahmadi' }]);
    slack.setUsergroup('S0LEADS', ['U1', 'U2']);
    await expect(web.users.info({ user: 'U1' })).resolves.toMatchObject({
      user: { id: 'U1', name: 'sara', real_name: 'Sara Ahmadi', profile: { display_name: 'sara' } },
    });
    expect(slackErrorCode(await rejection(web.users.info({ user: 'U9' })))).toBe('user_not_found');
    // Like Slack: the locale only when asked for, `en-US` unless the test set one.
    expect((await web.users.info({ user: 'U1' })).user).not.toHaveProperty('locale');
    expect((await web.users.info({ user: 'U1', include_locale: true })).user?.locale).toBe('en-US');
    slack.setUsers([{ id: 'U1', name: 'sara', locale: 'fa-IR' }]);
    expect((await web.users.info({ user: 'U1', include_locale: true })).user?.locale).toBe('fa-IR');
    await expect(web.usergroups.users.list({ usergroup: 'S0LEADS' })).resolves.toMatchObject({
      users: ['U1', 'U2'],
    });
    const dm = await web.conversations.open({ users: 'U1' });
    expect(dm.channel?.id).toMatch(/^D/);
    await expect(web.conversations.open({ users: 'U1' })).resolves.toMatchObject({
      channel: { id: dm.channel?.id },
    });
  });

  it('a cover image is described by files.info and downloadable only with the bot token', async () => {
    slack.setFiles([
      { id: 'F1', name: 'cover.png', mimetype: 'image/png', content: new Uint8Array([137, 80, 78, 71]) },
    ]);
    const info = await web.files.info({ file: 'F1' });
    const url = info.file?.url_private ?? '';
    expect(info.file).toMatchObject({ id: 'F1', mimetype: 'image/png', size: 4 });

    const withToken = await fetch(url, { headers: { authorization: `Bearer ${slack.botToken}` } });
    expect(withToken.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await withToken.arrayBuffer())]).toEqual([137, 80, 78, 71]);

    const without = await fetch(url);
    expect(without.status).toBe(200);
    expect(without.headers.get('content-type')).toContain('text/html');
  });
});

describe('response URLs', () => {
  it('records posts, refuses bad blocks and a sixth use', async () => {
    const url = slack.responseUrl('cmd-1');
    const post = (body: object) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const waited = slack.waitForResponse((p) => p.tag === 'cmd-1');
    expect((await post({ response_type: 'ephemeral', text: 'Unblocked 0912***6789' })).status).toBe(200);
    await expect(waited).resolves.toMatchObject({ body: { text: 'Unblocked 0912***6789' } });

    const bad = await post({
      text: 'x',
      blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }],
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, error: 'invalid_blocks' });
    for (let i = 0; i < 3; i += 1) expect((await post({ text: `use ${i + 3}` })).status).toBe(200);
    expect(await (await post({ text: 'sixth' })).json()).toEqual({ ok: false, error: 'used_url' });
    expect(slack.responsePosts.map((p) => p.status)).toEqual([200, 400, 200, 200, 200, 404]);
  });
});

describe('signed requests', () => {
  it('sign() produces a signature that verifies with the algorithm of the Slack README and with Bolt', () => {
    const request = slashCommand({
      text: 'unblock 09123456789',
      userId: 'U1',
      responseUrl: slack.responseUrl(),
    });
    const now = Math.floor(Date.now() / 1000);
    const headers = sign(request, SECRET, now);

    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(headers['x-slack-signature']).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(verifiesPerReadme(SECRET, { ...headers }, request.body, now)).toBe(true);
    expect(verifiesPerReadme('another-secret', { ...headers }, request.body, now)).toBe(false);
    expect(verifiesPerReadme(SECRET, { ...headers }, `${request.body}&x=1`, now)).toBe(false);
    expect(verifiesPerReadme(SECRET, { ...sign(request, SECRET, now - 301) }, request.body, now)).toBe(false);
    expect(() =>
      verifySlackRequest({
        signingSecret: SECRET,
        body: request.body,
        headers: {
          'x-slack-signature': headers['x-slack-signature'],
          'x-slack-request-timestamp': now,
        },
      }),
    ).not.toThrow();
  });

  it('JSON bodies are signed as JSON', () => {
    expect(sign(appHomeOpened({ userId: 'U1' }), SECRET)['content-type']).toBe('application/json');
  });
});

describe('requests built by the helpers reach a Bolt app', () => {
  let app: App;
  let eventsUrl: string;
  const seen: { kind: string; body: unknown }[] = [];

  beforeAll(async () => {
    app = new App({
      token: slack.botToken,
      signingSecret: SECRET,
      clientOptions: { slackApiUrl: slack.apiUrl },
      logLevel: LogLevel.ERROR,
    });
    app.command('/vidops', async ({ ack, command }) => {
      seen.push({ kind: 'command', body: command });
      await ack('ok');
    });
    app.action('approve', async ({ ack, body }) => {
      seen.push({ kind: 'action', body });
      await ack();
    });
    app.view('unblock', async ({ ack, view }) => {
      seen.push({ kind: 'submission', body: view.state.values });
      await ack();
    });
    app.view({ callback_id: 'unblock', type: 'view_closed' }, async ({ ack, body }) => {
      seen.push({ kind: 'closed', body });
      await ack();
    });
    app.event('app_home_opened', async ({ event }) => {
      seen.push({ kind: 'home', body: event });
    });
    const address = (await app.start(0)).address();
    if (address === null || typeof address === 'string')
      throw new Error('Bolt is not listening on a TCP port');
    eventsUrl = `http://127.0.0.1:${address.port}/slack/events`;
  });

  afterAll(() => app.stop());
  beforeEach(() => {
    seen.length = 0;
  });

  const kinds = () => seen.map((s) => s.kind);

  it('an agent types /vidops, clicks Approve, submits and closes a modal, opens App Home', async () => {
    const responseUrl = slack.responseUrl();
    const command = await postSigned(
      eventsUrl,
      slashCommand({ text: 'unblock 0912', userId: 'U1', responseUrl }),
      SECRET,
    );
    expect(command.status).toBe(200);
    expect(command.text).toBe('ok');

    const posted = await web.chat.postMessage({
      channel: 'C0APPROVE',
      text: 'Approve?',
      blocks: [
        {
          type: 'actions',
          block_id: 'decide',
          elements: [
            {
              type: 'button',
              action_id: 'approve',
              text: { type: 'plain_text', text: 'Approve' },
              value: 'r1',
            },
          ],
        },
      ],
    });
    const message = slack.message('C0APPROVE', posted.ts ?? '');
    if (message === undefined) throw new Error('message not stored');
    const click = blockAction({ userId: 'U2', actionId: 'approve', value: 'r1', message, responseUrl });
    expect((await postSigned(eventsUrl, click, SECRET)).status).toBe(200);

    const values = { mobile: { value: textInput('09123456789') } };
    const submit = viewSubmission({ userId: 'U1', callbackId: 'unblock', privateMetadata: '{}', values });
    expect((await postSigned(eventsUrl, submit, SECRET)).status).toBe(200);
    const closed = viewClosed({ userId: 'U1', callbackId: 'unblock' });
    expect((await postSigned(eventsUrl, closed, SECRET)).status).toBe(200);
    expect((await postSigned(eventsUrl, appHomeOpened({ userId: 'U1' }), SECRET)).status).toBe(200);

    expect(kinds()).toEqual(['command', 'action', 'submission', 'closed', 'home']);
    expect(seen[0]?.body).toMatchObject({
      command: '/vidops',
      text: 'unblock 0912',
      user_id: 'U1',
      response_url: responseUrl,
    });
    expect(seen[1]?.body).toMatchObject({
      user: { id: 'U2' },
      actions: [{ action_id: 'approve', block_id: 'decide', value: 'r1', type: 'button' }],
      container: { type: 'message', message_ts: posted.ts, channel_id: 'C0APPROVE' },
      message: { ts: posted.ts },
    });
    expect(seen[2]?.body).toEqual(values);
    expect(seen[4]?.body).toMatchObject({ type: 'app_home_opened', user: 'U1', tab: 'home' });
    // Bolt asked the emulator who the bot is.
    expect(slack.callsTo('auth.test').length).toBeGreaterThan(0);
  });

  it.each([
    ['a wrong signature', { signature: 'v0=0000' }],
    ['a request six minutes old', { timestamp: Math.floor(Date.now() / 1000) - 360 }],
  ])('%s is refused with 401 and reaches no listener', async (_what, options) => {
    const request = slashCommand({ text: 'help', userId: 'U1', responseUrl: slack.responseUrl() });
    const result = await postSigned(eventsUrl, request, SECRET, options);
    expect(result.status).toBe(401);
    expect(kinds()).toEqual([]);
  });
});

describe('the builders stay true to the real payloads in test/fixtures/slack/payloads/', () => {
  const payloadDir = new URL('../../test/fixtures/slack/payloads/', import.meta.url);
  const realJson = (name: string): Record<string, JsonValue> => {
    const parsed: Record<string, JsonValue> = JSON.parse(readFileSync(new URL(name, payloadDir), 'utf8'));
    return parsed;
  };
  const keysOf = (value: JsonValue | undefined): string[] =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value).sort() : [];

  it('a slash command has every field of the real one', () => {
    const real = new URLSearchParams(readFileSync(new URL('slash_command.form', payloadDir), 'utf8'));
    const built = new URLSearchParams(
      slashCommand({ text: 'x', userId: 'U1', responseUrl: 'https://h' }).body,
    );
    const optional = new Set(['enterprise_id', 'enterprise_name']);
    expect([...built.keys()].sort()).toEqual([...real.keys()].filter((k) => !optional.has(k)).sort());
  });

  it.each([
    [
      'block_actions_message.json',
      () => blockAction({ userId: 'U1', actionId: 'a', value: 'v', responseUrl: 'https://h' }),
    ],
    [
      'block_actions_home.json',
      () => blockAction({ userId: 'U1', actionId: 'a', value: 'v', view: { id: 'V1', type: 'home' } }),
    ],
    [
      'view_submission.json',
      () => viewSubmission({ userId: 'U1', callbackId: 'c', privateMetadata: '', values: {} }),
    ],
    ['view_closed.json', () => viewClosed({ userId: 'U1', callbackId: 'c' })],
  ])('%s: the builder has every top-level and view field of the real payload', (name, build) => {
    const real = realJson(name);
    const built: Record<string, JsonValue> = JSON.parse(
      new URLSearchParams(build().body).get('payload') ?? '{}',
    );
    expect(keysOf(built)).toEqual(expect.arrayContaining(keysOf(real)));
    expect(keysOf(built.view)).toEqual(expect.arrayContaining(keysOf(real.view)));
    expect(keysOf(built.user)).toEqual(expect.arrayContaining(keysOf(real.user)));
  });

  it.each([
    [
      'message_action.json',
      () =>
        messageAction({
          userId: 'U1',
          callbackId: 'c',
          message: { ts: '1.000001', text: 'x', user: 'U2' },
          responseUrl: 'https://h',
        }),
    ],
    ['shortcut.json', () => globalShortcut({ userId: 'U1', callbackId: 'c' })],
  ])('%s: the shortcut builder has exactly the fields of the real payload', (name, build) => {
    const real = realJson(name);
    const built: Record<string, JsonValue> = JSON.parse(
      new URLSearchParams(build().body).get('payload') ?? '{}',
    );
    expect(keysOf(built)).toEqual(keysOf(real));
    expect(keysOf(built.user)).toEqual(keysOf(real.user));
    // A real message carries its client_msg_id and rich_text blocks when typed in Slack's client.
    const optional = new Set(['client_msg_id', 'blocks']);
    expect(keysOf(built.message)).toEqual(keysOf(real.message).filter((k) => !optional.has(k)));
  });
});
