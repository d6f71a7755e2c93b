import type { Vidops } from '../../src/app.js';
import type { JsonValue } from '../../src/core/json.js';
import { say } from '../../src/core/said.js';
import {
  type PostSignedResult,
  postSigned,
  type ResponsePost,
  type SlackRequest,
  type StoredView,
  slashCommand,
  viewSubmission,
} from '../../src/emulator/index.js';
import { english } from '../../src/i18n/said.js';
import { ACTIONS, BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';
import { CHANNELS, type Harness, SIGNING_SECRET, startHarness, startReplica, USERS } from './app-harness.js';
import {
  modalShown,
  modalStatus,
  notificationsDone,
  readable,
  requestIdIn,
  typed,
  upstream,
  valuesOf,
} from './change-helpers.js';

/**
 * Limits under concurrency, end to end: two instances of the real app on one database (as two
 * replicas would run), the Slack emulator and the sandbox. One agent's commands and clicks sent
 * all at once, half to each instance, cannot pass a limit: the per-agent rate limit and the
 * break-glass limit are counted and claimed in one step in the store. The rest get the documented
 * answer, and nothing of them reaches the service.
 * @see docs/architecture.md, "Approvals" and "Break-glass and delegation"
 */

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
const RATE_POLICY = 'viewer.unblock: { rateLimit: { max: 2, per: 1h } }\n';
const GLASS_POLICY = `
viewer.unblock:
  approval: true
  breakGlass: { allowed: [${USERS.agent.id}], reviewWithin: 1h, max: 1, per: 24h }
`;
const OVER_RATE = /needs approval \(over the rate limit of 2 per hour\): request `R-[0-9A-Z]{8}` posted to/;

/** The first instance is the harness's; the second shares its database, sandbox and Slack. */
interface Replicas {
  h: Harness;
  second: Vidops;
  /** Where each instance takes Slack's requests: the harness's first, then the second's. */
  urls: [string, string];
  stop(): Promise<void>;
}

async function startReplicas(policy: string, databaseUrl: string | undefined): Promise<Replicas> {
  const h = await startHarness({
    policy,
    ...(databaseUrl === undefined ? {} : { env: { DATABASE_URL: databaseUrl } }),
  });
  const { vidops: second, eventsUrl } = await startReplica(h);
  return {
    h,
    second,
    urls: [h.eventsUrl, eventsUrl],
    async stop() {
      await second.stop();
      await h.stop();
    },
  };
}

let tags = 0;

/** A Slack request signed now and posted to one instance. */
function sendTo(r: Replicas, url: string, request: SlackRequest): Promise<PostSignedResult> {
  return postSigned(url, request, SIGNING_SECRET, {
    timestamp: Math.floor(r.h.clock.now().getTime() / 1000),
  });
}

/** `/vidops <text>` typed by `userId`, sent to one instance; its reply. */
async function slashAt(r: Replicas, url: string, text: string, userId: string): Promise<ResponsePost> {
  tags += 1;
  const tag = `limits-${tags}`;
  const request = slashCommand({ text, userId, responseUrl: r.h.slack.responseUrl(tag) });
  const answer = await sendTo(r, url, request);
  if (answer.status !== 200) throw new Error(`/vidops ${text} answered ${answer.status}`);
  return r.h.slack.waitForResponse((post) => post.tag === tag, 15_000);
}

const databases: [string, () => string | undefined][] = [['SQLite', () => undefined]];
const schemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, 'limits');
if (schemas !== null) databases.push(['PostgreSQL', () => schemas.url()]);

afterAll(async () => {
  await schemas?.dropAll();
});

