import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliIo, runCli } from '../../src/cli/run.js';
import type { JsonValue } from '../../src/core/json.js';
import { DEMO, type Sandbox, startSandbox } from '../../src/sandbox/server.js';

/**
 * Every one of the 13 operations on the command line, against the full sandbox and against a
 * sandbox that serves only the documented endpoints (every extra answers 404
 * {"message":"not found"}). One table, run in both modes, with one database per mode (what the
 * CLI learns of the service stays, as it would on an operator's machine): each row names the
 * exact request the service must receive and what the person reads, notes included.
 * @see docs/architecture.md, "Client of the video protection API" and "Sandbox"
 */

type Mode = 'full' | 'documented';

const LEAD = 'ULEAD0001';
/** The OS users at the two keyboards: a request and its approval come from different people. */
const AGENT_OS = 'sara';
const LEAD_OS = 'lena';
const REQUEST_ID = /R-[0-9A-HJKMNP-TV-Z]{8}/;
const WHITELIST = '/v1/storage/dns/whitelist';
const CONFIG = '/v1/storage/protect/config';
const BUCKET = '/v1/storage/bucket';
const FILE = '/v1/storage/bucket/file';
const RETRY = '/v1/storage/bucket/file/queue/retry';
const PLAYLIST = '/v1/playlist';
const ANOMALY = '/v1/analysis/user/video/anomaly';
/** The file of the field report: the sandbox does not know it. */
const REPORTED_FILE = '671018d0403eba579a6f90e2';

interface CliRun {
  code: number;
  out: string;
}

interface Row {
  op: string;
  name: string;
  /** Runs what the person runs; everything printed, stdout and stderr. */
  act(cli: Cli): Promise<CliRun>;
  sent: { method: string; path: string; bodies: Record<Mode, JsonValue[]> };
  reads: Record<Mode, string[]>;
  notRead?: Partial<Record<Mode, string[]>>;
  /** Exit code (0 unless said). */
  code?: Partial<Record<Mode, number>>;
}

interface Cli {
  run(args: string[]): Promise<CliRun>;
  /** Asks for a change and has the lead approve it; both outputs. */
  approved(args: string[]): Promise<CliRun>;
  sandbox: Sandbox;
}

const same = <T>(items: T[]): Record<Mode, T[]> => ({ full: items, documented: items });
const lookupFailed = (what: string) => `Could not look the ${what} up: the service answered 404.`;

