import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHasher, GENESIS_HASH, verifyChain } from '../src/core/audit-chain.js';
import {
  formatCheckpointFile,
  parseCheckpoint,
  signCheckpoint,
  verifyCheckpoints,
} from '../src/core/checkpoint.js';
import { canonicalJson } from '../src/core/json.js';
import type { AuditEvent, NewAuditEvent } from '../src/core/model.js';
import {
  formatVerifierKey,
  generateSignerKey,
  parseNote,
  parseVerifierKey,
  type SignerKey,
  verifierKeyOf,
  verifyNote,
} from '../src/core/signed-note.js';

/**
 * The standalone verifier (tools/verify-audit.mjs) run as compliance runs it, a child process on
 * files, against the same fixtures as the core checks (verifyChain, then verifyCheckpoints): both
 * must give the same verdict, and name a checkpoint's problem in the same words.
 * @see docs/audit-checkpoints.md, "The standalone verifier"
 */

const TOOL = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'tools', 'verify-audit.mjs');
const ORIGIN = 'vidops/test';

/** Events with text canonical JSON must get exactly right: Persian, escapes, odd numbers, unsorted keys. */
function eventContent(seq: number): NewAuditEvent {
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    // The follow-up kinds (reminded, escalated, expiry-warned) verify like every other event.
    type:
      seq % 3 === 0
        ? 'succeeded'
        : ((['requested', 'reminded', 'escalated', 'expiry-warned'] as const)[seq % 4] ?? 'requested'),
    at: new Date(Date.UTC(2026, 10, 21, 10, 0, seq)).toISOString(),
    actor:
      seq % 2 === 0
        ? { id: 'U0AGENT', name: 'رضا' }
        : { id: 'cli:ops', name: 'cli:ops', via: { kind: 'cli', osUser: 'ops' } },
    operation: 'viewer.unblock',
    target: `0912${String(seq).padStart(7, '0')}`,
    params: {
      zeta: [1, 1e21, 0.1, -0, 2.5e-7, null, true],
      alpha: { é: 'quote " backslash \\ bell \u0007 line\u2028sep', A: '🎬 ویدیو', _: '' },
      Beta: seq,
      // Integer-like keys: JavaScript lists them first in numeric order, canonical JSON sorts them as text.
      '10': 'ten',
      '9': 'nine',
    },
    requestId: seq % 4 === 0 ? null : `req-${seq}`,
    outcome: seq % 3 === 0 ? { status: 200, body: { ok: true, message: 'انجام شد' } } : null,
    error: null,
  };
}

function chainOf(
  count: number,
  options: { hmacKey?: string; edit?: (seq: number) => Partial<NewAuditEvent> } = {},
) {
  const hash = createHasher(options.hmacKey);
  const out: AuditEvent[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= count; seq += 1) {
    const unhashed = { ...eventContent(seq), ...options.edit?.(seq), seq, prevHash };
    const event = { ...unhashed, hash: hash(unhashed) };
    out.push(event);
    prevHash = event.hash;
  }
  return out;
}

function checkpointOf(events: AuditEvent[], size: number, time: string, signer: SignerKey, origin = ORIGIN) {
  const head = size === 0 ? GENESIS_HASH : (events[size - 1] as AuditEvent).hash;
  return signCheckpoint({ origin, size, head, time }, [signer]);
}

interface Fixture {
  events: AuditEvent[];
  notes: string[];
  keys: SignerKey[];
  hmacKey?: string;
}

interface Verdict {
  ok: boolean;
  /** The first problem, as a sentence. */
  problem: string | null;
}

