import {
  ava,
  CONFIG,
  forMs,
  HOUR,
  lee,
  pending,
  posts,
  sandbox,
  useTwoReplicas,
  WHITELIST,
  type World,
} from '../../test/services/replicas.js';
import { cliActor } from '../core/actor.js';
import type { Actor, OperationRequest } from '../core/model.js';
import { buildPolicy } from '../core/policy.js';
import { say } from '../core/said.js';
import { english } from '../i18n/said.js';
import type { Directory, Operations } from './types.js';

/**
 * Limits that must hold under concurrency, at the services, on two replicas sharing one database:
 * a break-glass change that is also time-boxed, its put-back by the sweep and its review by the
 * leads racing, and the break-glass limit once the change went back.
 * @see docs/approvals.md, "Break-glass and delegation"; docs/time-boxed.md
 */

const { kinds, setup } = useTwoReplicas('lim', 5000);

const leo: Actor = { id: 'U0LEAD2', name: 'Leo' };
const directory: Directory = { groupsOf: async () => [], kindOf: async () => 'person' };

const GLASS = `
protect.set:
  approval: true
  breakGlass: { allowed: [${ava.id}], reviewWithin: 1h, max: 1, per: 24h }
`;

const words = { reason: 'a leak is going on right now', words: 'break glass' };

function replicas(w: World): [Operations, Operations] {
  const policy = buildPolicy({ leads: [lee.id, leo.id], fileText: GLASS, fileName: 'policy.yaml' });
  return [w.build(0, { policy, directory }), w.build(1, { policy, directory })];
}

async function stored(w: World, id: string): Promise<OperationRequest> {
  const r = await w.stores[0].getRequest(id);
  if (r === null) throw new Error(`no request ${id}`);
  return r;
}

const count = (types: string[], type: string) => types.filter((t) => t === type).length;

describe.each(kinds)('%s', (kind) => {
  test('an agent breaks the glass on a one-hour change; at its end two replicas sweep while both leads review and the reminder runs: put back once, reviewed once', async () => {
    const w = await setup(kind);
    const [a, b] = replicas(w);
    const asked = await pending(
      w,
      { kind: 'protect.set', changes: { preventZoom: true } },
      forMs(HOUR, '1h'),
      ava,
      a,
    );
    expect(await a.breakGlass(asked.id, ava, words)).toMatchObject({ kind: 'executed' });
    expect(sandbox.state().config.preventZoom).toBe(true);

    w.advance(HOUR);
    const [, , first, second] = await Promise.all([
      a.sweepTimeBoxes(),
      b.sweepTimeBoxes(),
      a.reviewBreakGlass(asked.id, lee, 'acknowledged', null),
      b.reviewBreakGlass(asked.id, leo, 'flagged', 'why not ask Leo first?'),
      a.remindBreakGlass(),
      b.remindBreakGlass(),
    ]);
    await Promise.all([a.sweepTimeBoxes(), b.sweepTimeBoxes()]);

    expect([first.kind, second.kind].sort()).toEqual(['refused', 'reviewed']);
    expect(posts(CONFIG)).toHaveLength(2);
    expect(sandbox.state().config.preventZoom).toBe(false);
    const row = await stored(w, asked.id);
    expect(row.timeBox?.state).toBe('done');
    expect(row.breakGlass?.review).not.toBeNull();
    const types = await w.events(asked.id);
    expect(count(types, 'break-glass')).toBe(1);
    expect(count(types, 'break-glass-reviewed')).toBe(1);
    expect(count(types, 'break-glass-overdue')).toBeLessThanOrEqual(1);
    expect(count(types, 'reverting')).toBe(1);
    expect(count(types, 'reverted')).toBe(1);
    // The put-back is the system's, not a second break-glass, and waits for no review.
    const unreviewed = await w.stores[1].listRequests({ breakGlassUnreviewed: true, limit: 10 });
    expect(unreviewed).toHaveLength(0);
  });

  test('an agent at the break-glass limit extends their broken-glass change: the extension waits for a lead, and breaking the glass on it is refused', async () => {
    const w = await setup(kind);
    const [a, b] = replicas(w);
    const asked = await pending(
      w,
      { kind: 'protect.set', changes: { preventZoom: true } },
      forMs(HOUR, '1h'),
      ava,
      a,
    );
    expect(await a.breakGlass(asked.id, ava, words)).toMatchObject({ kind: 'executed' });

    const extended = await b.extend(asked.id, ava, forMs(2 * HOUR, '2h'), null);
    if (extended.kind !== 'pending') throw new Error(`expected pending, got ${extended.kind}`);
    const again = await a.breakGlass(extended.request.id, ava, words);

    expect(again).toMatchObject({ kind: 'refused', reason: english(say.glassRateLimited(1, '24h')) });
    expect(await stored(w, extended.request.id)).toMatchObject({ state: 'pending' });
    expect(posts(CONFIG)).toHaveLength(1);
  });

  test('a lead approves in Slack while the agent breaks the glass on the other replica: it runs once, and a break-glass that lost uses none of the limit', async () => {
    const w = await setup(kind);
    const [a, b] = replicas(w);
    const first = await pending(w, { kind: 'protect.set', changes: { preventZoom: true } }, null, ava, a);

    const [approved, broken] = await Promise.all([
      b.approve(first.id, lee),
      a.breakGlass(first.id, ava, words),
    ]);

    expect(posts(CONFIG)).toHaveLength(1);
    expect([approved.kind, broken.kind].sort()).toEqual(['executed', 'refused']);
    const types = await w.events(first.id);
    expect(count(types, 'executing')).toBe(1);
    // Whoever won, the limit counts only a break-glass that ran.
    const second = await pending(w, { kind: 'protect.set', changes: { preventZoom: false } }, null, ava, b);
    const next = await b.breakGlass(second.id, ava, words);
    expect(next.kind).toBe(broken.kind === 'executed' ? 'refused' : 'executed');
  });

  test('the agent cancels on the CLI the request they asked for there while a lead approves it in Slack: one of them wins, nothing runs after a cancel', async () => {
    const w = await setup(kind);
    const [a, b] = replicas(w);
    const sara = cliActor('sara', { id: ava.id, name: 'Ava' });
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const asked = await pending(
        w,
        { kind: 'whitelist.set', change: 'add', ips: [`3.3.3.${i + 1}`] },
        null,
        sara,
        a,
      );
      const before = posts(WHITELIST).length;
      const [cancelled, approved] = await Promise.all(
        i % 2 === 0
          ? [a.cancel(asked.id, sara, null), b.approve(asked.id, lee)]
          : [b.cancel(asked.id, sara, null), a.approve(asked.id, lee)],
      );
      const row = await stored(w, asked.id);
      outcomes.push(row.state);
      if (row.state === 'cancelled') {
        expect(cancelled.kind).toBe('cancelled');
        expect(approved.kind).toBe('refused');
        expect(posts(WHITELIST)).toHaveLength(before);
      } else {
        expect(row.state).toBe('succeeded');
        expect(cancelled.kind).toBe('refused');
        expect(posts(WHITELIST)).toHaveLength(before + 1);
      }
    }
    expect(outcomes).toHaveLength(4);
  });
});
