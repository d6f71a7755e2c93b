import type { AuditEvent } from '../../src/core/model.js';
import {
  blockAction,
  checkboxes,
  globalShortcut,
  messageAction,
  type StoredView,
  slackEscapeText,
  type ViewValues,
  viewSubmission,
} from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import {
  ACTIONS,
  BLOCKS,
  CALLBACKS,
  INPUT_ACTION,
  protectGroupBlock,
  SHORTCUTS,
  shortcutPickBlock,
} from '../../src/views/ids.js';
import { CHANNELS, GROUPS, type Harness, startHarness, USERS } from './app-harness.js';
import { modalShown, notificationsDone, typed, until, upstream, valuesOf } from './change-helpers.js';

/**
 * Attacks on the shortcuts ("Unblock viewer", "Retry conversion", the global menu), the drafts
 * their modals keep on the server, and the protection and whitelist forms the menu opens: what a
 * person (or a forged, Slack-signed request) can send, and what must not happen. Every request is
 * signed with the harness clock and posted to the real app over HTTP, so a test can move the clock.
 * Tests marked "Was a defect" failed before the fix they name.
 * @see docs/slack.md, "Shortcuts"; docs/security.md, "Trust nothing from the client"
 */

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
const RETRY_PATH = '/v1/storage/bucket/file/queue/retry';
const CUSTOMER = 'U0CUSTOMER';
const MINUTE = 60_000;
const FORM_GONE = 'This form is no longer valid';
const FORM_OF_OTHER = 'This form was opened by someone else';
const NOT_ALLOWED = 'only for the support team';

let h: Harness;
let tags = 0;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(() => h.stop());

beforeEach(async () => {
  await notificationsDone(h);
  // Far from the last test's unblocks (the per-agent rate limit counts an hour).
  h.clock.advance(2 * 60 * MINUTE);
  h.sandbox.reset();
});

/** What a view says, as one string. */
const said = (view: StoredView | undefined) => JSON.stringify(view?.blocks ?? []);

/** Requests stored since the test began, by operation. */
async function requestsOf(operation: string, since: string) {
  return (await h.store.listRequests({ limit: 500 })).filter(
    (r) => r.operation === operation && r.createdAt >= since,
  );
}

/** Audit events since `since` that match. */
async function auditSince(since: string, match: (e: AuditEvent) => boolean = () => true) {
  return (await h.store.listAudit({ last: 500 })).filter((e) => e.at >= since && match(e));
}

/** A customer's message in the support channel, and a message shortcut on it, signed now. */
async function messageShortcut(text: string, callbackId: string, userId: string = USERS.agent.id) {
  tags += 1;
  const tag = `shortcut-${tags}`;
  const message = h.slack.postAsUser(CHANNELS.support, CUSTOMER, text);
  const responseUrl = h.slack.responseUrl(tag, { channel: CHANNELS.support, user: userId });
  const since = h.slack.calls.length;
  const answer = await h.send(
    messageAction({
      userId,
      callbackId,
      message: { ts: message.ts, text: slackEscapeText(text), user: CUSTOMER },
      channelId: CHANNELS.support,
      responseUrl,
      triggerId: h.slack.issueTrigger(userId),
    }),
  );
  return { answer, since, tag };
}

/** "Unblock viewer" run on `text`: the modal it opened. */
async function unblockList(text: string, userId: string = USERS.agent.id): Promise<StoredView> {
  const { answer, since } = await messageShortcut(text, SHORTCUTS.unblockFromMessage, userId);
  expect(answer.status).toBe(200);
  return modalShown(h, since, CALLBACKS.shortcutUnblock);
}

/** The first modal opened after call number `since`, whatever it is. */
async function anyModalAfter(since: number): Promise<StoredView> {
  const call = await until(
    () => h.slack.calls.slice(since).find((c) => c.method === 'views.open' && c.response.ok === true),
    'a modal to open',
  );
  const id = String((call.response.view as { id?: unknown }).id);
  const view = h.slack.view(id);
  if (view === undefined) throw new Error('the modal is not stored');
  return view;
}

