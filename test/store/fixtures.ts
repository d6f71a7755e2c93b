import { randomUUID } from 'node:crypto';
import type { NewAuditEvent, OperationRequest } from '../../src/core/model.js';
import type { DueKind, Store } from '../../src/store/store.js';

/** Typed factories for store tests: sensible defaults, overrides per test. */

export const AGENT = { id: 'U0AGENT', name: 'Sara (support)' };
export const LEAD = { id: 'U0LEAD', name: 'Lee (lead)' };

export const T0 = '2026-11-21T10:00:00.000Z';

/** `T0` plus `minutes`, as the injected clock would give it. */
export function at(minutes: number): string {
  return new Date(Date.parse(T0) + minutes * 60_000).toISOString();
}

export function newRequest(overrides: Partial<OperationRequest> = {}): OperationRequest {
  return {
    id: `R-${randomUUID().slice(0, 8).toUpperCase()}`,
    operation: 'folder.delete',
    params: { bucketId: '64b7f0c2e4b0a1b2c3d4e5f6' },
    paramsHash: 'a'.repeat(64),
    target: 'folder "Lectures 2026"',
    preview: {
      kind: 'delete',
      resource: 'folder',
      id: '64b7f0c2e4b0a1b2c3d4e5f6',
      title: 'Lectures 2026',
      filesCount: 12,
    },
    reason: 'customer asked to remove the course',
    requester: AGENT,
    state: 'pending',
    quorum: 1,
    approvals: [],
    decidedBy: null,
    decisionNote: null,
    createdAt: T0,
    expiresAt: at(24 * 60),
    updatedAt: T0,
    result: null,
    error: null,
    slack: null,
    version: 1,
    ...overrides,
  } as OperationRequest;
}

export function newEvent(overrides: Partial<NewAuditEvent> = {}): NewAuditEvent {
  return {
    id: randomUUID(),
    type: 'requested',
    at: T0,
    actor: AGENT,
    operation: 'folder.delete',
    target: 'folder "Lectures 2026"',
    params: { bucketId: '64b7f0c2e4b0a1b2c3d4e5f6' },
    requestId: null,
    outcome: null,
    error: null,
    ...overrides,
  };
}

/** The event a request change records, tied to the request. */
export function eventFor(
  request: OperationRequest,
  type: NewAuditEvent['type'],
  overrides: Partial<NewAuditEvent> = {},
): NewAuditEvent {
  return newEvent({
    type,
    operation: request.operation,
    target: request.target,
    params: request.params,
    requestId: request.id,
    ...overrides,
  });
}

/** Collects an async iterable (the store's audit stream) into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The first page (up to 1,000) of what a sweep of `kind` finds due by `by`. */
export async function dueBy(store: Store, by: string, kind: DueKind = 'expiry'): Promise<OperationRequest[]> {
  return (await store.listDue({ kind, by, limit: 1_000 })).map((due) => due.request);
}
