import type { FileInput, InputBlock, KnownBlock, ModalView } from '@slack/types';
import { z } from 'zod';
import type { ChangeOperation } from '../../core/catalog.js';
import { parseResourceId } from '../../core/validate/ids.js';
import { type Lang, ltr, num } from '../../i18n/index.js';
import { spec as fileEdit } from '../../operations/file-edit/spec.js';
import { spec as folderCreate } from '../../operations/folder-create/spec.js';
import { spec as folderEdit } from '../../operations/folder-edit/spec.js';
import { spec as playlistCreate } from '../../operations/playlist-create/spec.js';
import { spec as playlistEdit } from '../../operations/playlist-edit/spec.js';
import type { CoverRef, PrepareInput } from '../../services/types.js';
import { code, isolated, safeWorded, section } from '../blocks.js';
import { sayIn } from '../errors.js';
import { BLOCKS, CALLBACKS, INPUT_ACTION } from '../ids.js';
import { truncate } from '../limits.js';
import {
  DESCRIPTION_MAX,
  draftMetadata,
  type FieldErrors,
  modal,
  reasonInput,
  reasonProblem,
  TITLE_MAX,
  textInput,
  type UploadedFileState,
  type ViewState,
} from './common.js';

/**
 * Modals that create or edit a folder, edit a file (title, description, optional cover image) and
 * edit a playlist (title and the ordered files, one per line `id | title`), prefilled with the
 * current values when the service lets them be read, and their submission parsers. What each
 * modal edits (its mode and ID) is kept on the server as its draft; `private_metadata` holds
 * only the draft's ID.
 * @see docs/architecture.md, "Slash command grammar"
 */

/** Image types the cover accepts; the service takes the image as sent. */
export const COVER_FILETYPES = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;
/** Lines a playlist form accepts; a playlist of more files is edited in parts of the service UI. */
export const PLAYLIST_MAX_FILES = 200;

/** The server's copies of the resource modals: what each was opened for. */
export const FolderDraftSchema = z.union([
  z.strictObject({ mode: z.literal('create') }),
  z.strictObject({ mode: z.literal('edit'), bucketId: z.string().min(1) }),
]);
export const FileDraftSchema = z.strictObject({ fileId: z.string().min(1), coverAllowed: z.boolean() });
export const PlaylistDraftSchema = z.strictObject({ playlistId: z.string().min(1) });
export type FolderDraft = z.infer<typeof FolderDraftSchema>;
export type FileDraft = z.infer<typeof FileDraftSchema>;
export type PlaylistDraft = z.infer<typeof PlaylistDraftSchema>;

/** What is known of a record before editing it; null when it could not be read. */
export interface CurrentValues {
  title: string | null;
  description: string | null;
}

/** Why the current values are missing, when they are. */
function unknownNote(kind: string, note: string | undefined, lang: Lang): KnownBlock[] {
  return note === undefined
    ? []
    : [section(`:information_source: ${lang.t.changes.resourceUnknownNote(kind, safeWorded(note, 500))}`)];
}

/** A title from the service, quoted in a heading: cut, escaped, isolated as outside text (`isolated`). */
function shownTitle(lang: Lang, title: string | null | undefined): string | null {
  return title ? isolated(lang, title, 200) : null;
}

function titleInput(
  lang: Lang,
  initial: string | null | undefined,
  optional = false,
  hint?: string,
): InputBlock {
  return textInput({
    blockId: BLOCKS.title,
    label: lang.t.changes.formTitleLabel,
    initial,
    maxLength: TITLE_MAX,
    optional,
    ...(hint === undefined ? {} : { hint }),
  });
}

function descriptionInput(lang: Lang, initial: string | null | undefined): InputBlock {
  return textInput({
    blockId: BLOCKS.description,
    label: lang.t.changes.formDescriptionLabel,
    initial,
    multiline: true,
    maxLength: DESCRIPTION_MAX,
    optional: true,
  });
}

/** `draftId` names the modal's draft on the server. */
export type FolderModalOptions =
  | { mode: 'create'; draftId: string }
  | { mode: 'edit'; bucketId: string; current: CurrentValues | null; note?: string; draftId: string };

