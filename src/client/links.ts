import { z } from 'zod';
import { NO_RETRY, type Transport } from './http.js';
import { asRaw, recordOf, text } from './parse.js';
import { type CallSite, ExpireTimeSchema, IdSchema, MobileNumberSchema, validateRequest } from './schemas.js';
import type { Answer } from './types.js';

/**
 * The extra link-creation call, for support to test playback for a viewer. Its one known answer
 * shape is a top-level `url`.
 * @see docs/api-extras.md, "Read-only endpoints" and the paragraph above "Facts"
 */

const GENERATE: CallSite = {
  operation: 'link.generate',
  method: 'POST',
  path: '/v1/storage/bucket/file/generate/link',
};

export const GenerateLinkSchema = z.strictObject({
  fileId: IdSchema,
  mobileNumber: MobileNumberSchema.optional(),
  expireTime: ExpireTimeSchema.optional(),
});

export function createLinksResource(transport: Transport) {
  return {
    /** extra: POST /v1/storage/bucket/file/generate/link */
    async generate(input: {
      fileId: string;
      mobileNumber?: string;
      expireTime?: string;
    }): Promise<Answer & { url: string | null }> {
      const json = validateRequest(GenerateLinkSchema, input, GENERATE);
      // Each call mints a new link; a repeat would leave a second one live.
      const body = await transport.request({
        ...GENERATE,
        json,
        retry: NO_RETRY,
        optional: true,
      });
      const url =
        typeof body === 'string' && /^https?:\/\//.test(body) ? body : text(recordOf(body), 'url', 'link');
      return { url, raw: asRaw(body) };
    },
  };
}
