import type { FileInput, InputBlock, KnownBlock, ModalView } from '@slack/types';
import { z } from 'zod';
import type { ChangeOperation } from '../../core/catalog.js';
import { parseResourceId } from '../../core/validate/ids.js';
import type { CoverRef, PrepareInput } from '../../services/types.js';
import { code, safe, section } from '../blocks.js';
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
function unknownNote(kind: string, note: string | undefined): KnownBlock[] {
  return note === undefined
    ? []
    : [
        section(
          `:information_source: The current values of this ${kind} could not be read: ${safe(note, 500)} Fill in what it should become.`,
        ),
      ];
}

function titleInput(initial: string | null | undefined, optional = false, hint?: string): InputBlock {
  return textInput({
    blockId: BLOCKS.title,
    label: 'Title',
    initial,
    maxLength: TITLE_MAX,
    optional,
    ...(hint === undefined ? {} : { hint }),
  });
}

function descriptionInput(initial: string | null | undefined): InputBlock {
  return textInput({
    blockId: BLOCKS.description,
    label: 'Description',
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
export function folderModal(options: FolderModalOptions): ModalView {
  if (options.mode === 'create') {
    return modal({
      callbackId: CALLBACKS.folderCreate,
      title: 'Create folder',
      submit: 'Ask for approval',
      blocks: [titleInput(null), descriptionInput(null), reasonInput()],
      privateMetadata: draftMetadata(options.draftId),
    });
  }
  const current = options.current;
  return modal({
    callbackId: CALLBACKS.folderEdit,
    title: 'Edit folder',
    submit: 'Ask for approval',
    blocks: [
      section(`Folder ${code(options.bucketId)}${current?.title ? ` “${safe(current.title, 200)}”` : ''}`),
      ...unknownNote('folder', options.note),
      titleInput(current?.title),
      descriptionInput(current?.description),
      reasonInput(),
    ],
    privateMetadata: draftMetadata(options.draftId),
  });
}

/** Edit a file's title and description, and optionally upload a new cover image. */
export function fileEditModal(options: {
  fileId: string;
  current: (CurrentValues & { hlsStatus?: string | null }) | null;
  coverAllowed: boolean;
  note?: string;
  draftId: string;
}): ModalView {
  const current = options.current;
  const status = current?.hlsStatus ? ` · conversion ${safe(current.hlsStatus, 20)}` : '';
  const blocks: KnownBlock[] = [
    section(`File ${code(options.fileId)}${current?.title ? ` “${safe(current.title, 200)}”` : ''}${status}`),
    ...unknownNote('file', options.note),
    titleInput(current?.title),
    descriptionInput(current?.description),
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
      label: { type: 'plain_text', text: 'New cover image' },
      hint: {
        type: 'plain_text',
        text: 'Optional. PNG, JPEG, GIF or WebP. It is uploaded to the service only after a lead approves.',
      },
      element,
    });
  }
  blocks.push(reasonInput());
  return modal({
    callbackId: CALLBACKS.fileEdit,
    title: 'Edit file',
    submit: 'Ask for approval',
    blocks,
    privateMetadata: draftMetadata(options.draftId),
  });
}

/** The playlist's files as the form writes them: one per line, `id | title`. */
export function playlistLinesOf(
  files: readonly { _id: string; title?: string | null | undefined }[],
): string {
  return files.map((f) => (f.title ? `${f._id} | ${f.title.replace(/\s+/g, ' ')}` : f._id)).join('\n');
}

/** Edit a playlist: title and the ordered list of its files. */
export function playlistEditModal(options: {
  playlistId: string;
  current: { title: string | null; files: readonly { _id: string; title?: string | undefined }[] } | null;
  note?: string;
  draftId: string;
}): ModalView {
  const current = options.current;
  const lines = current === null ? '' : playlistLinesOf(current.files);
  return modal({
    callbackId: CALLBACKS.playlistEdit,
    title: 'Edit playlist',
    submit: 'Ask for approval',
    blocks: [
      section(
        `Playlist ${code(options.playlistId)}${current?.title ? ` “${safe(current.title, 200)}”` : ''}${current === null ? '' : ` · ${current.files.length} file${current.files.length === 1 ? '' : 's'}`}`,
      ),
      ...unknownNote('playlist', options.note),
      titleInput(current?.title, true, 'Leave it empty to keep the title.'),
      textInput({
        blockId: BLOCKS.playlistFiles,
        label: 'Files, in order',
        initial: lines.length <= 3000 ? lines : '',
        multiline: true,
        maxLength: 3000,
        optional: true,
        placeholder: '6710b0000000000000000201 | Lecture 1',
        hint: 'One file per line: the file ID, optionally followed by | and the title to show. The list replaces the playlist’s files in this order; leave it empty to keep them.',
      }),
      reasonInput(),
    ],
    privateMetadata: draftMetadata(options.draftId),
  });
}

export type ChangeSubmission<I> = { ok: true; input: I; reason: string } | { ok: false; errors: FieldErrors };

function titleProblem(title: string, required: boolean): string | null {
  if (title === '') return required ? 'Give a title.' : null;
  if (title.length > TITLE_MAX) return `Keep the title under ${TITLE_MAX} characters.`;
  return null;
}

function finish<I>(errors: FieldErrors, state: ViewState, input: () => I): ChangeSubmission<I> {
  const reason = state.text(BLOCKS.reason);
  const problem = reasonProblem(reason);
  if (problem !== null) errors[BLOCKS.reason] = problem;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: input(), reason };
}

