import type { OperationRequest } from '../../src/core/model.js';
import {
  messageAction,
  type StoredView,
  slackEscapeText,
  type ViewValues,
  viewSubmission,
} from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS, SHORTCUTS, shortcutPickBlock } from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import {
  modalShown,
  notificationsDone,
  openModal,
  typed,
  until,
  upstream,
  valuesOf,
} from './change-helpers.js';

/**
 * Attacks on the change modals' drafts and on the typed confirmation of deletes, and on what the
 * "Unblock viewer" shortcut shows a Persian reader: forged and replayed view_submissions (another
 * user, another form, twice, too late), hostile field values, confirmations typed loosely. Every
 * request is signed with the harness clock and posted to the real app over HTTP.
 * @see docs/architecture.md, "Approvals" (typed confirmation)
 * @see docs/commands.md, "Shortcuts: acting from the customer's message"
 */

const MINUTE = 60_000;
const FORM_GONE = 'This form is no longer valid';
const FORM_OF_OTHER = 'This form was opened by someone else';
const CUSTOMER = 'U0CUSTOMER';
const LECTURES = DEMO.folders.lectures;
const LECTURES_TITLE = 'Course lectures';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(() => h.stop());

beforeEach(async () => {
  await notificationsDone(h);
  h.clock.advance(2 * 60 * MINUTE);
  h.sandbox.reset();
});

/** Requests of `operation` stored since `since`. */
async function requestsOf(operation: string, since: string): Promise<OperationRequest[]> {
  return (await h.store.listRequests({ limit: 500 })).filter(
    (r) => r.operation === operation && r.createdAt >= since,
  );
}

/** Submit on `view` as `userId` (its own private_metadata and callback_id unless forged). */
async function send(
  view: StoredView,
  values: ViewValues,
  options: { userId?: string; callbackId?: string; privateMetadata?: string } = {},
): Promise<Record<string, unknown> | undefined> {
  const answer = await h.send(
    viewSubmission({
      userId: options.userId ?? USERS.agent.id,
      callbackId: options.callbackId ?? String(view.callback_id),
      privateMetadata: options.privateMetadata ?? String(view.private_metadata ?? ''),
      values,
      viewId: view.id,
      blocks: view.blocks ?? [],
    }),
  );
  expect(answer.status).toBe(200);
  return answer.json as Record<string, unknown> | undefined;
}

/** What a submission's answer says, as one string. */
const answered = (answer: Record<string, unknown> | undefined) => JSON.stringify(answer ?? {});

/** The folder delete modal of the lectures folder, opened by `userId`. */
const deleteLectures = (userId: string = USERS.agent.id) =>
  openModal(h, `folder delete ${LECTURES}`, CALLBACKS.deleteConfirm, userId);

/** The delete form filled with `confirm` typed and a reason. */
const confirmWith = (form: StoredView, confirm: string) =>
  valuesOf(form, { [BLOCKS.confirmText]: typed(confirm), [BLOCKS.reason]: typed('folder retired') });

/** Waits until `n` requests of `operation` exist since `since`. */
async function requestsReach(operation: string, since: string, n: number): Promise<OperationRequest[]> {
  return until(async () => {
    const found = await requestsOf(operation, since);
    return found.length >= n ? found : undefined;
  }, `${n} ${operation} request(s)`);
}

