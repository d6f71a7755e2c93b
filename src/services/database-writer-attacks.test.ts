import { describe, expect, test } from '@jest/globals';
import {
  approved,
  ava,
  bob,
  CONFIG,
  calls,
  config,
  FOLDER,
  forMs,
  HOUR,
  kim,
  lee,
  MINUTE,
  max,
  OFFICE,
  pending,
  STALE,
  START,
  sandbox,
  THEIRS,
  useDatabaseWriter,
  WHITELIST,
  type World,
  wentBack,
  whitelistAdd,
} from '../../test/services/database-writer.js';
import { paramsHash } from '../core/approvals.js';
import type { JsonObject } from '../core/json.js';
import type { OperationRequest } from '../core/model.js';
import { sealKeyOf } from '../core/seal.js';
import { newTimeBox } from '../core/time-box.js';
import { DEMO } from '../sandbox/demo-data.js';
import type { Store } from '../store/index.js';
import type { PrepareInput } from './types.js';

/**
 * Attacks by someone who can write vidops' database but does not hold VIDEO_SECRET_KEY
 * (docs/security.md, "What vidops takes from its database on trust"; docs/time-boxed.md, "What a
 * put-back trusts"). They act as an attacker would: with SQL on the SQLite file, through a
 * connection of their own beside the running store, never through vidops. What they must not
 * get: anything sent to the service that no vidops process judged (policy, quorum, break-glass,
 * put-back sweep) and sealed with the key the database does not hold.
 * A test marked `DEFECT:` failed before the seal, the attack achieving what the comment says.
 */

const zoomOn: PrepareInput = { kind: 'protect.set', changes: { preventZoom: true } };
/** The params the writer would rather have sent: the watermark all but invisible. */
const faint: JsonObject = { changes: { opacity: 0.05 } };

// --- Harness ----------------------------------------------------------------------------------

// The writer touches requests only, never the audit log: the chain still verifies.
const { setup } = useDatabaseWriter({ prefix: 'dbw', leads: [lee.id], sandbox: { extras: false } });

const GONE = 'process gone';

/**
 * The store of a process that dies right after it moves a request into `executing` (the write
 * lands, then nothing more: the send never happens). Used once, then thrown away.
 */
function diesOnceExecuting(store: Store): Store {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
      if (prop !== 'createRequest' && prop !== 'transition') return fn;
      return async (...args: unknown[]) => {
        const result = await fn(...args);
        const moved =
          prop === 'createRequest'
            ? (args[0] as OperationRequest).state === 'executing'
            : (args[2] as { state?: string }).state === 'executing';
        if (moved) throw new Error(GONE);
        return result;
      };
    },
  });
}

/**
 * A change whose process died right after moving it into `executing` (the lead's approval, or a
 * change the policy runs directly), before sending it; the request left `executing`.
 */
async function interrupted(w: World, input: PrepareInput): Promise<OperationRequest> {
  const dying = w.start({ store: diesOnceExecuting(w.store) });
  const submitted = await dying.submit(ava, await dying.prepare(ava, input)).catch((e: Error) => e);
  if (!(submitted instanceof Error)) {
    if (submitted.kind !== 'pending') throw new Error(`expected pending, got ${submitted.kind}`);
    await expect(dying.approve(submitted.request.id, lee)).rejects.toThrow(GONE);
  } else expect(submitted.message).toBe(GONE);
  const [request] = await w.store.listRequests({ states: ['executing'] });
  if (request === undefined) throw new Error('no interrupted request');
  return request;
}

/** Sets `data`'s params and, as src/core/approvals.ts computes it, its paramsHash. */
function setParams(data: JsonObject, operation: string, params: JsonObject): void {
  data.params = params;
  data.paramsHash = paramsHash(operation, params);
}

const posts = (path: string) => calls('POST', path);

/** What every refused attack ends in: nothing was sent, the request failed as unsealed. */
async function expectUnsealed(w: World, id: string): Promise<void> {
  expect(await w.stored(id)).toMatchObject({ state: 'failed', error: { name: 'Unsealed' } });
}

