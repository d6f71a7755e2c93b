import type { Vidops } from '../../src/app.js';
import type { OperationRequest } from '../../src/core/model.js';
import { blockAction, postSigned, type StoredMessage } from '../../src/emulator/index.js';
import { ACTIONS } from '../../src/views/ids.js';
import { schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';
import { type Harness, SIGNING_SECRET, startHarness, startReplica, USERS } from './app-harness.js';
import {
  approvalMessage,
  directMessages,
  notificationsDone,
  readable,
  requestIdIn,
  until,
  upstream,
} from './change-helpers.js';

/**
 * The whitelist send lease end to end: the real Bolt app (over signed HTTP and over Socket Mode),
 * one instance and two instances on one database (SQLite file, PostgreSQL), the Slack emulator
 * and the sandbox. Two agents' whitelist additions approved at the same moment end truthfully
 * with one POST; a lease left by a crashed holder makes the next whitelist change give up, said
 * in words, while unblocks and protection changes go on at once.
 * @see docs/time-boxed.md, "Exactly once"
 */

const WHITELIST_PATH = '/v1/storage/dns/whitelist';
const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
const LEASE = 'send:whitelist.set';
const MINUTE = 60_000;

interface Instances {
  h: Harness;
  /** Where a click goes: each instance's events URL (one instance: the same twice). */
  urls: [string, string];
  stop(): Promise<void>;
}

async function startInstances(
  count: 1 | 2,
  mode: 'http' | 'socket',
  databaseUrl: string | undefined,
): Promise<Instances> {
  const h = await startHarness({
    mode,
    sweepIntervalMs: 3_600_000,
    ...(databaseUrl === undefined ? {} : { env: { DATABASE_URL: databaseUrl } }),
  });
  let second: Vidops | null = null;
  let secondUrl = h.eventsUrl;
  if (count === 2) {
    ({ vidops: second, eventsUrl: secondUrl } = await startReplica(h, { sweepIntervalMs: 3_600_000 }));
  }
  return {
    h,
    urls: [h.eventsUrl, secondUrl],
    async stop() {
      await second?.stop();
      await h.stop();
    },
  };
}

let tags = 0;

/** A lead's Approve click on a request's approval message, sent to `url` (or through the harness). */
async function approveAt(r: Instances, url: string | null, lead: string, id: string, message: StoredMessage) {
  tags += 1;
  const tag = `lease-click-${tags}`;
  const options = {
    userId: lead,
    actionId: ACTIONS.approve,
    value: id,
    message,
    responseUrl: r.h.slack.responseUrl(tag),
  };
  const answer =
    url === null
      ? await r.h.action(options)
      : await postSigned(url, blockAction(options), SIGNING_SECRET, {
          timestamp: Math.floor(r.h.clock.now().getTime() / 1000),
        });
  expect(answer.status).toBe(200);
  return { reply: () => r.h.slack.waitForResponse((p) => p.tag === tag, 25_000) };
}

async function ask(h: Harness, text: string, userId: string): Promise<string> {
  const reply = readable(await (await h.slash(text, { userId })).reply());
  return requestIdIn(reply);
}

async function ended(h: Harness, id: string, timeoutMs = 25_000): Promise<OperationRequest> {
  return until(
    async () => {
      const request = await h.store.getRequest(id);
      return request && ['succeeded', 'failed', 'unknown'].includes(request.state) ? request : undefined;
    },
    `${id} to end`,
    timeoutMs,
  );
}

const schemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, 'wllease');
afterAll(async () => {
  await schemas?.dropAll();
});

type Setup = [string, 1 | 2, 'http' | 'socket', () => string | undefined];
const SETUPS: Setup[] = [
  ['one instance over HTTP', 1, 'http', () => undefined],
  ['one instance over Socket Mode', 1, 'socket', () => undefined],
  ['two instances on one SQLite file', 2, 'http', () => undefined],
];
if (schemas !== null)
  SETUPS.push(['two instances on one PostgreSQL database', 2, 'http', () => schemas.url()]);

