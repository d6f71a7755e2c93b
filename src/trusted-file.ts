import { constants } from 'node:fs';
import { lstat, open, readlink, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { FIELDS } from './config.js';
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
   * its database), which the other OS users who run the CLI there share. Only a folder nobody
   * else could have made or put in its place counts (see {@link folderTrusted}).
   */
  folderOwner: boolean;
  /** Permission bits refused: `0o002` (anyone may write it), `0o022`, `0o077` (a key). */
  refusedBits: number;
}

/** Why a file is not trusted, as the end of a sentence that starts with its path. */
export type Distrust =
  | { kind: 'owner'; uid: number; folder: string | null }
  | { kind: 'mode'; mode: number; risk: 'read' | 'written' }
  | { kind: 'link'; uid: number; link: string }
  | { kind: 'not-a-file' }
  | { kind: 'too-large'; bytes: number };

export type TrustedRead =
  | { kind: 'missing' }
  | { kind: 'refused'; why: Distrust }
  | { kind: 'read'; text: string };

/** Settings, rules and keys are small: anything larger is a mistake, refused before it is read. */
const MAX_BYTES = 1024 * 1024;
/** Links followed on one path at most, as the kernel's own bound. */
const MAX_LINKS = 40;

/** This user and root, who may own anything vidops reads. */
export function ownUid(uid: number): boolean {
  return uid === 0 || uid === process.getuid?.();
}

export const othersMayWrite = (mode: number) => (mode & 0o002) !== 0;
export const sticky = (mode: number) => (mode & 0o1000) !== 0;

/** What is wrong with a file's owner or mode under `rule`, or null when nothing is. */
export function distrustOf(
  file: { uid: number; mode: number },
  folder: { path: string; uid: number; trusted: boolean },
  rule: TrustRule,
): Distrust | null {
  const byFolder = rule.folderOwner && folder.trusted && file.uid === folder.uid;
  if (process.getuid !== undefined && !ownUid(file.uid) && !byFolder) {
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
    case 'link':
      return `is reached through ${why.link}, a link another user (uid ${why.uid}) made`;
    case 'not-a-file':
      return 'is not a regular file';
    case 'too-large':
      return `is ${why.bytes} bytes, more than a file of settings or a key holds`;
  }
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * True when nobody but trusted people could have made `folder` or put another in its place: every
 * folder above it that others may write is sticky, and what sits in it on the way down was made by
 * this user or root. A folder in `/tmp` another user made is not trusted; `/srv/vidops/data` made
 * by the bot's user under root's folders is. `folder` must hold no links (a resolved path).
 */
export async function folderTrusted(folder: string): Promise<boolean> {
  let child = folder;
  while (child !== dirname(child)) {
    const parent = dirname(child);
    const { mode } = await stat(parent);
    if (othersMayWrite(mode) && (!sticky(mode) || !ownUid((await lstat(child)).uid))) return false;
    child = parent;
  }
  return true;
}

/**
 * `path` made absolute with every link on it followed, each judged by who made it: this user,
 * root, or the owner of the folder it is in when nobody else may write there. Refused when another
 * made one; missing when a part of it is not there.
 */
export async function resolveTrusted(
  path: string,
): Promise<{ kind: 'real'; path: string } | { kind: 'missing' } | { kind: 'refused'; why: Distrust }> {
  const todo = resolve(path).split(sep).filter(Boolean);
  let real: string = sep;
  let links = 0;
  while (todo.length > 0) {
    const next = join(real, todo.shift() as string);
    let found: Awaited<ReturnType<typeof lstat>>;
    try {
      found = await lstat(next);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return { kind: 'missing' };
      throw error;
    }
    if (!found.isSymbolicLink()) {
      real = next;
      continue;
    }
    const holder = await stat(real);
    const maker = ownUid(found.uid) || (found.uid === holder.uid && !othersMayWrite(holder.mode));
    if (!maker) return { kind: 'refused', why: { kind: 'link', uid: found.uid, link: next } };
    links += 1;
    if (links > MAX_LINKS) throw Object.assign(new Error(`too many links on ${path}`), { code: 'ELOOP' });
    const target = await readlink(next);
    todo.unshift(...target.split(sep).filter(Boolean));
    if (isAbsolute(target)) real = sep;
  }
  return { kind: 'real', path: real };
}

/**
 * Reads `path` as UTF-8 if `rule` trusts it. Every link on the way is judged by who made it
 * ({@link resolveTrusted}); the file itself is opened without following a link put there since
 * and without waiting on a FIFO, and judged by what was opened (a regular file, not too large, its
 * owner, its mode), so it cannot be swapped between the check and the read. Errors other than a
 * missing file are thrown as they come.
 */
export async function readTrustedFile(path: string, rule: TrustRule, attempt = 0): Promise<TrustedRead> {
  const resolved = await resolveTrusted(path);
  if (resolved.kind !== 'real') return resolved;
  const folder = dirname(resolved.path);
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(resolved.path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { kind: 'missing' };
    // A link put where the file was, since it was looked at: judged as any link is, next time.
    if (codeOf(error) === 'ELOOP' && attempt < 3) return readTrustedFile(path, rule, attempt + 1);
    throw error;
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) return { kind: 'refused', why: { kind: 'not-a-file' } };
    const holder = { path: folder, uid: (await stat(folder)).uid, trusted: await folderTrusted(folder) };
    const why = distrustOf(stats, holder, rule);
    if (why !== null) return { kind: 'refused', why };
    if (stats.size > MAX_BYTES) return { kind: 'refused', why: { kind: 'too-large', bytes: stats.size } };
    return { kind: 'read', text: await file.readFile('utf8') };
  } finally {
    await file.close();
  }
}

