import type { JsonValue } from '../../src/core/json.js';
import type { StoredView } from '../../src/emulator/index.js';
import { DEMO, isDocumentedCall } from '../../src/sandbox/server.js';
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
  submitModal,
  typed,
  upstream,
  valuesOf,
} from './change-helpers.js';

/**
 * Every one of the 13 operations, in Slack, against the full sandbox and against a sandbox that
 * serves only the documented endpoints (every extra answers 404 {"message":"not found"}, as the
 * real service may). One table, run in both modes: each row names the exact request the service
 * must receive for the operation and what the person reads, warnings included.
 * @see docs/architecture.md, "Client of the video protection API" and "Sandbox"
 */

type Mode = 'full' | 'documented';

const WHITELIST = '/v1/storage/dns/whitelist';
const CONFIG = '/v1/storage/protect/config';
const BUCKET = '/v1/storage/bucket';
const FILE = '/v1/storage/bucket/file';
const RETRY = '/v1/storage/bucket/file/queue/retry';
const PLAYLIST = '/v1/playlist';
const ANOMALY = '/v1/analysis/user/video/anomaly';
/** The file of the field report: the sandbox does not know it. */
const REPORTED_FILE = '671018d0403eba579a6f90e2';

/** What a row checks: the operation's own requests, and what the person reads in each mode. */
interface Row {
  op: string;
  name: string;
  /** Does what the person does; returns everything they read on the way. */
  act(h: Harness, mode: Mode): Promise<string>;
  /** The operation's endpoint and the bodies it must receive, in order (none when refused). */
  sent: { method: string; path: string; bodies: Record<Mode, JsonValue[]> };
  reads: Record<Mode, string[]>;
  /** Never read in this mode. */
  notRead?: Partial<Record<Mode, string[]>>;
}

const same = <T>(items: T[]): Record<Mode, T[]> => ({ full: items, documented: items });
const lookupFailed = (what: string) => `Could not look the ${what} up: the service answered 404.`;

