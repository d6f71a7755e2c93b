import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { BREAK_GLASS_WORDS } from '../../core/break-glass.js';
import type { OperationRequest } from '../../core/model.js';
import { type Lang, ltr } from '../../i18n/index.js';
import { previewSections, requestLine } from '../approval.js';
import { isolated, safeWorded, section } from '../blocks.js';
import { BLOCKS, CALLBACKS } from '../ids.js';
import {
  decodeMetadata,
  encodeMetadata,
  type FieldErrors,
  modal,
  noteInput,
  readNote,
  textInput,
  type ViewState,
} from './common.js';

/**
 * The break-glass modal (why it cannot wait, and the typed words `break glass`) and a lead's Flag
 * modal (what is wrong). The words are checked again by the services; a wrong one changes nothing.
 * @see docs/architecture.md, "Break-glass and delegation"
 */

export const BreakGlassMetadataSchema = z.strictObject({ requestId: z.string().min(1) });

/** The modal the requester fills in to run their pending request now. */
export function breakGlassModal(request: OperationRequest, reviewWithin: string, lang: Lang): ModalView {
  const t = lang.t.breakGlass;
  return modal({
    callbackId: CALLBACKS.breakGlass,
    title: t.glassModalTitle,
    submit: t.glassModalSubmit,
    blocks: [
      section(
        t.glassModalIntro(
          // The request line is bold already; English keeps its words as they were.
          lang.locale === 'en' ? `*${requestLine(request, lang)}*` : requestLine(request, lang),
          ltr(lang, safeWorded(reviewWithin, 20)),
        ),
      ),
      ...previewSections(request, lang, 1500).map((text) => section(text)),
      noteInput(BLOCKS.breakGlassReason, t.glassModalReasonLabel, t.glassModalReasonHint),
      textInput({
        blockId: BLOCKS.breakGlassWords,
        label: t.glassModalWordsLabel(BREAK_GLASS_WORDS),
        placeholder: BREAK_GLASS_WORDS,
        maxLength: 40,
      }),
    ],
    privateMetadata: encodeMetadata(BreakGlassMetadataSchema, { requestId: request.id }, lang),
    lang,
  });
}

export type BreakGlassSubmission =
  | { ok: true; requestId: string; reason: string; words: string }
  | { ok: false; errors: FieldErrors };

/** Reads a submitted break-glass modal; the words are checked by the services. */
export function parseBreakGlassSubmission(
  state: ViewState,
  privateMetadata: string,
  lang: Lang,
): BreakGlassSubmission {
  const { requestId } = decodeMetadata(BreakGlassMetadataSchema, privateMetadata, lang);
  const read = readNote(state, BLOCKS.breakGlassReason, lang.t.breakGlass.glassReasonRequired, lang);
  if (!read.ok) return read;
  return { ok: true, requestId, reason: read.note, words: state.text(BLOCKS.breakGlassWords) };
}

/** The modal a lead fills in to flag a break-glass change. */
export function flagModal(request: OperationRequest, lang: Lang): ModalView {
  const t = lang.t.breakGlass;
  const record = request.breakGlass;
  return modal({
    callbackId: CALLBACKS.breakGlassFlag,
    title: t.glassFlagTitle,
    submit: t.glassFlagSubmit,
    blocks: [
      section(
        `${requestLine(request, lang, { showRequester: true })}${record ? `\n${t.glassWhyCouldNotWait(isolated(lang, record.reason, 800))}` : ''}`,
      ),
      noteInput(BLOCKS.breakGlassNote, t.glassFlagLabel, t.glassFlagHint),
    ],
    privateMetadata: encodeMetadata(BreakGlassMetadataSchema, { requestId: request.id }, lang),
    lang,
  });
}

export type FlagSubmission =
  | { ok: true; requestId: string; note: string }
  | { ok: false; errors: FieldErrors };

export function parseFlagSubmission(state: ViewState, privateMetadata: string, lang: Lang): FlagSubmission {
  const { requestId } = decodeMetadata(BreakGlassMetadataSchema, privateMetadata, lang);
  const read = readNote(state, BLOCKS.breakGlassNote, lang.t.breakGlass.glassNoteRequired, lang);
  return read.ok ? { ok: true, requestId, note: read.note } : read;
}
