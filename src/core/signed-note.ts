import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { VidopsError } from './errors.js';

/**
 * Signed notes in the C2SP signed-note format, with Ed25519 keys: a text, a blank line, and one
 * signature line per key (`— <key name> <base64(key ID || signature)>`). The audit checkpoints
 * are such notes. Everything here is pure: parsing, formatting, signing and verifying take and
 * give text, and keys are made with `node:crypto` only.
 * @see docs/audit-checkpoints.md, "Signed notes" and "Keys"
 */

/** The signature type byte of Ed25519 in key IDs and key texts. */
export const ED25519_TYPE = 0x01;

/** More signature lines than this and a note is refused (the spec asks to accept at least 16). */
export const MAX_SIGNATURES = 100;

/** The start of a signature line: EM DASH (U+2014) and a space. */
export const SIGNATURE_PREFIX = '\u2014 ';

const PRIVATE_KEY_PREFIX = 'PRIVATE+KEY+';

/** DER prefixes that wrap a raw Ed25519 seed (PKCS #8) and public key (SPKI) for `node:crypto`. */
const PKCS8_SEED_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PUBLIC_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A note or key text that is not of its format. Never holds private key material. */
export class NoteFormatError extends VidopsError {}

/** A signature line as read: who claims to have signed, and the signature bytes. */
export interface NoteSignature {
  /** The key name. */
  name: string;
  /** The key ID, 8 lowercase hex digits. */
  keyId: string;
  /** The signature proper (after the 4 key ID bytes). */
  signature: Buffer;
}

/** A parsed note: the signed text (with its final newline) and its signature lines in order. */
export interface Note {
  text: string;
  signatures: readonly NoteSignature[];
}

/** A key that checks signatures. */
export interface VerifierKey {
  name: string;
  /** 8 lowercase hex digits. */
  keyId: string;
  /** The 32-byte Ed25519 public key. */
  publicKey: Buffer;
  key: KeyObject;
}

/** A key that signs. Its private part stays in the `KeyObject` (not printed by `inspect`). */
export interface SignerKey {
  name: string;
  keyId: string;
  publicKey: Buffer;
  privateKey: KeyObject;
}

// ---------------------------------------------------------------------------------------------
// Text checks

/** A lone UTF-16 surrogate: a string that has one cannot be written as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * Control characters other than newline. The spec forbids those below U+0020; DEL and the C1
 * controls (U+007F–U+009F) are refused too, since nothing vidops signs holds them and a terminal
 * may act on them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;
/** Unicode spaces (`\s` with NEL), which key names may not hold. */
const SPACE = /[\s\u0085]/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const KEY_ID = /^[0-9a-fA-F]{8}$/;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `input`, refused when the bytes are not UTF-8 or the string has lone surrogates. */
function textOf(input: string | Uint8Array, what: string): string {
  if (typeof input === 'string') {
    if (LONE_SURROGATE.test(input)) throw new NoteFormatError(`${what} is not valid UTF-8 text.`);
    return input;
  }
  try {
    return UTF8.decode(input);
  } catch {
    throw new NoteFormatError(`${what} is not valid UTF-8 text.`);
  }
}

/** Line number (1-based) of the character at `index`. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function refuseControls(text: string, what: string): void {
  const match = CONTROL.exec(text);
  if (match !== null) {
    const code = (match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    throw new NoteFormatError(
      `${what} has a control character (U+${code}) on line ${lineAt(text, match.index)}.`,
    );
  }
}

/** Whether `text` holds a control character other than newline (refused in notes). */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** Whether `name` may name a key: non-empty, no Unicode space, no `+`, no control character. */
export function isValidKeyName(name: string): boolean {
  return (
    name !== '' &&
    !SPACE.test(name) &&
    !name.includes('+') &&
    !CONTROL.test(name) &&
    !LONE_SURROGATE.test(name)
  );
}

/** Strict standard base64 (padded, canonical): the decoded bytes, or null. */
function decodeBase64(text: string): Buffer | null {
  if (!BASE64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

// ---------------------------------------------------------------------------------------------
// Notes

/**
 * Reads a note, strictly: valid UTF-8, no control character but newline, a text ending in a
 * newline, a blank line (the last one in the note), then 1 to 100 signature lines each ending in
 * a newline. The text may hold empty lines of its own, as the format allows. Signatures are not
 * checked here (see `verifyNote`).
 */
export function parseNote(input: string | Uint8Array): Note {
  const note = textOf(input, 'The note');
  refuseControls(note, 'The note');
  if (!note.endsWith('\n')) throw new NoteFormatError('The note does not end with a newline.');
  const split = note.lastIndexOf('\n\n');
  if (split === -1) {
    throw new NoteFormatError('The note has no blank line between its text and its signatures.');
  }
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block === '') throw new NoteFormatError('The note has no signature line after its blank line.');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) {
    throw new NoteFormatError(
      `The note has ${lines.length} signature lines; at most ${MAX_SIGNATURES} are read.`,
    );
  }
  const firstSignatureLine = lineAt(note, split + 2);
  const signatures = lines.map((line, i) => parseSignatureLine(line, firstSignatureLine + i));
  return { text, signatures };
}

