import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHasher } from '../../src/core/audit-chain.js';
import type { AuditEvent } from '../../src/core/model.js';
import { say } from '../../src/core/said.js';
import { recordedSaid } from '../../src/i18n/said.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { openStore, type Store } from '../../src/store/index.js';
import { type CliRun, runVidops } from './run-vidops.js';

/**
 * How the command line tells the new outcomes of time-boxed changes and Reverts (docs/time-boxed.md,
 * docs/commands.md "The command line"): an Extend or a Revert approved but not sent (`NotSent`), a
 * whitelist send that gave up (`Busy`), a put-back recorded `Superseded`. Read as a support agent in a hurry (`vidops requests`, `vidops approve`), as a
 * careful lead (`audit tail`, `audit export`), and as a Persian-speaking team (`--lang fa`); with
 * hostile reasons, windows and IDs. A test marked `test.failing` shows a defect named in its
 * "DEFECT" comment; the others name the defect they caught ("Was a defect").
 */

const LEAD = 'ULEAD0001';
const AGENT = 'UAGENT001';
const START = new Date('2026-11-26T08:00:00.000Z');
const REQUEST_IDS = /R-[0-9A-HJKMNP-TV-Z]{8}/g;
const ESC = '\u001b';
// Bidi controls other than the isolates vidops pairs itself (FSI … PDI).
const LOOSE_BIDI = /[\u202a-\u202e\u200e\u200f\u061c\u2066\u2067]/;

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, extras: false });
});
afterAll(async () => {
  await sandbox.close();
});

