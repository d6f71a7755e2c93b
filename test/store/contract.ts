import { createHasher, GENESIS_HASH, verifyChain } from '../../src/core/audit-chain.js';
import { StateConflictError } from '../../src/core/errors.js';
import type { JsonValue } from '../../src/core/json.js';
import type { AuditEvent, OperationRequest, RequestState } from '../../src/core/model.js';
import { newTimeBox } from '../../src/core/time-box.js';
import { DatabaseTooNewError } from '../../src/store/migrations.js';
import type { ModalDraft, NotificationJob, RequestDm, RequestDmKind, Store } from '../../src/store/store.js';
import { AGENT, at, collect, dueBy, eventFor, LEAD, newEvent, newRequest, T0 } from './fixtures.js';

/** The hasher every contract store is opened with (plain SHA-256). */
export const contractHash = createHasher();

/** Values that tend not to survive a careless round trip through a database. */
const AWKWARD_JSON: JsonValue = {
  zKey: 'sorted last',
  aKey: 'sorted first',
  persian: 'شماره ۰۹۱۲۳۴۵۶۷۸۹ مسدود شد',
  emoji: 'blocked 🚫 viewer',
  quotes: 'say "hi" \\ back\nnew line\ttab',
  nested: { deeper: [1, [2, [3, { x: null }]]], empty: {}, none: [] },
  numbers: [0, 1, -1, 0.1, 1e21, 123456789.125, Number.MAX_SAFE_INTEGER, -2.5e-7],
  flags: [true, false, null],
};

/**
 * A duplicate event ID as each database words it. Matched by shape, not class: better-sqlite3's
 * error class can belong to another test file's module context.
 */
const UNIQUE_VIOLATION = { message: expect.stringMatching(/unique/i) };

/**
 * The behaviour every `Store` adapter must have. `open` returns a fresh, migrated, empty store.
 * @see docs/architecture.md, "Approvals", "Audit log", "Scale"
 */
