import { resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { StoreLogger } from './codec.js';
import type { HashEvent, Store } from './store.js';

export type { StoreLogger } from './codec.js';
export type { SqliteSynchronous } from './sqlite.js';
export * from './store.js';

export interface OpenStoreOptions {
  /** Fills each event's `hash` (core/audit-chain `createHasher`). */
  hash: HashEvent;
  logger?: StoreLogger | undefined;
  /** Apply pending migrations before returning (default true), so the store is ready to use. */
  migrate?: boolean | undefined;
}

/** Where `DATABASE_URL` points, parsed. Never carries the URL into messages (it may hold a password). */
export type StoreLocation =
  | { kind: 'sqlite'; path: string; synchronous: 'normal' | 'full' }
  | { kind: 'postgres'; connectionString: string; schema: string | undefined };

/**
 * Reads a `DATABASE_URL`:
 * - `sqlite:<path>` (relative to the working directory; `sqlite::memory:` for an in-memory
 *   database), optionally `?synchronous=full` to fsync every commit;
 * - `postgres://…` or `postgresql://…`, optionally `?schema=<name>` to keep the tables in their
 *   own schema (created on migrate).
 * @see docs/architecture.md, "Runtime contract"
 */
export function parseStoreUrl(url: string): StoreLocation {
  if (url.startsWith('sqlite:')) {
    const rest = url.slice('sqlite:'.length);
    const q = rest.indexOf('?');
    const path = q === -1 ? rest : rest.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : rest.slice(q + 1));
    const problems: string[] = [];
    if (path === '') problems.push('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:data/vidops.db');
    const sync = query.get('synchronous')?.toLowerCase() ?? 'normal';
    if (sync !== 'normal' && sync !== 'full') {
      problems.push(`DATABASE_URL synchronous must be "normal" or "full", got "${sync}"`);
    }
    for (const key of query.keys()) {
      if (key !== 'synchronous') problems.push(`DATABASE_URL has an unknown SQLite option "${key}"`);
    }
    if (problems.length > 0) throw new ConfigError(problems);
    return {
      kind: 'sqlite',
      path: path === ':memory:' ? path : resolve(process.cwd(), path),
      synchronous: sync === 'full' ? 'full' : 'normal',
    };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError(['DATABASE_URL is not a valid postgres:// URL']);
    }
    const schema = parsed.searchParams.get('schema') ?? undefined;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new ConfigError([`DATABASE_URL schema must be a lower-case SQL identifier, got "${schema}"`]);
    }
    parsed.searchParams.delete('schema');
    return { kind: 'postgres', connectionString: parsed.toString(), schema };
  }
  throw new ConfigError(['DATABASE_URL must start with sqlite: or postgres://']);
}

/**
 * Opens the store `url` names (see {@link parseStoreUrl}) and, unless told not to, applies pending
 * migrations. The adapter's driver is loaded only when used.
 * @see docs/architecture.md, "Scale"
 */
export async function openStore(url: string, options: OpenStoreOptions): Promise<Store> {
  const location = parseStoreUrl(url);
  let store: Store;
  if (location.kind === 'sqlite') {
    const { prepareSqliteFile, SqliteStore } = await import('./sqlite.js');
    if (location.path !== ':memory:') await prepareSqliteFile(location.path, options.logger);
    store = new SqliteStore(location.path, {
      hash: options.hash,
      logger: options.logger,
      synchronous: location.synchronous,
    });
  } else {
    const { PostgresStore } = await import('./postgres.js');
    store = new PostgresStore(location.connectionString, {
      hash: options.hash,
      logger: options.logger,
      schema: location.schema,
    });
  }
  if (options.migrate !== false) {
    try {
      await store.migrate();
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
  }
  return store;
}