/** A click on a button of an open modal, as `userId`, carrying `value` (forged or not). */
function clickInView(
  view: StoredView,
  options: { userId?: string; actionId: string; value: string; blockId?: string },
) {
  return h.action({
    userId: options.userId ?? USERS.agent.id,
    actionId: options.actionId,
    value: options.value,
    ...(options.blockId === undefined ? {} : { blockId: options.blockId }),
    view: {
      id: view.id,
      blocks: view.blocks ?? [],
      private_metadata: String(view.private_metadata ?? ''),
      callback_id: String(view.callback_id ?? ''),
      hash: String(view.hash ?? ''),
    },
  });
}

/** The view once it is something other than `hash` and says what `pattern` matches. */
function viewSaying(viewId: string, pattern: RegExp): Promise<StoredView> {
  return until(() => {
    const view = h.slack.view(viewId);
    return view !== undefined && pattern.test(said(view)) ? view : undefined;
  }, `the modal to say ${pattern}`);
}

/** The global shortcut's menu, then a button of it: the form it shows in place. */
async function fromMenu(actionId: string, callbackId: string, userId: string = USERS.agent.id) {
  const since = h.slack.calls.length;
  const run = await h.send(
    globalShortcut({ userId, callbackId: SHORTCUTS.menu, triggerId: h.slack.issueTrigger(userId) }),
  );
  expect(run.status).toBe(200);
  const menu = await modalShown(h, since, CALLBACKS.menu);
  const next = h.slack.calls.length;
  const value =
    actionId === ACTIONS.menuProtect ? 'protect' : actionId === ACTIONS.menuWhitelistAdd ? 'add' : 'remove';
  await clickInView(menu, { userId, actionId, value });
  return modalShown(h, next, callbackId);
}

/** Submit on `view` as `userId` (its own private_metadata unless forged), signed now. */
async function send(
  view: StoredView,
  values: ViewValues | Record<string, unknown>,
  options: { userId?: string; callbackId?: string; privateMetadata?: string } = {},
) {
  const answer = await h.send(
    viewSubmission({
      userId: options.userId ?? USERS.agent.id,
      callbackId: options.callbackId ?? String(view.callback_id),
      privateMetadata: options.privateMetadata ?? String(view.private_metadata ?? ''),
      values: values as ViewValues,
      viewId: view.id,
      blocks: view.blocks ?? [],
    }),
  );
  expect(answer.status).toBe(200);
  return answer.json as Record<string, unknown> | undefined;
}

/** A status view a submission was answered with: its text. */
const statusText = (answer: Record<string, unknown> | undefined) =>
  JSON.stringify(answer?.view ?? answer ?? {});

/** The protection form filled in with one change (the player's protection off) and a reason. */
const protectChange = (form: StoredView, extra: ViewValues = {}) =>
  valuesOf(form, {
    [protectGroupBlock('player')]: { [INPUT_ACTION]: checkboxes(['player.securityProtection']) },
    [BLOCKS.reason]: typed('customer asked'),
    ...extra,
  });

/** The whitelist form filled in with a public address and a reason. */
const whitelistAdd = (form: StoredView, ip = '5.160.12.201') =>
  valuesOf(form, { [BLOCKS.ips]: typed(ip), [BLOCKS.reason]: typed('new render server') });

