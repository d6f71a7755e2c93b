import { describe, expect, test } from '@jest/globals';
import {
  approved,
  approveNow,
  bob,
  CONFIG,
  calls,
  config,
  FOLDER,
  folder,
  folderDelete,
  forMs,
  HOUR,
  kim,
  lee,
  MINUTE,
  OFFICE,
  pending,
  protect,
  revertPending,
  STALE,
  START,
  sandbox,
  THEIRS,
  useDatabaseWriter,
  WHITELIST,
  wentBack,
  whitelistAdd,
} from '../../test/services/database-writer.js';
import { paramsHash, SYSTEM_ACTOR } from '../core/approvals.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { ENGLISH } from '../i18n/index.js';
import { DEMO } from '../sandbox/demo-data.js';
import { approvalMessage } from '../views/approval.js';

/**
 * Second round of attacks by someone who can write vidops' database (SQL on the SQLite file,
 * through a connection of their own) but does not hold VIDEO_SECRET_KEY (docs/security.md, "What
 * vidops takes from its database on trust"). The first round is ./database-writer-attacks.test.ts;
 * these go after what the seals do not cover: state the seals leave to the row (a done time box, an
 * ended delegation, a settled outcome, the log the resume sweep reads), the preview people decide
 * on, and the fields a Revert's checks key on (`undo`, `revertOf`).
 * A test marked `DEFECT:` failed before its fix, the attack achieving what the comment says.
 */

// --- Harness ----------------------------------------------------------------------------------

// Unless a test says otherwise, the writer leaves the audit log alone: the chain still verifies.
const { setup } = useDatabaseWriter({ prefix: 'dbw2', leads: [lee.id, kim.id] });

// --- State the seal leaves to the row ---------------------------------------------------------

describe('ended things set going again', () => {
  // DEFECT: a lead's "Send again" deleted the folder of a delete another lead had settled as not
  // applied ("keep it"): the writer set the settled request back to `unknown`, its `send` seal held.
  test('a database writer who sets a settled delete back to unknown gets nothing sent by a lead’s Send again', async () => {
    const w = await setup();
    const request = await pending(w.ops, folderDelete);
    sandbox.setFaults([{ path: FOLDER, method: 'DELETE', status: 503, times: 1 }]);
    expect((await approveNow(w.ops, request.id)).state).toBe('unknown');
    w.advance(5 * MINUTE);
    const settled = await w.ops.resolve(request.id, kim, 'not-applied', 'still there; we keep it');
    expect(settled).toMatchObject({ kind: 'resolved', request: { state: 'failed' } });
    expect(folder(DEMO.folders.lectures)).toBeDefined();
    w.writer.edit(request.id, () => {}, 'unknown');
    sandbox.clearRequests();

    await w.ops.resolve(request.id, lee, 'send-again', 'the panel still shows it');

    expect(calls('DELETE', FOLDER)).toBe(0);
    expect(folder(DEMO.folders.lectures)).toBeDefined();
  });

  // DEFECT: the sweep put a time-boxed change back a second time, after the writer set its done
  // time box back to `waiting`: the office address a lead later approved for good was removed.
  test('a database writer who sets a time box that was put back to waiting gets no second put-back', async () => {
    const w = await setup();
    const first = await wentBack(w);
    expect((await w.stored(first.id)).timeBox?.state).toBe('done');
    expect(sandbox.state().whitelist).toEqual([]);
    // A lead approves the office address for good.
    await approved(w.ops, whitelistAdd(OFFICE));
    expect(sandbox.state().whitelist).toEqual([OFFICE]);
    w.writer.edit(first.id, (d) => {
      const box = d.timeBox as JsonObject;
      Object.assign(box, { state: 'waiting', requestId: null, conflicts: [] });
    });
    sandbox.clearRequests();

    await w.ops.sweepTimeBoxes();

    expect(calls('POST', WHITELIST)).toBe(0);
    expect(sandbox.state().whitelist).toEqual([OFFICE]);
  });

  // DEFECT: a delegation its lead had cancelled, reopened with SQL (its seal still holds), let the
  // delegate's approval count for the lead: the writer's address was whitelisted.
  test('a database writer who reopens a cancelled delegation gets the delegate’s approval not counted', async () => {
    const w = await setup();
    const given = await w.ops.delegate(lee, {
      delegate: { id: bob.id, name: bob.name },
      until: { kind: 'duration', ms: 8 * HOUR, text: '8h' },
      reason: null,
    });
    expect(given.kind).toBe('delegated');
    expect((await w.ops.cancelDelegation(lee)).kind).toBe('cancelled');
    const request = await pending(w.ops, whitelistAdd(THEIRS));
    w.writer.run(
      `UPDATE delegations SET ended_at = NULL,
         data = json_set(data, '$.endedAt', json('null'), '$.endedBy', json('null'), '$.ending', json('null'))
       WHERE lead_id = ?`,
      lee.id,
    );

    const decided = await w.ops.approve(request.id, bob);

    expect(decided.kind).toBe('refused');
    expect(sandbox.state().whitelist).toEqual([]);
  });

  // DEFECT: with one `executing` event appended to the log (chained with plain SHA-256, which
  // `audit verify` accepts), the resume sweep sent a done change again: zoom prevented once more
  // after a lead had approved allowing it.
  test('a database writer who sets a done change back to executing and appends an executing event gets nothing sent again', async () => {
    const w = await setup();
    const change = await approved(w.ops, protect({ preventZoom: true }));
    await approved(w.ops, protect({ preventZoom: false }));
    expect(config().preventZoom).toBe(false);
    w.writer.edit(change.id, () => {}, 'executing');
    w.writer.appendEvent(change, 'executing', SYSTEM_ACTOR, w.now());
    w.advance(STALE);
    sandbox.clearRequests();

    await w.ops.resumeInterrupted();

    expect(calls('POST', CONFIG)).toBe(0);
    expect(config().preventZoom).toBe(false);
  });

  test('a database writer who sets a done change back to executing without touching the log gets nothing sent again', async () => {
    const w = await setup();
    const change = await approved(w.ops, protect({ preventZoom: true }));
    await approved(w.ops, protect({ preventZoom: false }));
    w.writer.edit(change.id, () => {}, 'executing');
    w.advance(STALE);
    sandbox.clearRequests();

    await w.ops.resumeInterrupted();

    expect(calls('POST', CONFIG)).toBe(0);
    expect(config().preventZoom).toBe(false);
    expect(await w.stored(change.id)).toMatchObject({ state: 'failed', error: { name: 'Unsealed' } });
  });

  test('a database writer who sets a pending request to approved gets nothing sent by any sweep', async () => {
    const w = await setup();
    const request = await pending(w.ops, whitelistAdd(THEIRS));
    w.writer.edit(request.id, () => {}, 'approved');
    w.advance(STALE);

    await w.ops.expireDue();
    await w.ops.resumeInterrupted();
    await w.ops.sweepTimeBoxes();

    expect(sandbox.state().whitelist).toEqual([]);
  });
});

