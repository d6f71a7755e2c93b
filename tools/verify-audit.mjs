#!/usr/bin/env node
/**
 * verify-audit: checks an exported vidops audit log against its signed checkpoints, on its own.
 *
 * This file is the second, independent verifier for compliance: one plain JavaScript file that
 * uses only `node:crypto`, `node:fs` and `node:readline` (Node 20 or later), imports nothing from
 * vidops and needs no package, so it can be read in one sitting and run on any machine.
 *
 *   node tools/verify-audit.mjs --events events.jsonl --checkpoints checkpoints.txt \
 *     --pubkey audit-signing.pub [--pubkey old.pub] [--hmac-key-file F] [--origin vidops/NAME]
 *
 * --events         The JSONL export (`vidops audit export --format jsonl`, the whole log, no
 *                  --since/--until): one audit event per line, as canonical JSON, with `seq`,
 *                  `prevHash` and `hash`, oldest first, starting at event #1.
 * --checkpoints    The checkpoints file: signed checkpoint notes one after the other, each
 *                  followed by one empty line (the empty line after the last one may be missing).
 *                  A note is its text lines, an empty line, its signature lines
 *                  (`— <key name> <base64(key ID || Ed25519 signature)>`).
 * --pubkey         A public key file: `<name>+<key ID>+<base64(0x01 || public key)>`. Repeat it to
 *                  list several keys (after a key rotation, old checkpoints keep their old key).
 * --hmac-key-file  A file holding AUDIT_HMAC_KEY when the deployment sets one (surrounding
 *                  whitespace is ignored, as vidops ignores it); without it hashes are SHA-256.
 * --origin         The log's origin line; by default each checkpoint's origin must be the name of
 *                  the key that signed it (vidops names its key after the origin, vidops/<name>).
 *
 * It checks, in this order: every checkpoint note (its format, a signature by a listed key that
 * holds, a signature by a listed key that does not hold is a failure, its origin); then, reading
 * the events once: each event's hash recomputed from its content (SHA-256 or HMAC-SHA256 of the
 * canonical JSON of every field but `hash`), each `prevHash` equal to the previous event's hash
 * (64 zeros for event #1), `seq` without gaps; each checkpoint's head equal to the hash of the
 * event at its size; and no checkpoint covering more events than the export holds.
 *
 * Exit status: 0 when everything holds; 1 with the first problem named; 2 for a usage error
 * (a missing or unreadable file, a malformed key file).
 *
 * See docs/audit-checkpoints.md for the formats and what each check proves.
 */
import { createHash, createHmac, createPublicKey, verify } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';

const GENESIS_HASH = '0'.repeat(64);
const MAX_SIGNATURES = 100;
const SIGNATURE_PREFIX = '\u2014 ';
const SPKI_PUBLIC_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;
const SPACE = /[\s\u0085]/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const HEX_HASH = /^[0-9a-f]{64}$/;

const USAGE = `usage: node tools/verify-audit.mjs --events events.jsonl --checkpoints checkpoints.txt
         --pubkey audit-signing.pub [--pubkey old.pub] [--hmac-key-file F] [--origin vidops/NAME]`;

/** A usage error (exit 2). */
class UsageError extends Error {}
/** A problem with the log or its checkpoints (exit 1). */
class Problem extends Error {}

// ---------------------------------------------------------------------------------------------
// Arguments and files

function parseArgs(argv) {
  const args = { events: null, checkpoints: null, pubkeys: [], hmacKeyFile: null, origin: null, help: false };
  const single = {
    '--events': 'events',
    '--checkpoints': 'checkpoints',
    '--hmac-key-file': 'hmacKeyFile',
    '--origin': 'origin',
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      args.help = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    if (flag !== '--pubkey' && !(flag in single))
      throw new UsageError(`unknown argument ${JSON.stringify(arg)}`);
    let value;
    if (eq !== -1 && flag !== arg) value = arg.slice(eq + 1);
    else {
      i += 1;
      value = argv[i];
    }
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
    if (flag === '--pubkey') args.pubkeys.push(value);
    else if (args[single[flag]] !== null) throw new UsageError(`${flag} is given twice`);
    else args[single[flag]] = value;
  }
  if (args.help) return args;
  if (args.events === null) throw new UsageError('--events is required');
  if (args.checkpoints === null) throw new UsageError('--checkpoints is required');
  if (args.pubkeys.length === 0) throw new UsageError('at least one --pubkey is required');
  return args;
}

