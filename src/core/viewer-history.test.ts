import type { AuditEvent } from './model.js';
import { TERMINAL_STATES } from './model.js';
import { foldViewerUnblocks, repeatNeed, UNBLOCK_OUTCOMES, viewersOfEvent } from './viewer-history.js';

const SARA = { id: 'U0SARA', name: 'Sara' };
const LEE = { id: 'U0LEE', name: 'Lee' };
const VIEWER = '09121234567';

let seq = 0;
function event(
  type: AuditEvent['type'],
  requestId: string | null,
  overrides: Partial<AuditEvent> = {},
): AuditEvent {
  seq += 1;
  return {
    seq,
    id: `e${seq}`,
    type,
    at: new Date(Date.UTC(2026, 10, 1, 0, seq)).toISOString(),
    actor: SARA,
    operation: 'viewer.unblock',
    target: VIEWER,
    params: { mobileNumber: VIEWER },
    requestId,
    outcome: null,
    error: null,
    prevHash: '',
    hash: '',
    ...overrides,
  };
}

const RULE = { within: '30d', withinMs: 30 * 86_400_000, max: 2 };

describe("a viewer's history, folded from its audit events", () => {
  it('an event names the viewer of its parameters, and nothing else names one', () => {
    expect(viewersOfEvent({ params: { mobileNumber: VIEWER } })).toEqual([VIEWER]);
    expect(viewersOfEvent({ params: { bucketId: 'b1' } })).toEqual([]);
    expect(viewersOfEvent({ params: { mobileNumber: '' } })).toEqual([]);
    expect(viewersOfEvent({ params: [VIEWER] })).toEqual([]);
    expect(viewersOfEvent({ params: null })).toEqual([]);
  });

  it('a lead approves an unblock run by break-glass: one unblock, with its approver, reason and flag', () => {
    const events = [
      event('requested', 'R1', { outcome: { reason: 'ticket 7' } }),
      event('break-glass', 'R1'),
      event('approved', 'R1', { actor: LEE }),
      event('executing', 'R1'),
      event('succeeded', 'R1'),
    ];
    expect(foldViewerUnblocks(VIEWER, events.reverse())).toEqual([
      {
        requestId: 'R1',
        viewer: VIEWER,
        askedAt: events.at(-1)?.at,
        requester: SARA,
        approvers: [LEE],
        decidedBy: null,
        outcome: 'succeeded',
        reason: 'ticket 7',
        error: null,
        breakGlass: true,
      },
    ]);
  });

  it('steps of a request whose ask was not read are left out', () => {
    expect(foldViewerUnblocks(VIEWER, [event('succeeded', 'R9')])).toEqual([]);
  });
});

describe('the repeat rule', () => {
  const done = { outcome: 'succeeded' as const };
  it.each([
    ['off', null, [done, done, done], null],
    ['the 1st', RULE, [], null],
    ['the 2nd', RULE, [done], null],
    ['the 3rd', RULE, [done, done], { viewer: VIEWER, nth: 3, max: 2, within: '30d' }],
    [
      'the 3rd after a failure',
      RULE,
      [done, { outcome: 'failed' as const }, done],
      { viewer: VIEWER, nth: 3, max: 2, within: '30d' },
    ],
    [
      'the 2nd after a rejection and a cancel',
      RULE,
      [{ outcome: 'rejected' as const }, { outcome: 'cancelled' as const }, done],
      null,
    ],
  ])('%s unblock in the window', (_name, rule, earlier, expected) => {
    expect(repeatNeed(rule, VIEWER, earlier)).toEqual(expected);
  });
});

describe('what a viewer’s history can say of an unblock', () => {
  it('every way its request can end or stand, read as the history words it', () => {
    expect([...UNBLOCK_OUTCOMES].sort()).toEqual([...TERMINAL_STATES, 'pending', 'running', 'denied'].sort());
  });
});
