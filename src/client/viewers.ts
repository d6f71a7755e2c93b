import { z } from 'zod';
import type { JsonObject } from '../core/json.js';
import { beforeSendOnly, type RetryPolicy, type Transport } from './http.js';
import { asRaw, bool, isObject, text } from './parse.js';
import { MobileNumberSchema, siteOf, validateRequest } from './schemas.js';
import { type ExtraSite, readList } from './support.js';
import type { Answer, Page, SupportMemory, Viewer } from './types.js';

/**
 * Viewers: operation 13 (unblock by mobile number) and the extra viewer look-up.
 * @see docs/api.md, "User unblock request"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

const UNBLOCK = siteOf('viewer.unblock');
const LOOKUP: ExtraSite = {
  operation: 'viewer.lookup',
  method: 'GET',
  path: '/v1/analysis/content/video/all',
};

export const UnblockSchema = z.strictObject({ mobileNumber: MobileNumberSchema });

export const LookupSchema = z.strictObject({
  search: z.array(MobileNumberSchema).min(1, 'must name at least one mobile number').max(50),
});

/** A viewer record of the look-up. */
export function parseViewer(record: JsonObject): Viewer {
  const user = isObject(record.user) ? record.user : {};
  const blocked = bool(record, 'blocked', 'isBlocked', 'block');
  const status = text(record, 'status');
  return {
    mobileNumber:
      text(record, 'mobileNumber', 'mobile', 'phoneNumber', 'phone') ??
      text(user, 'mobileNumber', 'mobile') ??
      '',
    actionType: text(record, 'actionType', 'type'),
    blocked:
      blocked ?? (status === 'blocked' ? true : status === 'unblocked' || status === 'active' ? false : null),
    raw: record,
  };
}

export function createViewersResource(transport: Transport, retry: RetryPolicy, support: SupportMemory) {
  return {
    /**
     * op 13. `once`: repeated only when the service certainly did not act on it (never sent, or a
     * 429), for a batch that records each number's step and must never send one twice.
     */
    async unblock(input: { mobileNumber: string }, options: { once?: boolean } = {}): Promise<Answer> {
      const json = validateRequest(UnblockSchema, input, UNBLOCK);
      // Unblocking an unblocked viewer changes nothing: safe to repeat, except where a batch
      // promises each number is sent once.
      const body = await transport.request({
        ...UNBLOCK,
        json,
        retry: options.once === true ? beforeSendOnly(retry) : retry,
      });
      return { raw: asRaw(body) };
    },
    /** extra: GET /v1/analysis/content/video/all?search=… */
    async lookup(mobileNumbers: readonly string[]): Promise<Page<Viewer>> {
      const { search } = validateRequest(LookupSchema, { search: mobileNumbers }, LOOKUP);
      const extras = { transport, memory: support, retry };
      return readList(extras, LOOKUP, { search: search.join(',') }, 'a list of viewers', parseViewer);
    },
  };
}
