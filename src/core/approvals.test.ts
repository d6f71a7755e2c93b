import { createHash } from 'node:crypto';
import { stateEnglish } from '../i18n/messages/errors-en.js';
import { messageOf } from '../i18n/said.js';
import {
  approve,
  cancel,
  expire,
  fail,
  markUnknown,
  newRequest,
  paramsHash,
  reject,
  resolve,
  type StepContext,
  sendAgain,
  startExecution,
  stateFacts,
  succeed,
} from './approvals.js';
import { InputError, PolicyDeniedError, StateConflictError } from './errors.js';
import type { Actor, OperationRequest, RequestState } from './model.js';

const NOW = new Date('2025-03-01T10:02:00.000Z');
const ava: Actor = { id: 'U0AGENT', name: 'Ava' };
const lee: Actor = { id: 'U0LEAD1', name: 'Lee' };
const kim: Actor = { id: 'U0LEAD2', name: 'Kim' };

function context(now = NOW): StepContext {
  let n = 0;
  return { now, eventId: () => `e-${++n}` };
}

function request(overrides: Partial<OperationRequest> = {}): OperationRequest {
  return {
    id: 'R-0000AAAA',
    operation: 'folder.delete',
    params: { bucketId: 'b1' },
    paramsHash: paramsHash('folder.delete', { bucketId: 'b1' }),
    target: 'folder b1',
    preview: { title: 'Lectures' },
    reason: 'asked by the owner',
    requester: ava,
    state: 'pending',
    quorum: 1,
    approvals: [],
    decidedBy: null,
    decisionNote: null,
    createdAt: '2025-03-01T09:00:00.000Z',
    expiresAt: '2025-03-02T09:00:00.000Z',
    updatedAt: '2025-03-01T09:00:00.000Z',
    result: null,
    error: null,
    slack: null,
    version: 1,
    ...overrides,
  } as OperationRequest;
}

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected an error');
}

describe('paramsHash', () => {
  test('is SHA-256 of the canonical JSON of operation and params, whatever the key order', () => {
    const expected = createHash('sha256')
      .update('{"operation":"whitelist.set","params":{"allowedDNS":["1.2.3.4"],"expectBefore":[]}}')
      .digest('hex');
    expect(paramsHash('whitelist.set', { expectBefore: [], allowedDNS: ['1.2.3.4'] })).toBe(expected);
    expect(paramsHash('whitelist.set', { allowedDNS: ['1.2.3.5'], expectBefore: [] })).not.toBe(expected);
  });
});

describe('newRequest', () => {
  const base = {
    id: 'R-0000BBBB',
    operation: 'viewer.unblock' as const,
    params: { mobileNumber: '09123456789' },
    target: 'viewer 09123456789',
    preview: null,
    reason: null,
    requester: ava,
  };

  test('an unblock that runs directly starts executing with [requested, executing]', () => {
    const { request: r, events } = newRequest({ ...base, mode: { kind: 'direct' } }, context());
    expect(r).toMatchObject({ state: 'executing', quorum: 0, expiresAt: null, version: 1, approvals: [] });
    expect(r.paramsHash).toBe(paramsHash('viewer.unblock', { mobileNumber: '09123456789' }));
    expect(events.map((e) => e.type)).toEqual(['requested', 'executing']);
    expect(events.map((e) => e.id)).toEqual(['e-1', 'e-2']);
    expect(events[0]).toMatchObject({
      actor: ava,
      at: NOW.toISOString(),
      operation: 'viewer.unblock',
      target: 'viewer 09123456789',
      params: { mobileNumber: '09123456789' },
      requestId: 'R-0000BBBB',
      error: null,
    });
  });

  test('a request needing approval is pending with [requested] and its expiry', () => {
    const { request: r, events } = newRequest(
      {
        ...base,
        mode: { kind: 'approval', quorum: 2, expiresAt: '2025-03-02T10:02:00.000Z', why: 'policy' },
      },
      context(),
    );
    expect(r).toMatchObject({ state: 'pending', quorum: 2, expiresAt: '2025-03-02T10:02:00.000Z' });
    expect(events.map((e) => e.type)).toEqual(['requested']);
    expect(events[0]?.outcome).toMatchObject({ state: 'pending', quorum: 2, why: 'policy' });
  });
});

