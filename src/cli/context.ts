import { type FileHandle, open, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import type { VideoClientHandle } from '../client/index.js';
import { type CliConfig, type CliStoreConfig, loadCliConfig } from '../config.js';
import { ConfigError, InputError } from '../core/errors.js';
import type { Policy } from '../core/policy.js';
import { loadPolicy, openAuditedStore, openVideoClient } from '../parts.js';
import { createOperations } from '../services/index.js';
import type { Operations } from '../services/types.js';
import { parseStoreUrl, type Store } from '../store/index.js';
import { createCoverFetcher, type ReadFile } from './cover.js';

/**
 * What the CLI commands run against, built from the environment: the store alone for the audit and
 * listing commands, or the store, the API client, the policy and the operations services.
 * @see docs/architecture.md, "Runtime contract"
 */

export type Env = Record<string, string | undefined>;

/** The `code` of a Node system error. Checked by shape: errors from another realm (test sandboxes) fail `instanceof`. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function isMissing(error: unknown): boolean {
  return errorCode(error) === 'ENOENT';
}

/**
 * The environment with `.env` of the working directory underneath: variables already set win,
 * as with `npm start`. A missing `.env` is no problem. Its settings choose the service the API
 * keys are sent to and the database approvals are read from, so it is read only when this user,
 * root, or the owner of the folder it is in (a deployment's folder, whose `.env` the leads share)
 * owns it: a `.env` another user left in a folder anyone may write (`/tmp`, a shared folder) is
 * refused, as ssh and git refuse files of others. The owner is read from the file opened, so it
 * cannot be swapped between the check and the read.
 */
export async function loadEnv(env: Env, cwd: string): Promise<Env> {
  const path = join(cwd, '.env');
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if (isMissing(error)) return { ...env };
    throw error;
  }
  try {
    const [{ uid }, folder] = await Promise.all([file.stat(), stat(cwd)]);
    const me = process.getuid?.() ?? uid;
    if (uid !== me && uid !== 0 && uid !== folder.uid) {
      throw new ConfigError([
        `${path} belongs to another user (uid ${uid}), not to you, root or the owner of ${cwd}: vidops does not take its settings (the service its keys go to, the database it trusts) from a file another user wrote. Run vidops from the deployment's folder, or remove that file.`,
      ]);
    }
    return { ...parseDotenv(await file.readFile()), ...env };
  } finally {
    await file.close();
  }
}

/** `sqlite:<relative path>` read against the CLI's working directory rather than the process's. */
export function resolveDatabaseUrl(url: string, cwd: string): string {
  if (!url.startsWith('sqlite:')) return url;
  const rest = url.slice('sqlite:'.length);
  const q = rest.indexOf('?');
  const path = q === -1 ? rest : rest.slice(0, q);
  const query = q === -1 ? '' : rest.slice(q);
  if (path === '' || path === ':memory:' || isAbsolute(path)) return url;
  return `sqlite:${resolve(cwd, path)}${query}`;
}

/** Reads `POLICY_FILE` against the CLI's working directory. */
function policyReader(cwd: string, readFile: ReadFile): (path: string) => Promise<string> {
  return async (path) => {
    try {
      return Buffer.from(await readFile(resolve(cwd, path))).toString('utf8');
    } catch (error) {
      const why = isMissing(error) ? 'there is no such file' : String(error);
      throw new InputError(`POLICY_FILE ${path} cannot be read: ${why}.`);
    }
  };
}

export interface StoreContext {
  config: CliStoreConfig;
  store: Store;
  /** The policy when `LEADS` is set, to tell who may approve what; else null. */
  policy: Policy | null;
  close(): Promise<void>;
}

export interface FullContext {
  config: CliConfig;
  store: Store;
  client: VideoClientHandle;
  policy: Policy;
  ops: Operations;
  close(): Promise<void>;
}

interface OpenOptions {
  cwd: string;
  readFile: ReadFile;
  clock: () => Date;
}

/**
 * Opens the store for the audit and listing commands. A SQLite file that does not exist is an
 * error here: verifying or exporting a database just created empty would prove nothing.
 */
export async function openStoreContext(env: Env, options: OpenOptions): Promise<StoreContext> {
  const config = loadCliConfig(env, 'store');
  const url = resolveDatabaseUrl(config.databaseUrl, options.cwd);
  const location = parseStoreUrl(url);
  if (location.kind === 'sqlite' && location.path !== ':memory:') {
    const exists = await stat(location.path).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!exists) {
      throw new InputError(`There is no vidops database at ${location.path} (DATABASE_URL).`);
    }
  }
  const policy =
    config.leads === undefined
      ? null
      : await loadPolicy({ ...config, leads: config.leads }, policyReader(options.cwd, options.readFile));
  const { store } = await openAuditedStore(url, config.auditHmacKey);
  return { config, store, policy, close: () => store.close() };
}

/** Opens everything a change or read command needs (config from `loadCliConfig(env)`); closes what it opened when a later step fails. */
export async function openFullContext(config: CliConfig, options: OpenOptions): Promise<FullContext> {
  const policy = await loadPolicy(config, policyReader(options.cwd, options.readFile));
  const url = resolveDatabaseUrl(config.databaseUrl, options.cwd);
  const { store } = await openAuditedStore(url, config.auditHmacKey);
  const client = openVideoClient(config.video, store);
  const close = async () => {
    client.close();
    await store.close();
  };
  try {
    const ops = createOperations({
      store,
      client,
      policy,
      // Slack user groups are unknown here: leads approve from the CLI by their own user ID.
      directory: { groupsOf: async () => [] },
      clock: options.clock,
      fetchCover: createCoverFetcher(options.readFile),
    });
    // No sweeper runs in the CLI: expire what is due so the log records it even without the bot.
    await ops.expireDue();
    return { config, store, client, policy, ops, close };
  } catch (error) {
    await close();
    throw error;
  }
}
