import type { ModalView } from '@slack/types';
import { z } from 'zod';
import type { OperationRequest } from '../../core/model.js';
import { outcomeText, previewSections, requestLine } from '../approval.js';
import { section } from '../blocks.js';
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
 * The modal a lead fills in to mark an unknown outcome by hand: what the request was, and what
 * they found on the service (required; it is kept in the audit log).
 * @see docs/architecture.md, "Approvals"
 */

/** The two ways of settling by hand. */
export type MarkWay = 'applied' | 'not-applied';

export const ResolveMetadataSchema = z.strictObject({
  requestId: z.string().min(1),
  way: z.enum(['applied', 'not-applied']),
});

/** The "Mark applied" or "Mark not applied" modal for one request. */
export function resolveModal(request: OperationRequest, way: MarkWay): ModalView {
  const outcome = outcomeText(request);
  return modal({
    callbackId: CALLBACKS.resolveNote,
    title: way === 'applied' ? 'Mark applied' : 'Mark not applied',
    submit: way === 'applied' ? 'Mark applied' : 'Mark not applied',
    blocks: [
      section(requestLine(request, { showRequester: true })),
      ...previewSections(request, 1500).map((text) => section(text)),
      ...(outcome === null ? [] : [section(outcome)]),
      textInput({
        blockId: BLOCKS.resolveNote,
        label:
          way === 'applied'
            ? 'What on the service shows it was applied?'
            : 'What on the service shows it was not applied?',
        multiline: true,
        maxLength: REASON_MAX,
        hint: 'The requester reads this, and it is kept in the audit log.',
      }),
    ],
    privateMetadata: encodeMetadata(ResolveMetadataSchema, { requestId: request.id, way }),
  });
}

export type ResolveSubmission =
  | { ok: true; requestId: string; way: MarkWay; note: string }
  | { ok: false; errors: FieldErrors };

/** Reads a submitted "Mark applied / not applied" modal. */
export function parseResolveSubmission(state: ViewState, privateMetadata: string): ResolveSubmission {
  const { requestId, way } = decodeMetadata(ResolveMetadataSchema, privateMetadata);
  const note = state.text(BLOCKS.resolveNote);
  if (note === '') {
    return {
      ok: false,
      errors: { [BLOCKS.resolveNote]: 'Say what you found: it is kept in the audit log.' },
    };
  }
  if (note.length > REASON_MAX) {
    return { ok: false, errors: { [BLOCKS.resolveNote]: `Keep it under ${REASON_MAX} characters.` } };
  }
  return { ok: true, requestId, way, note };
}
