import { isIP } from 'node:net';
import { normalizeDigits } from './digits.js';

/**
 * IP whitelist entries: IPv4 and IPv6 literals only (the service compares caller IPs, so host
 * names, ranges and ports would never match). IPv6 is written in its canonical RFC 5952 form
 * (lowercase, compressed); IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is kept as written, compared by
 * its canonical form, and never folded into the plain IPv4 address: a dual-stack server may
 * report either, so both can be meant.
 * @see docs/architecture.md, "Validation"
 */
export type IpListResult = { ok: true; ips: string[] } | { ok: false; problems: string[] };

/**
 * Reads IP addresses from tokens (each may hold several, separated by commas, semicolons or
 * spaces). Duplicates are folded, first one kept; every problem names the token it is about.
 */
export function parseIpList(tokens: readonly string[]): IpListResult {
  const pieces = tokens
    .flatMap((token) => normalizeDigits(token).split(/[\s,;]+/))
    .map(unwrapSlackFormatting)
    .filter((piece) => piece !== '');
  if (pieces.length === 0) return { ok: false, problems: ['no IP address was given'] };

  const problems: string[] = [];
  const ips: string[] = [];
  const seen = new Set<string>();
  for (const piece of pieces) {
    const family = isIP(piece);
    if (family === 0 || piece.includes('%')) {
      problems.push(describeNonIp(piece));
      continue;
    }
    const shown = family === 6 && !isMappedIpv4(piece) ? canonicalIpv6(piece) : piece;
    const key = ipKey(shown);
    if (seen.has(key)) continue;
    seen.add(key);
    ips.push(shown);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, ips };
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

function describeNonIp(token: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) return `"${token}" is a URL; give the server's IP address`;
  if (token.includes('/')) return `"${token}" is a range (CIDR); list single addresses`;
  if (token.includes('%')) return `"${token}" has a zone index (%…); give the address alone`;
  if (/^\[[^\]]*\](:\d+)?$/.test(token)) {
    return `"${token}" has brackets${token.endsWith(']') ? '' : ' and a port'}; give the IPv6 address alone`;
  }
  const hostPort = /^(.*):(\d{1,5})$/.exec(token);
  if (hostPort?.[1] !== undefined && isIP(hostPort[1]) === 4) {
    return `"${token}" has a port; give the address alone`;
  }
  if (/^\d+(\.\d+){3}$/.test(token)) {
    return `"${token}" is not a valid IPv4 address (four numbers from 0 to 255, no leading zeros)`;
  }
  if (/\p{L}/u.test(token) && /^[\p{L}\d-]+(\.[\p{L}\d-]+)+\.?$/u.test(token) && !token.includes(':')) {
    return `"${token}" is a host name; give its IP address`;
  }
  return `"${token}" is not an IPv4 or IPv6 address`;
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
