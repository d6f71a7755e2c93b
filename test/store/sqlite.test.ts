import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/index.js';
import { whileBusy } from '../../src/store/sqlite.js';
import {
  contractHash,
  describeAuditTampering,
  describeLimitContract,
  describeStoreContract,
  describeUpgrades,
} from './contract.js';
import { crashAndRecover } from './crash-harness.js';
import { describeViewerContract } from './viewer-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'vidops-store-'));
let files = 0;

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describeStoreContract('SQLite in memory', () => openStore('sqlite::memory:', { hash: contractHash }));

describeStoreContract('SQLite file (WAL)', () => {
  files += 1;
  return openStore(`sqlite:${join(dir, `contract-${files}.db`)}`, { hash: contractHash });
});

describeViewerContract(
  'SQLite file shared by two connections',
  async () => {
    files += 1;
    const url = `sqlite:${join(dir, `viewers-${files}.db`)}`;
    const first = await openStore(url, { hash: contractHash });
    return [first, await openStore(url, { hash: contractHash })];
  },
  countSqliteStatements,
);

/** Counts the statements run by every connection of this process, by spying on their prototype. */
function countSqliteStatements(): { stop(): number } {
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  const spies = (['run', 'get', 'all', 'iterate'] as const).map((method) => jest.spyOn(prototype, method));
  return {
    stop() {
      const count = spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
      for (const spy of spies) spy.mockRestore();
      return count;
    },
  };
}

describeLimitContract('SQLite in memory (one connection)', async () => {
  const store = await openStore('sqlite::memory:', { hash: contractHash });
  return [store, store];
});

describeLimitContract('SQLite file shared by two connections', async () => {
  files += 1;
  const url = `sqlite:${join(dir, `limits-${files}.db`)}`;
  const first = await openStore(url, { hash: contractHash });
  return [first, await openStore(url, { hash: contractHash })];
});

describeAuditTampering('SQLite', async () => {
  files += 1;
  const path = join(dir, `tamper-${files}.db`);
  const store = await openStore(`sqlite:${path}`, { hash: contractHash });
  return {
    store,
    // A second connection, as someone with the database file would open it.
    async sql(text, params = []) {
      const other = new Database(path);
      try {
        other.prepare(text).run(...params);
      } finally {
        other.close();
      }
    },
  };
});

describeUpgrades('SQLite', async () => {
  files += 1;
  const url = `sqlite:${join(dir, `upgrade-${files}.db`)}`;
  const store = await openStore(url, { hash: contractHash });
  return {
    store,
    async sql(text, params = []) {
      const other = new Database(url.slice('sqlite:'.length));
      try {
        other.prepare(text).run(...params);
      } finally {
        other.close();
      }
    },
    reopen: () => openStore(url, { hash: contractHash }),
  };
});

describe('SQLite file shared by two processes that are killed at random moments', () => {
  it('keeps the chain, every journaled commit, and exactly-once execution', async () => {
    const crashDir = mkdtempSync(join(dir, 'crash-'));

    const report = await crashAndRecover(`sqlite:${join(crashDir, 'vidops.db')}`, crashDir, {
      rounds: 5,
      workers: ['a', 'b'],
    });

    expect(report.problems).toEqual([]);
    expect(report.kills).toBe(10);
    expect(report.requests).toBeGreaterThan(0);
    expect(report.succeeded).toBeGreaterThan(0);
    expect(report.events).toBeGreaterThanOrEqual(report.requests * 2);
  }, 60_000);
});

describe('a process opening the file while another recovers it after a crash', () => {
  const busy = (code = 'SQLITE_BUSY_RECOVERY') => Object.assign(new Error('database is locked'), { code });

  it('waits while SQLite answers busy, then goes on', () => {
    let tries = 0;
    const mode = whileBusy(() => {
      tries += 1;
      if (tries < 3) throw busy();
      return 'wal';
    }, 1_000);
    expect(mode).toBe('wal');
    expect(tries).toBe(3);
  });

  it('gives up with the last error once the wait is over, and never waits on other errors', () => {
    let tries = 0;
    const started = Date.now();
    expect(() =>
      whileBusy(() => {
        tries += 1;
        throw busy('SQLITE_BUSY');
      }, 60),
    ).toThrow('database is locked');
    expect(tries).toBeGreaterThan(1);
    expect(Date.now() - started).toBeLessThan(1_000);

    let other = 0;
    expect(() =>
      whileBusy(() => {
        other += 1;
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
      }, 1_000),
    ).toThrow('disk I/O error');
    expect(other).toBe(1);
  });
});

describe('a second OS user on the machine and the database vidops creates', () => {
  // The file holds viewers' mobile numbers, every request's parameters and the approvals; other
  // users of the machine read none of it (docs/security.md, "The database file").
  const others = (path: string) => statSync(path).mode & 0o007;

  it('cannot read, write or list what vidops created: the folder, the database and its WAL', async () => {
    const made = join(dir, `private-${process.pid}`, 'data');
    const path = join(made, 'vidops.db');
    const store = await openStore(`sqlite:${path}`, { hash: contractHash });
    try {
      await store.appendAudit([]);
      expect(existsSync(`${path}-wal`)).toBe(true);
      expect([path, `${path}-wal`, `${path}-shm`, made].map((p) => [p, others(p)])).toEqual(
        [path, `${path}-wal`, `${path}-shm`, made].map((p) => [p, 0]),
      );
    } finally {
      await store.close();
    }
  });

  it('finds a database others may read: vidops says so in the log, and leaves its mode to the operator', async () => {
    const path = join(dir, `shared-${process.pid}.db`);
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    const warnings: unknown[] = [];
    const logger = { warn: (fields: unknown, msg: string) => warnings.push([fields, msg]), error: () => {} };
    const store = await openStore(`sqlite:${path}`, { hash: contractHash, logger });
    try {
      expect(statSync(path).mode & 0o777).toBe(0o644);
      expect(JSON.stringify(warnings)).toContain('chmod');
    } finally {
      await store.close();
    }
  });
});