describe('the forms of the global menu', () => {
  it('an agent double-clicks Submit on the protection form: the change is asked once', async () => {
    const since = h.clock.now().toISOString();
    const form = await fromMenu(ACTIONS.menuProtect, CALLBACKS.protect);
    const values = protectChange(form);
    const answers = await Promise.all([send(form, values), send(form, values)]);
    const texts = answers.map(statusText);
    expect(texts.filter((t) => t.includes(FORM_GONE))).toHaveLength(1);
    expect(answers.every((a) => a?.response_action === 'update')).toBe(true);
    await until(
      async () => ((await requestsOf('protect.set', since)).length > 0 ? true : undefined),
      'the request',
    );
    await notificationsDone(h);
    expect(await requestsOf('protect.set', since)).toHaveLength(1);
    expect(
      await auditSince(since, (e) => e.type === 'requested' && e.operation === 'protect.set'),
    ).toHaveLength(1);
  });

  it('another agent sends the protection form the first one opened: refused, nothing asked, the opener can still send it', async () => {
    const since = h.clock.now().toISOString();
    const form = await fromMenu(ACTIONS.menuProtect, CALLBACKS.protect);
    const stolen = await send(form, protectChange(form), { userId: USERS.agent2.id });
    expect(stolen?.response_action).toBe('update');
    expect(statusText(stolen)).toContain(FORM_OF_OTHER);
    expect(statusText(stolen)).toContain('Nothing was changed');
    expect(await requestsOf('protect.set', since)).toEqual([]);

    const own = await send(form, protectChange(form));
    expect(statusText(own)).not.toContain(FORM_OF_OTHER);
    expect(statusText(own)).not.toContain(FORM_GONE);
    await until(
      async () => ((await requestsOf('protect.set', since)).length === 1 ? true : undefined),
      'the request',
    );
    const [request] = await requestsOf('protect.set', since);
    expect(request?.requester.id).toBe(USERS.agent.id);
  });

  it('an agent sends the whitelist form again after it went through: refused, one request', async () => {
    const since = h.clock.now().toISOString();
    const form = await fromMenu(ACTIONS.menuWhitelistAdd, CALLBACKS.whitelistChange);
    const first = await send(form, whitelistAdd(form));
    expect(first?.response_action).toBe('update');
    await until(
      async () => ((await requestsOf('whitelist.set', since)).length === 1 ? true : undefined),
      'the request',
    );
    const again = await send(form, whitelistAdd(form));
    expect(statusText(again)).toContain(FORM_GONE);
    await notificationsDone(h);
    expect(await requestsOf('whitelist.set', since)).toHaveLength(1);
  });

  it('an agent sends the whitelist form with a draft ID vidops never gave out: refused, nothing asked', async () => {
    const since = h.clock.now().toISOString();
    const form = await fromMenu(ACTIONS.menuWhitelistAdd, CALLBACKS.whitelistChange);
    for (const privateMetadata of [
      JSON.stringify({ draft: 'A'.repeat(43) }),
      JSON.stringify({ mode: 'add' }),
      '',
      'not json',
      JSON.stringify({ draft: 'A'.repeat(43), extra: 1 }),
    ]) {
      const answer = await send(form, whitelistAdd(form), { privateMetadata });
      expect(statusText(answer)).toContain(FORM_GONE);
    }
    expect(await requestsOf('whitelist.set', since)).toEqual([]);
  });

  it('the protection form’s draft sent as the whitelist form is refused, and the protection form still goes through', async () => {
    const since = h.clock.now().toISOString();
    const form = await fromMenu(ACTIONS.menuProtect, CALLBACKS.protect);
    const crossed = await send(
      form,
      { [BLOCKS.ips]: typed('5.160.12.202'), [BLOCKS.reason]: typed('x') },
      {
        callbackId: CALLBACKS.whitelistChange,
      },
    );
    expect(statusText(crossed)).toContain(FORM_GONE);
    expect(await requestsOf('whitelist.set', since)).toEqual([]);
    const own = await send(form, protectChange(form));
    expect(statusText(own)).not.toContain(FORM_GONE);
    await until(
      async () => ((await requestsOf('protect.set', since)).length === 1 ? true : undefined),
      'the request',
    );
  });

  it('an agent sends the whitelist form after it was open for more than an hour: refused, nothing asked', async () => {
    const since = h.clock.now().toISOString();
    const form = await fromMenu(ACTIONS.menuWhitelistAdd, CALLBACKS.whitelistChange);
    h.clock.advance(61 * MINUTE);
    const late = await send(form, whitelistAdd(form));
    expect(statusText(late)).toContain('open for more than an hour');
    expect(await requestsOf('whitelist.set', since)).toEqual([]);
  });

  it('an agent taken out of the agents’ user group between opening and sending the form is refused, audited, nothing asked', async () => {
    const since = h.clock.now().toISOString();
    const form = await fromMenu(ACTIONS.menuWhitelistAdd, CALLBACKS.whitelistChange, USERS.agent2.id);
    h.slack.setUsergroup(GROUPS.agents, []);
    try {
      // The user groups are cached five minutes (docs/slack.md, "Rate limits").
      h.clock.advance(6 * MINUTE);
      const answer = await send(form, whitelistAdd(form), { userId: USERS.agent2.id });
      expect(answer?.response_action).toBe('update');
      expect(statusText(answer)).toContain(NOT_ALLOWED);
      const denied = await h.waitForAudit(
        (e) => e.type === 'denied' && e.actor.id === USERS.agent2.id && e.at >= since,
      );
      expect(denied).toMatchObject({ operation: 'form', target: `form ${CALLBACKS.whitelistChange}` });
      expect(await requestsOf('whitelist.set', since)).toEqual([]);
    } finally {
      h.slack.setUsergroup(GROUPS.agents, [USERS.agent2.id]);
      h.clock.advance(6 * MINUTE);
    }
  });

  it('an agent sends the protection form with a number where Slack sends text: told the form is not understood, nothing asked', async () => {
    const since = h.clock.now().toISOString();
    const form = await fromMenu(ACTIONS.menuProtect, CALLBACKS.protect);
    const values = {
      ...protectChange(form),
      [BLOCKS.reason]: { [INPUT_ACTION]: { type: 'plain_text_input', value: 42 } },
    };
    const answer = await send(form, values);
    expect(answer?.response_action).toBe('update');
    expect(statusText(answer)).toContain('shape vidops does not understand');
    await notificationsDone(h);
    expect(await requestsOf('protect.set', since)).toEqual([]);
  });

  it('an agent sends the protection form with a "Put back after" choice the form never offered: refused on the field, nothing asked', async () => {
    // Was a defect: a "Put back after" value the form never offered was read as "never", so a
    // forged or stale choice asked for a permanent change (docs/security.md, "Trust nothing from
    // the client": everything a Slack request carries is checked on the server).
    const since = h.clock.now().toISOString();
    const form = await fromMenu(ACTIONS.menuProtect, CALLBACKS.protect);
    expect(said(form)).toContain(BLOCKS.putBackAfter);
    const forged = {
      [BLOCKS.putBackAfter]: {
        [INPUT_ACTION]: {
          type: 'static_select',
          selected_option: { text: { type: 'plain_text', text: 'forever' }, value: 'forever' },
        },
      },
    };
    const answer = await send(form, protectChange(form, forged as ViewValues));
    await notificationsDone(h);
    expect(await requestsOf('protect.set', since)).toEqual([]);
    expect(answer).toMatchObject({
      response_action: 'errors',
      errors: { [BLOCKS.putBackAfter]: expect.any(String) },
    });
  });
});

