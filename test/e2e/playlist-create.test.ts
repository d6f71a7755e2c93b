import { ACTIONS, BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  modalStatus,
  openModal,
  reaches,
  readable,
  requestIdIn,
  stored,
  submitModal,
  typed,
  upstream,
  valuesOf,
} from './change-helpers.js';

/**
 * `/vidops playlist create`, end to end: the form, the approval, and exactly what the service
 * receives; against the full sandbox (which offers the documented extra POST /v1/playlist) and
 * against one that serves only the documented endpoints, where the create fails plainly.
 * @see docs/architecture.md, "The operation catalog"
 * @see docs/api-extras.md, "Read-only endpoints" and "How vidops treats the extras"
 */

const PLAYLIST = '/v1/playlist';
const TITLE = 'آموزش کارکنان جدید ۱۴۰۵';

/** An agent opens the form, fills it and submits; the request ID its result shows. */
async function agentAsks(h: Harness, title: string): Promise<string> {
  const view = await openModal(h, 'playlist create', CALLBACKS.playlistCreate);
  expect(JSON.stringify(view.blocks)).toContain('Title');
  const since = h.slack.calls.length;
  const values = valuesOf(view, {
    [BLOCKS.title]: typed(title),
    [BLOCKS.reason]: typed('new hires start Monday'),
  });
  expect(await submitModal(h, view, values)).toMatchObject({ response_action: 'update' });
  return requestIdIn(await modalStatus(h, since, view.id, /posted to/));
}

/** The lead approves from the approval message; what they are told. */
async function leadApproves(h: Harness, id: string): Promise<string> {
  const message = await approvalMessage(h, id);
  expect(JSON.stringify(message.blocks)).toContain('*Creates* a playlist');
  const answer = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
  return readable(await answer.reply());
}

describe('against the full sandbox', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h.stop();
  });

  it('an agent asks for a playlist, a lead approves: the service receives one POST with the exact title', async () => {
    const id = await agentAsks(h, TITLE);
    expect(upstream(h, 'POST', PLAYLIST)).toEqual([]);

    const said = await leadApproves(h, id);
    expect(said).toMatch(/^:white_check_mark: You approved/);
    const request = await reaches(h, id, 'succeeded');
    expect(request).toMatchObject({ operation: 'playlist.create', target: `new playlist "${TITLE}"` });
    expect(upstream(h, 'POST', PLAYLIST).map((r) => r.body)).toEqual([{ title: TITLE }]);
    expect(h.sandbox.state().playlists.filter((p) => p.title === TITLE)).toHaveLength(1);
  });

  it('the form refuses an empty title in place, and nothing is asked', async () => {
    const view = await openModal(h, 'playlist create', CALLBACKS.playlistCreate);
    const answer = await submitModal(
      h,
      view,
      valuesOf(view, { [BLOCKS.title]: typed('   '), [BLOCKS.reason]: typed('new hires') }),
    );
    expect(answer).toEqual({ response_action: 'errors', errors: { [BLOCKS.title]: 'Give a title.' } });
  });
});

describe('against a sandbox with only the documented endpoints', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ sandbox: { extras: false } });
  });

  afterAll(async () => {
    await h.stop();
  });

  it('a lead approves a playlist create the service cannot do: it fails as not supported, recorded as such', async () => {
    const id = await agentAsks(h, 'Onboarding');
    const said = await leadApproves(h, id);
    expect(said).toContain('This service does not support creating playlists; nothing was changed.');

    const request = await reaches(h, id, 'failed');
    expect(request.error).toMatchObject({ name: 'NotSupportedError', status: 404 });
    expect(request.error?.message).toContain('This service does not support creating playlists');
    expect(upstream(h, 'POST', PLAYLIST).map((r) => [r.body, r.status])).toEqual([
      [{ title: 'Onboarding' }, 404],
    ]);
    const failed = (await stored(h, id)).error;
    expect(failed?.name).toBe('NotSupportedError');
    const events = await h.store.listAudit({ last: 5 });
    expect(events.filter((e) => e.requestId === id).map((e) => e.type)).toEqual([
      'requested',
      'approved',
      'executing',
      'failed',
    ]);
    expect(events.find((e) => e.requestId === id && e.type === 'failed')?.error?.message).toContain(
      'does not support creating playlists',
    );
  });
});