function parseSignatureLine(line: string, lineNumber: number): NoteSignature {
  const bad = (why: string) => new NoteFormatError(`Signature line ${lineNumber} ${why}.`);
  if (!line.startsWith(SIGNATURE_PREFIX)) throw bad('does not start with "— " (em dash, space)');
  const rest = line.slice(SIGNATURE_PREFIX.length);
  const space = rest.indexOf(' ');
  if (space === -1) throw bad('has no space between the key name and the signature');
  const name = rest.slice(0, space);
  if (!isValidKeyName(name)) throw bad('has an empty key name or one with a space or "+"');
  const bytes = decodeBase64(rest.slice(space + 1));
  if (bytes === null) throw bad('has a signature that is not standard base64');
  if (bytes.length < 5) throw bad('has a signature too short to hold a key ID and a signature');
  return { name, keyId: bytes.subarray(0, 4).toString('hex'), signature: Buffer.from(bytes.subarray(4)) };
}

/** Checks that `text` can be a note's signed text: UTF-8, printable lines, a final newline. */
function checkText(text: string): void {
  textOf(text, 'The note text');
  refuseControls(text, 'The note text');
  if (text === '' || !text.endsWith('\n')) {
    throw new NoteFormatError('The note text must be one or more lines, each ending in a newline.');
  }
}

/** Writes a note: its text, a blank line, a signature line per signature. */
export function formatNote(note: Note): string {
  checkText(note.text);
  if (note.signatures.length === 0 || note.signatures.length > MAX_SIGNATURES) {
    throw new NoteFormatError(`A note has 1 to ${MAX_SIGNATURES} signatures.`);
  }
  let out = `${note.text}\n`;
  for (const s of note.signatures) {
    if (!isValidKeyName(s.name)) throw new NoteFormatError('A signature has an invalid key name.');
    if (!/^[0-9a-f]{8}$/.test(s.keyId) || s.signature.length === 0) {
      throw new NoteFormatError(`The signature by ${s.name} has no valid key ID or no signature.`);
    }
    const raw = Buffer.concat([Buffer.from(s.keyId, 'hex'), s.signature]);
    out += `${SIGNATURE_PREFIX}${s.name} ${raw.toString('base64')}\n`;
  }
  return out;
}

/** Signs `text` (which must end with a newline) with each signer: the whole note, as text. */
export function signNote(text: string, signers: readonly SignerKey[]): string {
  checkText(text);
  const body = Buffer.from(text, 'utf8');
  const signatures = signers.map((signer) => ({
    name: signer.name,
    keyId: signer.keyId,
    signature: sign(null, body, signer.privateKey),
  }));
  return formatNote({ text, signatures });
}

/** Who signed a note, as `<name>+<key ID>`. */
export function keyLabel(key: { name: string; keyId: string }): string {
  return `${key.name}+${key.keyId}`;
}

export type NoteVerification =
  | {
      ok: true;
      text: string;
      /** The known keys whose signatures hold. */
      verifiedBy: readonly VerifierKey[];
    }
  | {
      ok: false;
      /** No signature is by a known key. */
      problem: 'unknown-keys';
      /** The keys the note claims to be signed by, none of them known. */
      signedBy: readonly string[];
    }
  /** A signature by a known key does not hold. */
  | { ok: false; problem: 'bad-signature'; key: VerifierKey };

/**
 * Checks a note's signatures against the known keys. A key is known when both its name and its
 * key ID are those of a signature line; signatures by other keys are ignored. The note holds when
 * at least one known key signed it and every signature by a known key holds: a known key's
 * signature that does not hold fails the whole note.
 */
export function verifyNote(note: Note, keys: readonly VerifierKey[]): NoteVerification {
  const body = Buffer.from(note.text, 'utf8');
  const verifiedBy: VerifierKey[] = [];
  for (const s of note.signatures) {
    const matching = keys.filter((k) => k.name === s.name && k.keyId === s.keyId);
    if (matching.length === 0) continue;
    const holdsBy = matching.find((k) => verify(null, body, k.key, s.signature));
    if (holdsBy === undefined)
      return { ok: false, problem: 'bad-signature', key: matching[0] as VerifierKey };
    if (!verifiedBy.includes(holdsBy)) verifiedBy.push(holdsBy);
  }
  if (verifiedBy.length === 0) {
    return { ok: false, problem: 'unknown-keys', signedBy: note.signatures.map(keyLabel) };
  }
  return { ok: true, text: note.text, verifiedBy };
}

// ---------------------------------------------------------------------------------------------
// Keys

/** The key ID: the first 4 bytes of SHA-256(name || 0x0A || 0x01 || public key), as hex. */
export function keyIdOf(name: string, publicKey: Uint8Array): string {
  if (publicKey.length !== 32) throw new NoteFormatError('An Ed25519 public key is 32 bytes.');
  return createHash('sha256')
    .update(name, 'utf8')
    .update(Buffer.from([0x0a, ED25519_TYPE]))
    .update(publicKey)
    .digest()
    .subarray(0, 4)
    .toString('hex');
}

