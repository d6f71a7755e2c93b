import { isIP } from 'node:net';
import { z } from 'zod';
import { InputError } from './errors.js';
import {
  type ChangeOperation,
  isChangeOperation,
  type OperationName,
  type ReadOperation,
} from './operations.js';
import { ipKey } from './validate/ip.js';
import { MobileParamSchema } from './validate/phone.js';
import { flattenProtection, ProtectionConfigSchema } from './validate/protection.js';

/**
 * The operations catalog: for each change operation, its title, spec operation number, risk,
 * whether repeating it is harmless, the schema of the parameters a request stores (exactly what
 * execution sends), and the human-readable target.
 * @see docs/api.md, "Endpoints"
 * @see docs/architecture.md, "Approvals"
 */

/** `reversible`: can be put back; `sensitive`: changes security for every viewer; `irreversible`: deletes. */
export type OperationRisk = 'reversible' | 'sensitive' | 'irreversible';

/**
 * What may happen when nobody can tell whether a send took effect (vidops stopped while it ran,
 * or the answer was lost after sending):
 * - `resume`: vidops sends it again by itself; a second send gives the same end state and the
 *   same answer (edits, unblock, whitelist set, settings update);
 * - `lead`: never again on its own, because a repeat answers 404 (deletes); the request goes to
 *   `unknown` and a lead may send it again, a 404 to that repeat meaning "already deleted";
 * - `never`: a second send could do the work twice (creates, retry-conversion); the request goes
 *   to `unknown` and a lead settles it by looking at the service.
 */
export type RepeatRule = 'resume' | 'lead' | 'never';

// Stored parameters are already clean: a schema here checks, it never rewrites (the params hash
// binds approvals to them).
const ResourceIdSchema = z
  .string()
  .min(1, 'must not be empty')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused in IDs.
  .regex(/^[^\s/\u0000-\u001f\u007f]+$/, 'must have no spaces, slashes or control characters')
  // `.` and `..` in a URL path would change the route the call goes to.
  .refine((id) => !/^\.+$/.test(id), 'must not be made only of dots');

const TitleSchema = z
  .string()
  .min(1, 'must not be empty')
  .refine((s) => s.trim() !== '', 'must not be blank');

const IpLiteralSchema = z
  .string()
  .refine((s) => isIP(s) !== 0 && !s.includes('%'), 'must be an IPv4 or IPv6 address');

const PlaylistEntrySchema = z.strictObject({
  _id: ResourceIdSchema,
  title: z.string().exactOptional(),
});

