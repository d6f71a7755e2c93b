import { tmpdir } from 'node:os';
import { runCli } from '../../src/cli/run.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS } from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import { approvalMessage, click, hasButtons, reaches, requestIdIn, upstream } from './change-helpers.js';

/**
 * Requests whose approval message was never posted — made in the CLI, which does not talk to
 * Slack, or while Slack was down — are announced by the bot's sweep, once.
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
  it('the sweep posts its approval message once, and a lead approves it there: one DELETE', async () => {
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
    expect(h.slack.messages(CHANNELS.approvals).some((m) => JSON.stringify(m).includes(requestId))).toBe(
      false,
    );

    // Right after creation the sweep leaves it alone: the creating handler posts when it can.
    expect(await h.vidops.announceUnposted()).toBe(0);
    h.clock.advance(20_000);
    expect(await h.vidops.announceUnposted()).toBe(1);
    expect(await h.vidops.announceUnposted()).toBe(0);

    const message = await approvalMessage(h, requestId, hasButtons);
    expect(JSON.stringify(message.blocks)).toContain('season over');
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
  });
});
