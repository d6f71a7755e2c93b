import type { ModalView } from '@slack/types';
import { z } from 'zod';
import type { OperationRequest } from '../../core/model.js';
import { ENGLISH, type Lang, ltr } from '../../i18n/index.js';
import { previewSections, requestLine } from '../approval.js';
import { isolated, section } from '../blocks.js';
import { BLOCKS, CALLBACKS } from '../ids.js';
import {
  decodeMetadata,
  encodeMetadata,
  type FieldErrors,
  modal,
  noteInput,
  readNote,
  type ViewState,
} from './common.js';

/**
 * The modal a lead fills in to reject a request: what is being rejected, and why (required; the
 * requester reads it and it is kept in the audit log).
 * @see docs/architecture.md, "Approvals"
 */

export const RejectMetadataSchema = z.strictObject({ requestId: z.string().min(1) });

/**
 * The reject modal for one request. `lang` is English where the caller (the Reject button) does
 * not pass the reader's language yet; the request line and preview come from the approval views.
 */
export function rejectModal(request: OperationRequest, lang: Lang = ENGLISH): ModalView {
  const t = lang.t.changes;
  const reason = request.reason ? `\n${t.rejectFormReasonGiven(isolated(lang, request.reason, 500))}` : '';
  return modal({
    callbackId: CALLBACKS.rejectReason,
    title: t.rejectFormTitle(ltr(lang, request.id)),
    submit: t.rejectFormSubmit,
    blocks: [
      section(`${requestLine(request, lang, { showRequester: true })}${reason}`),
      ...previewSections(request, lang, 1500).map((text) => section(text)),
      noteInput(BLOCKS.rejectNote, t.rejectFormLabel, t.formRequesterReads),
    ],
    privateMetadata: encodeMetadata(RejectMetadataSchema, { requestId: request.id }, lang),
    lang,
  });
}

export type RejectSubmission =
  | { ok: true; requestId: string; note: string }
  | { ok: false; errors: FieldErrors };

/** Reads a submitted reject modal. */
export function parseRejectSubmission(
  state: ViewState,
  privateMetadata: string,
  lang: Lang,
): RejectSubmission {
  const { requestId } = decodeMetadata(RejectMetadataSchema, privateMetadata, lang);
  const read = readNote(state, BLOCKS.rejectNote, lang.t.changes.rejectFormSayWhy, lang);
  return read.ok ? { ok: true, requestId, note: read.note } : read;
}