describe('approve', () => {
  test('the approval that meets the quorum moves to executing with [approved, executing]', () => {
    const step = approve(request(), lee, context());
    expect(step.patch.state).toBe('executing');
    expect(step.patch.approvals).toEqual([{ by: lee, at: NOW.toISOString() }]);
    expect(step.events.map((e) => [e.type, e.actor.id])).toEqual([
      ['approved', 'U0LEAD1'],
      ['executing', 'U0LEAD1'],
    ]);
    expect(step.events[0]?.outcome).toEqual({ approvals: 1, quorum: 1 });
  });

  test('the first of two approvals keeps the request pending', () => {
    const step = approve(request({ quorum: 2 }), lee, context());
    expect(step.patch.state).toBeUndefined();
    expect(step.events.map((e) => e.type)).toEqual(['approved']);
    const second = approve(request({ quorum: 2, approvals: step.patch.approvals ?? [] }), kim, context());
    expect(second.patch.state).toBe('executing');
    expect(second.patch.approvals?.map((a) => a.by.name)).toEqual(['Lee', 'Kim']);
  });

  test.each<[string, Partial<OperationRequest>, Actor, string, string]>([
    [
      'the requester approves their own request',
      {},
      ava,
      'PolicyDeniedError',
      'You asked for this change, so someone else has to approve it.',
    ],
    [
      'a lead approves twice',
      { quorum: 2, approvals: [{ by: lee, at: NOW.toISOString() }] },
      lee,
      'StateConflictError',
      'You have already approved request R-0000AAAA.',
    ],
    [
      'a lead approves what was already executed',
      {
        state: 'succeeded',
        approvals: [{ by: lee, at: NOW.toISOString() }],
        updatedAt: '2025-03-01T10:02:00.000Z',
      },
      kim,
      'StateConflictError',
      'Request R-0000AAAA cannot be approved: it was already approved by Lee and executed at 10:02 UTC.',
    ],
    [
      'a lead approves what was rejected yesterday',
      { state: 'rejected', decidedBy: kim, updatedAt: '2025-02-28T17:30:00.000Z' },
      lee,
      'StateConflictError',
      'Request R-0000AAAA cannot be approved: it was already rejected by Kim at 2025-02-28 17:30 UTC.',
    ],
    [
      'a lead approves after the expiry, before the sweeper ran',
      { expiresAt: '2025-03-01T10:00:00.000Z' },
      lee,
      'StateConflictError',
      'Request R-0000AAAA cannot be approved: it expired at 10:00 UTC without enough approvals.',
    ],
  ])('refused: %s', (_name, overrides, actor, name, message) => {
    const error = errorOf(() => approve(request(overrides), actor, context()));
    expect(error.name).toBe(name);
    expect(messageOf(error)).toBe(message);
  });
});

describe('reject, cancel, expire', () => {
  test('a lead rejects with a note', () => {
    const step = reject(request(), lee, '  wrong folder  ', context());
    expect(step.patch).toEqual({ state: 'rejected', decidedBy: lee, decisionNote: 'wrong folder' });
    expect(step.events.map((e) => [e.type, e.outcome])).toEqual([['rejected', { note: 'wrong folder' }]]);
  });

  test('a rejection without a note is refused', () => {
    expect(errorOf(() => reject(request(), lee, '   ', context()))).toBeInstanceOf(InputError);
  });

  test('the requester cancels; anyone else may not', () => {
    const step = cancel(request(), ava, null, context());
    expect(step.patch).toEqual({ state: 'cancelled', decidedBy: ava, decisionNote: null });
    expect(step.events[0]?.type).toBe('cancelled');
    const error = errorOf(() => cancel(request(), lee, null, context()));
    expect(error).toBeInstanceOf(PolicyDeniedError);
    expect(messageOf(error)).toBe('Only Ava, who asked for it, can cancel request R-0000AAAA.');
  });

  test('a pending request past its expiry expires, by the system', () => {
    const step = expire(request({ expiresAt: '2025-03-01T10:02:00.000Z' }), context());
    expect(step.patch.state).toBe('expired');
    expect(step.events.map((e) => [e.type, e.actor])).toEqual([
      ['expired', { id: 'system', name: 'vidops' }],
    ]);
  });

  test('a request still open does not expire', () => {
    expect(messageOf(errorOf(() => expire(request(), context())))).toBe(
      'Request R-0000AAAA cannot be expired: it is open until 2025-03-02 09:00 UTC.',
    );
  });
});