async function seedWhitelist(sandbox: Sandbox, ips: string[]): Promise<void> {
  const response = await fetch(`${sandbox.url}${WHITELIST}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', api_key: DEMO.apiKey, secret_key: DEMO.secretKey },
    body: JSON.stringify({ allowedDNS: ips }),
  });
  expect(response.status).toBe(200);
  sandbox.clearRequests();
}

const ROWS: Row[] = [
  {
    op: '1',
    name: 'an agent adds an address to the whitelist',
    act: async (cli) => {
      await seedWhitelist(cli.sandbox, ['5.160.12.1']);
      return cli.approved(['whitelist', 'add', '5.160.12.7']);
    },
    sent: {
      method: 'POST',
      path: WHITELIST,
      bodies: same([{ allowedDNS: ['5.160.12.1', '5.160.12.7'] }]),
    },
    reads: same(['before: 5.160.12.1', 'after:  5.160.12.1, 5.160.12.7']),
  },
  {
    op: '1',
    name: 'an agent removes an address from the whitelist',
    act: async (cli) => {
      await seedWhitelist(cli.sandbox, ['5.160.12.1', '5.160.12.2']);
      return cli.approved(['whitelist', 'remove', '5.160.12.2']);
    },
    sent: { method: 'POST', path: WHITELIST, bodies: same([{ allowedDNS: ['5.160.12.1'] }]) },
    reads: same(['removed: 5.160.12.2']),
  },
  {
    op: '2',
    name: 'an agent looks at the whitelist',
    act: async (cli) => {
      await seedWhitelist(cli.sandbox, ['5.160.12.10']);
      return cli.run(['whitelist']);
    },
    sent: { method: 'GET', path: WHITELIST, bodies: same([null]) },
    reads: same(['The whitelist holds 1 address:', '5.160.12.10']),
  },
  {
    op: '3',
    name: 'an agent lowers the watermark opacity',
    act: (cli) => cli.approved(['protect', 'set', 'opacity=0.3']),
    sent: { method: 'POST', path: CONFIG, bodies: same([{ opacity: 0.3 }]) },
    reads: same(['opacity: 0.6 → 0.3']),
  },
  {
    op: '4',
    name: 'an agent looks at the protection settings',
    act: (cli) => cli.run(['protect', 'show']),
    sent: { method: 'GET', path: CONFIG, bodies: same([null]) },
    reads: same(['opacity', '0.6']),
  },
  {
    op: '5',
    name: 'an agent creates a folder',
    act: (cli) => cli.approved(['folder', 'create', '--title', 'Webinars 2025']),
    sent: { method: 'POST', path: BUCKET, bodies: same([{ title: 'Webinars 2025' }]) },
    reads: same(['title: "Webinars 2025"', ': done (request R-']),
  },
  {
    op: '6',
    name: 'an agent renames a folder',
    act: (cli) => cli.approved(['folder', 'edit', DEMO.folders.marketing, '--title', 'Marketing clips 2025']),
    sent: {
      method: 'PATCH',
      path: BUCKET,
      bodies: same([{ bucketId: DEMO.folders.marketing, title: 'Marketing clips 2025' }]),
    },
    reads: {
      full: ['title: "Marketing clips" → "Marketing clips 2025"'],
      documented: [lookupFailed('folder'), 'title: "Marketing clips 2025"\n'],
    },
  },
  {
    op: '7',
    name: 'an agent deletes a folder, repeating its ID, and a lead approves',
    act: (cli) =>
      cli.approved(['folder', 'delete', DEMO.folders.podcasts, '--confirm', DEMO.folders.podcasts]),
    sent: { method: 'DELETE', path: BUCKET, bodies: same([{ bucketId: DEMO.folders.podcasts }]) },
    reads: {
      full: [`deletes folder ${DEMO.folders.podcasts} ("`, 'holding 4 file(s)'],
      documented: [`deletes folder ${DEMO.folders.podcasts}\n`, lookupFailed('folder')],
    },
  },
  {
    op: '8',
    name: 'an agent renames a file',
    act: (cli) => cli.approved(['file', 'edit', DEMO.files.lecture2, '--title', 'Lecture 2 (2025)']),
    sent: {
      method: 'POST',
      path: `${FILE}/${DEMO.files.lecture2}`,
      bodies: same([{ fields: { fileId: DEMO.files.lecture2, title: 'Lecture 2 (2025)' }, files: [] }]),
    },
    reads: {
      full: ['title: "Lecture 2: Foundations" → "Lecture 2 (2025)"'],
      documented: [lookupFailed('file'), 'title: "Lecture 2 (2025)"\n'],
    },
  },
  {
    op: '9',
    name: 'an agent deletes a file, repeating its ID, and a lead approves',
    act: (cli) => cli.approved(['file', 'delete', DEMO.files.episode4, '--confirm', DEMO.files.episode4]),
    sent: { method: 'DELETE', path: FILE, bodies: same([{ fileId: DEMO.files.episode4 }]) },
    reads: { full: [`deletes file ${DEMO.files.episode4} ("`], documented: [lookupFailed('file')] },
  },
  {
    op: '10',
    name: 'an agent retries a failed conversion (POST)',
    act: (cli) => cli.run(['retry', DEMO.files.lecture3]),
    sent: { method: 'POST', path: RETRY, bodies: same([{ fileId: DEMO.files.lecture3 }]) },
    reads: { full: ['Retry conversion', 'done'], documented: ['done', lookupFailed('file')] },
    notRead: { full: ['Could not look'] },
  },
  {
    op: '10',
    name: 'an agent retries the file of the field report, which the service does not know',
    act: (cli) => cli.run(['retry', REPORTED_FILE]),
    sent: { method: 'POST', path: RETRY, bodies: { full: [], documented: [{ fileId: REPORTED_FILE }] } },
    reads: {
      // The full sandbox has shown files before (rows above): its 404 now means "no such file".
      full: [`File ${REPORTED_FILE} does not exist.`],
      // Nothing learned: the retry itself is sent, and its own 404 is the answer.
      documented: [lookupFailed('file'), 'failed (HTTP 404)'],
    },
    code: { full: 1, documented: 1 },
  },
  {
    op: '10',
    name: 'an agent retries a failed conversion where the service refuses POST: PATCH, remembered',
    act: async (cli) => {
      cli.sandbox.setFaults([{ path: RETRY, method: 'POST', status: 405, times: 1 }]);
      const first = await cli.run(['retry', DEMO.failedFileIds[1]]);
      const second = await cli.run(['retry', DEMO.failedFileIds[2]]);
      return { code: first.code + second.code, out: `${first.out}\n${second.out}` };
    },
    sent: {
      method: 'PATCH',
      path: RETRY,
      bodies: same([{ fileId: DEMO.failedFileIds[1] }, { fileId: DEMO.failedFileIds[2] }]),
    },
    reads: { full: ['done'], documented: ['done', lookupFailed('file')] },
  },
  {
    op: '11',
    name: 'an agent reorders a playlist',
    act: (cli) =>
      cli.approved([
        'playlist',
        'edit',
        DEMO.playlists.gettingStarted,
        '--title',
        'Getting started 2025',
        '--files',
        `${DEMO.files.teaser}:Product teaser,${DEMO.files.lecture1}`,
      ]),
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
      full: ['title: "Getting started" → "Getting started 2025"'],
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
    act: (cli) =>
      cli.approved([
        'playlist',
        'edit',
        DEMO.playlists.podcastHighlights,
        '--files',
        `${DEMO.files.episode1},${REPORTED_FILE}`,
      ]),
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
      // The service's own endpoint judges, once the lead approves.
      documented: [
        "Could not look the playlist's files up",
        'failed (HTTP 400)',
        `file ${REPORTED_FILE} not found`,
      ],
    },
    code: { full: 1, documented: 1 },
  },
  {
    op: '12',
    name: 'an agent deletes a playlist, repeating its ID, and a lead approves',
    act: (cli) =>
      cli.approved([
        'playlist',
        'delete',
        DEMO.playlists.podcastHighlights,
        '--confirm',
        DEMO.playlists.podcastHighlights,
      ]),
    sent: {
      method: 'DELETE',
      path: PLAYLIST,
      bodies: same([{ playlistId: DEMO.playlists.podcastHighlights }]),
    },
    reads: {
      full: [`deletes playlist ${DEMO.playlists.podcastHighlights} ("Podcast highlights")`],
      documented: [lookupFailed('playlist')],
    },
  },
  {
    op: '13',
    name: 'an agent unblocks a blocked viewer',
    act: (cli) => cli.run(['unblock', '0912', '123', '4567']),
    sent: { method: 'POST', path: ANOMALY, bodies: same([{ mobileNumber: '09121234567' }]) },
    reads: {
      full: ['Viewer 0912***4567 is unblocked; they can watch again.'],
      documented: [
        'The unblock of viewer 0912***4567 was sent; whether they were blocked is unknown.',
        lookupFailed('viewer'),
      ],
    },
    notRead: { full: ['09121234567'], documented: ['09121234567', 'can watch again'] },
  },
  {
    op: '13',
    name: 'an agent unblocks a viewer who was not blocked',
    act: (cli) => cli.run(['unblock', '+98', '912', '345', '6789']),
    sent: { method: 'POST', path: ANOMALY, bodies: same([{ mobileNumber: '09123456789' }]) },
    reads: {
      full: ['Viewer 0912***6789 was not blocked; the unblock was sent anyway.'],
      documented: ['whether they were blocked is unknown', lookupFailed('viewer')],
    },
    notRead: { full: ['can watch again'], documented: ['can watch again'] },
  },
];