/** Puts addresses on the sandbox's whitelist directly, as if set before vidops ran. */
async function seedWhitelist(h: Harness, ips: string[]): Promise<void> {
  const response = await fetch(`${h.sandbox.url}${WHITELIST}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', api_key: DEMO.apiKey, secret_key: DEMO.secretKey },
    body: JSON.stringify({ allowedDNS: ips }),
  });
  expect(response.status).toBe(200);
  h.sandbox.clearRequests();
}

/** `/vidops <text>`; the ephemeral reply as read. */
async function replyTo(h: Harness, text: string): Promise<string> {
  const slash = await h.slash(text);
  expect(slash.status).toBe(200);
  return readable(await slash.reply());
}

/** A lead approves from the approval message; the request runs and ends in `state`. */
async function leadApproves(
  h: Harness,
  id: string,
  state: 'succeeded' | 'failed' = 'succeeded',
): Promise<string> {
  const message = await approvalMessage(h, id);
  const answer = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
  const said = readable(await answer.reply());
  await reaches(h, id, state);
  return said;
}

/** A typed change: the reply, then a lead's approval. */
async function typedChange(h: Harness, text: string): Promise<string> {
  const reply = await replyTo(h, text);
  return `${reply}\n${await leadApproves(h, requestIdIn(reply))}`;
}

/** Every text of a modal's blocks, as `readable` gives them for a message. */
function shown(view: StoredView): string {
  return JSON.stringify(view.blocks ?? []);
}

/** Opens a modal, fills it, submits it; a lead approves. Returns the modal and the result as read. */
async function modalChange(
  h: Harness,
  command: string,
  callbackId: string,
  changes: Parameters<typeof valuesOf>[1],
): Promise<string> {
  const view = await openModal(h, command, callbackId);
  const since = h.slack.calls.length;
  expect(await submitModal(h, view, valuesOf(view, changes))).toMatchObject({ response_action: 'update' });
  const status = await modalStatus(h, since, view.id, /posted to/);
  return `${shown(view)}\n${status}\n${await leadApproves(h, requestIdIn(status))}`;
}

/** The typed confirmation of a delete, answered with `typedId`; a lead approves. */
async function confirmedDelete(h: Harness, command: string, typedId: string): Promise<string> {
  return modalChange(h, command, CALLBACKS.deleteConfirm, {
    [BLOCKS.confirmText]: typed(typedId),
    [BLOCKS.reason]: typed('clean-up asked for by the owner'),
  });
}

const ROWS: Row[] = [
  {
    op: '1',
    name: 'an agent adds an address to the whitelist by text',
    act: async (h) => {
      await seedWhitelist(h, ['5.160.12.1']);
      return typedChange(h, 'whitelist add 5.160.12.7');
    },
    sent: {
      method: 'POST',
      path: WHITELIST,
      bodies: same([{ allowedDNS: ['5.160.12.1', '5.160.12.7'] }]),
    },
    reads: same(['*Adds* (1): `5.160.12.7`', 'Whitelist before (1): `5.160.12.1`', 'You approved']),
  },
  {
    op: '1',
    name: 'an agent removes an address from the whitelist by text',
    act: async (h) => {
      await seedWhitelist(h, ['5.160.12.1', '5.160.12.2']);
      return typedChange(h, 'whitelist remove 5.160.12.2');
    },
    sent: { method: 'POST', path: WHITELIST, bodies: same([{ allowedDNS: ['5.160.12.1'] }]) },
    reads: same(['*Removes* (1): `5.160.12.2`', '*Whitelist after* (1): `5.160.12.1`']),
  },
  {
    op: '2',
    name: 'an agent looks at the whitelist',
    act: async (h) => {
      await seedWhitelist(h, ['5.160.12.10']);
      return replyTo(h, 'whitelist');
    },
    sent: { method: 'GET', path: WHITELIST, bodies: same([null]) },
    reads: same(['*IP whitelist* · 1 address', '`5.160.12.10`']),
  },
  {
    op: '3',
    name: 'an agent lowers the watermark opacity by text',
    act: (h) => typedChange(h, 'protect set opacity=0.3'),
    sent: { method: 'POST', path: CONFIG, bodies: same([{ opacity: 0.3 }]) },
    reads: same(['(`opacity`): 0.6 → *0.3*']),
  },
  {
    op: '4',
    name: 'an agent looks at the protection settings',
    act: (h) => replyTo(h, 'protect show'),
    sent: { method: 'GET', path: CONFIG, bodies: same([null]) },
    reads: same(['0.6', '2h']),
  },
  {
    op: '5',
    name: 'an agent creates a folder in its modal',
    act: (h) =>
      modalChange(h, 'folder create', CALLBACKS.folderCreate, {
        [BLOCKS.title]: typed('Webinars 2025'),
        [BLOCKS.reason]: typed('marketing asked'),
      }),
    sent: { method: 'POST', path: BUCKET, bodies: same([{ title: 'Webinars 2025' }]) },
    reads: same(['*Creates* a folder', 'Webinars 2025']),
    notRead: { documented: ['Could not look'] },
  },
  {
    op: '6',
    name: 'an agent renames a folder in its modal',
    act: (h) =>
      modalChange(h, `folder edit ${DEMO.folders.marketing}`, CALLBACKS.folderEdit, {
        [BLOCKS.title]: typed('Marketing clips 2025'),
        [BLOCKS.reason]: typed('new season'),
      }),
    sent: {
      method: 'PATCH',
      path: BUCKET,
      bodies: same([{ bucketId: DEMO.folders.marketing, title: 'Marketing clips 2025' }]),
    },
    reads: {
      full: ['“Marketing clips” → *“Marketing clips 2025”*'],
      documented: [
        'The current values of this folder could not be read: the service answered 404. Fill in what it should become.',
        '(its current values could not be read)',
        lookupFailed('folder'),
      ],
    },
  },
  {
    op: '7',
    name: 'an agent deletes a folder by typing its ID, and a lead approves',
    act: (h) => confirmedDelete(h, `folder delete ${DEMO.folders.podcasts}`, DEMO.folders.podcasts),
    sent: { method: 'DELETE', path: BUCKET, bodies: same([{ bucketId: DEMO.folders.podcasts }]) },
    reads: {
      full: ['and its 4 files. This cannot be undone.', `Type ${DEMO.folders.podcasts}, or the exact title`],
      documented: [
        `*Deletes* folder \`${DEMO.folders.podcasts}\`. This cannot be undone.`,
        'Only the ID is known: the service did not show its title or contents. Check the ID.',
        lookupFailed('folder'),
        `Type ${DEMO.folders.podcasts} to confirm.`,
      ],
    },
    notRead: { full: ['Only the ID is known'] },
  },
  {
    op: '8',
    name: 'an agent renames a file in its modal',
    act: (h) =>
      modalChange(h, `file edit ${DEMO.files.lecture2}`, CALLBACKS.fileEdit, {
        [BLOCKS.title]: typed('Lecture 2: Foundations (2025)'),
        [BLOCKS.reason]: typed('typo'),
      }),
    sent: {
      method: 'POST',
      path: `${FILE}/${DEMO.files.lecture2}`,
      bodies: same([
        { fields: { fileId: DEMO.files.lecture2, title: 'Lecture 2: Foundations (2025)' }, files: [] },
      ]),
    },
    reads: {
      full: ['“Lecture 2: Foundations” → *“Lecture 2: Foundations (2025)”*'],
      documented: [
        'The current values of this file could not be read: the service answered 404.',
        lookupFailed('file'),
      ],
    },
  },
  {
    op: '9',
    name: 'an agent deletes a file by typing its ID, and a lead approves',
    act: (h) => confirmedDelete(h, `file delete ${DEMO.files.episode4}`, DEMO.files.episode4),
    sent: { method: 'DELETE', path: FILE, bodies: same([{ fileId: DEMO.files.episode4 }]) },
    reads: {
      full: [`in folder \`${DEMO.folders.podcasts}\``],
      documented: ['Only the ID is known', lookupFailed('file'), `Type ${DEMO.files.episode4} to confirm.`],
    },
  },
  {
    op: '10',
    name: 'an agent retries a failed conversion (POST)',
    act: (h) => replyTo(h, `retry ${DEMO.files.lecture3}`),
    sent: { method: 'POST', path: RETRY, bodies: same([{ fileId: DEMO.files.lecture3 }]) },
    reads: {
      full: [
        'Conversion of *Lecture 3: Practice session*',
        'is queued again',
        'Conversion status before: failed',
      ],
      documented: [`Conversion of file \`${DEMO.files.lecture3}\` is queued again.`, lookupFailed('file')],
    },
  },
  {
    op: '10',
    name: 'an agent retries the file of the field report, which the service does not know',
    act: (h) => replyTo(h, `retry ${REPORTED_FILE}`),
    sent: { method: 'POST', path: RETRY, bodies: { full: [], documented: [{ fileId: REPORTED_FILE }] } },
    reads: {
      // The full sandbox has shown files before: its 404 now means "no such file".
      full: [`File ${REPORTED_FILE} does not exist.`],
      // Nothing learned: the retry itself is sent, and its own 404 is the answer.
      documented: [lookupFailed('file'), 'was not retried'],
    },
  },
  {
    op: '10',
    name: 'an agent retries a failed conversion where the service refuses POST: PATCH, remembered',
    act: async (h) => {
      h.sandbox.setFaults([{ path: RETRY, method: 'POST', status: 405, times: 1 }]);
      const first = await replyTo(h, `retry ${DEMO.failedFileIds[1]}`);
      return `${first}\n${await replyTo(h, `retry ${DEMO.failedFileIds[2]}`)}`;
    },
    sent: {
      method: 'PATCH',
      path: RETRY,
      bodies: same([{ fileId: DEMO.failedFileIds[1] }, { fileId: DEMO.failedFileIds[2] }]),
    },
    reads: { full: ['is queued again'], documented: ['is queued again', lookupFailed('file')] },
  },
  {
    op: '11',
    name: 'an agent reorders a playlist in its modal',
    act: (h) =>
      modalChange(h, `playlist edit ${DEMO.playlists.gettingStarted}`, CALLBACKS.playlistEdit, {
        [BLOCKS.title]: typed('Getting started 2025'),
        [BLOCKS.playlistFiles]: typed(`${DEMO.files.teaser} | Product teaser\n${DEMO.files.lecture1}`),
        [BLOCKS.reason]: typed('teaser first'),
      }),
    sent: {
      method: 'PUT',
      path: PLAYLIST,
      bodies: same([
        {
          playlistId: DEMO.playlists.gettingStarted,
          title: 'Getting started 2025',
          files: [{ _id: DEMO.files.teaser, title: 'Product teaser' }, { _id: DEMO.files.lecture1 }],
        },
      ]),
    },
    reads: {
      full: ['Files before'],
      documented: [
        lookupFailed('playlist'),
        "Could not look the playlist's files up: the service answered 404. Whether they exist was not checked.",
      ],
    },
    notRead: { full: ['Could not look'] },
  },
  {
    op: '11',
    name: 'an agent puts a file the service does not have into a playlist',
    act: async (h) => {
      const view = await openModal(
        h,
        `playlist edit ${DEMO.playlists.podcastHighlights}`,
        CALLBACKS.playlistEdit,
      );
      const since = h.slack.calls.length;
      const answer = await submitModal(
        h,
        view,
        valuesOf(view, {
          [BLOCKS.playlistFiles]: typed(`${DEMO.files.episode1}\n${REPORTED_FILE}`),
          [BLOCKS.reason]: typed('new episode'),
        }),
      );
      if (JSON.stringify(answer).includes('"errors"')) return JSON.stringify(answer);
      // The service's own endpoint judges: it refuses the unknown file once the lead approves.
      const status = await modalStatus(h, since, view.id, /posted to/);
      return `${status}\n${await leadApproves(h, requestIdIn(status), 'failed')}`;
    },
    sent: {
      method: 'PUT',
      path: PLAYLIST,
      bodies: {
        full: [],
        documented: [
          {
            playlistId: DEMO.playlists.podcastHighlights,
            files: [{ _id: DEMO.files.episode1 }, { _id: REPORTED_FILE }],
          },
        ],
      },
    },
    reads: {
      full: [`File ${REPORTED_FILE} does not exist; take it out of the playlist or check the ID.`],
      documented: [
        "Could not look the playlist's files up: the service answered 404.",
        'but it failed',
        `file ${REPORTED_FILE} not found`,
      ],
    },
  },
  {
    op: '12',
    name: 'an agent deletes a playlist by typing its ID, and a lead approves',
    act: (h) =>
      confirmedDelete(
        h,
        `playlist delete ${DEMO.playlists.podcastHighlights}`,
        DEMO.playlists.podcastHighlights,
      ),
    sent: {
      method: 'DELETE',
      path: PLAYLIST,
      bodies: same([{ playlistId: DEMO.playlists.podcastHighlights }]),
    },
    reads: {
      full: ['“Podcast highlights”'],
      documented: [
        'Only the ID is known',
        lookupFailed('playlist'),
        `Type ${DEMO.playlists.podcastHighlights} to confirm.`,
      ],
    },
  },
  {
    op: '13',
    name: 'an agent unblocks a blocked viewer',
    act: (h) => replyTo(h, 'unblock 0912 123 4567'),
    sent: { method: 'POST', path: ANOMALY, bodies: same([{ mobileNumber: '09121234567' }]) },
    reads: {
      full: ['Viewer `0912***4567` is unblocked; they can watch again.', 'Before: attacker · blocked'],
      documented: [
        'The unblock of viewer `0912***4567` was sent; whether they were blocked is unknown.',
        lookupFailed('viewer'),
      ],
    },
    notRead: { documented: ['can watch again'] },
  },
  {
    op: '13',
    name: 'an agent unblocks a viewer who was not blocked',
    act: (h) => replyTo(h, 'unblock +98 912 345 6789'),
    sent: { method: 'POST', path: ANOMALY, bodies: same([{ mobileNumber: '09123456789' }]) },
    reads: {
      full: ['Viewer `0912***6789` was not blocked; the unblock was sent anyway.'],
      documented: ['whether they were blocked is unknown', lookupFailed('viewer')],
    },
    notRead: { full: ['can watch again'], documented: ['can watch again'] },
  },
];

