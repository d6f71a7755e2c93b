import type { JsonObject } from '../../src/core/json.js';
import type { ResponsePost } from '../../src/emulator/index.js';
import { textInput } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS, INPUT_ACTION } from '../../src/views/ids.js';
import { CHANNELS, type Harness, seedWorkspace, startHarness, USERS } from './app-harness.js';
import { notificationsDone, readable } from './change-helpers.js';

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
const RETRY_PATH = '/v1/storage/bucket/file/queue/retry';
const BLOCKED = DEMO.blockedMobiles[0]; // 09121234567, an attacker, blocked

let h: Harness;

beforeAll(async () => {
  // Two unblocks per hour before approval is needed, so the rate-limit path is reachable.
  h = await startHarness({ policy: 'viewer.unblock: { rateLimit: { max: 2, per: 1h } }\n' });
});

afterAll(() => h.stop());

beforeEach(async () => {
  await notificationsDone(h);
  // Each test starts a fresh rate-limit window (the limit counts the last hour's requests).
  h.clock.advance(2 * 3_600_000);
  h.sandbox.reset();
  h.slack.reset();
  // reset() forgets users and groups; the harness set them at start.
  seedWorkspace(h.slack);
});

/** Button action IDs in a reply's blocks. */
function buttons(post: ResponsePost): string[] {
  const blocks = post.body.blocks;
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((block) => {
    if (block === null || typeof block !== 'object' || Array.isArray(block)) return [];
    const elements = block.elements;
    if (!Array.isArray(elements)) return [];
    return elements.flatMap((e) =>
      e !== null &&
      typeof e === 'object' &&
      !Array.isArray(e) &&
      e.type === 'button' &&
      typeof e.action_id === 'string'
        ? [e.action_id]
        : [],
    );
  });
}

function upstream(path: string) {
  return h.sandbox.requests().filter((r) => r.path === path);
}

async function slashReply(text: string, userId: string = USERS.agent.id): Promise<string> {
  const sent = await h.slash(text, { userId });
  expect(sent.status).toBe(200);
  const reply = await sent.reply();
  expect(reply.status).toBe(200);
  expect(reply.body.response_type).toBe('ephemeral');
  return readable(reply);
}

describe('help', () => {
  it('an agent sees the commands they may run, with examples, and not the leads-only audit', async () => {
    const text = await slashReply('help');
    // Escaped for mrkdwn in the fallback text as in the blocks: Slack shows `<mobile>`.
    expect(text).toContain('/vidops unblock &lt;mobile&gt;');
    expect(text).toContain('/vidops retry &lt;fileId&gt;');
    expect(text).not.toContain('<mobile>');
    expect(text).toContain('/vidops explain &lt;code&gt;');
    expect(text).toContain('/vidops unblock 0912 345 6789');
    expect(text).not.toContain('/vidops audit');
  });

  it('a lead (through the leads user group) also sees audit; /vidops alone is help', async () => {
    const text = await slashReply('', USERS.lead2.id);
    expect(text).toContain('/vidops audit [n]');
    expect(text).toContain('You are a lead');
  });
});

describe('unblock', () => {
  it('agent unblocks a blocked viewer: masked number, status before, upstream answer and request ID', async () => {
    const text = await slashReply('unblock 0912 123 4567');
    expect(text).toContain('0912***4567');
    expect(text).toContain('is unblocked');
    expect(text).toContain('Before: attacker · blocked');
    expect(text).toMatch(/Service answered: `\{.*"unblocked":true.*"wasBlocked":true.*\}`/);
    expect(text).toMatch(/Request `R-[0-9A-Z]{8}`/);
    expect(text).not.toContain(BLOCKED);

    expect(upstream(UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: BLOCKED }]);
    const viewer = h.sandbox.state().viewers.find((v) => v.mobileNumber === BLOCKED);
    expect(viewer?.blocked).toBe(false);
    const requestId = /Request `(R-[0-9A-Z]{8})`/.exec(text)?.[1] ?? '';
    const events = (await h.store.listAudit({ last: 50 })).filter((e) => e.requestId === requestId);
    expect(events.map((e) => e.type)).toEqual(['requested', 'executing', 'succeeded']);
    expect(events[0]?.actor).toEqual({ id: USERS.agent.id, name: USERS.agent.name });
  });

  it.each([
    ['Persian digits', 'unblock ۰۹۱۲۳۴۵۶۷۸۹'],
    ['+98 with spaces', 'unblock +98 912 345 6789'],
    ['0098 and dashes', 'unblock 0098-912-345-6789'],
    ['Arabic-Indic digits without the leading zero', 'unblock ٩١٢٣٤٥٦٧٨٩'],
  ])('agent unblocks a viewer by a number written with %s: the API gets 09123456789', async (_how, text) => {
    const reply = await slashReply(text, USERS.agent2.id);
    expect(reply).toContain('0912***6789');
    // The demo viewer 09123456789 is known and not blocked: the headline says so.
    expect(reply).toContain('was not blocked; the unblock was sent anyway');
    expect(upstream(UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: '09123456789' }]);
  });

  it.each([
    ['too short', 'unblock 0912 345', '0912345 is too short'],
    ['a landline', 'unblock 021 8888 7777', 'is a landline'],
    ['letters', 'unblock 0912abc', 'has letters'],
  ])(
    'an invalid number (%s) is refused with what was read and why; nothing reaches the API',
    async (_w, text, why) => {
      const reply = await slashReply(text);
      expect(reply).toContain('Nobody was unblocked');
      expect(reply).toContain(why);
      expect(reply).toContain('/vidops unblock &lt;mobile&gt;');
      expect(h.sandbox.requests()).toEqual([]);
    },
  );

  it('two valid numbers at once are shown as a batch to confirm, nothing sent, neither shown whole', async () => {
    const reply = await slashReply('unblock 09121234567 09351234567');
    expect(reply).toContain('2 to unblock, 0 refused');
    expect(reply).toContain('0912***4567');
    expect(reply).not.toContain('09121234567');
    expect(reply).not.toContain('09351234567');
    expect(h.sandbox.requests()).toEqual([]);
  });

  it('past the rate limit an unblock needs approval: the reply names the request and the approvals channel', async () => {
    const first = await slashReply('unblock 09351234567', USERS.lead.id);
    const second = await slashReply('unblock 09901234567', USERS.lead.id);
    const third = await slashReply('unblock 09121234567', USERS.lead.id);
    expect(first).toContain('is unblocked');
    expect(second).toContain('is unblocked');
    expect(third).toMatch(
      /needs approval \(over the rate limit of 2 per hour\): request `R-[0-9A-Z]{8}` posted to/,
    );
    expect(third).toContain(`<#${CHANNELS.approvals}>`);
    expect(upstream(UNBLOCK_PATH)).toHaveLength(2);
  });
});