describe('the list of "Unblock viewer"', () => {
  it('another agent clicks a number in the list the first agent opened: refused, nothing sent, the opener’s click still works', async () => {
    const blocked = DEMO.blockedMobiles[0] ?? '';
    const view = await unblockList(`please unblock ${blocked}`);
    const stolen = await clickInView(view, {
      userId: USERS.agent2.id,
      actionId: ACTIONS.shortcutUnblockPick,
      value: '0',
      blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 0),
    });
    expect(stolen.status).toBe(200);
    const refused = await viewSaying(view.id, /opened by someone else/);
    expect(said(refused)).toContain('Nothing was changed');
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toEqual([]);

    // The draft was put back: the opener, on a fresh list of the same message, still unblocks.
    const again = await unblockList(`please unblock ${blocked}`);
    await clickInView(again, {
      actionId: ACTIONS.shortcutUnblockPick,
      value: '0',
      blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 0),
    });
    await viewSaying(again.id, /unblocked/);
    expect(upstream(h, 'POST', UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: blocked }]);
  });

  it.each(['99', '-1', '1.5', 'abc', '09121234567'])(
    'an agent’s click carries a forged place %s that is not in the list: told the choice is not there, nothing sent',
    async (value) => {
      const view = await unblockList(`numbers: ${DEMO.blockedMobiles[0]} and ${DEMO.blockedMobiles[1]}`);
      const since = h.clock.now().toISOString();
      await clickInView(view, {
        actionId: ACTIONS.shortcutUnblockPick,
        value,
        blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 0),
      });
      await viewSaying(view.id, /not in this form any more/);
      await notificationsDone(h);
      expect(upstream(h, 'POST', UNBLOCK_PATH)).toEqual([]);
      expect(await auditSince(since, (e) => e.operation === 'viewer.unblock')).toEqual([]);
    },
  );

  it('an agent clicks a number in a list left open for more than an hour: refused, nothing sent', async () => {
    const view = await unblockList(`blocked: ${DEMO.blockedMobiles[2]}`);
    h.clock.advance(61 * MINUTE);
    await clickInView(view, {
      actionId: ACTIONS.shortcutUnblockPick,
      value: '0',
      blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 0),
    });
    await viewSaying(view.id, /open for more than an hour/);
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toEqual([]);
  });

  it('a click on the list with the protection form’s draft is refused and sends nothing', async () => {
    const form = await fromMenu(ACTIONS.menuProtect, CALLBACKS.protect);
    const list = await unblockList(`blocked: ${DEMO.blockedMobiles[0]}`);
    await clickInView(
      { ...list, private_metadata: String(form.private_metadata) },
      {
        actionId: ACTIONS.shortcutUnblockPick,
        value: '0',
        blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 0),
      },
    );
    await viewSaying(list.id, /no longer valid/);
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toEqual([]);
  });
});