/** A submitted folder create/edit modal. */
export function parseFolderSubmission(
  state: ViewState,
  draft: FolderDraft,
): ChangeSubmission<PrepareInput<'folder.create' | 'folder.edit'>> {
  const meta = draft;
  const errors: FieldErrors = {};
  const title = state.text(BLOCKS.title);
  const description = state.text(BLOCKS.description);
  const problem = titleProblem(title, true);
  if (problem !== null) errors[BLOCKS.title] = problem;
  return finish(errors, state, () =>
    meta.mode === 'create'
      ? { kind: 'folder.create', title, ...(description === '' ? {} : { description }) }
      : {
          kind: 'folder.edit',
          bucketId: meta.bucketId,
          title,
          ...(description === '' ? {} : { description }),
        },
  );
}

function coverOf(files: readonly UploadedFileState[]): CoverRef | string | null {
  if (files.length === 0) return null;
  if (files.length > 1) return 'Upload one image only.';
  const [file] = files;
  const type = file?.mimetype ?? '';
  if (file === undefined || !type.startsWith('image/')) {
    return 'The cover must be an image (PNG, JPEG, GIF or WebP).';
  }
  if (!file.url_private) return 'Slack did not share this image with vidops; upload it again.';
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
): ChangeSubmission<PrepareInput<'file.edit'>> {
  const meta = draft;
  const errors: FieldErrors = {};
  const title = state.text(BLOCKS.title);
  const description = state.text(BLOCKS.description);
  const problem = titleProblem(title, true);
  if (problem !== null) errors[BLOCKS.title] = problem;
  const cover = meta.coverAllowed ? coverOf(state.files(BLOCKS.cover)) : null;
  if (typeof cover === 'string') errors[BLOCKS.cover] = cover;
  return finish(errors, state, () => ({
    kind: 'file.edit',
    fileId: meta.fileId,
    title,
    ...(description === '' ? {} : { description }),
    ...(cover === null || typeof cover === 'string' ? {} : { cover }),
  }));
}

export type PlaylistLines =
  | { ok: true; files: { _id: string; title?: string }[] }
  | { ok: false; problems: string[] };

/** Reads `id | title` lines; blank lines are skipped, every problem names its line. */
export function parsePlaylistLines(text: string): PlaylistLines {
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
      problems.push(`line ${i + 1}: ${id.reason}`);
      continue;
    }
    if (seen.has(id.id)) {
      problems.push(`line ${i + 1}: file ${id.id} is listed twice`);
      continue;
    }
    seen.add(id.id);
    files.push(title === '' ? { _id: id.id } : { _id: id.id, title });
  }
  if (files.length > PLAYLIST_MAX_FILES) {
    problems.push(`${files.length} files is more than the ${PLAYLIST_MAX_FILES} this form takes`);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, files };
}

/** A submitted playlist edit modal: a title, the files, or both. */
export function parsePlaylistSubmission(
  state: ViewState,
  draft: PlaylistDraft,
): ChangeSubmission<PrepareInput<'playlist.edit'>> {
  const meta = draft;
  const errors: FieldErrors = {};
  const title = state.text(BLOCKS.title);
  const problem = titleProblem(title, false);
  if (problem !== null) errors[BLOCKS.title] = problem;
  const raw = state.rawText(BLOCKS.playlistFiles);
  const lines = raw.trim() === '' ? null : parsePlaylistLines(raw);
  if (lines !== null && !lines.ok) errors[BLOCKS.playlistFiles] = truncate(lines.problems.join('; '), 1500);
  if (title === '' && lines === null) errors[BLOCKS.title] = 'Give a new title, the list of files, or both.';
  return finish(errors, state, () => ({
    kind: 'playlist.edit',
    playlistId: meta.playlistId,
    ...(title === '' ? {} : { title }),
    ...(lines?.ok ? { files: lines.files } : {}),
  }));
}

/** Create a playlist: its title (the service takes nothing else when creating one). */
export function playlistCreateModal(draftId: string): ModalView {
  return modal({
    callbackId: CALLBACKS.playlistCreate,
    title: 'Create playlist',
    submit: 'Ask for approval',
    blocks: [titleInput(null), reasonInput()],
    privateMetadata: draftMetadata(draftId),
  });
}

/** A submitted playlist create modal. */
export function parsePlaylistCreateSubmission(
  state: ViewState,
): ChangeSubmission<PrepareInput<'playlist.create'>> {
  const errors: FieldErrors = {};
  const title = state.text(BLOCKS.title);
  const problem = titleProblem(title, true);
  if (problem !== null) errors[BLOCKS.title] = problem;
  return finish(errors, state, () => ({ kind: 'playlist.create', title }));
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
  title: string;
  modal(draftId: string): ModalView;
  parse(state: ViewState): ChangeSubmission<PrepareInput<O>>;
}

/** The create forms, by the operation they ask for. */
export const CREATE_FORMS: {
  readonly [O in 'folder.create' | 'playlist.create']: CreateForm<O>;
} = {
  'folder.create': {
    callbackId: CALLBACKS.folderCreate,
    title: 'Create folder',
    modal: (draftId) => folderModal({ mode: 'create', draftId }),
    parse: (state) => {
      const parsed = parseFolderSubmission(state, { mode: 'create' });
      if (!parsed.ok) return parsed;
      return parsed.input.kind === 'folder.create'
        ? { ok: true, input: parsed.input, reason: parsed.reason }
        : { ok: false, errors: { [BLOCKS.title]: 'This form creates a folder.' } };
    },
  },
  'playlist.create': {
    callbackId: CALLBACKS.playlistCreate,
    title: 'Create playlist',
    modal: playlistCreateModal,
    parse: parsePlaylistCreateSubmission,
  },
};
export type CreateOperation = keyof typeof CREATE_FORMS;
