import { isIP } from 'node:net';
import { z } from 'zod';
import {
  CONFIRM_AND_ONE_LEAD,
  command,
  type Endpoint,
  ID_NAMES,
  operation,
} from '../../core/operation-spec.js';
import type { ProtectionConfig } from '../../core/protection.js';
import type { ResourceKind } from '../../core/validate/ids.js';
import { idRule } from '../../core/validate/ids.js';
import { MobileParamSchema } from '../../core/validate/phone.js';
import { ProtectionConfigSchema } from '../../core/validate/protection.js';

/**
 * The pieces of the catalog entries that several operations share: the schemas of IDs, titles,
 * addresses and covers, the preview shapes of creates, edits and deletes, and the whole entry of
 * a delete (the three deletes differ only in their words and what their preview says).
 * Pure, like src/core: no I/O.
 * @see docs/architecture.md, "The operation catalog"
 */

// Values shared by several operations. Stored parameters are already clean: a params schema
// checks, it never rewrites (the params hash binds approvals to them).

/** A folder, file or playlist ID: the one rule of what an ID is (core/validate/ids.ts). */
export const ResourceIdSchema = idRule(z.string());

export const TitleSchema = z
  .string()
  .min(1, 'must not be empty')
  .refine((s) => s.trim() !== '', 'must not be blank');

export const IpLiteralSchema = z
  .string()
  .refine((s) => isIP(s) !== 0 && !s.includes('%'), 'must be an IPv4 or IPv6 address');

export const PlaylistEntrySchema = z.strictObject({
  _id: ResourceIdSchema,
  title: z.string().exactOptional(),
});

/** A cover image as the Slack layer knows it: a Slack file, downloaded only at execution. */
export const CoverSchema = z.strictObject({
  slackFileId: z.string().min(1),
  filename: z.string().min(1),
  contentType: z.string().regex(/^image\//, 'must be an image type'),
  url: z.url(),
});
export type CoverRef = z.output<typeof CoverSchema>;

// Named input fields (modal inputs, CLI flags), read from what a person typed: trimmed, and an
// empty optional field is no field.
export const TitleField = z.string().trim().min(1, 'must not be empty');
export const OptionalText = z
  .string()
  .transform((s) => s.trim() || undefined)
  .optional();
export const PlaylistEntryField = z.strictObject({
  _id: ResourceIdSchema,
  title: OptionalText,
});

/** Words-given values are read by the grammar's functions; the schema names their type. */
export const WordsGiven = {
  id: ResourceIdSchema,
  ips: z.array(IpLiteralSchema),
  mobileNumber: MobileParamSchema,
  changes: z.custom<ProtectionConfig>((value) => ProtectionConfigSchema.safeParse(value).success),
};

// Previews: what approvers see before deciding, built by `prepare`. Old requests kept a preview
// of the same shapes; one that does not parse is shown as "preview not available".
export const Known = z.string().nullable();
export const ProtectionScalar = z.union([z.string(), z.number(), z.boolean()]);
export const EntryPreview = z.object({ _id: z.string(), title: z.string().exactOptional() });

export function createPreview<const R extends ResourceKind, S extends z.ZodRawShape>(resource: R, after: S) {
  return z.object({ kind: z.literal('create'), resource: z.literal(resource), after: z.object(after) });
}

export function editPreview<const R extends ResourceKind, B extends z.ZodRawShape, A extends z.ZodRawShape>(
  resource: R,
  before: B,
  after: A,
) {
  return z.object({
    kind: z.literal('edit'),
    resource: z.literal(resource),
    id: z.string(),
    /** Null when the current values could not be read. */
    before: z.object(before).nullable(),
    after: z.object(after),
  });
}

export function deletePreview<const R extends ResourceKind, S extends z.ZodRawShape>(resource: R, known: S) {
  return z.object({ kind: z.literal('delete'), resource: z.literal(resource), id: z.string(), ...known });
}

/**
 * A delete: for good, sent again only by a lead (a repeat answers 404), confirmed by typing the
 * ID; it names the one ID it acts on, and its preview says what the look-up found of it.
 */
export function deleteOperation<
  const O extends string,
  const R extends ResourceKind,
  S extends z.ZodRawShape,
>(spec: {
  name: O;
  title: string;
  fa: { title: string; cli: string; summary: string };
  /** Its endpoint's number and path: a delete is a DELETE with a JSON body, sent again only by a lead. */
  endpoint: Pick<Endpoint, 'specOp' | 'path'>;
  resource: R;
  summary: string;
  /** What the preview says of the record when the look-up found it. */
  found: S;
}) {
  const { name, resource } = spec;
  const id: IdName<R> = ID_NAMES[resource];
  return operation({
    name,
    title: spec.title,
    fa: { title: spec.fa.title, cli: spec.fa.cli },
    endpoint: { ...spec.endpoint, method: 'DELETE', body: 'json', repeat: 'lead' },
    risk: 'irreversible',
    undo: 'none',
    commands: [
      command({
        kind: name,
        words: [resource, 'delete'],
        args: { kind: 'id', resource },
        summary: spec.summary,
        fa: { summary: spec.fa.summary },
        example: `/vidops ${resource} delete 671018d0403eba579a6f90e2`,
      }),
    ],
    input: z.strictObject(idShape(resource, WordsGiven.id)),
    fields: [],
    params: z.strictObject(idShape(resource, ResourceIdSchema)),
    preview: deletePreview(resource, spec.found),
    target: (p) => ({ kind: resource, id: idIn(p, id) }),
    confirm: (i) => idIn(i, id),
    policy: CONFIRM_AND_ONE_LEAD,
  });
}

type IdName<R extends ResourceKind> = (typeof ID_NAMES)[R];

/** The ID in a delete's input or parameters (an object of that one ID; zod's generic type hides it). */
function idIn(value: object, id: string): string {
  return (value as Record<string, string>)[id] ?? '';
}

/** `{ bucketId: schema }` for a folder, `{ fileId: schema }` for a file… */
function idShape<R extends ResourceKind, T extends z.ZodType>(resource: R, schema: T) {
  return { [ID_NAMES[resource]]: schema } as { [K in IdName<R>]: T };
}
