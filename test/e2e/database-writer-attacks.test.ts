import Database from 'better-sqlite3';
import { type Person, personOf } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS, SHORTCUTS, shortcutPickBlock } from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  modalShown,
  modalStatus,
  notificationsDone,
  openModal,
  requestIdIn,
  submitModal,
  typed,
  until,
  upstream,
  valuesOf,
} from './change-helpers.js';

/**
 * The Slack app end to end against someone who can write vidops' database (SQL on its SQLite
 * file) but does not hold VIDEO_SECRET_KEY (docs/security.md, "What vidops takes from its
 * database on trust"): the drafts a change modal keeps on the server are what the submission
 * acts on, so each is sealed with its draft's ID, which only the modal carries. The
 * services-level attacks are in src/services/database-writer-attacks*.test.ts.
 * A test marked `DEFECT:` failed before its fix, the attack achieving what the comment says.
 */

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
const FOLDER_PATH = '/v1/storage/bucket';
const CUSTOMER = 'U0CUSTOMER';

let h: Harness;
let agent: Person;
/** The writer's own connection to vidops' SQLite file. */
let db: Database.Database;

beforeAll(async () => {
  h = await startHarness();
  agent = personOf(h.slack, USERS.agent.id);
  db = new Database(h.config.databaseUrl.slice('sqlite:'.length));
  db.pragma('busy_timeout = 5000');
});

afterAll(async () => {
  db.close();
  await h.stop();
});

beforeEach(async () => {
  await notificationsDone(h);
  h.sandbox.reset();
});

/** Rewrites `path` (a JSON path) in the payload of every draft of modal `kind`, as the writer would. */
function editDrafts(kind: string, path: string, value: string): number {
  return db
    .prepare('UPDATE drafts SET payload = json_set(payload, ?, ?) WHERE kind = ?')
    .run(path, value, kind).changes;
}

// DEFECT: the agent confirmed deleting "Course lectures" and the lead approved a message about it;
// the service was told to delete the marketing folder, which the writer put in the delete draft.
test('a database writer who swaps the folder in an open delete form gets no other folder deleted', async () => {
  const shown = DEMO.folders.lectures;
  const theirs = DEMO.folders.marketing;
  const view = await openModal(h, `folder delete ${shown}`, CALLBACKS.deleteConfirm);
  expect(JSON.stringify(view.blocks)).toContain('Course lectures');
  expect(editDrafts(CALLBACKS.deleteConfirm, '$.prepared.params.bucketId', theirs)).toBe(1);

  const since = h.slack.calls.length;
  await submitModal(
    h,
    view,
    valuesOf(view, { [BLOCKS.confirmText]: typed(shown), [BLOCKS.reason]: typed('course ended') }),
  );
  const status = await modalStatus(h, since, view.id, /posted to|no longer|not|Not/);
  if (/R-[0-9A-Z]{8}/.test(status)) {
    // The lead reads the approval message (about the folder the agent confirmed) and approves.
    const id = requestIdIn(status);
    const message = await approvalMessage(h, id);
    expect(JSON.stringify(message.blocks)).toContain('Course lectures');
    const lead = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
    await lead.reply();
  }
  await notificationsDone(h);

  const deleted = upstream(h, 'DELETE', FOLDER_PATH).map((r) => JSON.stringify(r.body));
  expect(deleted.filter((body) => body.includes(theirs))).toEqual([]);
  expect(h.sandbox.state().folders.map((f) => f._id)).toContain(theirs);
});

// DEFECT: the agent clicked the number the customer wrote; the service unblocked another one, which
// the writer put in the shortcut's draft (an unblock runs without approval).
test('a database writer who swaps the number in an open “Unblock viewer” list gets no other viewer unblocked', async () => {
  const [shown = '', theirs = ''] = DEMO.blockedMobiles;
  const message = h.slack.postAsUser(CHANNELS.support, CUSTOMER, `my number is ${shown}`);
  const since = h.slack.calls.length;
  await agent.messageShortcut({
    channel: CHANNELS.support,
    ts: message.ts,
    callbackId: SHORTCUTS.unblockFromMessage,
  });
  const view = await modalShown(h, since, CALLBACKS.shortcutUnblock);
  expect(JSON.stringify(view.blocks)).toContain(shown);
  expect(editDrafts(CALLBACKS.shortcutUnblock, '$.mobiles[0].param', theirs)).toBe(1);

  await agent.click({
    viewId: view.id,
    actionId: ACTIONS.shortcutUnblockPick,
    blockId: shortcutPickBlock(ACTIONS.shortcutUnblockPick, 0),
  });
  await until(
    () => (/unblocked|not|Not/.test(JSON.stringify(h.slack.view(view.id)?.blocks ?? [])) ? true : undefined),
    'the modal to say what happened',
  );
  await notificationsDone(h);

  const unblocked = upstream(h, 'POST', UNBLOCK_PATH).map((r) => JSON.stringify(r.body));
  expect(unblocked.filter((body) => body.includes(theirs))).toEqual([]);
  expect(h.sandbox.state().viewers.find((v) => v.mobileNumber === theirs)?.blocked).toBe(true);
});
