import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { VideoClientHandle } from '../../src/client/index.js';
import { verifyChain } from '../../src/core/audit-chain.js';
import type { Actor } from '../../src/core/model.js';
import { buildPolicy, type Policy } from '../../src/core/policy.js';
import { sealKeyOf } from '../../src/core/seal.js';
import { DEMO } from '../../src/sandbox/demo-data.js';
import { type FaultRule, type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createOperations } from '../../src/services/operations.js';
import type { Operations, OperationsDeps } from '../../src/services/types.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sandboxClient } from '../sandbox-client.js';
import { type CONFIG, hash, lee, START, type WHITELIST } from '../services/replicas.js';
import { noteSkipped, schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';

/**
 * The world a model-based test drives: the real services (`createOperations`) of two replicas on
 * one database (a SQLite file, or a PostgreSQL schema), the sandbox as the service, and a clock
 * the test moves. A replica can crash (its store dies at a chosen write) and restart (a new store
 * connection and new services on the same database), as a process would.
 * @see docs/testing.md, "Model-based tests"
 */

// The clock, people, hasher and paths are the service-level race tests' (one cast for both).
export { ava, bob, CONFIG, HOUR, hash, lee, MINUTE, START, WHITELIST } from '../services/replicas.js';

export const kim: Actor = { id: 'U0LEAD2', name: 'Kim' };

export type StoreKind = 'SQLite' | 'PostgreSQL';

/** The seed `npm test` runs from first: the same sequences every time, so a failure is the change's. */
export const FIXED_SEED = 20_261_126;

/**
 * The runs of one model test, one `fc.assert` each, and the verbose report of the failing
 * commands, whose message gives the seed and path to replay:
 * - a replay (`VIDOPS_MODEL_SEED`, with `VIDOPS_MODEL_PATH` as the failure printed them);
 * - a long exploration (`VIDOPS_MODEL_RUNS=N`): N runs from a random seed;
 * - otherwise (`npm test`, CI): `quick` runs from {@link FIXED_SEED}, then a tenth as many from a
 *   random seed, so each run also tries sequences no run tried before.
 * @see docs/testing.md, "Model-based tests"
 */
export function modelRuns<Ts = unknown>(quick: number): fc.Parameters<Ts>[] {
  const seed = Number(process.env.VIDOPS_MODEL_SEED);
  const path = process.env.VIDOPS_MODEL_PATH;
  const asked = Number(process.env.VIDOPS_MODEL_RUNS);
  const runs = Number.isInteger(asked) && asked > 0 ? asked : null;
  const verbose = fc.VerbosityLevel.Verbose;
  if (process.env.VIDOPS_MODEL_SEED && Number.isInteger(seed)) {
    return [{ seed, numRuns: runs ?? quick, verbose, ...(path ? { path } : {}) }];
  }
  if (runs !== null) return [{ numRuns: runs, verbose }];
  return [
    { seed: FIXED_SEED, numRuns: quick, verbose },
    { numRuns: Math.max(1, Math.round(quick / 10)), verbose },
  ];
}

/** Checks `property` over {@link modelRuns}. */
export async function assertModel<Ts>(property: fc.IAsyncProperty<Ts>, quick: number): Promise<void> {
  for (const runs of modelRuns<Ts>(quick)) await fc.assert(property, runs);
}

/** Jest's time limit for a model test: `perRunMs` for each of its runs, ten minutes at least. */
export function timeLimit(quick: number, perRunMs: number): number {
  const runs = modelRuns(quick).reduce((sum, r) => sum + (r.numRuns ?? 100), 0);
  return Math.max(600_000, runs * perRunMs);
}

/**
 * fast-check's settings of `fc.commands`: up to `max` commands, and the `replayPath` a failure
 * printed (`VIDOPS_MODEL_REPLAY`), which a replay of commands needs beside the seed and path.
 */
export function commandsOptions(max: number): fc.CommandsContraints {
  const replayPath = process.env.VIDOPS_MODEL_REPLAY;
  return { maxCommands: max, size: 'max', ...(replayPath ? { replayPath } : {}) };
}

/** A "process" whose store died: every call after `die()` throws, as a killed process writes nothing. */
export class Death extends Error {
  constructor() {
    super('process gone');
    this.name = 'Death';
  }
}

export type CrashPoint = 'before-put-back-create' | 'after-put-back-create';

/** `store`, made to die at a put-back's `createRequest` (before or after the write lands). */
function dyingStore(store: Store, at: CrashPoint): Store {
  let dead = false;
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        if (dead) throw new Death();
        const first = args[0];
        const putBack =
          prop === 'createRequest' &&
          typeof first === 'object' &&
          first !== null &&
          'revertOf' in first &&
          (first as { revertOf?: { kind?: string } }).revertOf?.kind === 'put-back';
        if (!putBack) return fn(...args);
        dead = true;
        if (at === 'before-put-back-create') throw new Death();
        await fn(...args);
        throw new Death();
      };
    },
  });
}

