import type { JsonValue } from '../../src/core/json.js';
import { say } from '../../src/core/said.js';
import { appHomeOpened, type ResponsePost } from '../../src/emulator/index.js';
import { langFor } from '../../src/i18n/index.js';
import { PICK_MENTION } from '../../src/i18n/messages/errors-en.js';
import { english } from '../../src/i18n/said.js';
import { auditTerminalLine } from '../../src/views/audit-post.js';
import { ACTIONS, BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  directMessages,
  directMessagesNow,
  modalShown,
  modalStatus,
  notificationsDone,
  readable,
  requestIdIn,
  stored,
  submitModal,
  typed,
  until,
  upstream,
  valuesOf,
} from './change-helpers.js';

/**
 * Break-glass and delegation end to end: the real app over signed HTTP, the Slack emulator and
 * the sandbox. An unblock that needs approval is run at once by break-glass and reviewed by a
 * lead; a lead delegates, the delegate approves in their place, and loses it on cancel or expiry.
 * @see docs/architecture.md, "Break-glass and delegation"
 */

const fa = langFor('fa', 'Asia/Tehran');
const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
/** Another app's bot user in the workspace: `users.info` says `is_bot`. */
const HELP_BOT = { id: 'U0HELPBOT', name: 'helpbot', is_bot: true };
const POLICY = `
viewer.unblock:
  approval: true
  breakGlass: { allowed: [${USERS.agent.id}, ${USERS.lead.id}], reviewWithin: 1h }
whitelist.set: { quorum: 2 }
`;

