import type { OperationRequest } from '../../src/core/model.js';
import { repeatNeed, type ViewerUnblock } from '../../src/core/viewer-history.js';
import type { Store } from '../../src/store/store.js';
import { AGENT, at, eventFor, LEAD, newEvent, newRequest } from './fixtures.js';

const SARA = AGENT;
const OMID = { id: 'U0OMID', name: 'Omid (support)' };
const VIEWER = '09121234567';

/** An unblock of `mobileNumber` asked by `requester` at minute `minute`. */
function unblock(mobileNumber: string, minute: number, requester = SARA): OperationRequest {
  return newRequest({
    operation: 'viewer.unblock',
    params: { mobileNumber },
    target: mobileNumber,
    preview: { kind: 'unblock', mobileNumber, blocked: true, actionType: null },
    requester,
    state: 'executing',
    quorum: 0,
    expiresAt: null,
    createdAt: at(minute),
    updatedAt: at(minute),
  } as Partial<OperationRequest>);
}

/**
 * A viewer's history and the repeat count, as every store must keep them: read by number through
 * the viewer index, and counted under a lock of the viewer across replicas.
 * @see docs/commands.md, "A viewer's history"
 */
export function describeViewerContract(
  name: string,
  open: () => Promise<[Store, Store]>,
  /** Counts the statements the store sends from now on; `stop` ends the count and says it. */
  countStatements: () => { stop(): number },
): void {
  describe(`${name}: a viewer's history`, () => {
    let stores: [Store, Store];
    beforeEach(async () => {
      stores = await open();
    });
    afterEach(async () => {
      await Promise.all([...new Set(stores)].map((s) => s.close()));
    });

    /** Runs an unblock through to `end`, with its reason and (when given) a lead's approval. */
    async function unblocked(
      r: OperationRequest,
      minute: number,
      end: 'succeeded' | 'failed' | 'rejected',
      options: { approvedBy?: typeof LEAD; reason?: string } = {},
    ) {
      await stores[0].createRequest(r, [
        eventFor(r, 'requested', {
          at: at(minute),
          actor: r.requester,
          outcome: { reason: options.reason ?? null },
        }),
      ]);
      const steps = [
        ...(options.approvedBy
          ? [eventFor(r, 'approved', { at: at(minute), actor: options.approvedBy })]
          : []),
        eventFor(r, end, {
          at: at(minute),
          actor: end === 'rejected' ? LEAD : r.requester,
          error: end === 'failed' ? { name: 'ServerError', message: 'upstream said 500' } : null,
        }),
      ];
      await stores[1].transition(r.id, 1, { state: end }, at(minute), steps);
    }

    it('agents unblock one viewer in several ways: its history reads newest first, with who asked, who approved, the outcome and the reason', async () => {
      await unblocked(unblock(VIEWER, 1), 1, 'succeeded', { reason: 'ticket 41' });
      await unblocked(unblock('09351112233', 2), 2, 'succeeded');
      await unblocked(unblock(VIEWER, 3, OMID), 3, 'succeeded', { approvedBy: LEAD, reason: 'ticket 52' });
      await unblocked(unblock(VIEWER, 4), 4, 'rejected');
      await unblocked(unblock(VIEWER, 5, OMID), 5, 'failed');
      await stores[0].appendAudit([
        newEvent({
          type: 'denied',
          operation: 'viewer.unblock',
          params: { mobileNumber: VIEWER },
          at: at(6),
        }),
      ]);

      const history = await stores[1].viewerUnblocks({ viewer: VIEWER, limit: 10 });

      expect(history.map((u) => [u.outcome, u.requester.id, u.askedAt])).toEqual([
        ['denied', SARA.id, at(6)],
        ['failed', OMID.id, at(5)],
        ['rejected', SARA.id, at(4)],
        ['succeeded', OMID.id, at(3)],
        ['succeeded', SARA.id, at(1)],
      ]);
      expect(history[1]?.error).toBe('upstream said 500');
      expect(history[2]?.decidedBy?.id).toBe(LEAD.id);
      expect(history[3]).toMatchObject({ reason: 'ticket 52', approvers: [LEAD] });
      expect(history[4]).toMatchObject({ reason: 'ticket 41', approvers: [], viewer: VIEWER });
    });

    it('a history is bounded: the newest N unblocks, or those since a time', async () => {
      for (let minute = 1; minute <= 6; minute += 1) {
        await unblocked(unblock(VIEWER, minute), minute, 'succeeded');
      }

      const newest = await stores[0].viewerUnblocks({ viewer: VIEWER, limit: 2 });
      const since = await stores[0].viewerUnblocks({ viewer: VIEWER, limit: 100, since: at(4) });

      expect(newest.map((u) => u.askedAt)).toEqual([at(6), at(5)]);
      expect(since.map((u) => u.askedAt)).toEqual([at(6), at(5), at(4)]);
      expect(await stores[0].viewerUnblocks({ viewer: '09350000000', limit: 10 })).toEqual([]);
    });

    it('two agents race on the 2nd unblock of one viewer: one runs as the 2nd, the other waits for a lead as the 3rd', async () => {
      await unblocked(unblock(VIEWER, 1), 1, 'succeeded');
      const rule = { within: '30d', withinMs: 30 * 86_400_000, max: 2 };
      const ask = (store: Store, who: typeof SARA) =>
        store.createCountedRequest(
          {
            actorId: who.id,
            operation: 'viewer.unblock',
            types: ['requested'],
            since: at(0),
            viewer: { viewer: VIEWER, since: at(0) },
          },
          (_counted, earlier) => {
            const need = repeatNeed(rule, VIEWER, earlier);
            const r = {
              ...unblock(VIEWER, 2, who),
              ...(need === null ? {} : { state: 'pending' as const, quorum: 1, expiresAt: at(60) }),
            };
            const asked = eventFor(r, 'requested', { at: at(2), actor: who });
            return {
              request: r,
              events: need === null ? [asked, eventFor(r, 'executing', { at: at(2) })] : [asked],
            };
          },
        );

      const [a, b] = await Promise.all([ask(stores[0], SARA), ask(stores[1], OMID)]);

      expect([a.request.state, b.request.state].sort()).toEqual(['executing', 'pending']);
      const history = await stores[0].viewerUnblocks({ viewer: VIEWER, limit: 10 });
      expect(history.map((u) => u.outcome).sort()).toEqual(['pending', 'running', 'succeeded']);
    });

    it('an agent asks for a batch of viewers: each one’s unblocks in the window are read for its count in one statement, whatever the batch’s size', async () => {
      const others = Array.from({ length: 30 }, (_, i) => `0935${String(1_000_000 + i)}`);
      await unblocked(unblock(VIEWER, 1), 1, 'succeeded');
      await unblocked(unblock(VIEWER, 3, OMID), 3, 'failed');
      await unblocked(unblock(others[0] ?? '', 2), 2, 'succeeded');
      await unblocked(unblock(others[1] ?? '', 0), 0, 'succeeded');
      /** The histories a batch of `viewers` is decided on, and how many statements its recording sent. */
      const ask = async (viewers: string[], minute: number) => {
        let read = new Map<string, readonly ViewerUnblock[]>();
        const counting = countStatements();
        await stores[1].createCountedRequest(
          {
            actorId: SARA.id,
            operation: 'viewer.unblock-many',
            types: ['requested'],
            since: at(0),
            viewers: { viewers, since: at(1) },
          },
          (_counted, _earlier, byViewer) => {
            read = new Map(byViewer);
            const r = { ...unblock(VIEWER, minute), state: 'pending' as const, quorum: 1 };
            return { request: r, events: [eventFor(r, 'requested', { at: at(minute) })] };
          },
        );
        return { read, statements: counting.stop() };
      };

      const small = await ask([VIEWER, others[0] ?? ''], 10);
      const large = await ask([VIEWER, ...others], 11);

      expect(large.statements).toBe(small.statements);
      const outcomes = (viewer: string) => (large.read.get(viewer) ?? []).map((u) => [u.outcome, u.askedAt]);
      expect(outcomes(VIEWER)).toEqual([
        ['pending', at(10)],
        ['failed', at(3)],
        ['succeeded', at(1)],
      ]);
      expect(outcomes(others[0] ?? '')).toEqual([['succeeded', at(2)]]);
      // Asked before the window: not read.
      expect(outcomes(others[1] ?? '')).toEqual([]);
      expect(large.read.size).toBe(31);
    });

    it('a failed or rejected unblock does not count toward a repeat; a waiting one does', async () => {
      await unblocked(unblock(VIEWER, 1), 1, 'failed');
      await unblocked(unblock(VIEWER, 2), 2, 'rejected');
      const waiting = { ...unblock(VIEWER, 3), state: 'pending' as const, quorum: 1 };
      await stores[0].createRequest(waiting, [eventFor(waiting, 'requested', { at: at(3) })]);
      const rule = { within: '1h', withinMs: 3_600_000, max: 1 };

      const earlier = await stores[1].viewerUnblocks({ viewer: VIEWER, limit: 10, since: at(0) });

      expect(repeatNeed(rule, VIEWER, earlier)).toEqual({ viewer: VIEWER, nth: 2, max: 1, within: '1h' });
      expect(repeatNeed(rule, VIEWER, earlier.slice(1))).toBeNull();
      expect(repeatNeed(null, VIEWER, earlier)).toBeNull();
    });
  });
}
