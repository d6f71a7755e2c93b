import { LogLevel } from '@slack/bolt';
import { WebAPIPlatformError, WebClient } from '@slack/web-api';
import type { JsonObject } from '../core/json.js';
import { findSurfaceProblems } from './blockkit.js';
import { type Emulator, startEmulator } from './emulator.js';
import { newTriggerId } from './payloads.js';
import { personOf } from './person.js';

/**
 * The rules of Slack the emulator keeps, each as a person or an app meets it: a trigger_id good
 * once for 3 seconds, response URLs (ephemeral or in the channel, replacing or deleting the
 * original, 5 uses in 30 minutes), the app-level token for Socket Mode only, the structure Slack
 * demands per surface, and what Slack's client does with a modal before and after it is sent.
 * @see docs/slack.md, "Deadlines" and "Block Kit limits"
 */

let slack: Emulator;
let web: WebClient;
let clock = Date.now();

beforeAll(async () => {
  slack = await startEmulator({ now: () => clock });
  web = new WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logLevel: LogLevel.ERROR,
  });
});

beforeEach(() => {
  clock = Date.now();
  slack.reset();
});

afterAll(() => slack.close());

async function errorOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return error instanceof WebAPIPlatformError ? error.data.error : String(error);
  }
  return undefined;
}

const modal = (title = 'Unblock viewer') => ({
  type: 'modal' as const,
  callback_id: 'unblock',
  title: { type: 'plain_text' as const, text: title },
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Loading…' } }],
});

describe('a trigger_id', () => {
  it('opens one modal within 3 seconds, and no modal after', async () => {
    const late = slack.issueTrigger('U1');
    const fresh = slack.issueTrigger('U1');
    clock += 2_999;
    await expect(web.views.open({ trigger_id: fresh, view: modal() })).resolves.toMatchObject({ ok: true });
    expect(await errorOf(web.views.open({ trigger_id: fresh, view: modal() }))).toBe('exchanged_trigger_id');
    clock += 2;
    expect(await errorOf(web.views.open({ trigger_id: late, view: modal() }))).toBe('expired_trigger_id');
  });

  it('made by the request builders expires the same way; one of no known shape is refused', async () => {
    const built = newTriggerId(clock - 3_001);
    expect(await errorOf(web.views.open({ trigger_id: built, view: modal() }))).toBe('expired_trigger_id');
    expect(await errorOf(web.views.open({ trigger_id: '1.2.abc', view: modal() }))).toBe(
      'invalid_trigger_id',
    );
  });

  it('of a person opens the modal on their screen; views.push stacks at most three', async () => {
    const opened = await web.views.open({ trigger_id: slack.issueTrigger('U1'), view: modal('First') });
    await web.views.push({ trigger_id: slack.issueTrigger('U1'), view: modal('Second') });
    await web.views.push({ trigger_id: slack.issueTrigger('U1'), view: modal('Third') });
    expect(
      await errorOf(web.views.push({ trigger_id: slack.issueTrigger('U1'), view: modal('Fourth') })),
    ).toBe('push_limit_reached');
    expect(slack.modalStack('U1').map((v) => (v.title as JsonObject).text)).toEqual([
      'First',
      'Second',
      'Third',
    ]);
    expect(slack.modalStack('U2')).toEqual([]);
    slack.closeModals('U1', 'all');
    expect(await errorOf(web.views.update({ view_id: opened.view?.id ?? '', view: modal('Gone') }))).toBe(
      'not_found',
    );
  });
});