describe.each(['http', 'socket'] as const)('in %s mode', (mode) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ mode, policy: POLICY });
  });

  afterAll(async () => {
    await h.stop();
  });

  beforeEach(async () => {
    await notificationsDone(h);
  });

  /** `/vidops unblock` by `userId`: the reply and the pending request's ID. */
  async function pendingUnblock(userId: string): Promise<{ reply: ResponsePost; id: string }> {
    const slash = await h.slash('unblock 09121234567', { userId });
    const reply = await slash.reply();
    return { reply, id: requestIdIn(readable(reply)) };
  }

  /** Clicks Break glass… under the reply and waits for the modal (or the refusal). */
  async function pressBreakGlass(userId: string, reply: ResponsePost, id: string) {
    const since = h.slack.calls.length;
    const tag = `glass-${id}-${since}`;
    const body = reply.body as { blocks?: JsonValue };
    await h.action({
      userId,
      actionId: ACTIONS.breakGlass,
      value: id,
      message: { ts: '1.1', channel: CHANNELS.support, blocks: body.blocks ?? [] },
      responseUrl: h.slack.responseUrl(tag),
      isEphemeral: true,
    });
    return { since, refusal: () => h.slack.waitForResponse((p) => p.tag === tag, 8000) };
  }

  async function breakGlassNow(userId: string, reason = 'viewer locked out before an exam') {
    const { reply, id } = await pendingUnblock(userId);
    const { since } = await pressBreakGlass(userId, reply, id);
    const view = await modalShown(h, since, CALLBACKS.breakGlass);
    const before = h.slack.calls.length;
    await submitModal(
      h,
      view,
      valuesOf(view, {
        [BLOCKS.breakGlassReason]: typed(reason),
        [BLOCKS.breakGlassWords]: typed('Break Glass'),
      }),
      userId,
    );
    await modalStatus(h, before, view.id, /BREAK-GLASS/);
    return id;
  }

  async function openHome(userId: string): Promise<string> {
    // A refresh the notifier still owes for an earlier change would be taken for this tab.
    await notificationsDone(h);
    const since = h.slack.calls.length;
    await h.send(appHomeOpened({ userId }));
    const call = await until(
      () => h.slack.calls.slice(since).find((c) => c.method === 'views.publish' && c.args.user_id === userId),
      `a Home tab for ${userId}`,
    );
    return JSON.stringify(call.args.view);
  }

  describe('break-glass', () => {
    let first = '';

    it('an agent breaks the glass on an unblock that needs approval: wrong words change nothing; the right ones run it at once, marked in the chain and the channel, and every lead is told', async () => {
      const { reply, id } = await pendingUnblock(USERS.agent.id);
      first = id;
      expect(readable(reply)).toContain('You may *break glass*');
      expect((await stored(h, id)).state).toBe('pending');

      const { since } = await pressBreakGlass(USERS.agent.id, reply, id);
      const view = await modalShown(h, since, CALLBACKS.breakGlass);
      const wrong = await submitModal(
        h,
        view,
        valuesOf(view, {
          [BLOCKS.breakGlassReason]: typed('viewer locked out before an exam'),
          [BLOCKS.breakGlassWords]: typed('break the glass'),
        }),
      );
      expect(wrong).toEqual({
        response_action: 'errors',
        errors: { [BLOCKS.breakGlassWords]: english(say.bgWrongWords()) },
      });
      expect((await stored(h, id)).state).toBe('pending');
      expect(upstream(h, 'POST', UNBLOCK_PATH)).toEqual([]);

      const before = h.slack.calls.length;
      await submitModal(
        h,
        view,
        valuesOf(view, {
          [BLOCKS.breakGlassReason]: typed('viewer locked out before an exam'),
          [BLOCKS.breakGlassWords]: typed(' break  glass '),
        }),
      );
      expect(await modalStatus(h, before, view.id, /BREAK-GLASS/)).toContain('ran and is done');
      const request = await stored(h, id);
      expect(request.state).toBe('succeeded');
      expect(request.approvals).toEqual([]);
      expect(request.breakGlass).toMatchObject({ by: { id: USERS.agent.id }, review: null });
      expect(upstream(h, 'POST', UNBLOCK_PATH).map((r) => r.body)).toEqual([{ mobileNumber: '09121234567' }]);

      const events = (await h.store.listAudit({ last: 50 })).filter((e) => e.requestId === id);
      expect(events.map((e) => e.type)).toEqual(['requested', 'break-glass', 'executing', 'succeeded']);
      expect(events[1]?.outcome).toMatchObject({ reason: 'viewer locked out before an exam' });
      expect(events[2]?.outcome).toEqual({ breakGlass: true });
      const hash = events[1]?.hash.slice(0, 12) ?? '';
      const line = await until(
        () =>
          h.slack
            .messages(CHANNELS.audit)
            .map((m) => JSON.stringify(m.blocks ?? []))
            .find((b) => b.includes(hash)),
        'the break-glass event in the audit channel',
      );
      expect(line).toContain('BREAK-GLASS');

      await notificationsDone(h);
      for (const lead of [USERS.lead.id, USERS.lead2.id]) {
        const dms = directMessages(h, lead).filter((m) => m.includes(id));
        expect(dms).toHaveLength(1);
        expect(dms[0]).toContain('BREAK-GLASS');
        expect(dms[0]).toContain(ACTIONS.breakGlassAcknowledge);
      }
      expect(
        JSON.stringify(
          (await approvalMessage(h, id, (m) => m.text?.includes('BREAK-GLASS') === true)).blocks,
        ),
      ).toContain(ACTIONS.breakGlassFlag);
    });

    it('it shows as unreviewed on a lead’s App Home until a lead acknowledges it; then it is gone and audited', async () => {
      const home = await openHome(USERS.lead.id);
      expect(home).toContain('Break-glass to review (1)');
      expect(home).toContain(first);
      expect(home).toContain(ACTIONS.breakGlassAcknowledge);

      // The agent who broke it is no lead: refused, nothing changes.
      const message = await approvalMessage(h, first);
      const agent = await click(h, {
        userId: USERS.agent.id,
        actionId: ACTIONS.breakGlassAcknowledge,
        requestId: first,
        message,
      });
      expect(readable(await agent.reply())).toContain(english(say.glassNotLead()));

      const lead = await click(h, {
        userId: USERS.lead.id,
        actionId: ACTIONS.breakGlassAcknowledge,
        requestId: first,
        message,
      });
      expect(readable(await lead.reply())).toContain('You acknowledged the break-glass change');
      expect((await stored(h, first)).breakGlass?.review).toMatchObject({
        by: { id: USERS.lead.id },
        verdict: 'acknowledged',
      });
      const reviewed = await h.waitForAudit(
        (e) => e.type === 'break-glass-reviewed' && e.requestId === first,
      );
      expect(auditTerminalLine(reviewed)).toContain('BREAK-GLASS review: lena (U0LEAD1) acknowledged');
      expect(await openHome(USERS.lead.id)).not.toContain('Break-glass to review');

      // The other lead's DM about it now says who reviewed it, and offers no review any more.
      await notificationsDone(h);
      const dm = directMessagesNow(h, USERS.lead2.id).filter((m) => m.includes(first));
      expect(dm).toHaveLength(1);
      expect(dm[0]).toContain('Acknowledged');
      expect(dm[0]).toContain('lena');
      expect(dm[0]).not.toContain(ACTIONS.breakGlassAcknowledge);
      expect(dm[0]).not.toContain(ACTIONS.breakGlassFlag);
    });

    it('a lead who broke the glass cannot acknowledge their own; another lead flags it with a note', async () => {
      const id = await breakGlassNow(USERS.lead.id, 'agent away, customer waiting');
      const message = await approvalMessage(h, id);
      const own = await click(h, {
        userId: USERS.lead.id,
        actionId: ACTIONS.breakGlassAcknowledge,
        requestId: id,
        message,
      });
      expect(readable(await own.reply())).toContain(english(say.glassOwnReview()));
      expect((await stored(h, id)).breakGlass?.review).toBeNull();
      expect(await h.waitForAudit((e) => e.type === 'denied' && e.requestId === id)).toMatchObject({
        outcome: { action: 'review' },
      });

      const since = h.slack.calls.length;
      await click(h, { userId: USERS.lead2.id, actionId: ACTIONS.breakGlassFlag, requestId: id, message });
      const view = await modalShown(h, since, CALLBACKS.breakGlassFlag);
      await submitModal(
        h,
        view,
        valuesOf(view, { [BLOCKS.breakGlassNote]: typed('should have waited') }),
        USERS.lead2.id,
      );
      await until(async () => (await stored(h, id)).breakGlass?.review ?? undefined, 'the flag');
      expect((await stored(h, id)).breakGlass?.review).toMatchObject({
        verdict: 'flagged',
        note: 'should have waited',
      });
    });

    it('a lead reading Persian breaks the glass and flags one: each result is framed in Persian, its Close button too', async () => {
      for (const userId of [USERS.lead.id, USERS.lead2.id])
        await (await h.slash('lang fa', { userId })).reply();
      try {
        const { reply, id } = await pendingUnblock(USERS.lead.id);
        const { since } = await pressBreakGlass(USERS.lead.id, reply, id);
        const view = await modalShown(h, since, CALLBACKS.breakGlass);
        const before = h.slack.calls.length;
        await submitModal(
          h,
          view,
          valuesOf(view, {
            [BLOCKS.breakGlassReason]: typed('viewer locked out before an exam'),
            [BLOCKS.breakGlassWords]: typed('Break Glass'),
          }),
          USERS.lead.id,
        );
        const ran = JSON.parse(await modalStatus(h, before, view.id, new RegExp(id))) as {
          close?: { text?: string };
        };
        expect(ran.close?.text).toBe(fa.t.changes.formClose);

        const message = await approvalMessage(h, id);
        const opened = h.slack.calls.length;
        await click(h, { userId: USERS.lead2.id, actionId: ACTIONS.breakGlassFlag, requestId: id, message });
        const flag = await modalShown(h, opened, CALLBACKS.breakGlassFlag);
        const flagging = h.slack.calls.length;
        await submitModal(
          h,
          flag,
          valuesOf(flag, { [BLOCKS.breakGlassNote]: typed('should have waited') }),
          USERS.lead2.id,
        );
        const flagged = JSON.parse(await modalStatus(h, flagging, flag.id, new RegExp(id))) as {
          close?: { text?: string };
        };
        expect(flagged.close?.text).toBe(fa.t.changes.formClose);
      } finally {
        for (const userId of [USERS.lead.id, USERS.lead2.id])
          await (await h.slash('lang en', { userId })).reply();
      }
    });

    it('the rate limit refuses the 4th break-glass of a person within 24 hours, and nothing changes', async () => {
      await breakGlassNow(USERS.agent.id);
      await breakGlassNow(USERS.agent.id);
      const calls = upstream(h, 'POST', UNBLOCK_PATH).length;
      const { reply, id } = await pendingUnblock(USERS.agent.id);
      const { refusal } = await pressBreakGlass(USERS.agent.id, reply, id);
      expect(readable(await refusal())).toContain(english(say.glassRateLimited(3, '24 hours')));
      expect((await stored(h, id)).state).toBe('pending');
      expect(upstream(h, 'POST', UNBLOCK_PATH)).toHaveLength(calls);
    });

    it('a break-glass change left unreviewed past reviewWithin reminds the leads once', async () => {
      const unreviewed = (await h.store.listRequests({ breakGlassUnreviewed: true })).map((r) => r.id);
      expect(unreviewed.length).toBeGreaterThan(0);
      h.clock.advance(2 * 3_600_000);
      const reminded = await h.vidops.ops.remindBreakGlass();
      expect(reminded.map((r) => r.id).sort()).toEqual([...unreviewed].sort());
      expect(await h.vidops.ops.remindBreakGlass()).toEqual([]);
      await notificationsDone(h);
      const reminders = directMessages(h, USERS.lead.id).filter((m) => m.includes('Reminder'));
      expect(reminders).toHaveLength(unreviewed.length);
    });
  });

  describe('delegation', () => {
    async function slashText(text: string, userId: string): Promise<string> {
      const slash = await h.slash(text, { userId });
      return readable(await slash.reply());
    }

    async function whitelistRequest(ip: string, userId: string = USERS.agent.id): Promise<string> {
      return requestIdIn(await slashText(`whitelist add ${ip}`, userId));
    }

    async function approveAs(userId: string, id: string): Promise<string> {
      const message = await approvalMessage(h, id);
      const clicked = await click(h, { userId, actionId: ACTIONS.approve, requestId: id, message });
      return readable(await clicked.reply());
    }

    it('a plain @name is refused, asking to pick the person from the mention list', async () => {
      const text = await slashText('delegate @ben until 4h', USERS.lead.id);
      expect(text).toContain(PICK_MENTION);
      expect(await h.store.listDelegations()).toEqual([]);
    });

    it.each([
      ['a bot', HELP_BOT.id, english(say.delegBot())],
      [
        'someone outside AGENTS and LEADS',
        USERS.outsider.id,
        `${USERS.outsider.name} is not on the team (AGENTS or LEADS)`,
      ],
      ['a user Slack does not know', 'U0NOBODY1', 'Slack knows no active member U0NOBODY1 in this workspace'],
    ])(
      'delegating to %s is refused with its reason; nothing changes and the attempt is audited',
      async (_who, id, reason) => {
        h.slack.setUsers([HELP_BOT]);
        const text = await slashText(`delegate <@${id}> until 2h`, USERS.lead.id);

        expect(text).toContain(reason);
        expect(text).toContain('Nothing was changed.');
        expect(await h.store.listDelegations()).toEqual([]);
        const denied = await h.waitForAudit((e) => e.type === 'denied' && e.target === id);
        expect(denied).toMatchObject({ actor: { id: USERS.lead.id }, operation: 'delegation' });
        expect(denied.outcome).toMatchObject({ action: 'delegate', reason: expect.stringContaining(reason) });
      },
    );

    it('a delegate approves a lead’s pending request, recorded as "for" the lead; the lead then counts once; quorum 2 still needs another lead', async () => {
      const said = await slashText(
        `delegate <@${USERS.agent2.id}|ben> until 2h covering my leave`,
        USERS.lead.id,
      );
      expect(said).toContain('approves in your place until');
      expect(await h.waitForAudit((e) => e.type === 'delegated')).toMatchObject({
        actor: { id: USERS.lead.id },
      });
      expect(await openHome(USERS.lead.id)).toContain(`You delegated to <@${USERS.agent2.id}>`);
      expect(await openHome(USERS.agent2.id)).toContain(`You approve for <@${USERS.lead.id}>`);

      const id = await whitelistRequest('5.160.12.90');
      expect(await approveAs(USERS.agent2.id, id)).toContain('is recorded (1 of 2)');
      const request = await stored(h, id);
      expect(request.approvals).toEqual([
        expect.objectContaining({
          by: { id: USERS.agent2.id, name: 'ben' },
          for: { id: USERS.lead.id, name: 'lena' },
        }),
      ]);
      const approved = await h.waitForAudit((e) => e.type === 'approved' && e.requestId === id);
      expect(auditTerminalLine(approved)).toContain('ben (U0AGENT2) for lena (U0LEAD1) (delegated) approved');
      await notificationsDone(h);
      expect(JSON.stringify((await approvalMessage(h, id)).blocks)).toContain('ben for lena (delegated)');

      // The lead approving as well would count them twice.
      expect(await approveAs(USERS.lead.id, id)).toContain('already approved');
      expect((await stored(h, id)).approvals).toHaveLength(1);
      expect(await approveAs(USERS.lead2.id, id)).toContain('it ran and is done');
    });

    it('a delegate cannot approve their own request', async () => {
      const id = await whitelistRequest('5.160.12.91', USERS.agent2.id);
      expect(await approveAs(USERS.agent2.id, id)).toContain('You asked for this change');
      expect((await stored(h, id)).approvals).toEqual([]);
    });

    it('after delegate cancel the delegate can no longer approve', async () => {
      expect(await slashText('delegate cancel', USERS.lead.id)).toContain('has ended');
      await h.waitForAudit((e) => e.type === 'delegation-cancelled');
      const id = await whitelistRequest('5.160.12.92');
      expect(await approveAs(USERS.agent2.id, id)).toContain('Only leads can approve');
      expect((await stored(h, id)).approvals).toEqual([]);
    });

    it('after it expires the delegate can no longer approve, and the expiry is recorded', async () => {
      expect(await slashText(`delegate <@${USERS.agent2.id}> until 1h`, USERS.lead.id)).toContain(
        'approves in your place',
      );
      const id = await whitelistRequest('5.160.12.93');
      h.clock.advance(2 * 3_600_000);
      expect(await approveAs(USERS.agent2.id, id)).toContain('Only leads can approve');
      const expired = await h.waitForAudit((e) => e.type === 'delegation-expired');
      expect(auditTerminalLine(expired)).toContain('expired');
      expect(await openHome(USERS.agent2.id)).not.toContain('You approve for');
    });
  });
});
