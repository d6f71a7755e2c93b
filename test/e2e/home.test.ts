import type { JsonValue } from '../../src/core/json.js';
import type { RecordedCall } from '../../src/emulator/index.js';
import { appHomeOpened } from '../../src/emulator/index.js';
import { ACTIONS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import { notificationsDone, reaches, requestIdIn, until, upstream } from './change-helpers.js';

/**
 * The App Home tab end to end: what agents and leads see when they open it, deciding from it, and
 * the refresh after a request they are involved in changes.
 * @see docs/architecture.md, "Approvals"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

/** The next Home tab published for `userId` after call number `since` that matches. */
async function publishedHome(
  userId: string,
  since: number,
  matches: (blocks: string) => boolean = () => true,
): Promise<{ call: RecordedCall; blocks: string; raw: JsonValue }> {
  const call = await until(
    () =>
      h.slack.calls
        .slice(since)
        .find(
          (c) =>
            c.method === 'views.publish' &&
            c.args.user_id === userId &&
            c.response.ok === true &&
            matches(JSON.stringify(c.args.view)),
        ),
    `a Home tab for ${userId}`,
  );
  const view = call.args.view;
  const raw = typeof view === 'object' && view !== null && !Array.isArray(view) ? (view.blocks ?? []) : [];
  return { call, blocks: JSON.stringify(raw), raw };
}

async function openHome(userId: string) {
  // A refresh the notifier still owes for an earlier change would be taken for this tab.
  await notificationsDone(h);
  const since = h.slack.calls.length;
  const answer = await h.send(appHomeOpened({ userId }));
  expect(answer.status).toBe(200);
  return publishedHome(userId, since);
}

describe('App Home', () => {
  let requestId = '';

  it('an agent opens App Home: their open request with Cancel, the settings, their own activity, nothing to approve', async () => {
    const asked = await h.slash('whitelist add 5.160.12.77');
    requestId = requestIdIn(JSON.stringify((await asked.reply()).body));

    const home = await openHome(USERS.agent.id);
    expect(home.blocks).toContain('Your open requests (1)');
    expect(home.blocks).toContain(requestId);
    expect(home.blocks).toContain(`"action_id":"${ACTIONS.cancel}"`);
    expect(home.blocks).not.toContain(ACTIONS.approve);
    expect(home.blocks).toContain('Text colour: yellow (#ffff00)');
    expect(home.blocks).toContain('Your recent activity');
    expect(home.blocks).toContain('asked to update the whitelist (adds 1 address)');
  });

  it('a lead opens App Home: the request awaits them with Approve and Reject, and the audit events are masked', async () => {
    await h.slash('unblock 09123456789');
    const home = await openHome(USERS.lead.id);
    expect(home.blocks).toContain('Awaiting your approval (1)');
    expect(home.blocks).toContain(`"action_id":"${ACTIONS.approve}"`);
    expect(home.blocks).toContain(`"action_id":"${ACTIONS.reject}"`);
    expect(home.blocks).toContain('Recent audit events');
    expect(home.blocks).toContain('0912***6789');
    expect(home.blocks).not.toContain('09123456789');
  });

  it('the lead approves from App Home; both Home tabs are refreshed, and a stale second click is told why on the tab', async () => {
    const lead = await openHome(USERS.lead.id);
    const published = lead.call.response.view;
    const viewId =
      typeof published === 'object' && published !== null && !Array.isArray(published)
        ? String(published.id)
        : '';
    const since = h.slack.calls.length;
    const clicked = await h.action({
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      value: requestId,
      view: { id: viewId, type: 'home', blocks: lead.raw },
    });
    expect(clicked.status).toBe(200);
    await reaches(h, requestId, 'succeeded');
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist').map((r) => r.body)).toEqual([
      { allowedDNS: ['5.160.12.77'] },
    ]);

    // The tab as it stands after the approval (a refresh for an earlier change may come first).
    const agentHome = await publishedHome(USERS.agent.id, since, (b) => b.includes('Your open requests (0)'));
    expect(agentHome.blocks).toContain('Recently finished');
    expect(agentHome.blocks).toContain(`*${requestId}*`);
    const leadHome = await publishedHome(USERS.lead.id, since, (b) =>
      b.includes('Awaiting your approval (0)'),
    );
    expect(leadHome.blocks).not.toContain(`"value":"${requestId}"`);

    // The same button on a tab that was not refreshed yet: refused, and said at the top of the tab.
    const again = h.slack.calls.length;
    await h.action({
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      value: requestId,
      view: { id: 'V0STALE', type: 'home', blocks: lead.raw },
    });
    const notice = await publishedHome(USERS.lead.id, again, (b) => b.includes('cannot be approved'));
    expect(notice.blocks).toContain(
      `Request ${requestId} cannot be approved: it was already approved by lena`,
    );
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist')).toHaveLength(1);
  });

  it('someone outside AGENTS sees what vidops is, and none of the team’s requests or settings', async () => {
    const home = await openHome(USERS.outsider.id);
    expect(home.blocks).toContain('You are not on the team list (AGENTS)');
    expect(home.blocks).not.toContain('Protection settings');
    expect(home.blocks).not.toContain('R-');
  });

  it('Refresh rebuilds the tab', async () => {
    await notificationsDone(h);
    const since = h.slack.calls.length;
    await h.action({
      userId: USERS.agent2.id,
      actionId: ACTIONS.homeRefresh,
      value: 'refresh',
      view: { id: 'V0HOME', type: 'home' },
    });
    const home = await publishedHome(USERS.agent2.id, since);
    expect(home.blocks).toContain('Your open requests (0)');
    expect(home.blocks).not.toContain('Awaiting your approval');
  });
});
