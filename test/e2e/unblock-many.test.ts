import type { ResponsePost } from '../../src/emulator/index.js';
import { ACTIONS, BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  directMessagesNow,
  modalShown,
  readable,
  requestIdIn,
  submitModal,
  typed,
  until,
  upstream,
} from './change-helpers.js';

/**
 * Many numbers at once in Slack, end to end: the real app over signed HTTP and Socket Mode, the
 * Slack emulator, and the sandbox serving only the documented endpoints. A pasted list is shown as
 * read (invalid lines with their line and reason, duplicates merged) with Confirm; nothing is sent
 * before it; Confirm sends exactly that list once; the batch's message shows its progress and end.
 * @see docs/commands.md, "Many numbers at once"; docs/approvals.md, "Many numbers at once"
 */

const UNBLOCK = '/v1/analysis/user/video/anomaly';
const PASTED = [
  '0912 345 6789, +98 935 111 2222',
  '۰۹۱۲۳۴۵۶۷۸۹',
  'call back 12345',
  '00989351112222 ، 09127654321',
].join('\n');

/** A button's value in a reply, by its action. */
function buttonValue(post: ResponsePost, actionId: string): string {
  const found = new RegExp(
    `"action_id":"${actionId}","value":"([^"]+)"|"value":"([^"]+)","action_id":"${actionId}"`,
  ).exec(JSON.stringify(post.body));
  const value = found?.[1] ?? found?.[2];
  if (value === undefined) throw new Error(`no ${actionId} button in: ${readable(post).slice(0, 300)}`);
  return value;
}