describe('the list of "Retry conversion"', () => {
  /** "Retry conversion" on a message naming one file, and a click whose value is `value`. */
  async function forgedRetryClick(value: string) {
    const { since } = await messageShortcut(
      `file ${DEMO.files.lecture3} is broken`,
      SHORTCUTS.retryFromMessage,
    );
    const view = await modalShown(h, since, CALLBACKS.shortcutRetry);
    const at = h.clock.now().toISOString();
    await clickInView(view, {
      actionId: ACTIONS.shortcutRetryPick,
      value,
      blockId: shortcutPickBlock(ACTIONS.shortcutRetryPick, 0),
    });
    return { view, at };
  }

  it.each(['..', '../../v1/storage/protect/config', ''])(
    'an agent’s click carries a forged value %p that is no file ID: told the choice is not there, nothing sent',
    async (value) => {
      const { view, at } = await forgedRetryClick(value);
      await viewSaying(view.id, /not in this form any more/);
      expect(h.sandbox.requests()).toEqual([]);
      expect(await auditSince(at, (e) => e.operation === 'file.retry')).toEqual([]);
    },
  );

  it.each(['<!channel>', DEMO.failedFileIds[1] ?? ''])(
    'an agent’s click carries a forged value %p that the list never offered: told the choice is not there, nothing sent',
    async (value) => {
      // Was a defect: the Retry button carries the file ID itself, and a click retried whatever
      // value it carried, even one no button of the list offered (docs/commands.md, "Shortcuts:
      // acting from the customer's message"; docs/security.md, "Trust nothing from the client").
      const { view, at } = await forgedRetryClick(value);
      await viewSaying(view.id, /not in this form any more|queued again|not retried/);
      await notificationsDone(h);
      expect(upstream(h, 'POST', RETRY_PATH)).toEqual([]);
      expect(await auditSince(at, (e) => e.operation === 'file.retry')).toEqual([]);
    },
  );
});

