import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { ConfigError } from './core/errors.js';

/**
 * Files vidops takes its settings, its rules, its key or its data from, read only when nobody it
 * does not trust could have written them: one rule for `.env`, `POLICY_FILE`, the signing key, the
 * key's remembered checkpoint and the SQLite database.
 * @see docs/security.md, "Files vidops trusts"
 */

/** Who besides this user and root may own such a file, and which permission bits it may not have. */
export interface TrustRule {
  /**
   * The owner of the file's folder may own it too: a deployment's files (its `.env`, its policy,
   * its database), which the other OS users who run the CLI there share.
   */
  folderOwner: boolean;
  /** Permission bits refused: `0o002` (anyone may write it), `0o022`, `0o077` (a key). */
  refusedBits: number;
}

/** Why a file is not trusted, as the end of a sentence that starts with its path. */
export type Distrust =
  | { kind: 'owner'; uid: number; folder: string | null }
  | { kind: 'mode'; mode: number; risk: 'read' | 'written' }
  | { kind: 'not-a-file' };

export type TrustedRead =
  | { kind: 'missing' }
  | { kind: 'refused'; why: Distrust }
  | { kind: 'read'; text: string };

/** The users who may own a file: this one, root, and the folder's owner where the rule says so. */
function trustedOwners(folderUid: number | null): Set<number> {
  const me = process.getuid?.();
  const owners = new Set<number>([0]);
  if (me !== undefined) owners.add(me);
  if (folderUid !== null) owners.add(folderUid);
  return owners;
}

/** What is wrong with a file's owner or mode under `rule`, or null when nothing is. */
export function distrustOf(
  file: { uid: number; mode: number },
  folder: { path: string; uid: number },
  rule: TrustRule,
): Distrust | null {
  const owners = trustedOwners(rule.folderOwner ? folder.uid : null);
  if (process.getuid !== undefined && !owners.has(file.uid)) {
    return { kind: 'owner', uid: file.uid, folder: rule.folderOwner ? folder.path : null };
  }
  if ((file.mode & rule.refusedBits) === 0) return null;
  // A rule that refuses read bits guards a secret: what matters is who may have read it.
  const risk = (rule.refusedBits & 0o044) !== 0 ? 'read' : 'written';
  return { kind: 'mode', mode: file.mode & 0o777, risk };
}

/** The end of a sentence that starts with the file's path, for a message or an error. */
export function distrustWords(why: Distrust): string {
  switch (why.kind) {
    case 'owner':
      return `belongs to another user (uid ${why.uid}), not to you, root${why.folder === null ? '' : ` or the owner of ${why.folder}`}`;
    case 'mode':
      return `may be ${why.risk} by other users (mode ${why.mode.toString(8)})`;
    case 'not-a-file':
      return 'is not a regular file';
  }
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * Reads `path` as UTF-8 if `rule` trusts it. A link is judged by who made it as well as by what it
 * points at. The file is opened without waiting on a FIFO, and judged by what was opened (its owner,
 * its mode, that it is a regular file), so it cannot be swapped between the check and the read.
 * Errors other than a missing file are thrown as they come.
 */
export async function readTrustedFile(path: string, rule: TrustRule): Promise<TrustedRead> {
  const folder = dirname(path);
  let folderUid: number;
  try {
    const link = await lstat(path);
    folderUid = (await lstat(folder)).uid;
    if (link.isSymbolicLink()) {
      const why = distrustOf({ uid: link.uid, mode: 0 }, { path: folder, uid: folderUid }, rule);
      if (why !== null) return { kind: 'refused', why };
    }
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) return { kind: 'refused', why: { kind: 'not-a-file' } };
    const why = distrustOf(stats, { path: folder, uid: folderUid }, rule);
    if (why !== null) return { kind: 'refused', why };
    return { kind: 'read', text: await file.readFile('utf8') };
  } finally {
    await file.close();
  }
}

/**
 * The environment with `.env` of the working directory underneath, for `npm start` and the CLI:
 * variables already set win. A missing `.env` is no problem. Its settings choose the service the API
 * keys are sent to and the database approvals are read from, so it is read only when this user,
 * root, or the owner of the folder it is in (a deployment's folder, whose `.env` the leads share)
 * owns it and nobody else may write it: a `.env` another user left in a folder anyone may write
 * (`/tmp`, a shared folder) is refused, as ssh and git refuse files of others.
 * @see docs/security.md, "Files vidops trusts"
 */
export async function loadEnv(
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<Record<string, string | undefined>> {
  const path = join(cwd, '.env');
  const read = await readTrustedFile(path, { folderOwner: true, refusedBits: 0o002 });
  if (read.kind === 'missing') return { ...env };
  if (read.kind === 'refused') {
    throw new ConfigError([
      `${path} ${distrustWords(read.why)}: vidops does not take its settings (the service its keys go to, the database it trusts) from a file another user wrote or may write. Run vidops from the deployment's folder, or remove that file.`,
    ]);
  }
  return { ...parseDotenv(read.text), ...env };
}
