/**
 * Child process of the crash test: drives requests through pending → approved → executing →
 * succeeded against a real store until it is killed. Run with
 * `node --import tsx crash-worker.ts <databaseUrl> <dir> <name> [recover-only]`.
 *
 * Files in <dir>, written so the parent can check the store after a SIGKILL at any moment:
 * - `journal-<name>`: "<event type> <request id>" appended only AFTER the commit that wrote it;
 * - `executions-<name>`: "<request id>" appended and fsynced BEFORE executing → succeeded, only
 *   after this process won the compare-and-set into `executing` (the side effect).
 * Each commit also prints a line on stdout, so the parent can kill after a random number of them.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createHasher } from '../../src/core/audit-chain.js';
import type { AuditEventType, NewAuditEvent, OperationRequest, RequestState } from '../../src/core/model.js';
import { openStore } from '../../src/store/index.js';

const [url, dir, name, mode] = process.argv.slice(2);
if (url === undefined || dir === undefined || name === undefined) {
  console.error('usage: crash-worker.ts <databaseUrl> <dir> <name> [recover-only]');
  process.exit(2);
}

const actor = { id: `U0${name.toUpperCase()}`, name: `worker ${name}` };
const journalPath = join(dir, `journal-${name}`);
const executionsPath = join(dir, `executions-${name}`);
const store = await openStore(url, { hash: createHasher() });

function now(): string {
  return new Date().toISOString();
}

function event(request: OperationRequest, type: AuditEventType): NewAuditEvent {
  return {
    id: randomUUID(),
    type,
    at: now(),
    actor,
    operation: request.operation,
    target: request.target,
    params: request.params,
    requestId: request.id,
    outcome: null,
    error: null,
  };
}

function committed(type: AuditEventType, id: string): void {
  appendFileSync(journalPath, `${type} ${id}\n`);
  process.stdout.write('.\n');
}

/** The side effect: recorded durably before the request may be marked succeeded. */
function execute(id: string): void {
  const fd = openSync(executionsPath, 'a');
  try {
    writeSync(fd, `${id}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function move(
  request: OperationRequest,
  state: RequestState,
  type: AuditEventType,
): Promise<OperationRequest | null> {
  const result = await store.transition(request.id, request.version, { state }, now(), [
    event(request, type),
  ]);
  if (result === null) return null;
  committed(type, request.id);
  return result.request;
}

/** Follows the state machine from wherever `request` is; executes only after winning the CAS. */
async function advance(start: OperationRequest): Promise<void> {
  let request: OperationRequest | null = start;
  if (request.state === 'pending') request = await move(request, 'approved', 'approved');
  if (request?.state === 'approved') {
    request = await move(request, 'executing', 'executing');
    if (request === null) return;
    execute(request.id);
    await move(request, 'succeeded', 'succeeded');
  }
}

// Recovery after a kill: requests this worker left half-way continue; one left in `executing`
// may or may not have run, so (as for a non-idempotent operation) it becomes `unknown`.
const open = await store.listRequests({
  requesterId: actor.id,
  states: ['pending', 'approved', 'executing'],
  limit: 10_000,
});
for (const request of open) {
  if (request.state === 'executing') await move(request, 'unknown', 'unknown');
  else await advance(request);
}

if (mode === 'recover-only') {
  await store.close();
  process.exit(0);
}

for (;;) {
  const request: OperationRequest = {
    id: `r-${name}-${randomUUID().slice(0, 8)}`,
    operation: 'viewer.unblock',
    params: { mobileNumber: '09123456789' },
    paramsHash: '0'.repeat(64),
    target: '09123456789',
    preview: null,
    reason: null,
    requester: actor,
    state: 'pending',
    quorum: 1,
    approvals: [],
    decidedBy: null,
    decisionNote: null,
    createdAt: now(),
    expiresAt: null,
    updatedAt: now(),
    result: null,
    error: null,
    slack: null,
    version: 1,
  };
  await store.createRequest(request, [event(request, 'requested')]);
  committed('requested', request.id);
  await advance(request);
}