export function describeStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`${name} store`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await store.close();
    });

    async function chainOk(): Promise<number> {
      const result = await verifyChain(store.iterateAudit(), contractHash);
      if (!result.ok) throw new Error(`chain broken at #${result.brokenAt}: ${result.reason}`);
      return result.count;
    }

    describe('requests', () => {
      it('agent creates a request: it reads back exactly, with its event chained', async () => {
        const request = newRequest({
          params: { bucketId: 'b1' },
          preview: {
            kind: 'delete',
            resource: 'folder',
            id: 'b1',
            title: 'شماره ۰۹۱۲ 🚫 "hi"\n',
            filesCount: 0,
          },
          result: AWKWARD_JSON,
        });
        const created = await store.createRequest(request, [eventFor(request, 'requested')]);

        expect(created.request).toEqual(request);
        expect(await store.getRequest(request.id)).toEqual(request);
        expect(created.events).toHaveLength(1);
        expect(created.events[0]).toMatchObject({
          seq: 1,
          prevHash: GENESIS_HASH,
          type: 'requested',
          requestId: request.id,
        });
        expect(await store.auditHead()).toEqual({ seq: 1, hash: created.events[0]?.hash });
        expect(await chainOk()).toBe(1);
      });

      it('a second request with the same ID is refused and records nothing', async () => {
        const request = newRequest();
        await store.createRequest(request, [eventFor(request, 'requested')]);

        await expect(
          store.createRequest(newRequest({ id: request.id, target: 'other' }), [
            eventFor(request, 'requested'),
          ]),
        ).rejects.toBeInstanceOf(StateConflictError);
        expect((await store.getRequest(request.id))?.target).toBe(request.target);
        expect((await store.auditHead())?.seq).toBe(1);
        expect(await store.outboxDepth()).toBe(1);
        expect(await store.notificationDepth()).toBe(1);
      });

      it('changes asked for at the same moment each commit or fail alone, in one unbroken chain', async () => {
        const first = newRequest({ id: 'R-AAAAAAA1' });
        const second = newRequest({ id: 'R-AAAAAAA2' });
        const broken = newRequest({ id: 'R-AAAAAAA3' });
        // Writes in one turn of the event loop: one refused (its ID is taken), one failing after
        // its request row was written (an event that cannot be written as JSON).
        const results = await Promise.allSettled([
          store.createRequest(first, [eventFor(first, 'requested')]),
          store.createRequest(newRequest({ id: first.id, target: 'other' }), [eventFor(first, 'requested')]),
          store.createRequest(broken, [eventFor(broken, 'requested', { outcome: { late: Number.NaN } })]),
          store.createRequest(second, [eventFor(second, 'requested')]),
          store.markDelivered('request:same-moment', T0),
        ]);

        expect(results.map((r) => r.status)).toEqual([
          'fulfilled',
          'rejected',
          'rejected',
          'fulfilled',
          'fulfilled',
        ]);
        expect(results[1]?.status === 'rejected' && results[1].reason).toBeInstanceOf(StateConflictError);
        expect((await store.getRequest(first.id))?.target).toBe(first.target);
        expect(await store.getRequest(broken.id)).toBeNull();
        expect(await store.getRequest(second.id)).not.toBeNull();
        expect(await store.markDelivered('request:same-moment', T0)).toBe(false);
        expect(await chainOk()).toBe(2);
        expect(await store.outboxDepth()).toBe(2);
      });

      it('an unknown request ID reads as null', async () => {
        expect(await store.getRequest('R-NOPE')).toBeNull();
      });

      it('lists requests newest first, filtered by state and requester, 50 by default', async () => {
        const other = { id: 'U0OTHER', name: 'Omid' };
        for (let i = 0; i < 55; i += 1) {
          const requester = i % 5 === 0 ? other : AGENT;
          const state = i % 3 === 0 ? 'approved' : 'pending';
          await store.createRequest(
            newRequest({ id: `R-${String(i).padStart(3, '0')}`, createdAt: at(i), requester, state }),
            [],
          );
        }

        const all = await store.listRequests();
        expect(all).toHaveLength(50);
        expect(all[0]?.id).toBe('R-054');
        expect(all[49]?.id).toBe('R-005');

        const mine = await store.listRequests({ requesterId: 'U0OTHER', limit: 100 });
        expect(mine.map((r) => r.id)).toEqual([
          'R-050',
          'R-045',
          'R-040',
          'R-035',
          'R-030',
          'R-025',
          'R-020',
          'R-015',
          'R-010',
          'R-005',
          'R-000',
        ]);

        const approvedOthers = await store.listRequests({ requesterId: 'U0OTHER', states: ['approved'] });
        expect(approvedOthers.map((r) => r.id)).toEqual(['R-045', 'R-030', 'R-015', 'R-000']);

        const few = await store.listRequests({ states: ['pending', 'approved'], limit: 3 });
        expect(few.map((r) => r.id)).toEqual(['R-054', 'R-053', 'R-052']);
        expect(await store.listRequests({ states: ['succeeded'] })).toEqual([]);
      });

      it('lead approves: the change applies, version bumps and the event is in the same chain', async () => {
        const request = newRequest();
        await store.createRequest(request, [eventFor(request, 'requested')]);
        const approvals = [{ by: LEAD, at: at(5) }];

        const result = await store.transition(request.id, 1, { state: 'approved', approvals }, at(5), [
          eventFor(request, 'approved', { actor: LEAD, at: at(5), outcome: { approvals: 1, quorum: 1 } }),
        ]);

        const expected: OperationRequest = {
          ...request,
          state: 'approved',
          approvals,
          updatedAt: at(5),
          version: 2,
        };
        expect(result?.request).toEqual(expected);
        expect(await store.getRequest(request.id)).toEqual(expected);
        expect(result?.events.map((e) => [e.seq, e.type, e.actor.id])).toEqual([[2, 'approved', LEAD.id]]);
        expect(await chainOk()).toBe(2);
      });

      it('a transition records the result, error, Slack message and decision fields', async () => {
        const request = newRequest();
        await store.createRequest(request, []);
        const patch = {
          state: 'failed',
          result: AWKWARD_JSON,
          error: { name: 'ServerError', message: 'upstream answered 502', status: 502 },
          slack: { channel: 'C0APPROVALS', ts: '1700000000.000100' },
          decidedBy: LEAD,
          decisionNote: 'tried once',
          expiresAt: null,
        } as const;

        const result = await store.transition(request.id, 1, patch, at(9), []);

        expect(result?.request).toEqual({ ...request, ...patch, updatedAt: at(9), version: 2 });
        expect(result?.events).toEqual([]);
      });

      it('a follow-up (reminder, escalation) is kept on the request and read back; older rows have none', async () => {
        const request = newRequest();
        await store.createRequest(request, []);
        expect((await store.getRequest(request.id))?.followUp).toBeUndefined();
        const followUp = {
          remindedAt: at(3),
          remindedBy: AGENT,
          autoReminded: false,
          escalatedAt: at(4),
          escalatedTo: ['S0BACKUP', 'U0BOSS'],
          expiryWarnedAt: null,
        };
        const result = await store.transition(request.id, 1, { followUp }, at(4), []);
        expect(result?.request.followUp).toEqual(followUp);
        expect(await store.getRequest(request.id)).toEqual({
          ...request,
          followUp,
          updatedAt: at(4),
          version: 2,
        });
        // A later change that says nothing of it keeps it.
        const approved = await store.transition(request.id, 2, { state: 'approved' }, at(5), []);
        expect(approved?.request.followUp).toEqual(followUp);
      });

      it('two leads click at once: the stale version gets null, nothing changes, no event is written', async () => {
        const request = newRequest();
        await store.createRequest(request, [eventFor(request, 'requested')]);
        const first = await store.transition(request.id, 1, { state: 'approved' }, at(1), [
          eventFor(request, 'approved', { actor: LEAD }),
        ]);
        expect(first?.request.version).toBe(2);
        const headBefore = await store.auditHead();

        const stale = await store.transition(request.id, 1, { state: 'rejected', decidedBy: LEAD }, at(2), [
          eventFor(request, 'rejected', { actor: LEAD }),
        ]);

        expect(stale).toBeNull();
        expect(await store.getRequest(request.id)).toEqual(first?.request);
        expect(await store.auditHead()).toEqual(headBefore);
        expect(await store.outboxDepth()).toBe(2);
      });

      it('a transition of an unknown request returns null', async () => {
        expect(await store.transition('R-NOPE', 1, { state: 'approved' }, at(1), [newEvent()])).toBeNull();
        expect(await store.auditHead()).toBeNull();
      });

      it('a failing event insert rolls the state change back', async () => {
        const request = newRequest();
        const requested = eventFor(request, 'requested');
        await store.createRequest(request, [requested]);

        // Reusing an event ID violates its uniqueness after the request row was already updated.
        await expect(
          store.transition(request.id, 1, { state: 'approved' }, at(1), [
            eventFor(request, 'approved'),
            { ...eventFor(request, 'executing'), id: requested.id },
          ]),
        ).rejects.toMatchObject(UNIQUE_VIOLATION);

        expect(await store.getRequest(request.id)).toEqual(request);
        expect((await store.auditHead())?.seq).toBe(1);
        expect(await store.outboxDepth()).toBe(1);
        expect(await store.notificationDepth()).toBe(1);
        const again = await store.transition(request.id, 1, { state: 'approved' }, at(1), [
          eventFor(request, 'approved'),
        ]);
        expect(again?.events[0]?.seq).toBe(2);
        expect(await chainOk()).toBe(2);
      });

      it('a failing event insert on create leaves no request behind', async () => {
        const request = newRequest();
        const ev = eventFor(request, 'requested');

        await expect(store.createRequest(request, [ev, { ...ev }])).rejects.toMatchObject(UNIQUE_VIOLATION);

        expect(await store.getRequest(request.id)).toBeNull();
        expect(await store.auditHead()).toBeNull();
        expect(await store.notificationDepth()).toBe(0);
      });

      it('lists pending requests whose expiry is due, inclusive, and nothing else', async () => {
        const due = newRequest({ id: 'R-DUE', expiresAt: at(60) });
        const overdue = newRequest({ id: 'R-OVERDUE', expiresAt: at(30) });
        const later = newRequest({ id: 'R-LATER', expiresAt: at(61) });
        const never = newRequest({ id: 'R-NEVER', expiresAt: null });
        const decided = newRequest({ id: 'R-DECIDED', expiresAt: at(10), state: 'approved' });
        for (const r of [due, overdue, later, never, decided]) await store.createRequest(r, []);

        const expired = await dueBy(store, at(60));

        expect(expired.map((r) => r.id)).toEqual(['R-OVERDUE', 'R-DUE']);
      });

      it('reads what is due soonest first, page after page from the last one read, and a follow-up by the time set', async () => {
        const ids = ['R-D1', 'R-D2', 'R-D3', 'R-D4', 'R-D5'];
        for (const [i, id] of ids.entries()) {
          await store.createRequest(newRequest({ id, expiresAt: at(10 * Math.ceil(i / 2)) }), []);
        }
        const pages: string[][] = [];
        let after: { at: string; id: string } | undefined;
        for (let page = await store.listDue({ kind: 'expiry', by: at(30), limit: 2 }); page.length > 0; ) {
          pages.push(page.map((due) => due.request.id));
          const last = page.at(-1);
          after = last && { at: last.at, id: last.request.id };
          page = await store.listDue({ kind: 'expiry', by: at(30), after, limit: 2 });
        }
        expect(pages).toEqual([['R-D1', 'R-D2'], ['R-D3', 'R-D4'], ['R-D5']]);

        expect((await dueBy(store, at(0), 'followUp')).map((r) => r.id)).toEqual(ids);
        await store.setFollowUpAt('R-D1', at(60));
        await store.setFollowUpAt('R-D2', null);
        expect((await dueBy(store, at(59), 'followUp')).map((r) => r.id)).toEqual(ids.slice(2));
        expect((await dueBy(store, at(60), 'followUp')).map((r) => r.id)).toEqual([...ids.slice(2), 'R-D1']);
      });

      it('expiry can be moved or cleared by a transition', async () => {
        const request = newRequest({ expiresAt: at(10) });
        await store.createRequest(request, []);

        await store.transition(request.id, 1, { expiresAt: at(120) }, at(1), []);
        expect((await dueBy(store, at(60))).map((r) => r.id)).toEqual([]);
        expect((await dueBy(store, at(120))).map((r) => r.id)).toEqual([request.id]);

        await store.transition(request.id, 2, { expiresAt: null }, at(2), []);
        expect(await dueBy(store, at(10_000))).toEqual([]);
        expect((await store.getRequest(request.id))?.expiresAt).toBeNull();
      });

      it("an agent's open requests are read newest first up to the limit, with how many are open", async () => {
        const other = { id: 'U0OTHER', name: 'Omid' };
        for (let i = 0; i < 3; i += 1) await store.createRequest(newRequest({ state: 'succeeded' }), []);
        const open: string[] = [];
        for (let i = 0; i < 5; i += 1) {
          const r = newRequest({ createdAt: at(i), state: i === 0 ? 'executing' : 'pending' });
          await store.createRequest(r, []);
          open.unshift(r.id);
        }
        await store.createRequest(newRequest({ requester: other }), []);

        const read = await store.listOpenRequests(AGENT.id, 3);

        expect(read.items.map((r) => r.id)).toEqual(open.slice(0, 3));
        expect(read.total).toBe(5);
        expect(await store.listOpenRequests('U0NOBODY', 3)).toEqual({ items: [], total: 0 });
      });

      it('a lead reads the newest pending requests of the operations they approve, not expired, not their own, with how many', async () => {
        const pending: string[] = [];
        for (let i = 0; i < 6; i += 1) {
          const r = newRequest({ createdAt: at(i), expiresAt: at(600) });
          await store.createRequest(r, []);
          pending.unshift(r.id);
        }
        await store.createRequest(newRequest({ expiresAt: at(30) }), []); // expired by `now`
        await store.createRequest(newRequest({ operation: 'file.delete', params: { fileId: 'f1' } }), []); // another operation
        await store.createRequest(newRequest({ requester: LEAD }), []); // the lead's own
        await store.createRequest(newRequest({ state: 'approved' }), []);
        const filter = { operations: ['folder.delete'], notRequesterId: LEAD.id, now: at(60), limit: 4 };

        const read = await store.listPending(filter);

        expect(read.items.map((r) => r.id)).toEqual(pending.slice(0, 4));
        expect(read.total).toBe(6);
        expect(await store.listPending({ ...filter, operations: [] })).toEqual({ items: [], total: 0 });
      });

      it('the gauges read when the oldest pending request was made, and the put-backs handed to a lead', async () => {
        expect(await store.oldestPendingAt()).toBeNull();
        expect(await store.countPutBacksEscalated()).toBe(0);
        await store.createRequest(newRequest({ createdAt: at(5) }), []);
        await store.createRequest(newRequest({ createdAt: at(2) }), []);
        await store.createRequest(newRequest({ createdAt: at(1), state: 'succeeded' }), []);
        const box = newTimeBox({ kind: 'for', ms: 3_600_000, text: '1h' });
        for (const [state, leadTold] of [
          ['retrying', true],
          ['waiting', true],
          ['retrying', false],
          ['done', true],
        ] as const) {
          const r = { ...newRequest({ state: 'succeeded' }), timeBox: { ...box, state, leadTold } };
          await store.createRequest(r, []);
        }

        expect(await store.oldestPendingAt()).toBe(at(2));
        expect(await store.countPutBacksEscalated()).toBe(2);
      });

      it('an agent asks to revert a change: its Reverts are found, oldest first, whatever their state', async () => {
        const change = newRequest({ state: 'succeeded' });
        await store.createRequest(change, []);
        const revert = (kind: 'revert' | 'put-back', minute: number, state: RequestState) => ({
          ...newRequest({ createdAt: at(minute), state }),
          revertOf: { id: change.id, kind },
        });
        const late = revert('revert', 9, 'pending');
        const early = revert('revert', 3, 'succeeded');
        for (const r of [late, early, revert('put-back', 1, 'succeeded'), newRequest({ state: 'succeeded' })])
          await store.createRequest(r, []);

        expect((await store.listReverts(change.id)).map((r) => [r.id, r.state])).toEqual([
          [early.id, 'succeeded'],
          [late.id, 'pending'],
        ]);
        expect(await store.listReverts(late.id)).toEqual([]);
      });
    });

    describe('audit log', () => {
      it('appends a policy denial with no request, first in the chain', async () => {
        const denied = newEvent({ type: 'denied', requestId: null, outcome: { reason: 'not an agent' } });

        const [event] = await store.appendAudit([denied]);

        expect(event).toEqual({
          ...denied,
          seq: 1,
          prevHash: GENESIS_HASH,
          hash: contractHash({ ...denied, seq: 1, prevHash: GENESIS_HASH }),
        });
        expect(await store.listAudit()).toEqual([event]);
      });

      it('appending nothing changes nothing', async () => {
        expect(await store.appendAudit([])).toEqual([]);
        expect(await store.auditHead()).toBeNull();
        expect(await store.outboxDepth()).toBe(0);
      });

      it('awkward JSON in events reads back exactly and still verifies', async () => {
        const ev = newEvent({
          params: AWKWARD_JSON,
          outcome: AWKWARD_JSON,
          target: 'شماره ۰۹۱۲',
          error: { name: 'ApiError', message: 'x "y"' },
        });

        const [written] = await store.appendAudit([ev]);

        const [read] = await store.listAudit();
        expect(read).toEqual(written);
        expect(read).toEqual({ ...ev, seq: 1, prevHash: GENESIS_HASH, hash: written?.hash });
        expect(await chainOk()).toBe(1);
      });

      it('compliance filters the log by seq, time range, last N and limit, always oldest first', async () => {
        const events = Array.from({ length: 10 }, (_, i) => newEvent({ id: `ev-${i + 1}`, at: at(i * 10) }));
        await store.appendAudit(events.slice(0, 4));
        await store.appendAudit(events.slice(4));
        const ids = async (q: Parameters<Store['listAudit']>[0]) =>
          (await store.listAudit(q)).map((e) => e.id);

        expect(await ids({})).toEqual(events.map((e) => e.id));
        expect(await ids({ afterSeq: 7 })).toEqual(['ev-8', 'ev-9', 'ev-10']);
        expect(await ids({ since: at(20), until: at(50) })).toEqual(['ev-3', 'ev-4', 'ev-5', 'ev-6']);
        // Bounds written without milliseconds compare by time, not as text.
        expect(await ids({ since: '2026-11-21T10:20:00Z', until: '2026-11-21T10:30:00Z' })).toEqual([
          'ev-3',
          'ev-4',
        ]);
        expect(await ids({ last: 3 })).toEqual(['ev-8', 'ev-9', 'ev-10']);
        expect(await ids({ last: 3, until: at(50) })).toEqual(['ev-4', 'ev-5', 'ev-6']);
        expect(await ids({ limit: 2, afterSeq: 2 })).toEqual(['ev-3', 'ev-4']);
        expect(await ids({ since: at(1000) })).toEqual([]);
        expect((await store.listAudit({ last: 2 })).map((e) => e.seq)).toEqual([9, 10]);
      });

      it("a request's own events, or an operation's, are read alone, oldest first, with the other filters", async () => {
        const events = Array.from({ length: 6 }, (_, i) =>
          newEvent({
            id: `ev-${i + 1}`,
            at: at(i * 10),
            requestId: i % 2 === 0 ? 'R-A' : 'R-B',
            operation: i < 3 ? 'protect.set' : 'delegation',
          }),
        );
        await store.appendAudit(events);
        const ids = async (q: Parameters<Store['listAudit']>[0]) =>
          (await store.listAudit(q)).map((e) => e.id);

        expect(await ids({ requestId: 'R-A' })).toEqual(['ev-1', 'ev-3', 'ev-5']);
        expect(await ids({ requestId: 'R-B', last: 1 })).toEqual(['ev-6']);
        expect(await ids({ requestId: 'R-NONE' })).toEqual([]);
        expect(await ids({ operation: 'delegation' })).toEqual(['ev-4', 'ev-5', 'ev-6']);
        expect(await ids({ operation: 'delegation', requestId: 'R-A', since: at(30) })).toEqual(['ev-5']);
      });

      it('the chain verifies after many appends of every kind, streamed in small pages', async () => {
        let expected = 0;
        for (let i = 0; i < 40; i += 1) {
          const request = newRequest({ id: `R-${i}`, createdAt: at(i) });
          await store.createRequest(request, [eventFor(request, 'requested', { at: at(i) })]);
          const approved = await store.transition(request.id, 1, { state: 'approved' }, at(i), [
            eventFor(request, 'approved', { actor: LEAD, at: at(i) }),
            eventFor(request, 'executing', { actor: LEAD, at: at(i) }),
          ]);
          expect(approved).not.toBeNull();
          await store.appendAudit([newEvent({ type: 'denied', at: at(i), outcome: { i } })]);
          expected += 4;
        }

        const streamed = await collect(store.iterateAudit(7));
        expect(streamed.map((e) => e.seq)).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
        expect(streamed).toEqual(await store.listAudit());
        const result = await verifyChain(store.iterateAudit(7), contractHash);
        expect(result).toEqual({ ok: true, count: expected, head: await store.auditHead() });
      });

      it('a chain checked with another key does not verify (the hash is the injected one)', async () => {
        await store.appendAudit([newEvent(), newEvent()]);
        const other = await verifyChain(store.iterateAudit(), createHasher('some-other-key'));
        expect(other).toMatchObject({ ok: false, brokenAt: 1 });
      });

      it('counts what an agent did of one operation since a time (the rate limit)', async () => {
        const other = { id: 'U0OTHER', name: 'Omid' };
        await store.appendAudit([
          newEvent({ operation: 'viewer.unblock', type: 'requested', at: at(0) }),
          newEvent({ operation: 'viewer.unblock', type: 'requested', at: at(30) }),
          newEvent({ operation: 'viewer.unblock', type: 'executing', at: at(31) }),
          newEvent({ operation: 'viewer.unblock', type: 'requested', at: at(59) }),
          newEvent({ operation: 'file.retry', type: 'requested', at: at(40) }),
          newEvent({ operation: 'viewer.unblock', type: 'requested', at: at(45), actor: other }),
        ]);

        expect(await store.countEvents(AGENT.id, 'viewer.unblock', ['requested'], at(0))).toBe(3);
        expect(await store.countEvents(AGENT.id, 'viewer.unblock', ['requested'], at(1))).toBe(2);
        expect(await store.countEvents(AGENT.id, 'viewer.unblock', ['requested', 'executing'], at(30))).toBe(
          3,
        );
        expect(await store.countEvents(AGENT.id, 'viewer.unblock', [], at(0))).toBe(0);
        expect(await store.countEvents(other.id, 'viewer.unblock', ['requested'], at(0))).toBe(1);
        expect(await store.countEvents(AGENT.id, 'file.retry', ['requested'], at(0))).toBe(1);
      });
    });

    describe('counting a person on the command line', () => {
      it('one OS user is counted under every name it gave with --as, a Slack user under theirs (the rate limit)', async () => {
        const cli = (id: string, osUser: string) => ({ id, name: id, via: { kind: 'cli' as const, osUser } });
        await store.appendAudit([
          newEvent({ operation: 'viewer.unblock', at: at(10), actor: cli('U0A', 'sara') }),
          newEvent({ operation: 'viewer.unblock', at: at(11), actor: cli('U0B', 'sara') }),
          newEvent({ operation: 'viewer.unblock', at: at(12), actor: cli('U0C', 'omid') }),
          newEvent({ operation: 'viewer.unblock', at: at(13), actor: { id: 'U0A', name: 'Ava' } }),
          newEvent({ operation: 'file.retry', at: at(14), actor: cli('U0B', 'sara') }),
        ]);
        const counted = async (count: { actorId: string; osUser?: string }) => {
          let seen = -1;
          await store.createCountedRequest(
            { ...count, operation: 'viewer.unblock', types: ['requested'], since: at(0) },
            (n) => {
              seen = n;
              return { request: newRequest(), events: [] };
            },
          );
          return seen;
        };

        expect(await counted({ actorId: 'U0D', osUser: 'sara' })).toBe(2);
        expect(await counted({ actorId: 'U0A', osUser: 'sara' })).toBe(3);
        expect(await counted({ actorId: 'U0A' })).toBe(2);
        expect(await counted({ actorId: 'U0C', osUser: 'omid' })).toBe(1);
      });
    });

    describe('append listeners', () => {
      it('the publisher is told of every commit that appended events, and of nothing else', async () => {
        let told = 0;
        const stop = store.onAppend(() => {
          told += 1;
        });
        const request = newRequest();
        await store.createRequest(request, [eventFor(request, 'requested')]);
        expect(told).toBe(1);

        await store.transition(request.id, 1, { state: 'approved' }, at(1), [eventFor(request, 'approved')]);
        expect(told).toBe(2);
        // Bookkeeping without events (the approval message's place) and a lost race append nothing.
        await store.transition(request.id, 2, { slack: { channel: 'C1', ts: '1.2' } }, at(2), []);
        expect(await store.transition(request.id, 1, { state: 'rejected' }, at(3), [])).toBeNull();
        expect(told).toBe(2);

        await store.appendAudit([newEvent()]);
        await store.appendAudit([]);
        expect(told).toBe(3);

        stop();
        await store.appendAudit([newEvent()]);
        expect(told).toBe(3);
      });

      it('a listener that throws does not fail the write it follows', async () => {
        store.onAppend(() => {
          throw new Error('listener broke');
        });
        let after = 0;
        store.onAppend(() => {
          after += 1;
        });
        await expect(store.appendAudit([newEvent()])).resolves.toHaveLength(1);
        expect(after).toBe(1);
        expect(await store.outboxDepth()).toBe(1);
      });
    });

    describe('outbox', () => {
      async function appendN(n: number): Promise<AuditEvent[]> {
        return store.appendAudit(Array.from({ length: n }, (_, i) => newEvent({ outcome: { i } })));
      }
      const seqs = (events: readonly AuditEvent[]) => events.map((e) => e.seq);

      it('every appended event waits in the outbox until acknowledged', async () => {
        const request = newRequest();
        await store.createRequest(request, [eventFor(request, 'requested')]);
        await store.transition(request.id, 1, { state: 'approved' }, at(1), [eventFor(request, 'approved')]);
        await appendN(3);
        expect(await store.outboxDepth()).toBe(5);

        const claimed = await store.claimOutbox('w1', 10, 30_000, at(2));
        expect(seqs(claimed)).toEqual([1, 2, 3, 4, 5]);
        expect(claimed).toEqual(await store.listAudit());
        expect(await store.outboxDepth()).toBe(5);

        await store.ackOutbox([1, 2, 3]);
        expect(await store.outboxDepth()).toBe(2);
        // Even after the lease runs out, delivered events are never handed out again.
        expect(seqs(await store.claimOutbox('w2', 10, 30_000, at(60)))).toEqual([4, 5]);
      });

      it('claims oldest first up to the limit; a second worker gets the next ones', async () => {
        await appendN(5);

        expect(seqs(await store.claimOutbox('w1', 2, 30_000, at(0)))).toEqual([1, 2]);
        expect(seqs(await store.claimOutbox('w2', 2, 30_000, at(0)))).toEqual([3, 4]);
        expect(seqs(await store.claimOutbox('w1', 10, 30_000, at(0)))).toEqual([5]);
        expect(await store.claimOutbox('w3', 10, 30_000, at(0))).toEqual([]);
      });

      it('a lease that runs out hands the events to another worker', async () => {
        await appendN(2);
        await store.claimOutbox('w1', 10, 30_000, at(0));

        expect(await store.claimOutbox('w2', 10, 30_000, '2026-11-21T10:00:29.999Z')).toEqual([]);
        expect(seqs(await store.claimOutbox('w2', 10, 30_000, '2026-11-21T10:00:30.000Z'))).toEqual([1, 2]);
      });

      it('Slack says 429: released events come back at notBefore, not earlier', async () => {
        await appendN(3);
        await store.claimOutbox('w1', 10, 5 * 60_000, at(0));

        await store.releaseOutbox([1, 2], at(1), 'w1');

        expect(await store.claimOutbox('w1', 10, 30_000, '2026-11-21T10:00:59.000Z')).toEqual([]);
        expect(seqs(await store.claimOutbox('w1', 10, 30_000, at(1)))).toEqual([1, 2]);
        expect(await store.outboxDepth()).toBe(3);
      });

      it('a worker whose lease ran out and was taken gives nothing back, and renews nothing; its own lease it renews', async () => {
        await appendN(2);
        await store.claimOutbox('w1', 10, 30_000, at(0));
        expect(await store.renewOutbox([1, 2], 'w2', at(100))).toBe(0);
        expect(await store.renewOutbox([1, 2], 'w1', at(1))).toBe(2);
        expect(await store.claimOutbox('w2', 10, 30_000, '2026-11-21T10:00:59.999Z')).toEqual([]);
        expect(seqs(await store.claimOutbox('w2', 10, 30_000, at(1)))).toEqual([1, 2]);

        await store.releaseOutbox([1, 2], at(1), 'w1');
        expect(await store.renewOutbox([1, 2], 'w1', at(9))).toBe(0);
        // Still w2's: nobody else claims them before its lease ends.
        expect(await store.claimOutbox('w3', 10, 30_000, at(1))).toEqual([]);
      });

      it('acknowledging or releasing nothing is harmless', async () => {
        await appendN(1);
        await store.ackOutbox([]);
        await store.releaseOutbox([], at(1), 'w1');
        expect(await store.outboxDepth()).toBe(1);
      });

      it('two workers claiming at once never get the same event', async () => {
        await appendN(60);
        const seen: number[] = [];
        const worker = async (name: string) => {
          for (;;) {
            const batch = await store.claimOutbox(name, 7, 30_000, at(0));
            if (batch.length === 0) return;
            seen.push(...seqs(batch));
            await store.ackOutbox(seqs(batch));
          }
        };

        await Promise.all([worker('a'), worker('b'), worker('c')]);

        expect([...seen].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
        expect(await store.outboxDepth()).toBe(0);
      });
    });

    describe('signed checkpoints', () => {
      const HEAD = (n: number) => n.toString(16).padStart(64, '0');
      const checkpoint = (size: number, minute = size) => ({
        size,
        head: HEAD(size),
        time: at(minute),
        note: `vidops/test\n${size}\n…\n\n— vidops/test sig${size}\n`,
      });
      const sizes = (list: readonly { size: number }[]) => list.map((c) => c.size);

      it('the bot keeps a checkpoint; one of the same size is refused and changes nothing', async () => {
        expect(await store.latestCheckpoint()).toBeNull();
        expect(await store.addCheckpoint(checkpoint(10))).toBe(true);
        expect(await store.addCheckpoint({ ...checkpoint(10, 99), note: 'another note' })).toBe(false);
        expect(await store.addCheckpoint(checkpoint(3))).toBe(true);

        expect(await store.listCheckpoints()).toEqual([
          { size: 3, head: HEAD(3), time: at(3), note: checkpoint(3).note, postedAt: null },
          { size: 10, head: HEAD(10), time: at(10), note: checkpoint(10).note, postedAt: null },
        ]);
        expect((await store.latestCheckpoint())?.size).toBe(10);
        expect(await store.unpostedCheckpoints()).toBe(2);
      });

      it('two replicas writing a checkpoint of the same size at once: exactly one is kept', async () => {
        const results = await Promise.all(
          Array.from({ length: 5 }, (_, i) => store.addCheckpoint({ ...checkpoint(42), note: `note ${i}` })),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const kept = await store.listCheckpoints();
        expect(kept).toHaveLength(1);
        expect(kept[0]?.note).toBe(`note ${results.indexOf(true)}`);
      });

      it('a checkpoint that is not one is refused before it reaches the database', async () => {
        await expect(store.addCheckpoint({ ...checkpoint(1), head: 'beef' })).rejects.toThrow(/head/);
        await expect(store.addCheckpoint({ ...checkpoint(1), size: -1 })).rejects.toThrow(/size/);
        expect(await store.listCheckpoints()).toEqual([]);
      });

      it('unposted checkpoints are leased to one worker, released on 429, and never posted twice', async () => {
        for (const size of [5, 10, 15]) await store.addCheckpoint(checkpoint(size));

        expect(sizes(await store.claimCheckpoints('w1', 2, 30_000, at(0)))).toEqual([5, 10]);
        expect(sizes(await store.claimCheckpoints('w2', 5, 30_000, at(0)))).toEqual([15]);
        expect(await store.claimCheckpoints('w3', 5, 30_000, at(0))).toEqual([]);

        await store.markCheckpointPosted(5, at(0));
        // Only who holds one gives it back, or renews it.
        await store.releaseCheckpoints([15], at(0), 'w1');
        expect(await store.renewCheckpoints([15], 'w1', at(9))).toBe(0);
        expect(await store.renewCheckpoints([10], 'w1', '2026-11-21T10:00:30.000Z')).toBe(1);
        await store.releaseCheckpoints([10], at(1), 'w1');
        expect(await store.claimCheckpoints('w3', 5, 30_000, '2026-11-21T10:00:20.000Z')).toEqual([]);
        // At notBefore the released one is back, and w2's lease has run out: both go to w3.
        expect(sizes(await store.claimCheckpoints('w3', 5, 30_000, at(1)))).toEqual([10, 15]);

        const posted = (await store.listCheckpoints()).find((c) => c.size === 5);
        expect(posted?.postedAt).toBe(at(0));
        expect(await store.unpostedCheckpoints()).toBe(2);
        // Posted is posted: a late release or a second mark changes nothing.
        await store.releaseCheckpoints([5], at(9), 'w1');
        await store.markCheckpointPosted(5, at(9));
        expect((await store.listCheckpoints()).find((c) => c.size === 5)?.postedAt).toBe(at(0));
        expect(sizes(await store.claimCheckpoints('w1', 5, 30_000, at(60)))).toEqual([10, 15]);
      });

      it('lists the events not yet posted to the audit channel, oldest first', async () => {
        await store.appendAudit(Array.from({ length: 4 }, () => newEvent()));
        await store.ackOutbox([1, 3]);
        expect(await store.undeliveredSeqs(10)).toEqual([2, 4]);
        expect(await store.undeliveredSeqs(1)).toEqual([2]);
      });
    });

    describe('notification outbox', () => {
      const claim = (worker: string, now: string, requests = 10, settledAt = now) =>
        store.claimNotifications({ worker, requests, leaseMs: 30_000, now, settledAt });
      const told = (jobs: readonly NotificationJob[]) => jobs.map((j) => [j.requestId, j.state, j.version]);
      const ids = (jobs: readonly NotificationJob[]) => jobs.map((j) => j.id);

      async function created(id: string, minute = 0): Promise<OperationRequest> {
        const request = newRequest({ id, createdAt: at(minute), updatedAt: at(minute) });
        await store.createRequest(request, [eventFor(request, 'requested', { at: at(minute) })]);
        return request;
      }

      async function changed(request: OperationRequest, version: number, minute: number) {
        const done = await store.transition(request.id, version, { state: 'approved' }, at(minute), [
          eventFor(request, 'approved', { actor: LEAD, at: at(minute) }),
        ]);
        if (done === null) throw new Error(`${request.id} was not at version ${version}`);
        return done.request;
      }

      it('each change with audit events is one job, in the same transaction; noting the message place is none', async () => {
        const request = await created('R-TOLD');
        await changed(request, 1, 1);
        await store.transition(
          request.id,
          2,
          { slack: { channel: 'C0APPROVALS', ts: '1.000100' } },
          at(2),
          [],
        );
        // A lost race and a failed event insert record nothing either.
        expect(
          await store.transition(request.id, 1, { state: 'rejected' }, at(3), [
            eventFor(request, 'rejected'),
          ]),
        ).toBeNull();
        expect(await store.notificationDepth()).toBe(2);

        const jobs = await claim('w1', at(5));
        expect(jobs).toEqual([
          { id: expect.any(Number), requestId: 'R-TOLD', state: 'pending', version: 1, at: at(0) },
          { id: expect.any(Number), requestId: 'R-TOLD', state: 'approved', version: 2, at: at(1) },
        ]);
        expect(jobs[0]?.id).toBeLessThan(jobs[1]?.id ?? 0);
        await store.ackNotifications(ids(jobs));
        expect(await store.notificationDepth()).toBe(0);
        expect(await claim('w2', at(60))).toEqual([]);
      });

      it('claims whole requests, the one waiting longest first, up to the limit', async () => {
        const a = await created('R-A', 0);
        await created('R-B', 1);
        await created('R-C', 2);
        await changed(a, 1, 3);

        expect(told(await claim('w1', at(5), 2))).toEqual([
          ['R-A', 'pending', 1],
          ['R-B', 'pending', 1],
          ['R-A', 'approved', 2],
        ]);
        expect(told(await claim('w2', at(5), 2))).toEqual([['R-C', 'pending', 1]]);
        expect(await claim('w3', at(5))).toEqual([]);
      });

      it('a request held by one worker is not given to another, not even its change recorded meanwhile', async () => {
        const request = await created('R-HELD');
        const first = await claim('w1', at(1));
        await changed(request, 1, 1);

        expect(await claim('w2', at(1))).toEqual([]);
        await store.ackNotifications(ids(first));
        expect(told(await claim('w2', at(1)))).toEqual([['R-HELD', 'approved', 2]]);
      });

      it('a lease that runs out hands the request over; a late ack removes only what it was given', async () => {
        const request = await created('R-SLOW');
        const slow = await claim('w1', at(0));
        expect(await claim('w2', '2026-11-21T10:00:29.999Z')).toEqual([]);
        const taken = await claim('w2', '2026-11-21T10:00:30.000Z');
        expect(ids(taken)).toEqual(ids(slow));
        await store.ackNotifications(ids(taken));
        await changed(request, 1, 1);

        await store.ackNotifications(ids(slow));
        const next = await claim('w2', at(2));
        expect(told(next)).toEqual([['R-SLOW', 'approved', 2]]);
        expect(next[0]?.id).toBeGreaterThan(slow[0]?.id ?? Number.POSITIVE_INFINITY);
      });

      it('a worker Slack keeps waiting renews its lease: no one else claims the request, and a stranger cannot renew it', async () => {
        await created('R-RENEW');
        const held = await claim('w1', at(0));
        expect(await store.renewNotifications(ids(held), 'w2', at(100))).toBe(0);
        expect(await store.renewNotifications(ids(held), 'w1', at(60))).toBe(1);
        expect(await claim('w2', at(59))).toEqual([]);
        expect(ids(await claim('w2', at(60)))).toEqual(ids(held));
        expect(await store.renewNotifications([], 'w1', at(90))).toBe(0);
      });

      it('Slack says 429: the request comes back at notBefore with what changed meanwhile, not earlier', async () => {
        const request = await created('R-LATER');
        const jobs = await claim('w1', at(0));
        await store.releaseNotifications(ids(jobs), at(10), 'w1');
        await changed(request, 1, 1);

        expect(await claim('w1', at(9))).toEqual([]);
        expect(told(await claim('w1', at(10)))).toEqual([
          ['R-LATER', 'pending', 1],
          ['R-LATER', 'approved', 2],
        ]);
        expect(await store.notificationDepth()).toBe(2);
      });

      it('a request still changing is claimed once its newest change has settled', async () => {
        const request = await created('R-BURST', 0);
        await changed(request, 1, 1);

        expect(await claim('w1', at(1), 10, at(0))).toEqual([]);
        expect(told(await claim('w1', at(1), 10, at(1)))).toHaveLength(2);
      });

      it('announcing again records a job for the request as it stands; an unknown request gets none', async () => {
        const request = await created('R-AGAIN');
        await changed(request, 1, 1);
        await store.ackNotifications(ids(await claim('w1', at(2))));

        expect(await store.enqueueNotification('R-AGAIN', at(5))).toBe(true);
        expect(await store.enqueueNotification('R-NOPE', at(5))).toBe(false);
        expect(await claim('w1', at(6))).toEqual([
          { id: expect.any(Number), requestId: 'R-AGAIN', state: 'approved', version: 2, at: at(5) },
        ]);
      });

      it('a worker whose lease ran out gives back nothing another worker now holds', async () => {
        await created('R-TAKEN');
        const held = await claim('w1', at(0));
        const taken = await claim('w2', at(60));
        expect(ids(taken)).toEqual(ids(held));
        await store.releaseNotifications(ids(held), at(60), 'w1');
        expect(await claim('w3', at(60))).toEqual([]);
      });

      it('acknowledging or releasing nothing is harmless', async () => {
        await created('R-NONE');
        await store.ackNotifications([]);
        await store.releaseNotifications([], at(1), 'w1');
        expect(await store.notificationDepth()).toBe(1);
      });

      it('three workers and a writer at once: every job done once, no request held by two workers', async () => {
        const requests = await Promise.all(
          Array.from({ length: 12 }, (_, i) => created(`R-W${String(i).padStart(2, '0')}`)),
        );
        const done: number[] = [];
        const holding = new Map<string, string>();
        let overlaps = 0;
        let writing = true;
        const writer = (async () => {
          for (const request of requests) {
            await changed(request, 1, 1);
          }
          writing = false;
        })();
        const worker = async (name: string) => {
          for (;;) {
            const jobs = await claim(name, at(2), 3);
            if (jobs.length === 0) {
              if (!writing && (await store.notificationDepth()) === 0) return;
              await new Promise((resolve) => setImmediate(resolve));
              continue;
            }
            const mine = new Set(jobs.map((j) => j.requestId));
            for (const id of mine) {
              if (holding.has(id)) overlaps += 1;
              holding.set(id, name);
            }
            for (const job of jobs) done.push(job.id);
            await new Promise((resolve) => setImmediate(resolve));
            for (const id of mine) holding.delete(id);
            await store.ackNotifications(ids(jobs));
          }
        };

        await Promise.all([writer, worker('a'), worker('b'), worker('c')]);

        expect(overlaps).toBe(0);
        expect(done).toHaveLength(24);
        expect(new Set(done).size).toBe(24);
      });
    });

    describe('leases', () => {
      it('a lease is held by one sender until it is given back or its time runs out', async () => {
        expect(await store.takeLease('send:x', 'R-A', at(60), T0)).toBe(true);
        expect(await store.takeLease('send:x', 'R-B', at(60), at(1))).toBe(false);
        expect(await store.takeLease('send:y', 'R-B', at(60), at(1))).toBe(true);
        // Giving back only works for its holder.
        await store.giveLease('send:x', 'R-B');
        expect(await store.takeLease('send:x', 'R-B', at(61), at(2))).toBe(false);
        await store.giveLease('send:x', 'R-A');
        expect(await store.takeLease('send:x', 'R-B', at(62), at(2))).toBe(true);
        // Its holder renews it; a holder that stopped without giving it back loses it at its end.
        expect(await store.takeLease('send:x', 'R-B', at(70), at(3))).toBe(true);
        expect(await store.takeLease('send:x', 'R-C', at(120), at(69))).toBe(false);
        expect(await store.takeLease('send:x', 'R-C', at(120), at(70))).toBe(true);
      });

      it('the same lease taken at the same moment by many is taken once', async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => store.takeLease('send:race', `R-${i}`, at(60), T0)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });
    });

    describe('batch steps', () => {
      const step = { requestId: 'R-BATCH', index: 0, mobileNumber: '09123456789', at: T0 };
      const end = (to: 'done' | 'failed' | 'unknown') =>
        ({ requestId: 'R-BATCH', index: 0, from: 'sending', to, error: null, at: at(1) }) as const;

      it('a number is taken for sending once, and its end is recorded once with its event', async () => {
        const taken = await Promise.all(Array.from({ length: 5 }, () => store.beginStep(step)));
        expect(taken.filter(Boolean)).toHaveLength(1);
        expect(await store.endStep(end('done'), [newEvent({ requestId: 'R-BATCH' })])).toBe(true);
        expect(await store.endStep(end('unknown'), [newEvent({ requestId: 'R-BATCH' })])).toBe(false);
        expect(await store.beginStep(step)).toBe(false);
        const steps = await store.listSteps('R-BATCH');
        expect(steps).toEqual([
          {
            requestId: 'R-BATCH',
            index: 0,
            mobileNumber: '09123456789',
            state: 'done',
            error: null,
            updatedAt: at(1),
          },
        ]);
        expect(await chainOk()).toBe(1);
      });

      it('a failed number keeps its error, and steps list in the order of the batch', async () => {
        await store.beginStep({ ...step, index: 2, mobileNumber: '09120000002' });
        await store.beginStep(step);
        const error = { name: 'ValidationError', message: 'not blocked', status: 400 };
        expect(await store.endStep({ ...end('failed'), error }, [])).toBe(true);
        const steps = await store.listSteps('R-BATCH');
        expect(steps.map((s) => [s.index, s.state, s.error])).toEqual([
          [0, 'failed', error],
          [2, 'sending', null],
        ]);
        expect(await store.listSteps('R-OTHER')).toEqual([]);
      });
    });

    describe('deliveries and settings', () => {
      it('a Slack retry of the same event is recognised once', async () => {
        expect(await store.markDelivered('Ev0123', T0)).toBe(true);
        expect(await store.markDelivered('Ev0123', at(1))).toBe(false);
        expect(await store.markDelivered('Ev0456', at(1))).toBe(true);
      });

      it('the same key marked concurrently is first only once', async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, () => store.markDelivered('Ev-race', T0)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('old delivery keys are forgotten and may be seen again; recent ones are kept', async () => {
        expect(await store.markDelivered('Ev-old', T0)).toBe(true);
        expect(await store.markDelivered('Ev-new', at(120))).toBe(true);
        expect(await store.pruneDeliveries(at(60))).toBe(1);
        expect(await store.markDelivered('Ev-new', at(121))).toBe(false);
        expect(await store.markDelivered('Ev-old', at(121))).toBe(true);
        expect(await store.pruneDeliveries(at(60))).toBe(0);
      });

      it('a claim given back (Slack said it was not sent) is first again; others are kept', async () => {
        expect(await store.markDelivered('notice:R-1:2', T0)).toBe(true);
        expect(await store.markDelivered('notice:R-1:3', T0)).toBe(true);
        await store.forgetDelivery('notice:R-1:2');
        await store.forgetDelivery('never-marked');
        expect(await store.markDelivered('notice:R-1:2', at(1))).toBe(true);
        expect(await store.markDelivered('notice:R-1:3', at(1))).toBe(false);
      });

      it('settings are read, written and overwritten', async () => {
        expect(await store.getSetting('retryConversionMethod')).toBeNull();
        await store.setSetting('retryConversionMethod', 'PATCH');
        expect(await store.getSetting('retryConversionMethod')).toBe('PATCH');
        await store.setSetting('retryConversionMethod', 'POST');
        expect(await store.getSetting('retryConversionMethod')).toBe('POST');
        expect(await store.getSetting('other')).toBeNull();
      });
    });

    describe('language choices', () => {
      it('a person chooses Persian, then English: the last choice is read back; others have none', async () => {
        expect(await store.getLanguageChoice(AGENT.id)).toBeNull();
        await store.setLanguageChoice(AGENT.id, 'fa', at(1));
        expect(await store.getLanguageChoice(AGENT.id)).toBe('fa');
        await store.setLanguageChoice(AGENT.id, 'en', at(2));
        expect(await store.getLanguageChoice(AGENT.id)).toBe('en');
        expect(await store.getLanguageChoice(LEAD.id)).toBeNull();
      });

      it('two choices of the same person at once leave one of them, whole', async () => {
        await Promise.all([
          store.setLanguageChoice(LEAD.id, 'fa', at(1)),
          store.setLanguageChoice(LEAD.id, 'en', at(1)),
        ]);
        expect(['fa', 'en']).toContain(await store.getLanguageChoice(LEAD.id));
      });

      it('a choice survives migrating again', async () => {
        await store.setLanguageChoice(AGENT.id, 'fa', at(1));
        await store.migrate();
        expect(await store.getLanguageChoice(AGENT.id)).toBe('fa');
      });
    });

    describe("DMs carrying a request's buttons", () => {
      const dm = (ts: string, kind: RequestDmKind = 'followUp', requestId = 'R-DMS00001'): RequestDm => ({
        requestId,
        channel: 'D0LEAD0001',
        ts,
        userId: LEAD.id,
        kind,
        postedAt: at(Number(ts.split('.')[0]) % 100),
      });

      it('a reminder and a break-glass DM are recorded, read back in order, and forgotten one by one', async () => {
        expect(await store.requestDms('R-DMS00001')).toEqual([]);
        await store.recordRequestDm(dm('1700000002.000200', 'breakGlassOverdue'));
        await store.recordRequestDm(dm('1700000001.000100'));
        await store.recordRequestDm(dm('1700000003.000300', 'followUp', 'R-DMS00002'));
        expect(await store.requestDms('R-DMS00001')).toEqual([
          dm('1700000001.000100'),
          dm('1700000002.000200', 'breakGlassOverdue'),
        ]);
        await store.forgetRequestDm(dm('1700000001.000100'));
        expect(await store.requestDms('R-DMS00001')).toEqual([dm('1700000002.000200', 'breakGlassOverdue')]);
        expect(await store.requestDms('R-DMS00002')).toEqual([
          dm('1700000003.000300', 'followUp', 'R-DMS00002'),
        ]);
      });

      it('the same DM recorded twice (a retry) is kept once, as first recorded', async () => {
        await store.recordRequestDm(dm('1700000001.000100'));
        await store.recordRequestDm({ ...dm('1700000001.000100'), kind: 'breakGlass' });
        expect(await store.requestDms('R-DMS00001')).toEqual([dm('1700000001.000100')]);
      });

      it('forgetting a DM that is not recorded changes nothing', async () => {
        await store.recordRequestDm(dm('1700000001.000100'));
        await store.forgetRequestDm({
          requestId: 'R-DMS00001',
          channel: 'D0OTHER001',
          ts: '1700000001.000100',
        });
        expect(await store.requestDms('R-DMS00001')).toHaveLength(1);
      });
    });

    describe('modal drafts', () => {
      const draft = (key: string, expiresAt = at(60)): ModalDraft => ({
        key,
        userId: AGENT.id,
        kind: 'delete_confirm',
        payload: {
          prepared: { operation: 'folder.delete', params: { bucketId: 'b1' } },
          awkward: AWKWARD_JSON,
        },
        createdAt: T0,
        expiresAt,
      });

      it('a draft is taken back exactly, and only once', async () => {
        await store.putDraft(draft('k1'));
        expect(await store.takeDraft('k1', at(1))).toEqual(draft('k1'));
        expect(await store.takeDraft('k1', at(1))).toBeNull();
        expect(await store.takeDraft('never-put', at(1))).toBeNull();
      });

      it('an expired draft is not given back, and is gone', async () => {
        await store.putDraft(draft('k-old', at(60)));
        expect(await store.takeDraft('k-old', at(60))).toBeNull();
        await store.putDraft(draft('k-old2', at(60)));
        expect(await store.takeDraft('k-old2', at(61))).toBeNull();
        expect(await store.pruneDrafts(at(0))).toBe(0);
      });

      it('a draft given back after a refused submission can be taken again', async () => {
        await store.putDraft(draft('k2'));
        const taken = await store.takeDraft('k2', at(1));
        expect(taken).not.toBeNull();
        if (taken) await store.putDraft(taken);
        expect(await store.takeDraft('k2', at(2))).toEqual(draft('k2'));
      });

      it('two submissions at once: one takes the draft, the other gets nothing', async () => {
        await store.putDraft(draft('k-race'));
        const results = await Promise.all(Array.from({ length: 10 }, () => store.takeDraft('k-race', at(1))));
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });

      it('expired drafts are pruned; those still open are kept', async () => {
        await store.putDraft(draft('k-a', at(10)));
        await store.putDraft(draft('k-b', at(20)));
        await store.putDraft(draft('k-c', at(90)));
        expect(await store.pruneDrafts(at(20))).toBe(2);
        expect(await store.pruneDrafts(at(20))).toBe(0);
        expect(await store.takeDraft('k-c', at(21))).toEqual(draft('k-c', at(90)));
      });
    });

    describe('delegations and break-glass', () => {
      const delegation = (id: string, leadId: string, delegateId: string) => ({
        id,
        lead: { id: leadId, name: 'Lee (lead)' },
        delegate: { id: delegateId, name: 'Sara' },
        reason: 'on leave',
        createdAt: T0,
        until: at(240),
        endedAt: null,
        endedBy: null,
        ending: null,
      });

      it('a lead delegates once; a second while the first is in force is refused and records nothing', async () => {
        const first = delegation('D-1', LEAD.id, AGENT.id);
        const added = await store.addDelegation(first, [
          newEvent({ type: 'delegated', operation: 'delegation' }),
        ]);
        expect(added).toEqual(first);
        await expect(
          store.addDelegation(delegation('D-2', LEAD.id, 'U0OTHER'), [
            newEvent({ type: 'delegated', operation: 'delegation' }),
          ]),
        ).rejects.toBeInstanceOf(StateConflictError);
        expect(await store.listDelegations({ open: true })).toEqual([first]);
        expect(await store.listDelegations({ delegateId: AGENT.id })).toEqual([first]);
        expect(await store.listDelegations({ delegateId: 'U0OTHER' })).toEqual([]);
        expect(await chainOk()).toBe(1);
      });

      it('a delegation ends once, with its event; then the lead may delegate again', async () => {
        await store.addDelegation(delegation('D-1', LEAD.id, AGENT.id), []);
        const end = { endedAt: at(10), endedBy: LEAD, ending: 'cancelled' as const };
        const ended = await store.endDelegation('D-1', end, [
          newEvent({ type: 'delegation-cancelled', operation: 'delegation' }),
        ]);
        expect(ended).toMatchObject({ id: 'D-1', endedAt: at(10), ending: 'cancelled' });
        expect(
          await store.endDelegation('D-1', end, [newEvent({ type: 'delegation-cancelled' })]),
        ).toBeNull();
        expect(await store.listDelegations({ open: true })).toEqual([]);
        expect(await chainOk()).toBe(1);
        await store.addDelegation(delegation('D-2', LEAD.id, AGENT.id), []);
        expect((await store.listDelegations({ leadId: LEAD.id })).map((d) => d.id)).toEqual(['D-2', 'D-1']);
      });

      it('an approval in a lead’s place commits only while the delegation is open: not after its end or its until', async () => {
        await store.addDelegation(delegation('D-1', LEAD.id, AGENT.id), []);
        const request = newRequest();
        await store.createRequest(request, []);
        const approved = eventFor(request, 'approved', { actor: AGENT });
        const open = await store.transition(request.id, 1, { decisionNote: 'a' }, at(5), [approved], 'D-1');
        expect(open?.request.version).toBe(2);
        // Past its until (at(240)), though not yet recorded as ended: nothing changes.
        expect(
          await store.transition(request.id, 2, { decisionNote: 'b' }, at(240), [approved], 'D-1'),
        ).toBeNull();
        await store.endDelegation('D-1', { endedAt: at(10), endedBy: LEAD, ending: 'cancelled' }, []);
        expect(
          await store.transition(request.id, 2, { decisionNote: 'c' }, at(11), [approved], 'D-1'),
        ).toBeNull();
        expect(
          await store.transition(request.id, 2, { decisionNote: 'd' }, at(11), [approved], 'D-NONE'),
        ).toBeNull();
        expect((await store.getRequest(request.id))?.decisionNote).toBe('a');
        expect(await chainOk()).toBe(1);
      });

      it('a request run by break-glass is listed as unreviewed until its review is recorded', async () => {
        const plain = newRequest();
        const broken = newRequest();
        await store.createRequest(plain, []);
        await store.createRequest(broken, []);
        const record = {
          by: AGENT,
          at: at(1),
          reason: 'viewer locked out before an exam',
          reviewDueAt: at(60),
          overdueAt: null,
          review: null,
        };
        const done = await store.transition(broken.id, 1, { state: 'executing', breakGlass: record }, at(1), [
          eventFor(broken, 'break-glass'),
        ]);
        expect(done?.request.breakGlass).toEqual(record);
        expect((await store.listRequests({ breakGlassUnreviewed: true })).map((r) => r.id)).toEqual([
          broken.id,
        ]);
        const review = { by: LEAD, at: at(5), verdict: 'acknowledged' as const, note: null };
        await store.transition(broken.id, 2, { breakGlass: { ...record, review } }, at(5), [
          eventFor(broken, 'break-glass-reviewed'),
        ]);
        expect(await store.listRequests({ breakGlassUnreviewed: true })).toEqual([]);
        expect((await store.getRequest(broken.id))?.breakGlass?.review).toEqual(review);
        expect((await store.getRequest(plain.id))?.breakGlass).toBeUndefined();
      });

      it('a time-boxed change is listed as open until its put-back is done, and keeps what it replaced', async () => {
        const plain = newRequest();
        const boxed = {
          ...newRequest(),
          timeBox: newTimeBox({ kind: 'for', ms: 3_600_000, text: '1h' }),
        };
        await store.createRequest(plain, []);
        await store.createRequest(boxed, []);
        expect((await store.listRequests({ timeBoxOpen: true })).map((r) => r.id)).toEqual([boxed.id]);
        const undo = { kind: 'whitelist' as const, before: [], added: ['5.6.7.8'], removed: [] };
        const running = { ...boxed.timeBox, state: 'running' as const, endsAt: at(60), requestId: 'R-back' };
        await store.transition(boxed.id, 1, { undo, timeBox: running }, at(61), []);
        expect((await store.listRequests({ timeBoxOpen: true })).map((r) => r.id)).toEqual([boxed.id]);
        expect(await store.getRequest(boxed.id)).toMatchObject({ undo, timeBox: running });
        await store.transition(boxed.id, 2, { timeBox: { ...running, state: 'done' } }, at(62), []);
        expect(await store.listRequests({ timeBoxOpen: true })).toEqual([]);
        expect((await store.getRequest(plain.id))?.timeBox).toBeUndefined();
      });

      it('windows in force are listed by when they are due, oldest first, whatever waits for approval', async () => {
        const box = newTimeBox({ kind: 'for', ms: 3_600_000, text: '1h' });
        const inForce = async (endsAt: string | null, extra: Partial<typeof box> = {}) => {
          const r = { ...newRequest({ state: 'succeeded' }), timeBox: { ...box, endsAt, ...extra } };
          await store.createRequest(r, []);
          return r.id;
        };
        // Many time-boxed requests waiting for approval, newer than every window in force.
        for (let i = 0; i < 5; i += 1) await store.createRequest({ ...newRequest(), timeBox: box }, []);
        const late = await inForce(at(120));
        const due = await inForce(at(30));
        const retrying = await inForce(at(10), { state: 'retrying', nextAt: at(45) });
        const noEnd = await inForce(null);
        await inForce(at(5), { state: 'done' });
        expect((await store.listWindows()).map((r) => r.id)).toEqual([noEnd, due, retrying, late]);
        expect((await store.listWindows({ dueBy: at(40) })).map((r) => r.id)).toEqual([noEnd, due]);
        expect((await store.listWindows({ dueBy: at(40), limit: 1 })).map((r) => r.id)).toEqual([noEnd]);
      });

      it('one request at a time holds an item: taken at once, all or none, until its window ends', async () => {
        const box = newTimeBox({ kind: 'for', ms: 3_600_000, text: '1h' });
        const a = { ...newRequest({ state: 'executing' }), timeBox: box };
        const b = { ...newRequest({ state: 'executing' }), timeBox: box };
        await store.createRequest(a, []);
        await store.createRequest(b, []);
        expect(await store.holdItems(a.id, ['protect.set:opacity', 'protect.set:preventZoom'])).toBeNull();
        expect(await store.holdItems(a.id, ['protect.set:opacity'])).toBeNull();
        expect(await store.holdItems(b.id, ['protect.set:fontColor', 'protect.set:opacity'])).toBe(a.id);
        // Nothing of a refused claim was taken.
        expect(await store.holdItems(a.id, ['protect.set:fontColor'])).toBeNull();
        const [first, second] = await Promise.all([
          store.holdItems(a.id, ['whitelist.set:5.6.7.8']),
          store.holdItems(b.id, ['whitelist.set:5.6.7.8']),
        ]);
        expect([first, second].filter((x) => x === null)).toHaveLength(1);
        await store.transition(a.id, 1, { state: 'failed' }, at(1), []);
        expect(await store.holdItems(b.id, ['protect.set:opacity', 'whitelist.set:5.6.7.8'])).toBeNull();
        await store.transition(b.id, 1, { timeBox: { ...box, state: 'done' } }, at(2), []);
        expect(await store.holdItems(a.id, ['protect.set:opacity'])).toBeNull();
      });
    });

    describe('operations', () => {
      it('migrating again is harmless and keeps the data', async () => {
        const request = newRequest();
        await store.createRequest(request, [eventFor(request, 'requested')]);
        await store.setSetting('k', 'v');

        await store.migrate();
        await store.migrate();

        expect(await store.getRequest(request.id)).toEqual(request);
        expect(await store.getSetting('k')).toBe('v');
        expect(await chainOk()).toBe(1);
      });

      it('ping answers while the database is reachable', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });
  });
}

