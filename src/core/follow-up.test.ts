import fc from 'fast-check';
import { escalate, remind, warnExpiry } from './approvals.js';
import { StateConflictError } from './errors.js';
import {
  dueFollowUps,
  followUpTimes,
  nextFollowUpAt,
  nextReminderAt,
  timeLeft,
  timeLeftChanged,
  timeLeftChangesAt,
} from './follow-up.js';
import type { FollowUp, OperationRequest } from './model.js';
import { NO_FOLLOW_UP } from './model.js';
import { buildPolicy, type FollowUpRule } from './policy.js';

const T0 = '2025-03-01T10:00:00.000Z';
const MIN = 60_000;
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * MIN);

/** remindAfter 2h, escalateAfter 4h to S0BACKUP, warnBeforeExpiry 1h; requests expire after 24h. */
const RULE: FollowUpRule = buildPolicy({
  leads: ['U0LEAD1'],
  fileText: 'folder.delete: { escalateTo: [S0BACKUP] }',
}).rules['folder.delete'].followUp;

function waiting(followUp: Partial<FollowUp> = {}, extra: Partial<OperationRequest> = {}): OperationRequest {
  return {
    id: 'R-0000AAAA',
    operation: 'folder.delete',
    params: { bucketId: 'b1' },
    paramsHash: 'h',
    target: 'folder b1',
    preview: null,
    reason: null,
    requester: { id: 'U0AGENT', name: 'ana' },
    state: 'pending',
    quorum: 1,
    approvals: [],
    decidedBy: null,
    decisionNote: null,
    createdAt: T0,
    expiresAt: at(24 * 60).toISOString(),
    updatedAt: T0,
    result: null,
    error: null,
    slack: null,
    followUp: { ...NO_FOLLOW_UP, escalatedTo: [], ...followUp },
    version: 1,
    ...extra,
  } as OperationRequest;
}

const ctx = (minutes: number) => ({ now: at(minutes), eventId: () => 'e1' });

describe('what falls due for a waiting request', () => {
  it.each<[number, string[]]>([
    [0, []],
    [119, []],
    [120, ['remind']],
    [240, ['escalate', 'remind']],
    [23 * 60, ['escalate', 'remind', 'warn']],
    [24 * 60, []],
  ])('at +%i min: %j', (minutes, due) => {
    expect(dueFollowUps(waiting(), RULE, at(minutes))).toEqual(due);
  });

  it('each happens once: done ones are not due again', () => {
    const done = waiting({
      autoReminded: true,
      remindedAt: at(120).toISOString(),
      escalatedAt: at(240).toISOString(),
      escalatedTo: ['S0BACKUP'],
      expiryWarnedAt: at(23 * 60).toISOString(),
    });
    expect(dueFollowUps(done, RULE, at(23 * 60 + 30))).toEqual([]);
  });

  it('a reminder the requester asked for moves vidops’ own one later', () => {
    const asked = waiting({ remindedAt: at(90).toISOString() });
    expect(followUpTimes(asked, RULE).remind).toBe(at(210).getTime());
    expect(dueFollowUps(asked, RULE, at(150))).toEqual([]);
  });

  it('nothing is due once decided, nor what is turned off, nor escalation without backups', () => {
    expect(dueFollowUps(waiting({}, { state: 'succeeded' }), RULE, at(23 * 60))).toEqual([]);
    const off: FollowUpRule = { ...RULE, remindAfterMs: null, warnBeforeExpiryMs: null, escalateTo: [] };
    expect(dueFollowUps(waiting(), off, at(23 * 60))).toEqual([]);
  });

  it('no warning when the request lives less than the warning, no follow-up after the expiry', () => {
    const short = waiting({}, { expiresAt: at(30).toISOString() });
    expect(followUpTimes(short, RULE)).toEqual({ escalate: null, remind: null, warn: null });
  });
});

describe('when the requester may remind again', () => {
  it('now when nobody was reminded, else remindAfter after the last reminder, never when off', () => {
    expect(nextReminderAt(waiting(), RULE, at(5))).toBeNull();
    expect(nextReminderAt(waiting({ remindedAt: at(10).toISOString() }), RULE, at(60))).toEqual(at(130));
    expect(nextReminderAt(waiting({ remindedAt: at(10).toISOString() }), RULE, at(130))).toBeNull();
    expect(nextReminderAt(waiting(), { ...RULE, remindAfterMs: null }, at(5))).toBe('never');
  });
});