/** Create a folder, or edit one (title required by the service, description optional). */
export function folderModal(options: FolderModalOptions, lang: Lang): ModalView {
  const t = lang.t.changes;
  if (options.mode === 'create') {
    return modal({
      callbackId: CALLBACKS.folderCreate,
      title: t.folderCreateTitle,
      submit: t.formAskApproval,
      blocks: [titleInput(lang, null), descriptionInput(lang, null), reasonInput(lang)],
      privateMetadata: draftMetadata(options.draftId),
      lang,
    });
  }
  const current = options.current;
  return modal({
    callbackId: CALLBACKS.folderEdit,
    title: t.folderEditTitle,
    submit: t.formAskApproval,
    blocks: [
      section(t.folderHeading(ltr(lang, code(options.bucketId)), shownTitle(lang, current?.title))),
      ...unknownNote(t.resourceFolder, options.note, lang),
      titleInput(lang, current?.title),
      descriptionInput(lang, current?.description),
      reasonInput(lang),
    ],
    privateMetadata: draftMetadata(options.draftId),
    lang,
  });
}

/** Edit a file's title and description, and optionally upload a new cover image. */
export function fileEditModal(
  options: {
    fileId: string;
    current: (CurrentValues & { hlsStatus?: string | null }) | null;
    coverAllowed: boolean;
    note?: string;
    draftId: string;
  },
  lang: Lang,
): ModalView {
  const t = lang.t.changes;
  const current = options.current;
  const status = current?.hlsStatus ? isolated(lang, current.hlsStatus, 20) : null;
  const blocks: KnownBlock[] = [
    section(t.fileHeading(ltr(lang, code(options.fileId)), shownTitle(lang, current?.title), status)),
    ...unknownNote(t.resourceFile, options.note, lang),
    titleInput(lang, current?.title),
    descriptionInput(lang, current?.description),
  ];
  if (options.coverAllowed) {
    const element: FileInput = {
      type: 'file_input',
      action_id: INPUT_ACTION,
      filetypes: [...COVER_FILETYPES],
      max_files: 1,
    };
    blocks.push({
      type: 'input',
      block_id: BLOCKS.cover,
      optional: true,
      label: { type: 'plain_text', text: t.coverLabel },
      hint: { type: 'plain_text', text: t.coverHint },
      element,
    });
  }
  blocks.push(reasonInput(lang));
  return modal({
    callbackId: CALLBACKS.fileEdit,
    title: t.fileEditTitle,
    submit: t.formAskApproval,
    blocks,
    privateMetadata: draftMetadata(options.draftId),
    lang,
  });
}

/** The playlist's files as the form writes them: one per line, `id | title`. */
export function playlistLinesOf(
  files: readonly { _id: string; title?: string | null | undefined }[],
): string {
  return files.map((f) => (f.title ? `${f._id} | ${f.title.replace(/\s+/g, ' ')}` : f._id)).join('\n');
}

/** Edit a playlist: title and the ordered list of its files. */
export function playlistEditModal(
  options: {
    playlistId: string;
    current: { title: string | null; files: readonly { _id: string; title?: string | undefined }[] } | null;
    note?: string;
    draftId: string;
  },
  lang: Lang,
): ModalView {
  const t = lang.t.changes;
  const current = options.current;
  const lines = current === null ? '' : playlistLinesOf(current.files);
  const count = current === null ? null : current.files.length;
  return modal({
    callbackId: CALLBACKS.playlistEdit,
    title: t.playlistEditTitle,
    submit: t.formAskApproval,
    blocks: [
      section(
        t.playlistHeading(
          ltr(lang, code(options.playlistId)),
          shownTitle(lang, current?.title),
          count,
          num(lang, count ?? 0),
        ),
      ),
      ...unknownNote(t.resourcePlaylist, options.note, lang),
      titleInput(lang, current?.title, true, t.playlistTitleHint),
      textInput({
        blockId: BLOCKS.playlistFiles,
        label: t.playlistFilesLabel,
        initial: lines.length <= 3000 ? lines : '',
        multiline: true,
        maxLength: 3000,
        optional: true,
        placeholder: t.playlistFilesPlaceholder,
        hint: t.playlistFilesHint,
      }),
      reasonInput(lang),
    ],
    privateMetadata: draftMetadata(options.draftId),
    lang,
  });
}

export type ChangeSubmission<I> = { ok: true; input: I; reason: string } | { ok: false; errors: FieldErrors };

