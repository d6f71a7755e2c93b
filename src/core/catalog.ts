import type { z } from 'zod';
import { SPECS } from '../operations/specs.js';
import { InputError } from './errors.js';
import type { OperationRequest, RequestFields } from './model.js';
import { type OperationSpec, storedTarget, type Target, targetText } from './operation-spec.js';
import type { OperationName, ReadOperation } from './operations.js';
import { say } from './said.js';

export type { CoverRef } from '../operations/common/spec.js';
export * from './operation-spec.js';

/**
 * The operation catalog: every change operation's entry, the one source of truth every surface
 * reads. Each entry lives in its operation's module (`src/operations/<name>/spec.ts`, the parts
 * in ./operation-spec.ts); `SPECS` lists them, and this module types them and reads requests
 * with them. What needs the API client (prepare, execute) is each module's `service.ts`; what
 * people see of it, its `views.ts`.
 * @see docs/architecture.md, "The operation catalog"
 * @see docs/api.md, "Endpoints"
 */

/**
 * Every change operation, in the order of the spec's endpoint table. The key is the operation's
 * name; `checkNames` makes a key and its entry's `name` agree.
 */
export const CATALOG = checkNames(SPECS);

function checkNames<T extends { [K in keyof T]: OperationSpec<K & string> }>(catalog: T): T {
  return catalog;
}

type Catalog = typeof CATALOG;

/** Every command that asks for a change, with its literal kind and words spec. */
export type ChangeCommand = Catalog[keyof Catalog]['commands'][number];

/** Names of the operations vidops performs; the numbers of `docs/api.md`, the extras of `docs/api-extras.md`. */
export type ChangeOperation = keyof Catalog;
export const CHANGE_OPERATIONS = Object.keys(CATALOG) as [ChangeOperation, ...ChangeOperation[]];

/** What a person gives for each operation, typed (see `OperationSpec.input`). */
export type OperationInput = { [O in ChangeOperation]: z.output<Catalog[O]['input']> };
/** The typed parameters of each operation. */
export type OperationParams = { [O in ChangeOperation]: z.output<Catalog[O]['params']> };
/** The typed preview of each operation. */
export type OperationPreview = { [O in ChangeOperation]: z.output<Catalog[O]['preview']> };
export type Preview<O extends ChangeOperation = ChangeOperation> = OperationPreview[O];

/** An entry with its types spelt out, so that a generic `O` indexes it. */
export interface Spec<O extends ChangeOperation>
  extends Omit<OperationSpec<O>, 'input' | 'fields' | 'params' | 'preview' | 'target' | 'confirm'> {
  input: z.ZodType<OperationInput[O]> & z.ZodObject;
  fields: readonly string[];
  params: z.ZodType<OperationParams[O]>;
  preview: z.ZodType<OperationPreview[O]>;
  target(params: OperationParams[O]): Target;
  confirm(input: OperationInput[O]): string;
}

/** The catalog, typed for generic access (`OPERATION_SPECS[op]` for `op: O`). */
export const OPERATION_SPECS: { readonly [O in ChangeOperation]: Spec<O> } = CATALOG;

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

export function isChangeOperation(name: string): name is ChangeOperation {
  return Object.hasOwn(CATALOG, name);
}

/** Title of any operation, change or read. */
export function operationTitle(name: OperationName): string {
  return isChangeOperation(name) ? OPERATION_SPECS[name].title : READ_OPERATION_TITLES[name];
}

/** `field.sub: message` for each zod issue. */
function issueLines(error: z.ZodError): string[] {
  return error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
  );
}

/**
 * The typed parameters of `operation` read from JSON (a stored request, a form's draft), or
 * InputError listing every problem (`allowedDNS.1: must be an IPv4 or IPv6 address`).
 */
export function parseParams<O extends ChangeOperation>(operation: O, params: unknown): OperationParams[O] {
  const spec: Spec<O> = OPERATION_SPECS[operation];
  const result = spec.params.safeParse(params);
  if (result.success) return result.data;
  const issues = issueLines(result.error);
  throw new InputError(say.paramsInvalid(operation, spec.title, issues), issues);
}

/** The typed preview of `operation` read from JSON; null when it is not one (a request of an older build). */
export function parsePreview<O extends ChangeOperation>(operation: O, preview: unknown): Preview<O> | null {
  const spec: Spec<O> = OPERATION_SPECS[operation];
  const result = spec.preview.safeParse(preview);
  return result.success ? result.data : null;
}

/** What a request acts on, typed, from its parameters. */
export function requestTarget<O extends ChangeOperation>(operation: O, params: OperationParams[O]): Target {
  const spec: Spec<O> = OPERATION_SPECS[operation];
  return spec.target(params);
}

/**
 * What a stored request or event acts on, typed: from its operation and parameters where they
 * give it, else from the text stored with it (which stays as it was: the hash chain covers it).
 */
export function targetOf(operation: string, params: unknown, stored: string): Target {
  if (!isChangeOperation(operation)) return storedTarget(stored);
  const parsed = OPERATION_SPECS[operation].params.safeParse(params);
  return parsed.success ? requestTarget(operation, parsed.data) : storedTarget(stored);
}

/** The target text of a request as stored (`folder 6710…`), from its typed parameters. */
export function operationTarget<O extends ChangeOperation>(operation: O, params: OperationParams[O]): string {
  return targetText(requestTarget(operation, params));
}

/**
 * A stored request read back, typed: its parameters parsed with its operation's schema (they were
 * checked when asked, so a failure means the row was altered: it throws, naming the request), its
 * preview parsed too (a preview of an older shape reads as null: "preview not available").
 * @see docs/architecture.md, "The operation catalog"
 */
export function readRequest(
  stored: RequestFields & { operation: string; params: unknown; preview: unknown },
): OperationRequest {
  const { operation, params, preview, ...fields } = stored;
  if (!isChangeOperation(operation)) {
    throw new InputError(say.storedUnknownOperation(stored.id, operation));
  }
  return typedRequest(operation, fields, params, preview);
}

function typedRequest<O extends ChangeOperation>(
  operation: O,
  fields: RequestFields,
  params: unknown,
  preview: unknown,
): OperationRequest<O> {
  let typed: OperationParams[O];
  try {
    typed = parseParams(operation, params);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const { title } = OPERATION_SPECS[operation];
    throw new InputError(say.storedParamsInvalid(fields.id, operation, title, error.issues), error.issues);
  }
  return { ...fields, operation, params: typed, preview: parsePreview(operation, preview) };
}