describe('time left, in coarse words', () => {
  it.each<[number, string]>([
    [3 * 24 * 60, '3 days'],
    [48 * 60, '2 days'],
    [47 * 60 + 59, '47h'],
    [3 * 60 + 59, '3h'],
    [60, '1h'],
    [59, 'under 1h'],
    [14, 'under 15 min'],
    [0, 'no time'],
  ])('%i min left: %s', (minutes, words) => {
    expect(timeLeft(at(minutes).toISOString(), at(0)).words).toBe(words);
  });

  it('changes bucket only when the words change', () => {
    const request = waiting({}, { expiresAt: at(4 * 60).toISOString() });
    const rendered = at(1).toISOString();
    expect(timeLeftChanged(request, rendered, at(30))).toBeNull();
    expect(timeLeftChanged(request, rendered, at(61))).toBe('h2');
    expect(timeLeftChanged({ ...request, state: 'rejected' }, rendered, at(61))).toBeNull();
  });
});

describe('when the sweeper next looks at a waiting request', () => {
  it('the time left says the same words until the moment it says it changes, and other words then', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 * 24 * 60 * MIN }),
        fc.integer({ min: 0, max: 1e12 }),
        (left, t) => {
          const now = new Date(1e12 + t);
          const expiresAt = new Date(now.getTime() + left).toISOString();
          const change = timeLeftChangesAt(expiresAt, now);
          if (change === null) return;
          expect(change).toBeGreaterThan(now.getTime());
          const words = (ms: number) => timeLeft(expiresAt, new Date(ms)).bucket;
          expect(words(change - 1)).toBe(words(now.getTime()));
          expect(words(change)).not.toBe(words(now.getTime()));
        },
      ),
    );
  });

  it.each<[string, number, Partial<FollowUp>, number | null]>([
    ['the moment the words change from 24h to 23h', 0, {}, at(0).getTime() + 1],
    ['a reminder due and not done stays due', 150, {}, at(120).getTime()],
    [
      'once reminded, the next hour of the words, before the escalation',
      150,
      { autoReminded: true },
      at(180).getTime() + 1,
    ],
    ['nothing once it expired', 24 * 60, {}, null],
  ])('%s', (_, minutes, done, next) => {
    expect(nextFollowUpAt(waiting(done), RULE, at(minutes))).toBe(next);
  });
});

describe('the follow-up steps', () => {
  it('a reminder records who asked and the event; vidops’ own counts as its one automatic reminder', () => {
    const step = remind(waiting(), { id: 'system', name: 'vidops' }, ctx(120), true);
    expect(step.patch.followUp).toMatchObject({ remindedAt: at(120).toISOString(), autoReminded: true });
    expect(step.events.map((e) => [e.type, e.outcome])).toEqual([
      ['reminded', { auto: true, approvals: 0, quorum: 1 }],
    ]);
    const asked = remind(waiting(), { id: 'U0AGENT', name: 'ana' }, ctx(5), false);
    expect(asked.patch.followUp).toMatchObject({ remindedBy: { id: 'U0AGENT' }, autoReminded: false });
  });

  it('escalation and the warning happen once, and never on a request that is not open', () => {
    const step = escalate(waiting(), ['S0BACKUP', 'S0BACKUP'], ctx(240));
    expect(step.patch.followUp).toMatchObject({ escalatedTo: ['S0BACKUP'] });
    expect(step.events[0]?.type).toBe('escalated');
    expect(() => escalate(waiting({ escalatedAt: T0 }), ['S0BACKUP'], ctx(240))).toThrow(StateConflictError);
    expect(warnExpiry(waiting(), ctx(23 * 60)).events[0]?.type).toBe('expiry-warned');
    expect(() => warnExpiry(waiting({ expiryWarnedAt: T0 }), ctx(23 * 60))).toThrow(StateConflictError);
    expect(() => warnExpiry(waiting(), ctx(24 * 60))).toThrow(
      expect.objectContaining({ said: expect.objectContaining({ key: 'reqExpiredAt' }) }),
    );
    expect(() =>
      remind(waiting({}, { state: 'cancelled' }), { id: 'U0AGENT', name: 'ana' }, ctx(5), false),
    ).toThrow(StateConflictError);
  });
});
