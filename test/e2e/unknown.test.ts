import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
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
 * A delete whose answer is lost, end to end: the real app, the fake Slack and the sandbox, which
 * deletes at once and answers after the client has given up. The request must say it may or may
 * not have been applied, send nothing again by itself, and be settled truthfully by a lead.
 * @see docs/architecture.md, "Approvals"
 */

const TIMEOUT_MS = 300;
/** The sandbox acts at once and answers this long after: past the client's timeout. */
const LATE_MS = 1200;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { VIDEO_API_TIMEOUT_MS: String(TIMEOUT_MS) } });
});

afterAll(async () => {
  await h.stop();
});

beforeEach(async () => {
  await notificationsDone(h);
  h.sandbox.reset();
});

const KINDS = {
  folder: {
    command: 'folder delete',
    path: '/v1/storage/bucket',
    id: DEMO.folders.lectures,
    title: 'Delete folder',
  },
  file: {
    command: 'file delete',
    path: '/v1/storage/bucket/file',
    id: DEMO.files.episode2,
    title: 'Delete file',
  },
  playlist: {
    command: 'playlist delete',
    path: '/v1/playlist',
    id: DEMO.playlists.podcastHighlights,
    title: 'Delete playlist',
  },
} as const;
type Kind = keyof typeof KINDS;

/** The agent asks for the delete through its modal; returns the request ID. */
async function requestDelete(kind: Kind): Promise<string> {
  const { command, id } = KINDS[kind];
  const view = await openModal(h, `${command} ${id}`, CALLBACKS.deleteConfirm);
  const since = h.slack.calls.length;
  await submitModal(
    h,
    view,
    valuesOf(view, { [BLOCKS.confirmText]: typed(id), [BLOCKS.reason]: typed('the customer asked') }),
  );
  return requestIdIn(await modalStatus(h, since, view.id, /posted to/));
}

/** The lead approves; the sandbox deletes and answers too late. Returns the approval message then. */
async function approveWithLateAnswer(kind: Kind, requestId: string) {
  const { path, title } = KINDS[kind];
  h.sandbox.setFaults([{ path, method: 'DELETE', latencyAfterMs: LATE_MS, times: 1 }]);
  const message = await approvalMessage(h, requestId);
  const lead = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId, message });
  const reply = String((await lead.reply()).body.text);
  expect(reply).toContain(`You approved *${requestId}* (${title}), but the service gave no clear answer`);
  expect(reply).toContain('it may or may not have been applied');
  await reaches(h, requestId, 'unknown');
  const shown = await approvalMessage(h, requestId, (m) =>
    JSON.stringify(m.blocks ?? []).includes(ACTIONS.resolveCheck),
  );
  expect(shown.text).toContain(`${title}: approved, outcome unknown`);
  expect(JSON.stringify(shown.blocks)).toContain('it may or may not have been applied');
  await until(
    () =>
      directMessages(h, USERS.agent.id).find(
        (m) => m.includes(`Your request ${requestId}`) && m.includes('may or may not have been applied'),
      ),
    'the requester to be told it may or may not have been applied',
  );
  return shown;
}

