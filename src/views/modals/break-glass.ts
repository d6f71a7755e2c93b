import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { BREAK_GLASS_TEXT, BREAK_GLASS_WORDS } from '../../core/break-glass.js';
import type { OperationRequest } from '../../core/model.js';
import { previewSections, requestLine } from '../approval.js';
import { safe, section } from '../blocks.js';
import { BLOCKS, CALLBACKS } from '../ids.js';
import {
  decodeMetadata,
  encodeMetadata,
  type FieldErrors,
  modal,
  REASON_MAX,
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
export function breakGlassModal(request: OperationRequest, reviewWithin: string): ModalView {
  return modal({
    callbackId: CALLBACKS.breakGlass,
    title: 'Break glass',
    submit: 'Run it now',
    blocks: [
      section(
        `:rotating_light: *${requestLine(request)}* runs *now*, without waiting for a lead. Every lead is told at once, the audit log marks it BREAK-GLASS, and a lead reviews it within ${safe(reviewWithin, 20)}.`,
      ),
      ...previewSections(request, 1500).map((text) => section(text)),
      textInput({
        blockId: BLOCKS.breakGlassReason,
        label: 'Why can this not wait for a lead?',
        multiline: true,
        maxLength: REASON_MAX,
        hint: 'Every lead reads this, and it is kept in the audit log.',
      }),
      textInput({
        blockId: BLOCKS.breakGlassWords,
        label: `Type “${BREAK_GLASS_WORDS}” to confirm`,
        placeholder: BREAK_GLASS_WORDS,
        maxLength: 40,
      }),
    ],
    privateMetadata: encodeMetadata(BreakGlassMetadataSchema, { requestId: request.id }),
  });
}

export type BreakGlassSubmission =
  | { ok: true; requestId: string; reason: string; words: string }
  | { ok: false; errors: FieldErrors };

/** Reads a submitted break-glass modal; the words are checked by the services. */
export function parseBreakGlassSubmission(state: ViewState, privateMetadata: string): BreakGlassSubmission {
  const { requestId } = decodeMetadata(BreakGlassMetadataSchema, privateMetadata);
  const reason = state.text(BLOCKS.breakGlassReason);
  const words = state.text(BLOCKS.breakGlassWords);
  if (reason === '')
    return { ok: false, errors: { [BLOCKS.breakGlassReason]: BREAK_GLASS_TEXT.reasonRequired } };
  if (reason.length > REASON_MAX) {
    return { ok: false, errors: { [BLOCKS.breakGlassReason]: `Keep it under ${REASON_MAX} characters.` } };
  }
  return { ok: true, requestId, reason, words };
}

/** The modal a lead fills in to flag a break-glass change. */
export function flagModal(request: OperationRequest): ModalView {
  const record = request.breakGlass;
  return modal({
    callbackId: CALLBACKS.breakGlassFlag,
    title: 'Flag break-glass',
    submit: 'Flag',
    blocks: [
      section(
        `${requestLine(request, { showRequester: true })}${record ? `\n*Why it could not wait:* ${safe(record.reason, 800)}` : ''}`,
      ),
      textInput({
        blockId: BLOCKS.breakGlassNote,
        label: 'What is wrong with it?',
        multiline: true,
        maxLength: REASON_MAX,
        hint: 'The leads read this, and it is kept in the audit log.',
      }),
    ],
    privateMetadata: encodeMetadata(BreakGlassMetadataSchema, { requestId: request.id }),
  });
}

export type FlagSubmission =
  | { ok: true; requestId: string; note: string }
  | { ok: false; errors: FieldErrors };

export function parseFlagSubmission(state: ViewState, privateMetadata: string): FlagSubmission {
  const { requestId } = decodeMetadata(BreakGlassMetadataSchema, privateMetadata);
  const note = state.text(BLOCKS.breakGlassNote);
  if (note === '') return { ok: false, errors: { [BLOCKS.breakGlassNote]: BREAK_GLASS_TEXT.noteRequired } };
  if (note.length > REASON_MAX) {
    return { ok: false, errors: { [BLOCKS.breakGlassNote]: `Keep it under ${REASON_MAX} characters.` } };
  }
  return { ok: true, requestId, note };
}