describe('execution', () => {
  test('succeed records the answer; fail records the error', () => {
    const executing = request({ state: 'executing' });
    const ok = succeed(executing, { _id: 'b1', deleted: true }, context());
    expect(ok.patch).toEqual({ state: 'succeeded', result: { _id: 'b1', deleted: true }, error: null });
    expect(ok.events[0]?.outcome).toEqual({ _id: 'b1', deleted: true });
    const ko = fail(
      executing,
      { name: 'ServerError', message: 'The video service answered 500', status: 500 },
      context(),
    );
    expect(ko.patch.state).toBe('failed');
    expect(ko.events[0]?.error).toEqual({
      name: 'ServerError',
      message: 'The video service answered 500',
      status: 500,
    });
  });

  test('resume claims an executing request again; markUnknown ends it as unknown', () => {
    const executing = request({ state: 'executing' });
    const resumed = startExecution(executing, { id: 'system', name: 'vidops' }, context(), { resume: true });
    expect(resumed.events.map((e) => [e.type, e.outcome])).toEqual([['executing', { resumed: true }]]);
    expect(markUnknown(executing, context()).patch).toEqual({ state: 'unknown' });
  });

  test.each<[string, RequestState, (r: OperationRequest) => unknown]>([
    ['succeed a pending request', 'pending', (r) => succeed(r, null, context())],
    ['fail a cancelled request', 'cancelled', (r) => fail(r, { name: 'X', message: 'x' }, context())],
    ['mark a succeeded request unknown', 'succeeded', (r) => markUnknown(r, context())],
    ['start a pending request', 'pending', (r) => startExecution(r, lee, context())],
    ['resume a failed request', 'failed', (r) => startExecution(r, lee, context(), { resume: true })],
    ['cancel an expired request', 'expired', (r) => cancel(r, ava, null, context())],
    ['reject an executing request', 'executing', (r) => reject(r, lee, 'no', context())],
  ])('cannot %s', (_name, state, run) => {
    expect(errorOf(() => run(request({ state })))).toBeInstanceOf(StateConflictError);
  });
});