function readBytes(path, flag) {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read the ${flag} file ${path}: ${error.code ?? error.message}`);
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function utf8(bytes, what) {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new Problem(`${what} is not valid UTF-8 text`);
  }
}

function decodeBase64(text) {
  if (!BASE64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

function isValidKeyName(name) {
  return name !== '' && !SPACE.test(name) && !name.includes('+') && !CONTROL.test(name);
}

function keyIdOf(name, publicKey) {
  return createHash('sha256')
    .update(name, 'utf8')
    .update(Buffer.from([0x0a, 0x01]))
    .update(publicKey)
    .digest()
    .subarray(0, 4)
    .toString('hex');
}

/** A public key text `<name>+<key ID>+<base64(0x01 || key)>`: { name, keyId, key }. */
function parseVerifierKey(text, path) {
  const bad = (why) => new UsageError(`the --pubkey file ${path} ${why}`);
  const trimmed = text.trim();
  const first = trimmed.indexOf('+');
  const second = first === -1 ? -1 : trimmed.indexOf('+', first + 1);
  if (second === -1) throw bad('is not of the form <name>+<key ID>+<key>');
  const name = trimmed.slice(0, first);
  const keyId = trimmed.slice(first + 1, second).toLowerCase();
  if (!isValidKeyName(name)) throw bad('has a key name with a space, "+" or a control character');
  if (!/^[0-9a-f]{8}$/.test(keyId)) throw bad('has a key ID that is not 8 hex digits');
  const bytes = decodeBase64(trimmed.slice(second + 1));
  if (bytes === null || bytes.length !== 33 || bytes[0] !== 0x01) throw bad('does not hold an Ed25519 key');
  const raw = bytes.subarray(1);
  if (keyIdOf(name, raw) !== keyId)
    throw bad(`has the key ID ${keyId}, which is not that of its name and key`);
  const key = createPublicKey({ key: Buffer.concat([SPKI_PUBLIC_PREFIX, raw]), format: 'der', type: 'spki' });
  return { name, keyId, key };
}

// ---------------------------------------------------------------------------------------------
// Signed notes and checkpoints

/** Splits the checkpoints file into note texts. */
function splitCheckpointFile(file) {
  if (file === '') return [];
  if (!file.endsWith('\n')) throw new Problem('the checkpoints file does not end with a newline');
  const lines = file.slice(0, -1).split('\n');
  const notes = [];
  let body = [];
  let signatures = null;
  for (const [i, line] of lines.entries()) {
    const where = `line ${i + 1} of the checkpoints file`;
    if (signatures === null) {
      if (line !== '') body.push(line);
      else if (body.length === 0) throw new Problem(`${where} is empty where a note should start`);
      else signatures = [];
    } else if (line.startsWith(SIGNATURE_PREFIX)) {
      signatures.push(line);
    } else if (line === '' && signatures.length > 0) {
      notes.push(`${body.join('\n')}\n\n${signatures.join('\n')}\n`);
      body = [];
      signatures = null;
    } else {
      throw new Problem(
        `${where} is ${line === '' ? 'empty where a signature line should be' : 'neither a signature line nor the empty line after a note'}`,
      );
    }
  }
  if (signatures !== null && signatures.length > 0)
    notes.push(`${body.join('\n')}\n\n${signatures.join('\n')}\n`);
  else if (body.length > 0 || signatures !== null) {
    throw new Problem('the checkpoints file ends inside a note, before its signatures');
  }
  return notes;
}

/** A note's text and signatures, or a Problem-worthy message (thrown as Error). */
function parseNote(note) {
  if (CONTROL.test(note)) throw new Error('the note has a control character');
  if (!note.endsWith('\n')) throw new Error('the note does not end with a newline');
  const split = note.lastIndexOf('\n\n');
  if (split === -1) throw new Error('the note has no blank line between its text and its signatures');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block === '') throw new Error('the note has no signature line');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES)
    throw new Error(`the note has more than ${MAX_SIGNATURES} signature lines`);
  const signatures = lines.map((line) => {
    if (!line.startsWith(SIGNATURE_PREFIX)) throw new Error('a signature line does not start with "— "');
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = space === -1 ? '' : rest.slice(0, space);
    if (!isValidKeyName(name)) throw new Error('a signature line has no valid key name');
    const bytes = decodeBase64(rest.slice(space + 1));
    if (bytes === null || bytes.length < 5) throw new Error('a signature line has no valid base64 signature');
    return { name, keyId: bytes.subarray(0, 4).toString('hex'), signature: bytes.subarray(4) };
  });
  return { text, signatures };
}

/** The checkpoint of a note text: { origin, size, head (hex), time }, or throws Error. */
function parseCheckpoint(text) {
  if (!text.endsWith('\n')) throw new Error('the checkpoint does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.includes('')) throw new Error('the checkpoint has an empty line');
  if (lines.length < 3) throw new Error('the checkpoint has fewer than three lines');
  const [origin, sizeText, headText, ...rest] = lines;
  if (!/^(?:0|[1-9][0-9]*)$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) {
    throw new Error('line 2 of the checkpoint is not a size in decimal without leading zeros');
  }
  const head = decodeBase64(headText);
  if (head === null || head.length !== 32)
    throw new Error('line 3 of the checkpoint is not a 32-byte hash in base64');
  let time = null;
  rest.forEach((line, i) => {
    if (!line.startsWith('time ')) return;
    const value = line.slice('time '.length);
    if (i !== 0) throw new Error('the time line is line 4, and there is one');
    if (!ISO_UTC.test(value) || Number.isNaN(Date.parse(value)))
      throw new Error('line 4 has a time that is not ISO-8601 UTC');
    time = value;
  });
  const size = Number(sizeText);
  if (size === 0 && head.toString('hex') !== GENESIS_HASH)
    throw new Error('the checkpoint of an empty log has a head other than 64 zeros');
  return { origin, size, head: head.toString('hex'), time };
}

function checkpointName(time, position) {
  return time === null ? `checkpoint #${position}` : `checkpoint of ${time}`;
}