/**
 * The environment with `.env` of the working directory underneath, for `npm start` and the CLI:
 * variables already set (not blank) win. A missing `.env` is no problem. Its settings choose the service the
 * API keys are sent to and the database approvals are read from, so it is read only when this
 * user, root, or the owner of the folder it is in (a deployment's folder, whose `.env` the leads
 * share) owns it and nobody else may write it: a `.env` another user left in a folder anyone may
 * write (`/tmp`, a shared folder) is refused, as ssh and git refuse files of others.
 * @see docs/security.md, "Files vidops trusts"
 */
export async function loadEnv(
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<Record<string, string | undefined>> {
  const path = join(cwd, '.env');
  const read = await readTrustedFile(path, { folderOwner: true, refusedBits: 0o002 });
  if (read.kind === 'missing') return variablesFromFiles({ ...env });
  if (read.kind === 'refused') {
    const fix =
      read.why.kind === 'mode'
        ? `run \`chmod o-w ${path}\``
        : "run vidops from the deployment's folder, or remove that file";
    throw new ConfigError([
      `${path} ${distrustWords(read.why)}: vidops does not take its settings (the service its keys go to, the database it trusts) from a file another user wrote or may write; ${fix}.`,
    ]);
  }
  // A variable set but blank (what docker compose passes for an unset host variable) is unset, as
  // everywhere in the configuration: it does not hide the value `.env` gives.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value?.trim() !== ''));
  return variablesFromFiles({ ...parseDotenv(read.text), ...set });
}

/**
 * `<NAME>_FILE` for any variable of the configuration: its value read from that file (Docker and
 * compose secrets), trailing newlines dropped, under the rule `.env` has. Both set, a missing or
 * untrusted file: refused, naming the variable, never repeating the file's contents.
 * @see docs/operations.md, "Run it with the image and compose"
 */
async function variablesFromFiles(
  env: Record<string, string | undefined>,
): Promise<Record<string, string | undefined>> {
  const problems: string[] = [];
  for (const name of Object.keys(FIELDS)) {
    const path = env[`${name}_FILE`]?.trim();
    if (!path) continue;
    if (env[name]?.trim()) {
      problems.push(`${name} and ${name}_FILE are both set; keep one`);
      continue;
    }
    const read = await readTrustedFile(path, { folderOwner: true, refusedBits: 0o002 }).catch(
      (error: unknown) => ({ kind: 'failed' as const, code: codeOf(error) }),
    );
    if (read.kind === 'read') env[name] = read.text.replace(/[\r\n]+$/, '');
    else problems.push(`${name}_FILE: ${path} ${fileTrouble(read)}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return env;
}

function fileTrouble(
  read: Exclude<TrustedRead, { kind: 'read' }> | { kind: 'failed'; code: string | undefined },
): string {
  if (read.kind === 'missing') return 'does not exist';
  if (read.kind === 'failed') return `cannot be read (${read.code ?? 'error'})`;
  return distrustWords(read.why);
}
