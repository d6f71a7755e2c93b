import { shortHash } from '../../src/core/audit-chain.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS } from '../../src/views/ids.js';
import { CHANNELS, type Harness, seedWorkspace, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  hasButtons,
  notificationsDone,
  reaches,
  requestIdIn,
  until,
} from './change-helpers.js';

/**
 * What vidops tells Slack after the fact, attacked end to end: the approval message deleted by
 * someone, a requester Slack cannot DM, and the audit channel's outbox through a long outage as
 * /metrics shows it.
 * @see docs/architecture.md, "Approvals" and "Audit log"; docs/operations.md, "Running it"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

/** An agent asks for a whitelist change; returns it once its message is posted and nothing waits. */
async function posted(ip: string) {
  const slash = await h.slash(`whitelist add ${ip}`);
  const id = requestIdIn(JSON.stringify((await slash.reply()).body));
  const message = await approvalMessage(h, id, hasButtons);
  await notificationsDone(h);
  return { id, message };
}

/** Deletes a message as a person with the rights to would (the bot's token reaches the emulator's chat.delete). */
async function deleteMessage(channel: string, ts: string): Promise<void> {
  const response = await fetch(`${h.slack.apiUrl}chat.delete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${h.slack.botToken}` },
    body: JSON.stringify({ channel, ts }),
  });
  const body = (await response.json()) as { ok?: boolean };
  expect(body.ok).toBe(true);
}

function metric(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('someone deleted the approval message, then a lead approves', () => {
  it('the update Slack refuses (message_not_found) is given up, not retried for ever, and the requester is still told', async () => {
    const { id, message } = await posted('5.160.12.60');
    await deleteMessage(CHANNELS.approvals, message.ts);
    const since = h.slack.calls.length;

    const lead = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
    expect(String((await lead.reply()).body.text)).toContain(`You approved *${id}*`);
    await reaches(h, id, 'succeeded');
    await notificationsDone(h);

    const calls = h.slack.calls.slice(since);
    const updates = calls.filter((c) => c.method === 'chat.update' && c.args.ts === message.ts);
    expect(updates.map((c) => c.response.error)).toEqual(['message_not_found']);
    const dm = calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel !== CHANNELS.audit &&
        c.args.channel !== CHANNELS.approvals &&
        JSON.stringify(c.args).includes(id),
    );
    expect(dm.map((c) => c.response.ok)).toEqual([true]);
    expect(
      calls.filter((c) => c.method === 'views.publish' && c.args.user_id === USERS.agent.id).length,
    ).toBe(1);
  });
});

describe('Slack cannot reach the requester by DM', () => {
  it.each(['user_not_found', 'cannot_dm_bot'])(
    '%s: the DM is given up once, and the approval message and the Home tabs are still updated',
    async (error) => {
      const { id, message } = await posted(error === 'user_not_found' ? '5.160.12.61' : '5.160.12.62');
      const since = h.slack.calls.length;
      h.slack.failNext('conversations.open', { error }, 1);

      const lead = await click(h, {
        userId: USERS.lead.id,
        actionId: ACTIONS.approve,
        requestId: id,
        message,
      });
      expect(String((await lead.reply()).body.text)).toContain(`You approved *${id}*`);
      await approvalMessage(h, id, (m) => m.ts === message.ts && m.text.includes('approved and done'));
      await notificationsDone(h);

      const calls = h.slack.calls.slice(since);
      expect(
        calls.filter((c) => c.method === 'conversations.open').map((c) => c.response.error ?? 'ok'),
      ).toEqual([error]);
      expect(
        calls.filter((c) => c.method === 'chat.update' && c.args.ts === message.ts).map((c) => c.response.ok),
      ).toEqual([true]);
      for (const user of [USERS.agent.id, USERS.lead.id, USERS.lead2.id])
        expect({
          user,
          homes: calls.filter((c) => c.method === 'views.publish' && c.args.user_id === user).length,
        }).toEqual({ user, homes: 1 });
    },
  );
});

describe('the audit channel is gone for a long outage', () => {
  it('/metrics shows every event still owed to the channel, and all are posted once when it is back', async () => {
    await until(async () => ((await h.store.outboxDepth()) === 0 ? true : undefined), 'a quiet outbox');
    const firstNew = ((await h.store.auditHead())?.seq ?? 0) + 1;
    h.slack.failNext('chat.postMessage', { error: 'channel_not_found' }, 100_000);

    for (const mobile of DEMO.unblockedMobiles.slice(0, 3))
      await (await h.slash(`unblock ${mobile}`)).reply();
    const events = (await h.store.listAudit()).filter((e) => e.seq >= firstNew);
    expect(events.length).toBeGreaterThanOrEqual(6);
    await until(
      () =>
        h.slack
          .callsTo('chat.postMessage')
          .filter((c) => c.args.channel === CHANNELS.audit && c.response.error === 'channel_not_found')
          .length >= 3
          ? true
          : undefined,
      'a few refused posts',
    );

    const scrape = await h.get('/metrics');
    expect(scrape.status).toBe(200);
    expect(metric(scrape.text, 'vidops_audit_outbox_depth')).toBe(events.length);
    expect(metric(scrape.text, 'vidops_audit_posts_total{outcome="error"}')).toBeGreaterThanOrEqual(3);

    // The channel is back (the workspace as it was, failures forgotten).
    h.slack.reset();
    seedWorkspace(h.slack);
    await until(async () => ((await h.store.outboxDepth()) === 0 ? true : undefined), 'the backlog posted');
    const text = h.slack
      .messages(CHANNELS.audit)
      .map((m) => JSON.stringify(m.blocks ?? []))
      .join('\n');
    for (const event of events) {
      const seen = text.split(`\`${shortHash(event.hash)}\``).length - 1;
      expect({ seq: event.seq, seen }).toEqual({ seq: event.seq, seen: 1 });
    }
    expect(metric((await h.get('/metrics')).text, 'vidops_audit_outbox_depth')).toBe(0);
  });
});
