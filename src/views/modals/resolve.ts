import type { ModalView } from '@slack/types';
import { z } from 'zod';
import type { OperationRequest } from '../../core/model.js';
import { ENGLISH, type Lang } from '../../i18n/index.js';
import { outcomeText, previewSections, requestLine } from '../approval.js';
import { section } from '../blocks.js';
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

/**
 * The "Mark applied" or "Mark not applied" modal for one request. `lang` is English where the
 * caller (the approval message's buttons) does not pass the reader's language yet.
 */
export function resolveModal(request: OperationRequest, way: MarkWay, lang: Lang = ENGLISH): ModalView {
  const t = lang.t.changes;
  const outcome = outcomeText(request, lang);
  const title = way === 'applied' ? t.resolveFormApplied : t.resolveFormNotApplied;
  return modal({
    callbackId: CALLBACKS.resolveNote,
    title,
    submit: title,
    blocks: [
      section(requestLine(request, lang, { showRequester: true })),
      ...previewSections(request, lang, 1500).map((text) => section(text)),
      ...(outcome === null ? [] : [section(outcome)]),
      noteInput(
        BLOCKS.resolveNote,
        way === 'applied' ? t.resolveFormAppliedLabel : t.resolveFormNotAppliedLabel,
        t.formRequesterReads,
      ),
    ],
    privateMetadata: encodeMetadata(ResolveMetadataSchema, { requestId: request.id, way }, lang),
    lang,
  });
}

export type ResolveSubmission =
  | { ok: true; requestId: string; way: MarkWay; note: string }
  | { ok: false; errors: FieldErrors };

/** Reads a submitted "Mark applied / not applied" modal (English where the caller passes no language). */
export function parseResolveSubmission(
  state: ViewState,
  privateMetadata: string,
  lang: Lang = ENGLISH,
): ResolveSubmission {
  const { requestId, way } = decodeMetadata(ResolveMetadataSchema, privateMetadata, lang);
  const read = readNote(state, BLOCKS.resolveNote, lang.t.changes.resolveFormSayWhat, lang);
  return read.ok ? { ok: true, requestId, way, note: read.note } : read;
}