function titleProblem(title: string, required: boolean, lang: Lang): string | null {
  if (title === '') return required ? lang.t.changes.titleMissing : null;
  if (title.length > TITLE_MAX) return lang.t.changes.titleTooLong(num(lang, TITLE_MAX));
  return null;
}

/** The form offers DESCRIPTION_MAX characters; a submission Slack did not hold to it is refused too. */
function descriptionProblem(description: string, lang: Lang): string | null {
  return description.length > DESCRIPTION_MAX
    ? lang.t.changes.descriptionTooLong(num(lang, DESCRIPTION_MAX))
    : null;
}

function finish<I>(errors: FieldErrors, state: ViewState, lang: Lang, input: () => I): ChangeSubmission<I> {
  const reason = state.text(BLOCKS.reason);
  const problem = reasonProblem(reason, lang);
  if (problem !== null) errors[BLOCKS.reason] = problem;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: input(), reason };
}

/** A submitted folder create/edit modal. */
export function parseFolderSubmission(
  state: ViewState,
  draft: FolderDraft,
  lang: Lang,
): ChangeSubmission<PrepareInput<typeof folderCreate.name | typeof folderEdit.name>> {
  const meta = draft;
  const errors: FieldErrors = {};
  const title = state.text(BLOCKS.title);
  const description = state.text(BLOCKS.description);
  const problem = titleProblem(title, true, lang);
  if (problem !== null) errors[BLOCKS.title] = problem;
  const tooLong = descriptionProblem(description, lang);
  if (tooLong !== null) errors[BLOCKS.description] = tooLong;
  return finish(errors, state, lang, () =>
    meta.mode === 'create'
      ? { kind: folderCreate.name, title, ...(description === '' ? {} : { description }) }
      : {
          kind: folderEdit.name,
          bucketId: meta.bucketId,
          title,
          ...(description === '' ? {} : { description }),
        },
  );
}

function coverOf(files: readonly UploadedFileState[], lang: Lang): CoverRef | string | null {
  const t = lang.t.changes;
  if (files.length === 0) return null;
  if (files.length > 1) return t.coverOnlyOne;
  const [file] = files;
  const type = file?.mimetype ?? '';
  if (file === undefined || !type.startsWith('image/')) return t.coverNotImage;
  if (!file.url_private) return t.coverNotShared;
  return {
    slackFileId: file.id,
    filename: file.name || file.title || `cover.${file.filetype || 'png'}`,
    contentType: type,
    url: file.url_private,
  };
}

/** A submitted file edit modal; the cover comes from the view state's files. */
export function parseFileEditSubmission(
  state: ViewState,
  draft: FileDraft,
  lang: Lang,
): ChangeSubmission<PrepareInput<typeof fileEdit.name>> {
  const meta = draft;
  const errors: FieldErrors = {};
  const title = state.text(BLOCKS.title);
  const description = state.text(BLOCKS.description);
  const problem = titleProblem(title, true, lang);
  if (problem !== null) errors[BLOCKS.title] = problem;
  const tooLong = descriptionProblem(description, lang);
  if (tooLong !== null) errors[BLOCKS.description] = tooLong;
  const cover = meta.coverAllowed ? coverOf(state.files(BLOCKS.cover), lang) : null;
  if (typeof cover === 'string') errors[BLOCKS.cover] = cover;
  return finish(errors, state, lang, () => ({
    kind: fileEdit.name,
    fileId: meta.fileId,
    title,
    ...(description === '' ? {} : { description }),
    ...(cover === null || typeof cover === 'string' ? {} : { cover }),
  }));
}

export type PlaylistLines =
  | { ok: true; files: { _id: string; title?: string }[] }
  | { ok: false; problems: string[] };

/**
 * Reads `id | title` lines; blank lines are skipped, every problem names its line. Why an ID is
 * refused comes from the ID rules (core/validate/ids.ts), in the reader's language.
 */
export function parsePlaylistLines(text: string, lang: Lang): PlaylistLines {
  const t = lang.t.changes;
  const problems: string[] = [];
  const files: { _id: string; title?: string }[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const bar = line.indexOf('|');
    const rawId = bar < 0 ? line : line.slice(0, bar);
    const title = bar < 0 ? '' : line.slice(bar + 1).trim();
    const id = parseResourceId(rawId, 'file');
    if (!id.ok) {
      problems.push(t.playlistLineProblem(num(lang, i + 1), sayIn(lang, id.said)));
      continue;
    }
    if (seen.has(id.id)) {
      problems.push(t.playlistLineTwice(num(lang, i + 1), ltr(lang, id.id)));
      continue;
    }
    seen.add(id.id);
    files.push(title === '' ? { _id: id.id } : { _id: id.id, title });
  }
  if (files.length > PLAYLIST_MAX_FILES) {
    problems.push(t.playlistTooMany(num(lang, files.length), num(lang, PLAYLIST_MAX_FILES)));
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, files };
}

