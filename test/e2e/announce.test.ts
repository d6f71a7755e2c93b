import { tmpdir } from 'node:os';
import { runCli } from '../../src/cli/run.js';
import { newRequest } from '../../src/core/approvals.js';
import { newEventId, newRequestId } from '../../src/core/ids.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS } from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  hasButtons,
  notificationsDone,
  reaches,
  requestIdIn,
  stored,
  until,
  upstream,
} from './change-helpers.js';

/**
 * Requests made in the CLI, which does not talk to Slack, reach the leads through the
 * notification job the CLI records with them; one that has no job (made by an older vidops) is
 * announced by the bot's sweep, once.
 * @see docs/architecture.md, "Approvals"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

/** `vidops …` run by an agent at a terminal, against the bot's database and the same service. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: (chunk: string) => (err += chunk) },
    env: {
      DATABASE_URL: h.config.databaseUrl,
      VIDEO_API_URL: h.config.video.url,
      VIDEO_API_KEY: h.config.video.apiKey,
      VIDEO_SECRET_KEY: h.config.video.secretKey,
      LEADS: h.config.leads.join(','),
      AGENTS: (h.config.agents ?? []).join(','),
    },
    cwd: tmpdir(),
    clock: () => h.clock.now(),
  });
  return { code, out, err };
}

describe('a request made at the command line reaches the leads in Slack', () => {
  it('its notification, recorded by the CLI, has the bot post its approval message once; a lead approves it there: one DELETE', async () => {
    const playlist = DEMO.playlists.podcastHighlights;
    const made = await cli([
      'playlist',
      'delete',
      playlist,
      '--confirm',
      playlist,
      '--as',
      USERS.agent.id,
      '--reason',
      'season over',
    ]);
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    const requestId = requestIdIn(made.out);

    // No sweep needed: the job the CLI recorded with the request is the bot's to do.
    const message = await approvalMessage(h, requestId, hasButtons);
    expect(JSON.stringify(message.blocks)).toContain('season over');
    await until(
      async () => ((await stored(h, requestId)).slack === null ? undefined : true),
      'the post recorded',
    );
    h.clock.advance(20_000);
    expect(await h.vidops.announceUnposted()).toBe(0);
    expect(messagesAbout(requestId)).toHaveLength(1);

    const approved = await click(h, {
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      requestId,
      message,
    });
    expect(approved.status).toBe(200);
    await reaches(h, requestId, 'succeeded');
    expect(upstream(h, 'DELETE', '/v1/playlist').map((r) => r.body)).toEqual([{ playlistId: playlist }]);
    await approvalMessage(h, requestId, (m) => !hasButtons(m));
    expect(messagesAbout(requestId)).toHaveLength(1);
  });
});

describe('a request that never had its notification', () => {
  it('one left from before notifications were kept is announced by the sweep, once', async () => {
    const prepared = await h.vidops.ops.prepare(USERS.agent, {
      kind: 'playlist.delete',
      playlistId: DEMO.playlists.gettingStarted,
    });
    const now = h.clock.now();
    const { request } = newRequest(
      {
        id: newRequestId(),
        operation: prepared.operation,
        params: prepared.params,
        target: prepared.target,
        preview: prepared.preview,
        reason: 'left over',
        requester: USERS.agent,
        mode: {
          kind: 'approval',
          quorum: 1,
          expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
          why: 'policy',
        },
      },
      { now, eventId: newEventId },
    );
    // Written as an older vidops did: no audit event, so no notification job either.
    await notificationsDone(h);
    await h.store.createRequest(request, []);
    expect(await h.store.notificationDepth()).toBe(0);

    // Right after creation the sweep leaves it alone; once it is old enough, one sweep queues it.
    expect(await h.vidops.announceUnposted()).toBe(0);
    h.clock.advance(20_000);
    expect(await h.vidops.announceUnposted()).toBe(1);
    expect(await h.vidops.announceUnposted()).toBe(0);

    const message = await approvalMessage(h, request.id, hasButtons);
    expect(JSON.stringify(message.blocks)).toContain('left over');
    await notificationsDone(h);
    expect(messagesAbout(request.id)).toHaveLength(1);
  });
});

/** Messages in the approval channel about a request. */
function messagesAbout(requestId: string) {
  return h.slack
    .messages(CHANNELS.approvals)
    .filter((m) => JSON.stringify(m.blocks ?? []).includes(requestId));
}
