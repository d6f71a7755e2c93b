import { blockAction } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  directMessages,
  expectAuditWitnessed,
  hasButtons,
  modalShown,
  modalStatus,
  notificationsDone,
  openModal,
  reaches,
  requestIdIn,
  stored,
  submitModal,
  typed,
  until,
  upstream,
  valuesOf,
} from './change-helpers.js';

/**
 * Approvals end to end: the real app over signed HTTP, the fake Slack and the sandbox. Requests
 * are asked for as agents do, decided as leads do, and the upstream, the approval message, the
 * requester's DMs and the audit log are checked after each step.
 * @see docs/architecture.md, "Approvals"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

beforeEach(async () => {
  await notificationsDone(h);
  h.sandbox.reset();
});

/** An agent asks to add an address to the whitelist (text command); returns the request ID. */
async function whitelistRequest(ip: string, userId: string = USERS.agent.id): Promise<string> {
  const slash = await h.slash(`whitelist add ${ip}`, { userId });
  const reply = await slash.reply();
  return requestIdIn(JSON.stringify(reply.body));
}

describe('an agent requests a folder delete and a lead approves it', () => {
  it('wrong ID refused, right ID posted, the requester and a non-lead refused, the lead approves: one DELETE', async () => {
    const folder = DEMO.folders.lectures;
    const view = await openModal(h, `folder delete ${folder}`, CALLBACKS.deleteConfirm);
    const shown = JSON.stringify(view.blocks);
    expect(shown).toContain('“Course lectures” and its 5 files. This cannot be undone.');

    // A typo in the ID: the form says so under the field and nothing is asked.
    const wrong = await submitModal(
      h,
      view,
      valuesOf(view, {
        [BLOCKS.confirmText]: typed('6710a0000000000000000102'),
        [BLOCKS.reason]: typed('course ended'),
      }),
    );
    expect(wrong).toEqual({
      response_action: 'errors',
      errors: {
        [BLOCKS.confirmText]: `“6710a0000000000000000102” does not match. Type ${folder} or the exact title to confirm.`,
      },
    });
    expect(await h.store.listRequests()).toEqual([]);

    const since = h.slack.calls.length;
    const right = await submitModal(
      h,
      view,
      valuesOf(view, { [BLOCKS.confirmText]: typed(folder), [BLOCKS.reason]: typed('course ended') }),
    );
    expect(right).toMatchObject({ response_action: 'update' });
    const result = await modalStatus(h, since, view.id, /posted to/);
    const id = requestIdIn(result);
    expect(result).toContain(`Request *${id}* posted to <#${CHANNELS.approvals}> for approval`);

    const message = await approvalMessage(h, id);
    expect(message.text).toContain('Approval needed: Delete folder');
    expect(JSON.stringify(message.blocks)).toContain('*Reason:* course ended');
    // The worker records where the message lives just after Slack took it.
    const posted = await until(
      async () => (await stored(h, id)).slack ?? undefined,
      'the approval message recorded on the request',
    );
    expect(posted).toEqual({ channel: CHANNELS.approvals, ts: message.ts });

    // The requester's own Approve is refused, and so is an agent's; nothing changes.
    const own = await click(h, { userId: USERS.agent.id, actionId: ACTIONS.approve, requestId: id, message });
    expect((await own.reply()).body).toMatchObject({
      response_type: 'ephemeral',
      text: ':no_entry: You asked for this change, so someone else has to approve it. Nothing was changed.',
    });
    const agent = await click(h, {
      userId: USERS.agent2.id,
      actionId: ACTIONS.approve,
      requestId: id,
      message,
    });
    expect((await agent.reply()).body).toMatchObject({
      text: ':no_entry: Only leads can approve "Delete folder" requests. Nothing was changed.',
    });
    expect((await stored(h, id)).state).toBe('pending');
    expect(upstream(h, 'DELETE', '/v1/storage/bucket')).toEqual([]);

    const lead = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
    expect((await lead.reply()).body).toMatchObject({
      text: `:white_check_mark: You approved *${id}* (Delete folder); it ran and is done.`,
    });
    const deletes = upstream(h, 'DELETE', '/v1/storage/bucket');
    expect(deletes.map((r) => r.body)).toEqual([{ bucketId: folder }]);
    expect(h.sandbox.state().folders.map((f) => f.title)).not.toContain('Course lectures');

    const done = await approvalMessage(h, id, (m) => !hasButtons(m));
    expect(done.text).toContain('Delete folder: approved and done');
    expect(JSON.stringify(done.blocks)).toContain('Approved by lena; done at');
    await until(
      () =>
        directMessages(h, USERS.agent.id).find(
          (m) => m.includes(`Your request ${id}`) && m.includes('is done'),
        ),
      'the requester to be told',
    );

    const types = (await h.store.listAudit()).filter((e) => e.requestId === id).map((e) => e.type);
    expect(types).toEqual(['requested', 'denied', 'denied', 'approved', 'executing', 'succeeded']);
    await expectAuditWitnessed(h);
  });
});