function checkName(name: string): void {
  if (!isValidKeyName(name)) {
    throw new NoteFormatError(
      `A key name must be non-empty, without spaces, "+" or control characters (not ${JSON.stringify(name)}).`,
    );
  }
}

function rawPublicKey(key: KeyObject): Buffer {
  const der = key.export({ format: 'der', type: 'spki' });
  return Buffer.from(der.subarray(der.length - 32));
}

/** A verifier key from its name and 32-byte Ed25519 public key. */
export function verifierKeyFromRaw(name: string, publicKey: Uint8Array): VerifierKey {
  checkName(name);
  const raw = Buffer.from(publicKey);
  const keyId = keyIdOf(name, raw);
  const key = createPublicKey({ key: Buffer.concat([SPKI_PUBLIC_PREFIX, raw]), format: 'der', type: 'spki' });
  return { name, keyId, publicKey: raw, key };
}

/** A signer key from its name and 32-byte Ed25519 seed (the RFC 8032 private key). */
export function signerKeyFromSeed(name: string, seed: Uint8Array): SignerKey {
  checkName(name);
  if (seed.length !== 32) throw new NoteFormatError('An Ed25519 private key (seed) is 32 bytes.');
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_SEED_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = rawPublicKey(createPublicKey(privateKey));
  return { name, keyId: keyIdOf(name, publicKey), publicKey, privateKey };
}

/** A new random signer key named `name`. */
export function generateSignerKey(name: string): SignerKey {
  checkName(name);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = rawPublicKey(publicKey);
  return { name, keyId: keyIdOf(name, raw), publicKey: raw, privateKey };
}

/** The verifier key of a signer key. */
export function verifierKeyOf(signer: SignerKey): VerifierKey {
  return verifierKeyFromRaw(signer.name, signer.publicKey);
}

/** `<name>+<key ID>+<base64(0x01 || public key)>`: the text of a public key file. */
export function formatVerifierKey(key: VerifierKey): string {
  const encoded = Buffer.concat([Buffer.from([ED25519_TYPE]), key.publicKey]).toString('base64');
  return `${key.name}+${key.keyId}+${encoded}`;
}

/** `PRIVATE+KEY+<name>+<key ID>+<base64(0x01 || seed)>`: the text of a private key file. */
export function formatSignerKey(key: SignerKey): string {
  const jwk = key.privateKey.export({ format: 'jwk' });
  if (jwk.d === undefined) throw new NoteFormatError('The signer key has no private part.');
  const seed = Buffer.from(jwk.d, 'base64url');
  const encoded = Buffer.concat([Buffer.from([ED25519_TYPE]), seed]).toString('base64');
  return `${PRIVATE_KEY_PREFIX}${key.name}+${key.keyId}+${encoded}`;
}

/** `name`, key ID and the type-prefixed key bytes of `<name>+<id>+<base64>` (the base64 may hold `+`). */
function splitKeyText(text: string, what: string): { name: string; keyId: string; bytes: Buffer } {
  const first = text.indexOf('+');
  const second = first === -1 ? -1 : text.indexOf('+', first + 1);
  if (second === -1) throw new NoteFormatError(`${what} is not of the form <name>+<key ID>+<key>.`);
  const name = text.slice(0, first);
  const keyId = text.slice(first + 1, second);
  checkName(name);
  if (!KEY_ID.test(keyId)) throw new NoteFormatError(`${what} has a key ID that is not 8 hex digits.`);
  const bytes = decodeBase64(text.slice(second + 1));
  if (bytes === null) throw new NoteFormatError(`${what} has a key that is not standard base64.`);
  if (bytes[0] !== ED25519_TYPE || bytes.length !== 33) {
    throw new NoteFormatError(`${what} is not an Ed25519 key (type 0x01 and 32 bytes).`);
  }
  return { name, keyId: keyId.toLowerCase(), bytes: Buffer.from(bytes.subarray(1)) };
}

/** Reads a public key text (surrounding whitespace, such as a file's final newline, ignored). */
export function parseVerifierKey(text: string): VerifierKey {
  const { name, keyId, bytes } = splitKeyText(text.trim(), 'The public key');
  const key = verifierKeyFromRaw(name, bytes);
  if (key.keyId !== keyId) {
    throw new NoteFormatError(`The public key's ID ${keyId} is not that of its name and key (${key.keyId}).`);
  }
  return key;
}

/** Reads a private key text. Its errors never repeat the text. */
export function parseSignerKey(text: string): SignerKey {
  const trimmed = text.trim();
  if (!trimmed.startsWith(PRIVATE_KEY_PREFIX)) {
    throw new NoteFormatError('The private key does not start with PRIVATE+KEY+.');
  }
  const { name, keyId, bytes } = splitKeyText(trimmed.slice(PRIVATE_KEY_PREFIX.length), 'The private key');
  const key = signerKeyFromSeed(name, bytes);
  bytes.fill(0);
  if (key.keyId !== keyId) {
    throw new NoteFormatError(`The private key's ID ${keyId} is not that of its name and key.`);
  }
  return key;
}