describe('a response URL', () => {
  const post = (url: string, body: object) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('shows an ephemeral reply to its person alone, and an in_channel one to the channel', async () => {
    const url = slack.responseUrl('cmd', { channel: 'C1', user: 'U1' });
    await post(url, { response_type: 'ephemeral', text: 'Only for you' });
    await post(url, { response_type: 'in_channel', text: 'For everyone' });
    expect(slack.ephemerals('U1', 'C1').map((e) => e.text)).toEqual(['Only for you']);
    expect(slack.ephemerals('U2')).toEqual([]);
    expect(slack.messages('C1').map((m) => m.text)).toEqual(['For everyone']);
  });

  it('of a click replaces the message only when told to, and deletes it when told to', async () => {
    const posted = await web.chat.postMessage({ channel: 'C1', text: 'Approve?' });
    const ts = posted.ts ?? '';
    const url = slack.responseUrl('click', { channel: 'C1', user: 'U2', original: { ts, ephemeral: false } });
    await post(url, { text: 'A new ephemeral note' });
    expect(slack.message('C1', ts)?.text).toBe('Approve?');
    await post(url, { replace_original: true, text: 'Approved' });
    expect(slack.message('C1', ts)?.text).toBe('Approved');
    await post(url, { delete_original: true });
    expect(slack.message('C1', ts)).toBeUndefined();
    expect(slack.ephemerals('U2', 'C1').map((e) => e.text)).toEqual(['A new ephemeral note']);
  });

  it('of a click on an ephemeral message replaces it unless told not to', async () => {
    const shown = slack.addEphemeral({ channel: 'C1', user: 'U1', text: 'Add addresses?', from: 'app' });
    const url = slack.responseUrl('eph', {
      channel: 'C1',
      user: 'U1',
      original: { ts: shown.ts, ephemeral: true },
    });
    await post(url, { text: 'Added' });
    await post(url, { replace_original: false, text: 'And a note' });
    expect(slack.ephemerals('U1', 'C1').map((e) => e.text)).toEqual(['Added', 'And a note']);
  });

  it('takes 5 posts, and none after 30 minutes', async () => {
    const url = slack.responseUrl('five');
    for (let i = 0; i < 5; i += 1) expect((await post(url, { text: `use ${i + 1}` })).status).toBe(200);
    expect(await (await post(url, { text: 'sixth' })).json()).toEqual({ ok: false, error: 'used_url' });
    const old = slack.responseUrl('old');
    clock += 30 * 60_000 + 1;
    expect(await (await post(old, { text: 'late' })).json()).toEqual({ ok: false, error: 'expired_url' });
  });
});

describe('tokens', () => {
  it('the app-level token opens Socket Mode connections and nothing else; the bot token the reverse', async () => {
    const app = new WebClient(slack.appToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      logLevel: LogLevel.ERROR,
    });
    await expect(app.apps.connections.open()).resolves.toMatchObject({
      url: expect.stringMatching(/^ws:\/\/.*\/link\/\?ticket=/),
    });
    expect(await errorOf(app.chat.postMessage({ channel: 'C1', text: 'x' }))).toBe('not_allowed_token_type');
    expect(await errorOf(web.apps.connections.open())).toBe('not_allowed_token_type');
  });

  it('are random per emulator', async () => {
    const other = await startEmulator();
    try {
      expect(other.botToken).toMatch(/^xoxb-/);
      expect(other.appToken).toMatch(/^xapp-/);
      expect(other.botToken).not.toBe(slack.botToken);
      expect(other.signingSecret).not.toBe(slack.signingSecret);
    } finally {
      await other.close();
    }
  });
});

