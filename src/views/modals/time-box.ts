import type { InputBlock, KnownBlock, ModalView, PlainTextOption, StaticSelect } from '@slack/types';
import { z } from 'zod';
import type { OperationRequest } from '../../core/model.js';
import type { Said } from '../../core/said.js';
import { type BoxAsked, checkWindow, readWindow, type WindowRule } from '../../core/time-box.js';
import type { Lang } from '../../i18n/index.js';
import type { Prepared } from '../../services/types.js';
import { operationTitleOf, previewSections, readerDate } from '../approval.js';
import { boldId, plainWorded, safeWorded, section } from '../blocks.js';
import { sayIn } from '../errors.js';
import { BLOCKS, CALLBACKS, INPUT_ACTION } from '../ids.js';
import { BLOCK_KIT_LIMITS } from '../limits.js';
import { PUT_BACK_CHOICES, putBackChoices, spanText } from '../time-box.js';
import {
  type ConfirmedSubmission,
  decodeMetadata,
  draftMetadata,
  encodeMetadata,
  type FieldErrors,
  modal,
  reasonInput,
  reasonProblem,
  textInput,
  type ViewState,
} from './common.js';
import { PreparedDraftSchema } from './delete.js';

/**
 * "Put back after" in the protection and whitelist modals and in Extend…: a choice of never, 15
 * minutes, 1 hour, 4 hours, 1 day or other, and a window typed (a duration or an end, Persian
 * digits and Solar Hijri dates too) that replaces the choice. The policy's bounds decide which
 * choices are offered and whether "never" is; a typed window is read by the core (the reader is
 * passed in), and a problem goes back to its field, changing nothing. Also the Revert… modal,
 * which shows the inverse of a done change before it is asked for.
 * @see docs/time-boxed.md
 */

/** The policy's bounds of a time-boxed operation. */
export interface WindowLimits {
  /** The longest window allowed. */
  maxMs: number;
  /** The operation must be time-boxed: "never" is not offered. */
  required: boolean;
}

/** Reads a typed window (duration or end) against the bounds. */
export type WindowReader = (text: string) => { ok: true; asked: BoxAsked } | { ok: false; said: Said };

/**
 * "Put back after" of one operation as its policy rule bounds it, `now`: the limits the form
 * offers, and the reader of a typed window (the core reads and checks it; an end is kept as the
 * instant it names, so that the time zone cannot move it later).
 */
export function windowChoice(
  rule: WindowRule,
  now: Date,
  timeZone: string,
): { limits: WindowLimits; read: WindowReader } {
  return {
    limits: { maxMs: rule.maxMs, required: rule.requireDuration },
    read: (text) => {
      const typed = readWindow(text);
      if (!typed.ok) return typed;
      const checked = checkWindow(rule, typed.asked, { now, timeZone });
      if (!checked.ok) return checked;
      return { ok: true, asked: checked.window?.asked ?? typed.asked };
    },
  };
}

/** The window of each choice that is one (15m, 1h, 4h, 1d), by its option value. */
const CHOICE_MS: ReadonlyMap<string, number> = new Map(
  PUT_BACK_CHOICES.flatMap((c) => (c.ms === null ? [] : [[c.value, c.ms] as const])),
);
const NEVER = 'never';
const OTHER = 'other';

function option(text: string, value: string): PlainTextOption {
  return { text: { type: 'plain_text', text: plainWorded(text, BLOCK_KIT_LIMITS.optionText) }, value };
}

/**
 * The two inputs of "Put back after": the choice (never first unless the policy requires a
 * window; only choices within the bounds) and the typed window.
 */
export function windowInputs(limits: WindowLimits, lang: Lang): InputBlock[] {
  const t = lang.t.changes;
  const options = putBackChoices(lang, limits).map((c) => option(c.label, c.value));
  const never = options.find((o) => o.value === NEVER);
  const element: StaticSelect = { type: 'static_select', action_id: INPUT_ACTION, options };
  if (never !== undefined) element.initial_option = never;
  return [
    {
      type: 'input',
      block_id: BLOCKS.putBackAfter,
      optional: never !== undefined,
      label: { type: 'plain_text', text: t.boxLabel },
      element,
    },
    textInput({
      blockId: BLOCKS.putBackTyped,
      label: t.boxTypedLabel,
      maxLength: 40,
      placeholder: t.boxTypedPlaceholder,
      hint: t.boxTypedHint(spanText(lang, limits.maxMs)),
      optional: true,
    }),
  ];
}

export type WindowChoice = { ok: true; asked: BoxAsked | null } | { ok: false; errors: FieldErrors };

/**
 * Reads "Put back after": a typed window wins over the choice; "other" needs one typed; a choice
 * past the bounds, or none where the policy requires one, is refused. Null: never.
 */
