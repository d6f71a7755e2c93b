import { z } from 'zod';
import type { RepeatRule } from '../core/operation-spec.js';
import { MobileParamSchema } from '../core/validate/phone.js';
import { ENDPOINTS, type EndpointName } from '../operations/specs.js';
import { ValidationError } from './errors.js';
import type { HttpMethod } from './http.js';
import type { ExtraRoute } from './types.js';

/**
 * Request pieces shared by the resources, and the check that turns a zod failure into a
 * ValidationError before anything is sent. Issue messages never repeat the input value (a mobile
 * number must not reach a log through an error).
 * @see docs/api.md, "Resources and their fields"
 * @see docs/api-extras.md, "Facts"
 */

const DOTS_ONLY = /^\.+$/;

/** Identifiers: the one rule of what an ID is (core/validate/ids.ts); ObjectIds are typical, not required. */
export { IdSchema } from '../core/validate/ids.js';

/**
 * One path segment from a value, encoded. `encodeURIComponent` leaves dots alone, and a URL parser
 * resolves `.` and `..` (also as `%2e`) into steps up the path, so values made only of dots are
 * refused here too: no value can change the route a request goes to.
 */
export function pathSegment(value: string, site: CallSite, field: string): string {
  if (value === '' || DOTS_ONLY.test(value)) {
    failValidation(
      site,
      [field],
      [`${field}: must not be empty or made only of dots (it stands in the URL path)`],
    );
  }
  return encodeURIComponent(value);
}

/** Required titles: at least one visible character. */
export const TitleSchema = z.string({ message: 'must be text' }).regex(/\S/, 'must not be empty');

export const DescriptionSchema = z.string({ message: 'must be text' });

/** Link expiry: a number and a unit of s m h d w M y (e.g. `2h`, `1M`). */
export const ExpireTimeSchema = z
  .string({ message: 'must be text' })
  .regex(/^\d+[smhdwMy]$/, 'must be a number followed by s, m, h, d, w, M or y (e.g. 2h)');

/** Mobile numbers as the service takes them: the one rule of the core (`parseMobile`'s forms). */
export const MobileNumberSchema = MobileParamSchema;

/** Paging of the list extras. */
export const ListQuerySchema = z.strictObject({
  sortBy: z
    .string()
    .regex(/^[^\s,]+$/, 'must be a field name, optionally with :asc or :desc')
    .optional(),
  limit: z.int().positive().max(1000).optional(),
  currentPage: z.int().positive().optional(),
});

/** Where a request would have gone, for the error raised instead. */
export interface CallSite {
  operation: EndpointName | ExtraRoute | 'link.generate';
  method: HttpMethod;
  path: string;
  /** Set for an operation's endpoint, from its table (see siteOf). */
  repeat?: RepeatRule | 'read';
}

/** Where an operation's endpoint is sent and how safe a repeat is, from the endpoint table. */
export function siteOf(name: EndpointName): CallSite & { repeat: RepeatRule | 'read' } {
  const { method, path, repeat } = ENDPOINTS[name];
  return { operation: name, method, path, repeat };
}

/**
 * Parses `input` with `schema` or throws a ValidationError naming every field at fault; nothing
 * is sent in that case.
 */
export function validateRequest<S extends z.ZodType>(schema: S, input: unknown, site: CallSite): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields: string[] = [];
  const issues: string[] = [];
  for (const issue of parsed.error.issues) {
    const at = issue.path.map(String).join('.');
    const names =
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((k) => (at ? `${at}.${k}` : k))
        : [at || '(request)'];
    for (const name of names) if (!fields.includes(name)) fields.push(name);
    issues.push(
      issue.code === 'unrecognized_keys'
        ? `${names.join(', ')}: not a field of this request`
        : `${at || 'request'}: ${issue.message}`,
    );
  }
  return failValidation(site, fields, issues);
}

/** Throws the ValidationError of a request refused before sending. */
export function failValidation(site: CallSite, fields: string[], issues: string[]): never {
  throw new ValidationError(`Refused before sending ${site.operation}: ${issues.join('; ')}`, {
    status: null,
    body: null,
    operation: site.operation,
    method: site.method,
    path: site.path,
    fields,
    issues,
  });
}
