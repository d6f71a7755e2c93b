import { isIP } from 'node:net';
import { z } from 'zod';
import { idRule } from '../core/validate/ids.js';
import { badRequest } from './errors.js';
import type { HlsStatus } from './types.js';

/**
 * Strict validation of every request body and query the sandbox accepts. The first problem is
 * answered as 400 `<field>: <why>`, so a client bug shows up as a clear message in its tests.
 * @see docs/api.md, "Endpoints" and "Limits"
 * @see docs/api-extras.md, "Facts"
 */

/** The ten text colours of the spec. Kept apart from core's copy (the client sends that one): the sandbox checks it. */
export const FONT_COLORS = [
  '#ffff00',
  '#dda0dd',
  '#800000',
  '#4b0082',
  '#ffa500',
  '#27ae60',
  '#16a085',
  '#af7ac5',
  '#e74c3c',
  '#66a310',
] as const;

export const HLS_STATUSES = ['waiting', 'done', 'failed'] as const satisfies readonly HlsStatus[];
export const ACTION_TYPES = ['attacker', 'risky', 'normal'] as const;

/** `<number><unit>` with units s m h d w M y (`2h`, `1d`, `1M`). */
export const EXPIRE_TIME = /^\d+[smhdwMy]$/;

/**
 * An ID as the spec writes it: the one rule, shared with vidops' catalog and client
 * (core/validate/ids.ts); a route's own body schema starts from it.
 */
export const id = idRule(z.string());
const title = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const description = z.string().max(2000, 'must be at most 2000 characters');
const mobileNumber = z.string().regex(/^\+?\d{6,15}$/, 'must be 6 to 15 digits, optionally with a leading +');
const expireTime = z
  .string()
  .regex(EXPIRE_TIME, 'must be a number followed by one of s m h d w M y (e.g. 2h)');
const ipAddress = z.string().refine((value) => isIP(value) !== 0, 'must be an IPv4 or IPv6 address');
const nonNegative = z.number().min(0, 'must not be negative');
const unitInterval = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

/** op 1 */
export const WhitelistBodySchema = z.strictObject({
  allowedDNS: z.array(ipAddress).max(1000, 'must have at most 1000 addresses'),
});

/** op 3: any subset of the configuration; nested objects are merged field by field. */
export const ConfigPatchSchema = z.strictObject({
  speed: nonNegative.optional(),
  fontColor: z.enum(FONT_COLORS, { error: `must be one of ${FONT_COLORS.join(', ')}` }).optional(),
  fontSize: nonNegative.optional(),
  opacity: unitInterval.optional(),
  sendProtectionAlert: z.boolean().optional(),
  faultTolerance: z.number().int('must be a whole number').min(0, 'must not be negative').optional(),
  preventZoom: z.boolean().optional(),
  ipValidation: z.boolean().optional(),
  fixWatermark: z.boolean().optional(),
  displayTextOnScreen: z.boolean().optional(),
  enableBeep: z.boolean().optional(),
  beepVolume: unitInterval.optional(),
  beepInterval: nonNegative.optional(),
  player: z
    .strictObject({
      themeColor: z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional(),
      offlineMode: z.boolean().optional(),
      securityProtection: z.boolean().optional(),
    })
    .optional(),
  link: z
    .strictObject({
      accessWithMultiIp: z.boolean().optional(),
      expireTime: expireTime.optional(),
    })
    .optional(),
  enableActiveSession: z.boolean().optional(),
  regenerateLink: z.boolean().optional(),
  relatedPlaylist: z.boolean().optional(),
  enablePlaylist: z.boolean().optional(),
});
export type ConfigPatch = z.infer<typeof ConfigPatchSchema>;

/** op 5 */
export const CreateFolderSchema = z.strictObject({ title, description: description.optional() });
/** op 6 */
export const EditFolderSchema = z.strictObject({ bucketId: id, title, description: description.optional() });
/** op 7 */
export const DeleteFolderSchema = z.strictObject({ bucketId: id });

/** op 8, the text fields of the form (the cover part is checked apart). */
export const EditFileFieldsSchema = z.strictObject({
  fileId: id,
  title,
  description: description.optional(),
});
/** op 9 and op 10 */
export const FileIdSchema = z.strictObject({ fileId: id });

/** op 11 */
export const EditPlaylistSchema = z.strictObject({
  playlistId: id,
  title: title.optional(),
  files: z
    .array(z.strictObject({ _id: id, title: title.optional() }))
    .max(500, 'must have at most 500 entries')
    .optional(),
});
/** op 12 */
export const DeletePlaylistSchema = z.strictObject({ playlistId: id });
/** extra: POST /v1/playlist */
export const CreatePlaylistSchema = z.strictObject({ title });

