import { failureOf, NotFoundError } from '../../client/errors.js';
import type { Answer, VideoClient } from '../../client/types.js';
import type { BatchCounts, BatchStep, StepEnd } from '../../core/batch.js';
import type {
  ChangeOperation,
  CoverRef,
  OperationInput,
  OperationParams,
  Preview,
} from '../../core/catalog.js';
import { InputError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json.js';
import { type LookedUp, type Said, say } from '../../core/said.js';
import type { PutBackConflict, Undo } from '../../core/time-box.js';
import { idShapeWarning } from '../../core/validate/ids.js';
import { english } from '../../i18n/said.js';

/**
 * What every operation's service is made of: `prepare` (from what a person asked, typed by the
 * edge that read it, to the exact parameters sent and the preview approvers see, reading the
 * upstream where the change depends on what is there), `execute` (the one place a request
 * becomes an upstream call) and, for deletes, the look-up of "Check now". Look-ups of the
 * read-only extras (info, lists, viewer search) add information and never veto: any failure is a
 * warning naming it, and the operation's own endpoint judges. Only a 404 of an extra the service
 * has shown to work (the client learns it) means "no such record".
 * @see docs/architecture.md, "The operation catalog", "Validation" and "Approvals"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

/**
 * What prepare may use: the API client, whether a cover image can be fetched at execution, and
 * which of some numbers the repeat rule holds for a lead (the viewer history, src/services/viewers.ts).
 */
export interface PrepareIo {
  client: VideoClient;
  canFetchCover: boolean;
  repeatViewers(mobileNumbers: readonly string[]): Promise<string[]>;
}

/** What execution may use: the API client, and the download of a cover image (Slack or a file). */
export interface ExecuteIo {
  client: VideoClient;
  fetchCover: ((cover: CoverRef) => Promise<Uint8Array>) | undefined;
  /** A run taken over after its process stopped: its first send may have reached the service. */
  resumed?: boolean;
  /** The steps of a batch's request (`viewer.unblock-many`), in the store. */
  batch?: BatchIo;
}

/**
 * What a batch's run records of each number (src/core/batch.ts): its steps so far, a step taken
 * before its number is sent (false: another run has it), its end (false: no longer this run's),
 * and the progress to show as it goes.
 */
export interface BatchIo {
  steps(): Promise<BatchStep[]>;
  /** Keeps the run's claim fresh while it is alive; false when another run took it over. */
  renew(): Promise<boolean>;
  begin(index: number, mobileNumber: string): Promise<boolean>;
  /** `failure`: what the send threw (recorded as the step's error), absent when it was done. */
  end(index: number, mobileNumber: string, to: StepEnd, failure?: unknown): Promise<boolean>;
  progress(counts: BatchCounts): void;
}

/** What an operation's prepare gives: its parameters, its preview, and soft problems met. */
export interface Drafted<O extends ChangeOperation> {
  params: OperationParams[O];
  preview: Preview<O>;
  warnings: Said[];
}

/** One operation's prepare. */
export type PrepareFn<O extends ChangeOperation> = (
  input: OperationInput[O],
  io: PrepareIo,
) => Promise<Drafted<O>>;

/** One operation's service: how it is prepared, sent, and (deletes) looked up. */
export interface OperationService<O extends ChangeOperation> {
  prepare: PrepareFn<O>;
  /** Sends the typed parameters (parsed once, when the request was read from the store). */
  execute(params: OperationParams[O], io: ExecuteIo): Promise<Answer>;
  /**
   * Looks the target up for "Check now" on an unknown outcome: resolves when it is still there,
   * throws NotFoundError when it is gone. Absent where a look-up cannot tell (creates, edits).
   */
  lookUp?(params: OperationParams[O], client: VideoClient): Promise<unknown>;
  /**
   * What the change replaces and sets, recorded when it is sent (read just before, where the old
   * values are on the service): what a put-back or a Revert undoes. Present exactly where the
   * spec's `undo` is not `none`.
   * @see docs/time-boxed.md, "What goes back"
   */
  undo?(params: OperationParams[O], preview: Preview<O> | null, io: ExecuteIo): Promise<Undo>;
  /**
   * The inverse of a done change from its `undo` and what the service shows now: the input of
   * the request that undoes it (null when nothing is left to undo), and what stays because it
   * changed since.
   */
  inverse?(undo: Undo, io: PrepareIo): Promise<Inverse<O>>;
  /**
   * An Extend of a time-boxed change: the values it set, set again for a new window, and the
   * preview approvers see. Present exactly where the spec's `undo` is `time-box`.
   */
  again?(undo: Undo, io: PrepareIo): Promise<Omit<Drafted<O>, 'warnings'>>;
}

/** What undoing a change asks for: the input of a new request, or null; and what it leaves. */
export interface Inverse<O extends ChangeOperation> {
  input: OperationInput[O] | null;
  conflicts: PutBackConflict[];
}

/**
 * The undo of a change of one record's fields (an edit): its preview's before (what the look-up
 * saw) and after (what was sent); without a preview, only what was sent.
 */
export function recordUndo(
  resource: 'folder' | 'file' | 'playlist',
  id: string,
  preview: { before: unknown; after: unknown } | null,
  params: unknown,
): Undo {
  const json = (value: unknown): JsonValue => JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
  return {
    kind: 'record',
    resource,
    id,
    before: json(preview?.before),
    after: json(preview?.after ?? params),
  };
}

/**
 * The input that puts a record's fields back as the look-up saw them before, read by the
 * operation's own input schema; refused when vidops never saw them (the service could not say).
 */
export function recordInverse<O extends ChangeOperation>(
  spec: { input: { safeParse(v: unknown): { success: true; data: unknown } | { success: false } } },
  undo: Undo,
  build: (before: Record<string, unknown>, id: string) => Record<string, unknown>,
): Inverse<O> {
  const before = undo.kind === 'record' ? undo.before : null;
  if (undo.kind !== 'record' || before === null || typeof before !== 'object' || Array.isArray(before)) {
    throw new InputError(say.revertBeforeUnknown());
  }
  const read = spec.input.safeParse(build(before, undo.id));
  if (!read.success) throw new InputError(say.revertBeforeUnknown());
  return { input: read.data as OperationInput[O], conflicts: [] };
}

/** An operation's service, named after its catalog entry (for the table built from the list). */
export function serviceOf<const O extends ChangeOperation>(
  spec: { name: O },
  service: OperationService<O>,
): OperationService<O> & { name: O } {
  return { name: spec.name, ...service };
}

/** The ID's shape warning, when it does not look like the service's IDs (the edge read it already). */
export function noteId(id: string, kind: 'folder' | 'file' | 'playlist', warnings: Said[]): void {
  const warning = idShapeWarning(id, kind);
  if (warning !== null && !warnings.some((w) => english(w) === english(warning))) warnings.push(warning);
}

/** The warning of a look-up that could not be done: "Could not look the file up: the service answered 404." */
export function lookUpWarning(what: LookedUp, error: unknown): Said {
  return say.warnLookUp(what, failureOf(error));
}

/**
 * An optional look-up: `null` with a warning when it fails in any way; a NotFoundError (which the
 * client gives only once the route is known to work) is the person's mistake (InputError).
 */
export async function lookUp<T>(
  what: LookedUp,
  run: () => Promise<T>,
  warnings: Said[],
  missing: Said,
): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof NotFoundError) throw new InputError(missing);
    warnings.push(lookUpWarning(what, error));
    return null;
  }
}

/** The record an edit, delete or retry acts on, when it can be looked up (its ID's shape noted). */
export function lookUpRecord<T>(
  kind: 'folder' | 'file' | 'playlist',
  id: string,
  run: () => Promise<T>,
  warnings: Said[],
): Promise<T | null> {
  noteId(id, kind, warnings);
  return lookUp(kind, run, warnings, say.prepNotThere(kind, id));
}

/** `{ description }` when there is one: an absent description is no member at all. */
export function withDescription(description: string | undefined): { description?: string } {
  return description === undefined ? {} : { description };
}

/** Entries as a preview shows them: a title only when there is one. */
export function entries(files: readonly { _id: string; title?: string | undefined }[]) {
  return files.map((f) => (f.title === undefined ? { _id: f._id } : { _id: f._id, title: f.title }));
}