// --- What people decide on, and what a Revert trusts ------------------------------------------

describe('previews and Reverts', () => {
  // DEFECT: the Revert set the folder's title to one the writer wrote as the edit's "before" while
  // it waited: vidops sealed the preview's `before` as the values replaced without reading them.
  test('a database writer who edits the “before” of a pending folder edit gets no Revert to their values', async () => {
    const w = await setup();
    const id = DEMO.folders.lectures;
    const before = folder(id)?.title;
    const edit = await pending(w.ops, { kind: 'folder.edit', bucketId: id, title: 'Lectures 2026' });
    w.writer.edit(edit.id, (d) => {
      const preview = d.preview as JsonObject;
      preview.before = { title: 'Free for everyone', description: 'theirs' };
    });
    // The preview is sealed as asked: the edited request is refused, and so is its Revert.
    expect((await w.ops.approve(edit.id, lee)).kind).toBe('refused');
    expect(folder(id)?.title).toBe(before);

    const revert = await revertPending(w.ops, edit.id).catch((e: Error) => e);
    if (!(revert instanceof Error)) await approveNow(w.ops, revert.id, kim);

    expect(folder(id)?.title).not.toBe('Free for everyone');
    expect([before, 'Lectures 2026']).toContain(folder(id)?.title);
  });

  // DEFECT: a lead approved what the approval message showed (the office address); what was sent
  // was the writer's address: the target and preview are not sealed, only the params.
  test('an agent who can write the database shows the lead another address than the one sent: not sent unseen', async () => {
    const w = await setup();
    // Bob asks for his own address, then rewrites what the lead will see into the office's.
    const request = await pending(w.ops, whitelistAdd(THEIRS), undefined, bob);
    w.writer.edit(request.id, (d) => {
      d.target = OFFICE;
      d.preview = { kind: 'whitelist', before: [], after: [OFFICE], added: [OFFICE], removed: [] };
    });
    const shown = JSON.stringify(approvalMessage(await w.stored(request.id), w.now(), ENGLISH));

    await w.ops.approve(request.id, lee).catch(() => null);

    const sentUnseen = sandbox.state().whitelist.includes(THEIRS) && !shown.includes(THEIRS);
    expect({ sentUnseen }).toEqual({ sentUnseen: false });
  });

  // DEFECT: a Revert stale since a lead's later change was sent all the same: the writer gave it an
  // `undo` (or took its `revertOf` away), which skip the check made just before sending
  // (staleRevert); the later change (opacity 0.9) was undone.
  test.each([
    [
      'gives a pending Revert recorded old values',
      (d: JsonObject) => {
        d.undo = { kind: 'protection', rows: [] };
      },
    ],
    [
      'takes a pending Revert’s revertOf away',
      (d: JsonObject) => {
        delete d.revertOf;
      },
    ],
  ])('a database writer who %s gets no stale Revert sent', async (_what, forge) => {
    const w = await setup();
    const change = await approved(w.ops, protect({ opacity: 0.3 }));
    const revert = await revertPending(w.ops, change.id);
    await approved(w.ops, protect({ opacity: 0.9 }));
    w.writer.edit(revert.id, forge);
    sandbox.clearRequests();

    await w.ops.approve(revert.id, kim);

    expect(calls('POST', CONFIG)).toBe(0);
    expect(config().opacity).toBe(0.9);
  });

  test('a stale Revert left as vidops recorded it is not sent', async () => {
    const w = await setup();
    const change = await approved(w.ops, protect({ opacity: 0.3 }));
    const revert = await revertPending(w.ops, change.id);
    await approved(w.ops, protect({ opacity: 0.9 }));
    sandbox.clearRequests();

    await w.ops.approve(revert.id, kim);

    expect(calls('POST', CONFIG)).toBe(0);
    expect(config().opacity).toBe(0.9);
  });
});

