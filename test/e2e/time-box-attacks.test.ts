import type { OperationRequest } from '../../src/core/model.js';
import { blockAction, type StoredMessage } from '../../src/emulator/index.js';
import { messageOf } from '../../src/i18n/said.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS, INPUT_ACTION } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  callSince,
  click,
  modalShown,
  notificationsDone,
  reaches,
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
 * Attacks on changes that undo themselves (docs/time-boxed.md), through Slack's surfaces: the
 * real app over signed HTTP, the Slack emulator and the documented-only sandbox. Every attack
 * checks what must not have happened: no upstream write, no new request, no new audit event,
 * no put-back claimed.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const CONFIG_PATH = '/v1/storage/protect/config';
const WHITELIST_PATH = '/v1/storage/dns/whitelist';
const SWEEP_APART = 3_600_000;
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

let h: Harness;

beforeEach(async () => {
  h = await startHarness({ sandbox: { extras: false }, sweepIntervalMs: SWEEP_APART });
});

afterEach(async () => {
  await h.stop();
});

async function ask(text: string, userId: string = USERS.agent.id) {
  const reply = readable(await (await h.slash(text, { userId })).reply());
  return { reply, id: requestIdIn(reply) };
}

async function approve(id: string, lead: string = USERS.lead.id): Promise<OperationRequest> {
  const message = await approvalMessage(h, id);
  const answer = await click(h, { userId: lead, actionId: ACTIONS.approve, requestId: id, message });
  await answer.reply();
  const done = await reaches(h, id, 'succeeded');
  await notificationsDone(h);
  return done;
}

function messageSaying(id: string, words: string): Promise<StoredMessage> {
  return approvalMessage(h, id, (m) => JSON.stringify(m.blocks ?? []).includes(words));
}

/** A time-boxed change asked by the agent and approved by the lead: its ID and its message in force. */
async function inForce(text = 'protect set preventZoom=true for 2h') {
  const { id } = await ask(text);
  await approve(id);
  const message = await messageSaying(id, 'goes back at');
  return { id, message };
}

/** What must stay as it is after a refused attempt. */
async function snapshot() {
  await notificationsDone(h);
  return {
    requests: (await h.store.listRequests({ limit: 500 }))
      .map((r) => `${r.id}:${r.state}:${r.version}`)
      .sort(),
    audit: (await h.store.listAudit()).length,
    writes: h.sandbox.requests().filter((r) => r.method !== 'GET').length,
    upstream: h.sandbox.requests().length,
  };
}

/**
 * Nothing was asked, written or sent since `before`; `reads`: not even read from the service;
 * `denied`: that many `denied` audit events (a refused outsider is audited) and no other event.
 */
async function expectNothingChanged(before: Awaited<ReturnType<typeof snapshot>>, reads = true, denied = 0) {
  const after = await snapshot();
  expect(after.requests).toEqual(before.requests);
  expect(after.audit).toBe(before.audit + denied);
  if (denied > 0) {
    const newest = (await h.store.listAudit()).slice(-denied);
    expect(newest.map((e) => e.type)).toEqual(Array(denied).fill('denied'));
  }
  expect(after.writes).toBe(before.writes);
  if (reads) expect(after.upstream).toBe(before.upstream);
}

async function eventsOf(id: string): Promise<string[]> {
  return (await h.store.listAudit()).filter((e) => e.requestId === id).map((e) => e.type);
}

async function putBacksOf(id: string): Promise<OperationRequest[]> {
  return (await h.store.listRequests({ limit: 200 })).filter(
    (r) => r.revertOf?.id === id && r.revertOf.kind === 'put-back',
  );
}

/** Every text a refused click got back (ephemeral to the response URL). */
async function clickReply(pressed: { reply(): Promise<{ body: unknown }> }): Promise<string> {
  return JSON.stringify((await pressed.reply()).body);
}