export function parseWindowChoice(
  state: ViewState,
  bounds: WindowLimits,
  read: WindowReader,
  lang: Lang,
): WindowChoice {
  const t = lang.t.changes;
  const typed = state.text(BLOCKS.putBackTyped);
  const picked = state.selected(BLOCKS.putBackAfter);
  const max = spanText(lang, bounds.maxMs);
  if (typed !== '') {
    const reading = read(typed);
    return reading.ok
      ? { ok: true, asked: reading.asked }
      : { ok: false, errors: { [BLOCKS.putBackTyped]: sayIn(lang, reading.said) } };
  }
  if (picked === OTHER) return { ok: false, errors: { [BLOCKS.putBackTyped]: t.boxTypedMissing } };
  const ms = picked === null ? undefined : CHOICE_MS.get(picked);
  // A value the form never offered is refused, not read as "no put-back".
  if (picked !== null && picked !== NEVER && ms === undefined) {
    return { ok: false, errors: { [BLOCKS.putBackAfter]: t.boxChoiceUnknown } };
  }
  if (ms === undefined) {
    return bounds.required
      ? { ok: false, errors: { [BLOCKS.putBackAfter]: t.boxChoiceRequired(max) } }
      : { ok: true, asked: null };
  }
  if (ms > bounds.maxMs) return { ok: false, errors: { [BLOCKS.putBackAfter]: t.boxChoiceTooLong(max) } };
  return { ok: true, asked: { kind: 'for', ms, text: picked ?? '' } };
}

// ---------------------------------------------------------------------------------------------
// Extend…

export const ExtendMetadataSchema = z.strictObject({ requestId: z.string().min(1) });

/** Extend… of a time-boxed change in force: its end now, the new window, and a reason for the lead. */
export function extendModal(request: OperationRequest, bounds: WindowLimits, lang: Lang): ModalView {
  const t = lang.t.changes;
  const ref = boldId(lang, request.id);
  const endsAt = request.timeBox?.endsAt ?? null;
  const blocks: KnownBlock[] = [
    section(
      t.boxExtendIntro(
        `${ref} (${operationTitleOf(request, lang)})`,
        endsAt === null ? lang.t.approvals.apprNever : readerDate(endsAt, lang),
      ),
    ),
    ...previewSections(request, lang, 1500).map((text) => section(text)),
    ...windowInputs({ ...bounds, required: true }, lang),
    reasonInput(lang),
  ];
  return modal({
    callbackId: CALLBACKS.extend,
    title: lang.t.approvals.actExtendTitle,
    submit: t.formAskApproval,
    blocks,
    privateMetadata: encodeMetadata(ExtendMetadataSchema, { requestId: request.id }, lang),
    lang,
  });
}

export type ExtendSubmission =
  | { ok: true; requestId: string; asked: BoxAsked; reason: string }
  | { ok: false; errors: FieldErrors };

/** Reads a submitted Extend…: a window is required (never is no extension), and a reason. */
export function parseExtendSubmission(
  state: ViewState,
  privateMetadata: string,
  bounds: WindowLimits,
  read: WindowReader,
  lang: Lang,
): ExtendSubmission {
  const { requestId } = decodeMetadata(ExtendMetadataSchema, privateMetadata, lang);
  const choice = parseWindowChoice(state, { ...bounds, required: true }, read, lang);
  const reason = state.text(BLOCKS.reason);
  const problem = reasonProblem(reason, lang);
  const errors: FieldErrors = choice.ok ? {} : { ...choice.errors };
  if (problem !== null) errors[BLOCKS.reason] = problem;
  if (!choice.ok || problem !== null || choice.asked === null) return { ok: false, errors };
  return { ok: true, requestId, asked: choice.asked, reason };
}

// ---------------------------------------------------------------------------------------------
// Revert…

/** The server's copy of a Revert… modal: the inverse, prepared when it opened. */
export const RevertDraftSchema = z.strictObject({ prepared: PreparedDraftSchema });
export type RevertDraft = z.output<typeof RevertDraftSchema>;

/** The draft as JSON to store (the warnings were shown in the modal; they are not kept). */
export function storedRevertDraft(prepared: Prepared): {
  prepared: Omit<Prepared, 'warnings'> & { warnings: [] };
} {
  return { prepared: { ...prepared, warnings: [] } };
}

/**
 * Revert…: the inverse of a done change as it would be asked for (its diff, as any change is
 * previewed before it is asked), its warnings, and a reason; `draftId` names the prepared inverse
 * kept on the server.
 */
export function revertConfirmModal(options: { prepared: Prepared; draftId: string }, lang: Lang): ModalView {
  const t = lang.t.changes;
  const { prepared } = options;
  const of = prepared.revertOf?.id ?? '';
  const blocks: KnownBlock[] = [
    section(t.boxRevertIntro(boldId(lang, of))),
    ...previewSections(prepared, lang, 2500).map((text) => section(text)),
    ...prepared.warnings.slice(0, 5).map((w) => section(`:warning: ${safeWorded(sayIn(lang, w), 1000)}`)),
    reasonInput(lang),
  ];
  return modal({
    callbackId: CALLBACKS.revertConfirm,
    title: lang.t.approvals.actRevertTitle,
    submit: t.boxRevertSubmit,
    blocks,
    privateMetadata: draftMetadata(options.draftId),
    lang,
  });
}

/** Reads a submitted Revert…: the reason; what is asked is the server's copy, whatever the form sent. */
export function parseRevertSubmission(state: ViewState, draft: RevertDraft, lang: Lang): ConfirmedSubmission {
  const reason = state.text(BLOCKS.reason);
  const problem = reasonProblem(reason, lang);
  if (problem !== null) return { ok: false, errors: { [BLOCKS.reason]: problem } };
  return { ok: true, prepared: { ...draft.prepared, warnings: [] }, reason };
}
