import { approve, paramsHash, type StepContext } from './approvals.js';
import { breakGlass, isBreakGlassWords, markReviewOverdue, reviewBreakGlass } from './break-glass.js';
import { InputError, PolicyDeniedError, StateConflictError } from './errors.js';
import type { Actor, OperationRequest } from './model.js';
import { say } from './said.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const ava: Actor = { id: 'U0AGENT', name: 'Ava' };
const ben: Actor = { id: 'U0AGENT2', name: 'Ben' };
const lee: Actor = { id: 'U0LEAD1', name: 'Lee' };
const kim: Actor = { id: 'U0LEAD2', name: 'Kim' };

function context(now = NOW): StepContext {
  let n = 0;
  return { now, eventId: () => `e-${++n}` };
}

function pending(overrides: Partial<OperationRequest> = {}): OperationRequest {
  return {
    id: 'R-0000AAAA',
    operation: 'viewer.unblock',
    params: { mobileNumber: '09121234567' },
    paramsHash: paramsHash('viewer.unblock', { mobileNumber: '09121234567' }),
    target: 'viewer 09121234567',
    preview: null,
    reason: null,
    requester: ava,
    state: 'pending',
    quorum: 2,
    approvals: [],
    decidedBy: null,
    decisionNote: null,
    createdAt: NOW.toISOString(),
    expiresAt: '2026-11-22T10:00:00.000Z',
    updatedAt: NOW.toISOString(),
    result: null,
    error: null,
    slack: null,
    version: 1,
    ...overrides,
  } as OperationRequest;
}

const input = { reason: 'exam in ten minutes', words: 'break glass', reviewWithinMs: 3_600_000 };

describe('the requester breaks the glass', () => {
  it.each(['break glass', ' Break  GLASS ', 'break\tglass'])('"%s" are the words', (words) => {
    expect(isBreakGlassWords(words)).toBe(true);
  });

  it.each(['break the glass', 'breakglass', 'glass break', ''])('"%s" are not', (words) => {
    expect(isBreakGlassWords(words)).toBe(false);
  });

  it('runs it now: executing, marked in its events, review due after reviewWithin', () => {
    const step = breakGlass(pending(), ava, input, context());
    expect(step.patch).toMatchObject({
      state: 'executing',
      breakGlass: {
        by: ava,
        reason: 'exam in ten minutes',
        reviewDueAt: '2026-11-21T11:00:00.000Z',
        review: null,
      },
    });
    expect(step.events.map((e) => [e.type, e.outcome])).toEqual([
      [
        'break-glass',
        { reason: 'exam in ten minutes', reviewDueAt: '2026-11-21T11:00:00.000Z', approvals: 0, quorum: 2 },
      ],
      ['executing', { breakGlass: true }],
    ]);
  });

  it('refuses wrong words, an empty reason, someone else, and a request no longer pending', () => {
    expect(() => breakGlass(pending(), ava, { ...input, words: 'break the glass' }, context())).toThrow(
      expect.objectContaining({ said: say.bgWrongWords() }),
    );
    expect(() => breakGlass(pending(), ava, { ...input, reason: ' ' }, context())).toThrow(InputError);
    expect(() => breakGlass(pending(), ben, input, context())).toThrow(PolicyDeniedError);
    expect(() => breakGlass(pending({ state: 'rejected' }), ava, input, context())).toThrow(
      StateConflictError,
    );
  });
});

describe('a lead reviews it', () => {
  const ran = (): OperationRequest => {
    const step = breakGlass(pending({ requester: lee }), lee, input, context());
    return pending({ requester: lee, state: 'succeeded', ...step.patch, version: 3 });
  };

  it('never the one who broke the glass; a flag needs a note; once', () => {
    expect(() => reviewBreakGlass(ran(), lee, { verdict: 'acknowledged', note: null }, context())).toThrow(
      expect.objectContaining({ said: say.glassOwnReview() }),
    );
    expect(() => reviewBreakGlass(ran(), kim, { verdict: 'flagged', note: ' ' }, context())).toThrow(
      InputError,
    );
    const step = reviewBreakGlass(ran(), kim, { verdict: 'flagged', note: 'should have waited' }, context());
    expect(step.events.map((e) => e.type)).toEqual(['break-glass-reviewed']);
    const reviewed = { ...ran(), ...step.patch } as OperationRequest;
    expect(() => reviewBreakGlass(reviewed, ava, { verdict: 'acknowledged', note: null }, context())).toThrow(
      StateConflictError,
    );
  });

  it('is reminded once when overdue, and not before', () => {
    expect(markReviewOverdue(ran(), lee, context())).toBeNull();
    const late = context(new Date('2026-11-21T11:00:00.000Z'));
    const step = markReviewOverdue(ran(), lee, late);
    expect(step?.events.map((e) => e.type)).toEqual(['break-glass-overdue']);
    const reminded = { ...ran(), ...step?.patch } as OperationRequest;
    expect(markReviewOverdue(reminded, lee, late)).toBeNull();
  });
});

describe('a delegate approves in a lead’s place', () => {
  it('is recorded for the lead, and neither of them counts twice', () => {
    const step = approve(pending(), ben, context(), lee);
    expect(step.patch.approvals).toEqual([{ by: ben, at: NOW.toISOString(), for: lee }]);
    expect(step.events[0]?.outcome).toEqual({ approvals: 1, quorum: 2, for: lee, delegated: true });
    const once = pending({ approvals: step.patch.approvals ?? [] });
    expect(() => approve(once, lee, context())).toThrow(StateConflictError);
    expect(() => approve(once, ben, context(), kim)).toThrow(StateConflictError);
    expect(approve(once, kim, context()).patch.state).toBe('executing');
  });

  it('never for a lead who asked for the change', () => {
    expect(() => approve(pending({ requester: lee }), ben, context(), lee)).toThrow(PolicyDeniedError);
  });
});
