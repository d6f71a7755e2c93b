import { ACTIONS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  directMessages,
  directMessagesNow,
  notificationsDone,
  readable,
  requestIdIn,
  stored,
  until,
} from './change-helpers.js';

/**
 * Attacks on reminders and delegation end to end: the real app, the Slack emulator and the
 * sandbox. Whitelist changes need two approvals; approvers who have not decided are reminded after
 * 10 minutes. lena delegates to ben; ben approves in her place, so lena counts toward the quorum.
 * Tests marked "Was a defect" failed before the fix they name.
 * @see docs/approvals.md, "Requests that never stall" and "Break-glass and delegation"
 */

const POLICY = `
whitelist.set:
  quorum: 2
  expiresIn: 4h
  remindAfter: 10m
  warnBeforeExpiry: off
`;
const MINUTE = 60_000;

describe('in http mode', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ mode: 'http', policy: POLICY, sweepIntervalMs: 3_600_000 });
  });

  afterAll(async () => {
    await h.stop();
  });

  beforeEach(async () => {
    await notificationsDone(h);
  });

  async function slashText(text: string, userId: string): Promise<string> {
    const slash = await h.slash(text, { userId });
    return readable(await slash.reply());
  }

  function dmsAbout(userId: string, requestId: string, pattern: RegExp): string[] {
    return directMessages(h, userId).filter((m) => m.includes(requestId) && pattern.test(m));
  }

  async function later(ms: number): Promise<void> {
    h.clock.advance(ms);
    await h.vidops.sweepFollowUps();
    await notificationsDone(h);
  }

  it('a lead whose delegate already approved in her place is not reminded to approve again', async () => {
    // Was a defect: the reminder went to every approver whose Slack ID had not approved
    // (src/commands/changes/notifier.ts), forgetting the lead a delegate approved for, so lena got
    // a Reminder with Approve / Reject though she counts toward the request already (docs/approvals.md:
    // "approvers who have not decided (not the ones who approved, never the requester) get a DM").
    expect(await slashText(`delegate <@${USERS.agent2.id}|ben> until 2h on leave`, USERS.lead.id)).toContain(
      'approves in your place until',
    );
    const id = requestIdIn(await slashText('whitelist add 8.8.4.77', USERS.agent.id));
    const message = await approvalMessage(h, id);
    const ben = await click(h, {
      userId: USERS.agent2.id,
      actionId: ACTIONS.approve,
      requestId: id,
      message,
    });
    expect(readable(await ben.reply())).toContain('(1 of 2)');
    expect((await stored(h, id)).approvals).toEqual([
      expect.objectContaining({
        by: expect.objectContaining({ id: USERS.agent2.id }),
        for: expect.anything(),
      }),
    ]);

    await later(11 * MINUTE);
    // leo, who has not decided, is reminded: the sweep did run.
    await until(() => dmsAbout(USERS.lead2.id, id, /Reminder/)[0], 'the reminder to leo');
    expect(dmsAbout(USERS.lead2.id, id, /Reminder/)[0]).toContain(ACTIONS.approve);

    // lena already counts, through ben.
    const lena = directMessagesNow(h, USERS.lead.id).filter((m) => m.includes(id));
    for (const m of lena) expect(m).not.toContain(ACTIONS.approve);
    expect(dmsAbout(USERS.lead.id, id, /Reminder/)).toEqual([]);
    // ...and her Approve would be refused.
    const again = await click(h, {
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      requestId: id,
      message,
    });
    expect(readable(await again.reply())).toContain('already approved');
  });

  it('the requester presses Remind after the delegation ended: the leads who have not decided are reminded, not the requester nor the former delegate', async () => {
    expect(await slashText('delegate cancel', USERS.lead.id)).toContain('has ended');
    const id = requestIdIn(await slashText('whitelist add 8.8.4.78', USERS.agent.id));
    const message = await approvalMessage(h, id);

    const remind = await click(h, {
      userId: USERS.agent.id,
      actionId: ACTIONS.remind,
      requestId: id,
      message,
    });
    expect(readable(await remind.reply())).toContain('are reminded');
    await until(() => dmsAbout(USERS.lead2.id, id, /Reminder/)[0], 'the reminder to leo');
    await until(() => dmsAbout(USERS.lead.id, id, /Reminder/)[0], 'the reminder to lena');
    // ben (no approver, no delegation any more) and ana (the requester) get none.
    expect(dmsAbout(USERS.agent2.id, id, /Reminder/)).toEqual([]);
    expect(dmsAbout(USERS.agent.id, id, /Reminder/)).toEqual([]);
    const reminded = (await h.store.listAudit()).filter((e) => e.requestId === id && e.type === 'reminded');
    expect(reminded.map((e) => e.actor.id)).toEqual([USERS.agent.id]);
  });
});