describe('hostile messages', () => {
  it('"Unblock viewer" on a message with @channel, a mention, mrkdwn, bidi controls and a number in a link offers only the number written', async () => {
    const text = [
      '<!channel> *URGENT* _read this_ ~now~ <@U0LEAD1>',
      '\u202e my number is \u2067۰۹۱۲\u200f ۱۲۳ ۴۵۶۷\u2069 \u202c',
      '<https://evil.example/track?phone=09351234567|click here> `rm -rf` > quote',
    ].join('\n');
    // Written as Slack keeps it: the markup is Slack's own (a person typing "<!channel>" gets it as markup).
    const message = h.slack.postAsUser(CHANNELS.support, CUSTOMER, 'x');
    const since = h.slack.calls.length;
    await h.send(
      messageAction({
        userId: USERS.agent.id,
        callbackId: SHORTCUTS.unblockFromMessage,
        message: { ts: message.ts, text, user: CUSTOMER },
        channelId: CHANNELS.support,
        responseUrl: h.slack.responseUrl('hostile'),
        triggerId: h.slack.issueTrigger(USERS.agent.id),
      }),
    );
    const view = await modalShown(h, since, CALLBACKS.shortcutUnblock);
    const blocks = said(view);
    expect(blocks).toContain('`09121234567`');
    expect(blocks).not.toContain('09351234567');
    expect(blocks.match(/shortcut_unblock_pick/g)?.length).toBe(2); // one block_id and one action_id
    for (const markup of ['<!channel>', '<@U0LEAD1>', 'evil.example', 'URGENT', '\\u202e', '\u202e']) {
      expect(blocks).not.toContain(markup);
    }
    expect(h.sandbox.requests()).toEqual([]);
  });

  it('"Unblock viewer" on a message with fifteen numbers offers the first ten, once each', async () => {
    const numbers = Array.from({ length: 15 }, (_, i) => `0912123${String(4500 + i)}`);
    const view = await unblockList([...numbers, numbers[0]].join(', '));
    const offered = [...said(view).matchAll(/`(0\d{10})`/g)].map((m) => m[1]);
    expect(offered).toEqual(numbers.slice(0, 10));
    expect(h.sandbox.requests()).toEqual([]);
  });

  it('"Retry conversion" on a message with a file ID only inside a link offers it', async () => {
    const fileId = DEMO.files.lecture3;
    const { since } = await messageShortcut(
      `see <https://panel.example/files/${fileId}|the panel>`.replace(/&/g, '&amp;'),
      SHORTCUTS.retryFromMessage,
    );
    const view = await modalShown(h, since, CALLBACKS.shortcutRetry);
    expect(said(view)).toContain(fileId);
    expect(upstream(h, 'POST', RETRY_PATH)).toEqual([]);
  });

  it('"Unblock viewer" on a 10,001-character message whose last number has a digit too many does not offer a shorter number', async () => {
    // Was a defect: the scan cut the message at 10,000 characters before finding the numbers, so a
    // number written across the cut was read short: "091212345678", which `/vidops unblock` refuses
    // as too long, was offered as 09121234567 (docs/commands.md, "Shortcuts: acting from the
    // customer's message": the same rule as `/vidops unblock`).
    const text = `${'a'.repeat(9988)} 091212345678`;
    expect(text.length).toBe(10_001);
    const { since } = await messageShortcut(text, SHORTCUTS.unblockFromMessage);
    const view = await anyModalAfter(since);
    expect(said(view)).not.toContain('`09121234567`');
    expect(view.callback_id).not.toBe(CALLBACKS.shortcutUnblock);
  });

  it('"Retry conversion" on a message whose 25-digit hex token crosses the 10,000th character does not offer a file ID', async () => {
    // Was a defect: the same cut offered the first 24 hex digits of a longer token as a file ID;
    // whole, the token is no file ID (docs/commands.md, "Shortcuts: acting from the customer's message").
    const token = `${DEMO.files.lecture3}f`;
    const text = `${'a'.repeat(9975)} ${token}`;
    expect(text.length).toBe(10_001);
    const { since } = await messageShortcut(text, SHORTCUTS.retryFromMessage);
    const view = await anyModalAfter(since);
    expect(said(view)).not.toContain(`"value":"${DEMO.files.lecture3}"`);
    expect(view.callback_id).toBe(CALLBACKS.retry);
  });
});

