import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHasher, verifyChain } from '../../src/core/audit-chain.js';
import { sealKeyOf } from '../../src/core/seal.js';
import { DEMO, type FaultRule, type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { storeSupportMemory } from '../../src/services/method-memory.js';
import { createOperations } from '../../src/services/operations.js';
import type { PrepareInput } from '../../src/services/types.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sandboxClient } from '../sandbox-client.js';
import { killDuringDelete } from './crash-delete-harness.js';
import {
  CRASH_AGENT,
  CRASH_LEAD,
  CRASH_SETTLER,
  type CrashPoint,
  crashPolicy,
} from './crash-delete-worker.js';

/**
 * A process running a delete is SIGKILLed at each point of its execution; after a restart the
 * sweeper must leave the request `unknown` (never send a second DELETE by itself), and a lead
 * settles it truthfully: one DELETE in all, or a second one (Send again) recorded as "already
 * deleted" when the first had taken effect.
 * @see docs/architecture.md, "Approvals" and "Scale"
 */

const dir = mkdtempSync(join(tmpdir(), 'vidops-crash-delete-'));
const hash = createHasher();
const SETTLER = CRASH_SETTLER;

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let sandbox: Sandbox;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterEach(async () => {
  await sandbox.close();
});

const TARGETS = {
  folder: {
    input: { kind: 'folder.delete', bucketId: DEMO.folders.lectures },
    path: '/v1/storage/bucket',
    exists: () => sandbox.state().folders.some((f) => f._id === DEMO.folders.lectures),
  },
  file: {
    input: { kind: 'file.delete', fileId: DEMO.files.episode3 },
    path: '/v1/storage/bucket/file',
    exists: () => sandbox.state().files.some((f) => f._id === DEMO.files.episode3),
  },
  playlist: {
    input: { kind: 'playlist.delete', playlistId: DEMO.playlists.gettingStarted },
    path: '/v1/playlist',
    exists: () => sandbox.state().playlists.some((p) => p._id === DEMO.playlists.gettingStarted),
  },
} as const satisfies Record<string, { input: PrepareInput; path: string; exists: () => boolean }>;
type Target = keyof typeof TARGETS;

/** The services as a restarted process builds them; every `executing` request counts as stale. */
function restarted(store: Store) {
  const client = sandboxClient(sandbox.url, {
    timeoutMs: 5000,
    // As the bot does: what the service was seen to support survives the restart in the store.
    supportMemory: storeSupportMemory(store, sandbox.url),
  });
  const ops = createOperations({
    store,
    client,
    policy: crashPolicy(),
    directory: { groupsOf: async () => [] },
    clock: () => new Date(),
    sealKey: sealKeyOf(DEMO.secretKey),
    // In production the sweep comes two minutes after the process died, and "Check now" a minute
    // after that at the earliest; here both come at once, after the sandbox is done with the DELETE.
    staleExecutionMs: 0,
    checkGraceMs: 0,
  });
  return { ops, client };
}

function deletes(path: string) {
  return sandbox.requests().filter((r) => r.method === 'DELETE' && r.path === path);
}

/**
 * Resolves once every DELETE the sandbox received has been carried out (the target is gone) or
 * answered (a 404, or a request that never left): what the service did no longer changes.
 */
async function serviceSettled(path: string, exists: () => boolean): Promise<void> {
  while (exists() && deletes(path).some((r) => r.status === null)) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * `at-service` holds the answer in the sandbox: with `latencyAfterMs` the delete has taken effect
 * when the worker dies; with `latencyMs` it takes effect only after.
 */
const HOLD: Record<'acted' | 'not-yet', FaultRule> = {
  acted: { method: 'DELETE', latencyAfterMs: 60_000, times: 1 },
  'not-yet': { method: 'DELETE', latencyMs: 300, times: 1 },
};

const CASES: [CrashPoint, Target, 'acted' | 'not-yet' | null, 'send-again' | 'check'][] = [
  ['before-send', 'folder', null, 'send-again'],
  ['before-send', 'file', null, 'check'],
  ['before-send', 'playlist', null, 'send-again'],
  ['at-service', 'folder', 'acted', 'send-again'],
  ['at-service', 'file', 'not-yet', 'send-again'],
  ['at-service', 'playlist', 'acted', 'check'],
  ['after-answer', 'folder', null, 'check'],
  ['after-answer', 'file', null, 'send-again'],
  ['after-answer', 'playlist', null, 'send-again'],
];

describe('a process killed while it runs a delete', () => {
  test.each(CASES)(
    'killed %s of a %s delete (service %s): the sweeper leaves it unknown; %s settles it truthfully',
    async (point, target, hold, way) => {
      const { input, path, exists } = TARGETS[target];
      const databaseUrl = `sqlite:${join(mkdtempSync(join(dir, `${point}-${target}-`)), 'vidops.db')}`;

      // The agent's request, waiting for the lead.
      let store = await openStore(databaseUrl, { hash });
      let life = restarted(store);
      const prepared = await life.ops.prepare(CRASH_AGENT, input);
      const submitted = await life.ops.submit(CRASH_AGENT, prepared);
      if (submitted.kind !== 'pending') throw new Error(`expected pending, got ${submitted.kind}`);
      const requestId = submitted.request.id;
      life.client.close();
      await store.close();

      if (hold !== null) sandbox.setFaults([{ ...HOLD[hold], path }]);
      await killDuringDelete({ databaseUrl, sandbox, requestId, point, path });
      await serviceSettled(path, exists);
      const sentBefore = deletes(path).length;
      expect(sentBefore).toBe(point === 'before-send' ? 0 : 1);
      const applied = sentBefore === 1;
      expect(exists()).toBe(!applied);

      // Restart: the sweeper marks it unknown and sends nothing, however often it runs.
      store = await openStore(databaseUrl, { hash });
      life = restarted(store);
      try {
        expect((await store.getRequest(requestId))?.state).toBe('executing');
        const swept = await life.ops.resumeInterrupted();
        expect(swept.resumed).toEqual([]);
        expect(swept.unknown.map((r) => [r.id, r.state])).toEqual([[requestId, 'unknown']]);
        expect(await life.ops.resumeInterrupted()).toEqual({ resumed: [], unknown: [] });
        expect(deletes(path)).toHaveLength(sentBefore);

        const settled = await life.ops.resolve(requestId, SETTLER, way);
        expect(settled.kind).toBe('resolved');
        const request = await store.getRequest(requestId);
        if (way === 'check') {
          // A look-up, never a DELETE: gone means already deleted, still there means not applied.
          expect(deletes(path)).toHaveLength(sentBefore);
          expect(request).toMatchObject(
            applied
              ? { state: 'succeeded', result: { resolved: 'check', outcome: 'already deleted' } }
              : { state: 'failed', error: { name: 'NotApplied' } },
          );
        } else {
          // One more DELETE: 404 after one that took effect, 200 after one that never left. (The
          // first answer may still be held by the sandbox, its status not yet logged.)
          expect(deletes(path)).toHaveLength(applied ? 2 : 1);
          expect(deletes(path).at(-1)?.status).toBe(applied ? 404 : 200);
          expect(request).toMatchObject({
            state: 'succeeded',
            result: {
              resolved: 'send-again',
              outcome: applied ? 'already deleted' : 'deleted when sent again',
            },
          });
          expect(exists()).toBe(false);
        }

        const events = (await store.listAudit()).filter((e) => e.requestId === requestId);
        expect(events.map((e) => e.type)).toEqual([
          'requested',
          'approved',
          'executing',
          'unknown',
          ...(way === 'send-again' ? ['executing'] : []),
          'resolved',
        ]);
        expect(events.at(-1)?.actor).toEqual(SETTLER);
        expect(events.filter((e) => e.type === 'approved').map((e) => e.actor)).toEqual([CRASH_LEAD]);
        expect(await verifyChain(store.iterateAudit(), hash)).toMatchObject({ ok: true });
      } finally {
        life.client.close();
        await store.close();
      }
    },
    40_000,
  );
});
