import type { IncomingMessage } from 'node:http';
import type { JsonObject, JsonValue } from '../core/json.js';
import { badRequest, SandboxHttpError } from './errors.js';

/** A request body as read off the wire, before any route looks at it. */
export type ParsedBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: JsonValue }
  | { kind: 'invalid-json'; reason: string; text: string }
  | { kind: 'multipart'; form: FormData }
  | { kind: 'invalid-multipart'; reason: string }
  | { kind: 'other'; contentType: string; text: string };

/** Largest body accepted; a cover image is small, and nothing else carries bytes. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Reads the whole body; more than `maxBytes` is refused with 413. */
export async function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > maxBytes) {
      throw new SandboxHttpError(413, `body is larger than ${maxBytes} bytes`, { code: 'BODY_TOO_LARGE' });
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Parses by content type: JSON, multipart/form-data (with the Web `Request` API), or text. */
export async function parseBody(raw: Buffer, contentType: string | undefined): Promise<ParsedBody> {
  if (raw.length === 0) return { kind: 'empty' };
  const type = mediaType(contentType);
  const text = () => raw.toString('utf8');
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return { kind: 'json', value: JSON.parse(text()) as JsonValue };
    } catch (error) {
      return { kind: 'invalid-json', reason: (error as Error).message, text: text() };
    }
  }
  if (type === 'multipart/form-data') {
    try {
      const request = new Request('http://sandbox.local/', {
        method: 'POST',
        headers: { 'content-type': contentType ?? '' },
        body: raw,
      });
      return { kind: 'multipart', form: await request.formData() };
    } catch (error) {
      return { kind: 'invalid-multipart', reason: (error as Error).message };
    }
  }
  return { kind: 'other', contentType: type, text: text() };
}

const MAX_RECORDED_TEXT = 4096;

/** What the request log keeps of a body: parsed JSON, a multipart summary, raw text, or null. */
export function recordedBody(body: ParsedBody): JsonValue {
  switch (body.kind) {
    case 'empty':
      return null;
    case 'json':
      return body.value;
    case 'invalid-json':
    case 'other':
      return body.text.slice(0, MAX_RECORDED_TEXT);
    case 'invalid-multipart':
      return `malformed multipart/form-data: ${body.reason}`;
    case 'multipart': {
      const fields: JsonObject = {};
      const files: JsonObject[] = [];
      for (const [field, value] of body.form) {
        if (typeof value === 'string') {
          const previous = fields[field];
          fields[field] =
            previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
        } else {
          files.push({ field, filename: value.name, size: value.size, contentType: value.type });
        }
      }
      return { fields, files };
    }
  }
}

/** The JSON object a JSON route needs, or the 400/415 that explains why there is none. */
export function jsonObject(body: ParsedBody): Record<string, unknown> {
  switch (body.kind) {
    case 'empty':
      // DELETE and PATCH bodies are required by the spec; an empty one fails on its fields.
      return {};
    case 'json':
      if (body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) {
        throw badRequest('body', 'must be a JSON object');
      }
      return body.value;
    case 'invalid-json':
      throw badRequest('body', `malformed JSON (${body.reason})`);
    default:
      throw new SandboxHttpError(415, 'content-type must be application/json', {
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
  }
}

/** The form of a multipart route, or the 400/415 that explains why there is none. */
export function multipartForm(body: ParsedBody): FormData {
  if (body.kind === 'multipart') return body.form;
  if (body.kind === 'invalid-multipart')
    throw badRequest('body', `malformed multipart/form-data (${body.reason})`);
  throw new SandboxHttpError(415, 'content-type must be multipart/form-data', {
    code: 'UNSUPPORTED_MEDIA_TYPE',
  });
}