describe('an outcome that is not known', () => {
  const timeout = { name: 'TimeoutError', message: 'The video service did not answer in time' };

  test('a send without a clear answer is unknown, with the error and an unknown event', () => {
    const step = markUnknown(request({ state: 'executing' }), context(), {
      kind: 'no-answer',
      error: timeout,
    });
    expect(step.patch).toEqual({ state: 'unknown', error: timeout });
    expect(step.events.map((e) => [e.type, e.actor.name, e.error])).toEqual([['unknown', 'vidops', timeout]]);
    expect(JSON.stringify(step.events[0]?.outcome)).toContain('may or may not have been applied');
  });

  test('a lead marks it applied, with a note: succeeded, settled by the lead, one resolved event', () => {
    const step = resolve(
      request({ state: 'unknown' }),
      lee,
      { way: 'applied', state: 'succeeded', outcome: 'applied', note: ' gone from the panel ' },
      context(),
    );
    expect(step.patch).toEqual({
      state: 'succeeded',
      decidedBy: lee,
      decisionNote: 'gone from the panel',
      result: { resolved: 'applied', outcome: 'applied', answer: null },
      error: null,
    });
    expect(step.events.map((e) => [e.type, e.actor.name, e.outcome])).toEqual([
      [
        'resolved',
        'Lee',
        { way: 'applied', state: 'succeeded', outcome: 'applied', note: 'gone from the panel' },
      ],
    ]);
  });

  test('marked not applied it is failed with the reason; a note is required when marking by hand', () => {
    const unknown = request({ state: 'unknown' });
    const step = resolve(
      unknown,
      lee,
      { way: 'not-applied', state: 'failed', outcome: 'not applied', note: 'still listed' },
      context(),
    );
    expect(step.patch).toMatchObject({
      state: 'failed',
      error: { name: 'NotApplied', message: 'not applied' },
    });
    const noNote = () =>
      resolve(
        unknown,
        lee,
        { way: 'applied', state: 'succeeded', outcome: 'applied', note: '  ' },
        context(),
      );
    expect(errorOf(noNote)).toBeInstanceOf(InputError);
  });

  test('the requester never settles their own request, by hand or by sending it again', () => {
    const unknown = request({ state: 'unknown' });
    const byHand = () =>
      resolve(unknown, ava, { way: 'applied', state: 'succeeded', outcome: 'applied', note: 'x' }, context());
    expect(errorOf(byHand)).toBeInstanceOf(PolicyDeniedError);
    expect(errorOf(() => sendAgain(unknown, ava, context()))).toBeInstanceOf(PolicyDeniedError);
  });

  test('send again claims it as executing; its end settles it from there', () => {
    const claimed = sendAgain(request({ state: 'unknown' }), lee, context());
    expect(claimed.patch).toEqual({ state: 'executing' });
    expect(claimed.events.map((e) => [e.type, e.actor.name, e.outcome])).toEqual([
      ['executing', 'Lee', { sentAgain: true }],
    ]);
    const settled = resolve(
      request({ state: 'executing' }),
      lee,
      { way: 'send-again', state: 'succeeded', outcome: 'already deleted', note: null },
      context(),
    );
    expect(settled.patch).toMatchObject({ state: 'succeeded', decidedBy: lee });
  });

  test.each<[string, RequestState, (r: OperationRequest) => unknown]>([
    [
      'settle a succeeded request',
      'succeeded',
      (r) => resolve(r, lee, { way: 'check', state: 'failed', outcome: 'x', note: null }, context()),
    ],
    [
      'settle an executing request by hand',
      'executing',
      (r) => resolve(r, lee, { way: 'applied', state: 'succeeded', outcome: 'x', note: 'n' }, context()),
    ],
    ['send a failed request again', 'failed', (r) => sendAgain(r, lee, context())],
    ['send a pending request again', 'pending', (r) => sendAgain(r, lee, context())],
  ])('cannot %s', (_name, state, run) => {
    expect(errorOf(() => run(request({ state })))).toBeInstanceOf(StateConflictError);
  });
});

describe('where a request stands, as a refusal says it', () => {
  test.each<[Partial<OperationRequest>, string]>([
    [{ quorum: 2, approvals: [{ by: lee, at: '' }] }, 'still waiting for approval (1 of 2)'],
    [{ state: 'executing', quorum: 0 }, 'already running since 09:00 UTC'],
    [
      {
        state: 'failed',
        approvals: [
          { by: lee, at: '' },
          { by: kim, at: '' },
        ],
        error: { name: 'E', message: 'boom' },
      },
      'already approved by Lee and Kim and executed at 09:00 UTC, and it failed: boom',
    ],
    [{ state: 'cancelled', decidedBy: ava }, 'already cancelled by Ava at 09:00 UTC'],
    [
      { state: 'expired', expiresAt: '2025-03-01T09:00:00.000Z' },
      'already expired at 09:00 UTC without enough approvals',
    ],
    [{ state: 'unknown' }, 'left with an unknown outcome at 09:00 UTC: it may or may not have been applied'],
    [{ state: 'succeeded', decidedBy: kim }, 'already executed at 09:00 UTC, settled by Kim'],
  ])('%j reads "%s"', (overrides, text) => {
    expect(stateEnglish(stateFacts(request(overrides), NOW))).toBe(text);
  });
});