describe('retry', () => {
  it('agent retries a failed conversion: the reply shows the title and the status before', async () => {
    const text = await slashReply(`retry ${DEMO.files.lecture3}`);
    expect(text).toContain('Lecture 3: Practice session');
    expect(text).toContain(DEMO.files.lecture3);
    expect(text).toContain('is queued again');
    expect(text).toContain('Conversion status before: failed');
    expect(upstream(RETRY_PATH).map((r) => r.body)).toEqual([{ fileId: DEMO.files.lecture3 }]);
    expect(h.sandbox.state().files.find((f) => f._id === DEMO.files.lecture3)?.hlsStatus).toBe('waiting');
  });

  it.each([
    ['converted already', DEMO.files.lecture1, 'has converted already (status done)'],
    ['still queued', DEMO.waitingFileId, 'still in the conversion queue (status waiting)'],
  ])('retry of a file %s is refused and nothing is queued', async (_w, fileId, why) => {
    const text = await slashReply(`retry ${fileId}`);
    expect(text).toContain(why);
    expect(upstream(RETRY_PATH)).toEqual([]);
  });

  it('retry of an unknown file says it does not exist', async () => {
    const text = await slashReply('retry 6710b00000000000000002ff');
    expect(text).toContain('File 6710b00000000000000002ff does not exist');
    expect(upstream(RETRY_PATH)).toEqual([]);
  });
});

