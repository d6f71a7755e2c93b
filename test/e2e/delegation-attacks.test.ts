import { ACTIONS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  directMessagesNow,
  notificationsDone,
  readable,
  requestIdIn,
  stored,
  until,
} from './change-helpers.js';

/**
 * Attacks on delegation and the DMs with buttons, end to end: the real app, the Slack emulator
 * and the sandbox. Whitelist changes need two approvals; approvers who have not decided are
 * reminded after 10 minutes. lena delegates to ben. Tests that fail name a defect.
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

  function remindersNow(userId: string, requestId: string): string[] {
    return directMessagesNow(h, userId).filter((m) => m.includes(requestId) && /Reminder/.test(m));
  }

  it('a lead is reminded, then her delegate approves in her place: the Approve in her reminder DM goes, as it does for a lead who approved', async () => {
    expect(await slashText(`delegate <@${USERS.agent2.id}|ben> until 2h on leave`, USERS.lead.id)).toContain(
      'approves in your place until',
    );
    const id = requestIdIn(await slashText('whitelist add 8.8.4.91', USERS.agent.id));
    const message = await approvalMessage(h, id);

    h.clock.advance(11 * MINUTE);
    await h.vidops.sweepFollowUps();
    await notificationsDone(h);
    await until(() => remindersNow(USERS.lead.id, id)[0], 'the reminder to lena');
    await until(() => remindersNow(USERS.lead2.id, id)[0], 'the reminder to leo');
    expect(remindersNow(USERS.lead.id, id)[0]).toContain(ACTIONS.approve);

    const ben = await click(h, {
      userId: USERS.agent2.id,
      actionId: ACTIONS.approve,
      requestId: id,
      message,
    });
    expect(readable(await ben.reply())).toContain('(1 of 2)');
    expect((await stored(h, id)).approvals).toEqual([
      expect.objectContaining({ for: expect.objectContaining({ id: USERS.lead.id }) }),
    ]);
    await notificationsDone(h);

    // leo has not decided: his reminder keeps its buttons.
    expect(remindersNow(USERS.lead2.id, id)[0]).toContain(ACTIONS.approve);
    // lena counts already, through ben: her Approve would be refused, so it must not be offered.
    const lena = directMessagesNow(h, USERS.lead.id).filter((m) => m.includes(id));
    expect(lena.length).toBeGreaterThan(0);
    for (const m of lena) expect(m).not.toContain(ACTIONS.approve);
  });
});
