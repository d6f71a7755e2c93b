import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/index.js';
import { contractHash } from './contract.js';
import { at, newEvent } from './fixtures.js';

/**
 * A database written before the viewer index existed: the migration that makes the index fills
 * it from the log already there, so old unblocks are in every viewer's history.
 * @see docs/commands.md, "A viewer's history"
 */

const dir = mkdtempSync(join(tmpdir(), 'vidops-viewer-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('an operator upgrades a database with unblocks in its log: their viewers’ histories hold them', async () => {
  const path = join(dir, 'old.db');
  const store = await openStore(`sqlite:${path}`, { hash: contractHash });
  const unblock = { operation: 'viewer.unblock', params: { mobileNumber: '09124564567' } };
  await store.appendAudit([
    newEvent({
      ...unblock,
      type: 'requested',
      requestId: 'R-OLD00001',
      at: at(1),
      outcome: { reason: 'old' },
    }),
    newEvent({ ...unblock, type: 'succeeded', requestId: 'R-OLD00001', at: at(2) }),
    newEvent({ type: 'requested', requestId: 'R-OLD00002', at: at(3) }),
  ]);
  await store.close();
  // As the database stood before the index: no table, no record of its migration.
  const db = new Database(path);
  db.exec('DROP TABLE viewer_events; DELETE FROM schema_migrations WHERE version = 14;');
  db.close();

  const upgraded = await openStore(`sqlite:${path}`, { hash: contractHash });
  const history = await upgraded.viewerUnblocks({ viewer: '09124564567', limit: 10 });
  await upgraded.close();

  expect(history).toMatchObject([{ requestId: 'R-OLD00001', outcome: 'succeeded', reason: 'old' }]);
});