const CoverSchema = z.strictObject({
  slackFileId: z.string().min(1),
  filename: z.string().min(1),
  contentType: z.string().regex(/^image\//, 'must be an image type'),
  url: z.url(),
});

/** Parameter schemas, one per change operation (strict: unknown members are refused). */
export const PARAMS_SCHEMAS = {
  'whitelist.set': z.strictObject({
    allowedDNS: z
      .array(IpLiteralSchema)
      .refine((ips) => new Set(ips.map(ipKey)).size === ips.length, 'must not list an address twice'),
    /** The list as read when the request was made; execution refuses if it changed since. */
    expectBefore: z.array(z.string()),
  }),
  'protect.set': z.strictObject({
    changes: ProtectionConfigSchema.refine(
      (changes) => flattenProtection(changes).length > 0,
      'must change at least one setting',
    ),
  }),
  'folder.create': z.strictObject({
    title: TitleSchema,
    description: z.string().exactOptional(),
  }),
  'folder.edit': z.strictObject({
    bucketId: ResourceIdSchema,
    title: TitleSchema,
    description: z.string().exactOptional(),
  }),
  'folder.delete': z.strictObject({ bucketId: ResourceIdSchema }),
  'file.edit': z.strictObject({
    fileId: ResourceIdSchema,
    title: TitleSchema,
    description: z.string().exactOptional(),
    cover: CoverSchema.exactOptional(),
  }),
  'file.delete': z.strictObject({ fileId: ResourceIdSchema }),
  'file.retry': z.strictObject({ fileId: ResourceIdSchema }),
  'playlist.edit': z
    .strictObject({
      playlistId: ResourceIdSchema,
      title: TitleSchema.exactOptional(),
      files: z.array(PlaylistEntrySchema).exactOptional(),
    })
    .refine((p) => p.title !== undefined || p.files !== undefined, 'must change the title or the files'),
  'playlist.delete': z.strictObject({ playlistId: ResourceIdSchema }),
  'viewer.unblock': z.strictObject({
    // As parseMobile gives it: national digits (`09123456789`) or E.164 for another region.
    mobileNumber: MobileParamSchema,
  }),
} as const satisfies Record<ChangeOperation, z.ZodType>;

/** The typed parameters of each change operation. */
export type OperationParams = { [O in ChangeOperation]: z.output<(typeof PARAMS_SCHEMAS)[O]> };

export interface OperationSpec<O extends ChangeOperation = ChangeOperation> {
  name: O;
  /** Imperative title people read: `Unblock viewer`. */
  title: string;
  /** Operation number in the spec's endpoint table. */
  specOp: number;
  risk: OperationRisk;
  /** Whether vidops, or a lead, may send it again when its outcome is not known. */
  repeat: RepeatRule;
  paramsSchema: z.ZodType<OperationParams[O]>;
  /** What the operation acts on, for people: `viewer 09123456789`, `whitelist`. */
  target(params: OperationParams[O]): string;
}

/** @see docs/architecture.md, "Approvals" (which operations are resumed after a crash) */
export const OPERATION_SPECS: { readonly [O in ChangeOperation]: OperationSpec<O> } = {
  'whitelist.set': {
    name: 'whitelist.set',
    title: 'Update whitelist',
    specOp: 1,
    risk: 'sensitive',
    repeat: 'resume',
    paramsSchema: PARAMS_SCHEMAS['whitelist.set'],
    target: () => 'whitelist',
  },
  'protect.set': {
    name: 'protect.set',
    title: 'Change protection settings',
    specOp: 3,
    risk: 'sensitive',
    repeat: 'resume',
    paramsSchema: PARAMS_SCHEMAS['protect.set'],
    target: () => 'protection settings',
  },
  'folder.create': {
    name: 'folder.create',
    title: 'Create folder',
    specOp: 5,
    risk: 'reversible',
    repeat: 'never',
    paramsSchema: PARAMS_SCHEMAS['folder.create'],
    target: (p) => `new folder "${p.title}"`,
  },
  'folder.edit': {
    name: 'folder.edit',
    title: 'Edit folder',
    specOp: 6,
    risk: 'reversible',
    repeat: 'resume',
    paramsSchema: PARAMS_SCHEMAS['folder.edit'],
    target: (p) => `folder ${p.bucketId}`,
  },
  'folder.delete': {
    name: 'folder.delete',
    title: 'Delete folder',
    specOp: 7,
    risk: 'irreversible',
    repeat: 'lead',
    paramsSchema: PARAMS_SCHEMAS['folder.delete'],
    target: (p) => `folder ${p.bucketId}`,
  },
  'file.edit': {
    name: 'file.edit',
    title: 'Edit file',
    specOp: 8,
    risk: 'reversible',
    repeat: 'resume',
    paramsSchema: PARAMS_SCHEMAS['file.edit'],
    target: (p) => `file ${p.fileId}`,
  },
  'file.delete': {
    name: 'file.delete',
    title: 'Delete file',
    specOp: 9,
    risk: 'irreversible',
    repeat: 'lead',
    paramsSchema: PARAMS_SCHEMAS['file.delete'],
    target: (p) => `file ${p.fileId}`,
  },
  'file.retry': {
    name: 'file.retry',
    title: 'Retry conversion',
    specOp: 10,
    risk: 'reversible',
    repeat: 'never',
    paramsSchema: PARAMS_SCHEMAS['file.retry'],
    target: (p) => `file ${p.fileId}`,
  },
  'playlist.edit': {
    name: 'playlist.edit',
    title: 'Edit playlist',
    specOp: 11,
    risk: 'reversible',
    repeat: 'resume',
    paramsSchema: PARAMS_SCHEMAS['playlist.edit'],
    target: (p) => `playlist ${p.playlistId}`,
  },
  'playlist.delete': {
    name: 'playlist.delete',
    title: 'Delete playlist',
    specOp: 12,
    risk: 'irreversible',
    repeat: 'lead',
    paramsSchema: PARAMS_SCHEMAS['playlist.delete'],
    target: (p) => `playlist ${p.playlistId}`,
  },
  'viewer.unblock': {
    name: 'viewer.unblock',
    title: 'Unblock viewer',
    specOp: 13,
    risk: 'reversible',
    repeat: 'resume',
    paramsSchema: PARAMS_SCHEMAS['viewer.unblock'],
    target: (p) => `viewer ${p.mobileNumber}`,
  },
};

/** Titles of the read-only operations (spec ops 2 and 4, and the documented extras). */
export const READ_OPERATION_TITLES: Readonly<Record<ReadOperation, string>> = {
  'whitelist.get': 'Show whitelist',
  'protect.get': 'Show protection settings',
  'folder.list': 'List folders',
  'folder.info': 'Show folder',
  'file.list': 'List files',
  'file.info': 'Show file',
  'playlist.info': 'Show playlist',
  'playlist.list': 'List playlists',
  'viewer.lookup': 'Look up viewer',
};

/** Title of any operation, change or read. */
export function operationTitle(name: OperationName): string {
  return isChangeOperation(name) ? OPERATION_SPECS[name].title : READ_OPERATION_TITLES[name];
}

/**
 * The typed parameters of `operation`, or InputError listing every problem
 * (`allowedDNS.1: must be an IPv4 or IPv6 address`).
 */
export function parseParams<O extends ChangeOperation>(operation: O, params: unknown): OperationParams[O] {
  const spec: OperationSpec<O> = OPERATION_SPECS[operation];
  const result = spec.paramsSchema.safeParse(params);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
  );
  throw new InputError(`The parameters of "${spec.title}" are not valid: ${issues.join('; ')}`, issues);
}

/** The target text of a request, from its parameters (validated on the way). */
export function operationTarget<O extends ChangeOperation>(operation: O, params: unknown): string {
  const spec: OperationSpec<O> = OPERATION_SPECS[operation];
  return spec.target(parseParams(operation, params));
}
