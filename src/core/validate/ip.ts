import { isIP } from 'node:net';
import { type IpBlockKind, type Said, say } from '../said.js';
import { normalizeDigits } from './digits.js';

/**
 * IP whitelist entries: IPv4 and IPv6 literals only (the service compares caller IPs, so host
 * names, ranges and ports would never match). IPv6 is written in its canonical RFC 5952 form
 * (lowercase, compressed); IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is kept as written, compared by
 * its canonical form, and never folded into the plain IPv4 address: a dual-stack server may
 * report either, so both can be meant.
 * @see docs/architecture.md, "Validation"
 */
export type IpListResult = { ok: true; ips: string[] } | { ok: false; said: Said[] };

/**
 * What the addresses are for. Adding refuses addresses no server on the internet can call from
 * ({@link unusableReason}); removing takes them, so an entry that got onto the list can leave it.
 */
export type IpListPurpose = 'add' | 'remove';

/**
 * Reads IP addresses from tokens (each may hold several, separated by commas, semicolons or
 * spaces). Duplicates are folded, first one kept; every problem names the token it is about.
 * `purpose` is `add` unless said otherwise: a caller that forgets it refuses too much, never too little.
 */
export function parseIpList(tokens: readonly string[], purpose: IpListPurpose = 'add'): IpListResult {
  const pieces = tokens
    .flatMap((token) => normalizeDigits(token).split(/[\s,;]+/))
    .map(unwrapSlackFormatting)
    .filter((piece) => piece !== '');
  if (pieces.length === 0) return { ok: false, said: [say.ipNone()] };

  const problems: Said[] = [];
  const ips: string[] = [];
  const seen = new Set<string>();
  for (const piece of pieces) {
    const family = isIP(piece);
    if (family === 0 || piece.includes('%')) {
      problems.push(describeNonIp(piece));
      continue;
    }
    const shown = family === 6 && !isMappedIpv4(piece) ? canonicalIpv6(piece) : piece;
    const unusable = purpose === 'add' ? unusableSaid(piece) : null;
    if (unusable !== null) {
      problems.push(unusable);
      continue;
    }
    const key = ipKey(shown);
    if (seen.has(key)) continue;
    seen.add(key);
    ips.push(shown);
  }
  return problems.length > 0 ? { ok: false, said: problems } : { ok: true, ips };
}

/** A block of addresses no caller of the service can have, and why. */
interface Block {
  /** The block as people write it (`127.0.0.0/8`), or the single address. */
  name: string;
  /** What it is, and so why no caller has it (src/core/said.ts words both). */
  kind: IpBlockKind;
  contains(groups: readonly number[]): boolean;
}

function ipv4Block(cidr: string, kind: IpBlockKind): Block {
  const [base = '', bits = '32'] = cidr.split('/');
  const prefix = Number(bits);
  const start = ipv4Number(base);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return {
    name: prefix === 32 ? base : cidr,
    kind,
    contains: ([value = -1]) => (value & mask) >>> 0 === start,
  };
}

function ipv6Block(cidr: string, kind: IpBlockKind): Block {
  const [base = '', bits = '128'] = cidr.split('/');
  const prefix = Number(bits);
  const start = expandIpv6(base);
  return {
    name: prefix === 128 ? base : cidr,
    kind,
    contains: (groups) => {
      for (let bit = 0; bit < prefix; bit += 16) {
        const width = Math.min(16, prefix - bit);
        const mask = (0xffff << (16 - width)) & 0xffff;
        const i = bit / 16;
        if (((groups[i] ?? 0) & mask) !== ((start[i] ?? 0) & mask)) return false;
      }
      return true;
    },
  };
}

/**
 * Addresses no server on the internet calls the service from. The first block that holds an
 * address names it, so single addresses come before the blocks around them.
 * @see docs/architecture.md, "Validation" (IPs)
 */
const IPV4_UNUSABLE: readonly Block[] = [
  ipv4Block('0.0.0.0', 'unspecified'),
  ipv4Block('0.0.0.0/8', 'thisNetwork'),
  ipv4Block('127.0.0.0/8', 'loopback'),
  ipv4Block('169.254.0.0/16', 'linkLocal'),
  ipv4Block('255.255.255.255', 'broadcast'),
  ipv4Block('224.0.0.0/4', 'multicast'),
  ipv4Block('240.0.0.0/4', 'reserved'),
  ipv4Block('192.0.2.0/24', 'documentation'),
  ipv4Block('198.51.100.0/24', 'documentation'),
  ipv4Block('203.0.113.0/24', 'documentation'),
  ipv4Block('198.18.0.0/15', 'benchmarking'),
  ipv4Block('10.0.0.0/8', 'private'),
  ipv4Block('172.16.0.0/12', 'private'),
  ipv4Block('192.168.0.0/16', 'private'),
  ipv4Block('100.64.0.0/10', 'carrierNat'),
];

const IPV6_UNUSABLE: readonly Block[] = [
  ipv6Block('::', 'unspecified'),
  ipv6Block('::1', 'theLoopback'),
  ipv6Block('::/96', 'ipv4Compatible'),
  ipv6Block('fe80::/10', 'linkLocal'),
  ipv6Block('ff00::/8', 'multicast'),
  ipv6Block('2001:db8::/32', 'documentation'),
  ipv6Block('3fff::/20', 'documentation'),
  ipv6Block('fec0::/10', 'siteLocal'),
  ipv6Block('fc00::/7', 'uniqueLocal'),
];

