import { createVidops, type Vidops } from '../../src/app.js';
import type { RecordedCall } from '../../src/emulator/index.js';
import { ACTIONS } from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
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
 * Notifications ride the outbox: a lead's Approve is answered as soon as the change committed,
 * and the approval message, the requester's DM and the Home tabs follow from the notification
 * worker, exactly once each, through Slack failures and a restart.
 * @see docs/architecture.md, "Approvals"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

/** The people whose Home tabs show a whitelist request: the requester and every lead. */
const HOMES = [USERS.agent.id, USERS.lead.id, USERS.lead2.id];

/** An agent asks for a whitelist change; returns it once its message is posted and nothing is waiting. */
async function posted(ip: string) {
  const slash = await h.slash(`whitelist add ${ip}`);
  const id = requestIdIn(JSON.stringify((await slash.reply()).body));
  const message = await approvalMessage(h, id, hasButtons);
  await notificationsDone(h);
  return { id, message };
}

/** What Slack did about request `id` from call number `since` on, successful calls only unless `all`. */
function slackSince(since: number, id: string, ts: string, all = false) {
  const calls = h.slack.calls.slice(since).filter((c) => all || c.response.ok === true);
  const dmChannels = new Set(
    calls
      .filter((c) => c.method === 'conversations.open' && c.args.users === USERS.agent.id)
      .map((c) => {
        const channel = c.response.channel;
        return typeof channel === 'object' && channel !== null && !Array.isArray(channel)
          ? String(channel.id)
          : '';
      }),
  );
  const about = (c: RecordedCall) => JSON.stringify(c.args).includes(id);
  return {
    updates: calls.filter((c) => c.method === 'chat.update' && c.args.ts === ts),
    dms: calls.filter(
      (c) => c.method === 'chat.postMessage' && dmChannels.has(String(c.args.channel)) && about(c),
    ),
    homes: (userId: string) => calls.filter((c) => c.method === 'views.publish' && c.args.user_id === userId),
  };
}

async function toldOfSuccess(since: number, id: string, ts: string) {
  await approvalMessage(h, id, (m) => !hasButtons(m) && m.text.includes('approved and done'));
  return until(() => {
    const told = slackSince(since, id, ts);
    return told.dms.length > 0 && HOMES.every((u) => told.homes(u).length > 0) ? told : undefined;
  }, 'the DM and the Home tabs');
}

describe('a lead approves', () => {
  it('the answer comes as soon as the change committed, before the message, the DM or a Home tab changes', async () => {
    const { id, message } = await posted('5.160.12.40');
    const since = h.slack.calls.length;

    const lead = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
    const reply = await lead.reply();
    expect(String(reply.body.text)).toBe(
      `:white_check_mark: You approved *${id}* (Update whitelist); it ran and is done.`,
    );

    const told = await toldOfSuccess(since, id, message.ts);
    expect(told.updates).toHaveLength(1);
    const after = [...told.updates, ...told.dms, ...HOMES.flatMap((u) => told.homes(u))];
    for (const call of after) {
      expect({ method: call.method, afterAnswer: call.at.getTime() >= reply.at.getTime() }).toEqual({
        method: call.method,
        afterAnswer: true,
      });
    }
    // Nothing about the request reached Slack between the click and its answer (the audit channel
    // aside: its publisher has its own outbox).
    const before = h.slack.calls
      .slice(since)
      .filter(
        (c) =>
          c.at.getTime() < reply.at.getTime() &&
          c.args.channel !== CHANNELS.audit &&
          JSON.stringify(c.args).includes(id),
      );
    expect(before.map((c) => c.method)).toEqual([]);
  });
});

describe('Slack fails while a lead approves', () => {
  it('500s, then a 429 with Retry-After: once Slack recovers, the message, the DM and each Home tab are updated exactly once', async () => {
    const { id, message } = await posted('5.160.12.41');
    const since = h.slack.calls.length;
    h.slack.failNext('chat.update', { status: 500 }, 4);
    h.slack.failNext('conversations.open', { status: 429, retryAfter: 1 }, 1);
    h.slack.failNext('views.publish', { status: 500 }, 4);

    const lead = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
    expect(String((await lead.reply()).body.text)).toContain(`You approved *${id}*`);
    await reaches(h, id, 'succeeded');

    const told = await toldOfSuccess(since, id, message.ts);
    await notificationsDone(h);
    const tried = slackSince(since, id, message.ts, true);
    expect(tried.updates.filter((c) => c.status === 500).length).toBeGreaterThan(0);
    expect(h.slack.callsTo('conversations.open').filter((c) => c.status === 429)).toHaveLength(1);

    expect(told.updates).toHaveLength(1);
    expect(told.dms).toHaveLength(1);
    expect(String(told.dms[0]?.args.text)).toContain('was approved and is done');
    for (const user of HOMES)
      expect({ user, published: told.homes(user).length }).toEqual({ user, published: 1 });
    expect(h.slack.message(CHANNELS.approvals, message.ts)?.text).toContain('approved and done');
  });
});

describe('the process stops with notifications waiting', () => {
  it('the next process on the same database does them, once', async () => {
    const { id, message } = await posted('5.160.12.42');
    const since = h.slack.calls.length;
    // Slack asks for a pause longer than the stop waits: the jobs are left in the store.
    h.slack.failNext('chat.update', { status: 429, retryAfter: 5 }, 1);

    const lead = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
    expect(String((await lead.reply()).body.text)).toContain(`You approved *${id}*`);
    await h.slack.waitFor('chat.update', (c) => c.status === 429 && c.args.ts === message.ts);
    await h.vidops.stop();
    expect(slackSince(since, id, message.ts).dms).toEqual([]);

    // The pause Slack asked for has passed by the time the next process starts.
    h.clock.advance(10_000);
    let next: Vidops | undefined;
    try {
      next = await createVidops({
        config: h.config,
        clock: h.clock.now,
        logDestination: { write: () => undefined },
        host: '127.0.0.1',
        strictBlockKit: true,
        publisher: { minIntervalMs: 50, backoffBaseMs: 50, backoffMaxMs: 400, idlePollMs: 100 },
      });
      await next.start();
      const told = await toldOfSuccess(since, id, message.ts);
      await until(
        async () => ((await next?.store.notificationDepth()) === 0 ? true : undefined),
        'the jobs done',
      );
      expect(told.updates).toHaveLength(1);
      expect(told.dms).toHaveLength(1);
      for (const user of HOMES)
        expect({ user, published: told.homes(user).length }).toEqual({ user, published: 1 });
    } finally {
      await next?.stop();
    }
  });
});