describe('whitelist and protect show', () => {
  it('agent sees the whitelist with Add and Remove buttons', async () => {
    const set = await fetch(`${h.sandbox.url}/v1/storage/dns/whitelist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', api_key: DEMO.apiKey, secret_key: DEMO.secretKey },
      body: JSON.stringify({ allowedDNS: ['203.0.113.10', '2001:db8::10'] }),
    });
    expect(set.status).toBe(200);
    const sent = await h.slash('whitelist');
    const reply = await sent.reply();
    const text = readable(reply);
    expect(text).toContain('2 addresses');
    expect(text).toContain('`203.0.113.10`');
    expect(text).toContain('`2001:db8::10`');
    expect(buttons(reply)).toEqual([ACTIONS.whitelistAdd, ACTIONS.whitelistRemove]);
  });

  it('an empty whitelist says what that means and offers only Add', async () => {
    const sent = await h.slash('whitelist');
    const reply = await sent.reply();
    expect(readable(reply)).toContain('The whitelist is empty');
    expect(buttons(reply)).toEqual([ACTIONS.whitelistAdd]);
  });

  it('protect show lists the settings by group, colours by name', async () => {
    const text = await slashReply('protect show');
    for (const group of ['*Watermark text*', '*Beep*', '*Links*', '*Player*']) expect(text).toContain(group);
    expect(text).toContain('yellow (#ffff00)');
    expect(text).toContain('`link.expireTime`');
    expect(text).toContain('*2h*');
    expect(text).toContain('`player.offlineMode`');
    expect(upstream('/v1/storage/protect/config').map((r) => r.method)).toEqual(['GET']);
  });
});

describe('explain', () => {
  it('explain 9910 says what it means and its button opens a modal that unblocks the viewer', async () => {
    const sent = await h.slash('explain 9910');
    const reply = await sent.reply();
    expect(readable(reply)).toContain('blocked for suspicious behaviour');
    expect(buttons(reply)).toEqual([ACTIONS.explainUnblock]);

    const click = await h.action({
      userId: USERS.agent.id,
      actionId: ACTIONS.explainUnblock,
      value: '9910',
      message: { ts: '1.000001', blocks: reply.body.blocks ?? [] },
      responseUrl: sent.responseUrl,
    });
    expect(click.status).toBe(200);
    const opened = await h.slack.waitFor('views.open');
    const view = opened.args.view as JsonObject;
    expect(view.callback_id).toBe(CALLBACKS.unblock);

    const bad = await h.submit({
      userId: USERS.agent.id,
      callbackId: CALLBACKS.unblock,
      privateMetadata: String(view.private_metadata),
      values: { [BLOCKS.mobile]: { [INPUT_ACTION]: textInput('0912 12') } },
    });
    expect(bad.json).toMatchObject({
      response_action: 'errors',
      errors: { [BLOCKS.mobile]: expect.stringContaining('too short') },
    });
    expect(upstream(UNBLOCK_PATH)).toEqual([]);

    const good = await h.submit({
      userId: USERS.agent.id,
      callbackId: CALLBACKS.unblock,
      privateMetadata: String(view.private_metadata),
      values: { [BLOCKS.mobile]: { [INPUT_ACTION]: textInput('+98 912 123 4567') } },
    });
    expect(good.status).toBe(200);
    expect(good.text).toBe('');
    const answer = await h.slack.waitForResponse((p) => readable(p).includes('is unblocked'));
    expect(answer.tag).toBe(sent.replies()[0]?.tag);
    expect(readable(answer)).toContain('0912***4567');
    expect(upstream(UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: BLOCKED }]);
  });

  it('explain 9103 offers a retry whose modal queues the file again', async () => {
    const sent = await h.slash('explain ۹۱۰۳');
    const reply = await sent.reply();
    expect(readable(reply)).toContain('Processing of the file failed');
    expect(buttons(reply)).toEqual([ACTIONS.explainRetry]);
    await h.action({
      userId: USERS.agent.id,
      actionId: ACTIONS.explainRetry,
      value: '9103',
      message: { ts: '1.000002', blocks: reply.body.blocks ?? [] },
      responseUrl: sent.responseUrl,
    });
    const opened = await h.slack.waitFor('views.open');
    const view = opened.args.view as JsonObject;
    expect(view.callback_id).toBe(CALLBACKS.retry);
    await h.submit({
      userId: USERS.agent.id,
      callbackId: CALLBACKS.retry,
      privateMetadata: String(view.private_metadata),
      values: { [BLOCKS.fileId]: { [INPUT_ACTION]: textInput(` ${DEMO.files.episode3} `) } },
    });
    const answer = await h.slack.waitForResponse((p) => readable(p).includes('queued again'));
    expect(readable(answer)).toContain('قسمت ۳: پرسش و پاسخ');
    expect(upstream(RETRY_PATH).map((r) => r.body)).toEqual([{ fileId: DEMO.files.episode3 }]);
  });

  it('an unknown code says so and lists the known codes briefly', async () => {
    const text = await slashReply('explain 4242');
    expect(text).toContain('*4242* is not a player error code vidops knows');
    expect(text).toContain('`9910`');
    expect(text).toContain('`2001-2009`');
  });
});

describe('audit, unknown commands and people outside AGENTS', () => {
  it('a lead reads the last audit events masked; an agent is refused and the refusal is audited', async () => {
    await slashReply('unblock 09351234567');
    const lead = await slashReply('audit 5', USERS.lead.id);
    expect(lead).toContain('Viewer `0935***4567` unblocked');
    expect(lead).toMatch(/`[0-9a-f]{12}`/);
    expect(lead).not.toContain('09351234567');

    const agent = await slashReply('audit', USERS.agent.id);
    expect(agent).toContain('Only leads may run audit.');
    expect(agent).not.toContain('0935***4567');
    await h.waitForAudit(
      (e) => e.type === 'denied' && e.operation === 'audit' && e.actor.id === USERS.agent.id,
    );
  });

  it('a typo gets a suggestion', async () => {
    const text = await slashReply('unblok 09121234567');
    expect(text).toContain('Did you mean `/vidops unblock`?');
    expect(h.sandbox.requests()).toEqual([]);
  });

  it('someone outside AGENTS is refused politely, nothing runs, and the refusal is audited', async () => {
    const text = await slashReply('unblock 09121234567', USERS.outsider.id);
    expect(text).toContain('only for the support team');
    expect(text).toContain('Nothing was done');
    expect(h.sandbox.requests()).toEqual([]);
    const event = await h.waitForAudit((e) => e.type === 'denied' && e.actor.id === USERS.outsider.id);
    expect(event).toMatchObject({
      operation: 'viewer.unblock',
      target: `viewer ${BLOCKED}`,
      requestId: null,
    });
  });

  it('someone outside AGENTS does not even get help', async () => {
    const text = await slashReply('help', USERS.outsider.id);
    expect(text).toContain('only for the support team');
    expect(text).not.toContain('/vidops unblock');
  });
});