/**
 * Why no server on the internet can call the service from `ip`, or null when one can: the
 * unspecified, loopback, link-local, multicast, broadcast, reserved and documentation
 * addresses, private ones (the service never sees them), and the IPv4-mapped forms of all of
 * these. Expects a literal that `isIP` accepted.
 */
export function unusableSaid(ip: string): Said | null {
  const family = isIP(ip);
  const found = (block: Block | undefined, mapped = false) =>
    block === undefined ? null : say.ipUnusable(ip, { kind: block.kind, cidr: block.name }, mapped);
  if (family === 4) return found(IPV4_UNUSABLE.find((b) => b.contains([ipv4Number(ip)])));
  if (family !== 6) return null;
  const groups = expandIpv6(ip.toLowerCase());
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const v4 = ((groups[6] ?? 0) * 0x10000 + (groups[7] ?? 0)) >>> 0;
    return found(
      IPV4_UNUSABLE.find((b) => b.contains([v4])),
      true,
    );
  }
  return found(IPV6_UNUSABLE.find((b) => b.contains(groups)));
}

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0) >>> 0;
}

/**
 * The form two entries are compared in: IPv4 as is, IPv6 canonical (mapped IPv4 as
 * `::ffff:a.b.c.d`), anything else (an odd entry already on the service) trimmed and lowercased.
 */
export function ipKey(entry: string): string {
  const trimmed = entry.trim();
  const family = isIP(trimmed);
  if (family === 4) return trimmed;
  if (family === 6 && !trimmed.includes('%')) return canonicalIpv6(trimmed);
  return trimmed.toLowerCase();
}

/** True when both lists hold the same addresses, whatever the order, spelling or repeats. */
export function sameIpSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a.map(ipKey));
  const right = new Set(b.map(ipKey));
  return left.size === right.size && [...left].every((key) => right.has(key));
}

/** Outcome of adding and removing addresses; `unchanged` lists adds already there and removes absent. */
export interface IpChange {
  next: string[];
  added: string[];
  removed: string[];
  unchanged: string[];
}

/**
 * The whitelist after a change. The current order is kept, repeats in it are folded, new
 * addresses go at the end. Removes are applied before adds, so an address in both stays.
 */
export function applyIpChange(
  current: readonly string[],
  change: { add?: readonly string[]; remove?: readonly string[] },
): IpChange {
  const removeKeys = new Set((change.remove ?? []).map(ipKey));
  const next: string[] = [];
  const removed: string[] = [];
  const present = new Set<string>();
  const removedKeys = new Set<string>();
  for (const entry of current) {
    const key = ipKey(entry);
    if (removeKeys.has(key)) {
      if (!removedKeys.has(key)) removed.push(entry);
      removedKeys.add(key);
      continue;
    }
    if (present.has(key)) continue;
    present.add(key);
    next.push(entry);
  }

  const unchanged: string[] = [];
  for (const entry of change.remove ?? []) {
    if (!removedKeys.has(ipKey(entry))) unchanged.push(entry);
  }
  const added: string[] = [];
  for (const entry of change.add ?? []) {
    const key = ipKey(entry);
    if (present.has(key)) {
      unchanged.push(entry);
      continue;
    }
    present.add(key);
    next.push(entry);
    added.push(entry);
  }
  return { next, added, removed, unchanged };
}

/** `<http://x|label>` → label, `<x>` → x, `` `x` `` → x. */
function unwrapSlackFormatting(piece: string): string {
  const link = /^<([^|>]*)(?:\|([^>]*))?>$/.exec(piece);
  const inner = link === null ? piece : (link[2] ?? link[1] ?? '');
  return inner.replace(/^[`*_~"']+|[`*_~"']+$/g, '');
}

function describeNonIp(token: string): Said {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) return say.ipUrl(token);
  if (token.includes('/')) return say.ipRange(token);
  if (token.includes('%')) return say.ipZone(token);
  if (/^\[[^\]]*\](:\d+)?$/.test(token)) return say.ipBrackets(token, !token.endsWith(']'));
  const hostPort = /^(.*):(\d{1,5})$/.exec(token);
  if (hostPort?.[1] !== undefined && isIP(hostPort[1]) === 4) return say.ipPort(token);
  if (/^\d+(\.\d+){3}$/.test(token)) return say.ipBadIpv4(token);
  if (/\p{L}/u.test(token) && /^[\p{L}\d-]+(\.[\p{L}\d-]+)+\.?$/u.test(token) && !token.includes(':')) {
    return say.ipHostName(token);
  }
  return say.ipNotIp(token);
}

function isMappedIpv4(ip: string): boolean {
  return canonicalIpv6(ip).startsWith('::ffff:') && ip.includes('.');
}

/**
 * RFC 5952 text form: lowercase, no leading zeros, the longest run of two or more zero groups
 * (the first on a tie) as `::`, IPv4-mapped addresses as `::ffff:a.b.c.d`.
 * Expects a literal that `isIP` accepted as IPv6.
 */
export function canonicalIpv6(ip: string): string {
  const groups = expandIpv6(ip.toLowerCase());
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const high = groups[6] ?? 0;
    const low = groups[7] ?? 0;
    return `::ffff:${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function expandIpv6(ip: string): number[] {
  let text = ip;
  // A trailing dotted quad stands for the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    const high = (((a ?? 0) << 8) | (b ?? 0)).toString(16);
    const low = (((c ?? 0) << 8) | (d ?? 0)).toString(16);
    text = `${text.slice(0, dotted.index)}${high}:${low}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