/** A CLI place of its own: a folder with the database and a policy trusting CLI approvals. */
interface Place {
  dir: string;
  vidops(args: string[], osUser?: string): Promise<CliRun>;
  store<T>(use: (store: Store) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function place(): Promise<Place> {
  sandbox.reset();
  const dir = await mkdtemp(join(tmpdir(), 'vidops-outcomes-'));
  await writeFile(join(dir, 'policy.yml'), 'cli: { approve: true }\n');
  return {
    dir,
    vidops: (args, osUser = 'sara') =>
      runVidops(
        {
          dir,
          sandboxUrl: sandbox.url,
          leads: LEAD,
          policy: true,
          clock: () => START,
          env: { DISPLAY_TIME_ZONE: 'Asia/Tehran' },
        },
        args,
        osUser,
      ),
    store: async (use) => {
      const store = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash: createHasher() });
      try {
        return await use(store);
      } finally {
        await store.close();
      }
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

function idsIn(text: string): string[] {
  return [...text.matchAll(REQUEST_IDS)].map((m) => m[0]);
}

/** An agent (OS user sara) asks, a lead (OS user lena) approves: the request ID. */
async function askedAndApproved(p: Place, args: string[]): Promise<string> {
  const asked = await p.vidops([...args, '--as', AGENT]);
  expect(asked.code).toBe(0);
  const id = idsIn(asked.stdout)[0] ?? '';
  const approved = await p.vidops(['approve', id, '--as', LEAD], 'lena');
  expect(approved.code).toBe(0);
  return id;
}

/** The line of `vidops requests` that names `id`. */
/** The listing's line of request `id` (its ID first; another request's line may name it too). */
function lineOf(listing: string, id: string): string {
  const own = (line: string) =>
    line
      .replace(/[\u2068\u2069]/g, '')
      .trimStart()
      .startsWith(id);
  return listing.split('\n').find(own) ?? '';
}

/** RFC 4180 rows (quoted fields with doubled quotes, CRLF or LF line ends inside quotes kept). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

const PERSIAN_REASON = 'تمدید برای دمو، "ضبط" مشتری, part 2\nسطر دوم';

// ---------------------------------------------------------------------------------------------

describe('an Extend a lead approves after its change was put back: not sent', () => {
  let p: Place;
  let first: string;
  let extension: string;
  let approvedEn: CliRun;
  let postsBefore: number;
  let postsAfter: number;

  beforeAll(async () => {
    p = await place();
    first = await askedAndApproved(p, ['protect', 'set', 'preventZoom=true', '--for', '2h']);
    const asked = await p.vidops(['extend', first, '--for', '4h', '--as', AGENT, '--reason', PERSIAN_REASON]);
    expect(asked.code).toBe(0);
    extension = idsIn(asked.stdout).find((id) => id !== first) ?? '';
    expect((await p.vidops(['put-back', first, '--as', LEAD], 'lena')).code).toBe(0);
    postsBefore = sandbox.requests().filter((r) => r.method === 'POST').length;
    approvedEn = await p.vidops(['approve', extension, '--as', LEAD], 'lena');
    postsAfter = sandbox.requests().filter((r) => r.method === 'POST').length;
  });
  afterAll(() => p.close());

  test('the lead approves it: exit 1, the sentence on stderr, nothing sent, preventZoom stays off', () => {
    expect(approvedEn.code).toBe(1);
    expect(approvedEn.stdout).toBe('');
    expect(approvedEn.stderr).toContain(
      `${extension} was not sent: ${first} is no longer in force (it was put back, or was being put back). Nothing was changed; ask for the change again if still needed.`,
    );
    expect(postsAfter).toBe(postsBefore);
    expect(sandbox.state().config.preventZoom).toBe(false);
  });

  // Was a defect: `vidops approve` heads a request that was not sent with "failed" ("…: failed (request
  // R-…): R-… was not sent"): reportExecuted (src/cli/run.ts:782-792) uses cliFailed for every
  // failed request and ignores wasNotSent(request.error).
  test('the lead in a hurry reads "not sent", not "failed", on the first words', () => {
    expect(approvedEn.stderr).not.toContain(': failed (request');
    expect(approvedEn.stderr).toMatch(/: not sent \(request R-/);
  });

  // Was a defect: in Persian the CLI prints "ناموفق" and the English sentence: reportExecuted
  // (src/cli/run.ts:792) prints request.error.message and never words request.error.said.
  test('a Persian lead approves a second stale Extend with --lang fa: the sentence is Persian', async () => {
    // A second change and its Extend, the change put back before the approval.
    const again = await askedAndApproved(p, ['protect', 'set', 'opacity=0.3', '--for', '2h']);
    const asked = await p.vidops(['extend', again, '--for', '4h', '--as', AGENT]);
    const ext = idsIn(asked.stdout).find((id) => id !== again) ?? '';
    expect((await p.vidops(['put-back', again, '--as', LEAD], 'lena')).code).toBe(0);
    const fa = await p.vidops(['approve', ext, '--as', LEAD, '--lang', 'fa'], 'lena');
    expect(fa.code).toBe(1);
    expect(fa.stderr).toContain('فرستاده نشد');
    expect(fa.stderr).not.toContain('was not sent');
    expect(fa.stderr).not.toContain('ناموفق');
  });

  // Was a defect: `vidops requests` says of a request that was never sent "already approved by … and
  // executed at 08:00 UTC, and it failed": requestLine (src/cli/format.ts:196-199) uses describeState,
  // whose 'failed' wording (src/core/said.ts:514) knows nothing of NotSent.
  test('an agent lists requests: the Extend reads "not sent", not "executed … failed"', async () => {
    const listed = await p.vidops(['requests', '--as', AGENT]);
    expect(listed.code).toBe(0);
    const line = lineOf(listed.stdout, extension);
    expect(line).toContain('was not sent');
    expect(line).not.toContain('executed');
    expect(line).not.toContain('it failed');
  });

  // Was a defect: in Persian, `vidops requests` shows only «ناموفق» for it, without the reason: the
  // sentence (error.said) is dropped (src/cli/format.ts:196-199 uses stateWord alone in Persian).
  test('a Persian agent lists requests: the Extend says in Persian why it was not sent', async () => {
    const listed = await p.vidops(['requests', '--as', AGENT, '--lang', 'fa']);
    expect(listed.code).toBe(0);
    const line = lineOf(listed.stdout, extension);
    expect(line).toContain('فرستاده نشد');
    expect(line).not.toContain('ناموفق');
  });

  test('the lead reads audit tail: the failed event says "was not sent" with both IDs, one line, no escape codes', async () => {
    const tail = await p.vidops(['audit', 'tail', '-n', '40']);
    expect(tail.code).toBe(0);
    const failed = tail.stdout.split('\n').find((l) => / failed /.test(l) && l.includes(extension)) ?? '';
    expect(failed).toContain(
      `Could not change the protection settings: ${extension} was not sent: ${first} is no longer in force`,
    );
    expect(tail.stdout).not.toContain(ESC);
    expect(tail.stdout).not.toMatch(LOOSE_BIDI);
    // The Extend's requested event says what it extends, and the reason on one line.
    const requested = tail.stdout.split('\n').find((l) => l.includes(`(extends ${first})`)) ?? '';
    expect(requested).toContain(`for 4 hours (extends ${first})`);
    expect(requested).toContain('part 2 سطر دوم');
  });

  test('the Persian lead reads audit tail --lang fa: the failed event is in Persian', async () => {
    const tail = await p.vidops(['audit', 'tail', '-n', '40', '--lang', 'fa']);
    const failed = tail.stdout.split('\n').find((l) => l.includes('⁨failed⁩') && l.includes(extension)) ?? '';
    expect(failed).toContain('تغییر تنظیمات حفاظت انجام نشد');
    expect(failed).toContain('فرستاده نشد');
    expect(failed).not.toContain('was not sent');
  });

  // Was a defect: Slack markup leaks into the Persian terminal: the Persian sentence wraps IDs in
  // backticks (`code()` in src/i18n/messages/errors.ts:411), and the terminal medium of the audit
  // line keeps them ("⁨⁨`R-…`⁩ فرستاده نشد"); the English line has none. Same for every Persian
  // `said` the CLI prints (put-back refusals: src/cli/run.ts:733 via cliSaid).
  test('the Persian lead reads audit tail --lang fa and a put-back refusal: no Slack backticks', async () => {
    const tail = await p.vidops(['audit', 'tail', '-n', '40', '--lang', 'fa']);
    const failed = tail.stdout.split('\n').find((l) => l.includes('⁨failed⁩') && l.includes(extension)) ?? '';
    expect(failed).not.toContain('`');
    const refused = await p.vidops(['put-back', first, '--as', LEAD, '--lang', 'fa'], 'lena');
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toContain('`');
  });

  test('compliance exports JSONL: the error keeps name, English message and said; the Extend names what it extends', async () => {
    const out = await p.vidops(['audit', 'export', '--format', 'jsonl']);
    expect(out.code).toBe(0);
    const events = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditEvent);
    const failed = events.find((e) => e.type === 'failed' && e.requestId === extension);
    expect(failed?.error).toEqual({
      name: 'NotSent',
      message: `${extension} was not sent: ${first} is no longer in force (it was put back, or was being put back). Nothing was changed; ask for the change again if still needed.`,
      said: { key: 'extendStale', params: [extension, first] },
    });
    const requested = events.find((e) => e.type === 'requested' && e.requestId === extension);
    expect(requested?.outcome).toMatchObject({ extends: first, reason: PERSIAN_REASON });
    expect(Object.keys(events[0] ?? {}).sort()).toEqual([
      'actor',
      'at',
      'error',
      'hash',
      'id',
      'operation',
      'outcome',
      'params',
      'prevHash',
      'requestId',
      'seq',
      'target',
      'type',
    ]);
  });

  test('compliance exports CSV: the sentence with commas, quotes, newline and Persian round-trips; said and extends are in it', async () => {
    const jsonl = await p.vidops(['audit', 'export', '--format', 'jsonl']);
    const events = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditEvent);
    const csv = await p.vidops(['audit', 'export', '--format', 'csv']);
    expect(csv.code).toBe(0);
    const rows = parseCsv(csv.stdout);
    expect(rows[0]).toEqual([
      'seq',
      'id',
      'at',
      'type',
      'actor_id',
      'actor_name',
      'operation',
      'target',
      'request_id',
      'params',
      'outcome',
      'error',
      'prev_hash',
      'hash',
      'actor_via',
    ]);
    expect(rows).toHaveLength(events.length + 1);
    for (const row of rows) expect(row).toHaveLength(15);
    const failed = rows.find((r) => r[3] === 'failed' && r[8] === extension) ?? [];
    expect(JSON.parse(failed[11] ?? 'null')).toEqual(
      events.find((e) => e.type === 'failed' && e.requestId === extension)?.error,
    );
    const requested = rows.find((r) => r[3] === 'requested' && r[8] === extension) ?? [];
    expect(JSON.parse(requested[10] ?? 'null')).toMatchObject({ extends: first, reason: PERSIAN_REASON });
    expect(csv.stdout).not.toContain(ESC);
  });

  // Was a defect: the CSV export drops `actor.via`, the OS user every CLI event records
  // (docs/security.md, "Identity on the command line"): a lead's `--as` claim approved on the CLI
  // reads in CSV exactly like a click in Slack. AUDIT_CSV_COLUMNS (src/cli/format.ts:260-275)
  // has actor_id and actor_name only.
  test('compliance reads the CSV: the CLI approval names the OS user who ran it', async () => {
    const csv = await p.vidops(['audit', 'export', '--format', 'csv']);
    const rows = parseCsv(csv.stdout);
    const approved = rows.find((r) => r[3] === 'approved' && r[8] === extension) ?? [];
    expect(approved[4]).toBe(LEAD);
    expect(approved.join('|')).toContain('lena');
  });
  // Was a defect: docs/commands.md: "in English dates stay ISO-8601 UTC as the audit log keeps them", but
  // the put-back report worded times in DISPLAY_TIME_ZONE without a zone ("put back at 11:30" for
  // 08:00 UTC): timeBoxReport (src/cli/format.ts) reuses Slack's timeBoxLines (src/views/put-back.ts).
  test('the lead puts a change back in English: the time is UTC, as every other English CLI line', async () => {
    const change = await askedAndApproved(p, ['protect', 'set', 'opacity=0.2', '--for', '2h']);
    const back = await p.vidops(['put-back', change, '--as', LEAD], 'lena');
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('put back at');
    expect(back.stdout).not.toContain('put back at 11:30');
    expect(back.stdout).toMatch(/08:00( UTC|:00\.000Z)/);
  });
});

describe('a Revert a lead approves after the change was put back: not sent', () => {
  let p: Place;

  beforeAll(async () => {
    p = await place();
  });
  afterAll(() => p.close());

  test('the lead approves it: exit 1, the sentence says the window ended, the whitelist stays empty', async () => {
    const change = await askedAndApproved(p, ['whitelist', 'add', '5.6.7.8', '--for', '2h']);
    const asked = await p.vidops(['revert', change, '--as', AGENT]);
    expect(asked.code).toBe(0);
    const revert = idsIn(asked.stdout).find((id) => id !== change) ?? '';
    expect((await p.vidops(['put-back', change, '--as', AGENT])).code).toBe(0);
    const posts = sandbox.requests().filter((r) => r.method === 'POST').length;
    const approved = await p.vidops(['approve', revert, '--as', LEAD], 'lena');
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain(
      `${revert} was not sent: nothing of ${change} is left to revert, as its window has ended already (it was put back, or reverted). Nothing was changed.`,
    );
    expect(sandbox.requests().filter((r) => r.method === 'POST')).toHaveLength(posts);
    expect(sandbox.state().whitelist).toEqual([]);
    const events = await p.store((s) => s.listAudit());
    expect(events.find((e) => e.type === 'failed' && e.requestId === revert)?.error).toMatchObject({
      name: 'NotSent',
      said: { key: 'revertWindowEnded', params: [change, revert] },
    });
  });
});

describe('a put-back recorded Superseded (a stalled replica lost its claim)', () => {
  let p: Place;
  let putBack: string;

  beforeAll(async () => {
    p = await place();
    const change = await askedAndApproved(p, ['protect', 'set', 'preventZoom=true', '--for', '2h']);
    expect((await p.vidops(['put-back', change, '--as', AGENT])).code).toBe(0);
    putBack = await p.store(async (store) => {
      const made = (await store.listRequests({ limit: 50 })).find((r) => r.revertOf?.id === change);
      if (made === undefined) throw new Error('no put-back request');
      // As src/services/time-box.ts:384 records it: failed, Superseded, nothing sent by it.
      const error = recordedSaid('Superseded', say.putBackSuperseded());
      const ok = await store.transition(
        made.id,
        made.version,
        { state: 'failed', error },
        START.toISOString(),
        [],
      );
      expect(ok).not.toBe(false);
      return made.id;
    });
  });
  afterAll(() => p.close());

  // Was a defect: same cause as the Extend (src/cli/format.ts:196-199, src/core/said.ts:514): a put-back
  // that sent nothing is listed as "already executed at 08:00 UTC, and it failed".
  test('a lead lists every request: the put-back reads "not sent", not "executed … failed"', async () => {
    const listed = await p.vidops(['requests', '--all']);
    const line = lineOf(listed.stdout, putBack);
    expect(line).toContain('Not sent: another vidops process took this put-back over');
    expect(line).not.toContain('executed');
  });

  test('a lead lists every request: the line keeps the stable [failed] tag and the English sentence', async () => {
    const listed = await p.vidops(['requests', '--all']);
    expect(listed.code).toBe(0);
    const line = lineOf(listed.stdout, putBack);
    expect(line).toMatch(
      new RegExp(
        `^  ${putBack}  Change protection settings: protection settings  asked by vidops \\(system\\) at 2026-11-26T08:00:00.000Z  \\[failed\\] `,
      ),
    );
    expect(line).toContain(
      'Not sent: another vidops process took this put-back over while this one was stalled.',
    );
  });

  // Was a defect: the Persian list gives the state word only (src/cli/format.ts:199): a Persian lead
  // sees «ناموفق» and never learns that nothing was sent.
  test('a Persian lead lists every request: the put-back says «فرستاده نشد»', async () => {
    const listed = await p.vidops(['requests', '--all', '--lang', 'fa']);
    expect(lineOf(listed.stdout, putBack)).toContain('فرستاده نشد');
  });
});

/**
 * Runs `run` with `Date.now` (what the 20 s wait for a busy lease reads) a second further on at
 * each read, so the wait runs out in about a second of real time instead of twenty.
 */
async function passingRealTime<T>(run: () => Promise<T>): Promise<T> {
  const realDateNow = Date.now;
  let passed = 0;
  Date.now = () => {
    passed += 1000;
    return realDateNow.call(Date) + passed;
  };
  try {
    return await run();
  } finally {
    Date.now = realDateNow;
  }
}

describe('a whitelist send that gives up Busy (another send holds the lease for 20 s)', () => {
  let p: Place;
  let asked: string;
  let boxed: string;
  let approved: CliRun;
  let putBack: CliRun;
  let whitelistPosts: number;

  beforeAll(async () => {
    p = await place();
    boxed = await askedAndApproved(p, ['whitelist', 'add', '5.6.7.8', '--for', '2h']);
    const run = await p.vidops(['whitelist', 'add', '5.6.7.9', '--as', AGENT]);
    asked = idsIn(run.stdout)[0] ?? '';
    const until = new Date(START.getTime() + 3_600_000).toISOString();
    expect(
      await p.store((s) => s.takeLease('send:whitelist.set', 'another-replica', until, START.toISOString())),
    ).toBe(true);
    const posts = sandbox.requests().filter((r) => r.method === 'POST').length;
    approved = await passingRealTime(() => p.vidops(['approve', asked, '--as', LEAD], 'lena'));
    putBack = await passingRealTime(() => p.vidops(['put-back', boxed, '--as', AGENT]));
    whitelistPosts = sandbox.requests().filter((r) => r.method === 'POST').length - posts;
  });
  afterAll(() => p.close());

  test('the lead approves while the list is busy: exit 1, "Not sent … 20 s", nothing posted', () => {
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain(
      'Not sent: another change of the same list was being sent for 20 s. Nothing was changed by this one; it can be tried again in a minute.',
    );
    expect(whitelistPosts).toBe(0);
    expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
  });

  // Was a defect: as for the Extend (src/cli/run.ts:782-792): "Approved R-…, Update whitelist:
  // whitelist: failed (request R-…): Not sent: …".
  test('the lead in a hurry reads "not sent" on the headline, not "failed"', () => {
    expect(approved.stderr).not.toContain(': failed (request');
  });

  test('the agent puts a time-boxed change back while the list is busy: nothing sent, told when it retries', () => {
    expect(putBack.code).toBe(1);
    expect(putBack.stdout).toContain(`${boxed}:`);
    expect(putBack.stdout).toContain(
      'Last error: Not sent: another change of the same list was being sent for 20 s.',
    );
    expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
  });

  // Was a defect: docs/commands.md says exit 1 is "refused or failed (message on stderr)", but
  // `vidops put-back` exits 1 with an empty stderr when the put-back is retrying: putBackCommand
  // (src/cli/run.ts:734-735) prints the report on stdout only; its help (src/cli/args.ts,
  // 'put-back') says nothing of exit codes either.
  test('a script runs put-back and finds exit 1: the reason is on stderr as documented', () => {
    expect(putBack.code).toBe(1);
    expect(putBack.stderr).toContain('Not sent');
  });

  // Was a defect: `vidops requests` never showed a change's window or put-back (Slack's /vidops
  // requests did): a change whose put-back was failing and retrying read "[succeeded] already
  // approved … and executed", like a permanent change.
  test('the agent lists requests: the time-boxed change says its put-back is retrying', async () => {
    const listed = await p.vidops(['requests', '--as', AGENT]);
    const line = lineOf(listed.stdout, boxed);
    expect(line).toMatch(/put back|retrying|goes back/i);
  });
});

describe('hostile reasons, windows and IDs', () => {
  let p: Place;
  let change: string;

  beforeAll(async () => {
    p = await place();
    change = await askedAndApproved(p, ['protect', 'set', 'preventZoom=true', '--for', '2h']);
  });
  afterAll(() => p.close());

  const HOSTILE = `fine\nline2 ${ESC}[2J${ESC}[31mAPPROVED${ESC}[0m \u202eevil\u202c, "q"`;

  // Was a defect: `vidops requests` prints a reason's escape sequences and line breaks raw: a requester's
  // `--reason` clears the lead's screen, paints "APPROVED" red, and splits the one line per
  // request that scripts read. requestLine (src/cli/format.ts:209) passes the reason through
  // shownOrNull, which drops only bidi controls; audit tail replaces C0/C1 controls
  // (src/views/audit-post.ts CONTROL) and folds whitespace.
  test('an agent asks with a reason holding escape codes and a newline: requests prints one clean line', async () => {
    const asked = await p.vidops(['extend', change, '--for', '4h', '--as', AGENT, '--reason', HOSTILE]);
    expect(asked.code).toBe(0);
    const listed = await p.vidops(['requests', '--all']);
    expect(listed.stdout).not.toContain(ESC);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 2);
  });

  test('the same reason in audit tail: one line, no escape code, no loose bidi control', async () => {
    const tail = await p.vidops(['audit', 'tail', '-n', '50']);
    expect(tail.code).toBe(0);
    expect(tail.stdout).not.toContain(ESC);
    expect(tail.stdout).not.toMatch(LOOSE_BIDI);
    for (const line of tail.stdout.trimEnd().split('\n')) expect(line).toMatch(/^#\d+ {2}/);
  });

  test('a 5000-character reason on extend is taken, and audit tail cuts it', async () => {
    const asked = await p.vidops([
      'extend',
      change,
      '--for',
      '3h',
      '--as',
      AGENT,
      '--reason',
      'x'.repeat(5000),
    ]);
    expect(asked.code).toBe(0);
    const tail = await p.vidops(['audit', 'tail', '-n', '50']);
    const line = tail.stdout.split('\n').find((l) => l.includes('xxxx')) ?? '';
    expect(line.length).toBeLessThan(1000);
    expect(line).toContain('…');
  });

  test.each([
    ['', '“” is neither a duration'],
    ['1h1h', '“1h1h” is neither a duration'],
    ['2 h', '“2 h” is neither a duration'],
  ])('extend --for %j is refused with its reason and asks for nothing', async (window, why) => {
    const before = (await p.store((s) => s.listRequests({ limit: 500 }))).length;
    const run = await p.vidops(['extend', change, `--for=${window}`, '--as', AGENT]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(why);
    expect((await p.store((s) => s.listRequests({ limit: 500 }))).length).toBe(before);
  });

  test('extend --for with a bidi override: read as the window it holds, said without the override', async () => {
    const run = await p.vidops(['extend', change, '--for', '\u202e2h', '--as', AGENT]);
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(LOOSE_BIDI);
    const tail = await p.vidops(['audit', 'tail', '-n', '1']);
    expect(tail.stdout).toContain(`for 2 hours (extends ${change})`);
    expect(tail.stdout).not.toMatch(LOOSE_BIDI);
  });

  test('extend with no --for is a usage error (exit 2) naming --for', async () => {
    const run = await p.vidops(['extend', change, '--as', AGENT]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--for');
  });

  test('an ID in lower case and without R- is read as the request', async () => {
    const run = await p.vidops(['extend', change.slice(2).toLowerCase(), '--for', '۵h', '--as', AGENT]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('waiting for 1 lead approval');
  });

  // Was a defect: a request ID typed with Persian digits (a Persian keyboard) is "not a request ID" on
  // the command line, though --for, delete confirmations and Slack's grammar read Persian digits:
  // requestIdOf (src/cli/run.ts:715-717) does not normalizeDigits before normalizeRequestId.
  test('a Persian agent types a request ID with Persian digits', async () => {
    // R-7K2M9QXA (the docs' example) as a Persian keyboard types it: read, then found to name no request.
    const run = await p.vidops(['extend', 'R-۷K۲M۹QXA', '--for', '1h', '--as', AGENT]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('is not a request ID');
    expect(run.stderr).toContain('R-7K2M9QXA');
  });
});
