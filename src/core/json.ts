/** JSON values as they are stored, hashed and shown. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, `undefined` members dropped.
 * Two equal values always give the same string, so hashes over it are stable across processes,
 * databases and versions of Node.
 */
/**
 * Object keys as JSON writes them, kept: the same few dozen keys recur in every event and request,
 * and quoting one again costs more than finding it here.
 */
const QUOTED_KEYS = new Map<string, string>();
const MAX_QUOTED_KEYS = 4_096;
/** Longer keys are quoted each time: an answer of the service (up to 1 MiB) may have any. */
const MAX_QUOTED_KEY_LENGTH = 64;

/** How many quoted keys are kept (for tests): never more than 4,096, none over 64 characters. */
export const quotedKeyCount = (): number => QUOTED_KEYS.size;

function quoted(key: string): string {
  if (key.length > MAX_QUOTED_KEY_LENGTH) return JSON.stringify(key);
  let text = QUOTED_KEYS.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    // Keys of upstream answers are not ours to count: past the bound they are quoted each time.
    if (QUOTED_KEYS.size < MAX_QUOTED_KEYS) QUOTED_KEYS.set(key, text);
  }
  return text;
}

/** Above this many keys an object's keys are sorted by the built-in sort. */
const FEW_KEYS = 32;

/**
 * `Object.keys(record)` in the order canonical JSON writes them: by UTF-16 code unit, as the
 * default sort compares. Objects here have a few keys, and the built-in sort allocates a work area
 * on every call (a fifth of what writing an event allocated), so a few are sorted in place.
 */
function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length > FEW_KEYS) return keys.sort();
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j -= 1) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
  return keys;
}

/** One member of a canonical object: its key, and `"key":value` as canonical JSON writes it. */
export type CanonicalMember = readonly [key: string, text: string];

/** The members of `record` as {@link canonicalJson} writes them, in its order, `undefined` ones left out. */
export function canonicalMembers(record: object): CanonicalMember[] {
  const keys = sortedKeys(record);
  const out: CanonicalMember[] = [];
  for (const key of keys) {
    const member: unknown = (record as Record<string, unknown>)[key];
    if (member !== undefined) out.push([key, `${quoted(key)}:${canonicalJson(member)}`]);
  }
  return out;
}

/**
 * The canonical JSON of an object given as members (from {@link canonicalMembers}), with `extra`
 * members added in their sorted places: the same text as {@link canonicalJson} of the object with
 * them, without writing the other members again. A key in both is an error.
 */
export function joinMembers(members: readonly CanonicalMember[], extra: object = {}): string {
  const added = canonicalMembers(extra);
  let out = '{';
  let i = 0;
  let j = 0;
  while (i < members.length || j < added.length) {
    const a = members[i];
    const b = added[j];
    let next: CanonicalMember;
    if (b === undefined || (a !== undefined && a[0] < b[0])) {
      next = a as CanonicalMember;
      i += 1;
    } else {
      if (a !== undefined && a[0] === b[0]) throw new TypeError(`joinMembers: "${b[0]}" is given twice`);
      next = b;
      j += 1;
    }
    if (out.length > 1) out += ',';
    out += next[1];
  }
  return `${out}}`;
}

export function canonicalJson(value: unknown): string {
  // Written as loops with string concatenation, not entries/filter/map/join: this runs for every
  // event when a whole audit log is verified, and allocation is most of its cost.
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalJson: numbers must be finite');
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i += 1) {
          const item: unknown = value[i];
          if (i > 0) out += ',';
          out += item === undefined ? 'null' : canonicalJson(item);
        }
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = sortedKeys(record);
      let out = '{';
      for (const key of keys) {
        const member = record[key];
        if (member === undefined) continue;
        if (out.length > 1) out += ',';
        out += `${quoted(key)}:${canonicalJson(member)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonicalJson: unsupported type ${typeof value}`);
  }
}

/**
 * The first member name written twice in one object of `text`, which must be valid JSON; null
 * when every name is written once. JSON.parse keeps the last of two and drops the first without a
 * word, though another reader may keep the first: a file whose hashes cover what JSON.parse kept
 * must not hold a second reading that no hash covers. Names are compared as decoded (`"\u0061"` is `a`).
 */
export function repeatedMember(text: string): string | null {
  // One entry per open object (the names seen so far) or array (null).
  const open: (Set<string> | null)[] = [];
  let nameNext = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const names = open.at(-1);
      if (nameNext && names) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
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