describe.each<Mode>(['full', 'documented'])('against the %s sandbox', (mode) => {
  let sandbox: Sandbox;
  let dir: string;
  const now = new Date('2025-01-05T06:00:00.000Z');

  beforeAll(async () => {
    sandbox = await startSandbox({ conversionDelayMs: 60_000, extras: mode === 'full' });
    dir = await mkdtemp(join(tmpdir(), `vidops-cli-${mode}-`));
    // Approvals from the command line are off by default; these scenarios have a lead approve there.
    await writeFile(join(dir, 'policy.yml'), 'cli: { approve: true }\n');
  });

  afterAll(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(() => sandbox.reset());

  async function run(args: string[], osUser = AGENT_OS): Promise<CliRun> {
    let out = '';
    const io: CliIo = {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (out += s) },
      env: {
        DATABASE_URL: `sqlite:${join(dir, 'vidops.db')}`,
        VIDEO_API_URL: sandbox.url,
        VIDEO_API_KEY: DEMO.apiKey,
        VIDEO_SECRET_KEY: DEMO.secretKey,
        LEADS: LEAD,
        POLICY_FILE: join(dir, 'policy.yml'),
      },
      osUser,
      cwd: dir,
      clock: () => now,
    };
    const code = await runCli(args, io);
    return { code, out };
  }

  const cli: Cli = {
    run,
    async approved(args) {
      const asked = await run([...args, '--reason', 'asked by the owner']);
      const id = REQUEST_ID.exec(asked.out)?.[0];
      if (id === undefined || asked.code !== 0) return asked;
      const approved = await run(['approve', id, '--as', LEAD], LEAD_OS);
      return { code: approved.code, out: `${asked.out}\n${approved.out}` };
    },
    get sandbox() {
      return sandbox;
    },
  };

  it.each(ROWS)('op $op: $name', async (row) => {
    const result = await row.act(cli);
    expect(result.code).toBe(row.code?.[mode] ?? 0);
    for (const text of row.reads[mode]) expect(result.out).toContain(text);
    for (const text of row.notRead?.[mode] ?? []) expect(result.out).not.toContain(text);
    const requests = sandbox
      .requests()
      .filter((r) => r.method === row.sent.method && r.path === row.sent.path);
    expect(requests.map((r) => r.body)).toEqual(row.sent.bodies[mode]);
    expect(requests.map((r) => r.query)).toEqual(row.sent.bodies[mode].map(() => ({})));
    if (mode === 'documented') {
      // Every look-up reached the service and got the bare 404; nothing else went wrong.
      for (const r of sandbox.requests()) {
        if (r.method === 'GET' && r.path !== WHITELIST && r.path !== CONFIG) expect(r.status).toBe(404);
      }
    }
  });
});
