import { appHomeOpened, personOf } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  expectAuditWitnessed,
  hasButtons,
  modalStatus,
  openModal,
  reaches,
  readable,
  requestIdIn,
  submitModal,
  typed,
  until,
  upstream,
  valuesOf,
} from './change-helpers.js';

/**
 * The key scenarios in both of Slack's ways of reaching vidops: HTTP (signed posts to
 * /slack/events) and Socket Mode (the manifest's default: vidops opens the connection with its
 * app-level token, the emulator sends envelopes and reads the acks). Each runs on the one
 * emulator, against the real app and the sandbox.
 * @see docs/architecture.md, "Emulator and playground"; docs/slack.md, "Deadlines"
 */

describe.each(['http', 'socket'] as const)('in %s mode', (mode) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ mode });
  });

  afterAll(async () => {
    await h.stop();
  });

  beforeEach(() => {
    h.sandbox.reset();
  });

  it('vidops connected the way the mode says', () => {
    expect(h.slack.socketMode.connections).toBe(mode === 'socket' ? 1 : 0);
    expect(h.slack.callsTo('apps.connections.open').length).toBe(mode === 'socket' ? 1 : 0);
  });

  it('an agent unblocks a viewer typed in Persian digits and reads the masked reply', async () => {
    const slash = await h.slash('unblock ۰۹۱۲ ۱۲۳ ۴۵۶۷');
    expect(slash.status).toBe(200);
    const reply = readable(await slash.reply());
    expect(reply).toContain('0912***4567');
    expect(reply).not.toContain('09121234567');
    expect(upstream(h, 'POST', '/v1/analysis/user/video/anomaly').map((r) => r.body)).toEqual([
      { mobileNumber: '09121234567' },
    ]);
  });

  it('an agent asks for a folder delete, a wrong ID is refused inline, a lead approves: one DELETE', async () => {
    const folder = DEMO.folders.lectures;
    const view = await openModal(h, `folder delete ${folder}`, CALLBACKS.deleteConfirm);
    const wrong = await submitModal(
      h,
      view,
      valuesOf(view, {
        [BLOCKS.confirmText]: typed(DEMO.folders.podcasts),
        [BLOCKS.reason]: typed('course ended'),
      }),
    );
    expect(wrong).toMatchObject({
      response_action: 'errors',
      errors: { [BLOCKS.confirmText]: expect.any(String) },
    });

    const since = h.slack.calls.length;
    const right = await submitModal(
      h,
      view,
      valuesOf(view, { [BLOCKS.confirmText]: typed(folder), [BLOCKS.reason]: typed('course ended') }),
    );
    expect(right).toMatchObject({ response_action: 'update' });
    const id = requestIdIn(await modalStatus(h, since, view.id, /posted to/));

    const message = await approvalMessage(h, id);
    const lead = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
    expect(lead.status).toBe(200);
    expect(readable(await lead.reply())).toContain(`You approved *${id}*`);
    await reaches(h, id, 'succeeded');
    expect(upstream(h, 'DELETE', '/v1/storage/bucket').map((r) => r.body)).toEqual([{ bucketId: folder }]);
    const done = await approvalMessage(h, id, (m) => !hasButtons(m));
    expect(done.text).toContain('Delete folder: approved and done');
    await expectAuditWitnessed(h);
  });

  it('the App Home lists the request an agent asked for', async () => {
    const slash = await h.slash('whitelist add 203.0.114.7');
    const id = requestIdIn(JSON.stringify((await slash.reply()).body));
    const since = h.slack.calls.length;
    const opened = await h.send(appHomeOpened({ userId: USERS.agent.id }));
    expect(opened.status).toBe(200);
    const publish = await until(
      () =>
        h.slack.calls
          .slice(since)
          .find((c) => c.method === 'views.publish' && c.args.user_id === USERS.agent.id),
      'the Home tab',
    );
    expect(JSON.stringify(publish.args.view)).toContain(id);
  });

  it('a person types a command and Slack delivers it as this mode does: the reply is theirs alone', async () => {
    const agent = personOf(h.slack, USERS.agent.id);
    const result = await agent.command('unblock 0935 123 4567', { channel: CHANNELS.support });
    expect(result.delivery).toMatchObject({ ok: true, via: mode });
    const reply = await until(
      () => h.slack.ephemerals(USERS.agent.id, CHANNELS.support).find((e) => e.from === 'app'),
      'the ephemeral reply',
    );
    expect(JSON.stringify(reply)).toContain('0935***4567');
    expect(h.slack.ephemerals(USERS.lead.id)).toEqual([]);
  });
});

describe('Socket Mode, what only it has', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ mode: 'socket' });
  });

  afterAll(async () => {
    await h.stop();
  });

  it('Slack asks vidops to reconnect (disconnect): it opens a new connection and keeps answering', async () => {
    const hellos = h.slack.socketMode.helloCount;
    h.slack.socketMode.requestReconnect();
    // The client waits a few seconds before it reconnects (its own back-off).
    await until(() => (h.slack.socketMode.helloCount > hellos ? true : undefined), 'a new hello', 20_000);
    await h.slack.socketMode.waitForConnections(1);
    expect(h.slack.callsTo('apps.connections.open').length).toBe(2);
    const slash = await h.slash('unblock 09121234567');
    expect(slash.status).toBe(200);
    expect(readable(await slash.reply())).toContain('0912***4567');
  }, 30_000);

  it('an event Slack sends again over the socket (the same event_id) is handled once', async () => {
    const since = h.slack.calls.length;
    const event = appHomeOpened({ userId: USERS.lead.id, eventId: 'Ev0SOCKETTWICE' });
    expect((await h.send(event)).status).toBe(200);
    expect((await h.send(event)).status).toBe(200);
    await until(
      () => h.slack.calls.slice(since).find((c) => c.method === 'views.publish'),
      'the Home tab published',
    );
    // Both envelopes were acked; a command answered after them shows the second had its turn.
    await (await h.slash('help', { userId: USERS.lead.id })).reply();
    expect(h.slack.calls.slice(since).filter((c) => c.method === 'views.publish')).toHaveLength(1);
  });
});
