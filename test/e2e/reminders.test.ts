import { ACTIONS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  directMessages,
  directMessagesNow,
  expectAuditWitnessed,
  notificationsDone,
  reaches,
  requestIdIn,
  stored,
  until,
  upstream,
} from './change-helpers.js';

/**
 * Approvals that never stall, end to end: the real app over signed HTTP, the Slack emulator and
 * the sandbox, with the harness clock moved forward and the follow-up sweep run by the test (the
 * app's own sweep is an hour apart here). Whitelist changes need two approvals; approvers who have
 * not decided are reminded after 10 minutes, the request is offered to the backup group after 30,
 * and everyone is warned an hour before it expires, four hours after it was asked.
 * @see docs/architecture.md, "Reminders, escalation and the expiry warning"
 */

const BACKUPS = 'S0BACKUP';
const POLICY = `
whitelist.set:
  quorum: 2
  expiresIn: 4h
  remindAfter: 10m
  escalateAfter: 30m
  escalateTo: [${BACKUPS}]
  warnBeforeExpiry: 1h
`;
const MINUTE = 60_000;

describe.each(['http', 'socket'] as const)('in %s mode', (mode) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ mode, policy: POLICY, sweepIntervalMs: 3_600_000 });
    // ben (an agent, not a lead) is the backup approver.
    h.slack.setUsergroup(BACKUPS, [USERS.agent2.id]);
  });

  afterAll(async () => {
    await h.stop();
  });

  beforeEach(async () => {
    await notificationsDone(h);
    h.sandbox.reset();
  });

  let ipCounter = 10;

  /** ana asks to add a new address to the whitelist; returns the request ID. */
  async function askForChange(): Promise<string> {
    ipCounter += 1;
    const slash = await h.slash(`whitelist add 8.8.4.${ipCounter}`);
    const id = requestIdIn(JSON.stringify((await slash.reply()).body));
    await approvalMessage(h, id);
    return id;
  }

  /** The DMs a user got about one request whose text matches. */
  function dmsAbout(userId: string, requestId: string, pattern: RegExp): string[] {
    return directMessages(h, userId).filter((m) => m.includes(requestId) && pattern.test(m));
  }

  async function eventsOf(requestId: string, type: string) {
    return (await h.store.listAudit()).filter((e) => e.requestId === requestId && e.type === type);
  }

  /** Moves the clock, sweeps as a replica would, and waits until Slack has been told. */
  async function later(ms: number): Promise<void> {
    h.clock.advance(ms);
    await h.vidops.sweepFollowUps();
    await notificationsDone(h);
  }

  describe('a request that waits is followed up', () => {
    it('the approval message shows "1 of 2" approved with the lead mentioned, and the time left, kept current', async () => {
      const id = await askForChange();
      const first = JSON.stringify((await approvalMessage(h, id)).blocks);
      expect(first).toContain('0 of 2 approved (no approvals yet)');
      expect(first).toContain('*Expires*\\nin 3h (');

      const message = await approvalMessage(h, id);
      const lead = await click(h, {
        userId: USERS.lead.id,
        actionId: ACTIONS.approve,
        requestId: id,
        message,
      });
      expect((await lead.reply()).body).toMatchObject({ text: expect.stringContaining('(1 of 2)') });
      await approvalMessage(h, id, (m) =>
        JSON.stringify(m.blocks).includes(`1 of 2 approved: <@${USERS.lead.id}>`),
      );

      // An hour later the time left changed words: the sweep re-renders the message, once.
      await later(61 * MINUTE);
      await approvalMessage(h, id, (m) => JSON.stringify(m.blocks).includes('*Expires*\\nin 2h ('));
    });

    it('a reminder reaches each approver who has not decided, once, and not the one who approved', async () => {
      const id = await askForChange();
      const message = await approvalMessage(h, id);
      await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
      await reaches(h, id, 'pending');
      await until(
        async () => ((await stored(h, id)).approvals.length === 1 ? true : undefined),
        'the approval',
      );

      await later(5 * MINUTE);
      expect(dmsAbout(USERS.lead2.id, id, /Reminder/)).toEqual([]);

      await later(6 * MINUTE);
      await until(() => dmsAbout(USERS.lead2.id, id, /Reminder/)[0], 'the reminder to leo');
      expect(dmsAbout(USERS.lead2.id, id, /Reminder/)[0]).toContain('request_approve');
      expect(dmsAbout(USERS.lead.id, id, /Reminder/)).toEqual([]);
      expect(dmsAbout(USERS.agent.id, id, /Reminder/)).toEqual([]);

      // Further sweeps, sooner or later than another remindAfter, send nothing more.
      await later(1 * MINUTE);
      await later(15 * MINUTE);
      expect(dmsAbout(USERS.lead2.id, id, /Reminder/)).toHaveLength(1);
      const reminded = await eventsOf(id, 'reminded');
      expect(reminded).toHaveLength(1);
      expect(reminded[0]?.actor.id).toBe('system');
      await expectAuditWitnessed(h);
    });

    it('a reminder loses its buttons once its reader approved, and every reminder once the request is done, saying how it ended', async () => {
      const id = await askForChange();
      await later(11 * MINUTE);
      for (const lead of [USERS.lead.id, USERS.lead2.id])
        await until(() => dmsAbout(lead, id, /Reminder/)[0], `the reminder to ${lead}`);

      for (const lead of [USERS.lead.id, USERS.lead2.id]) {
        const message = await approvalMessage(h, id);
        // Slack fails the updates after the decision at first: they are retried, none lost.
        if (lead === USERS.lead2.id) h.slack.failNext('chat.update', { status: 500 }, 3);
        await click(h, { userId: lead, actionId: ACTIONS.approve, requestId: id, message });
        await until(
          async () => ((await stored(h, id)).approvals.some((a) => a.by.id === lead) ? true : undefined),
          `${lead}'s approval`,
        );
        if (lead === USERS.lead.id) {
          // Still waiting for leo: lena's reminder no longer offers her a decision; leo's does.
          await notificationsDone(h);
          const lena = directMessagesNow(h, USERS.lead.id).find((m) => m.includes(id)) ?? '';
          expect(lena).toContain('Approved by lena (1 of 2); waiting for more');
          expect(lena).not.toContain(ACTIONS.approve);
          const leo = directMessagesNow(h, USERS.lead2.id).find((m) => m.includes(id)) ?? '';
          expect(leo).toContain(ACTIONS.approve);
        }
      }
      await reaches(h, id, 'succeeded');
      await notificationsDone(h);

      for (const lead of [USERS.lead.id, USERS.lead2.id]) {
        const now = directMessagesNow(h, lead).filter((m) => m.includes(id));
        expect(now).toHaveLength(1);
        expect(now[0]).toContain('no longer waits for you');
        expect(now[0]).toContain('done');
        expect(now[0]).toContain('Approved by lena and leo');
        expect(now[0]).not.toContain(ACTIONS.approve);
        expect(now[0]).not.toContain(ACTIONS.reject);
        // Updated in place: no second DM.
        expect(dmsAbout(lead, id, /./)).toHaveLength(1);
      }
    });

    it('once the request expires, the expiry warnings lose their buttons, the requester’s Cancel and Remind too', async () => {
      const id = await askForChange();
      await later(3 * 60 * MINUTE + MINUTE);
      await until(() => dmsAbout(USERS.agent.id, id, /Your request .* expires/)[0], 'the warning to ana');
      expect(directMessagesNow(h, USERS.agent.id).find((m) => m.includes(id))).toContain(ACTIONS.cancel);

      await later(60 * MINUTE);
      expect((await h.vidops.ops.expireDue()).map((r) => r.id)).toContain(id);
      await notificationsDone(h);
      const requester = directMessagesNow(h, USERS.agent.id).filter((m) => m.includes(id));
      expect(requester.some((m) => m.includes('no longer waits for you') && m.includes('expired'))).toBe(
        true,
      );
      for (const m of requester) {
        expect(m).not.toContain(ACTIONS.cancel);
        expect(m).not.toContain(ACTIONS.remind);
      }
      for (const m of directMessagesNow(h, USERS.lead2.id).filter((m) => m.includes(id)))
        expect(m).not.toContain(ACTIONS.approve);
    });

    it('escalation offers the request to a backup group member, who approves, and with a lead it runs', async () => {
      const id = await askForChange();
      const message = await approvalMessage(h, id);

      // Before the escalation ben is no approver.
      const early = await click(h, {
        userId: USERS.agent2.id,
        actionId: ACTIONS.approve,
        requestId: id,
        message,
      });
      expect((await early.reply()).body).toMatchObject({
        text: expect.stringContaining('Only leads can approve'),
      });

      await later(31 * MINUTE);
      const escalated = await eventsOf(id, 'escalated');
      expect(escalated).toHaveLength(1);
      expect(escalated[0]?.outcome).toMatchObject({ to: [BACKUPS] });
      await approvalMessage(h, id, (m) =>
        JSON.stringify(m.blocks).includes(`*Escalated to* <!subteam^${BACKUPS}>`),
      );
      await until(() => dmsAbout(USERS.agent2.id, id, /backup approver/)[0], 'the escalation DM to ben');
      // The reminder due at the same time goes to the leads; ben, just told, is not reminded as well.
      await until(() => dmsAbout(USERS.lead.id, id, /Reminder/)[0], 'the reminder to lena');
      expect(dmsAbout(USERS.agent2.id, id, /Reminder/)).toEqual([]);

      const backup = await click(h, {
        userId: USERS.agent2.id,
        actionId: ACTIONS.approve,
        requestId: id,
        message,
      });
      expect((await backup.reply()).body).toMatchObject({ text: expect.stringContaining('(1 of 2)') });
      const lead = await click(h, {
        userId: USERS.lead.id,
        actionId: ACTIONS.approve,
        requestId: id,
        message,
      });
      expect((await lead.reply()).body).toMatchObject({
        text: expect.stringContaining('it ran and is done'),
      });
      expect(upstream(h, 'POST', '/v1/storage/dns/whitelist')).toHaveLength(1);
      expect((await stored(h, id)).approvals.map((a) => a.by.id)).toEqual([USERS.agent2.id, USERS.lead.id]);

      // A later sweep escalates nothing twice.
      await later(10 * MINUTE);
      expect(await eventsOf(id, 'escalated')).toHaveLength(1);
      await until(
        () =>
          h.slack
            .messages('C0AUDIT')
            .some((m) => JSON.stringify(m).includes('is offered to') && JSON.stringify(m).includes(id))
            ? true
            : undefined,
        'the escalation in the audit channel',
      );
    });

    it('the Remind button nudges the approvers at most once per remindAfter, and only for the requester', async () => {
      const id = await askForChange();
      const message = await approvalMessage(h, id);

      const first = await click(h, {
        userId: USERS.agent.id,
        actionId: ACTIONS.remind,
        requestId: id,
        message,
      });
      expect((await first.reply()).body).toMatchObject({
        text: expect.stringContaining(`The approvers of *${id}* who have not decided are reminded`),
      });
      await until(
        () => dmsAbout(USERS.lead2.id, id, /ana asked for this reminder/)[0],
        'the reminder to leo',
      );
      await until(
        () => dmsAbout(USERS.lead.id, id, /ana asked for this reminder/)[0],
        'the reminder to lena',
      );

      h.clock.advance(3 * MINUTE);
      const again = await click(h, {
        userId: USERS.agent.id,
        actionId: ACTIONS.remind,
        requestId: id,
        message,
      });
      expect((await again.reply()).body).toMatchObject({
        text: expect.stringMatching(
          /you can remind them again after .* \(at most once every 10 minutes\)\. Nothing was sent\./,
        ),
      });
      const lead = await click(h, {
        userId: USERS.lead.id,
        actionId: ACTIONS.remind,
        requestId: id,
        message,
      });
      expect((await lead.reply()).body).toMatchObject({
        text: expect.stringContaining('Only ana, who asked for it, can remind the approvers'),
      });
      await notificationsDone(h);
      expect(await eventsOf(id, 'reminded')).toHaveLength(1);
      expect(dmsAbout(USERS.lead2.id, id, /Reminder/)).toHaveLength(1);

      // After remindAfter the requester may remind again.
      h.clock.advance(8 * MINUTE);
      const third = await click(h, {
        userId: USERS.agent.id,
        actionId: ACTIONS.remind,
        requestId: id,
        message,
      });
      expect((await third.reply()).body).toMatchObject({ text: expect.stringContaining('are reminded') });
      const reminded = await eventsOf(id, 'reminded');
      expect(reminded.map((e) => e.actor.id)).toEqual([USERS.agent.id, USERS.agent.id]);
      await until(
        () => (dmsAbout(USERS.lead2.id, id, /Reminder/).length === 2 ? true : undefined),
        'a second reminder',
      );
    });

    it('the expiry warning reaches the requester and the approvers once', async () => {
      const id = await askForChange();
      await later(2 * 60 * MINUTE);
      expect(dmsAbout(USERS.agent.id, id, /expires/)).toEqual([]);

      await later(61 * MINUTE);
      await until(() => dmsAbout(USERS.agent.id, id, /Your request .* expires/)[0], 'the warning to ana');
      await until(
        () => dmsAbout(USERS.lead.id, id, /expires in under 1h .*unless it is decided/)[0],
        'the warning to lena',
      );
      await until(
        () => dmsAbout(USERS.lead2.id, id, /expires in under 1h .*unless it is decided/)[0],
        'the warning to leo',
      );
      await until(
        () => dmsAbout(USERS.agent2.id, id, /expires in under 1h .*unless it is decided/)[0],
        'the warning to ben',
      );

      await later(10 * MINUTE);
      expect(dmsAbout(USERS.agent.id, id, /Your request .* expires/)).toHaveLength(1);
      expect(dmsAbout(USERS.lead.id, id, /unless it is decided/)).toHaveLength(1);
      expect(await eventsOf(id, 'expiry-warned')).toHaveLength(1);
      // Each follow-up once: the escalation and vidops' own reminder came at the first sweep after their time.
      expect(await eventsOf(id, 'escalated')).toHaveLength(1);
      expect(await eventsOf(id, 'reminded')).toHaveLength(1);
    });
  });
});