describe.each(['http', 'socket'] as const)('many numbers at once over %s', (mode) => {
  let h: Harness;
  let tags = 0;
  beforeEach(async () => {
    h = await startHarness({ mode, sandbox: { extras: false }, batchProgressMs: 50 });
  });
  afterEach(async () => {
    await h.stop();
  });

  /** A click on a reply's button as `userId`; its answer. */
  async function press(
    actionId: string,
    value: string,
    userId: string = USERS.agent.id,
  ): Promise<ResponsePost> {
    tags += 1;
    const tag = `batch-${mode}-${tags}`;
    await h.action({ userId, actionId, value, responseUrl: h.slack.responseUrl(tag) });
    return h.slack.waitForResponse((p) => p.tag === tag, 20_000);
  }

  it('an agent pastes a list with invalid lines and duplicates, confirms it, and reads the summary', async () => {
    const preview = await (await h.slash(`unblock ${PASTED}`)).reply();
    const shown = readable(preview);

    expect(shown).toContain('3 to unblock, 1 refused, 0 need a lead');
    expect(shown).toContain('2 duplicates merged');
    expect(shown).toContain('line 3: 12345: 12345 is too short for a mobile number in IR');
    expect(shown).toContain('0912***6789');
    expect(shown).not.toContain('09123456789');
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(0);

    const done = readable(await press(ACTIONS.batchConfirm, buttonValue(preview, ACTIONS.batchConfirm)));

    expect(done).toContain('3 of 3 unblocked');
    const id = requestIdIn(done);
    expect(
      upstream(h, 'POST', UNBLOCK)
        .map((r) => JSON.stringify(r.body))
        .sort(),
    ).toEqual(
      ['09123456789', '09351112222', '09127654321'].map((n) => JSON.stringify({ mobileNumber: n })).sort(),
    );
    const steps = (await h.store.listAudit()).filter((e) => e.requestId === id && e.type === 'step');
    expect(steps).toHaveLength(3);
    // The batch's one message in the agent's DM shows its end.
    await until(
      () =>
        directMessagesNow(h, USERS.agent.id).some((m) => m.includes('3 of 3 unblocked')) ? true : undefined,
      'the batch message to show the end',
    );
  });

  it('a second click on Confirm, or a forged one, sends nothing more', async () => {
    const preview = await (await h.slash('unblock 09123456789 09351112222')).reply();
    const draft = buttonValue(preview, ACTIONS.batchConfirm);
    await press(ACTIONS.batchConfirm, draft);
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(2);

    expect(readable(await press(ACTIONS.batchConfirm, draft))).toMatch(
      /confirmed or cancelled already.*nothing was sent/,
    );
    expect(readable(await press(ACTIONS.batchConfirm, 'forged-draft-id'))).toMatch(/nothing was sent/);
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(2);
  });

  it('a Confirm older than an hour is refused, and nothing is sent', async () => {
    const preview = await (await h.slash('unblock 09123456789 09351112222')).reply();
    h.clock.advance(61 * 60_000);

    expect(readable(await press(ACTIONS.batchConfirm, buttonValue(preview, ACTIONS.batchConfirm)))).toMatch(
      /has expired.*nothing was sent/,
    );
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(0);
  });

  it('another agent cannot confirm a preview shown to someone else', async () => {
    const preview = await (await h.slash('unblock 09123456789 09351112222')).reply();
    const draft = buttonValue(preview, ACTIONS.batchConfirm);

    expect(readable(await press(ACTIONS.batchConfirm, draft, USERS.agent2.id))).toMatch(/not yours/);
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(0);
    // Still the shower's to confirm.
    expect(readable(await press(ACTIONS.batchConfirm, draft))).toContain('2 of 2 unblocked');
  });

  it('Cancel sends nothing, and the preview cannot be confirmed after it', async () => {
    const preview = await (await h.slash('unblock 09123456789 09351112222')).reply();
    const draft = buttonValue(preview, ACTIONS.batchConfirm);

    expect(readable(await press(ACTIONS.batchCancel, draft))).toContain('Cancelled: nothing was sent.');
    expect(readable(await press(ACTIONS.batchConfirm, draft))).toMatch(/nothing was sent/);
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(0);
  });

  it('numbers that failed are asked again with Retry the failed, through the same preview', async () => {
    h.sandbox.setFaults([{ path: UNBLOCK, status: 400, times: 2 }]);
    const preview = await (await h.slash('unblock 09123456789 09351112222 09127654321')).reply();
    const first = await press(ACTIONS.batchConfirm, buttonValue(preview, ACTIONS.batchConfirm));
    expect(readable(first)).toContain('1 of 3 unblocked');
    expect(readable(first)).toContain('2 failed');

    const again = await press(ACTIONS.batchRetry, buttonValue(first, ACTIONS.batchRetry));
    expect(readable(again)).toContain('2 to unblock, 0 refused');
    const second = readable(await press(ACTIONS.batchConfirm, buttonValue(again, ACTIONS.batchConfirm)));

    expect(second).toContain('2 of 2 unblocked');
    expect(requestIdIn(second)).not.toBe(requestIdIn(readable(first)));
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(5);
  });

  it('an agent opens Unblock many from the help, pastes a list, and confirms the preview', async () => {
    tags += 1;
    const tag = `batch-${mode}-${tags}`;
    const since = h.slack.calls.length;
    await h.action({
      userId: USERS.agent.id,
      actionId: ACTIONS.unblockManyOpen,
      value: 'unblock-many',
      responseUrl: h.slack.responseUrl(tag),
    });
    const form = await modalShown(h, since, CALLBACKS.unblockMany);

    const refused = await submitModal(h, form, { [BLOCKS.mobileList]: typed('hello\n12345') });
    expect(JSON.stringify(refused)).toMatch(/"response_action":"errors".*No number to unblock was found/);
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(0);

    await submitModal(h, form, { [BLOCKS.mobileList]: typed('۰۹۱۲۳۴۵۶۷۸۹ ، 09351112222،09127654321') });
    const preview = await h.slack.waitForResponse((p) => p.tag === tag, 20_000);
    expect(readable(preview)).toContain('3 to unblock, 0 refused');
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(0);

    const done = readable(await press(ACTIONS.batchConfirm, buttonValue(preview, ACTIONS.batchConfirm)));
    expect(done).toContain('3 of 3 unblocked');
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(3);
  });

  it('a batch of 500 numbers waits for one lead’s approval, then runs as one request', async () => {
    const numbers = Array.from({ length: 500 }, (_, i) => `0912${String(1_000_000 + i)}`);
    const preview = await (await h.slash(`unblock ${numbers.join('\n')}`)).reply();
    expect(readable(preview)).toContain('500 to unblock, 0 refused, 0 need a lead');
    expect(readable(preview)).toContain(
      'A lead approves the whole list: 500 numbers, over 10 without approval.',
    );

    const asked = readable(await press(ACTIONS.batchConfirm, buttonValue(preview, ACTIONS.batchConfirm)));
    expect(asked).toMatch(/waits for a lead/);
    const id = requestIdIn(asked);
    const message = await approvalMessage(h, id);
    expect(JSON.stringify(message.blocks)).toContain('500');
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(0);

    await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
    await until(
      async () => ((await h.store.getRequest(id))?.state === 'succeeded' ? true : undefined),
      'the batch to end',
      45_000,
    );

    const approvals = h.slack
      .messages('C0APPROVALS')
      .filter((m) => JSON.stringify(m.blocks ?? []).includes('request_approve'));
    expect(approvals).toHaveLength(1);
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(500);
    const steps = (await h.store.listAudit()).filter((e) => e.type === 'step');
    expect(steps).toHaveLength(500);
    expect(new Set(steps.map((e) => e.requestId))).toEqual(new Set([id]));
    await until(
      () =>
        directMessagesNow(h, USERS.agent.id).some((m) => m.includes('500 of 500 unblocked'))
          ? true
          : undefined,
      'the batch message to show the end',
    );
  }, 60_000);
});

