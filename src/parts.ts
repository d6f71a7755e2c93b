import { createVideoClient, type VideoClientHandle, type VideoClientOptions } from './client/index.js';
import type { Config } from './config.js';
import { createHasher, type HashEvent } from './core/audit-chain.js';
import { ConfigError } from './core/errors.js';
import { buildPolicy, type Policy } from './core/policy.js';
import { storeMethodMemory, storeSupportMemory } from './services/method-memory.js';
import { type OpenStoreOptions, openStore, type Store } from './store/index.js';
import { distrustWords, readTrustedFile, type TrustedRead } from './trusted-file.js';

/**
 * The parts of vidops that the bot (src/app.ts) and the CLI (src/cli/context.ts) build alike: the
 * store with its audit chain's hash, the video client with what it learns kept in that store, and
 * the policy; and how the bot's parts start and stop.
 * @see docs/architecture.md, "Composition root"
 */

/** A part of a running vidops: started in the order listed, stopped in reverse. */
export interface Part {
  /** Sync or async; what it returns is awaited and dropped. */
  start(): unknown;
  stop(): Promise<void>;
}

/** A part with nothing to start that is closed at the end. */
export function closing(resource: { close(): void | Promise<void> }): Part {
  return { start: () => undefined, stop: async () => resource.close() };
}

/**
 * Starts and stops a list of parts, once. A part that fails to start stops the ones started
 * before it (in reverse) and its error is passed on, not one met while stopping them. `stop`
 * stops each started part once, the others still when one throws (the first error is passed on
 * at the end); asked while a start runs, it lets the part in hand finish, starts no more, then
 * stops what started. Stopped without a start, every part is stopped: what was opened is closed.
 * A stopped lifecycle does not start again.
 */
export class Lifecycle {
  readonly #parts: readonly Part[];
  #started: Part[] | null = null;
  #starting: Promise<void> | null = null;
  #stopping: Promise<void> | null = null;

  constructor(parts: readonly Part[]) {
    this.#parts = parts;
  }

  start(): Promise<void> {
    if (this.#stopping !== null)
      return Promise.reject(new Error('stopped: a stopped vidops does not start again'));
    this.#starting ??= this.#startParts();
    return this.#starting;
  }

  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      await this.#starting?.catch(() => undefined);
      await stopInReverse(this.#started ?? this.#parts);
    })();
    return this.#stopping;
  }

  async #startParts(): Promise<void> {
    const started: Part[] = [];
    this.#started = started;
    for (const part of this.#parts) {
      // A stop asked meanwhile: nothing more starts (the stop waits for this, then stops these).
      if (this.#stopping !== null) return;
      try {
        await part.start();
      } catch (error) {
        if (this.#stopping === null) {
          this.#stopping = stopInReverse(started);
          await this.#stopping.catch(() => undefined);
        }
        throw error;
      }
      started.push(part);
    }
  }
}

async function stopInReverse(parts: readonly Part[]): Promise<void> {
  const errors: unknown[] = [];
  for (const part of [...parts].reverse()) {
    try {
      await part.stop();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw errors[0];
}

/**
 * Opens (and migrates) the store at `url`, whose audit chain is hashed with `AUDIT_HMAC_KEY`
 * (SHA-256 when unset); the hash comes back too, for what checks the chain.
 */
export async function openAuditedStore(
  url: string,
  auditHmacKey: string | undefined,
  logger?: OpenStoreOptions['logger'],
): Promise<{ store: Store; hash: HashEvent }> {
  const hash = createHasher(auditHmacKey);
  return { store: await openStore(url, { hash, logger }), hash };
}

/** The video client of `VIDEO_API_*`, the op-10 method it learns and the extras it finds kept in `store`. */
export function openVideoClient(
  video: Config['video'],
  store: Store,
  options: Pick<VideoClientOptions, 'retryPolicy' | 'onCall'> = {},
): VideoClientHandle {
  return createVideoClient({
    baseUrl: video.url,
    apiKey: video.apiKey,
    secretKey: video.secretKey,
    timeoutMs: video.timeoutMs,
    retryConversionMethod: video.retryConversionMethod,
    methodMemory: storeMethodMemory(store),
    supportMemory: storeSupportMemory(store, video.url),
    ...options,
  });
}

/**
 * The policy of `LEADS`, `AGENTS` and `POLICY_FILE`, read with `read` (which says in its own
 * error why a file cannot be read). Rules nobody could satisfy are refused by the operations.
 */
/**
 * Reads `POLICY_FILE` for the bot and the CLI alike: it decides who approves what, so it is taken
 * only from someone trusted (this user, root, the owner of its folder) and only when nobody else
 * may write it. Anything else stops the start or the command, naming the file.
 * @see docs/security.md, "Files vidops trusts"
 */
export async function readPolicyFile(path: string): Promise<string> {
  let read: TrustedRead;
  try {
    read = await readTrustedFile(path, { folderOwner: true, refusedBits: 0o002 });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    throw new ConfigError([
      `POLICY_FILE ${path} cannot be read${typeof code === 'string' ? ` (${code})` : ''}`,
    ]);
  }
  if (read.kind === 'missing')
    throw new ConfigError([`POLICY_FILE ${path} cannot be read: there is no such file`]);
  if (read.kind === 'refused') {
    throw new ConfigError([
      `POLICY_FILE ${path} ${distrustWords(read.why)}: vidops takes who approves what only from a file nobody else may have written${read.why.kind === 'mode' ? ` (run \`chmod o-w ${path}\`)` : ''}`,
    ]);
  }
  return read.text;
}

export async function loadPolicy(
  config: { leads: readonly string[]; agents: readonly string[] | undefined; policyFile: string | undefined },
  read: (path: string) => Promise<string>,
): Promise<Policy> {
  const fileText = config.policyFile === undefined ? undefined : await read(config.policyFile);
  return buildPolicy({ leads: config.leads, agents: config.agents, fileText, fileName: config.policyFile });
}
