import type { StoredView } from '../../src/emulator/index.js';
import {
  appHomeOpened,
  blockAction,
  FORM,
  JSON_TYPE,
  type SlackRequest,
  slashCommand,
  viewSubmission,
} from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  modalShown,
  modalStatus,
  notificationsDone,
  openModal,
  readable,
  requestIdIn,
  stored,
  submitModal,
  typed,
  valuesOf,
} from './change-helpers.js';

/**
 * Nothing from the client is trusted: what a change modal was opened for stays on the server,
 * an ID made only of dots never reaches the service, and every request is checked where it
 * comes from before anything runs. Each scenario sends real-shaped, signed Slack requests.
 * @see docs/slack.md, "Request signing" and "Payload shapes"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(() => h.stop());

beforeEach(async () => {
  await notificationsDone(h);
  // A fresh hour for every test: rate limits and drafts of earlier tests do not interfere.
  h.clock.advance(2 * 3_600_000);
  h.sandbox.reset();
});

/**
 * The requests once the notifications of earlier changes are done: the notification worker notes
 * where each approval message lives a moment after the change, and that is no change made here.
 */
async function settledRequests() {
  await notificationsDone(h);
  return h.store.listRequests({ limit: 500 });
}

/**
 * What the sandbox received, less the protection read of Home tabs refreshed in the background
 * after an earlier test's request changed (it names no resource).
 */
function upstreamCalls() {
  return h.sandbox.requests().filter((r) => !(r.method === 'GET' && r.path === '/v1/storage/protect/config'));
}

const FOLDER_A = DEMO.folders.lectures;
const FOLDER_B = DEMO.folders.podcasts;

/** A submission of `view` with other metadata than the view carries, as a forger would send it. */
async function forge(view: StoredView, privateMetadata: string, userId: string = USERS.agent.id) {
  const answer = await h.submit({
    userId,
    callbackId: String(view.callback_id),
    privateMetadata,
    values: valuesOf(view, { [BLOCKS.confirmText]: typed(FOLDER_B), [BLOCKS.reason]: typed('forged') }),
    viewId: view.id,
    blocks: view.blocks ?? [],
  });
  expect(answer.status).toBe(200);
  return answer.json;
}

/** The old shape of a delete modal's metadata, carrying a prepared request of the forger's choosing. */
function preparedMetadata(overrides: { operation?: string; params?: object; confirm?: string | null } = {}) {
  return JSON.stringify({
    prepared: {
      operation: overrides.operation ?? 'folder.delete',
      params: overrides.params ?? { bucketId: FOLDER_B },
      target: `folder ${FOLDER_A}`,
      preview: { kind: 'delete', resource: 'folder', id: FOLDER_A, title: 'Course lectures' },
    },
    confirm: overrides.confirm === undefined ? FOLDER_B : overrides.confirm,
    title: null,
  });
}

function refusedInPlace(answer: unknown): string {
  expect(answer).toMatchObject({ response_action: 'update' });
  return JSON.stringify(answer);
}