export interface World {
  kind: StoreKind;
  sandbox: Sandbox;
  /** The services of replica 0 and replica 1 (each its own store connection and client). */
  replica(i: 0 | 1): Operations;
  store(): Store;
  now(): Date;
  advance(ms: number): void;
  /** Replica `i` stops and starts again: new store connection, new client, new services. */
  restart(i: 0 | 1): Promise<void>;
  /** A third process on replica 0's database whose store dies at `at`; closed by the next `restart`. */
  dying(at: CrashPoint): Promise<Operations>;
  /** Someone changes the service outside vidops (its own console), through the documented API. */
  serviceSets(path: typeof CONFIG | typeof WHITELIST, body: unknown): Promise<void>;
  /** Arms one fault for the next matching request; `armed()` says whether it is still waiting. */
  fault(rule: FaultRule): void;
  armed(): Promise<boolean>;
  /** Whether the audit chain verifies, from the first event. */
  chainOk(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Registers the test file's hooks (a sandbox of documented endpoints only, temporary files, the
 * PostgreSQL schemas) and gives the store kinds to run on and a way to open a fresh world per run.
 */
export function useModelWorlds(prefix: string, policyText?: string) {
  const tmp = mkdtempSync(join(tmpdir(), `vidops-${prefix}-`));
  const schemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, prefix);
  if (schemas === null) noteSkipped(`${prefix}: the PostgreSQL runs of the model`);
  let sandbox: Sandbox | null = null;
  let files = 0;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, extras: false });
  });
  afterAll(async () => {
    await sandbox?.close();
    await schemas?.dropAll();
    rmSync(tmp, { recursive: true, force: true });
    // A long exploration leaves a PostgreSQL schema per run to drop: more than Jest's 30 s.
  }, 600_000);
  const policy: Policy = buildPolicy({
    leads: [lee.id, kim.id],
    fileName: 'policy.yaml',
    ...(policyText === undefined ? {} : { fileText: policyText }),
  });

  async function open(kind: StoreKind): Promise<World> {
    const box = sandbox;
    if (box === null) throw new Error('the sandbox is not started');
    box.reset();
    files += 1;
    const url =
      kind === 'PostgreSQL' ? (schemas?.url() ?? '') : `sqlite:${join(tmp, `${prefix}-${files}.db`)}`;
    let now = START;
    const clients: VideoClientHandle[] = [];
    const extra: { store: Store; client: VideoClientHandle }[] = [];
    const build = (store: Store, overrides: Partial<OperationsDeps> = {}) => {
      const client = sandboxClient(box.url, { timeoutMs: 2000 });
      clients.push(client);
      return {
        client,
        ops: createOperations({
          store,
          client,
          policy,
          directory: { groupsOf: async () => [], kindOf: async () => 'person' },
          clock: () => now,
          sealKey: sealKeyOf(DEMO.secretKey),
          timeZone: 'Asia/Tehran',
          ...overrides,
        }),
      };
    };
    const openReplica = async () => {
      const store = await openStore(url, { hash });
      const { client, ops } = build(store);
      return { store, client, ops };
    };
    const replicas = [await openReplica(), await openReplica()];
    const shut = async (r: { store: Store; client: VideoClientHandle }) => {
      r.client.close();
      await r.store.close();
    };
    return {
      kind,
      sandbox: box,
      replica: (i) => (replicas[i] ?? replicas[0])?.ops as Operations,
      store: () => (replicas[0] as { store: Store }).store,
      now: () => now,
      advance: (ms) => {
        now = new Date(now.getTime() + ms);
      },
      async restart(i) {
        const old = replicas[i];
        if (old !== undefined) await shut(old);
        for (const e of extra.splice(0)) await shut(e);
        replicas[i] = await openReplica();
      },
      async dying(at) {
        const store = await openStore(url, { hash });
        const { client, ops } = build(dyingStore(store, at));
        extra.push({ store, client });
        return ops;
      },
      async serviceSets(path, body) {
        const answer = await fetch(`${box.url}${path}`, {
          method: 'POST',
          headers: { api_key: DEMO.apiKey, secret_key: DEMO.secretKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!answer.ok) throw new Error(`the service refused its own change: ${answer.status}`);
      },
      fault: (rule) => box.setFaults([{ ...rule, times: 1 }]),
      async armed() {
        const answer = await fetch(`${box.url}/__sandbox/faults`);
        const { rules } = (await answer.json()) as { rules: unknown[] };
        return rules.length > 0;
      },
      async chainOk() {
        const verdict = await verifyChain((replicas[0] as { store: Store }).store.iterateAudit(), hash);
        return verdict.ok;
      },
      async close() {
        for (const r of [...replicas, ...extra.splice(0)]) await shut(r).catch(() => undefined);
        for (const c of clients) c.close();
      },
    };
  }

  const kinds: StoreKind[] = schemas === null ? ['SQLite'] : ['SQLite', 'PostgreSQL'];
  return { kinds, open };
}