describe('who may press Put back now, Extend… and Revert…', () => {
  test('another agent and an outsider click Put back now on the approval message of a change that is not theirs', async () => {
    const { id, message } = await inForce();
    const before = await snapshot();
    for (const userId of [USERS.agent2.id, USERS.outsider.id]) {
      const pressed = await click(h, { userId, actionId: ACTIONS.putBackNow, requestId: id, message });
      const words = await clickReply(pressed);
      // The agent is told it is not theirs; the outsider is stopped at the door (not on the team).
      expect(words).toMatch(
        userId === USERS.outsider.id
          ? /only for the support team\. Nothing was done/
          : new RegExp(`Only the person who asked for ${id}, or a lead, may undo it\\. Nothing was changed`),
      );
    }
    await expectNothingChanged(before, true, 1);
    expect(h.sandbox.state().config.preventZoom).toBe(true);
    expect((await stored(h, id)).timeBox?.state).toBe('waiting');
    expect(await putBacksOf(id)).toEqual([]);
  });

  test('another agent clicks Put back now on the App Home with a forged value naming the agent’s request', async () => {
    const { id } = await inForce();
    const before = await snapshot();
    const since = h.slack.calls.length;
    await h.action({
      userId: USERS.agent2.id,
      actionId: ACTIONS.putBackNow,
      value: id,
      view: { id: 'V0HOME2', type: 'home', blocks: [] },
    });
    const told = await until(
      () =>
        callSince(
          h,
          since,
          ['views.publish'],
          (c) => c.args.user_id === USERS.agent2.id && JSON.stringify(c.args.view).includes('may undo it'),
        ),
      'the refusal on the clicker’s Home tab',
    );
    expect(JSON.stringify(told.args.view)).toContain(id);
    // Publishing the clicker's Home tab reads the service; nothing is written.
    await expectNothingChanged(before, false);
    expect(h.sandbox.state().config.preventZoom).toBe(true);
  });

  test('another agent forges the value of Put back now on their own change to name the agent’s change', async () => {
    const mine = await inForce('whitelist add 5.6.7.8 for 2h');
    const { id: theirs } = await ask('protect set preventZoom=true for 1h', USERS.agent2.id);
    await approve(theirs);
    const theirMessage = await messageSaying(theirs, 'goes back at');
    const before = await snapshot();
    const pressed = await click(h, {
      userId: USERS.agent2.id,
      actionId: ACTIONS.putBackNow,
      requestId: mine.id,
      message: theirMessage,
    });
    expect(await clickReply(pressed)).toContain('may undo it');
    await expectNothingChanged(before);
    expect(h.sandbox.state().whitelist).toEqual(['5.6.7.8']);
    expect(h.sandbox.state().config.preventZoom).toBe(true);
  });

  test('a button value that is not a request ID, or names no request, is refused and changes nothing', async () => {
    const { message } = await inForce();
    const before = await snapshot();
    for (const value of ['R-ZZZZZZZZ', 'R-00000000', '../R-1', '']) {
      const pressed = await click(h, {
        userId: USERS.lead.id,
        actionId: ACTIONS.putBackNow,
        requestId: value,
        message,
      });
      expect(await clickReply(pressed)).toMatch(/:no_entry:|nothing was changed/i);
    }
    await expectNothingChanged(before);
  });

  // Was a defect: Extend… opened its form for anyone who clicked; it is now checked first, as the
  // other request buttons are (openWhenAllowed). (An outsider is stopped earlier, at the team gate.)
  test('another agent clicks Extend… on the agent’s change: told why at once, no form opens', async () => {
    const { id, message } = await inForce();
    const since = h.slack.calls.length;
    await h.action({
      userId: USERS.agent2.id,
      actionId: ACTIONS.extend,
      value: id,
      message,
      responseUrl: h.slack.responseUrl('extend-other'),
    });
    // Whichever comes first: a form for them, or the answer to their click.
    const outcome = await until(
      () =>
        callSince(h, since, ['views.open'], (c) => JSON.stringify(c.args.view).includes(CALLBACKS.extend))
          ? 'a form opened'
          : h.slack.responsePosts.find((p) => p.tag === 'extend-other'),
      'a form or an answer',
    );
    expect(outcome).not.toBe('a form opened');
    expect(JSON.stringify(outcome)).toContain('may undo it');
  });

  test('another agent submits an Extend… form naming the agent’s change: denied, no extension is asked for', async () => {
    const { id, message } = await inForce();
    // The agent's own Extend… form, as the other agent would get it.
    const since = h.slack.calls.length;
    await click(h, { userId: USERS.agent.id, actionId: ACTIONS.extend, requestId: id, message });
    const form = await modalShown(h, since, CALLBACKS.extend);
    const before = await snapshot();
    const asked = h.slack.calls.length;
    await submitModal(
      h,
      form,
      valuesOf(form, { [BLOCKS.putBackTyped]: typed('4h'), [BLOCKS.reason]: typed('I want it longer') }),
      USERS.agent2.id,
    );
    const status = await until(
      () =>
        callSince(h, asked, ['views.update'], (c) =>
          /may undo it|Nothing|:no_entry:/.test(JSON.stringify(c.args.view)),
        ),
      'the form to say it was refused',
    );
    expect(JSON.stringify(status.args.view)).toContain('may undo it');
    await expectNothingChanged(before);
    expect((await stored(h, id)).timeBox?.state).toBe('waiting');
  });

  test('another agent and an outsider click Revert… on a done change that is not theirs: no form, no request', async () => {
    const { id } = await ask('protect set opacity=0.3');
    await approve(id);
    const message = await messageSaying(id, ACTIONS.revert);
    const before = await snapshot();
    const since = h.slack.calls.length;
    for (const userId of [USERS.agent2.id, USERS.outsider.id]) {
      const pressed = await click(h, { userId, actionId: ACTIONS.revert, requestId: id, message });
      expect(await clickReply(pressed)).toMatch(/may undo it|only for the support team/);
    }
    expect(callSince(h, since, ['views.open'])).toBeUndefined();
    await expectNothingChanged(before, true, 1);
    expect(h.sandbox.state().config.opacity).toBe(0.3);
  });
});