describe('what Slack refuses and what no handler takes', () => {
  it('Slack refuses to open the "Unblock viewer" modal (the trigger expired): the agent is told where they ran the shortcut', async () => {
    // Was a defect: a failed `views.open` of a message shortcut was only logged, though the payload
    // carries a response_url; the slash command tells the person in the same case (docs/slack.md,
    // "Shortcuts").
    h.slack.failNext('views.open', { error: 'expired_trigger_id' });
    const { answer, tag } = await messageShortcut(
      `blocked: ${DEMO.blockedMobiles[0]}`,
      SHORTCUTS.unblockFromMessage,
    );
    expect(answer.status).toBe(200);
    await h.slack.waitFor('views.open', (c) => c.response.error === 'expired_trigger_id');
    expect(h.sandbox.requests()).toEqual([]);
    const told = await h.slack.waitForResponse((p) => p.tag === tag, 4000).catch(() => null);
    expect(told?.body).toMatchObject({ response_type: 'ephemeral' });
  });

  it('an agent runs a shortcut vidops never declared: nothing opens, nothing is read or changed', async () => {
    const since = h.clock.now().toISOString();
    const calls = h.slack.calls.length;
    const { answer } = await messageShortcut(`blocked: ${DEMO.blockedMobiles[0]}`, 'unblock_everyone');
    expect(answer.status).not.toBe(200);
    expect(h.slack.calls.slice(calls).filter((c) => c.method.startsWith('views.'))).toEqual([]);
    expect(h.sandbox.requests()).toEqual([]);
    expect(await auditSince(since)).toEqual([]);
  });

  it('an agent submits the "Unblock viewer" list, a modal with no Submit: nothing runs', async () => {
    const view = await unblockList(`blocked: ${DEMO.blockedMobiles[0]}`);
    const since = h.clock.now().toISOString();
    const answer = await h.send(
      viewSubmission({
        userId: USERS.agent.id,
        callbackId: CALLBACKS.shortcutUnblock,
        privateMetadata: String(view.private_metadata),
        values: {},
        viewId: view.id,
      }),
    );
    expect(answer.status).not.toBe(200);
    expect(h.sandbox.requests()).toEqual([]);
    expect(await auditSince(since)).toEqual([]);
  });

  it('an outsider runs the global shortcut and clicks its buttons: refused in a modal, audited, nothing read', async () => {
    const since = h.clock.now().toISOString();
    const calls = h.slack.calls.length;
    const run = await h.send(
      globalShortcut({
        userId: USERS.outsider.id,
        callbackId: SHORTCUTS.menu,
        triggerId: h.slack.issueTrigger(USERS.outsider.id),
      }),
    );
    expect(run.status).toBe(200);
    const refused = await modalShown(h, calls, CALLBACKS.changeStatus);
    expect(said(refused)).toContain(NOT_ALLOWED);
    expect(
      h.slack.calls
        .slice(calls)
        .filter((c) => c.method === 'views.open')
        .map((c) => (c.args.view as { callback_id?: string }).callback_id),
    ).toEqual([CALLBACKS.changeStatus]);
    await h.waitForAudit(
      (e) =>
        e.type === 'denied' && e.actor.id === USERS.outsider.id && e.target === `shortcut ${SHORTCUTS.menu}`,
    );

    // A click on the menu's Protection button, forged on the refusal's view: refused and audited too.
    const click = await h.send(
      blockAction({
        userId: USERS.outsider.id,
        actionId: ACTIONS.menuProtect,
        value: 'protect',
        view: { id: refused.id, callback_id: CALLBACKS.menu, blocks: [] },
      }),
    );
    expect(click.status).toBe(200);
    await h.waitForAudit(
      (e) =>
        e.type === 'denied' &&
        e.actor.id === USERS.outsider.id &&
        e.target === `button ${ACTIONS.menuProtect}`,
    );
    expect(h.sandbox.requests()).toEqual([]);
    expect(
      (await auditSince(since)).filter((e) => e.actor.id === USERS.outsider.id).map((e) => e.type),
    ).toEqual(['denied', 'denied']);
  });
});