describe('exactly once', () => {
  it('two leads click Approve at the same moment: the whitelist is posted once', async () => {
    const id = await whitelistRequest('5.160.12.10');
    const message = await approvalMessage(h, id);
    const [first, second] = await Promise.all([
      click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message }),
      click(h, { userId: USERS.lead2.id, actionId: ACTIONS.approve, requestId: id, message }),
    ]);
    const replies = await Promise.all([first.reply(), second.reply()]);
    const texts = replies.map((r) => String(r.body.text));
    expect(texts.filter((t) => t.startsWith(':white_check_mark: You approved'))).toHaveLength(1);
    expect(texts.filter((t) => t.startsWith(':no_entry:'))).toHaveLength(1);
    await reaches(h, id, 'succeeded');
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist')).toHaveLength(1);
    const events = (await h.store.listAudit()).filter((e) => e.requestId === id).map((e) => e.type);
    expect(events.filter((t) => t === 'approved')).toHaveLength(1);
    expect(events.filter((t) => t === 'succeeded')).toHaveLength(1);
  });

  it('a lead double-clicks Approve: it runs once and the second click is told why', async () => {
    const id = await whitelistRequest('5.160.12.11');
    const message = await approvalMessage(h, id);
    const tag = 'twice';
    // Two clicks are two payloads (their own action_ts and trigger_id); the very same signed
    // request sent twice is a replay and is dropped before any handler (test/e2e/trust.test.ts).
    const clickOnce = () =>
      blockAction({
        userId: USERS.lead.id,
        actionId: ACTIONS.approve,
        value: id,
        message,
        responseUrl: h.slack.responseUrl(tag),
      });
    const answers = await Promise.all([h.send(clickOnce()), h.send(clickOnce())]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await reaches(h, id, 'succeeded');
    const replies = await until(() => {
      const posts = h.slack.responsePosts.filter((p) => p.tag === tag);
      return posts.length === 2 ? posts : undefined;
    }, 'both clicks to be answered');
    const texts = replies.map((r) => String(r.body.text));
    expect(texts).toContain(
      `:white_check_mark: You approved *${id}* (Update whitelist); it ran and is done.`,
    );
    expect(texts).toContainEqual(
      expect.stringMatching(
        new RegExp(`^:no_entry: Request ${id} cannot be approved: it was already approved by lena and`),
      ),
    );
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist')).toHaveLength(1);
  });
});