describe.each(['http', 'socket'] as const)('a break-glass batch over %s', (mode) => {
  const REPEAT = '09124564567';
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({
      mode,
      sandbox: { extras: false },
      batchProgressMs: 50,
      policy: [
        'viewer.unblock: { repeat: { within: 30d, max: 2 } }',
        `viewer.unblock-many: { breakGlass: { allowed: [${USERS.agent.id}], reviewWithin: 1h } }`,
        '',
      ].join('\n'),
    });
  });
  afterEach(async () => {
    await h.stop();
  });

  it('an agent breaks the glass on a batch holding a repeat viewer; the leads’ review flags that viewer', async () => {
    for (let i = 0; i < 2; i += 1) await (await h.slash(`unblock ${REPEAT}`)).reply();
    const preview = await (await h.slash(`unblock ${REPEAT} 09351112222`)).reply();
    expect(readable(preview)).toContain('2 to unblock, 0 refused, 1 needs a lead');
    const confirmTag = `glass-batch-${mode}`;
    await h.action({
      userId: USERS.agent.id,
      actionId: ACTIONS.batchConfirm,
      value: buttonValue(preview, ACTIONS.batchConfirm),
      responseUrl: h.slack.responseUrl(confirmTag),
    });
    const asked = await h.slack.waitForResponse((p) => p.tag === confirmTag, 20_000);
    expect(readable(asked)).toMatch(/waits for a lead/);
    const id = requestIdIn(readable(asked));

    // The Break glass… button under the batch's reply, then its modal with a reason and the words.
    const since = h.slack.calls.length;
    await h.action({
      userId: USERS.agent.id,
      actionId: ACTIONS.breakGlass,
      value: buttonValue(asked, ACTIONS.breakGlass),
      responseUrl: h.slack.responseUrl(`${confirmTag}-glass`),
    });
    const view = await modalShown(h, since, CALLBACKS.breakGlass);
    await submitModal(h, view, {
      [BLOCKS.breakGlassReason]: typed('a classroom locked out before an exam'),
      [BLOCKS.breakGlassWords]: typed('Break Glass'),
    });
    await until(
      async () => ((await h.store.getRequest(id))?.state === 'succeeded' ? true : undefined),
      'the batch to run by break-glass',
    );

    const flag = 'run by break-glass without the lead it needed: 1 repeat viewer';
    const approval = JSON.stringify(
      (await approvalMessage(h, id, (m) => JSON.stringify(m.blocks ?? []).includes(flag))).blocks,
    );
    expect(approval).toContain('0912***4567');
    expect(approval).not.toContain(REPEAT);
    await until(
      () =>
        directMessagesNow(h, USERS.lead.id).some((m) => m.includes(id) && m.includes(flag))
          ? true
          : undefined,
      'the lead’s DM to flag the repeat viewer',
    );
    expect(upstream(h, 'POST', UNBLOCK)).toHaveLength(4);
  });
});
