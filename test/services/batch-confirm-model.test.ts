import fc from 'fast-check';
import { type BatchDeps, cancelBatch, confirmBatch } from '../../src/commands/batch.js';
import { createDrafts } from '../../src/services/drafts.js';
import { CALLBACKS } from '../../src/views/ids.js';
import { ava, bob, type Kind, MINUTE, sandbox, useTwoReplicas, type World } from './replicas.js';

/**
 * Confirm and Cancel of a batch's preview against a small model (docs/commands.md, "Many numbers
 * at once"): previews shown, clicked by who was shown them or by someone else, twice, on either
 * replica, after Cancel, after the hour. Whatever the order, a preview is asked for at most once,
 * only by who was shown it, never after Cancel or its hour, and each one asked for is one request.
 */

const { kinds, setup } = useTwoReplicas('batchconfirm', 2_000);
const UNBLOCK = '/v1/analysis/user/video/anomaly';
const silent = { info() {}, warn() {}, error() {} };

interface Real {
  w: World;
  replicas: [BatchDeps, BatchDeps];
  draftIds: string[];
  requests: string[];
}

interface Model {
  /** Each preview shown: still open, or how it ended. */
  previews: ('open' | 'confirmed' | 'cancelled' | 'expired')[];
}

type Cmd = fc.AsyncCommand<Model, Real>;

const numbersOf = (n: number) => [`0912${String(8_000_000 + n * 2)}`, `0912${String(8_000_001 + n * 2)}`];

class Show implements Cmd {
  check = (m: Readonly<Model>) => m.previews.length < 4;
  async run(m: Model, r: Real) {
    const numbers = numbersOf(m.previews.length);
    r.draftIds.push(await r.replicas[0].drafts.open(ava.id, CALLBACKS.batchPreview, { numbers }));
    m.previews.push('open');
  }
  toString = () => 'ava is shown a preview';
}

class Confirm implements Cmd {
  constructor(
    readonly preview: number,
    readonly replica: 0 | 1,
    readonly byOther: boolean,
  ) {}
  check = (m: Readonly<Model>) => this.preview < m.previews.length;
  async run(m: Model, r: Real) {
    const result = await confirmBatch(
      r.replicas[this.replica],
      this.byOther ? bob : ava,
      r.draftIds[this.preview] ?? '',
    );
    const asked = !this.byOther && m.previews[this.preview] === 'open';
    expect(result !== null).toBe(asked);
    if (result === null) return;
    expect(result.kind).toBe('executed');
    if (result.kind !== 'denied') r.requests.push(result.request.id);
    m.previews[this.preview] = 'confirmed';
  }
  toString = () =>
    `${this.byOther ? 'bob' : 'ava'} confirms preview ${this.preview} on replica ${this.replica}`;
}

class Cancel implements Cmd {
  constructor(
    readonly preview: number,
    readonly replica: 0 | 1,
  ) {}
  check = (m: Readonly<Model>) => this.preview < m.previews.length;
  async run(m: Model, r: Real) {
    const cancelled = await cancelBatch(r.replicas[this.replica], ava.id, r.draftIds[this.preview] ?? '');
    expect(cancelled).toBe(m.previews[this.preview] === 'open');
    if (cancelled) m.previews[this.preview] = 'cancelled';
  }
  toString = () => `ava cancels preview ${this.preview} on replica ${this.replica}`;
}

class HourPasses implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    r.w.advance(61 * MINUTE);
    m.previews = m.previews.map((p) => (p === 'open' ? 'expired' : p));
  }
  toString = () => 'an hour passes';
}

describe.each(kinds)('Confirm and Cancel of a batch preview, whatever the clicks (%s)', (kind: Kind) => {
  async function world(): Promise<Real> {
    const w = await setup(kind);
    const drafts = (i: 0 | 1) => createDrafts({ store: w.stores[i], clock: w.now, logger: silent });
    return {
      w,
      replicas: [
        { drafts: drafts(0), ops: w.ops },
        { drafts: drafts(1), ops: w.other },
      ],
      draftIds: [],
      requests: [],
    };
  }

  async function checkInvariants(m: Model, r: Real): Promise<void> {
    const confirmed = m.previews.filter((p) => p === 'confirmed').length;
    expect(new Set(r.requests).size).toBe(confirmed);
    // Each confirmed preview's two numbers reached the service once; nothing else did.
    const sent = sandbox.requests().filter((q) => q.method === 'POST' && q.path === UNBLOCK);
    expect(sent).toHaveLength(confirmed * 2);
    const bodies = sent.map((q) => JSON.stringify(q.body));
    expect(new Set(bodies).size).toBe(bodies.length);
  }

  it('a preview clicked twice on both replicas is asked for once', async () => {
    sandbox.reset();
    const r = await world();
    const m: Model = { previews: [] };
    for (const cmd of [new Show(), new Confirm(0, 0, false), new Confirm(0, 1, false), new Cancel(0, 1)])
      await cmd.run(m, r);
    await checkInvariants(m, r);
  });

  it('asks for each preview at most once, only for who was shown it, never after Cancel or the hour', async () => {
    const commands = [
      fc.constant(new Show()),
      fc
        .tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom<0 | 1>(0, 1), fc.boolean())
        .map(([p, i, other]) => new Confirm(p, i, other)),
      fc
        .tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom<0 | 1>(0, 1))
        .map(([p, i]) => new Cancel(p, i)),
      fc.constant(new HourPasses()),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 10 }), async (cmds) => {
        sandbox.reset();
        const r = await world();
        const m: Model = { previews: [] };
        await fc.asyncModelRun(() => ({ model: m, real: r }), cmds);
        await checkInvariants(m, r);
      }),
      { numRuns: 15, verbose: true },
    );
  }, 120_000);
});
