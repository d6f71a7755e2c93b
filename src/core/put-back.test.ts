import type { ProtectionConfig } from './protection.js';
import { heldItems, planProtection, planWhitelist } from './put-back.js';
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
});

describe('what a window holds', () => {
  it('each protection field it sets, each address it adds or removes (in canonical form), by operation', () => {
    expect(
      heldItems('protect.set', protection([{ field: 'player.offlineMode', before: false, after: true }])),
    ).toEqual(['protect.set:player.offlineMode']);
    expect(
      heldItems('whitelist.set', { kind: 'whitelist', added: ['2001:DB8::1'], removed: ['5.6.7.8'] }),
    ).toEqual(['whitelist.set:2001:db8::1', 'whitelist.set:5.6.7.8']);
    expect(heldItems('folder.edit', { kind: 'edit' })).toEqual([]);
  });
});
