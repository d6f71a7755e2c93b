import type { JsonObject } from '../../src/core/json.js';
import { type Person, personOf, type StoredView } from '../../src/emulator/index.js';
import { FSI, PDI } from '../../src/i18n/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import {
  ACTIONS,
  BLOCKS,
  CALLBACKS,
  INPUT_ACTION,
  SHORTCUTS,
  shortcutPickBlock,
} from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import { modalShown, notificationsDone, until, upstream } from './change-helpers.js';

/**
 * The shortcuts end to end, in both of Slack's ways of reaching vidops: an agent runs "Unblock
 * viewer" or "Retry conversion" on a customer's message in the support channel and acts with one
 * click in the modal; the global shortcut's menu; someone outside AGENTS reaches nothing; a
 * Persian reader reads the modal in Persian.
 * @see docs/slack.md, "Shortcuts"
 */

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
const RETRY_PATH = '/v1/storage/bucket/file/queue/retry';
const CUSTOMER = 'U0CUSTOMER';

describe.each(['http', 'socket'] as const)('in %s mode', (mode) => {
  let h: Harness;
  let agent: Person;

  beforeAll(async () => {
    h = await startHarness({ mode });
    agent = personOf(h.slack, USERS.agent.id);
  });

  afterAll(() => h.stop());

  beforeEach(async () => {
    // The emulator signs its HTTP deliveries with the real time: the clock stays where it is
    // (these tests stay far below the unblock's 30 an hour).
    await notificationsDone(h);
    h.sandbox.reset();
  });

  /** A customer's message in the support channel, and the agent's shortcut on it; the modal it opens. */
  async function shortcutOn(
    text: string,
    callbackId: string,
    modal: string,
    person = agent,
  ): Promise<StoredView> {
    const message = h.slack.postAsUser(CHANNELS.support, CUSTOMER, text);
    const since = h.slack.calls.length;
    const run = await person.messageShortcut({ channel: CHANNELS.support, ts: message.ts, callbackId });
    expect(run.ok && run.delivery).toMatchObject({ ok: true });
    return modalShown(h, since, modal);
  }

  /** What a view says, as one string (for `toContain`). */
  const said = (view: JsonObject | undefined) => JSON.stringify(view?.blocks ?? []);

  /** The view once it says something matching `pattern`. */
  function viewSaying(viewId: string, pattern: RegExp): Promise<StoredView> {
    return until(() => {
      const view = h.slack.view(viewId);
      return view !== undefined && pattern.test(said(view)) ? view : undefined;
    }, `the modal to say ${pattern}`);
  }

  it('"Unblock viewer" on "شماره من ۰۹۱۲۳۴۵۶۷۸۹ است" offers 09123456789 and one click unblocks it', async () => {
    const view = await shortcutOn(
      'شماره من ۰۹۱۲۳۴۵۶۷۸۹ است',
      SHORTCUTS.unblockFromMessage,
      CALLBACKS.shortcutUnblock,
    );
    // Offered in full in the private modal; the number never travels in a button's value.
    expect(said(view)).toContain('`09123456789`');
    expect(JSON.stringify(view.blocks)).not.toMatch(/"value":"[^"]*09123456789/);

    const click = await agent.click({
      viewId: view.id,
      actionId: ACTIONS.shortcutUnblockPick,
      blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 0),
    });
    expect(click.ok).toBe(true);
    const after = await viewSaying(view.id, /is unblocked|was not blocked|unblocked/);
    expect(said(after)).toContain('0912***6789');
    expect(upstream(h, 'POST', UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: '09123456789' }]);
    const requested = await h.waitForAudit(
      (e) => e.type === 'requested' && e.operation === 'viewer.unblock' && e.actor.id === USERS.agent.id,
    );
    expect(requested.params).toEqual({ mobileNumber: '09123456789' });
    await h.waitForAudit((e) => e.type === 'succeeded' && e.requestId === requested.requestId);
    // The list is offered again under the outcome: the next click works too.
    expect(said(after)).toContain(ACTIONS.shortcutUnblockPick);
  });

  it('after an unblock in "Unblock viewer", its History button shows the viewer’s history over the list', async () => {
    const view = await shortcutOn(
      'blocked: 09124567890',
      SHORTCUTS.unblockFromMessage,
      CALLBACKS.shortcutUnblock,
    );
    await agent.click({ viewId: view.id, actionId: ACTIONS.shortcutUnblockPick });
    await viewSaying(view.id, new RegExp(ACTIONS.viewerHistory));
    const since = h.slack.calls.length;

    await agent.click({ viewId: view.id, actionId: ACTIONS.viewerHistory });

    const history = await modalShown(h, since, CALLBACKS.changeStatus);
    expect(said(history)).toContain('1 unblock in the last 30 days');
    expect(said(history)).toContain('0912***7890');
    expect(said(history)).not.toContain('09124567890');
  });

  it('two quick clicks on the same number unblock it once', async () => {
    const blocked = DEMO.blockedMobiles[0] ?? '';
    const view = await shortcutOn(
      `blocked: ${blocked}`,
      SHORTCUTS.unblockFromMessage,
      CALLBACKS.shortcutUnblock,
    );
    const target = { viewId: view.id, actionId: ACTIONS.shortcutUnblockPick };
    await Promise.all([agent.click(target), agent.click(target)]);
    await viewSaying(view.id, /unblocked/);
    await notificationsDone(h);
    expect(upstream(h, 'POST', UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: blocked }]);
  });

  it('a message with two numbers offers both; the second is unblocked, not the first', async () => {
    const [first = '', second = ''] = DEMO.blockedMobiles;
    const view = await shortcutOn(
      `Hi, two of us are blocked: ${first} and +98 ${second.slice(1, 4)} ${second.slice(4, 7)} ${second.slice(7)}`,
      SHORTCUTS.unblockFromMessage,
      CALLBACKS.shortcutUnblock,
    );
    expect(said(view)).toContain(`\`${first}\``);
    expect(said(view)).toContain(`\`${second}\``);
    await agent.click({
      viewId: view.id,
      actionId: ACTIONS.shortcutUnblockPick,
      blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 1),
    });
    await viewSaying(view.id, /unblocked/);
    expect(upstream(h, 'POST', UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: second }]);
    expect(h.sandbox.state().viewers.find((v) => v.mobileNumber === second)?.blocked).toBe(false);
    expect(h.sandbox.state().viewers.find((v) => v.mobileNumber === first)?.blocked).toBe(true);
  });

  it('a message with no number offers the form; the number typed is unblocked and the answer lands in the channel', async () => {
    const view = await shortcutOn(
      'my video does not play, error 9910',
      SHORTCUTS.unblockFromMessage,
      CALLBACKS.unblock,
    );
    expect(said(view)).toContain('No mobile number was found');
    const blocked = DEMO.blockedMobiles[2] ?? '';
    const submitted = await agent.submit(view.id, { [BLOCKS.mobile]: { [INPUT_ACTION]: blocked } });
    expect(submitted.outcome).toBe('closed');
    const answer = await until(
      () => h.slack.ephemerals(USERS.agent.id, CHANNELS.support).find((e) => /unblocked/.test(e.text)),
      'the answer in the support channel',
    );
    expect(answer.text).toContain(`${blocked.slice(0, 4)}***${blocked.slice(-4)}`);
    expect(upstream(h, 'POST', UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: blocked }]);
  });

  it('a foreign number is refused in the modal with the rule’s reason, and nothing is sent', async () => {
    const view = await shortcutOn(
      'my number is +63 917 123 4567',
      SHORTCUTS.unblockFromMessage,
      CALLBACKS.unblock,
    );
    expect(said(view)).toContain('No number in this message can be unblocked here');
    expect(said(view)).toContain('is a mobile number in the Philippines (PH)');
    expect(h.sandbox.requests()).toEqual([]);
  });

  it('"Retry conversion" on a message with a file ID retries it with one click', async () => {
    const fileId = DEMO.files.lecture3;
    const view = await shortcutOn(
      `hi, file ${fileId} shows an error`,
      SHORTCUTS.retryFromMessage,
      CALLBACKS.shortcutRetry,
    );
    expect(said(view)).toContain(fileId);
    await agent.click({ viewId: view.id, actionId: ACTIONS.shortcutRetryPick });
    const after = await viewSaying(view.id, /queued again|not retried|refused/);
    expect(said(after)).toContain('is queued again');
    expect(upstream(h, 'POST', RETRY_PATH).map((r) => r.body)).toEqual([{ fileId }]);
    const requested = await h.waitForAudit(
      (e) => e.type === 'requested' && e.operation === 'file.retry' && e.actor.id === USERS.agent.id,
    );
    expect(requested.params).toEqual({ fileId });
    await h.waitForAudit((e) => e.type === 'succeeded' && e.requestId === requested.requestId);
  });

  it('someone outside AGENTS runs the shortcut: nothing reaches the service, the refusal is audited and said', async () => {
    const since = h.slack.calls.length;
    const outsider = personOf(h.slack, USERS.outsider.id);
    const view = await shortcutOn(
      'شماره من ۰۹۱۲۳۴۵۶۷۸۹ است',
      SHORTCUTS.unblockFromMessage,
      CALLBACKS.changeStatus,
      outsider,
    );
    expect(said(view)).toContain('only for the support team');
    const denied = await h.waitForAudit((e) => e.type === 'denied' && e.actor.id === USERS.outsider.id);
    expect(denied).toMatchObject({
      operation: 'message_action',
      target: `shortcut ${SHORTCUTS.unblockFromMessage}`,
    });
    expect(h.sandbox.requests()).toEqual([]);
    // No modal of the shortcut opened: the handler never ran.
    const opened = h.slack.calls.slice(since).filter((c) => c.method === 'views.open');
    expect(opened.map((c) => (c.args.view as JsonObject).callback_id)).toEqual([CALLBACKS.changeStatus]);
  });

  it('the global shortcut opens the menu; "Retry a conversion" retries the file typed and answers in a DM', async () => {
    const since = h.slack.calls.length;
    const run = await agent.globalShortcut(SHORTCUTS.menu);
    expect(run.ok && run.delivery.ok).toBe(true);
    const menu = await modalShown(h, since, CALLBACKS.menu);
    const buttons = said(menu);
    for (const action of [
      ACTIONS.menuUnblock,
      ACTIONS.menuRetry,
      ACTIONS.menuProtect,
      ACTIONS.menuWhitelistAdd,
    ]) {
      expect(buttons).toContain(action);
    }
    const next = h.slack.calls.length;
    await agent.click({ viewId: menu.id, actionId: ACTIONS.menuRetry });
    const form = await modalShown(h, next, CALLBACKS.retry);
    const fileId = DEMO.files.episode3;
    const submitted = await agent.submit(form.id, { [BLOCKS.fileId]: { [INPUT_ACTION]: fileId } });
    expect(submitted.outcome).toBe('closed');
    const dm = await h.slack.waitFor(
      'chat.postMessage',
      (c) => c.args.channel === USERS.agent.id && /queued again/.test(String(c.args.text)),
    );
    expect(String(dm.args.text)).toContain(fileId);
    expect(upstream(h, 'POST', RETRY_PATH).map((r) => r.body)).toEqual([{ fileId }]);
  });

  it('the menu opens the protection settings form with the current values', async () => {
    const since = h.slack.calls.length;
    await agent.globalShortcut(SHORTCUTS.menu);
    const menu = await modalShown(h, since, CALLBACKS.menu);
    const next = h.slack.calls.length;
    await agent.click({ viewId: menu.id, actionId: ACTIONS.menuProtect });
    const form = await modalShown(h, next, CALLBACKS.protect);
    expect(form.id).toBe(menu.id);
    // Read from the service, as `/vidops protect` does.
    expect(h.sandbox.requests().filter((r) => r.method === 'GET').length).toBeGreaterThan(0);
  });
});

