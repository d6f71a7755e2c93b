/**
 * Child process of the delete crash test: the real services, store and client approve one delete
 * request, and stop dead at a chosen point of its execution so that the parent can SIGKILL them
 * there. Run with
 * `node --import tsx crash-delete-worker.ts <databaseUrl> <sandboxUrl> <requestId> <point>`.
 *
 * Points (each announced on stdout as one line, then this process waits to be killed):
 * - `before-send`: `executing` is recorded, the DELETE is not sent ("executing");
 * - `at-service`: the DELETE is being sent; the parent kills once the sandbox has it ("sending");
 * - `after-answer`: the service answered 200, `succeeded` is not recorded ("answered").
 */
import type { Answer, VideoClient } from '../../src/client/index.js';
import { createHasher } from '../../src/core/audit-chain.js';
import { buildPolicy } from '../../src/core/policy.js';
import { sealKeyOf } from '../../src/core/seal.js';
import { DEMO } from '../../src/sandbox/demo-data.js';
import { createOperations } from '../../src/services/operations.js';
import { openStore } from '../../src/store/index.js';
import { sandboxClient } from '../sandbox-client.js';

export const CRASH_POINTS = ['before-send', 'at-service', 'after-answer'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** The people of the crash scenario; the policy is built the same way in both processes. */
export const CRASH_LEAD = { id: 'U0CRASHLEAD', name: 'Lee' };
export const CRASH_AGENT = { id: 'U0CRASHAGENT', name: 'Ava' };
/** The other lead, who settles the outcome after the restart. */
export const CRASH_SETTLER = { id: 'U0CRASHLEAD2', name: 'Kim' };
export const crashPolicy = () => buildPolicy({ leads: [CRASH_LEAD.id, CRASH_SETTLER.id] });

function announce(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Never settles, and keeps the process alive until the parent's SIGKILL arrives. */
function waitForTheKill(): Promise<never> {
  setInterval(() => {}, 1 << 30);
  return new Promise<never>(() => {});
}

/** The client with each delete stopping at `point`. */
function stopping(client: VideoClient, point: CrashPoint): VideoClient {
  const wrap =
    <I>(real: (input: I) => Promise<Answer>) =>
    async (input: I): Promise<Answer> => {
      if (point === 'before-send') {
        announce('executing');
        return waitForTheKill();
      }
      if (point === 'at-service') announce('sending');
      await real(input);
      announce('answered');
      return waitForTheKill();
    };
  return {
    ...client,
    folders: { ...client.folders, delete: wrap(client.folders.delete) },
    files: { ...client.files, delete: wrap(client.files.delete) },
    playlists: { ...client.playlists, delete: wrap(client.playlists.delete) },
  };
}

async function main(): Promise<void> {
  const [url, sandboxUrl, requestId, point] = process.argv.slice(2);
  if (
    url === undefined ||
    sandboxUrl === undefined ||
    requestId === undefined ||
    !CRASH_POINTS.includes(point as CrashPoint)
  ) {
    console.error('usage: crash-delete-worker.ts <databaseUrl> <sandboxUrl> <requestId> <point>');
    process.exit(2);
  }
  const store = await openStore(url, { hash: createHasher() });
  const client = sandboxClient(sandboxUrl, {
    timeoutMs: 30_000,
  });
  const ops = createOperations({
    store,
    client: stopping(client, point as CrashPoint),
    policy: crashPolicy(),
    directory: { groupsOf: async () => [] },
    clock: () => new Date(),
    sealKey: sealKeyOf(DEMO.secretKey),
  });
  await ops.approve(requestId, CRASH_LEAD);
  // Reaching here means the delete never stopped where it should have: the parent reports it.
  console.error('the approval finished without stopping at the crash point');
  process.exit(3);
}

// Imported by the harness for its constants only; run as a script, it does the work.
if (process.argv[1]?.endsWith('crash-delete-worker.ts')) await main();
