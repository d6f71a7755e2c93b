import { sandboxClient } from '../../test/sandbox-client.js';
import { createHasher, verifyChain } from '../core/audit-chain.js';
import type { Actor, OperationRequest } from '../core/model.js';
import { buildPolicy } from '../core/policy.js';
import { sealKeyOf } from '../core/seal.js';
import { undoNow } from '../core/time-box.js';
import { DEMO } from '../sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../sandbox/server.js';
import { openStore } from '../store/index.js';
import { createOperations } from './operations.js';
import type { Operations, PrepareInput } from './types.js';

/**
 * A Revert of a folder, file or playlist edit is planned again just before it is sent: when the
 * thing was edited again after the Revert was asked, it is not sent, and says what changed.
 * @see docs/time-boxed.md, "Revert"
 */

const hash = createHasher();
const ava: Actor = { id: 'U0AGENT1', name: 'Ava' };
const bob: Actor = { id: 'U0AGENT2', name: 'Bob' };
const lee: Actor = { id: 'U0LEAD1', name: 'Lee' };

let sandbox: Sandbox;
beforeAll(async () => {
  // The edit's old values come from the documented look-up extras.
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

async function approvedBy(ops: Operations, by: Actor, input: PrepareInput | Promise<unknown>) {
  const prepared = input instanceof Promise ? await input : await ops.prepare(by, input as PrepareInput);
  const asked = await ops.submit(by, prepared as Awaited<ReturnType<Operations['prepare']>>);
  if (asked.kind !== 'pending') throw new Error(`expected pending, got ${asked.kind}`);
  return asked.request;
}

it('an edit done by an earlier build, its undo stored as `edit`, reads as the same undo of a record', () => {
  const stored = {
    resource: 'file',
    id: DEMO.files.lecture3,
    before: { title: 'A' },
    after: { title: 'B' },
  } as const;
  expect(undoNow({ kind: 'edit', ...stored })).toEqual({ kind: 'record', ...stored });
});

const folderTitle = (id: string) => sandbox.state().folders.find((f) => f._id === id)?.title;

// Was a defect (issue 35, 8): the Revert was sent over the title set after it was asked.
it('a Revert of a folder edit is not sent when the folder was edited again after it was asked', async () => {
  sandbox.reset();
  const store = await openStore('sqlite::memory:', { hash });
  const client = sandboxClient(sandbox.url);
  const ops = createOperations({
    store,
    client,
    policy: buildPolicy({ leads: [lee.id], fileName: 'policy.yaml' }),
    directory: { groupsOf: async () => [] },
    clock: () => new Date('2026-11-26T08:00:00.000Z'),
    sealKey: sealKeyOf(DEMO.secretKey),
    timeZone: 'Asia/Tehran',
  });
  const id = DEMO.folders.lectures;
  const approve = async (request: OperationRequest) => {
    const done = await ops.approve(request.id, lee);
    if (done.kind !== 'executed') throw new Error(`expected executed, got ${done.kind}`);
    return done.request;
  };
  await approve(await approvedBy(ops, ava, { kind: 'folder.edit', bucketId: id, title: 'Lectures 2026' }));
  const edit = (await store.listRequests()).find((r) => r.state === 'succeeded');
  // Recorded under a neutral name, so another operation's undo of a record is not called an edit.
  expect(edit?.undo).toMatchObject({ kind: 'record', resource: 'folder', id });
  const revert = await approvedBy(ops, ava, ops.prepareRevert(edit?.id ?? '', ava));
  await approve(await approvedBy(ops, bob, { kind: 'folder.edit', bucketId: id, title: 'Lectures 2027' }));
  const done = await approve(revert);
  expect(done.state).toBe('failed');
  expect(done.error).toMatchObject({ name: 'NotSent' });
  expect(done.error?.message).toContain('title');
  expect(folderTitle(id)).toBe('Lectures 2027');
  const verdict = await verifyChain(store.iterateAudit(), hash);
  client.close();
  await store.close();
  expect(verdict).toMatchObject({ ok: true });
});