/** The core's verdict, in the standalone verifier's order: the notes, the chain, the log against them. */
async function coreVerdict(f: Fixture): Promise<Verdict> {
  const keys = f.keys.map(verifierKeyOf);
  const checkpoints = await verifyCheckpoints(f.events, f.notes, keys, { origin: ORIGIN });
  const noteProblem = checkpoints.problems.find(
    (p) => p.kind !== 'missing-events' && p.kind !== 'head-mismatch',
  );
  if (noteProblem) return { ok: false, problem: noteProblem.message };
  const chain = await verifyChain(f.events, createHasher(f.hmacKey));
  if (!chain.ok) return { ok: false, problem: chain.reason };
  const first = checkpoints.problems[0];
  return first ? { ok: false, problem: first.message } : { ok: true, problem: null };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runTool(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [TOOL, ...args], (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      done({ code, stdout, stderr });
    });
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verify-audit-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let fixtureCount = 0;
/** Writes the fixture's files as vidops would export them; the arguments that point the tool at them. */
function write(f: Fixture, extra: { keyFiles?: SignerKey[] } = {}): string[] {
  fixtureCount += 1;
  const base = join(dir, `f${fixtureCount}`);
  // What `vidops audit export --format jsonl` writes: each event's canonical JSON and a newline.
  writeFileSync(`${base}.events.jsonl`, f.events.map((e) => `${canonicalJson(e)}\n`).join(''));
  writeFileSync(`${base}.checkpoints.txt`, formatCheckpointFile(f.notes));
  const args = ['--events', `${base}.events.jsonl`, '--checkpoints', `${base}.checkpoints.txt`];
  (extra.keyFiles ?? f.keys).forEach((key, i) => {
    writeFileSync(`${base}.key${i}.pub`, `${formatVerifierKey(verifierKeyOf(key))}\n`);
    args.push('--pubkey', `${base}.key${i}.pub`);
  });
  if (f.hmacKey !== undefined) {
    writeFileSync(`${base}.hmac`, `${f.hmacKey}\n`);
    args.push('--hmac-key-file', `${base}.hmac`);
  }
  return args;
}

/** Runs both verifiers on the fixture and checks they agree; the verdict. */
async function bothVerdicts(f: Fixture): Promise<{ verdict: Verdict; run: Run }> {
  const verdict = await coreVerdict(f);
  const run = await runTool(write(f));
  if (verdict.ok) {
    expect(run).toMatchObject({ code: 0, stderr: '' });
  } else {
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`verify-audit: FAILED: ${verdict.problem}.\n`);
  }
  return { verdict, run };
}

const signer = generateSignerKey(ORIGIN);