// --- The attacks ------------------------------------------------------------------------------

describe('requests no process judged', () => {
  // DEFECT: the resume sweep sent a change no lead approved (preventZoom turned on).
  test.each([
    ['flips a pending request to executing', (_d: JsonObject) => {}],
    [
      'adds a forged lead approval and flips the request to executing',
      (d: JsonObject) => {
        d.approvals = [{ by: { id: lee.id, name: lee.name }, at: START.toISOString() }];
      },
    ],
  ])('a database writer who %s gets nothing sent', async (_what, forge) => {
    const w = await setup();
    const request = await pending(w.ops, zoomOn);
    w.writer.edit(request.id, forge, 'executing');
    w.advance(STALE);
    sandbox.clearRequests();

    await w.ops.resumeInterrupted();

    expect(posts(CONFIG)).toBe(0);
    expect(config().preventZoom).toBe(false);
    await expectUnsealed(w, request.id);
  });

  // DEFECT: the resume sweep sent the writer's params (opacity 0.05) in place of the agent's.
  test('a database writer who edits the params of an interrupted direct change gets them not sent', async () => {
    const w = await setup('protect.set: { approval: false }');
    const request = await interrupted(w, zoomOn);
    w.writer.edit(request.id, (d) => setParams(d, 'protect.set', faint));
    w.advance(STALE);
    sandbox.clearRequests();

    await w.start().resumeInterrupted();

    expect(posts(CONFIG)).toBe(0);
    expect(config()).toMatchObject({ opacity: 0.6, preventZoom: false });
    await expectUnsealed(w, request.id);
  });

  // DEFECT: a row inserted with SQL, a copy of a real request's data (its seal too), was sent.
  test.each([
    ['other params', faint],
    ['the same params (a replay under a new ID)', null],
  ])(
    'a database writer who inserts an executing request with a real one’s seal and %s gets nothing sent',
    async (_what, params) => {
      const w = await setup();
      const real = await approved(w.ops, zoomOn);
      sandbox.reset();
      const data = w.writer.data(real.id);
      if (params !== null) setParams(data, 'protect.set', params);
      const forged = 'R-F0RGED01';
      w.writer.insert(
        {
          id: forged,
          operation: 'protect.set',
          state: 'executing',
          requester_id: ava.id,
          created_at: START.toISOString(),
          expires_at: null,
          updated_at: START.toISOString(),
          version: 3,
        },
        data,
      );
      w.advance(STALE);
      sandbox.clearRequests();

      await w.start().resumeInterrupted();

      expect(posts(CONFIG)).toBe(0);
      expect(config()).toMatchObject({ opacity: 0.6, preventZoom: false });
      await expectUnsealed(w, forged);
      // Refused although it carries the seal of the real request, not for want of one.
      expect(data.seal).toEqual(w.writer.data(real.id).seal);
      expect(data.seal).toEqual(expect.any(String));
    },
  );

  // DEFECT: a lead's "Send again" sent a delete no lead approved (the folder is gone).
  test('a database writer who flips a pending delete to unknown gets nothing sent by a lead’s Send again', async () => {
    const w = await setup();
    const request = await pending(w.ops, { kind: 'folder.delete', bucketId: DEMO.folders.lectures });
    w.writer.edit(request.id, () => {}, 'unknown');
    sandbox.clearRequests();

    await w.ops.resolve(request.id, lee, 'send-again', 'the panel still shows it');

    expect(calls('DELETE', FOLDER)).toBe(0);
    await expectUnsealed(w, request.id);
  });
});

