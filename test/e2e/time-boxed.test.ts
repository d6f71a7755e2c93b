import type { Vidops } from '../../src/app.js';
import { SYSTEM_ACTOR } from '../../src/core/approvals.js';
import type { JsonValue } from '../../src/core/json.js';
import type { OperationRequest } from '../../src/core/model.js';
import { appHomeOpened, checkboxes, type StoredMessage } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS, INPUT_ACTION } from '../../src/views/ids.js';
import { noteSkipped, schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';
import { type Harness, startHarness, startReplica, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  directMessages,
  modalShown,
  modalStatus,
  notificationsDone,
  openModal,
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
 * Changes that undo themselves, end to end (issue 23): the real app over signed HTTP and over
 * Socket Mode, the Slack emulator, and the sandbox serving only the documented operations (the
 * Revert… of a folder edit also with its extras, so that vidops saw the folder before the edit).
 * The harness clock is moved, never slept, and the sweep of the time-boxed changes is run by the
 * test (the app's own is an hour apart), as a replica's would run.
 * @see docs/time-boxed.md
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const CONFIG_PATH = '/v1/storage/protect/config';
const WHITELIST_PATH = '/v1/storage/dns/whitelist';
const SWEEP_APART = 3_600_000;

/** A put-back's sweep as a replica runs it, then Slack told of every change it made. */
async function sweep(h: Harness, ms = 0): Promise<void> {
  h.clock.advance(ms);
  await h.vidops.ops.sweepTimeBoxes();
  await notificationsDone(h);
}

/** Someone changes the service outside vidops (another tool, the service's own panel). */
async function changedOutside(h: Harness, path: string, body: JsonValue): Promise<void> {
  const answer = await fetch(`${h.sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', api_key: DEMO.apiKey, secret_key: DEMO.secretKey },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`the sandbox refused ${path}: ${answer.status} ${await answer.text()}`);
}

/** `/vidops <text>` by the agent: the reply's words and the request they name. */
async function ask(h: Harness, text: string, userId: string = USERS.agent.id) {
  const reply = readable(await (await h.slash(text, { userId })).reply());
  return { reply, id: requestIdIn(reply) };
}

/** A lead approves from the approval message; the change has run once this returns. */
async function approve(h: Harness, id: string, lead: string = USERS.lead.id): Promise<OperationRequest> {
  const message = await approvalMessage(h, id);
  const answer = await click(h, { userId: lead, actionId: ACTIONS.approve, requestId: id, message });
  await answer.reply();
  const done = await reaches(h, id, 'succeeded');
  await notificationsDone(h);
  return done;
}

/** The approval message once it says `words`. */
function messageSaying(h: Harness, id: string, words: string): Promise<StoredMessage> {
  return approvalMessage(h, id, (m) => JSON.stringify(m.blocks ?? []).includes(words));
}

/** The buttons' action IDs of a message. */
function buttonsOf(message: StoredMessage): string[] {
  return [...JSON.stringify(message.blocks ?? []).matchAll(/"action_id":"([a-z_]+)"/g)].map(
    (m) => m[1] ?? '',
  );
}

async function eventsOf(h: Harness, requestId: string): Promise<string[]> {
  return (await h.store.listAudit()).filter((e) => e.requestId === requestId).map((e) => e.type);
}

/** The put-back requests vidops made for `id`. */
async function putBacksOf(h: Harness, id: string): Promise<OperationRequest[]> {
  return (await h.store.listRequests({ limit: 200 })).filter(
    (r) => r.revertOf?.id === id && r.revertOf.kind === 'put-back',
  );
}

/** The DMs vidops sent `userId` that are still in Slack (as updated since), with their channel and ts. */
function dmsOf(h: Harness, userId: string): StoredMessage[] {
  const channels = new Set(
    h.slack
      .callsTo('conversations.open')
      .filter((c) => c.args.users === userId)
      .map((c) => {
        const channel = c.response.channel;
        return typeof channel === 'object' && channel !== null && !Array.isArray(channel)
          ? String(channel.id)
          : '';
      }),
  );
  return [...channels].flatMap((channel) => h.slack.messages(channel));
}

/** A second instance of vidops on the harness's database, sandbox and Slack (another replica, or the app restarted). */
async function secondInstance(h: Harness): Promise<Vidops> {
  return (await startReplica(h, { sweepIntervalMs: SWEEP_APART })).vidops;
}

/**
 * A time-boxed change applied, then vidops restarted after its end: the new instance's sweep at
 * start puts it back, and no sweep after it (of either instance) puts back more.
 */
async function restartPutsBackOnce(h: Harness): Promise<void> {
  const { id } = await ask(h, 'protect set preventZoom=true for 1h');
  await approve(h, id);
  h.clock.advance(HOUR + MINUTE);
  const second = await secondInstance(h);
  try {
    await until(
      async () => ((await stored(h, id)).timeBox?.state === 'done' ? true : undefined),
      'the put-back at start',
    );
    await h.vidops.ops.sweepTimeBoxes();
    await second.ops.sweepTimeBoxes();
  } finally {
    await second.stop();
  }
  expect(h.sandbox.state().config.preventZoom).toBe(false);
  expect(upstream(h, 'POST', CONFIG_PATH)).toHaveLength(2);
  expect(await putBacksOf(h, id)).toHaveLength(1);
}

/** Two instances (three sweeps) at once past the end: one claim, one put-back request, one upstream change. */
async function twoSweepsPutBackOnce(h: Harness): Promise<void> {
  const second = await secondInstance(h);
  try {
    const { id } = await ask(h, 'whitelist add 5.6.7.8 for 30m');
    await approve(h, id);
    h.clock.advance(31 * MINUTE);
    await Promise.all([
      h.vidops.ops.sweepTimeBoxes(),
      second.ops.sweepTimeBoxes(),
      h.vidops.ops.sweepTimeBoxes(),
    ]);
    await until(
      async () => ((await stored(h, id)).timeBox?.state === 'done' ? true : undefined),
      'the put-back',
    );
    expect(h.sandbox.state().whitelist).toEqual([]);
    expect(upstream(h, 'POST', WHITELIST_PATH)).toHaveLength(2);
    expect(await putBacksOf(h, id)).toHaveLength(1);
    expect((await eventsOf(h, id)).filter((e) => e === 'reverting')).toHaveLength(1);
  } finally {
    await second.stop();
  }
}

const schemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, 'time_boxed');
if (schemas === null) noteSkipped('time-boxed changes on two instances sharing PostgreSQL');

afterAll(async () => {
  await schemas?.dropAll();
});

describe('two instances of vidops on one PostgreSQL database', () => {
  let h: Harness;

  beforeEach(async () => {
    if (schemas === null) return;
    h = await startHarness({
      sandbox: { extras: false },
      sweepIntervalMs: SWEEP_APART,
      env: { DATABASE_URL: schemas.url() },
    });
  });

  afterEach(async () => {
    if (schemas !== null) await h.stop();
  });

  const pg = schemas === null ? it.skip : it;

  pg('vidops restarts during the window: the instance started after the end puts it back once', () =>
    restartPutsBackOnce(h),
  );

  pg('two instances sweep at once past the end: one put-back request, one upstream change', () =>
    twoSweepsPutBackOnce(h),
  );
});

describe.each(['http', 'socket'] as const)('in %s mode', (mode) => {
  let h: Harness;

  describe('against the documented-only sandbox', () => {
    beforeEach(async () => {
      h = await startHarness({ mode, sandbox: { extras: false }, sweepIntervalMs: SWEEP_APART });
    });

    afterEach(async () => {
      await h.stop();
    });

    it('an agent sets preventZoom on for 2 hours, a lead approves, and past the end vidops puts it back by itself, once, and says so', async () => {
      expect(h.sandbox.state().config.preventZoom).toBe(false);
      const { reply, id } = await ask(h, 'protect set preventZoom=true for 2h');
      expect(reply).toContain('*Time-boxed:* for 2 hours (until about');

      await approve(h, id);
      expect(h.sandbox.state().config.preventZoom).toBe(true);
      const applied = await messageSaying(h, id, 'goes back at');
      expect(buttonsOf(applied)).toEqual([ACTIONS.putBackNow, ACTIONS.extend]);
      await until(
        () => directMessages(h, USERS.agent.id).find((m) => m.includes(id) && m.includes('goes back at')),
        'the requester told when it goes back',
      );

      // An hour in, nothing is due.
      await sweep(h, HOUR);
      expect(h.sandbox.state().config.preventZoom).toBe(true);

      await sweep(h, HOUR + MINUTE);
      expect(h.sandbox.state().config.preventZoom).toBe(false);
      const back = await messageSaying(h, id, 'put back at');
      expect(buttonsOf(back)).toEqual([]);
      const sent = upstream(h, 'POST', CONFIG_PATH);
      expect(sent.map((r) => r.body)).toEqual([{ preventZoom: true }, { preventZoom: false }]);
      expect(await eventsOf(h, id)).toEqual(expect.arrayContaining(['reverting', 'reverted']));
      const [putBack, ...more] = await putBacksOf(h, id);
      expect(more).toEqual([]);
      expect(putBack).toMatchObject({ state: 'succeeded', quorum: 0, requester: SYSTEM_ACTOR });
      await until(
        () => directMessages(h, USERS.agent.id).find((m) => m.includes(id) && m.includes('was put back')),
        'the requester told it was put back',
      );

      // Later sweeps put back nothing more.
      await sweep(h, HOUR);
      expect(upstream(h, 'POST', CONFIG_PATH)).toHaveLength(2);
      expect(await putBacksOf(h, id)).toHaveLength(1);
    });

    it('an agent adds 5.6.7.8 to the whitelist for 30 minutes: at the end it is gone, and the addresses others added stay', async () => {
      await changedOutside(h, WHITELIST_PATH, { allowedDNS: ['1.2.3.4'] });
      const { reply, id } = await ask(h, 'whitelist add 5.6.7.8 for 30m');
      expect(reply).toContain('for 30 minutes');
      await approve(h, id);
      expect(h.sandbox.state().whitelist).toEqual(['1.2.3.4', '5.6.7.8']);
      await changedOutside(h, WHITELIST_PATH, { allowedDNS: ['1.2.3.4', '5.6.7.8', '9.9.9.9'] });

      await sweep(h, 31 * MINUTE);
      expect(h.sandbox.state().whitelist).toEqual(['1.2.3.4', '9.9.9.9']);
      await messageSaying(h, id, 'put back at');
      expect(await eventsOf(h, id)).toEqual(expect.arrayContaining(['reverting', 'reverted']));
    });

    it('another person changes opacity meanwhile: vidops leaves it alone, the message and the requester say so, and the audit says revert-conflict', async () => {
      const { id } = await ask(h, 'protect set opacity=0.3 for 1h');
      await approve(h, id);
      expect(h.sandbox.state().config.opacity).toBe(0.3);
      await changedOutside(h, CONFIG_PATH, { opacity: 0.8 });

      await sweep(h, HOUR + MINUTE);
      expect(h.sandbox.state().config.opacity).toBe(0.8);
      const left = await messageSaying(h, id, 'nothing put back');
      expect(JSON.stringify(left.blocks)).toContain('`opacity` left as `0.8`: changed since by someone else');
      // vidops' change, then the other person's: nothing more.
      expect(upstream(h, 'POST', CONFIG_PATH).map((r) => r.body)).toEqual([
        { opacity: 0.3 },
        { opacity: 0.8 },
      ]);
      expect(await eventsOf(h, id)).toContain('revert-conflict');
      expect(await putBacksOf(h, id)).toEqual([]);
      await until(
        () => directMessages(h, USERS.agent.id).find((m) => m.includes(id) && m.includes('was not put back')),
        'the requester told it was left',
      );
    });

    it('ten minutes before the end the requester is reminded with Extend… and Put back now; Put back now from the DM puts it back at once', async () => {
      const { id } = await ask(h, 'protect set preventZoom=true for 1h');
      await approve(h, id);

      await sweep(h, 50 * MINUTE);
      expect(await eventsOf(h, id)).toContain('put-back-reminded');
      const reminder = await until(
        () =>
          dmsOf(h, USERS.agent.id).find((m) =>
            JSON.stringify(m).includes('goes back to `off` in 10 minutes: extend?'),
          ),
        'the reminder DM',
      );
      expect(buttonsOf(reminder)).toEqual([ACTIONS.putBackNow, ACTIONS.extend]);
      // Another sweep reminds no more.
      await sweep(h, MINUTE);
      expect((await eventsOf(h, id)).filter((e) => e === 'put-back-reminded')).toHaveLength(1);

      const pressed = await click(h, {
        userId: USERS.agent.id,
        actionId: ACTIONS.putBackNow,
        requestId: id,
        message: reminder,
      });
      expect(JSON.stringify((await pressed.reply()).body)).toContain(`*${id}* is put back.`);
      expect(h.sandbox.state().config.preventZoom).toBe(false);
      expect((await stored(h, id)).timeBox?.state).toBe('done');
      await notificationsDone(h);
      // The reminder lost its buttons, in place.
      const now = dmsOf(h, USERS.agent.id).find(
        (m) => m.ts === reminder.ts && m.channel === reminder.channel,
      );
      expect(now && buttonsOf(now)).toEqual([]);
      expect(JSON.stringify(now)).toContain('no longer waits to be put back');
    });

    it('Put back now: another agent is refused and nothing changes; a lead puts it back from the approval message', async () => {
      const { id } = await ask(h, 'protect set preventZoom=true for 4h');
      await approve(h, id);
      const message = await messageSaying(h, id, 'goes back at');

      const other = await click(h, {
        userId: USERS.agent2.id,
        actionId: ACTIONS.putBackNow,
        requestId: id,
        message,
      });
      expect(JSON.stringify((await other.reply()).body)).toContain('Nothing was changed');
      expect(h.sandbox.state().config.preventZoom).toBe(true);
      expect(upstream(h, 'POST', CONFIG_PATH)).toHaveLength(1);

      const lead = await click(h, {
        userId: USERS.lead2.id,
        actionId: ACTIONS.putBackNow,
        requestId: id,
        message,
      });
      expect(JSON.stringify((await lead.reply()).body)).toContain('is put back');
      expect(h.sandbox.state().config.preventZoom).toBe(false);
      await messageSaying(h, id, 'put back at');

      const again = await click(h, {
        userId: USERS.lead.id,
        actionId: ACTIONS.putBackNow,
        requestId: id,
        message,
      });
      expect(JSON.stringify((await again.reply()).body)).toContain(':no_entry:');
      expect(upstream(h, 'POST', CONFIG_PATH)).toHaveLength(2);
    });

    it('Extend…: the agent asks for 4 hours more, a lead approves, and the change goes back at the new end', async () => {
      const { id } = await ask(h, 'protect set preventZoom=true for 1h');
      await approve(h, id);
      const message = await messageSaying(h, id, 'goes back at');

      const since = h.slack.calls.length;
      await click(h, { userId: USERS.agent.id, actionId: ACTIONS.extend, requestId: id, message });
      const form = await modalShown(h, since, CALLBACKS.extend);
      // A window that cannot be read stays in the form, under its field.
      const wrong = await submitModal(
        h,
        form,
        valuesOf(form, {
          [BLOCKS.putBackTyped]: typed('later'),
          [BLOCKS.reason]: typed('the exam runs late'),
        }),
      );
      expect(wrong).toMatchObject({
        response_action: 'errors',
        errors: { [BLOCKS.putBackTyped]: expect.stringContaining('later') },
      });
      const before = h.slack.calls.length;
      await submitModal(
        h,
        form,
        valuesOf(form, { [BLOCKS.putBackTyped]: typed('4h'), [BLOCKS.reason]: typed('the exam runs late') }),
      );
      const status = await modalStatus(h, before, form.id, /posted to/);
      const extension = requestIdIn(status.replace(id, ''));
      expect((await stored(h, extension)).state).toBe('pending');

      await approve(h, extension);
      // One window: the Extend moved its end; nothing of its own goes back.
      expect((await stored(h, id)).timeBox?.state).toBe('waiting');
      expect((await stored(h, extension)).timeBox?.state).toBe('cancelled');
      expect(h.sandbox.state().config.preventZoom).toBe(true);

      // The first end passes: preventZoom stays until the new end.
      await sweep(h, HOUR + MINUTE);
      expect(h.sandbox.state().config.preventZoom).toBe(true);

      await sweep(h, 3 * HOUR);
      expect(h.sandbox.state().config.preventZoom).toBe(false);
      expect((await stored(h, id)).timeBox?.state).toBe('done');
      await messageSaying(h, id, 'put back at');
    });

    it('the service is down at the end: the message says putting back failed, retrying; after an hour every lead is told; once it answers, it is put back', async () => {
      const { id } = await ask(h, 'protect set preventZoom=true for 1h');
      await approve(h, id);
      h.sandbox.setFaults([{ path: CONFIG_PATH, status: 503 }]);

      await sweep(h, HOUR + MINUTE);
      expect((await stored(h, id)).timeBox?.state).toBe('retrying');
      const failing = await messageSaying(h, id, 'putting back failed, retrying');
      expect(buttonsOf(failing)).toEqual([ACTIONS.putBackNow]);
      expect(await eventsOf(h, id)).toContain('put-back-retrying');
      expect(
        directMessages(h, USERS.lead.id).filter((m) => m.includes(id) && m.includes('has failed since')),
      ).toEqual([]);

      // Sweeps through the next hour keep retrying; past the hour a lead is told, once each.
      for (let i = 0; i < 7; i += 1) await sweep(h, 10 * MINUTE);
      expect((await eventsOf(h, id)).filter((e) => e === 'put-back-escalated')).toHaveLength(1);
      for (const lead of [USERS.lead.id, USERS.lead2.id]) {
        await until(
          () => directMessages(h, lead).find((m) => m.includes(id) && m.includes('has failed since')),
          `the put-back failing told to ${lead}`,
        );
      }
      expect(h.sandbox.state().config.preventZoom).toBe(true);

      h.sandbox.clearFaults();
      await sweep(h, HOUR);
      expect(h.sandbox.state().config.preventZoom).toBe(false);
      await messageSaying(h, id, 'put back at');
      for (const lead of [USERS.lead.id, USERS.lead2.id]) {
        expect(
          directMessages(h, lead).filter((m) => m.includes(id) && m.includes('has failed since')),
        ).toHaveLength(1);
        // The DM lost its buttons once the change was put back.
        const told = dmsOf(h, lead).find((m) => JSON.stringify(m).includes(id));
        expect(told && buttonsOf(told)).toEqual([]);
      }
    });

    it('an agent opens App Home: the time-boxed changes in force, with their end and the two buttons; Put back now there puts it back', async () => {
      const { id } = await ask(h, 'protect set preventZoom=true for 2h');
      await approve(h, id);
      const since = h.slack.calls.length;
      await h.send(appHomeOpened({ userId: USERS.agent.id }));
      const home = await until(
        () =>
          h.slack.calls
            .slice(since)
            .find((c) => c.method === 'views.publish' && c.args.user_id === USERS.agent.id),
        'the Home tab',
      );
      const view = home.args.view as { blocks?: JsonValue };
      const blocks = JSON.stringify(view.blocks);
      expect(blocks).toContain('Time-boxed changes in force (1)');
      expect(blocks).toContain(id);
      expect(blocks).toContain('goes back at');
      expect(blocks).toContain(ACTIONS.putBackNow);

      const clicked = h.slack.calls.length;
      await h.action({
        userId: USERS.agent.id,
        actionId: ACTIONS.putBackNow,
        value: id,
        view: { id: 'V0HOME', type: 'home', blocks: view.blocks ?? [] },
      });
      await until(
        () =>
          h.slack.calls
            .slice(clicked)
            .find((c) => c.method === 'views.publish' && JSON.stringify(c.args.view).includes('is put back')),
        'the answer on the Home tab',
      );
      expect(h.sandbox.state().config.preventZoom).toBe(false);
    });

    it('an agent picks 1 hour under "Put back after" in the protection modal; a window typed wrong stays in the form and nothing is asked', async () => {
      const form = await openModal(h, 'protect', CALLBACKS.protect);
      // Block page zoom ticked, the other player settings as they were.
      const player = valuesOf(form)['protect_group:player']?.[INPUT_ACTION]?.selected_options ?? [];
      const ticked = { [INPUT_ACTION]: checkboxes([...player.map((o) => o.value), 'preventZoom']) };
      const wrong = await submitModal(
        h,
        form,
        valuesOf(form, {
          'protect_group:player': ticked,
          [BLOCKS.putBackTyped]: typed('0m'),
          [BLOCKS.reason]: typed('a viewer zooms in'),
        }),
      );
      expect(wrong).toMatchObject({
        response_action: 'errors',
        errors: { [BLOCKS.putBackTyped]: expect.stringContaining('no time at all') },
      });
      expect(await h.store.listRequests({ limit: 5 })).toEqual([]);

      const before = h.slack.calls.length;
      await submitModal(
        h,
        form,
        valuesOf(form, {
          'protect_group:player': ticked,
          [BLOCKS.putBackAfter]: {
            [INPUT_ACTION]: {
              type: 'static_select',
              selected_option: { text: { type: 'plain_text', text: '1 hour' }, value: '1h' },
            },
          },
          [BLOCKS.reason]: typed('a viewer zooms in'),
        }),
      );
      const id = requestIdIn(await modalStatus(h, before, form.id, /posted to/));
      expect((await stored(h, id)).timeBox).toMatchObject({
        asked: { kind: 'for', ms: HOUR },
        state: 'waiting',
        endsAt: null,
      });
      await approve(h, id);
      await sweep(h, HOUR + MINUTE);
      expect(h.sandbox.state().config.preventZoom).toBe(false);
    });

    it('vidops restarts during the window: the instance started after the end puts it back once, and a later sweep does nothing more', () =>
      restartPutsBackOnce(h));

    it('two instances sweep at once past the end: one put-back request, one upstream change', () =>
      twoSweepsPutBackOnce(h));

    it('a folder edit whose folder vidops could not read first: Revert… says why it cannot, only to the person who clicked, and changes nothing', async () => {
      const form = await openModal(h, `folder edit ${DEMO.folders.lectures}`, CALLBACKS.folderEdit);
      const before = h.slack.calls.length;
      await submitModal(
        h,
        form,
        valuesOf(form, {
          [BLOCKS.title]: typed('Lectures 2027'),
          [BLOCKS.reason]: typed('renamed by the customer'),
        }),
      );
      const id = requestIdIn(await modalStatus(h, before, form.id, /posted to/));
      await approve(h, id);
      const message = await messageSaying(h, id, ACTIONS.revert);
      const pressed = await click(h, {
        userId: USERS.agent.id,
        actionId: ACTIONS.revert,
        requestId: id,
        message,
      });
      expect(JSON.stringify((await pressed.reply()).body)).toContain('cannot be reverted');
      expect((await h.store.listRequests({ limit: 50 })).filter((r) => r.revertOf?.id === id)).toEqual([]);
    });
  });

  describe('a policy that lets agents change protection at once, and requires a window of at most a day', () => {
    beforeEach(async () => {
      h = await startHarness({
        mode,
        sandbox: { extras: false },
        sweepIntervalMs: SWEEP_APART,
        policy: 'protect.set: { approval: false, requireDuration: true, maxDuration: 1d }\n',
      });
    });

    afterEach(async () => {
      await h.stop();
    });

    it('an agent asks without a window, or for too long, and is told why; with 2h it runs at once, the answer says until when with the two buttons, and the approval channel shows it', async () => {
      const none = await h.slash('protect set preventZoom=true');
      expect(readable(await none.reply())).toContain('must be asked for a while');
      const long = await h.slash('protect set preventZoom=true for 3d');
      expect(readable(await long.reply())).toContain('is too long: the policy allows at most 1 day');
      expect(upstream(h, 'POST', CONFIG_PATH)).toEqual([]);

      const slash = await h.slash('protect set preventZoom=true for 2h');
      const reply = await slash.reply();
      const id = requestIdIn(readable(reply));
      expect(readable(reply)).toContain('goes back at');
      expect(readable(reply)).toContain('in 2 hours');
      expect(JSON.stringify(reply.body)).toContain(ACTIONS.putBackNow);
      expect(h.sandbox.state().config.preventZoom).toBe(true);
      await notificationsDone(h);
      const message = await messageSaying(h, id, 'goes back at');
      expect(buttonsOf(message)).toEqual([ACTIONS.putBackNow, ACTIONS.extend]);

      await sweep(h, 2 * HOUR + MINUTE);
      expect(h.sandbox.state().config.preventZoom).toBe(false);
      await messageSaying(h, id, 'put back at');
    });
  });

  describe('Revert… of a folder edit (the sandbox with its extras: vidops saw the folder before the edit)', () => {
    beforeEach(async () => {
      h = await startHarness({ mode, sweepIntervalMs: SWEEP_APART });
    });

    afterEach(async () => {
      await h.stop();
    });

    it('an agent renames a folder, a lead approves; Revert… shows the inverse, goes through approval, and the old title is back', async () => {
      const folder = DEMO.folders.lectures;
      const title = () => h.sandbox.state().folders.find((f) => f._id === folder)?.title;
      expect(title()).toBe('Course lectures');
      const form = await openModal(h, `folder edit ${folder}`, CALLBACKS.folderEdit);
      const before = h.slack.calls.length;
      await submitModal(
        h,
        form,
        valuesOf(form, {
          [BLOCKS.title]: typed('Lectures 2027'),
          [BLOCKS.reason]: typed('renamed by the customer'),
        }),
      );
      const id = requestIdIn(await modalStatus(h, before, form.id, /posted to/));
      await approve(h, id);
      expect(title()).toBe('Lectures 2027');

      const message = await messageSaying(h, id, ACTIONS.revert);
      const since = h.slack.calls.length;
      await click(h, { userId: USERS.agent.id, actionId: ACTIONS.revert, requestId: id, message });
      const confirm = await modalShown(h, since, CALLBACKS.revertConfirm);
      expect(JSON.stringify(confirm.blocks)).toContain('Course lectures');
      expect(JSON.stringify(confirm.blocks)).toContain(id);
      const asked = h.slack.calls.length;
      await submitModal(
        h,
        confirm,
        valuesOf(confirm, { [BLOCKS.reason]: typed('the customer changed their mind') }),
      );
      const revert = requestIdIn((await modalStatus(h, asked, confirm.id, /posted to/)).replace(id, ''));
      expect((await stored(h, revert)).revertOf).toEqual({ id, kind: 'revert' });
      await messageSaying(h, revert, `*Reverts* *${id}*`);
      expect(title()).toBe('Lectures 2027');

      await approve(h, revert);
      expect(title()).toBe('Course lectures');
    });
  });
});