describe('a Persian-speaking agent and the menu', () => {
  let fa: Harness;

  beforeAll(async () => {
    fa = await startHarness({ env: { DEFAULT_LOCALE: 'fa' } });
    fa.slack.setUsers([
      { ...USERS.agent, locale: 'fa-IR' },
      USERS.lead,
      USERS.agent2,
      USERS.lead2,
      USERS.outsider,
    ]);
  });

  afterAll(() => fa.stop());

  /** The menu's button `actionId` clicked by the Persian agent: the form it shows. */
  async function persianForm(actionId: string, value: string, callbackId: string): Promise<StoredView> {
    const since = fa.slack.calls.length;
    await fa.send(
      globalShortcut({
        userId: USERS.agent.id,
        callbackId: SHORTCUTS.menu,
        triggerId: fa.slack.issueTrigger(USERS.agent.id),
      }),
    );
    const menu = await modalShown(fa, since, CALLBACKS.menu);
    const next = fa.slack.calls.length;
    await fa.action({
      userId: USERS.agent.id,
      actionId,
      value,
      view: {
        id: menu.id,
        blocks: menu.blocks ?? [],
        callback_id: CALLBACKS.menu,
        hash: String(menu.hash ?? ''),
      },
    });
    return modalShown(fa, next, callbackId);
  }

  it('opens the protection settings from the menu and reads the form in Persian', async () => {
    const form = await persianForm(ACTIONS.menuProtect, 'protect', CALLBACKS.protect);
    expect(JSON.stringify(form.title)).toMatch(/[\u0600-\u06ff]/);
  });

  it('opens "Add to whitelist" from the menu and reads the form in Persian', async () => {
    // Was a defect: the menu built the whitelist form without the reader's language
    // (whitelistForm took none, so whitelistModal fell back to English), while the menu and its
    // wait were in Persian. docs/commands.md, "Languages of the commands": the whitelist forms are
    // written in the reader's language.
    const form = await persianForm(ACTIONS.menuWhitelistAdd, 'add', CALLBACKS.whitelistChange);
    expect(JSON.stringify(form.title)).toContain('افزودن به لیست سفید');
    expect(said(form)).not.toContain('IP addresses to add');
  });

  it('clicks Add on the whitelist message and reads the wait and the form in Persian', async () => {
    // Was a defect, the same as the menu's: the Add and Remove buttons of `/vidops whitelist`
    // opened an English wait ("Add to whitelist") and an English form.
    const since = fa.slack.calls.length;
    await fa.action({
      userId: USERS.agent.id,
      actionId: ACTIONS.whitelistAdd,
      value: 'add',
      triggerId: fa.slack.issueTrigger(USERS.agent.id),
    });
    const form = await modalShown(fa, since, CALLBACKS.whitelistChange);
    expect(JSON.stringify(form.title)).toContain('افزودن به لیست سفید');
    const opened = fa.slack.calls.slice(since).find((c) => c.method === 'views.open');
    expect(JSON.stringify(opened?.args)).not.toContain('Add to whitelist');
  });
});