describe('the structure Slack demands', () => {
  const input = (element: JsonObject) => ({
    type: 'input',
    block_id: 'b',
    label: { type: 'plain_text', text: 'L' },
    element,
  });
  const problems = (
    payload: Parameters<typeof findSurfaceProblems>[0],
    surface: 'message' | 'modal' | 'home',
  ) => findSurfaceProblems(payload, surface).map((p) => `${p.path}: ${p.message}`);

  it('a file upload lives in a modal, not a message or the Home tab', () => {
    const upload = input({ type: 'file_input', action_id: 'f', max_files: 1 });
    expect(problems({ blocks: [upload] }, 'message')).toEqual([
      'blocks[0].element.type: file_input is available in modals only',
    ]);
    expect(
      problems(
        {
          view: {
            type: 'modal',
            title: { type: 'plain_text', text: 'T' },
            submit: { type: 'plain_text', text: 'OK' },
            blocks: [upload],
          },
        },
        'modal',
      ),
    ).toEqual([]);
  });

  it('elements sit only where Slack allows them, with the fields it requires', () => {
    expect(
      problems(
        {
          blocks: [
            { type: 'actions', elements: [{ type: 'plain_text_input', action_id: 'a' }] },
            {
              type: 'actions',
              elements: [
                { type: 'button', action_id: 'b', text: { type: 'plain_text', text: 'B' }, style: 'loud' },
              ],
            },
            { type: 'file', external_id: 'x', source: 'remote' },
          ],
        },
        'message',
      ),
    ).toEqual([
      'blocks[0].elements[0].type: "plain_text_input" is not allowed here',
      'blocks[1].elements[0].style: must be "primary" or "danger"',
    ]);
    const view = {
      type: 'home',
      blocks: [
        input({ type: 'number_input', action_id: 'n' }),
        { type: 'file', external_id: 'x', source: 'remote' },
      ],
    };
    expect(problems({ view }, 'home')).toEqual([
      'view.blocks[0].element.is_decimal_allowed: is required',
      'view.blocks[1].type: "file" blocks are not allowed in a home',
    ]);
  });

  it('an initial option must be exactly one of the options', () => {
    const option = (value: string, text = value) => ({ text: { type: 'plain_text', text }, value });
    const radio = input({
      type: 'radio_buttons',
      action_id: 'r',
      options: [option('a'), option('b')],
      initial_option: option('b', 'B!'),
    });
    expect(problems({ blocks: [radio] }, 'message')).toEqual([
      'blocks[0].element.initial_option: must be exactly one of the options (same text and value)',
    ]);
  });
});

describe("Slack's client, with a modal a person fills in", () => {
  it('refuses an empty required field, too long a text and a number that is not one, before sending anything', async () => {
    const opened = await web.views.open({
      trigger_id: slack.issueTrigger('U1'),
      view: {
        type: 'modal',
        callback_id: 'c',
        title: { type: 'plain_text', text: 'Form' },
        submit: { type: 'plain_text', text: 'Send' },
        blocks: [
          {
            type: 'input',
            block_id: 'reason',
            label: { type: 'plain_text', text: 'Reason' },
            element: { type: 'plain_text_input', action_id: 'v', max_length: 5 },
          },
          {
            type: 'input',
            block_id: 'speed',
            label: { type: 'plain_text', text: 'Speed' },
            element: { type: 'number_input', action_id: 'v', is_decimal_allowed: false },
          },
          {
            type: 'input',
            block_id: 'note',
            optional: true,
            label: { type: 'plain_text', text: 'Note' },
            element: { type: 'plain_text_input', action_id: 'v' },
          },
        ],
      },
    });
    const person = personOf(slack, 'U1');
    const calls = slack.calls.length;
    const result = await person.submit(opened.view?.id ?? '', {
      reason: { v: 'too long' },
      speed: { v: '1.5' },
    });
    expect(result).toEqual({
      outcome: 'invalid',
      errors: { reason: 'Keep this to 5 characters or fewer.', speed: 'Enter a whole number.' },
    });
    const empty = await person.submit(opened.view?.id ?? '', {});
    expect(empty).toMatchObject({ errors: { reason: 'Please complete this required field.' } });
    expect(slack.calls.length).toBe(calls);
  });

  it('says it had trouble connecting when no app is there to take the submission', async () => {
    const opened = await web.views.open({
      trigger_id: slack.issueTrigger('U1'),
      view: { ...modal(), submit: { type: 'plain_text', text: 'OK' } },
    });
    const result = await personOf(slack, 'U1').submit(opened.view?.id ?? '', {});
    expect(result).toMatchObject({ outcome: 'failed', error: expect.stringContaining('dispatch_failed') });
    expect(slack.modalStack('U1')).toHaveLength(1);
  });
});