describe('the typed confirmation of a folder delete', () => {
  const loose: readonly [string, string][] = [
    ['a prefix of the ID', LECTURES.slice(0, 12)],
    ['the ID with one more character', `${LECTURES}1`],
    ['the ID of another folder', DEMO.folders.podcasts],
    ['the ID and more words', `${LECTURES} yes`],
    ['the title in lower case', LECTURES_TITLE.toLowerCase()],
    ['the title with a Cyrillic "о" for the Latin "o"', LECTURES_TITLE.replace('o', '\u043e')],
    ['the title with its words run together', LECTURES_TITLE.replace(' ', '')],
    ['a mention', '<!channel>'],
  ];
  it.each(loose)('an agent types %s: refused on the field, nothing asked', async (_what, confirm) => {
    const since = h.clock.now().toISOString();
    const form = await deleteLectures();
    const answer = await send(form, confirmWith(form, confirm));
    expect(answer).toMatchObject({ response_action: 'errors' });
    expect(Object.keys((answer?.errors as Record<string, string>) ?? {})).toEqual([BLOCKS.confirmText]);
    expect(await requestsOf('folder.delete', since)).toEqual([]);
  });

  it('an agent types the ID in Persian digits with zero-width marks around it: accepted as the ID, asked once', async () => {
    const since = h.clock.now().toISOString();
    const form = await deleteLectures();
    const persian = LECTURES.replace(/\d/g, (d) => String.fromCharCode(0x06f0 + Number(d)));
    const answer = await send(form, confirmWith(form, `\u200f${persian}\u200e`));
    expect(answer).toMatchObject({ response_action: 'update' });
    const [request] = await requestsReach('folder.delete', since, 1);
    expect(request?.params).toEqual({ bucketId: LECTURES });
  });

  it('an agent types a wrong ID, then the right one: one request, for the folder shown', async () => {
    const since = h.clock.now().toISOString();
    const form = await deleteLectures();
    expect(await send(form, confirmWith(form, DEMO.folders.podcasts))).toMatchObject({
      response_action: 'errors',
    });
    expect(await send(form, confirmWith(form, LECTURES))).toMatchObject({ response_action: 'update' });
    const requests = await requestsReach('folder.delete', since, 1);
    expect(requests.map((r) => r.params)).toEqual([{ bucketId: LECTURES }]);
  });

  it('an agent double-clicks Delete (two submissions at once): one request', async () => {
    const since = h.clock.now().toISOString();
    const form = await deleteLectures();
    const values = confirmWith(form, LECTURES);
    const answers = await Promise.all([send(form, values), send(form, values)]);
    expect(answers.map(answered).filter((a) => a.includes(FORM_GONE))).toHaveLength(1);
    await requestsReach('folder.delete', since, 1);
    await notificationsDone(h);
    expect(await requestsOf('folder.delete', since)).toHaveLength(1);
  });

  it('another agent sends the delete form the first one opened, with the right ID: refused, nothing asked; the opener still can', async () => {
    const since = h.clock.now().toISOString();
    const form = await deleteLectures();
    const values = confirmWith(form, LECTURES);
    expect(answered(await send(form, values, { userId: USERS.agent2.id }))).toContain(FORM_OF_OTHER);
    expect(await requestsOf('folder.delete', since)).toEqual([]);
    expect(await send(form, values)).toMatchObject({ response_action: 'update' });
    const [request] = await requestsReach('folder.delete', since, 1);
    expect(request?.requester.id).toBe(USERS.agent.id);
  });

  it('an agent sends the delete form more than an hour after it opened: refused, nothing asked', async () => {
    const since = h.clock.now().toISOString();
    const form = await deleteLectures();
    h.clock.advance(61 * MINUTE);
    expect(answered(await send(form, confirmWith(form, LECTURES)))).toContain(FORM_GONE);
    expect(await requestsOf('folder.delete', since)).toEqual([]);
  });

  it('the delete form’s draft sent as the Revert… form is refused, and the delete form still goes through', async () => {
    const since = h.clock.now().toISOString();
    const form = await deleteLectures();
    const values = confirmWith(form, LECTURES);
    expect(answered(await send(form, values, { callbackId: CALLBACKS.revertConfirm }))).toContain(FORM_GONE);
    expect(await requestsOf('folder.delete', since)).toEqual([]);
    expect(await send(form, values)).toMatchObject({ response_action: 'update' });
    await requestsReach('folder.delete', since, 1);
  });
});

describe('a delete form left open while the folder changes', () => {
  it('an agent types the folder’s old title after a colleague renamed it: refused, nothing asked under the old title', async () => {
    const since = h.clock.now().toISOString();
    const form = await deleteLectures();
    const renamed = await fetch(`${h.sandbox.url}/v1/storage/bucket`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', api_key: DEMO.apiKey, secret_key: DEMO.secretKey },
      body: JSON.stringify({ bucketId: LECTURES, title: 'Archive 2025' }),
    });
    expect(renamed.status).toBe(200);
    const answer = await send(form, confirmWith(form, LECTURES_TITLE));
    await notificationsDone(h);
    const asked = await requestsOf('folder.delete', since);
    expect(answer).toMatchObject({ response_action: 'errors' });
    expect(asked).toEqual([]);
  });
});

