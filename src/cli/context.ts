import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { VideoClientHandle } from '../client/index.js';
import { type CliConfig, type CliStoreConfig, loadCliConfig } from '../config.js';
import { InputError } from '../core/errors.js';
import type { Policy } from '../core/policy.js';
import { sealKeyOf } from '../core/seal.js';
import { loadPolicy, openAuditedStore, openVideoClient, readPolicyFile } from '../parts.js';
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
function policyReader(cwd: string): (path: string) => Promise<string> {
  return (path) => readPolicyFile(resolve(cwd, path));
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
      : await loadPolicy({ ...config, leads: config.leads }, policyReader(options.cwd));
  const { store } = await openAuditedStore(url, config.auditHmacKey);
  return { config, store, policy, close: () => store.close() };
}

/** Opens everything a change or read command needs (config from `loadCliConfig(env)`); closes what it opened when a later step fails. */
export async function openFullContext(config: CliConfig, options: OpenOptions): Promise<FullContext> {
  const policy = await loadPolicy(config, policyReader(options.cwd));
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
      // An end typed without a zone (`--for 1405/09/07T18:00`) is a wall clock of the team's zone.
      timeZone: config.timeZone,
      sealKey: sealKeyOf(config.video.secretKey),
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
