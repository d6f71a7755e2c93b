import { isIP } from 'node:net';
import { z } from 'zod';
// One rule for when two spellings are the same address, shared with what the agent was shown.
import { ipKey, sameIpSet } from '../core/validate/ip.js';
import { WhitelistConflictError, WhitelistMismatchError } from './errors.js';
import type { ResponseBody, RetryPolicy, Transport } from './http.js';
import { asRaw, isObject, unexpectedAnswer, unwrap } from './parse.js';
import { siteOf, validateRequest } from './schemas.js';
import type { WhitelistChange } from './types.js';

/**
 * Operations 1 and 2: the IP whitelist. Whether a POST replaces or appends is not documented, so
 * `replace` reads the list back and compares.
 * @see docs/api.md, "Endpoints" (ops 1, 2) and "Whitelist"
 */

const GET_SITE = siteOf('whitelist.get');
const SET_SITE = siteOf('whitelist.set');

const IpSchema = z.string({ message: 'must be text' }).refine((s) => isIP(s) !== 0, {
  message: 'must be an IPv4 or IPv6 address',
});

/** Body of op 1. */
export const WhitelistUpdateSchema = z.strictObject({ allowedDNS: z.array(IpSchema) });

const ReplaceOptionsSchema = z.strictObject({
  expectBefore: z.array(z.string()).optional(),
  asAskedIsDone: z.boolean().optional(),
});

/** Keys under which a whitelist answer may hold its addresses. */
const LIST_KEYS = ['allowedDNS', 'whitelist', 'allowedIps', 'ips', 'items'] as const;

/** The addresses in an answer of op 2 (or null when none can be found). */
export function parseWhitelist(body: ResponseBody): string[] | null {
  const payload = unwrap(body);
  let list: unknown = null;
  if (Array.isArray(payload)) list = payload;
  else if (isObject(payload)) {
    const key = LIST_KEYS.find((k) => k in payload);
    if (key !== undefined) list = payload[key] ?? [];
    else {
      // An unknown envelope with exactly one list in it is taken to be that list.
      const lists = Object.values(payload).filter(Array.isArray);
      if (lists.length === 1) list = lists[0];
    }
  }
  if (!Array.isArray(list)) return null;
  const out: string[] = [];
  for (const entry of list) {
    const ip = isObject(entry) ? (entry.ip ?? entry.address ?? entry.value) : entry;
    // An entry not read is not skipped: a change sends the whole list, and would remove it unseen.
    if (typeof ip !== 'string') return null;
    out.push(ip);
  }
  return out;
}

function minus(a: readonly string[], b: readonly string[]): string[] {
  const drop = new Set(b.map(ipKey));
  return [...new Set(a.map(ipKey))].filter((ip) => !drop.has(ip));
}

function describeMismatch(before: readonly string[], intended: readonly string[], actual: readonly string[]) {
  const missing = minus(intended, actual);
  const extra = minus(actual, intended);
  const previous = new Set(before.map(ipKey));
  const kept = extra.filter((ip) => previous.has(ip));
  const parts = ['After the update the service whitelist is not the one intended'];
  if (missing.length > 0) parts.push(`missing ${missing.join(', ')}`);
  if (extra.length > 0) parts.push(`unexpected ${extra.join(', ')}`);
  let message = parts.join('; ');
  if (missing.length === 0 && extra.length > 0 && kept.length === extra.length) {
    message +=
      '. The service seems to append to its list instead of replacing it, so addresses cannot be removed this way';
  }
  return message;
}

export function createWhitelistResource(transport: Transport, retry: RetryPolicy) {
  /** op 2 */
  async function get(): Promise<string[]> {
    const body = await transport.request({ ...GET_SITE, retry });
    const list = parseWhitelist(body);
    if (list === null) throw unexpectedAnswer(GET_SITE, body, 'a list of addresses');
    return list;
  }

  return {
    get,
    /**
     * op 1 done safely: reads the list (and, with `expectBefore`, refuses with
     * WhitelistConflictError if it changed since the request was made; with `asAskedIsDone` too,
     * a list that already is `list`, as after a resumed send that had landed, is answered without
     * posting, `raw.alreadyAsAsked`), posts the full `list`,
     * reads again and throws WhitelistMismatchError when the service did not end up with `list`
     * (e.g. it appended).
     */
    async replace(
      list: readonly string[],
      options: { expectBefore?: readonly string[]; asAskedIsDone?: boolean } = {},
    ): Promise<WhitelistChange> {
      const { allowedDNS } = validateRequest(WhitelistUpdateSchema, { allowedDNS: list }, SET_SITE);
      const { expectBefore, asAskedIsDone } = validateRequest(ReplaceOptionsSchema, options, SET_SITE);
      const intended = [...new Map(allowedDNS.map((ip) => [ipKey(ip), ip])).values()];
      const before = await get();
      // Already as asked on a resumed send (its POST had landed before the process stopped): nothing
      // is sent again, and the answer says so rather than claiming the service's words. On a first
      // send the same list is someone else's doing: changed since, as below.
      if (asAskedIsDone === true && expectBefore !== undefined && sameIpSet(before, intended)) {
        return { before, after: before, raw: { alreadyAsAsked: true, allowedDNS: before } };
      }
      if (expectBefore !== undefined && !sameIpSet(before, expectBefore)) {
        throw new WhitelistConflictError(
          `The whitelist changed since the request was made (now ${before.join(', ') || 'empty'}); nothing was changed`,
          { ...GET_SITE, status: null, body: null, expected: expectBefore, actual: before },
        );
      }
      // Setting the same full list twice is harmless, so the POST takes the idempotent policy.
      const answer = await transport.request({
        ...SET_SITE,
        json: { allowedDNS: intended },
        retry,
      });
      const after = await get();
      if (!sameIpSet(after, intended)) {
        throw new WhitelistMismatchError(describeMismatch(before, intended, after), {
          ...SET_SITE,
          status: null,
          body: answer,
          intended,
          actual: after,
        });
      }
      return { before, after, raw: asRaw(answer) };
    },
  };
}