describe('a Persian-speaking agent', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { DEFAULT_LOCALE: 'fa' } });
    // Persian by default, and a Persian Slack wherever vidops asks Slack for the agent's locale.
    const persian = { ...USERS.agent, locale: 'fa-IR' };
    h.slack.setUsers([persian]);
  });

  afterAll(() => h.stop());

  it('runs "Unblock viewer" on "شماره من ۰۹۱۲۳۴۵۶۷۸۹ است" and reads the modal in Persian, the number masked, in Latin digits, isolated', async () => {
    const agent = personOf(h.slack, USERS.agent.id);
    const message = h.slack.postAsUser(CHANNELS.support, CUSTOMER, 'شماره من ۰۹۱۲۳۴۵۶۷۸۹ است');
    const since = h.slack.calls.length;
    const run = await agent.messageShortcut({
      channel: CHANNELS.support,
      ts: message.ts,
      callbackId: SHORTCUTS.unblockFromMessage,
    });
    expect(run.ok && run.delivery).toMatchObject({ ok: true });
    const view = await modalShown(h, since, CALLBACKS.shortcutUnblock);

    expect(view.title).toMatchObject({ text: 'رفع مسدودی بیننده' });
    expect(view.close).toMatchObject({ text: 'تمام' });
    const blocks = JSON.stringify(view.blocks);
    expect(blocks).toContain('شماره‌های این پیام. با یک کلیک مسدودی برداشته می‌شود');
    expect(blocks).toContain(`${FSI}\`09123456789\`${PDI}`);
    expect(blocks).toContain('"text":"رفع مسدودی"');
    expect(blocks).not.toMatch(/Unblock|Numbers in this message/);

    // One click still unblocks the number itself, and the list comes back in Persian.
    await agent.click({
      viewId: view.id,
      actionId: ACTIONS.shortcutUnblockPick,
      blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 0),
    });
    const after = await until(() => {
      const shown = h.slack.view(view.id);
      return shown !== undefined && JSON.stringify(shown.blocks).includes('"type":"divider"')
        ? shown
        : undefined;
    }, 'the outcome above the list');
    expect(JSON.stringify(after.blocks)).toContain(`${FSI}\`0912***6789\``);
    expect(upstream(h, 'POST', UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: '09123456789' }]);
  });
});
