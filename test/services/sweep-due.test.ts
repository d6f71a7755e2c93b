import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { createHasher } from '../../src/core/audit-chain.js';
import type { OperationRequest } from '../../src/core/model.js';
import { buildPolicy } from '../../src/core/policy.js';
import { sealKeyOf } from '../../src/core/seal.js';
import { DEMO } from '../../src/sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { SWEEP_PAGE } from '../../src/services/context.js';
import { createOperations } from '../../src/services/operations.js';
import { announce } from '../../src/services/sweeps.js';
import type { Operations } from '../../src/services/types.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sandboxClient } from '../sandbox-client.js';
import { at, LEAD, newRequest } from '../store/fixtures.js';

/**
 * Sweeps read what is due by when it is due (docs/benchmarks.md, "Aging"): what fell due is done
 * in the first pass however many newer requests wait, and a backlog larger than a page is all
 * done in one pass.
 */

const MINUTE = 60_000;
let sandbox: Sandbox;
let dir: string;
let store: Store;
let ops: Operations;
let close: () => void;
let now: number;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, extras: false });
});
afterAll(() => sandbox.close());

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vidops-sweep-due-'));
  store = await openStore(`sqlite:${join(dir, 'v.db')}`, { hash: createHasher() });
  const client = sandboxClient(sandbox.url);
  close = () => client.close();
  now = Date.parse(at(0));
  ops = createOperations({
    store,
    client,
    policy: buildPolicy({ leads: [LEAD.id] }),
    directory: { groupsOf: async () => [], kindOf: async () => 'person' },
    clock: () => new Date(now),
    sealKey: sealKeyOf(DEMO.secretKey),
  });
});
afterEach(async () => {
  close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function create(n: number, make: (i: number) => Partial<OperationRequest>): Promise<void> {
  for (let i = 0; i < n; i += 1) await store.createRequest(newRequest(make(i)), []);
}

/** Counts the rows the sweeps read through `listDue` from now on. */
function rowsRead(): () => number {
  let rows = 0;
  const listDue = store.listDue.bind(store);
  jest.spyOn(store, 'listDue').mockImplementation(async (query) => {
    const page = await listDue(query);
    rows += page.length;
    return page;
  });
  return () => rows;
}

describe('sweeps do what fell due, whatever else waits', () => {
  test('a request waiting two hours gets its reminder though 600 newer requests wait too; the next pass reads nothing', async () => {
    await create(1, () => ({ id: 'R-OLDEST' }));
    await create(600, (i) => ({ id: `R-NEWER-${i}`, createdAt: at(60 + i / 100), updatedAt: at(60) }));
    now = Date.parse(at(121));

    const first = await ops.sweepFollowUps();

    expect(first.reminded).toBe(1);
    expect((await store.getRequest('R-OLDEST'))?.followUp?.remindedAt).toBe(at(121));
    now += MINUTE;
    const read = rowsRead();
    expect(await ops.sweepFollowUps()).toEqual({ reminded: 0, escalated: 0, warned: 0, rerendered: 0 });
    expect(read()).toBe(0);
  });

  test('a request whose reminder keeps failing does not hold back the reminders of the others', async () => {
    await create(1, () => ({ id: 'R-BROKEN' }));
    await create(3, (i) => ({ id: `R-FINE-${i}`, createdAt: at(1 + i) }));
    const transition = store.transition.bind(store);
    jest.spyOn(store, 'transition').mockImplementation(async (id, ...rest) => {
      if (id === 'R-BROKEN') throw new Error('disk full');
      return transition(id, ...rest);
    });
    now = Date.parse(at(125));

    for (let pass = 0; pass < 2; pass += 1) {
      expect((await ops.sweepFollowUps()).reminded).toBe(pass === 0 ? 3 : 0);
    }
    expect((await store.getRequest('R-BROKEN'))?.followUp?.remindedAt ?? null).toBeNull();
  });

  test(`${SWEEP_PAGE * 2 + 50} requests past their expiry, more than a page, are all expired in one sweep`, async () => {
    const n = SWEEP_PAGE * 2 + 50;
    await create(n, (i) => ({ expiresAt: at(10 + (i % 7)) }));
    await create(300, () => ({ expiresAt: at(24 * 60) }));
    now = Date.parse(at(30));

    expect(await ops.expireDue()).toHaveLength(n);
    expect(await ops.expireDue()).toEqual([]);
  });

  test('approval messages missing for 300 requests made while Slack was down are all queued in one pass', async () => {
    await create(300, (i) => ({ id: `R-UNPOSTED-${i}` }));
    await create(50, () => ({ slack: { channel: 'C0APPROVALS', ts: '1.0' } }));
    now = Date.parse(at(5));
    const queued = jest.fn();

    expect(await announce({ store, clock: () => new Date(now), queued })).toBe(300);
    expect(queued).toHaveBeenCalledTimes(1);
  });

  test('a break-glass change unreviewed past its review time is reminded though 250 newer ones are not yet due', async () => {
    const glass = (reviewDueAt: string): Partial<OperationRequest> => ({
      state: 'succeeded',
      breakGlass: { by: LEAD, at: at(0), reason: 'exam', reviewDueAt, overdueAt: null, review: null },
    });
    await create(1, () => ({ id: 'R-OVERDUE', ...glass(at(60)) }));
    await create(250, (i) => ({ createdAt: at(30 + i / 100), ...glass(at(24 * 60)) }));
    now = Date.parse(at(61));

    expect((await ops.remindBreakGlass()).map((r) => r.id)).toEqual(['R-OVERDUE']);
    const read = rowsRead();
    expect(await ops.remindBreakGlass()).toEqual([]);
    expect(read()).toBe(0);
  });

  test('a request left executing by a dead process is taken over though 600 newer ones are executing now', async () => {
    await create(1, () => ({ id: 'R-STALE', state: 'executing' }));
    await create(600, (i) => ({ state: 'executing', createdAt: at(60 + i / 100), updatedAt: at(60) }));
    now = Date.parse(at(61));

    const { unknown } = await ops.resumeInterrupted();

    expect(unknown.map((r) => r.id)).toEqual(['R-STALE']);
  });
});
