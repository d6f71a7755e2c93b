import type { ModalView } from '@slack/types';
import { z } from 'zod';
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
 * The modal a lead fills in to reject a request: what is being rejected, and why (required; the
 * requester reads it and it is kept in the audit log).
 * @see docs/architecture.md, "Approvals"
 */

export const RejectMetadataSchema = z.strictObject({ requestId: z.string().min(1) });

/** The reject modal for one request. */
export function rejectModal(request: OperationRequest): ModalView {
  const reason = request.reason ? `\n*Reason given:* ${safe(request.reason, 500)}` : '';
  return modal({
    callbackId: CALLBACKS.rejectReason,
    title: `Reject ${request.id}`,
    submit: 'Reject',
    blocks: [
      section(`${requestLine(request, { showRequester: true })}${reason}`),
      ...previewSections(request, 1500).map((text) => section(text)),
      textInput({
        blockId: BLOCKS.rejectNote,
        label: 'Why do you reject it?',
        multiline: true,
        maxLength: REASON_MAX,
        hint: 'The requester reads this, and it is kept in the audit log.',
      }),
    ],
    privateMetadata: encodeMetadata(RejectMetadataSchema, { requestId: request.id }),
  });
}

export type RejectSubmission =
  | { ok: true; requestId: string; note: string }
  | { ok: false; errors: FieldErrors };

/** Reads a submitted reject modal. */
export function parseRejectSubmission(state: ViewState, privateMetadata: string): RejectSubmission {
  const { requestId } = decodeMetadata(RejectMetadataSchema, privateMetadata);
  const note = state.text(BLOCKS.rejectNote);
  if (note === '') return { ok: false, errors: { [BLOCKS.rejectNote]: 'Say why: the requester reads it.' } };
  if (note.length > REASON_MAX) {
    return { ok: false, errors: { [BLOCKS.rejectNote]: `Keep it under ${REASON_MAX} characters.` } };
  }
  return { ok: true, requestId, note };
}
