import { appHomeOpened, slashCommand } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import { requestIdIn, until } from './change-helpers.js';

/**
 * What a person is told when Slack will no longer take the answer to their command: a
 * `response_url` used up (5 posts) or past its 30 minutes answers 404. The change ran all the
 * same; the person must still be able to learn how it ended, and that the reply did not arrive.
 * @see docs/slack.md, "Deadlines"; docs/operations.md, "Running it"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

/** Every text vidops put before `user` after call number `since`: ephemerals, DMs and their Home tab. */
function toldTo(user: string, since: number): string {
  const dms = new Set(h.slack.dmsOf(user));
  return h.slack.calls
    .slice(since)
    .filter(
      (c) =>
        (c.method === 'chat.postEphemeral' && c.args.user === user) ||
        (c.method === 'chat.postMessage' && dms.has(String(c.args.channel))) ||
        (c.method === 'views.publish' && c.args.user_id === user),
    )
    .map((c) => JSON.stringify(c.args))
    .join('\n');
}

describe('an agent unblocks a viewer while Slack no longer takes the reply', () => {
  it('the response_url answers 404: the agent still learns the viewer was unblocked, and that the reply could not be delivered', async () => {
    const mobile = DEMO.blockedMobiles[0] ?? '';
    const tag = 'used-up';
    const responseUrl = h.slack.responseUrl(tag);
    // Five posts already went to this URL (or its 30 minutes are over): Slack answers 404 now.
    for (let i = 0; i < 5; i += 1)
      await fetch(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `earlier ${i}` }),
      });
    const since = h.slack.calls.length;

    const ack = await h.send(
      slashCommand({ text: `unblock ${mobile}`, userId: USERS.agent.id, responseUrl }),
    );
    expect(ack.status).toBe(200);
    await h.waitForAudit((e) => e.type === 'succeeded' && e.operation === 'viewer.unblock');
    // vidops tried to answer, and Slack refused.
    const deadline = Date.now() + 5000;
    while (h.slack.responsePosts.filter((p) => p.tag === tag).length < 6 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(h.slack.responsePosts.filter((p) => p.tag === tag).map((p) => p.status)).toContain(404);
    await new Promise((r) => setTimeout(r, 1500));

    const told = toldTo(USERS.agent.id, since);

    // The outcome is there when the agent opens their Home tab...
    const opened = h.slack.calls.length;
    expect((await h.send(appHomeOpened({ userId: USERS.agent.id }))).status).toBe(200);
    const deadlineHome = Date.now() + 3000;
    while (toldTo(USERS.agent.id, opened) === '' && Date.now() < deadlineHome)
      await new Promise((r) => setTimeout(r, 20));
    expect(toldTo(USERS.agent.id, opened)).toContain(mobile.slice(-4));

    // ...but nothing sent them there: no ephemeral, no DM, no refreshed Home says how it ended,
    // or that the reply could not be delivered. Slack shows the typed command and then nothing.
    expect(told).toMatch(/unblocked/i);
  });
});

describe('Slack refuses every Home tab for a long outage while an agent asks for a change', () => {
  it('an operator scrapes /metrics: the notifications still owed to Slack are counted there', async () => {
    h.slack.failNext('views.publish', { status: 500 }, 100_000);
    const asked = await h.slash('whitelist add 5.160.12.90');
    requestIdIn(JSON.stringify((await asked.reply()).body));
    await until(
      () => (h.slack.callsTo('views.publish').filter((c) => c.status === 500).length >= 2 ? true : undefined),
      'a few refused Home tabs',
    );
    const owed = await h.store.notificationDepth();
    expect(owed).toBeGreaterThan(0);

    const scrape = await h.get('/metrics');
    expect(scrape.status).toBe(200);
    // The audit outbox has its gauge; the notification outbox, as deep as it is, has none.
    expect(scrape.text).toMatch(/^vidops_\w*notification\w*(\{[^}]*\})? [1-9]/m);
  });
});