describe('a lead approves a delete whose answer comes after the timeout', () => {
  it('folder: one DELETE, unknown everywhere; the requester cannot settle it; Check now records already deleted', async () => {
    const requestId = await requestDelete('folder');
    const message = await approveWithLateAnswer('folder', requestId);
    expect(upstream(h, 'DELETE', KINDS.folder.path)).toHaveLength(1);
    expect(h.sandbox.state().folders.map((f) => f._id)).not.toContain(KINDS.folder.id);

    // The requester is no judge of their own request; nothing changes.
    const own = await click(h, {
      userId: USERS.agent.id,
      actionId: ACTIONS.resolveCheck,
      requestId,
      message,
    });
    expect(String((await own.reply()).body.text)).toBe(
      ':no_entry: You asked for this change, so someone else has to settle its outcome. Nothing was changed.',
    );
    expect((await stored(h, requestId)).state).toBe('unknown');

    const check = await click(h, {
      userId: USERS.lead2.id,
      actionId: ACTIONS.resolveCheck,
      requestId,
      message,
    });
    expect(String((await check.reply()).body.text)).toBe(
      `:white_check_mark: You settled *${requestId}* (Delete folder): already deleted. The requester is told.`,
    );
    const settled = await approvalMessage(h, requestId, (m) => !hasButtons(m));
    expect(settled.text).toContain('Delete folder: done (outcome settled by a lead)');
    expect(JSON.stringify(settled.blocks)).toContain('leo checked now at');
    expect(JSON.stringify(settled.blocks)).toContain('*already deleted*');
    expect(upstream(h, 'DELETE', KINDS.folder.path)).toHaveLength(1);

    const events = (await h.store.listAudit()).filter((e) => e.requestId === requestId);
    expect(events.map((e) => [e.type, e.actor.id])).toEqual([
      ['requested', USERS.agent.id],
      ['approved', USERS.lead.id],
      ['executing', USERS.lead.id],
      ['unknown', 'system'],
      ['denied', USERS.agent.id],
      ['resolved', USERS.lead2.id],
    ]);
    expect(events.at(-1)?.outcome).toEqual({
      way: 'check',
      state: 'succeeded',
      outcome: 'already deleted',
      outcomeSaid: { key: 'outcomeDeleted', params: [] },
      note: null,
    });
    await expectAuditWitnessed(h);
  });

  it('file: Send again answers 404, recorded as already deleted, never as failed', async () => {
    const requestId = await requestDelete('file');
    const message = await approveWithLateAnswer('file', requestId);
    expect(upstream(h, 'DELETE', KINDS.file.path)).toHaveLength(1);

    const again = await click(h, {
      userId: USERS.lead2.id,
      actionId: ACTIONS.resolveSendAgain,
      requestId,
      message,
    });
    expect(String((await again.reply()).body.text)).toBe(
      `:white_check_mark: You settled *${requestId}* (Delete file): already deleted. The requester is told.`,
    );
    const deletes = upstream(h, 'DELETE', KINDS.file.path);
    // The first answer may still be on its way (status null until sent); the repeat's is 404.
    expect(deletes).toHaveLength(2);
    expect(deletes[1]?.status).toBe(404);
    const request = await stored(h, requestId);
    expect(request).toMatchObject({
      state: 'succeeded',
      decidedBy: { id: USERS.lead2.id },
      result: { resolved: 'send-again', outcome: 'already deleted' },
    });
    const settled = await approvalMessage(h, requestId, (m) => !hasButtons(m));
    expect(JSON.stringify(settled.blocks)).toContain('leo sent again at');
    await until(
      () =>
        directMessages(h, USERS.agent.id).find(
          (m) => m.includes(`Your request ${requestId}`) && m.includes('already deleted'),
        ),
      'the requester to be told it was already deleted',
    );
  });

  it('playlist: a lead marks it not applied with a note; the note is required', async () => {
    const requestId = await requestDelete('playlist');
    const message = await approveWithLateAnswer('playlist', requestId);
    expect(upstream(h, 'DELETE', KINDS.playlist.path)).toHaveLength(1);

    const since = h.slack.calls.length;
    await click(h, { userId: USERS.lead2.id, actionId: ACTIONS.resolveNotApplied, requestId, message });
    const form = await modalShown(h, since, CALLBACKS.resolveNote);
    expect(await submitModal(h, form, { [BLOCKS.resolveNote]: typed('') }, USERS.lead2.id)).toEqual({
      response_action: 'errors',
      errors: { [BLOCKS.resolveNote]: 'Say what you found: it is kept in the audit log.' },
    });
    const after = h.slack.calls.length;
    await submitModal(
      h,
      form,
      { [BLOCKS.resolveNote]: typed('the panel still lists it (ticket 4411)') },
      USERS.lead2.id,
    );
    expect(await modalStatus(h, after, form.id, /You settled/)).toContain(
      `You settled *${requestId}* (Delete playlist): not applied, as leo found on the service.`,
    );
    const settled = await approvalMessage(h, requestId, (m) => !hasButtons(m));
    expect(settled.text).toContain('Delete playlist: not applied (outcome settled by a lead)');
    expect(JSON.stringify(settled.blocks)).toContain('the panel still lists it (ticket 4411)');
    const resolved = (await h.store.listAudit()).filter((e) => e.requestId === requestId).at(-1);
    expect(resolved).toMatchObject({
      type: 'resolved',
      actor: { id: USERS.lead2.id },
      outcome: { way: 'not-applied', state: 'failed', note: 'the panel still lists it (ticket 4411)' },
    });
  });
});
