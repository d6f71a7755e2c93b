import { describe, expect, test } from '@jest/globals';
import type { Approval } from './model.js';
import { holds, type Sealed, type Sealer, sealerOf, sealHolds, sealKeyOf, undoHolds } from './seal.js';
import type { TimeBox, Undo } from './time-box.js';
import { newTimeBox } from './time-box.js';

const sealer = sealerOf(sealKeyOf('the service secret'));
const other = sealerOf(sealKeyOf('another secret'));

const request: Sealed = {
  id: 'R-7K3M9Q2X',
  operation: 'protect.set',
  params: { changes: { opacity: 0.6 } },
  target: 'protection settings',
  preview: null,
  quorum: 1,
  requester: { id: 'U0AGENT1', name: 'Ava' },
};
const box: TimeBox = newTimeBox({ kind: 'for', ms: 7_200_000, text: '2h' });

describe('a request sealed as asked or as fit to send', () => {
  test('holds for exactly what was sealed, at that stage, under that key', () => {
    const seal = sealer.request(request, 'send');
    expect(sealHolds(sealer, { ...request, seal }, 'send')).toBe(true);
    expect(sealHolds(sealer, { ...request, seal }, 'asked')).toBe(false);
    expect(sealHolds(other, { ...request, seal }, 'send')).toBe(false);
    expect(sealHolds(sealer, request, 'send')).toBe(false);
  });

  test.each<[string, Partial<Sealed>]>([
    ['another ID (a copied seal)', { id: 'R-0000AAAA' }],
    ['another operation', { operation: 'whitelist.set' }],
    ['edited parameters', { params: { changes: { opacity: 0.05 } } }],
    ['a lowered quorum', { quorum: 0 }],
    ['another requester', { requester: { id: 'U0LEAD1', name: 'Ava' } }],
    ['a window grafted on', { timeBox: box }],
    ['another target shown', { target: 'whitelist' }],
    ['what it undoes grafted on', { revertOf: { id: 'R-0000AAAA', kind: 'revert' } }],
  ])('fails after %s', (_what, change) => {
    const seal = sealer.request(request, 'asked');
    expect(sealHolds(sealer, { ...request, ...change, seal }, 'asked')).toBe(false);
  });

  test('a window keeps its seal while its state moves on, not when what was asked changes', () => {
    const boxed = { ...request, timeBox: box };
    const seal = sealer.request(boxed, 'send');
    const moved: TimeBox = { ...box, state: 'running', endsAt: '2026-11-26T10:00:00.000Z' };
    expect(sealHolds(sealer, { ...boxed, timeBox: moved, seal }, 'send')).toBe(true);
    const longer = newTimeBox({ kind: 'for', ms: 72_000_000, text: '20h' });
    expect(sealHolds(sealer, { ...boxed, timeBox: longer, seal }, 'send')).toBe(false);
  });
});

describe('an approval', () => {
  const given: Approval = { by: { id: 'U0LEAD1', name: 'Lee' }, at: '2026-11-26T08:00:00.000Z' };

  const holdsOn = (requestId: string, a: Approval) => holds(a.seal, sealer.approval(requestId, a));

  test('holds on its own request only, as given', () => {
    const approval = { ...given, seal: sealer.approval(request.id, given) };
    expect(holdsOn(request.id, approval)).toBe(true);
    expect(holdsOn('R-0000AAAA', approval)).toBe(false);
    expect(holdsOn(request.id, { ...approval, by: { id: 'U0LEAD2', name: 'Lee' } })).toBe(false);
    expect(holdsOn(request.id, { ...approval, for: { id: 'U0LEAD2', name: 'Kim' } })).toBe(false);
    expect(holdsOn(request.id, given)).toBe(false);
    expect(holdsOn(request.id, { ...approval, seal: 42 as unknown as string })).toBe(false);
  });
});

describe('the values a change replaced', () => {
  const undo: Undo = { kind: 'whitelist', before: [], added: ['1.2.3.4'], removed: [] };
  const change = { id: request.id, operation: 'whitelist.set' as const, timeBox: box };

  test('hold as read, and not once edited, moved to another change, or given another window', () => {
    const undoSeal = sealer.undo(change, undo);
    expect(undoHolds(sealer, { ...change, undo, undoSeal })).toBe(true);
    const edited: Undo = { kind: 'whitelist', before: [], added: [], removed: ['5.160.66.66'] };
    expect(undoHolds(sealer, { ...change, undo: edited, undoSeal })).toBe(false);
    expect(undoHolds(sealer, { ...change, id: 'R-0000AAAA', undo, undoSeal })).toBe(false);
    expect(undoHolds(sealer, { id: change.id, operation: change.operation, undo, undoSeal })).toBe(false);
    expect(undoHolds(sealer, { ...change, undoSeal })).toBe(false);
  });
});

describe('a delegation', () => {
  const delegation = {
    id: 'D-1',
    lead: { id: 'U0LEAD1', name: 'Lee' },
    delegate: { id: 'U0AGENT2', name: 'Bob' },
    createdAt: '2026-11-26T08:00:00.000Z',
    until: '2026-11-27T08:00:00.000Z',
  };
  const holdsFor = (by: Sealer, d: typeof delegation & { seal: string }) => holds(d.seal, by.delegation(d));

  test('holds as given, whatever the spelling of its times, and not for another delegate or a later end', () => {
    const seal = sealer.delegation(delegation);
    expect(holdsFor(sealer, { ...delegation, seal })).toBe(true);
    expect(holdsFor(sealer, { ...delegation, until: '2026-11-27T08:00:00Z', seal })).toBe(true);
    expect(holdsFor(sealer, { ...delegation, until: '2026-12-27T08:00:00.000Z', seal })).toBe(false);
    expect(holdsFor(sealer, { ...delegation, delegate: { id: 'U0AGENT3', name: 'Bob' }, seal })).toBe(false);
    expect(holdsFor(other, { ...delegation, seal })).toBe(false);
  });
});