// --- Requests of vidops' own, and approvals copied across -------------------------------------

describe('put-back requests and copied seals', () => {
  test('a database writer who inserts a put-back request with a real one’s seal and their address gets nothing sent', async () => {
    const w = await setup();
    const change = await wentBack(w);
    const putBackId = (await w.stored(change.id)).timeBox?.requestId;
    if (putBackId == null) throw new Error('no put-back request');
    const data = w.writer.data(putBackId);
    data.params = { allowedDNS: [THEIRS], expectBefore: [] };
    data.paramsHash = paramsHash('whitelist.set', data.params);
    const at = START.toISOString();
    w.writer.run(
      `INSERT INTO requests (id, operation, state, requester_id, created_at, expires_at, updated_at, version, data)
       VALUES ('R-F0RGED02', 'whitelist.set', 'executing', ?, ?, NULL, ?, 2, ?)`,
      SYSTEM_ACTOR.id,
      at,
      at,
      JSON.stringify(data),
    );
    w.advance(STALE);

    await w.ops.resumeInterrupted();

    expect(sandbox.state().whitelist).toEqual([]);
    expect(await w.stored('R-F0RGED02')).toMatchObject({ state: 'failed', error: { name: 'Unsealed' } });
  });

  test('a database writer who marks a pending request as a put-back and sets it executing gets nothing sent', async () => {
    const w = await setup();
    const change = await approved(w.ops, whitelistAdd(OFFICE), forMs(HOUR, '1h'));
    const request = await pending(w.ops, whitelistAdd(THEIRS));
    w.writer.edit(
      request.id,
      (d) => {
        d.revertOf = { id: change.id, kind: 'put-back' };
        d.requester = { id: SYSTEM_ACTOR.id, name: SYSTEM_ACTOR.name };
        d.quorum = 0;
      },
      'executing',
    );
    w.advance(STALE);

    await w.ops.resumeInterrupted();

    expect(sandbox.state().whitelist).toEqual([OFFICE]);
  });

  test('a database writer who copies a lead’s approval of another request gets it not counted', async () => {
    const w = await setup('whitelist.set: { quorum: 2 }');
    const other = await pending(w.ops, whitelistAdd(OFFICE));
    expect((await w.ops.approve(other.id, lee)).kind).toBe('pending');
    const request = await pending(w.ops, whitelistAdd(THEIRS));
    const [leeApproval] = w.writer.data(other.id).approvals as JsonValue[];
    w.writer.edit(request.id, (d) => {
      d.approvals = leeApproval === undefined ? [] : [leeApproval];
    });

    const decided = await w.ops.approve(request.id, kim);

    expect(decided.kind).toBe('pending');
    expect(sandbox.state().whitelist).toEqual([]);
  });
});