// Each sandbox, with Slack delivering over signed HTTP and over a Socket Mode connection.
const PLACES = (['full', 'documented'] as const).flatMap((mode) =>
  (['http', 'socket'] as const).map((delivery) => [mode, delivery] as const),
);

describe.each(PLACES)('against the %s sandbox, delivered over %s', (mode: Mode, delivery) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ sandbox: { extras: mode === 'full' }, mode: delivery });
  });

  afterAll(() => h.stop());

  beforeEach(() => {
    h.sandbox.reset();
  });

  it.each(ROWS)('op $op: $name', async (row) => {
    const read = await row.act(h, mode);
    for (const text of row.reads[mode]) expect(read).toContain(text);
    for (const text of row.notRead?.[mode] ?? []) expect(read).not.toContain(text);
    const requests = upstream(h, row.sent.method, row.sent.path);
    expect(requests.map((r) => r.body)).toEqual(row.sent.bodies[mode]);
    expect(requests.map((r) => r.query)).toEqual(row.sent.bodies[mode].map(() => ({})));
    if (mode === 'documented') {
      // Every extra was asked, and every one answered the bare 404; nothing else went wrong.
      for (const r of h.sandbox.requests()) {
        if (!isDocumentedCall(r.method, r.path)) expect(r.status).toBe(404);
      }
    }
  });
});