describe('a delete modal’s target, confirmation and operation come from the server', () => {
  it.each([
    ['swaps the target to folder B', preparedMetadata()],
    ['drops the typed confirmation', preparedMetadata({ confirm: null })],
    [
      'changes the operation',
      preparedMetadata({
        operation: 'whitelist.set',
        params: { allowedDNS: ['1.2.3.4'], expectBefore: [] },
      }),
    ],
    ['names a draft that was never opened', JSON.stringify({ draft: 'A'.repeat(43) })],
  ])('a forged submission that %s is refused in the form and asks for nothing', async (_what, metadata) => {
    const view = await openModal(h, `folder delete ${FOLDER_A}`, CALLBACKS.deleteConfirm);
    const before = await settledRequests();

    const answer = refusedInPlace(await forge(view, metadata));
    expect(answer).toContain('This form is no longer valid');
    expect(answer).toContain('Nothing was changed');
    expect(await settledRequests()).toEqual(before);
    expect(upstreamCalls().filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('the typed confirmation is checked against the server’s copy: folder B typed for folder A is refused', async () => {
    const view = await openModal(h, `folder delete ${FOLDER_A}`, CALLBACKS.deleteConfirm);
    // The form's own metadata, with B typed: the draft says A must be typed.
    const answer = await submitModal(
      h,
      view,
      valuesOf(view, { [BLOCKS.confirmText]: typed(FOLDER_B), [BLOCKS.reason]: typed('forged') }),
    );
    expect(answer).toMatchObject({
      response_action: 'errors',
      errors: { [BLOCKS.confirmText]: expect.stringContaining(`Type ${FOLDER_A}`) },
    });

    // The draft was given back with the form still open: the right confirmation posts folder A.
    const since = h.slack.calls.length;
    const right = await submitModal(
      h,
      view,
      valuesOf(view, { [BLOCKS.confirmText]: typed(FOLDER_A), [BLOCKS.reason]: typed('course ended') }),
    );
    expect(right).toMatchObject({ response_action: 'update' });
    const id = requestIdIn(await modalStatus(h, since, view.id, /posted to/));
    const request = await stored(h, id);
    expect(request).toMatchObject({ operation: 'folder.delete', params: { bucketId: FOLDER_A } });
    expect(JSON.stringify((await approvalMessage(h, id)).blocks)).toContain(FOLDER_A);
  });

  it('a draft is used once: the same submission sent again changes nothing more', async () => {
    const view = await openModal(h, `folder delete ${FOLDER_A}`, CALLBACKS.deleteConfirm);
    const values = valuesOf(view, {
      [BLOCKS.confirmText]: typed(FOLDER_A),
      [BLOCKS.reason]: typed('course ended'),
    });
    const since = h.slack.calls.length;
    expect(await submitModal(h, view, values)).toMatchObject({ response_action: 'update' });
    await modalStatus(h, since, view.id, /posted to/);
    const after = await settledRequests();

    const again = refusedInPlace(await submitModal(h, view, values));
    expect(again).toContain('This form is no longer valid');
    expect(await settledRequests()).toEqual(after);
  });

  it('someone else submitting the opener’s form is refused, and the opener can still send it', async () => {
    const view = await openModal(h, `folder delete ${FOLDER_A}`, CALLBACKS.deleteConfirm);
    const values = valuesOf(view, {
      [BLOCKS.confirmText]: typed(FOLDER_A),
      [BLOCKS.reason]: typed('course ended'),
    });
    const before = await settledRequests();
    const other = refusedInPlace(await submitModal(h, view, values, USERS.agent2.id));
    expect(other).toContain('This form was opened by someone else');
    expect(await settledRequests()).toEqual(before);

    const since = h.slack.calls.length;
    expect(await submitModal(h, view, values)).toMatchObject({ response_action: 'update' });
    const id = requestIdIn(await modalStatus(h, since, view.id, /posted to/));
    expect((await stored(h, id)).requester.id).toBe(USERS.agent.id);
  });

  it('a form left open for more than an hour is refused and must be opened again', async () => {
    const view = await openModal(h, `folder delete ${FOLDER_A}`, CALLBACKS.deleteConfirm);
    h.clock.advance(61 * 60_000);
    const before = await settledRequests();
    const late = refusedInPlace(
      await submitModal(
        h,
        view,
        valuesOf(view, { [BLOCKS.confirmText]: typed(FOLDER_A), [BLOCKS.reason]: typed('late') }),
      ),
    );
    expect(late).toContain('open for more than an hour');
    expect(await settledRequests()).toEqual(before);
  });
});

describe('the other change modals read what they edit from the server', () => {
  it('a folder edit forged to name folder B edits nothing', async () => {
    const view = await openModal(h, `folder edit ${FOLDER_A}`, CALLBACKS.folderEdit);
    const answer = await h.submit({
      userId: USERS.agent.id,
      callbackId: CALLBACKS.folderEdit,
      privateMetadata: JSON.stringify({ mode: 'edit', bucketId: FOLDER_B }),
      values: valuesOf(view, { [BLOCKS.title]: typed('Hijacked'), [BLOCKS.reason]: typed('forged') }),
      viewId: view.id,
    });
    expect(refusedInPlace(answer.json)).toContain('This form is no longer valid');
    expect(upstreamCalls().filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a whitelist form’s draft cannot be replayed as another form', async () => {
    const since = h.slack.calls.length;
    const view = await openModal(h, `folder edit ${FOLDER_A}`, CALLBACKS.folderEdit);
    // The folder-edit draft sent under the whitelist form's callback: not that form's draft.
    const answer = await h.submit({
      userId: USERS.agent.id,
      callbackId: CALLBACKS.whitelistChange,
      privateMetadata: String(view.private_metadata),
      values: { [BLOCKS.ips]: typed('1.2.3.4'), [BLOCKS.reason]: typed('forged') },
      viewId: view.id,
    });
    expect(refusedInPlace(answer.json)).toContain('This form is no longer valid');
    // …and it was put back, so the folder edit itself still goes through.
    const done = await submitModal(
      h,
      await modalShown(h, since, CALLBACKS.folderEdit),
      valuesOf(view, { [BLOCKS.title]: typed('Course lectures 2026'), [BLOCKS.reason]: typed('rename') }),
    );
    expect(done).toMatchObject({ response_action: 'update' });
  });
});

describe('an ID made only of dots never reaches the service', () => {
  it.each([
    ['file delete .', '"." is not a file ID'],
    ['file edit ..', '".." is not a file ID'],
    ['folder delete ...', '"..." is not a folder ID'],
  ])('/vidops %s is refused and sends nothing', async (text, message) => {
    const reply = readable(await (await h.slash(text)).reply());
    expect(reply).toContain(message);
    expect(upstreamCalls()).toEqual([]);
  });

  it('a forged file-edit modal naming file .. sends nothing', async () => {
    const view = await openModal(h, `file edit ${DEMO.files.lecture1}`, CALLBACKS.fileEdit);
    h.sandbox.reset();
    const answer = await h.submit({
      userId: USERS.agent.id,
      callbackId: CALLBACKS.fileEdit,
      privateMetadata: JSON.stringify({ fileId: '..', coverAllowed: true }),
      values: valuesOf(view, { [BLOCKS.title]: typed('x'), [BLOCKS.reason]: typed('forged') }),
      viewId: view.id,
    });
    expect(refusedInPlace(answer.json)).toContain('This form is no longer valid');
    expect(upstreamCalls()).toEqual([]);
  });

  it('a playlist form listing file .. is refused on the field and sends nothing', async () => {
    const view = await openModal(h, `playlist edit ${DEMO.playlists.gettingStarted}`, CALLBACKS.playlistEdit);
    h.sandbox.reset();
    const answer = await submitModal(
      h,
      view,
      valuesOf(view, {
        [BLOCKS.playlistFiles]: typed(`${DEMO.files.lecture1}\n..`),
        [BLOCKS.reason]: typed('x'),
      }),
    );
    expect(answer).toEqual({
      response_action: 'errors',
      errors: { [BLOCKS.playlistFiles]: 'line 2: ".." is not a file ID: an ID is never made only of dots' },
    });
    expect(upstreamCalls()).toEqual([]);
  });
});

describe('who may act is checked first, on every interaction', () => {
  /** The outsider's `denied` event about `target` since `since`, once it is recorded. */
  const denial = (target: string, since: string) =>
    h.waitForAudit(
      (e) => e.type === 'denied' && e.actor.id === USERS.outsider.id && e.target === target && e.at >= since,
    );

  it('an outsider’s click on Approve is refused politely, audited, and the request stays as it was', async () => {
    const asked = await h.slash('whitelist add 5.160.12.201');
    const id = requestIdIn(readable(await asked.reply()));
    const message = await approvalMessage(h, id);
    h.sandbox.reset();
    const since = h.clock.now().toISOString();

    const clicked = await click(h, {
      userId: USERS.outsider.id,
      actionId: ACTIONS.approve,
      requestId: id,
      message,
    });
    expect(clicked.status).toBe(200);
    expect((await clicked.reply()).body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('only for the support team. Nothing was done.'),
    });
    expect(upstreamCalls()).toEqual([]);
    expect((await stored(h, id)).state).toBe('pending');
    expect(await denial(`button ${ACTIONS.approve}`, since)).toMatchObject({
      operation: 'button',
      params: { actionId: ACTIONS.approve, value: id },
      requestId: null,
      outcome: { reason: 'not one of the agents allowed to use vidops (AGENTS)' },
    });
  });

  it('an outsider’s click on the whitelist’s Add reads nothing upstream and opens no form', async () => {
    const since = h.slack.calls.length;
    const answer = await h.action({
      userId: USERS.outsider.id,
      actionId: ACTIONS.whitelistAdd,
      value: 'add',
      responseUrl: h.slack.responseUrl('outsider-add'),
    });
    expect(answer.status).toBe(200);
    const reply = await h.slack.waitForResponse((p) => p.tag === 'outsider-add', 8000);
    expect(readable(reply)).toContain('only for the support team');
    expect(upstreamCalls()).toEqual([]);
    // No form, and no Home tab of theirs (others' Home tabs may still be refreshed for earlier requests).
    const shown = h.slack.calls
      .slice(since)
      .filter(
        (c) =>
          c.method.startsWith('views.') &&
          (c.method !== 'views.publish' || c.args.user_id === USERS.outsider.id),
      );
    expect(shown).toEqual([]);
  });

  it.each([
    [
      'a whitelist change',
      CALLBACKS.whitelistChange,
      { [BLOCKS.ips]: typed('1.2.3.4'), [BLOCKS.reason]: typed('mine now') },
    ],
    [
      'a folder delete',
      CALLBACKS.deleteConfirm,
      { [BLOCKS.confirmText]: typed(FOLDER_A), [BLOCKS.reason]: typed('gone') },
    ],
    [
      'an unblock from explain 9910',
      CALLBACKS.unblock,
      { [BLOCKS.mobile]: typed(DEMO.blockedMobiles[0] ?? '') },
    ],
    ['a retry from explain 9101', CALLBACKS.retry, { [BLOCKS.fileId]: typed(DEMO.failedFileIds[0] ?? '') }],
  ])('an outsider’s forged submission of %s never reaches the service', async (_what, callbackId, values) => {
    const since = h.clock.now().toISOString();
    const answer = await h.submit({
      userId: USERS.outsider.id,
      callbackId,
      privateMetadata: JSON.stringify({ draft: 'B'.repeat(43) }),
      values,
    });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.json)).toContain('only for the support team');
    expect(answer.json).toMatchObject({ response_action: 'update' });
    expect(upstreamCalls()).toEqual([]);
    expect(await denial(`form ${callbackId}`, since)).toMatchObject({ operation: 'form' });
    expect(upstreamCalls()).toEqual([]);
  });

  it('an agent in the AGENTS user group still gets through', async () => {
    const asked = await h.slash('whitelist', { userId: USERS.agent2.id });
    expect(readable(await asked.reply())).not.toContain('only for the support team');
  });
});

describe('a signed request counts once, and only from this workspace', () => {
  const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
  const OTHER_TEAM = 'T0ELSEWHERE';
  /** Now, in seconds, on the harness clock: a replay is sent with the very same signature. */
  const nowSeconds = () => Math.floor(h.clock.now().getTime() / 1000);

  /** An interactive request re-encoded after `change` edited its payload. */
  function edited(
    request: SlackRequest<unknown>,
    change: (payload: Record<string, unknown>) => void,
  ): SlackRequest<unknown> {
    const payload = JSON.parse(JSON.stringify(request.payload)) as Record<string, unknown>;
    change(payload);
    return {
      body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      contentType: FORM,
      payload,
    };
  }

  it('a slash command replayed within five minutes runs once; the replay is answered 200 and does nothing', async () => {
    const mobile = DEMO.blockedMobiles[1] ?? '';
    const request = slashCommand({
      text: `unblock ${mobile}`,
      userId: USERS.agent.id,
      responseUrl: h.slack.responseUrl('replayed-slash'),
    });
    const timestamp = nowSeconds();
    const first = await h.send(request, { timestamp });
    await h.slack.waitForResponse((p) => p.tag === 'replayed-slash', 8000);
    const replay = await h.send(request, { timestamp });
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.text).toBe('');

    // A command sent after the replay is answered; the replay never was.
    await (await h.slash('explain 9910')).reply();
    expect(h.slack.responsePosts.filter((p) => p.tag === 'replayed-slash')).toHaveLength(1);
    expect(upstreamCalls().filter((r) => r.method === 'POST' && r.path === UNBLOCK_PATH)).toHaveLength(1);
    const requested = (await h.store.listAudit({ last: 100 })).filter(
      (e) => e.type === 'requested' && e.target === `viewer ${mobile}`,
    );
    expect(requested).toHaveLength(1);
    expect(h.logs.some((line) => line.includes('replayed Slack request ignored'))).toBe(true);
  });

  it('a replayed Approve click and a replayed modal submission are dropped the same way', async () => {
    const asked = await h.slash('whitelist add 5.160.12.202');
    const id = requestIdIn(readable(await asked.reply()));
    const message = await approvalMessage(h, id);
    const approve = blockAction({
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      value: id,
      message,
      responseUrl: h.slack.responseUrl('replayed-click'),
    });
    const timestamp = nowSeconds();
    expect((await h.send(approve, { timestamp })).status).toBe(200);
    await h.slack.waitForResponse((p) => p.tag === 'replayed-click', 8000);
    const again = await h.send(approve, { timestamp });
    expect(again).toMatchObject({ status: 200, text: '' });

    const view = await openModal(h, `folder delete ${FOLDER_B}`, CALLBACKS.deleteConfirm);
    const submit = viewSubmission({
      userId: USERS.agent.id,
      callbackId: CALLBACKS.deleteConfirm,
      privateMetadata: String(view.private_metadata),
      values: valuesOf(view, { [BLOCKS.confirmText]: typed(FOLDER_B), [BLOCKS.reason]: typed('replayed') }),
      viewId: view.id,
    });
    const shownSince = h.slack.calls.length;
    const first = await h.send(submit, { timestamp });
    expect(first.json).toMatchObject({ response_action: 'update' });
    await modalStatus(h, shownSince, view.id, /posted to/);
    const replayed = await h.send(submit, { timestamp });
    expect(replayed).toMatchObject({ status: 200, text: '' });

    await (await h.slash('explain 9910')).reply();
    expect(h.slack.responsePosts.filter((p) => p.tag === 'replayed-click')).toHaveLength(1);
    expect(
      upstreamCalls().filter((r) => r.method === 'POST' && r.path === '/v1/storage/dns/whitelist'),
    ).toHaveLength(1);
    const deletes = (await h.store.listRequests({ limit: 500 })).filter(
      (r) => r.operation === 'folder.delete' && r.params.bucketId === FOLDER_B,
    );
    expect(deletes).toHaveLength(1);
  });

  it('Slack’s own retry of an event (re-signed, X-Slack-Retry-Num) is still recognised by its event ID', async () => {
    const event = appHomeOpened({ userId: USERS.agent.id, eventId: 'Ev0TRUSTRETRY' });
    expect((await h.send(event)).status).toBe(200);
    h.clock.advance(1000);
    const retry = await h.send(event, {
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(retry).toMatchObject({ status: 200, text: '' });
    // Said before the retry was answered: no handler was given it.
    expect(
      h.logs.some((l) => l.includes('duplicate event delivery ignored') && l.includes('Ev0TRUSTRETRY')),
    ).toBe(true);
    expect(h.logs.some((l) => l.includes('replayed Slack request ignored') && l.includes('event'))).toBe(
      false,
    );
  });

  it.each([
    [
      'a slash command',
      () =>
        slashCommand({
          text: `unblock ${DEMO.blockedMobiles[2] ?? ''}`,
          userId: USERS.agent.id,
          responseUrl: h.slack.responseUrl('other-team'),
          teamId: OTHER_TEAM,
        }),
    ],
    [
      'a button click',
      () =>
        edited(
          blockAction({
            userId: USERS.agent.id,
            actionId: ACTIONS.whitelistAdd,
            value: 'add',
            responseUrl: h.slack.responseUrl('other-team'),
          }),
          (p) => {
            p.team = { id: OTHER_TEAM, domain: 'elsewhere' };
            p.user = { ...(p.user as object), team_id: OTHER_TEAM };
          },
        ),
    ],
    [
      'a modal submission',
      () =>
        edited(
          viewSubmission({
            userId: USERS.agent.id,
            callbackId: CALLBACKS.unblock,
            privateMetadata: '{}',
            values: { [BLOCKS.mobile]: typed(DEMO.blockedMobiles[2] ?? '') },
          }),
          (p) => {
            p.team = { id: OTHER_TEAM, domain: 'elsewhere' };
            p.view = { ...(p.view as object), app_installed_team_id: OTHER_TEAM, team_id: OTHER_TEAM };
          },
        ),
    ],
    [
      'an event',
      () => {
        const event = appHomeOpened({ userId: USERS.agent.id });
        const payload = JSON.parse(event.body) as Record<string, unknown>;
        payload.team_id = OTHER_TEAM;
        payload.authorizations = [
          { enterprise_id: null, team_id: OTHER_TEAM, user_id: 'U0BOT', is_bot: true },
        ];
        const request: SlackRequest<unknown> = {
          body: JSON.stringify(payload),
          contentType: JSON_TYPE,
          payload,
        };
        return request;
      },
    ],
  ])('%s from another workspace is refused, logged, and runs no handler', async (_what, build) => {
    const since = h.slack.calls.length;
    const events = (await h.store.auditHead())?.seq ?? 0;
    const answer = await h.send(build());
    expect(answer.status).toBe(200);
    if (answer.json !== undefined) {
      expect(answer.json).toEqual({
        response_type: 'ephemeral',
        text: 'vidops does not serve this workspace. Nothing was done.',
      });
    } else expect(answer.text).toBe('');

    await (await h.slash('explain 9910')).reply();
    expect(h.slack.responsePosts.filter((p) => p.tag === 'other-team')).toEqual([]);
    // What the handlers of these requests would have called: a form, a word to the person.
    const answered = h.slack.calls
      .slice(since)
      .filter((c) => ['views.open', 'views.update', 'chat.postEphemeral'].includes(c.method));
    expect(answered).toEqual([]);
    expect(upstreamCalls()).toEqual([]);
    expect((await h.store.auditHead())?.seq ?? 0).toBe(events);
    expect(
      h.logs.some(
        (l) => l.includes('refused a Slack request from another workspace') && l.includes(OTHER_TEAM),
      ),
    ).toBe(true);
  });
});