describe('hostile field values', () => {
  it('an agent forges the folder form with a 100,000-character description: told on the field, nothing asked', async () => {
    const since = h.clock.now().toISOString();
    const form = await openModal(h, 'folder create', CALLBACKS.folderCreate);
    const answer = await send(
      form,
      valuesOf(form, {
        [BLOCKS.title]: typed('Spring course'),
        [BLOCKS.description]: typed('x'.repeat(100_000)),
        [BLOCKS.reason]: typed('new course'),
      }),
    );
    expect(answer).toMatchObject({ response_action: 'errors' });
    expect(Object.keys((answer?.errors as Record<string, string>) ?? {})).toContain(BLOCKS.description);
    await notificationsDone(h);
    expect(await requestsOf('folder.create', since)).toEqual([]);
  });

  it('an agent forges the delete form with a 100,000-character reason: told on the field, nothing asked', async () => {
    const since = h.clock.now().toISOString();
    const form = await deleteLectures();
    const answer = await send(
      form,
      valuesOf(form, {
        [BLOCKS.confirmText]: typed(LECTURES),
        [BLOCKS.reason]: typed('<!here>'.repeat(15_000)),
      }),
    );
    expect(answer).toMatchObject({ response_action: 'errors' });
    expect(Object.keys((answer?.errors as Record<string, string>) ?? {})).toEqual([BLOCKS.reason]);
    expect(await requestsOf('folder.delete', since)).toEqual([]);
  });
});

describe('"Unblock viewer" read by a Persian-speaking agent', () => {
  let fa: Harness;

  beforeAll(async () => {
    fa = await startHarness({ env: { DEFAULT_LOCALE: 'fa' } });
    fa.slack.setUsers([{ ...USERS.agent, locale: 'fa-IR' }, USERS.lead, USERS.agent2, USERS.lead2]);
  });

  afterAll(() => fa.stop());

  it('runs it on a message with an Iranian and a British number and reads why the British one is refused in Persian', async () => {
    const text = 'شماره من 09123456789 و شماره دیگر +44 7700 900123';
    const message = fa.slack.postAsUser(CHANNELS.support, CUSTOMER, text);
    const since = fa.slack.calls.length;
    const run = await fa.send(
      messageAction({
        userId: USERS.agent.id,
        callbackId: SHORTCUTS.unblockFromMessage,
        message: { ts: message.ts, text: slackEscapeText(text), user: CUSTOMER },
        channelId: CHANNELS.support,
        responseUrl: fa.slack.responseUrl('fa-refused', { channel: CHANNELS.support, user: USERS.agent.id }),
        triggerId: fa.slack.issueTrigger(USERS.agent.id),
      }),
    );
    expect(run.status).toBe(200);
    const view = await modalShown(fa, since, CALLBACKS.shortcutUnblock);
    const blocks = Array.isArray(view.blocks) ? view.blocks : [];
    const refused = JSON.stringify(blocks.filter((b) => JSON.stringify(b).includes(':warning:')));
    expect(refused).toContain(':warning:');
    expect(refused).toContain('با کد هیچ کشوری شروع');
    expect(refused).not.toContain('does not start');
    // The picker still offers the Iranian number, with a button.
    expect(JSON.stringify(blocks)).toContain(ACTIONS.shortcutUnblockPick);
  });
});

describe('the picker of "Unblock viewer"', () => {
  const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';

  /** "Unblock viewer" run by the agent on `text`: the picker it opened. */
  async function picker(text: string): Promise<StoredView> {
    const message = h.slack.postAsUser(CHANNELS.support, CUSTOMER, text);
    const since = h.slack.calls.length;
    const run = await h.send(
      messageAction({
        userId: USERS.agent.id,
        callbackId: SHORTCUTS.unblockFromMessage,
        message: { ts: message.ts, text: slackEscapeText(text), user: CUSTOMER },
        channelId: CHANNELS.support,
        responseUrl: h.slack.responseUrl(`picker-${since}`, {
          channel: CHANNELS.support,
          user: USERS.agent.id,
        }),
        triggerId: h.slack.issueTrigger(USERS.agent.id),
      }),
    );
    expect(run.status).toBe(200);
    return modalShown(h, since, CALLBACKS.shortcutUnblock);
  }

  it('an agent’s forged click carries the place "0x1", which no button of the list carries: told the choice is not there, nothing sent', async () => {
    // The same holds for "", " 1" and "1e0": each is read as a place in the list today.
    const view = await picker(`numbers: ${DEMO.blockedMobiles[0]} and ${DEMO.blockedMobiles[1]}`);
    await h.action({
      userId: USERS.agent.id,
      actionId: ACTIONS.shortcutUnblockPick,
      value: '0x1',
      blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 1),
      view: {
        id: view.id,
        blocks: view.blocks ?? [],
        private_metadata: String(view.private_metadata ?? ''),
        callback_id: String(view.callback_id ?? ''),
        hash: String(view.hash ?? ''),
      },
    });
    await until(() => {
      const text = JSON.stringify(h.slack.view(view.id)?.blocks ?? []);
      return /not in this form any more/.test(text) || text.includes('"type":"divider"') ? text : undefined;
    }, 'the picker to answer the click');
    await notificationsDone(h);
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toEqual([]);
  });
});