describe.each(SETUPS)('%s', (_name, count, mode, databaseUrl) => {
  let r: Instances;
  beforeAll(async () => {
    r = await startInstances(count, mode, databaseUrl());
  });
  afterAll(() => r.stop());

  it('two agents ask to add different addresses; two leads approve at the same moment: one POST, one added, the other refused as changed since', async () => {
    const h = r.h;
    await notificationsDone(h);
    h.sandbox.reset();
    const mine = await ask(h, 'whitelist add 5.160.12.7', USERS.agent.id);
    const theirs = await ask(h, 'whitelist add 5.160.12.8', USERS.agent2.id);
    const [m1, m2] = await Promise.all([approvalMessage(h, mine), approvalMessage(h, theirs)]);
    const socket = mode === 'socket';
    const clicks = await Promise.all([
      approveAt(r, socket ? null : r.urls[0], USERS.lead.id, mine, m1),
      approveAt(r, socket ? null : r.urls[1], USERS.lead2.id, theirs, m2),
    ]);
    const [a, b] = await Promise.all([ended(h, mine), ended(h, theirs)]);
    const states = [a.state, b.state].sort();
    expect(states).toEqual(['failed', 'succeeded']);
    const [won, lost] = a.state === 'succeeded' ? [a, b] : [b, a];
    expect(lost.error?.name).toBe('WhitelistConflictError');
    expect(upstream(h, 'POST', WHITELIST_PATH)).toHaveLength(1);
    const wonIp = won.id === mine ? '5.160.12.7' : '5.160.12.8';
    expect(h.sandbox.state().whitelist).toEqual([wonIp]);
    // Both leads are told how their approval ended, truthfully.
    const replies = await Promise.all(clicks.map((c) => c.reply().then(readable)));
    expect(replies[won.id === mine ? 0 : 1]).toContain(
      `You approved *${won.id}* (Update whitelist); it ran and is done.`,
    );
    expect(replies[lost.id === mine ? 0 : 1]).toContain(
      `You approved *${lost.id}* (Update whitelist), but it failed: The whitelist changed since this request was made, so nothing was posted.`,
    );
    await notificationsDone(h);
    const lostDms = directMessages(h, lost.id === mine ? USERS.agent.id : USERS.agent2.id).join('\n');
    expect(lostDms).toContain(lost.id);
    expect(lostDms).toMatch(/changed since the request was made/);
    expect(
      await h.store.takeLease(LEASE, 'probe', h.clock.now().toISOString(), h.clock.now().toISOString()),
    ).toBe(true);
    await h.store.giveLease(LEASE, 'probe');
  });
});

describe('a whitelist lease left by a crashed holder, one instance over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sweepIntervalMs: 3_600_000 });
  });
  afterAll(() => h.stop());

  let busyReply = '';

  it('an agent adds an address: after 20 s it is not sent and everyone is told; an unblock goes on at once; after the lapse the next add goes through', async () => {
    const now = h.clock.now();
    expect(
      await h.store.takeLease(
        LEASE,
        'R-CRASHED1',
        new Date(now.getTime() + 2 * MINUTE).toISOString(),
        now.toISOString(),
      ),
    ).toBe(true);
    const id = await ask(h, 'whitelist add 5.160.12.9', USERS.agent.id);
    const message = await approvalMessage(h, id);
    const started = Date.now();
    const click = await approveAt(
      { h, urls: [h.eventsUrl, h.eventsUrl], stop: async () => {} },
      null,
      USERS.lead.id,
      id,
      message,
    );

    // Meanwhile, an unblock is sent at once.
    const unblock = readable(await (await h.slash('unblock 09351234500')).reply());
    expect(unblock).toContain('was sent');
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5000);

    const failed = await ended(h, id, 25_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(19_000);
    expect(failed.state).toBe('failed');
    expect(failed.error?.name).toBe('Busy');
    expect(upstream(h, 'POST', WHITELIST_PATH)).toHaveLength(0);
    busyReply = readable(await click.reply());
    expect(busyReply).toContain(`You approved *${id}* (Update whitelist). Not sent:`);
    expect(busyReply).toMatch(/not sent/i);
    await notificationsDone(h);
    const dms = directMessages(h, USERS.agent.id).join('\n');
    expect(dms).toMatch(/not sent/i);

    // After the lapse (two minutes by the service's clock), the next add goes through.
    h.clock.advance(2 * MINUTE);
    const again = await ask(h, 'whitelist add 5.160.12.9', USERS.agent.id);
    await approveAt(
      { h, urls: [h.eventsUrl, h.eventsUrl], stop: async () => {} },
      null,
      USERS.lead.id,
      again,
      await approvalMessage(h, again),
    );
    expect((await ended(h, again, 8000)).state).toBe('succeeded');
    expect(upstream(h, 'POST', WHITELIST_PATH)).toHaveLength(1);
    expect(h.sandbox.state().whitelist).toEqual(['5.160.12.9']);
  });

  // Was a defect (now a sentence in the reader's language, said once, with what to do): the lead
  // read the Busy refusal as "…, but it failed: It failed: Another whitelist.set
  // was being sent for 20 s; this one was not sent." The message is a fixed English string built
  // in src/services/execute.ts:116 with the operation's internal name, not a `say` sentence
  // (so it is English in Persian too, and "It failed:" is said twice), and it does not say what to
  // do (ask again in a moment). Fix: a `say.sendBusy(title)` sentence in both languages.
  test('the lead reads the Busy refusal in words: the change by its title, once "failed", and what to do', () => {
    expect(busyReply).not.toBe('');
    expect(busyReply).not.toContain('whitelist.set');
    expect(busyReply).not.toMatch(/failed: It failed:/);
    expect(busyReply).toMatch(/again/i);
  });
});