/** A submitted playlist edit modal: a title, the files, or both. */
export function parsePlaylistSubmission(
  state: ViewState,
  draft: PlaylistDraft,
  lang: Lang,
): ChangeSubmission<PrepareInput<typeof playlistEdit.name>> {
  const t = lang.t.changes;
  const meta = draft;
  const errors: FieldErrors = {};
  const title = state.text(BLOCKS.title);
  const problem = titleProblem(title, false, lang);
  if (problem !== null) errors[BLOCKS.title] = problem;
  const raw = state.rawText(BLOCKS.playlistFiles);
  const lines = raw.trim() === '' ? null : parsePlaylistLines(raw, lang);
  if (lines !== null && !lines.ok) {
    errors[BLOCKS.playlistFiles] = truncate(lines.problems.join(t.playlistProblemSeparator), 1500);
  }
  if (title === '' && lines === null) errors[BLOCKS.title] = t.playlistNeedsSomething;
  return finish(errors, state, lang, () => ({
    kind: playlistEdit.name,
    playlistId: meta.playlistId,
    ...(title === '' ? {} : { title }),
    ...(lines?.ok ? { files: lines.files } : {}),
  }));
}

/** Create a playlist: its title (the service takes nothing else when creating one). */
export function playlistCreateModal(draftId: string, lang: Lang): ModalView {
  return modal({
    callbackId: CALLBACKS.playlistCreate,
    title: lang.t.changes.playlistCreateTitle,
    submit: lang.t.changes.formAskApproval,
    blocks: [titleInput(lang, null), reasonInput(lang)],
    privateMetadata: draftMetadata(draftId),
    lang,
  });
}

/** A submitted playlist create modal. */
export function parsePlaylistCreateSubmission(
  state: ViewState,
  lang: Lang,
): ChangeSubmission<PrepareInput<typeof playlistCreate.name>> {
  const errors: FieldErrors = {};
  const title = state.text(BLOCKS.title);
  const problem = titleProblem(title, true, lang);
  if (problem !== null) errors[BLOCKS.title] = problem;
  return finish(errors, state, lang, () => ({ kind: playlistCreate.name, title }));
}

/** The draft of a form that creates a record: it only says so (what it creates is in the form). */
export const CreateDraftSchema = z.strictObject({ mode: z.literal('create') });
export type CreateDraft = z.infer<typeof CreateDraftSchema>;

/**
 * A form that creates a record: opened at once, since nothing needs to be read first, and read
 * into the operation's input when submitted.
 */
export interface CreateForm<O extends ChangeOperation> {
  callbackId: string;
  title(lang: Lang): string;
  modal(draftId: string, lang: Lang): ModalView;
  parse(state: ViewState, lang: Lang): ChangeSubmission<PrepareInput<O>>;
}

/** The create forms, by the operation they ask for. */
export const CREATE_FORMS: {
  readonly [O in typeof folderCreate.name | typeof playlistCreate.name]: CreateForm<O>;
} = {
  [folderCreate.name]: {
    callbackId: CALLBACKS.folderCreate,
    title: (lang) => lang.t.changes.folderCreateTitle,
    modal: (draftId, lang) => folderModal({ mode: 'create', draftId }, lang),
    parse: (state, lang) => {
      const parsed = parseFolderSubmission(state, { mode: 'create' }, lang);
      if (!parsed.ok) return parsed;
      return parsed.input.kind === folderCreate.name
        ? { ok: true, input: parsed.input, reason: parsed.reason }
        : { ok: false, errors: { [BLOCKS.title]: lang.t.changes.createFormFolderOnly } };
    },
  },
  [playlistCreate.name]: {
    callbackId: CALLBACKS.playlistCreate,
    title: (lang) => lang.t.changes.playlistCreateTitle,
    modal: playlistCreateModal,
    parse: parsePlaylistCreateSubmission,
  },
};
export type CreateOperation = keyof typeof CREATE_FORMS;