/** op 13 */
export const UnblockSchema = z.strictObject({ mobileNumber });

/** extra: POST /v1/storage/bucket/file/generate/link */
export const GenerateLinkSchema = z.strictObject({
  fileId: id,
  mobileNumber: mobileNumber.optional(),
  expireTime: expireTime.optional(),
});

// Query parameters arrive as strings; these turn them into the values the lists use.

function intParam(min: number, max: number) {
  return z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
}

export type SortBy = { field: string; direction: 'asc' | 'desc' };

function sortByParam(fields: readonly string[]) {
  const pattern = /^([A-Za-z_]+)(?::(asc|desc))?$/;
  return z
    .string()
    .refine(
      (value) => {
        const match = pattern.exec(value);
        return match !== null && fields.includes(match[1] ?? '');
      },
      `must be <field>[:asc|:desc] with field one of ${fields.join(', ')}`,
    )
    .transform((value): SortBy => {
      const [field = '_id', direction] = value.split(':');
      return { field, direction: direction === 'desc' ? 'desc' : 'asc' };
    });
}

function listOf<T extends z.ZodType<string, string>>(item: T) {
  return z
    .string()
    .transform((value) => value.split(',').map((part) => part.trim()))
    .pipe(z.array(item).min(1, 'must not be empty'));
}

const paging = {
  limit: intParam(1, 100).optional(),
  currentPage: intParam(1, 1_000_000).optional(),
};

export const FolderListQuerySchema = z.strictObject({
  ...paging,
  sortBy: sortByParam(['_id', 'title', 'createdAt', 'filesCount']).optional(),
});
export const FolderInfoQuerySchema = z.strictObject({ bucketId: id });

export const FileListQuerySchema = z.strictObject({
  ...paging,
  sortBy: sortByParam(['_id', 'title', 'createdAt', 'size', 'hlsStatus']).optional(),
  bucketId: id.optional(),
  hlsStatus: z.enum(HLS_STATUSES, { error: `must be one of ${HLS_STATUSES.join(', ')}` }).optional(),
  listOfId: listOf(id).optional(),
});
export const FileInfoQuerySchema = z.strictObject({
  fileId: id,
  basedOn: z.enum(['_id', 'fileId'], { error: 'must be _id or fileId' }).optional(),
});

export const PlaylistListQuerySchema = z.strictObject({
  ...paging,
  sortBy: sortByParam(['_id', 'title', 'createdAt']).optional(),
});
export const PlaylistInfoQuerySchema = z.strictObject({ playlistId: id });

export const ViewerListQuerySchema = z.strictObject({
  ...paging,
  sortBy: sortByParam(['mobileNumber', 'lastSeenAt', 'errorCount', 'actionType']).optional(),
  search: listOf(mobileNumber).optional(),
  actionType: listOf(z.enum(ACTION_TYPES, { error: `must be one of ${ACTION_TYPES.join(', ')}` })).optional(),
  timeSeries: z.enum(['7', '30', '90'], { error: 'must be 7, 30 or 90' }).transform(Number).optional(),
});

/** Paging and order shared by every list. */
export type ListQuery = {
  limit?: number | undefined;
  currentPage?: number | undefined;
  sortBy?: SortBy | undefined;
};

/** Parses `value` with `schema` or throws the 400 of its first problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value, { error: describeIssue });
  if (result.success) return result.data;
  const issue = firstIssue(result.error.issues);
  throw badRequest(fieldOf(issue), issue.message);
}

/** Parses a query string: a repeated parameter is refused, the rest goes through `schema`. */
export function parseQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  const values: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name in values) throw badRequest(name, 'must be given once');
    values[name] = value;
  }
  return parseInput(schema, values);
}

type Issue = z.core.$ZodIssue;

// An unknown field is usually a misspelt known one, so it is named before what it left missing.
function firstIssue(issues: readonly Issue[]): Issue {
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  const first = unknown ?? issues[0];
  if (first === undefined) throw new Error('validation failed without an issue');
  return first;
}

/** `['files', 0, '_id']` → `files[0]._id`; the body itself is `body`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? 'body' : out;
}

function fieldOf(issue: Issue): string {
  if (issue.code === 'unrecognized_keys') return formatPath([...issue.path, issue.keys[0] ?? '']);
  return formatPath(issue.path);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function describeIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    case 'unrecognized_keys':
      return 'unknown field';
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${issue.minimum} characters`
        : issue.origin === 'array'
          ? `must have at least ${issue.minimum} items`
          : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : issue.origin === 'array'
          ? `must have at most ${issue.maximum} items`
          : `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return 'is not valid';
  }
}
