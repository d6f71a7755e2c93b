import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as approvals from '../src/core/approvals.js';
import { createHasher } from '../src/core/audit-chain.js';
import { newEventId, newRequestId } from '../src/core/ids.js';
import { SqliteStore } from '../src/store/sqlite.js';

/**
 * WAL pages an unblock's writes add to vidops' SQLite file: the replay key, the request with its
 * `requested` and `executing` events, and its outcome, each commit measured by the WAL's growth
 * (checkpoints off). `npm run bench -- wal`; WAL_SQL=<statements> runs them after the migrations
 * first, to weigh a schema change (e.g. WAL_SQL='DROP INDEX audit_at') before writing it.
 */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vidops-wal-'));
  const file = join(dir, 'v.db');
  const store = new SqliteStore(file, { hash: createHasher() });
  await store.migrate();
  const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
  if (process.env.WAL_SQL) db.exec(process.env.WAL_SQL);
  db.pragma('wal_autocheckpoint = 0');
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const frames = () => statSync(`${file}-wal`).size / (pageSize + 24);
  const actor = { id: 'U0BENCHAGENT', name: 'bench' };
  const totals = { replay: 0, request: 0, outcome: 0 };
  const n = 2000;
  const warm = 500;
  for (let i = 0; i < n + warm; i += 1) {
    const now = new Date();
    const c = { now, eventId: newEventId };
    const mobile = `0912${String(i).padStart(7, '0')}`;
    let before = frames();
    await store.markDelivered(`sig:${newEventId()}`, now.toISOString());
    const replay = frames() - before;
    before = frames();
    const made = approvals.newRequest(
      {
        id: newRequestId(),
        operation: 'viewer.unblock',
        params: { mobileNumber: mobile },
        target: `viewer ${mobile.slice(0, 4)}***${mobile.slice(-4)}`,
        preview: { blocked: true, actionType: 'block' },
        reason: null,
        requester: actor,
        mode: { kind: 'direct' },
      } as approvals.NewRequestInput<'viewer.unblock'>,
      c,
    );
    const { request } = await store.createRequest(made.request, made.events);
    const created = frames() - before;
    before = frames();
    const step = approvals.succeed(request, { ok: true }, { now: new Date(), eventId: newEventId });
    await store.transition(request.id, request.version, step.patch, new Date().toISOString(), step.events);
    const outcome = frames() - before;
    if (i >= warm) {
      totals.replay += replay;
      totals.request += created;
      totals.outcome += outcome;
    }
  }
  const per = (x: number) => (x / n).toFixed(1);
  console.log(
    `WAL pages per unblock (${pageSize}-byte pages, mean of ${n}): replay key ${per(totals.replay)}, ` +
      `request + requested + executing ${per(totals.request)}, outcome ${per(totals.outcome)}; ` +
      `total ${per(totals.replay + totals.request + totals.outcome)}`,
  );
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