describe('compliance runs the standalone verifier on an export and its checkpoints', () => {
  const events = chainOf(80);
  const notes = [
    checkpointOf(events, 20, '2026-11-20T10:00:00Z', signer),
    checkpointOf(events, 67, '2026-11-22T10:00:00Z', signer),
    checkpointOf(events, 45, '2026-11-21T10:00:00Z', signer),
  ];

  it('an untouched log with events after the newest checkpoint verifies, and both say so', async () => {
    const { verdict, run } = await bothVerdicts({ events, notes, keys: [signer] });
    expect(verdict.ok).toBe(true);
    expect(run.stdout).toContain('ok: 80 events, every hash and link holds; 3 checkpoints');
    expect(run.stdout).toContain('the newest of 2026-11-22T10:00:00Z covers 67 events');
    expect(run.stdout).toContain('events #68 to #80 came after the newest checkpoint');
  });

  it('an export written with another key order and spacing still verifies: hashes are of the content', async () => {
    const args = write({ events, notes, keys: [signer] });
    const reordered = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reordered);
      if (value === null || typeof value !== 'object') return value;
      const entries = Object.entries(value as Record<string, unknown>).reverse();
      return Object.fromEntries(entries.map(([k, v]) => [k, reordered(v)]));
    };
    writeFileSync(
      args[1] as string,
      events.map((e) => `${JSON.stringify(reordered(e), null, 0).replace(/,"/g, ', "')}\n`).join(''),
    );
    const run = await runTool(args);
    expect(run).toMatchObject({ code: 0, stderr: '' });
  });

  it('the newest event truncated', async () => {
    const { verdict } = await bothVerdicts({ events: events.slice(0, 66), notes, keys: [signer] });
    expect(verdict.problem).toBe(
      'events #67… are missing: checkpoint of 2026-11-22T10:00:00Z covers 67 events, the log holds 66',
    );
  });

  it('many newest events truncated', async () => {
    const { verdict } = await bothVerdicts({ events: events.slice(0, 30), notes, keys: [signer] });
    expect(verdict.problem).toBe(
      'events #31… are missing: checkpoint of 2026-11-21T10:00:00Z covers 45 events, the log holds 30',
    );
  });

  it('a checkpoint edited after signing', async () => {
    const edited = [...notes];
    edited[1] = (notes[1] as string).replace('\n67\n', '\n66\n');
    const { verdict } = await bothVerdicts({ events, notes: edited, keys: [signer] });
    expect(verdict.problem).toBe(
      `checkpoint of 2026-11-22T10:00:00Z was signed by key ${ORIGIN}+${signer.keyId} but the signature does not hold`,
    );
  });

  it('a checkpoint signed by another key', async () => {
    const stranger = generateSignerKey(ORIGIN);
    const { verdict } = await bothVerdicts({
      events,
      notes: [...notes, checkpointOf(events, 80, '2026-11-23T10:00:00Z', stranger)],
      keys: [signer],
    });
    expect(verdict.problem).toBe(
      `checkpoint of 2026-11-23T10:00:00Z is not signed by any known key (it names ${ORIGIN}+${stranger.keyId})`,
    );
  });

  it('an export whose event was edited without fixing its hash', async () => {
    const edited = events.map((e) => (e.seq === 33 ? { ...e, target: '09120000000' } : e));
    const { verdict } = await bothVerdicts({ events: edited, notes, keys: [signer] });
    expect(verdict.problem).toBe('event #33 was altered (its hash does not match its content)');
  });

  it('an export rewritten with every hash recomputed: only the checkpoints catch it', async () => {
    const rewritten = chainOf(80, { edit: (seq) => (seq === 33 ? { target: '09120000000' } : {}) });
    const { verdict } = await bothVerdicts({ events: rewritten, notes, keys: [signer] });
    expect(verdict.problem).toMatch(
      /^checkpoint of 2026-11-21T10:00:00Z says event #45 has hash [0-9a-f]{12} but the log's event #45 has hash [0-9a-f]{12}$/,
    );
  });

  it('an event removed from the middle of the export', async () => {
    const { verdict } = await bothVerdicts({
      events: events.filter((e) => e.seq !== 50),
      notes,
      keys: [signer],
    });
    expect(verdict.problem).toBe('event #51 follows #49: events are missing');
  });

  it("another deployment's checkpoint signed with this deployment's key", async () => {
    const { verdict } = await bothVerdicts({
      events,
      notes: [checkpointOf(events, 10, '2026-11-20T10:00:00Z', signer, 'vidops/staging')],
      keys: [signer],
    });
    expect(verdict.problem).toBe(
      'checkpoint of 2026-11-20T10:00:00Z is of the log "vidops/staging", not "vidops/test"',
    );
  });

  describe('after a key rotation', () => {
    const oldKey = generateSignerKey(ORIGIN);
    const newKey = generateSignerKey(ORIGIN);
    const rotated = [
      checkpointOf(events, 20, '2026-11-20T10:00:00Z', oldKey),
      checkpointOf(events, 45, '2026-11-21T10:00:00Z', oldKey),
      checkpointOf(events, 80, '2026-11-22T10:00:00Z', newKey),
    ];

    it('both keys listed: old and new checkpoints hold', async () => {
      const { verdict, run } = await bothVerdicts({ events, notes: rotated, keys: [newKey, oldKey] });
      expect(verdict.ok).toBe(true);
      expect(run.stdout).toContain(`(signed by ${ORIGIN}+${newKey.keyId})`);
    });

    it('only the new key listed: the old checkpoints fail', async () => {
      const { verdict } = await bothVerdicts({ events, notes: rotated, keys: [newKey] });
      expect(verdict.problem).toBe(
        `checkpoint of 2026-11-20T10:00:00Z is not signed by any known key (it names ${ORIGIN}+${oldKey.keyId})`,
      );
    });
  });

  describe('a deployment with AUDIT_HMAC_KEY', () => {
    const hmacKey = 'the deployment audit key';
    const keyed = chainOf(12, { hmacKey });
    const keyedNotes = [checkpointOf(keyed, 12, '2026-11-22T10:00:00Z', signer)];

    it('verifies with the key file', async () => {
      const { verdict } = await bothVerdicts({ events: keyed, notes: keyedNotes, keys: [signer], hmacKey });
      expect(verdict.ok).toBe(true);
    });

    it('fails at the first event without it', async () => {
      const { verdict } = await bothVerdicts({ events: keyed, notes: keyedNotes, keys: [signer] });
      expect(verdict.problem).toBe('event #1 was altered (its hash does not match its content)');
    });
  });
});

