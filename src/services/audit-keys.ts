import { chmod, mkdir, open, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { checkpointOrigin } from '../core/checkpoint.js';
import { ConfigError, InputError } from '../core/errors.js';
import {
  formatSignerKey,
  formatVerifierKey,
  generateSignerKey,
  NoteFormatError,
  parseSignerKey,
  parseVerifierKey,
  type SignerKey,
  type VerifierKey,
  verifierKeyOf,
} from '../core/signed-note.js';
import { distrustWords, readTrustedFile, type TrustedRead } from '../trusted-file.js';

/**
 * The audit signing keys as files: reading the private key the bot and the CLI sign checkpoints
 * with (`AUDIT_SIGNING_KEY_FILE`), reading public key files, and writing a new pair
 * (`vidops audit keygen`). The formats are core/signed-note's; errors never hold key material.
 * @see docs/audit-checkpoints.md, "Keys"
 */

/** The file names `vidops audit keygen` writes in its directory. */
export const PRIVATE_KEY_FILE = 'audit-signing.key';
export const PUBLIC_KEY_FILE = 'audit-signing.pub';

/** The `code` of a Node system error, checked by shape (errors of another realm fail `instanceof`). */
function codeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return error instanceof Error ? error.name : 'unknown error';
}

export interface LoadedSigningKey {
  key: SignerKey;
}

/**
 * Reads `AUDIT_SIGNING_KEY_FILE` and checks that its key is this deployment's: named after the
 * origin `vidops/<AUDIT_LOG_NAME>`, in a file only its owner may read or write (a key others
 * may read is refused, not warned about: whoever read it can sign for the log). A ConfigError
 * names the variable and what is wrong, never the file's contents.
 */
export async function loadSigningKey(path: string, logName: string): Promise<LoadedSigningKey> {
  const origin = checkpointOrigin(logName);
  let read: TrustedRead;
  try {
    // Only this user or root may own it: whoever made it chose the key the log is signed with.
    read = await readTrustedFile(path, { folderOwner: false, refusedBits: 0o077 });
  } catch (error) {
    throw new ConfigError([`AUDIT_SIGNING_KEY_FILE ${path} cannot be read (${codeOf(error)})`]);
  }
  if (read.kind === 'missing')
    throw new ConfigError([`AUDIT_SIGNING_KEY_FILE ${path} cannot be read (ENOENT)`]);
  if (read.kind === 'refused') {
    const fix = read.why.kind === 'mode' ? `run \`chmod 600 ${path}\`; ` : '';
    throw new ConfigError([
      `AUDIT_SIGNING_KEY_FILE ${path} ${distrustWords(read.why)}: ${fix}nothing is signed with a key others may have read or made`,
    ]);
  }
  const text = read.text;
  let key: SignerKey;
  try {
    key = parseSignerKey(text);
  } catch (error) {
    if (!(error instanceof NoteFormatError)) throw error;
    throw new ConfigError([
      `AUDIT_SIGNING_KEY_FILE ${path} does not hold a vidops audit signing key: ${error.message.replace(/\.$/, '')}`,
    ]);
  }
  if (key.name !== origin) {
    throw new ConfigError([
      `AUDIT_SIGNING_KEY_FILE ${path} holds the key of ${key.name}, but this deployment's checkpoints are of ${origin} (AUDIT_LOG_NAME); make a key for it with \`vidops audit keygen\``,
    ]);
  }
  return { key };
}

/** Reads a public key file (`vidops audit keygen` writes one); an InputError names the file. */
export async function loadPublicKey(path: string): Promise<VerifierKey> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(`The public key file ${path} cannot be read (${codeOf(error)}).`);
  }
  try {
    return parseVerifierKey(text);
  } catch (error) {
    if (!(error instanceof NoteFormatError)) throw error;
    throw new InputError(`The public key file ${path} does not hold a public key: ${error.message}`);
  }
}

function existsError(path: string): InputError {
  return new InputError(
    `${path} exists already; a key is never overwritten. To rotate the key, make the new one in another directory (see docs/audit-checkpoints.md, "Keys").`,
  );
}

export interface WrittenKeyPair {
  key: VerifierKey;
  privatePath: string;
  publicPath: string;
}

/**
 * Makes a new key pair named after the origin of `logName` and writes it into `dir` (created if
 * needed, mode 700): the private key with mode 600, the public key beside it. An existing key file
 * is never overwritten: rotating the key is making the new one in another directory.
 */
export async function writeKeyPair(dir: string, logName: string): Promise<WrittenKeyPair> {
  const origin = checkpointOrigin(logName);
  const privatePath = resolve(join(dir, PRIVATE_KEY_FILE));
  const publicPath = resolve(join(dir, PUBLIC_KEY_FILE));
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new InputError(`The directory ${dir} cannot be made (${codeOf(error)}).`);
  }
  for (const path of [privatePath, publicPath]) {
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    if (exists) throw existsError(path);
  }
  const key = generateSignerKey(origin);
  const verifier = verifierKeyOf(key);
  // `wx`: the files are created here, never opened if they exist (an old key would be lost).
  for (const [path, text, mode] of [
    [privatePath, formatSignerKey(key), 0o600],
    [publicPath, formatVerifierKey(verifier), 0o644],
  ] as const) {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(path, 'wx', mode);
    } catch (error) {
      const code = codeOf(error);
      throw new InputError(
        code === 'EEXIST' ? existsError(path).message : `${path} cannot be written (${code}).`,
      );
    }
    try {
      await handle.writeFile(`${text}\n`, 'utf8');
      // The process umask may have taken bits off the mode given to open; the key file stays 600.
      await chmod(path, mode);
    } finally {
      await handle.close();
    }
  }
  return { key: verifier, privatePath, publicPath };
}