describe('requests that are not approved', () => {
  it('a request nobody decides expires; its message and the requester say so, and a late Approve is refused', async () => {
    const id = await whitelistRequest('5.160.12.12');
    const message = await approvalMessage(h, id);
    h.clock.advance(25 * 3_600_000);
    try {
      const expired = await h.vidops.ops.expireDue();
      expect(expired.map((r) => r.id)).toContain(id);
      const updated = await approvalMessage(h, id, (m) => !hasButtons(m));
      expect(updated.text).toContain('Update whitelist: expired');
      expect(JSON.stringify(updated.blocks)).toContain('with 0 of 1 approvals; nothing was changed');
      await until(
        () =>
          directMessages(h, USERS.agent.id).find(
            (m) => m.includes(`Your request ${id}`) && m.includes('expired'),
          ),
        'the requester to hear it expired',
      );
      const late = await click(h, {
        userId: USERS.lead.id,
        actionId: ACTIONS.approve,
        requestId: id,
        message,
      });
      expect(String((await late.reply()).body.text)).toMatch(
        /cannot be approved: it was already expired at .* without enough approvals/,
      );
      expect(upstream(h, 'POST', '/v1/storage/dns/whitelist')).toEqual([]);
    } finally {
      h.clock.advance(-25 * 3_600_000);
    }
  });

  it('a requester cancels their request; a lead cannot cancel it for them', async () => {
    const id = await whitelistRequest('5.160.12.13');
    const message = await approvalMessage(h, id);
    const lead = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.cancel, requestId: id, message });
    expect(String((await lead.reply()).body.text)).toBe(
      `:no_entry: Only ana, who asked for it, can cancel request ${id}. Nothing was changed.`,
    );
    const own = await click(h, { userId: USERS.agent.id, actionId: ACTIONS.cancel, requestId: id, message });
    expect(String((await own.reply()).body.text)).toBe(
      `:leftwards_arrow_with_hook: You cancelled *${id}*; nothing will be changed.`,
    );
    const updated = await approvalMessage(h, id, (m) => !hasButtons(m));
    expect(JSON.stringify(updated.blocks)).toContain('Cancelled by ana');
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist')).toEqual([]);
  });

  it('a lead rejects with a reason; the requester reads it; the requester cannot reject their own', async () => {
    const id = await whitelistRequest('5.160.12.14');
    const message = await approvalMessage(h, id);

    const own = await click(h, { userId: USERS.agent.id, actionId: ACTIONS.reject, requestId: id, message });
    expect(String((await own.reply()).body.text)).toBe(
      ':no_entry: This is your own request: cancel it instead of rejecting it. Nothing was changed.',
    );

    const since = h.slack.calls.length;
    await click(h, { userId: USERS.lead2.id, actionId: ACTIONS.reject, requestId: id, message });
    const form = await modalShown(h, since, CALLBACKS.rejectReason);
    expect(await submitModal(h, form, { [BLOCKS.rejectNote]: typed('') }, USERS.lead2.id)).toEqual({
      response_action: 'errors',
      errors: { [BLOCKS.rejectNote]: 'Say why: the requester reads it.' },
    });
    const after = h.slack.calls.length;
    await submitModal(
      h,
      form,
      { [BLOCKS.rejectNote]: typed('That server is being retired') },
      USERS.lead2.id,
    );
    expect(await modalStatus(h, after, form.id, /You rejected/)).toContain(`You rejected *${id}*`);

    const updated = await approvalMessage(h, id, (m) => !hasButtons(m));
    expect(JSON.stringify(updated.blocks)).toContain('Rejected by leo at');
    expect(JSON.stringify(updated.blocks)).toContain('That server is being retired');
    await until(
      () =>
        directMessages(h, USERS.agent.id).find(
          (m) => m.includes(`Your request ${id}`) && m.includes('being retired'),
        ),
      'the requester to read the reason',
    );
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist')).toEqual([]);
    const request = await stored(h, id);
    expect(request).toMatchObject({
      state: 'rejected',
      decidedBy: { id: USERS.lead2.id },
      decisionNote: 'That server is being retired',
    });
  });

  it('every step of these scenarios is in the audit channel, and the chain verifies', async () => {
    await expectAuditWitnessed(h);
    const types = new Set((await h.store.listAudit()).map((e) => e.type));
    for (const type of [
      'requested',
      'approved',
      'executing',
      'succeeded',
      'denied',
      'rejected',
      'cancelled',
      'expired',
    ]) {
      expect(types).toContain(type);
    }
    // Slack updates are logged rather than thrown when they fail: none did.
    const errors = h.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });
});