describe('the standalone verifier refuses what it cannot check', () => {
  const events = chainOf(5);
  const notes = [checkpointOf(events, 5, '2026-11-22T10:00:00Z', signer)];

  it('exits 2 with the usage for missing arguments, unknown flags and unreadable files', async () => {
    const args = write({ events, notes, keys: [signer] });
    for (const bad of [
      [],
      args.slice(0, 4),
      [...args, '--verbose'],
      [...args.slice(0, 1), join(dir, 'nowhere.jsonl'), ...args.slice(2)],
    ]) {
      const run = await runTool(bad);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('usage: node tools/verify-audit.mjs');
    }
  });

  it('exits 2 for a public key file that holds no key', async () => {
    const args = write({ events, notes, keys: [signer] });
    const bad = join(dir, 'bad.pub');
    writeFileSync(bad, 'vidops/test+00000000+AAAA\n');
    const run = await runTool([...args, '--pubkey', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the --pubkey file ${bad} does not hold an Ed25519 key`);
  });

  it('fails on an export that does not start at event #1 (a --since export)', async () => {
    const run = await runTool(write({ events: events.slice(2), notes, keys: [signer] }));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the export starts at event #3, not #1');
  });

  it('fails on an empty checkpoints file: nothing vouches for the log', async () => {
    const run = await runTool(write({ events, notes: [], keys: [signer] }));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'verify-audit: FAILED: the checkpoints file holds no checkpoint: nothing vouches for the log.\n',
    );
  });

  it('honours --origin when given', async () => {
    const args = write({ events, notes, keys: [signer] });
    expect((await runTool([...args, '--origin', ORIGIN])).code).toBe(0);
    const other = await runTool([...args, '--origin=vidops/prod']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('is of the log "vidops/test", not "vidops/prod"');
  });
});

describe('the standalone verifier stands alone', () => {
  it('imports only node:crypto, node:fs and node:readline', () => {
    const source = readFileSync(TOOL, 'utf8');
    const specifiers = [...source.matchAll(/^import\s[^;]*?\sfrom\s+'([^']+)';/gm)].map((m) => m[1]);
    expect(new Set(specifiers)).toEqual(new Set(['node:crypto', 'node:fs', 'node:readline']));
    expect(source).not.toMatch(/\b(?:require|import)\s*\(/);
  });
});

describe('the documentation', () => {
  it('shows a checkpoint that verifies with the public key it shows', () => {
    const doc = readFileSync(resolve(dirname(TOOL), '..', 'docs', 'audit-checkpoints.md'), 'utf8');
    const note = /```text\n(vidops\/[\s\S]*?\n)```/.exec(doc)?.[1];
    const key = /`(vidops\/tehran-1\+[0-9a-f]{8}\+\S+)`/.exec(doc)?.[1];
    expect(note).toBeDefined();
    expect(key).toBeDefined();
    const verdict = verifyNote(parseNote(note as string), [parseVerifierKey(key as string)]);
    expect(verdict.ok).toBe(true);
    expect(verdict.ok && parseCheckpoint(verdict.text)).toMatchObject({
      origin: 'vidops/tehran-1',
      size: 67,
    });
  });
});
