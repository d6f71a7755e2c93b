import type { KnownBlock, ModalView } from '@slack/types';
import { z } from 'zod';
import {
  CHANGE_OPERATIONS,
  type ChangeOperation,
  OPERATION_SPECS,
  parsePreview,
  type Spec,
} from '../../core/catalog.js';
import type { JsonValue } from '../../core/json.js';
import { type Said, say } from '../../core/said.js';
import { normalizeDigits } from '../../core/validate/digits.js';
import type { ResourceKind } from '../../core/validate/ids.js';
import { type Lang, ltr } from '../../i18n/index.js';
import type { Prepared } from '../../services/types.js';
import { previewSections } from '../approval.js';
import { isolateOutside, plain, safeWorded, section } from '../blocks.js';
import { sayIn } from '../errors.js';
import { BLOCKS, CALLBACKS } from '../ids.js';
import {
  type ConfirmedSubmission,
  draftMetadata,
  type FieldErrors,
  modal,
  reasonInput,
  reasonProblem,
  textInput,
  type ViewState,
} from './common.js';

/**
 * The typed confirmation of a delete: the modal shows what will be deleted (title, and for a
 * folder how many files go with it), says it cannot be undone, and asks for a reason and for the
 * ID (or the exact title, when known) typed out; when the look-up could not be done only the ID is
 * shown and asked for. The prepared request, what must be typed and who opened the modal stay on
 * the server as a draft (`deleteDraft`); `private_metadata` holds only the draft's ID, and the
 * services check the parameters again on submit.
 * @see docs/architecture.md, "Approvals" (typed confirmation)
 */

const JsonSchema: z.ZodType<JsonValue> = z.json();

/** A prepared change as a draft keeps it: read back typed, with its operation's schemas. */
export const PreparedDraftSchema = z
  .strictObject({
    operation: z.enum(CHANGE_OPERATIONS),
    params: JsonSchema,
    target: z.string(),
    preview: JsonSchema,
    warnings: z.array(z.string()).optional(),
    /** Set on the inverse of a done change (a Revert…, src/views/modals/time-box.ts). */
    revertOf: z.strictObject({ id: z.string(), kind: z.enum(['put-back', 'revert']) }).optional(),
  })
  .transform((stored, context): Prepared => {
    const prepared = typedPrepared(stored.operation, stored.params, stored.target, stored.preview);
    if (prepared === null) {
      context.addIssue({ code: 'custom', message: 'not a prepared change of its operation' });
      return z.NEVER;
    }
    return stored.revertOf === undefined ? prepared : { ...prepared, revertOf: stored.revertOf };
  });

function typedPrepared<O extends ChangeOperation>(
  operation: O,
  params: unknown,
  target: string,
  preview: unknown,
): Prepared<O> | null {
  const spec: Spec<O> = OPERATION_SPECS[operation];
  const readParams = spec.params.safeParse(params);
  const readPreview = parsePreview(operation, preview);
  if (!readParams.success || readPreview === null) return null;
  const prepared: Prepared<O> = {
    operation,
    params: readParams.data,
    target,
    preview: readPreview,
    warnings: [],
  };
  return prepared;
}

/** The server's copy of a delete modal: what will be deleted and what must be typed. */
export const DeleteDraftSchema = z.strictObject({
  prepared: PreparedDraftSchema,
  /** What must be typed: the ID; null when the policy wants no typed confirmation. */
  confirm: z.string().min(1).nullable(),
  /** Also accepted when known: the exact title. */
  title: z.string().nullable(),
});

export type DeleteDraft = z.output<typeof DeleteDraftSchema>;

/** A delete draft as stored: plain JSON, without the warnings (sentences shown in the modal). */
export type StoredDeleteDraft = Omit<DeleteDraft, 'prepared'> & {
  prepared: Omit<Prepared, 'warnings'> & { warnings: [] };
};

/** The draft as JSON to store (its warnings are empty already). */
export function storedDeleteDraft(draft: DeleteDraft): StoredDeleteDraft {
  return { ...draft, prepared: { ...draft.prepared, warnings: [] } };
}

/** Titles longer than this are not offered as the confirmation: nobody types them exactly. */
const TITLE_CONFIRM_MAX = 200;

/** The title offered as a confirmation, or null when there is none fit to type. */
function confirmableTitle(title: string | null): string | null {
  return title !== null && title.trim() !== '' && title.length <= TITLE_CONFIRM_MAX ? title : null;
}

/**
 * What the server keeps of a prepared delete while its modal is open: stored as JSON, read back
 * with {@link DeleteDraftSchema}. The warnings were shown in the modal; they are not kept.
 */
export function deleteDraft(options: {
  prepared: Prepared;
  confirm: string | null;
  title: string | null;
}): DeleteDraft {
  return {
    prepared: { ...options.prepared, warnings: [] },
    confirm: options.confirm,
    title: confirmableTitle(options.title),
  };
}

