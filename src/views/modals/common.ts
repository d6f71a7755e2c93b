import type { InputBlock, KnownBlock, ModalView, PlainTextInput } from '@slack/types';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { escapeWorded } from '../../core/mrkdwn.js';
import { ENGLISH, type Lang, num } from '../../i18n/index.js';
import type { Prepared } from '../../services/types.js';
import { plainWorded, type SlackMessage, section } from '../blocks.js';
import { BLOCKS, CALLBACKS, INPUT_ACTION } from '../ids.js';
import { BLOCK_KIT_LIMITS, truncate } from '../limits.js';

/**
 * Pieces every change modal shares: the modal frame, text inputs, the reason field, the
 * loading/progress/result views, and the parsers of view state and `private_metadata` (zod at
 * the boundary: what comes back from Slack is read, never trusted blindly).
 * @see docs/slack.md, "Block Kit limits"
 */

/** Reasons longer than this are refused inline: they are shown to leads and stored in the log. */
export const REASON_MAX = 1000;
/** Titles and descriptions: generous, but a message must still fit them. */
export const TITLE_MAX = 250;
export const DESCRIPTION_MAX = 2000;

export interface ModalOptions {
  callbackId: string;
  title: string;
  blocks: KnownBlock[];
  submit?: string;
  close?: string;
  privateMetadata?: string;
  /** The reader's language, for the default Close text ("Cancel"); English when absent. */
  lang?: Lang;
}

/** A modal with its title and button texts cut to Slack's 24 characters. */
export function modal(options: ModalOptions): ModalView {
  const view: ModalView = {
    type: 'modal',
    callback_id: options.callbackId,
    title: { type: 'plain_text', text: plainWorded(options.title, BLOCK_KIT_LIMITS.viewTitle) },
    close: {
      type: 'plain_text',
      text: plainWorded(
        options.close ?? (options.lang ?? ENGLISH).t.changes.formCancel,
        BLOCK_KIT_LIMITS.viewButton,
      ),
    },
    blocks: options.blocks,
  };
  if (options.submit !== undefined) {
    view.submit = { type: 'plain_text', text: plainWorded(options.submit, BLOCK_KIT_LIMITS.viewButton) };
  }
  if (options.privateMetadata !== undefined) view.private_metadata = options.privateMetadata;
  return view;
}

export interface TextInputOptions {
  blockId: string;
  label: string;
  initial?: string | null | undefined;
  multiline?: boolean;
  maxLength?: number;
  placeholder?: string;
  hint?: string;
  optional?: boolean;
  /** Placeholder and hint kept as written (only cut to fit): their numbers are examples, not a viewer's. */
  examples?: boolean;
}

/** An input block with a plain_text_input whose action_id is {@link INPUT_ACTION}. */
export function textInput(options: TextInputOptions): InputBlock {
  const worded = (text: string, max: number) =>
    options.examples ? truncate(text, max) : plainWorded(text, max);
  const element: PlainTextInput = {
    type: 'plain_text_input',
    action_id: INPUT_ACTION,
    multiline: options.multiline ?? false,
    max_length: Math.min(
      options.maxLength ?? BLOCK_KIT_LIMITS.inputMaxLength,
      BLOCK_KIT_LIMITS.inputMaxLength,
    ),
  };
  // An initial value longer than max_length would be refused by Slack; it is cut to fit.
  if (options.initial) element.initial_value = truncate(options.initial, element.max_length ?? 3000);
  if (options.placeholder) {
    element.placeholder = {
      type: 'plain_text',
      text: worded(options.placeholder, BLOCK_KIT_LIMITS.placeholder),
    };
  }
  return {
    type: 'input',
    block_id: options.blockId,
    optional: options.optional ?? false,
    label: { type: 'plain_text', text: plainWorded(options.label, 200) },
    ...(options.hint === undefined ? {} : { hint: { type: 'plain_text', text: worded(options.hint, 1000) } }),
    element,
  };
}

/** The reason field every change asks for: leads read it before deciding. */
export function reasonInput(lang: Lang, initial?: string): InputBlock {
  const t = lang.t.changes;
  return textInput({
    blockId: BLOCKS.reason,
    label: t.formReasonLabel,
    initial,
    multiline: true,
    maxLength: REASON_MAX,
    placeholder: t.formReasonPlaceholder,
    hint: t.formReasonHint,
  });
}

/** A required note of several lines (a reject's why, a settled outcome, a break-glass reason, a flag). */
export function noteInput(blockId: string, label: string, hint: string): InputBlock {
  return textInput({ blockId, label, multiline: true, maxLength: REASON_MAX, hint });
}

/** The view shown while the modal's data is read (trigger IDs expire after 3 s, so it opens first). */
export function loadingModal(
  title: string,
  lang: Lang,
  text: string = lang.t.changes.formLoading,
): ModalView {
  return modal({
    callbackId: CALLBACKS.changeStatus,
    title,
    close: lang.t.changes.formClose,
    blocks: [section(`:hourglass_flowing_sand: ${text}`)],
  });
}

/**
 * A status line about a problem: the icon, then the words (from views/errors, which may quote
 * the service or a name) escaped for mrkdwn, so nothing in them mentions or links.
 */
export function problemLine(text: string, icon = ':x:'): string {
  return `${icon} ${escapeWorded(text)}`;
}

/**
 * A view that only tells something (progress, result, a problem); nothing to submit. `lang` is
 * English where a caller has no reader's language yet.
 */
export function statusModal(title: string, lines: readonly string[], lang: Lang = ENGLISH): ModalView {
  return modal({
    callbackId: CALLBACKS.changeStatus,
    title,
    close: lang.t.changes.formClose,
    blocks: lines.slice(0, 20).map((line) => section(line)),
  });
}