describe.each(databases)('two instances of vidops on one %s database', (_name, databaseUrl) => {
  describe('the per-agent rate limit', () => {
    let r: Replicas;

    beforeAll(async () => {
      r = await startReplicas(RATE_POLICY, databaseUrl());
    });

    afterAll(() => r.stop());

    it('an agent sends eight unblocks at once with a limit of 2 per hour: two reach the service, six wait for a lead, each named in its reply', async () => {
      const numbers = Array.from({ length: 8 }, (_, i) => `0935123450${i}`);
      const replies = await Promise.all(
        numbers.map((number, i) => slashAt(r, r.urls[i % 2] ?? '', `unblock ${number}`, USERS.agent.id)),
      );
      const texts = replies.map(readable);

      expect(upstream(r.h, 'POST', UNBLOCK_PATH)).toHaveLength(2);
      expect(texts.filter((t) => t.includes('was sent'))).toHaveLength(2);
      const waiting = texts.filter((t) => OVER_RATE.test(t));
      expect(waiting).toHaveLength(6);
      for (const text of waiting) expect(text).toContain(`<#${CHANNELS.approvals}>`);

      const requests = await r.h.store.listRequests({ requesterId: USERS.agent.id });
      expect(requests.map((q) => q.state).sort()).toEqual([
        ...Array<string>(6).fill('pending'),
        'succeeded',
        'succeeded',
      ]);
      const events = await r.h.store.listAudit({ last: 100 });
      expect(events.filter((e) => e.type === 'requested')).toHaveLength(8);
      expect(events.filter((e) => e.type === 'executing')).toHaveLength(2);
      await notificationsDone(r.h);
    });
  });

  describe('the break-glass limit', () => {
    let r: Replicas;

    beforeAll(async () => {
      r = await startReplicas(GLASS_POLICY, databaseUrl());
    });

    afterAll(() => r.stop());

    /** An unblock waiting for approval, and its Break glass… modal opened by the agent. */
    async function pendingWithModal(number: string): Promise<{ id: string; view: StoredView }> {
      const reply = await slashAt(r, r.urls[0], `unblock ${number}`, USERS.agent.id);
      const id = requestIdIn(readable(reply));
      const since = r.h.slack.calls.length;
      const body = reply.body as { blocks?: JsonValue };
      await r.h.action({
        userId: USERS.agent.id,
        actionId: ACTIONS.breakGlass,
        value: id,
        message: { ts: '1.1', channel: CHANNELS.support, blocks: body.blocks ?? [] },
        responseUrl: r.h.slack.responseUrl(`glass-${id}`),
        isEphemeral: true,
      });
      return { id, view: await modalShown(r.h, since, CALLBACKS.breakGlass) };
    }

    it('an agent breaks the glass on four pending requests at once with a limit of 1 per 24 hours: one runs, three are told the limit is reached and stay pending', async () => {
      const opened = [];
      for (const number of ['09351234500', '09351234501', '09351234502', '09351234503']) {
        opened.push(await pendingWithModal(number));
      }
      expect(upstream(r.h, 'POST', UNBLOCK_PATH)).toEqual([]);
      // The approval messages are posted and noted on their requests first: noting one bumps the
      // request's version, which a run in progress would take for another writer's change.
      await notificationsDone(r.h);

      const since = r.h.slack.calls.length;
      await Promise.all(
        opened.map(({ view }, i) =>
          sendTo(
            r,
            r.urls[i % 2] ?? '',
            viewSubmission({
              userId: USERS.agent.id,
              callbackId: String(view.callback_id),
              privateMetadata: String(view.private_metadata),
              values: valuesOf(view, {
                [BLOCKS.breakGlassReason]: typed('viewer locked out before an exam'),
                [BLOCKS.breakGlassWords]: typed('break glass'),
              }),
              viewId: view.id,
              blocks: view.blocks ?? [],
            }),
          ),
        ),
      );
      const limited = english(say.glassRateLimited(1, '24h'));
      const said = await Promise.all(
        opened.map(({ view }) => modalStatus(r.h, since, view.id, /ran and is done|that is the limit/)),
      );

      expect(said.filter((s) => s.includes('ran and is done'))).toHaveLength(1);
      expect(said.filter((s) => s.includes(limited))).toHaveLength(3);
      expect(upstream(r.h, 'POST', UNBLOCK_PATH)).toHaveLength(1);
      const states = await Promise.all(opened.map(async ({ id }) => (await r.h.store.getRequest(id))?.state));
      expect(states.sort()).toEqual(['pending', 'pending', 'pending', 'succeeded']);
      const events = await r.h.store.listAudit({ last: 100 });
      expect(events.filter((e) => e.type === 'break-glass')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'executing')).toHaveLength(1);
      const denied = events.filter((e) => e.type === 'denied');
      expect(denied).toHaveLength(3);
      for (const event of denied) expect(event.outcome).toMatchObject({ action: 'break-glass' });
      await notificationsDone(r.h);
    });
  });
});