describe('stale and repeated clicks', () => {
  test('Put back now on a time-boxed request that is still waiting for approval, then cancelled', async () => {
    const { id } = await ask('protect set preventZoom=true for 2h');
    const pending = await approvalMessage(h, id);
    let before = await snapshot();
    const early = await click(h, {
      userId: USERS.agent.id,
      actionId: ACTIONS.putBackNow,
      requestId: id,
      message: pending,
    });
    expect(await clickReply(early)).toContain('is not a time-boxed change in force');
    await expectNothingChanged(before);

    const cancelled = await click(h, {
      userId: USERS.agent.id,
      actionId: ACTIONS.cancel,
      requestId: id,
      message: pending,
    });
    await cancelled.reply();
    await reaches(h, id, 'cancelled');
    before = await snapshot();
    for (const actionId of [ACTIONS.putBackNow, ACTIONS.extend, ACTIONS.revert]) {
      const pressed = await click(h, { userId: USERS.lead.id, actionId, requestId: id, message: pending });
      expect(await clickReply(pressed)).toContain(':no_entry:');
    }
    await expectNothingChanged(before);
    expect(upstream(h, 'POST', CONFIG_PATH)).toEqual([]);
  });

  test('the requester clicks Extend… and Put back now on the message after the change was already put back', async () => {
    const { id, message } = await inForce('whitelist add 5.6.7.8 for 30m');
    h.clock.advance(31 * MINUTE);
    await h.vidops.ops.sweepTimeBoxes();
    await notificationsDone(h);
    expect(h.sandbox.state().whitelist).toEqual([]);
    const before = await snapshot();
    const since = h.slack.calls.length;
    const extend = await click(h, {
      userId: USERS.agent.id,
      actionId: ACTIONS.extend,
      requestId: id,
      message,
    });
    expect(await clickReply(extend)).toContain('is not a time-boxed change in force');
    expect(callSince(h, since, ['views.open'])).toBeUndefined();
    const putBack = await click(h, {
      userId: USERS.agent.id,
      actionId: ACTIONS.putBackNow,
      requestId: id,
      message,
    });
    expect(await clickReply(putBack)).toContain('is not a time-boxed change in force');
    await expectNothingChanged(before);
    expect(await putBacksOf(id)).toHaveLength(1);
  });

  test('an Extend… form left open is submitted after the change was put back: refused, nothing asked', async () => {
    const { id, message } = await inForce();
    const since = h.slack.calls.length;
    await click(h, { userId: USERS.agent.id, actionId: ACTIONS.extend, requestId: id, message });
    const form = await modalShown(h, since, CALLBACKS.extend);
    const back = await click(h, {
      userId: USERS.lead.id,
      actionId: ACTIONS.putBackNow,
      requestId: id,
      message,
    });
    expect(await clickReply(back)).toContain('is put back');
    const before = await snapshot();
    const asked = h.slack.calls.length;
    await submitModal(
      h,
      form,
      valuesOf(form, { [BLOCKS.putBackTyped]: typed('4h'), [BLOCKS.reason]: typed('longer') }),
    );
    await until(
      () =>
        callSince(h, asked, ['views.update'], (c) =>
          JSON.stringify(c.args.view).includes('not a time-boxed change in force'),
        ),
      'the stale form refused',
    );
    await expectNothingChanged(before);
    expect(h.sandbox.state().config.preventZoom).toBe(false);
  });

  // Was a defect: an Extend… approved after the change it extends was put back set the change
  // again for a new window. An Extend is now checked just before it is sent (staleExtension).
  test('a lead approves a pending Extend… after another lead put the change back: the change must not come back', async () => {
    const { id, message } = await inForce();
    const since = h.slack.calls.length;
    await click(h, { userId: USERS.agent.id, actionId: ACTIONS.extend, requestId: id, message });
    const form = await modalShown(h, since, CALLBACKS.extend);
    const asked = h.slack.calls.length;
    await submitModal(
      h,
      form,
      valuesOf(form, { [BLOCKS.putBackTyped]: typed('4h'), [BLOCKS.reason]: typed('longer') }),
    );
    const status = await until(
      () => callSince(h, asked, ['views.update'], (c) => JSON.stringify(c.args.view).includes('posted to')),
      'the extension asked',
    );
    const extension = requestIdIn(JSON.stringify(status.args.view).replaceAll(id, ''));
    const back = await click(h, {
      userId: USERS.lead2.id,
      actionId: ACTIONS.putBackNow,
      requestId: id,
      message,
    });
    expect(await clickReply(back)).toContain('is put back');
    expect(h.sandbox.state().config.preventZoom).toBe(false);

    const pending = await approvalMessage(h, extension);
    const approved = await click(h, {
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      requestId: extension,
      message: pending,
    });
    await approved.reply();
    await until(async () => {
      const r = await h.store.getRequest(extension);
      return r !== null && r.state !== 'pending' && r.state !== 'approved' && r.state !== 'executing'
        ? r
        : undefined;
    }, 'the extension decided');
    await notificationsDone(h);
    expect(h.sandbox.state().config.preventZoom).toBe(false);
    expect(upstream(h, 'POST', CONFIG_PATH)).toHaveLength(2);
  });

  test('the same Put back now click is delivered twice by Slack: one put-back', async () => {
    const { id, message } = await inForce();
    const request = blockAction({
      userId: USERS.agent.id,
      actionId: ACTIONS.putBackNow,
      value: id,
      message,
      responseUrl: h.slack.responseUrl('twice'),
    });
    const at = Math.floor(h.clock.now().getTime() / 1000);
    const [first, second] = await Promise.all([
      h.send(request, { timestamp: at }),
      h.send(request, { timestamp: at }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    await until(async () => ((await stored(h, id)).timeBox?.state === 'done' ? true : undefined), 'put back');
    // A third delivery, after the first was done.
    await h.send(request, { timestamp: at });
    await notificationsDone(h);
    expect(upstream(h, 'POST', CONFIG_PATH)).toHaveLength(2);
    expect(await putBacksOf(id)).toHaveLength(1);
    expect((await eventsOf(id)).filter((e) => e === 'reverting')).toHaveLength(1);
  });

  test('the requester and two leads press Put back now at the same moment, while the sweep runs: one put-back', async () => {
    const { id, message } = await inForce('whitelist add 5.6.7.8 for 1h');
    h.clock.advance(HOUR + MINUTE);
    const clicks = [USERS.agent.id, USERS.lead.id, USERS.lead2.id].map((userId) =>
      click(h, { userId, actionId: ACTIONS.putBackNow, requestId: id, message }),
    );
    await Promise.all([...clicks, h.vidops.ops.sweepTimeBoxes()]);
    await until(async () => ((await stored(h, id)).timeBox?.state === 'done' ? true : undefined), 'put back');
    await notificationsDone(h);
    expect(h.sandbox.state().whitelist).toEqual([]);
    expect(upstream(h, 'POST', WHITELIST_PATH)).toHaveLength(2);
    expect(await putBacksOf(id)).toHaveLength(1);
    expect((await eventsOf(id)).filter((e) => e === 'reverting')).toHaveLength(1);
  });

  test('Revert… on a change already put back: nothing left to revert, no request', async () => {
    const { id, message } = await inForce('protect set preventZoom=true for 1h');
    const back = await click(h, {
      userId: USERS.agent.id,
      actionId: ACTIONS.putBackNow,
      requestId: id,
      message,
    });
    await back.reply();
    await notificationsDone(h);
    const before = await snapshot();
    const since = h.slack.calls.length;
    const pressed = await click(h, {
      userId: USERS.agent.id,
      actionId: ACTIONS.revert,
      requestId: id,
      message,
    });
    expect(await clickReply(pressed)).toMatch(/cannot be reverted|Nothing of .* left to revert/);
    expect(callSince(h, since, ['views.open'])).toBeUndefined();
    await expectNothingChanged(before, false);
  });

  test('Revert… of a put-back request, and Put back now on a put-back request, are refused', async () => {
    const { id, message } = await inForce('protect set preventZoom=true for 1h');
    const back = await click(h, {
      userId: USERS.lead.id,
      actionId: ACTIONS.putBackNow,
      requestId: id,
      message,
    });
    await back.reply();
    const [putBack] = await putBacksOf(id);
    if (putBack === undefined) throw new Error('no put-back request');
    const before = await snapshot();
    for (const actionId of [ACTIONS.revert, ACTIONS.putBackNow, ACTIONS.extend]) {
      const pressed = await click(h, { userId: USERS.lead.id, actionId, requestId: putBack.id, message });
      expect(await clickReply(pressed)).toContain(':no_entry:');
    }
    await expectNothingChanged(before);
  });
});

describe('hostile windows typed in the command', () => {
  const refusals: [string, RegExp][] = [
    ['protect set preventZoom=true for 0m', /is no time at all/],
    ['protect set preventZoom=true for -1h', /is no time at all|neither a duration/],
    ['protect set preventZoom=true for 2h30', /neither a duration/],
    ['protect set preventZoom=true for 1e9h', /neither a duration/],
    ['protect set preventZoom=true for 1.5h', /neither a duration/],
    ['protect set preventZoom=true for 2 h', /neither a duration|at the end/],
    ['protect set preventZoom=true for 30m2h', /neither a duration/],
    ['protect set preventZoom=true for 2h for 1h', /one window|at the end/],
    ['protect set preventZoom=true for 2\u200bh', /neither a duration/],
    [
      'whitelist add 5.6.7.8 for 99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999d',
      /neither a duration|too long/,
    ],
    ['whitelist add 5.6.7.8 until 1405/12/30T10:00', /neither a duration/],
    ['whitelist add 5.6.7.8 until 1405/09/31', /neither a duration/],
    ['whitelist add 5.6.7.8 until 2026-02-30T10:00Z', /neither a duration/],
    ['whitelist add 5.6.7.8 until 2026-11-26T25:00Z', /neither a duration/],
    ['whitelist add 5.6.7.8 until 2026-11-26T10:00+03:30', /neither a duration/],
    [`folder delete ${DEMO.folders.lectures} for 2h`, /cannot be asked for a while/],
  ];

  test.each(refusals)(
    'an agent types `/vidops %s`: refused with the reason, nothing asked, nothing sent',
    async (text, why) => {
      const before = await snapshot();
      const reply = readable(await (await h.slash(text)).reply());
      expect(reply).toMatch(why);
      // A window too long is found only once the change is prepared (a read; see the failing test below).
      await expectNothingChanged(before, !/too long/.test(reply));
    },
  );

  test('windows that are only wrong against the clock or the policy (a second, an end passed, 8 days, far past maxDuration) are refused and nothing is written', async () => {
    const past = new Date(h.clock.now().getTime() - HOUR).toISOString().slice(0, 16);
    const cases: [string, RegExp][] = [
      ['whitelist add 5.6.7.8 for 30s', /too short/],
      [`whitelist add 5.6.7.8 until ${past}Z`, /already passed/],
      ['whitelist add 5.6.7.8 for 8d', /too long: the policy allows at most 7 days/],
      ['whitelist add 5.6.7.8 for 99999999999d', /too long/],
      ['whitelist add 5.6.7.8 for 1w1d', /too long/],
      ['protect set preventZoom=true for ۱۲۳۴۵۶۷۸۹h', /too long/],
    ];
    for (const [text, why] of cases) {
      const before = await snapshot();
      const reply = readable(await (await h.slash(text)).reply());
      expect(reply).toMatch(why);
      // Reads of the service may happen (the change is prepared first); writes, requests, events may not.
      await expectNothingChanged(before, false);
    }
  });

  // Was a defect (minor): a window out of the policy's bounds was checked only at submit, after the
  // service was read; it is now checked before (Operations.checkWindow).
  test('an agent asks `whitelist add 5.6.7.8 for 8d`: refused before the service is even read', async () => {
    const before = await snapshot();
    const reply = readable(await (await h.slash('whitelist add 5.6.7.8 for 8d')).reply());
    expect(reply).toContain('too long');
    await expectNothingChanged(before, true);
  });

  test('a bidi override in the window: the reply and the approval message carry no bidi control, and the window is what is said', async () => {
    const refused = readable(await (await h.slash('protect set preventZoom=true for 9\u202Ed')).reply());
    expect(refused).toContain('too long');
    expect(refused).not.toMatch(BIDI);
    const { reply, id } = await ask('protect set preventZoom=true for 2\u202Eh');
    expect(reply).not.toMatch(BIDI);
    expect(reply).toContain('for 2 hours');
    const message = await approvalMessage(h, id);
    expect(JSON.stringify(message)).not.toMatch(/\\u202e|\u202e/i);
    expect((await stored(h, id)).timeBox?.asked).toMatchObject({ kind: 'for', ms: 2 * HOUR });
  });

  test('mixed Latin, Persian and Arabic-Indic digits are read as one number, and the reply says the window as read', async () => {
    const { reply, id } = await ask('protect set preventZoom=true for 1۲٣m');
    expect(reply).toContain('for 2 hours and 3 minutes');
    expect((await stored(h, id)).timeBox?.asked).toMatchObject({ kind: 'for', ms: 123 * MINUTE });
  });
});

describe('hostile windows typed in the forms', () => {
  test('a window over maxDuration, zero, or a past end typed under "Put back after" in Extend… stays in the form and asks nothing', async () => {
    const { id, message } = await inForce();
    const since = h.slack.calls.length;
    await click(h, { userId: USERS.agent.id, actionId: ACTIONS.extend, requestId: id, message });
    const form = await modalShown(h, since, CALLBACKS.extend);
    const before = await snapshot();
    const past = new Date(h.clock.now().getTime() - HOUR).toISOString().slice(0, 16);
    for (const window of ['8d', '0m', '-4h', `${past}Z`, '1405/12/30', '2h\u200b']) {
      const answer = await submitModal(
        h,
        form,
        valuesOf(form, { [BLOCKS.putBackTyped]: typed(window), [BLOCKS.reason]: typed('longer') }),
      );
      expect(answer).toMatchObject({
        response_action: 'errors',
        errors: { [BLOCKS.putBackTyped]: expect.any(String) },
      });
    }
    // A forged choice over the bounds, with nothing typed.
    const forged = await submitModal(
      h,
      form,
      valuesOf(form, {
        [BLOCKS.putBackAfter]: {
          [INPUT_ACTION]: {
            type: 'static_select',
            selected_option: { text: { type: 'plain_text', text: '30 days' }, value: '30d' },
          },
        },
        [BLOCKS.reason]: typed('longer'),
      }),
    );
    expect(forged).toMatchObject({ response_action: 'errors' });
    await expectNothingChanged(before);
  });
});

describe('a policy of at most 4 hours', () => {
  let strict: Harness;

  beforeEach(async () => {
    strict = await startHarness({
      sandbox: { extras: false },
      sweepIntervalMs: SWEEP_APART,
      policy: 'protect.set: { maxDuration: 4h }\nwhitelist.set: { maxDuration: 4h }\n',
    });
  });

  afterEach(async () => {
    await strict.stop();
  });

  test('Extend… for a day over a 4-hour policy: refused in the form, and the services refuse it too', async () => {
    const asked = readable(await (await strict.slash('protect set preventZoom=true for 4h')).reply());
    const id = requestIdIn(asked);
    const pending = await approvalMessage(strict, id);
    await (
      await click(strict, {
        userId: USERS.lead.id,
        actionId: ACTIONS.approve,
        requestId: id,
        message: pending,
      })
    ).reply();
    await reaches(strict, id, 'succeeded');
    await notificationsDone(strict);
    const message = await approvalMessage(strict, id, (m) =>
      JSON.stringify(m.blocks ?? []).includes('goes back at'),
    );
    const since = strict.slack.calls.length;
    await click(strict, { userId: USERS.agent.id, actionId: ACTIONS.extend, requestId: id, message });
    const form = await modalShown(strict, since, CALLBACKS.extend);
    const requests = (await strict.store.listRequests({ limit: 50 })).length;
    const answer = await submitModal(
      strict,
      form,
      valuesOf(form, { [BLOCKS.putBackTyped]: typed('1d'), [BLOCKS.reason]: typed('longer') }),
    );
    expect(answer).toMatchObject({
      errors: { [BLOCKS.putBackTyped]: expect.stringContaining('at most 4 hours') },
    });
    // Straight to the services, as a forged submission that passed the form would.
    const result = await strict.vidops.ops
      .extend(id, { id: USERS.agent.id, name: 'ana' }, { kind: 'for', ms: 24 * HOUR, text: '1d' }, 'longer')
      .catch((error: unknown) => error);
    expect(result instanceof Error ? messageOf(result) : JSON.stringify(result)).toMatch(
      /too long|at most 4 hours/,
    );
    expect(await strict.store.listRequests({ limit: 50 })).toHaveLength(requests);
    expect(strict.sandbox.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});