/** The title of what a prepared delete removes, when the look-up found it. */
export function deletedTitle(prepared: Prepared): string | null {
  const { preview } = prepared;
  return preview.kind === 'delete' ? preview.title : null;
}

/** The title of a delete modal: `Delete folder`; another operation keeps its catalog title. */
export function deleteTitleOf(operation: ChangeOperation, lang: Lang): string {
  const t = lang.t.changes;
  const spec = OPERATION_SPECS[operation];
  const args = spec.commands[0]?.args;
  if (spec.risk === 'irreversible' && args?.kind === 'id') {
    const titles: Readonly<Record<ResourceKind, string>> = {
      folder: t.deleteFolderTitle,
      file: t.deleteFileTitle,
      playlist: t.deletePlaylistTitle,
    };
    return titles[args.resource];
  }
  return lang.locale === 'en' ? spec.title : t.changesDeleteTitle;
}

/**
 * The confirmation modal for a prepared delete; `draftId` names its {@link deleteDraft} on the
 * server. What must be typed (the ID, the exact title) is shown as it is; the words around it
 * are the reader's. The preview lines come from the approval views, in English for now.
 */
export function deleteConfirmModal(
  options: {
    prepared: Prepared;
    confirm: string | null;
    title: string | null;
    draftId: string;
  },
  lang: Lang,
): ModalView {
  const t = lang.t.changes;
  const { prepared, confirm } = options;
  const title = confirmableTitle(options.title);
  const what = deleteTitleOf(prepared.operation, lang);
  // A look-up that failed leaves only the ID: said, so nobody takes the silence for "empty".
  const titleKnown = deletedTitle(prepared) !== null;
  const blocks: KnownBlock[] = [
    ...previewSections(prepared, lang, 2500).map((text) => section(text)),
    ...(titleKnown ? [] : [section(t.deleteFormIdOnly)]),
    ...prepared.warnings.slice(0, 5).map((w) => section(`:warning: ${safeWorded(sayIn(lang, w), 1000)}`)),
    section(t.deleteFormIrreversible),
    reasonInput(lang),
  ];
  if (confirm !== null) {
    const typed = ltr(lang, confirm);
    blocks.push(
      textInput({
        blockId: BLOCKS.confirmText,
        label: t.deleteFormConfirmLabel,
        maxLength: 300,
        placeholder: confirm,
        hint: title
          ? t.deleteFormConfirmHintTitle(typed, isolateOutside(lang, title, plain(title, 300)))
          : t.deleteFormTypeToConfirm(typed),
      }),
    );
  }
  return modal({
    callbackId: CALLBACKS.deleteConfirm,
    title: what,
    submit: t.deleteFormSubmit,
    blocks,
    privateMetadata: draftMetadata(options.draftId),
    lang,
  });
}

/**
 * Reads a submitted confirmation against the server's copy: the typed text must be the ID or
 * the exact title, and what is deleted is the draft's, whatever the form sent.
 */
/**
 * Why a delete cannot go on as the form showed it: the look-up made on submit found the record
 * with another title or file count. Null when nothing shown changed (a look-up that fails now
 * tells nothing, and the form's values stand).
 */
export function changedSinceForm(shown: Prepared, now: Prepared): Said | null {
  if (shown.preview.kind !== 'delete' || now.preview.kind !== 'delete') return null;
  const before: Record<string, unknown> = shown.preview;
  const after: Record<string, unknown> = now.preview;
  const differs = (key: string) =>
    after[key] !== undefined && after[key] !== null && after[key] !== before[key];
  const title = differs('title') ? String(after.title) : null;
  const files = differs('filesCount') ? Number(after.filesCount) : null;
  if (title === null && files === null) return null;
  return say.svcChangedSinceForm(now.preview.resource, now.preview.id, title, files);
}

export function parseDeleteSubmission(state: ViewState, draft: DeleteDraft, lang: Lang): ConfirmedSubmission {
  const t = lang.t.changes;
  const meta = draft;
  const errors: FieldErrors = {};
  const typed = state.text(BLOCKS.confirmText);
  const matches =
    meta.confirm === null ||
    normalizeDigits(typed).replace(/^[`"'“”]+|[`"'“”]+$/g, '') === meta.confirm ||
    (meta.title !== null && typed === meta.title.trim());
  if (!matches) {
    const confirm = ltr(lang, String(meta.confirm));
    errors[BLOCKS.confirmText] =
      typed === ''
        ? t.deleteFormTypeToConfirm(confirm)
        : t.deleteFormMismatch(ltr(lang, typed.slice(0, 100)), confirm, Boolean(meta.title));
  }
  const reason = state.text(BLOCKS.reason);
  const problem = reasonProblem(reason, lang);
  if (problem !== null) errors[BLOCKS.reason] = problem;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, prepared: { ...meta.prepared, warnings: [] }, reason };
}