describe('requests a lead approved', () => {
  // DEFECT: the lead's approval sealed and sent the params the writer edited while it waited.
  test('a lead approves a pending request whose params a database writer edited: they are not sent', async () => {
    const w = await setup();
    const request = await pending(w.ops, zoomOn);
    w.writer.edit(request.id, (d) => setParams(d, 'protect.set', faint));
    sandbox.clearRequests();

    const decided = await w.ops.approve(request.id, lee);

    expect(decided.kind).toBe('refused');
    expect(posts(CONFIG)).toBe(0);
    expect(config().opacity).toBe(0.6);
  });

  // DEFECT: a copy of a lead's own approval counted twice: three "approvals" from two leads.
  test('a database writer who copies a lead’s approval gets no quorum of three from two leads', async () => {
    const w = await setup('protect.set: { quorum: 3 }', [lee.id, kim.id, max.id]);
    const request = await pending(w.ops, zoomOn);
    expect((await w.ops.approve(request.id, lee)).kind).toBe('pending');
    w.writer.edit(request.id, (d) => {
      const [first] = Array.isArray(d.approvals) ? d.approvals : [];
      if (first !== undefined) d.approvals = [first, first];
    });

    const decided = await w.ops.approve(request.id, kim);

    expect(decided.kind).not.toBe('executed');
    expect(config().preventZoom).toBe(false);
  });

  test('a normal approval still sends once, and a restart with the same key sends nothing more', async () => {
    const w = await setup();
    sandbox.clearRequests();
    const change = await approved(w.ops, zoomOn);
    w.advance(STALE);
    expect(await w.start().resumeInterrupted()).toEqual({ resumed: [], unknown: [] });

    expect(posts(CONFIG)).toBe(1);
    expect(config().preventZoom).toBe(true);
    expect((await w.stored(change.id)).state).toBe('succeeded');
  });

  test.each([
    {
      title:
        'an approved change whose process died before sending is resumed after a restart with the same key, once',
      policy: undefined,
    },
    {
      title: 'a direct change whose process died before sending is resumed after a restart with the same key',
      policy: 'protect.set: { approval: false }',
    },
  ])('$title', async ({ policy }) => {
    const w = await setup(policy);
    const request = await interrupted(w, zoomOn);
    w.advance(STALE);
    sandbox.clearRequests();

    const swept = await w.start().resumeInterrupted();

    expect(swept.resumed.map((r) => [r.id, r.state])).toEqual([[request.id, 'succeeded']]);
    expect(posts(CONFIG)).toBe(1);
    expect(config().preventZoom).toBe(true);
  });

  // DEFECT: a process with another secret key sent what this one sealed.
  test('an interrupted approved change is not sent by a process restarted with another secret key', async () => {
    const w = await setup();
    const request = await interrupted(w, zoomOn);
    w.advance(STALE);
    sandbox.clearRequests();

    await w.start({ sealKey: sealKeyOf('another secret') }).resumeInterrupted();

    expect(posts(CONFIG)).toBe(0);
    expect(config().preventZoom).toBe(false);
    await expectUnsealed(w, request.id);
  });
});

describe('time-boxed changes', () => {
  test('a time-boxed whitelist add still goes back at its end', async () => {
    const w = await setup();
    await approved(w.ops, whitelistAdd(OFFICE), forMs(HOUR, '1h'));
    expect(sandbox.state().whitelist).toEqual([OFFICE]);
    w.advance(HOUR);

    await w.ops.sweepTimeBoxes();

    expect(sandbox.state().whitelist).toEqual([]);
  });

  // DEFECT: the put-back sent the old values the writer recorded (their address, a faint watermark).
  test.each([
    [
      'whitelist add, with their address among the ones it "removed"',
      whitelistAdd(OFFICE),
      (d: JsonObject) => {
        d.undo = { kind: 'whitelist', before: [THEIRS], added: [OFFICE], removed: [THEIRS] };
      },
    ],
    [
      'protection change, with a faint watermark as an old value',
      zoomOn,
      (d: JsonObject) => {
        d.undo = {
          kind: 'protection',
          rows: [
            { field: 'preventZoom', before: false, after: true },
            { field: 'opacity', before: 0.05, after: 0.6 },
          ],
        };
      },
    ],
  ])(
    'a database writer who edits the recorded old values of a time-boxed %s: the put-back does not send them',
    async (_what, input, forge) => {
      const w = await setup();
      const change = await approved(w.ops, input, forMs(HOUR, '1h'));
      w.advance(30 * MINUTE);
      w.writer.edit(change.id, forge);
      w.advance(30 * MINUTE);

      await w.ops.sweepTimeBoxes();

      expect(sandbox.state().whitelist).not.toContain(THEIRS);
      expect(config().opacity).toBe(0.6);
    },
  );
});

