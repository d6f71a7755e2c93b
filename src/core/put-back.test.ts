import type { ProtectionConfig } from './protection.js';
import { handedOver, planProtection, planWhitelist } from './put-back.js';
import type { Undo } from './time-box.js';

const protection = (
  rows: Extract<Undo, { kind: 'protection' }>['rows'],
): Extract<Undo, { kind: 'protection' }> => ({
  kind: 'protection',
  rows,
});
const config = (value: Record<string, unknown>) => value as ProtectionConfig;

describe('planning a protection put-back', () => {
  it('a value the service reads back normalised (0.50 as 0.5, a colour in capitals) still goes back', () => {
    const undo = protection([
      { field: 'opacity', before: 0.6, after: 0.5 },
      { field: 'fontColor', before: '#ffff00', after: '#ff0000' },
    ]);
    const plan = planProtection(undo, config({ opacity: '0.50', fontColor: '#FF0000' }));
    expect(plan.back).toEqual([
      { field: 'opacity', from: '0.50', to: 0.6 },
      { field: 'fontColor', from: '#FF0000', to: '#ffff00' },
    ]);
    expect(plan.conflicts).toEqual([]);
  });

  it('a setting someone changed since is left and reported; one already back is neither', () => {
    const undo = protection([
      { field: 'opacity', before: 0.6, after: 0.3 },
      { field: 'preventZoom', before: false, after: true },
    ]);
    const plan = planProtection(undo, config({ opacity: 0.45, preventZoom: false }));
    expect(plan.back).toEqual([]);
    expect(plan.conflicts).toEqual([{ item: 'opacity', now: 0.45, heldBy: null }]);
  });

  it('a later time-boxed change holding the setting keeps it, and inherits the value to go back to', () => {
    const undo = protection([{ field: 'opacity', before: 0.6, after: 0.4 }]);
    const later: Undo = protection([{ field: 'opacity', before: 0.4, after: 0.3 }]);
    const plan = planProtection(undo, config({ opacity: 0.3 }), [{ id: 'R-LATER001', undo: later }]);
    expect(plan.conflicts).toEqual([{ item: 'opacity', now: 0.3, heldBy: 'R-LATER001' }]);
    expect(handedOver(later, plan.handOvers)).toEqual(
      protection([{ field: 'opacity', before: 0.6, after: 0.3 }]),
    );
  });
});

describe('planning a whitelist put-back', () => {
  const undo: Extract<Undo, { kind: 'whitelist' }> = {
    kind: 'whitelist',
    before: ['1.1.1.1', '2.2.2.2'],
    added: ['5.6.7.8'],
    removed: ['2.2.2.2'],
  };

  it('removes what vidops added and adds back what it removed, keeping what others added', () => {
    const plan = planWhitelist(undo, ['1.1.1.1', '5.6.7.8', '9.9.9.9']);
    expect(plan).toMatchObject({ add: ['2.2.2.2'], remove: ['5.6.7.8'], conflicts: [] });
    expect(plan.next).toEqual(['1.1.1.1', '9.9.9.9', '2.2.2.2']);
  });

  it('an address others removed, or added back, meanwhile stays as they left it', () => {
    const plan = planWhitelist(undo, ['1.1.1.1', '2.2.2.2']);
    expect(plan.next).toBeNull();
    expect(plan.conflicts).toEqual([
      { item: '5.6.7.8', now: null, heldBy: null },
      { item: '2.2.2.2', now: '2.2.2.2', heldBy: null },
    ]);
  });

  it('an address a later change in force did the opposite to is left to it, and its end leaves it so', () => {
    // Bob's later change removed 5.6.7.8 (which this one added) and is in force.
    const later: Undo = {
      kind: 'whitelist',
      before: ['1.1.1.1', '5.6.7.8'],
      added: [],
      removed: ['5.6.7.8'],
    };
    const plan = planWhitelist(undo, ['1.1.1.1', '9.9.9.9'], [{ id: 'R-BOB', undo: later }]);
    expect(plan.remove).toEqual([]);
    expect(plan.conflicts).toContainEqual({ item: '5.6.7.8', now: null, heldBy: 'R-BOB' });
    expect(plan.handOvers).toEqual([{ holderId: 'R-BOB', field: '5.6.7.8', before: null }]);
    expect(handedOver(later, plan.handOvers)).toEqual({ ...later, removed: [] });
  });
});