function claimedTime(note) {
  try {
    const split = note.lastIndexOf('\n\n');
    return split === -1 ? null : parseCheckpoint(note.slice(0, split + 1)).time;
  } catch {
    return null;
  }
}

/** Checks one note: its checkpoint with the keys that signed it, or throws a Problem. */
function openCheckpoint(note, position, keys, origin) {
  let parsed;
  try {
    parsed = parseNote(note);
  } catch (error) {
    throw new Problem(
      `${checkpointName(claimedTime(note), position)} is not a signed note: ${error.message}`,
    );
  }
  const body = Buffer.from(parsed.text, 'utf8');
  const signedBy = [];
  for (const s of parsed.signatures) {
    const matching = keys.filter((k) => k.name === s.name && k.keyId === s.keyId);
    if (matching.length === 0) continue;
    const holds = matching.find((k) => verify(null, body, k.key, s.signature));
    if (holds === undefined) {
      throw new Problem(
        `${checkpointName(claimedTime(note), position)} was signed by key ${s.name}+${s.keyId} but the signature does not hold`,
      );
    }
    if (!signedBy.includes(holds)) signedBy.push(holds);
  }
  if (signedBy.length === 0) {
    const named = parsed.signatures.map((s) => `${s.name}+${s.keyId}`).join(', ');
    throw new Problem(
      `${checkpointName(claimedTime(note), position)} is not signed by any known key (it names ${named})`,
    );
  }
  let checkpoint;
  try {
    checkpoint = parseCheckpoint(parsed.text);
  } catch (error) {
    throw new Problem(`${checkpointName(null, position)} is not a checkpoint: ${error.message}`);
  }
  const name = checkpointName(checkpoint.time, position);
  const expected = origin ?? signedBy[0].name;
  if (checkpoint.origin !== expected) {
    throw new Problem(
      `${name} is of the log ${JSON.stringify(checkpoint.origin)}, not ${JSON.stringify(expected)}`,
    );
  }
  return { ...checkpoint, name, signedBy: signedBy.map((k) => `${k.name}+${k.keyId}`) };
}