/** A store and a way to run SQL on its database behind its back (`?` placeholders in both). */
export interface TamperableStore {
  store: Store;
  sql(text: string, params?: readonly unknown[]): Promise<void>;
}

/**
 * What `audit verify` catches when someone edits the database directly: the hashed event JSON,
 * every column stored beside it (which queries read), the order of rows, and removed rows.
 * @see docs/architecture.md, "Audit log"
 */
export function describeAuditTampering(name: string, open: () => Promise<TamperableStore>): void {
  describe(`${name}: audit verify after someone edits the database`, () => {
    let db: TamperableStore;
    const request = 'R-TAMPER01';

    beforeEach(async () => {
      db = await open();
      // Ten events: requested/approved/executing/succeeded pairs and denials, one request ID each.
      const events = Array.from({ length: 10 }, (_, i) =>
        newEvent({
          id: `ev-${i + 1}`,
          type: i % 2 === 0 ? 'requested' : 'approved',
          actor: i % 2 === 0 ? AGENT : LEAD,
          at: at(i),
          requestId: request,
        }),
      );
      await db.store.appendAudit(events);
    });

    afterEach(async () => {
      await db.store.close();
    });

    async function verify() {
      return verifyChain(db.store.iterateStoredAudit(3), contractHash);
    }

    it('an untouched log verifies with its columns', async () => {
      expect(await verify()).toEqual({ ok: true, count: 10, head: await db.store.auditHead() });
    });

    it.each([
      [
        'actor_id',
        "actor_id = 'U0EVIL'",
        `column actor_id says U0EVIL but the hashed event says ${AGENT.id}`,
      ],
      ['type', "type = 'denied'", 'column type says denied but the hashed event says requested'],
      [
        'operation',
        "operation = 'viewer.unblock'",
        'column operation says viewer.unblock but the hashed event says folder.delete',
      ],
      [
        'at',
        `at = '2020-01-01T00:00:00.000Z'`,
        `column at says 2020-01-01T00:00:00.000Z but the hashed event says ${at(4)}`,
      ],
      ['id', "id = 'ev-forged'", 'column id says ev-forged but the hashed event says ev-5'],
      ['request_id', 'request_id = NULL', `column request_id says NULL but the hashed event says ${request}`],
    ])('an edited %s column is named with both values', async (_column, set, words) => {
      await db.sql(`UPDATE audit_events SET ${set} WHERE seq = 5`);
      const result = await verify();
      expect(result).toEqual({
        ok: false,
        count: 4,
        brokenAt: 5,
        kind: 'column',
        reason: `event #5: ${words}`,
      });
    });

    it('an edited event body is named as altered', async () => {
      await db.sql(
        "UPDATE audit_events SET event = replace(event, 'Lectures 2026', 'Lectures 2027') WHERE seq = 6",
      );
      expect(await verify()).toMatchObject({
        ok: false,
        brokenAt: 6,
        kind: 'chain',
        reason: expect.stringContaining('event #6 was altered'),
      });
    });

    it('two rows swapped are named as out of order', async () => {
      const rows = await collect(db.store.iterateStoredAudit());
      const [seventh, eighth] = [rows[6], rows[7]];
      if (seventh === undefined || eighth === undefined) throw new Error('the log has fewer than 8 events');
      await db.sql('DELETE FROM outbox WHERE seq IN (7, 8)');
      await db.sql('DELETE FROM audit_events WHERE seq IN (7, 8)');
      // Each row's content moves to the other's place, columns and all.
      for (const [seq, row] of [
        [7, eighth],
        [8, seventh],
      ] as const) {
        const { event, columns } = row;
        await db.sql(
          `INSERT INTO audit_events (seq, id, at, type, actor_id, operation, request_id, event, prev_hash, hash)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            seq,
            columns.id,
            columns.at,
            columns.type,
            columns.actor_id,
            columns.operation,
            columns.request_id,
            JSON.stringify(withoutChain(event)),
            event.prevHash,
            event.hash,
          ],
        );
      }
      expect(await verify()).toEqual({
        ok: false,
        count: 6,
        brokenAt: 7,
        kind: 'chain',
        reason: "events #7 and #8 are out of order: #8's prevHash is #6's hash",
      });
    });

    it('a removed row is named as missing events', async () => {
      await db.sql('DELETE FROM outbox WHERE seq = 4');
      await db.sql('DELETE FROM audit_events WHERE seq = 4');
      expect(await verify()).toMatchObject({
        ok: false,
        count: 3,
        brokenAt: 5,
        reason: 'event #5 follows #3: events are missing',
      });
    });
  });
}

/** The event JSON as stored: everything but its place in the chain. */
function withoutChain(event: AuditEvent): Omit<AuditEvent, 'seq' | 'prevHash' | 'hash'> {
  const { seq: _seq, prevHash: _prevHash, hash: _hash, ...body } = event;
  return body;
}

/**
 * Limits the store enforces: counting and acting are one step, for every replica. `open` gives two
 * stores on one fresh, migrated, empty database (two pools, or one store twice where there is
 * only one connection); half of each race goes to each.
 * @see docs/architecture.md, "Approvals" and "Break-glass and delegation"
 */
export function describeLimitContract(name: string, open: () => Promise<[Store, Store]>): void {
  describe(`${name}: limits counted and claimed in one step`, () => {
    let stores: [Store, Store];
    const replica = (i: number): Store => (i % 2 === 0 ? stores[0] : stores[1]);
    const requested = { actorId: AGENT.id, operation: 'viewer.unblock', types: ['requested'], since: at(0) };

    beforeEach(async () => {
      stores = await open();
    });

    afterEach(async () => {
      const result = await verifyChain(stores[0].iterateAudit(), contractHash);
      await Promise.all([...new Set(stores)].map((s) => s.close()));
      expect(result).toMatchObject({ ok: true });
    });

    /** An unblock the agent asked for (a request of the rate-limited operation). */
    function unblock(overrides: Partial<OperationRequest> = {}): OperationRequest {
      const mobileNumber = '09121234567';
      return newRequest({
        operation: 'viewer.unblock',
        params: { mobileNumber },
        target: `viewer ${mobileNumber}`,
        preview: { kind: 'unblock', mobileNumber, blocked: true, actionType: null },
        ...overrides,
      } as Partial<OperationRequest>);
    }

    /** An unblock by the agent: run at once below `max` earlier requests, else waiting for a lead. */
    function unblockBelow(max: number, seen: number[]) {
      return (counted: number) => {
        seen.push(counted);
        const direct = counted < max;
        const request = unblock({
          state: direct ? 'executing' : 'pending',
          quorum: direct ? 0 : 1,
          expiresAt: direct ? null : at(60),
          createdAt: at(1),
          updatedAt: at(1),
        });
        const first = eventFor(request, 'requested', { at: at(1) });
        return {
          request,
          events: direct ? [first, eventFor(request, 'executing', { at: at(1) })] : [first],
        };
      };
    }

    it('an agent asks eight times at once with a limit of 2: each ask counts the ones before it, so two run at once and six wait', async () => {
      const seen: number[] = [];
      const created = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          replica(i).createCountedRequest(requested, unblockBelow(2, seen)),
        ),
      );

      expect(created.filter((c) => c.request.state === 'executing')).toHaveLength(2);
      expect(created.filter((c) => c.request.state === 'pending')).toHaveLength(6);
      expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      const events = await stores[1].listAudit();
      expect(events.filter((e) => e.type === 'requested')).toHaveLength(8);
      expect(events.filter((e) => e.type === 'executing')).toHaveLength(2);
      const stored = await stores[0].listRequests({ requesterId: AGENT.id });
      expect(stored.filter((r) => r.state === 'executing')).toHaveLength(2);
    });

    it('a counted create counts only the person, operation, event types and window it names', async () => {
      const other = { id: 'U0OTHER', name: 'Omid' };
      await stores[0].appendAudit([
        newEvent({ operation: 'viewer.unblock', type: 'requested', at: at(-1) }),
        newEvent({ operation: 'viewer.unblock', type: 'requested', at: at(0), actor: other }),
        newEvent({ operation: 'file.retry', type: 'requested', at: at(0) }),
        newEvent({ operation: 'viewer.unblock', type: 'executing', at: at(0) }),
        newEvent({ operation: 'viewer.unblock', type: 'requested', at: at(0) }),
      ]);
      const seen: number[] = [];

      await stores[1].createCountedRequest(requested, unblockBelow(2, seen));

      expect(seen).toEqual([1]);
    });

    it('a counted create whose request ID is taken is refused and records nothing', async () => {
      const taken = newRequest();
      await stores[0].createRequest(taken, [eventFor(taken, 'requested')]);

      await expect(
        stores[1].createCountedRequest(requested, () => ({
          request: unblock({ id: taken.id }),
          events: [eventFor(unblock({ id: taken.id }), 'requested')],
        })),
      ).rejects.toBeInstanceOf(StateConflictError);
      expect(await stores[0].listAudit()).toHaveLength(1);
    });

    /** The agent's four requests waiting for a lead. */
    async function fourPending(): Promise<OperationRequest[]> {
      const requests = Array.from({ length: 4 }, () => unblock());
      for (const r of requests) await stores[0].createRequest(r, [eventFor(r, 'requested')]);
      return requests;
    }

    /** The agent breaks the glass on `request` at version 1, within a limit of `max` per window. */
    function breakGlass(store: Store, request: OperationRequest, max: number) {
      return store.transitionWithin(
        { ...requested, types: ['break-glass'], max },
        request.id,
        1,
        { state: 'executing' },
        at(2),
        [eventFor(request, 'break-glass', { at: at(2) }), eventFor(request, 'executing', { at: at(2) })],
      );
    }

    it('the agent breaks the glass on four requests at once with a limit of 1: one runs, three are refused and change nothing', async () => {
      const requests = await fourPending();

      const results = await Promise.all(requests.map((r, i) => breakGlass(replica(i), r, 1)));

      expect(results.filter((r) => r.kind === 'done')).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'limited')).toEqual([
        { kind: 'limited', used: 1 },
        { kind: 'limited', used: 1 },
        { kind: 'limited', used: 1 },
      ]);
      const states = await Promise.all(requests.map(async (r) => (await stores[1].getRequest(r.id))?.state));
      expect([...states].sort()).toEqual(['executing', 'pending', 'pending', 'pending']);
      const events = await stores[1].listAudit();
      expect(events.filter((e) => e.type === 'break-glass')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'executing')).toHaveLength(1);
    });

    it('twelve break-glass claims at once with a limit of 3: exactly three change their request', async () => {
      const requests = [...(await fourPending()), ...(await fourPending()), ...(await fourPending())];

      const results = await Promise.all(requests.map((r, i) => breakGlass(replica(i), r, 3)));

      expect(results.filter((r) => r.kind === 'done')).toHaveLength(3);
      expect(results.filter((r) => r.kind === 'limited')).toHaveLength(9);
      expect((await stores[0].listAudit()).filter((e) => e.type === 'break-glass')).toHaveLength(3);
    });

    it('a limited change of a request another writer changed first is stale, and changes nothing', async () => {
      const [request] = await fourPending();
      if (request === undefined) throw new Error('no request');
      await stores[0].transition(request.id, 1, { state: 'cancelled' }, at(1), [
        eventFor(request, 'cancelled'),
      ]);

      expect(await breakGlass(stores[1], request, 1)).toEqual({ kind: 'stale' });
      expect((await stores[0].getRequest(request.id))?.state).toBe('cancelled');
      expect((await stores[0].listAudit()).map((e) => e.type)).toEqual([
        'requested',
        'requested',
        'requested',
        'requested',
        'cancelled',
      ]);
    });

    it('break-glass events before the window or by someone else do not count', async () => {
      const [request] = await fourPending();
      if (request === undefined) throw new Error('no request');
      await stores[0].appendAudit([
        newEvent({ operation: 'viewer.unblock', type: 'break-glass', at: at(-1) }),
        newEvent({ operation: 'viewer.unblock', type: 'break-glass', at: at(1), actor: LEAD }),
        newEvent({ operation: 'file.retry', type: 'break-glass', at: at(1) }),
      ]);

      const done = await breakGlass(stores[1], request, 1);

      expect(done).toMatchObject({ kind: 'done', request: { state: 'executing', version: 2 } });
      expect(done.kind === 'done' ? done.events.map((e) => e.type) : []).toEqual([
        'break-glass',
        'executing',
      ]);
    });
  });
}

/**
 * Upgrades: a database a newer vidops migrated is refused at start, naming the version, and left
 * as it was; this build's own migrations are each applied once.
 * @see docs/operations.md, "Upgrade"
 */
export function describeUpgrades(
  name: string,
  open: () => Promise<TamperableStore & { reopen(): Promise<Store> }>,
): void {
  describe(`${name}: upgrades`, () => {
    it('vidops doctor reads the applied versions and the database clock', async () => {
      const db = await open();
      try {
        const versions = await db.store.schemaVersions();
        expect(versions.length).toBeGreaterThan(5);
        expect(versions).toEqual([...versions].sort((a, b) => a - b));
        expect(Math.abs((await db.store.databaseNow()).getTime() - Date.now())).toBeLessThan(60_000);
      } finally {
        await db.store.close();
      }
    });

    it('an operator starts an older vidops on a database a newer one migrated: refused, naming the version, nothing changed', async () => {
      const db = await open();
      const request = newRequest();
      await db.store.createRequest(request, [eventFor(request, 'requested')]);
      await db.sql('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        9001,
        'from a newer vidops',
        T0,
      ]);
      await db.store.close();

      const refusal = db.reopen();
      await expect(refusal).rejects.toBeInstanceOf(DatabaseTooNewError);
      await expect(refusal).rejects.toThrow(/written by a newer vidops: it holds schema version 9001/);

      // Taken back out (a downgrade someone undid by hand), the database opens with its data.
      await db.sql('DELETE FROM schema_migrations WHERE version = ?', [9001]);
      const again = await db.reopen();
      try {
        expect(await again.getRequest(request.id)).toEqual(request);
      } finally {
        await again.close();
      }
    });
  });
}