/** A message's blocks shown in a modal pushed over the one clicked (nothing to submit). */
export function messageModal(title: string, message: SlackMessage, lang: Lang = ENGLISH): ModalView {
  return modal({
    callbackId: CALLBACKS.changeStatus,
    title,
    close: lang.t.changes.formClose,
    blocks: message.blocks.slice(0, 100),
  });
}

// ---------------------------------------------------------------------------------------------
// View state

const SelectedOptionSchema = z.looseObject({ value: z.string() });

const UploadedFileSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string().nullish(),
  title: z.string().nullish(),
  mimetype: z.string().nullish(),
  filetype: z.string().nullish(),
  url_private: z.string().nullish(),
});
export type UploadedFileState = z.infer<typeof UploadedFileSchema>;

const StateValueSchema = z.looseObject({
  type: z.string(),
  value: z.string().nullish(),
  selected_option: SelectedOptionSchema.nullish(),
  selected_options: z.array(SelectedOptionSchema).nullish(),
  files: z.array(UploadedFileSchema).nullish(),
});
type StateValue = z.infer<typeof StateValueSchema>;

const StateValuesSchema = z.record(z.string(), z.record(z.string(), StateValueSchema));

/** Field errors by block ID, as `response_action: errors` wants them. */
export type FieldErrors = Record<string, string>;

/** A confirmation form read: the server's prepared request and the reason, or what to fix. */
export type ConfirmedSubmission =
  | { ok: true; prepared: Prepared; reason: string }
  | { ok: false; errors: FieldErrors };

/** A view's `state.values`, parsed; read fields with the methods. */
export interface ViewState {
  /** True when the form sent this block back (Slack sends every input block it shows). */
  has(blockId: string): boolean;
  /** Trimmed text of a text or number input; '' when empty or absent. */
  text(blockId: string): string;
  /** Text as typed (not trimmed), for multi-line lists. */
  rawText(blockId: string): string;
  selected(blockId: string): string | null;
  selectedMany(blockId: string): string[];
  files(blockId: string): UploadedFileState[];
}

/**
 * Reads `view.state.values` as Slack sends it; a shape Slack never sends is an InputError, said
 * in `lang` (English where a caller has no reader's language).
 */
export function readViewState(values: unknown, lang: Lang = ENGLISH): ViewState {
  const parsed = StateValuesSchema.safeParse(values ?? {});
  if (!parsed.success) throw new InputError(lang.t.changes.formShapeUnknown);
  const data = parsed.data;
  const get = (blockId: string): StateValue | undefined => {
    const block = data[blockId];
    return block?.[INPUT_ACTION] ?? (block ? Object.values(block)[0] : undefined);
  };
  return {
    has: (blockId) => get(blockId) !== undefined,
    text: (blockId) => (get(blockId)?.value ?? '').trim(),
    rawText: (blockId) => get(blockId)?.value ?? '',
    selected: (blockId) => get(blockId)?.selected_option?.value ?? null,
    selectedMany: (blockId) => (get(blockId)?.selected_options ?? []).map((o) => o.value),
    files: (blockId) => get(blockId)?.files ?? [],
  };
}

/** Checks the reason; an error message for the field, or null when it is fine. */
export function reasonProblem(reason: string, lang: Lang): string | null {
  if (reason === '') return lang.t.changes.formReasonMissing;
  if (reason.length > REASON_MAX) return lang.t.changes.formReasonTooLong(num(lang, REASON_MAX));
  return null;
}

/** Reads a required note: the note, or its field's error (`missing` when empty, or too long). */
export function readNote(
  state: ViewState,
  blockId: string,
  missing: string,
  lang: Lang,
): { ok: true; note: string } | { ok: false; errors: FieldErrors } {
  const note = state.text(blockId);
  if (note === '') return { ok: false, errors: { [blockId]: missing } };
  if (note.length > REASON_MAX) {
    return { ok: false, errors: { [blockId]: lang.t.changes.formNoteTooLong(num(lang, REASON_MAX)) } };
  }
  return { ok: true, note };
}

// ---------------------------------------------------------------------------------------------
// private_metadata

/** Serialises metadata; refuses what would not fit Slack's 3000 characters. */
export function encodeMetadata<T>(schema: z.ZodType<T>, value: T, lang: Lang = ENGLISH): string {
  const text = JSON.stringify(schema.parse(value));
  if (text.length > BLOCK_KIT_LIMITS.privateMetadata) {
    throw new InputError(lang.t.changes.formTooLarge);
  }
  return text;
}

/**
 * What a change modal carries in `private_metadata`: only the random ID of its draft. What the
 * modal was opened for (the prepared request, the IDs, the typed confirmation, who opened it)
 * stays on the server; a submission is read against the server's copy, never against anything
 * the client sends back.
 * @see docs/architecture.md, "Approvals" (typed confirmation)
 */
export const DraftMetadataSchema = z.strictObject({ draft: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/** The `private_metadata` of a change modal whose draft has this ID. */
export function draftMetadata(draftId: string): string {
  return encodeMetadata(DraftMetadataSchema, { draft: draftId });
}

/** The draft ID a submitted change modal carries; null when it carries none (forged or foreign). */
export function draftIdOf(privateMetadata: string): string | null {
  try {
    const parsed = DraftMetadataSchema.safeParse(JSON.parse(privateMetadata));
    return parsed.success ? parsed.data.draft : null;
  } catch {
    return null;
  }
}

/** Reads metadata written by {@link encodeMetadata}; anything else is an InputError. */
export function decodeMetadata<T>(schema: z.ZodType<T>, raw: string, lang: Lang = ENGLISH): T {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw new InputError(lang.t.changes.formContextLost);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new InputError(lang.t.changes.formContextLost);
  return parsed.data;
}