describe('further attacks', () => {
  // DEFECT: a done change flipped back to `executing` was sent again (a seal of id, operation and
  // params alone still held): the address a time-boxed add put back was whitelisted again, for good.
  test('a database writer who flips a change that was put back to executing gets nothing sent again', async () => {
    const w = await setup();
    const change = await wentBack(w);
    expect(sandbox.state().whitelist).toEqual([]);
    w.writer.edit(change.id, () => {}, 'executing');
    w.advance(STALE);
    sandbox.clearRequests();

    await w.ops.resumeInterrupted();

    expect(posts(WHITELIST)).toBe(0);
    expect(sandbox.state().whitelist).toEqual([]);
  });

  // DEFECT: with the seal checked only on the request as claimed, what was sent was the request as
  // the store gave it back after noting its old values (noteUndo): params edited in between.
  test('a database writer who edits the params while vidops reads the values they replace gets them not sent', async () => {
    const w = await setup();
    const request = await pending(w.ops, zoomOn);
    // The writer acts while vidops reads the protection settings, just before it sends.
    const { client } = w;
    const racing = w.start({
      client: {
        ...client,
        protection: {
          ...client.protection,
          async get() {
            const read = await client.protection.get();
            w.writer.edit(request.id, (d) => setParams(d, 'protect.set', faint));
            return read;
          },
        },
      },
    });

    await racing.approve(request.id, lee);

    expect(config().opacity).toBe(0.6);
  });

  // DEFECT: a time box grafted onto a done permanent change, with old values of the writer's
  // making, had the sweep send those values (their address whitelisted) with no approval.
  test('a database writer who grafts a time box onto a done change gets nothing of theirs put back', async () => {
    const w = await setup();
    const change = await approved(w.ops, whitelistAdd(OFFICE));
    w.writer.edit(change.id, (d) => {
      d.undo = { kind: 'whitelist', before: [THEIRS], added: [], removed: [THEIRS] };
      d.timeBox = { ...newTimeBox(forMs(MINUTE, '1m')), endsAt: START.toISOString() };
    });
    w.advance(MINUTE);

    await w.ops.sweepTimeBoxes();

    expect(sandbox.state().whitelist).toEqual([OFFICE]);
  });

  // DEFECT: a delegation inserted with SQL made a second agent a lead's stand-in: their approval
  // was judged and sealed by vidops like any, and the writer's address was whitelisted.
  test('a database writer who inserts a delegation to a fellow agent gets a change approved by them not sent', async () => {
    const w = await setup();
    const request = await pending(w.ops, whitelistAdd(THEIRS));
    w.writer.delegate(lee, bob);

    await w.ops.approve(request.id, bob);

    expect(sandbox.state().whitelist).toEqual([]);
  });

  // Was a defect: the Home tabs read delegations from their rows alone, so one inserted with SQL
  // showed "You approve for …" and listed requests whose Approve then refused.
  test('a database writer who inserts a delegation to a fellow agent: neither Home tab shows it, nor offers its requests', async () => {
    const w = await setup();
    const request = await pending(w.ops, whitelistAdd(THEIRS));
    w.writer.delegate(lee, bob);

    expect(await w.ops.delegations(bob)).toEqual({ given: null, received: [] });
    expect(await w.ops.delegations(lee)).toEqual({ given: null, received: [] });
    expect((await w.ops.listRequests(bob)).awaitingMe.map((r) => r.id)).not.toContain(request.id);
  });
});