// ---------------------------------------------------------------------------------------------
// The chain

/** Canonical JSON exactly as vidops writes and hashes it: keys sorted by code unit, no spaces. */
function canonicalJson(value) {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('numbers must be finite');
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i += 1) {
          if (i > 0) out += ',';
          out += value[i] === undefined ? 'null' : canonicalJson(value[i]);
        }
        return `${out}]`;
      }
      const keys = Object.keys(value).sort();
      let out = '{';
      for (const key of keys) {
        const member = value[key];
        if (member === undefined) continue;
        if (out.length > 1) out += ',';
        out += `${JSON.stringify(key)}:${canonicalJson(member)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`unsupported type ${typeof value}`);
  }
}

function hasherOf(hmacKey) {
  return (event) => {
    const { hash: _hash, ...rest } = event;
    const h = hmacKey === null ? createHash('sha256') : createHmac('sha256', hmacKey);
    return h.update(canonicalJson(rest), 'utf8').digest('hex');
  };
}

function shortHash(hash) {
  return hash.slice(0, 12);
}

/**
 * The first member name written twice in one object of `text` (valid JSON), or null; names are
 * compared as decoded.
 */
function repeatedMember(text) {
  const open = [];
  let nameNext = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const names = open.at(-1);
      if (nameNext && names) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? JSON.parse(`"${raw}"`) : raw;
        if (names.has(name)) return name;
        names.add(name);
      }
      nameNext = false;
      i = end;
    } else if (c === '{') {
      open.push(new Set());
      nameNext = true;
    } else if (c === '[') {
      open.push(null);
    } else if (c === '}' || c === ']') {
      open.pop();
    } else if (c === ',') {
      nameNext = open.at(-1) instanceof Set;
    }
  }
  return null;
}

/** Reads the events once, checking the chain and settling each checkpoint; returns the count. */
async function checkEvents(path, hash, held) {
  const input = createReadStream(path);
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  let count = 0;
  let prevSeq = 0;
  let prevHash = GENESIS_HASH;
  let next = 0;
  let checkpointProblem = null;
  const settle = (problem) => {
    checkpointProblem ??= problem;
  };
  // A checkpoint of the empty log (size 0) holds the hash every chain starts from.
  for (; next < held.length && held[next].size === 0; next += 1) {
    const c = held[next];
    if (c.head !== GENESIS_HASH) {
      settle(`${c.name} says the empty log has hash ${shortHash(c.head)}, not the chain's start`);
    }
  }
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (line === '') throw new Problem(`line ${lineNumber} of the events file is empty`);
      let event;
      try {
        event = JSON.parse(line);
      } catch {
        throw new Problem(`line ${lineNumber} of the events file is not JSON`);
      }
      if (
        typeof event !== 'object' ||
        event === null ||
        Array.isArray(event) ||
        !Number.isSafeInteger(event.seq) ||
        typeof event.prevHash !== 'string' ||
        typeof event.hash !== 'string' ||
        !HEX_HASH.test(event.hash)
      ) {
        throw new Problem(
          `line ${lineNumber} of the events file is not an audit event with seq, prevHash and hash`,
        );
      }
      // A member written twice: JSON.parse keeps the last, another reader may keep the first,
      // which no hash covers.
      const twice = repeatedMember(line);
      if (twice !== null) {
        throw new Problem(
          `line ${lineNumber} of the events file writes the member ${JSON.stringify(twice)} twice: event #${event.seq} was altered`,
        );
      }
      if (prevSeq === 0 && event.seq !== 1) {
        throw new Problem(
          `the export starts at event #${event.seq}, not #1: export the whole log (without --since or --until)`,
        );
      }
      if (prevSeq !== 0 && event.seq !== prevSeq + 1) {
        throw new Problem(`event #${event.seq} follows #${prevSeq}: events are missing`);
      }
      if (event.prevHash !== prevHash) {
        const before = prevSeq === 0 ? 'the start of the chain' : `#${prevSeq}'s hash`;
        throw new Problem(
          `event #${event.seq} does not link to the event before it (prevHash differs from ${before}): an event was removed, replaced or reordered`,
        );
      }
      let recomputed;
      try {
        recomputed = hash(event);
      } catch {
        throw new Problem(`event #${event.seq} holds a value canonical JSON cannot write`);
      }
      if (recomputed !== event.hash) {
        throw new Problem(`event #${event.seq} was altered (its hash does not match its content)`);
      }
      prevSeq = event.seq;
      prevHash = event.hash;
      count += 1;
      for (; next < held.length && held[next].size === event.seq; next += 1) {
        const c = held[next];
        if (c.head !== event.hash) {
          settle(
            `${c.name} says event #${c.size} has hash ${shortHash(c.head)} but the log's event #${c.size} has hash ${shortHash(event.hash)}`,
          );
        }
      }
    }
  } catch (error) {
    if (error instanceof Problem) throw error;
    throw new UsageError(`cannot read the --events file ${path}: ${error.code ?? error.message}`);
  } finally {
    lines.close();
    input.destroy();
  }
  if (checkpointProblem !== null) throw new Problem(checkpointProblem);
  if (next < held.length) {
    const c = held[next];
    throw new Problem(
      `events #${prevSeq + 1}… are missing: ${c.name} covers ${c.size} event${c.size === 1 ? '' : 's'}, the log holds ${count}`,
    );
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(argv) {
  const args = parseArgs(argv);
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if (!statSync(args.events).isFile()) throw new Error('not a file');
  } catch (error) {
    throw new UsageError(`cannot read the --events file ${args.events}: ${error.code ?? error.message}`);
  }
  const keys = args.pubkeys.map((path) => {
    const bytes = readBytes(path, '--pubkey');
    let text;
    try {
      text = UTF8.decode(bytes);
    } catch {
      throw new UsageError(`the --pubkey file ${path} is not UTF-8 text`);
    }
    return parseVerifierKey(text, path);
  });
  let hmacKey = null;
  if (args.hmacKeyFile !== null) {
    hmacKey = readBytes(args.hmacKeyFile, '--hmac-key-file').toString('utf8').trim();
    if (hmacKey === '') throw new UsageError(`the --hmac-key-file file ${args.hmacKeyFile} is empty`);
  }
  const file = utf8(readBytes(args.checkpoints, '--checkpoints'), 'the checkpoints file');
  const notes = splitCheckpointFile(file);
  if (notes.length === 0)
    throw new Problem('the checkpoints file holds no checkpoint: nothing vouches for the log');
  const held = notes.map((note, i) => openCheckpoint(note, i + 1, keys, args.origin));
  held.sort((a, b) => a.size - b.size);
  const count = await checkEvents(args.events, hasherOf(hmacKey), held);
  const newest = held[held.length - 1];
  const when = newest.time === null ? '' : ` of ${newest.time}`;
  process.stdout.write(
    `ok: ${count} event${count === 1 ? '' : 's'}, every hash and link holds; ${held.length} checkpoint${held.length === 1 ? '' : 's'} signed by a listed key hold${held.length === 1 ? 's' : ''}; the newest${when} covers ${newest.size} event${newest.size === 1 ? '' : 's'} (signed by ${newest.signedBy.join(', ')}).\n`,
  );
  if (count > newest.size) {
    process.stdout.write(
      `note: events #${newest.size + 1} to #${count} came after the newest checkpoint; only the chain vouches for them.\n`,
    );
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    if (error instanceof UsageError) {
      process.stderr.write(`verify-audit: ${error.message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (error instanceof Problem) {
      process.stderr.write(`verify-audit: FAILED: ${error.message}.\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`verify-audit: ${error?.stack ?? error}\n`);
      process.exitCode = 2;
    }
  },
);
