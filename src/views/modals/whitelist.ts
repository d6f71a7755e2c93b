import type { KnownBlock, ModalView } from '@slack/types';
import { z } from 'zod';
import type { BoxAsked } from '../../core/time-box.js';
import { parseIpList } from '../../core/validate/ip.js';
import { ENGLISH, type Lang, ltr, num } from '../../i18n/index.js';
import { code, section } from '../blocks.js';
import { sayIn } from '../errors.js';
import { BLOCKS, CALLBACKS } from '../ids.js';
import { truncate } from '../limits.js';
import {
  draftMetadata,
  type FieldErrors,
  modal,
  reasonInput,
  reasonProblem,
  textInput,
  type ViewState,
} from './common.js';
import { parseWindowChoice, type WindowLimits, type WindowReader, windowInputs } from './time-box.js';

/**
 * The whitelist change modal behind the Add / Remove buttons of the whitelist message: the
 * addresses (one per line or separated by commas) and a reason. The current list is shown so
 * the agent sees what is there; the before/after preview comes from the services on submit.
 * @see docs/architecture.md, "Validation" (IPs)
 */

export type WhitelistMode = 'add' | 'remove';

/** The server's copy of a whitelist modal: whether it adds or removes. */
export const WhitelistDraftSchema = z.strictObject({ mode: z.enum(['add', 'remove']) });
export type WhitelistDraft = z.infer<typeof WhitelistDraftSchema>;

/** How much of the current list the modal shows (a modal section holds 3000 characters). */
const CURRENT_BUDGET = 2500;

function currentList(current: readonly string[] | null, lang: Lang): string {
  const t = lang.t.changes;
  if (current === null) return t.whitelistFormUnread;
  if (current.length === 0) return t.whitelistFormEmpty;
  let text = t.whitelistFormCurrent(num(lang, current.length));
  const comma = lang.locale === 'fa' ? '، ' : ', ';
  for (const [i, ip] of current.entries()) {
    const piece = `${i === 0 ? ' ' : comma}${ltr(lang, code(ip))}`;
    if (text.length + piece.length > CURRENT_BUDGET) {
      text += ` ${t.whitelistFormMore(num(lang, current.length - i))}`;
      break;
    }
    text += piece;
  }
  return text;
}

/**
 * The modal; `current` is the list as read now (null when it could not be read), `draftId` names
 * its {@link WhitelistDraft} on the server. `lang` is English where the caller (the whitelist
 * message's buttons) does not pass the reader's language yet.
 */
export function whitelistModal(
  options: {
    mode: WhitelistMode;
    current: readonly string[] | null;
    initialIps?: string;
    draftId: string;
    /** Offers "Put back after" within these bounds (docs/time-boxed.md). */
    bounds?: WindowLimits | undefined;
  },
  lang: Lang = ENGLISH,
): ModalView {
  const t = lang.t.changes;
  const adding = options.mode === 'add';
  const blocks: KnownBlock[] = [
    section(currentList(options.current, lang)),
    textInput({
      blockId: BLOCKS.ips,
      label: adding ? t.whitelistFormAddLabel : t.whitelistFormRemoveLabel,
      initial: options.initialIps,
      multiline: true,
      maxLength: 3000,
      placeholder: adding ? '1.2.3.4\n2a00:1::4' : t.whitelistFormRemovePlaceholder,
      hint: t.whitelistFormHint,
    }),
    ...(options.bounds === undefined ? [] : windowInputs(options.bounds, lang)),
    reasonInput(lang),
  ];
  return modal({
    callbackId: CALLBACKS.whitelistChange,
    title: adding ? t.whitelistFormAddTitle : t.whitelistFormRemoveTitle,
    submit: t.formAskApproval,
    blocks,
    privateMetadata: draftMetadata(options.draftId),
    lang,
  });
}

export type WhitelistSubmission =
  | { ok: true; mode: WhitelistMode; ips: string[]; reason: string; timeBox: BoxAsked | null }
  | { ok: false; errors: FieldErrors };

/**
 * Reads a submitted whitelist modal: every problem goes to the field it is about. Why an address
 * is refused comes from the address rules (core/validate/ip.ts), in the reader's language; with
 * `window`, also "Put back after".
 */
export function parseWhitelistSubmission(
  state: ViewState,
  draft: WhitelistDraft,
  lang: Lang,
  window?: { limits: WindowLimits; read: WindowReader },
): WhitelistSubmission {
  const { mode } = draft;
  const errors: FieldErrors = {};
  const raw = state.rawText(BLOCKS.ips);
  const parsed = parseIpList([raw], mode);
  if (!parsed.ok)
    errors[BLOCKS.ips] = truncate(parsed.said.map((said) => sayIn(lang, said)).join('; '), 1500);
  const box = window === undefined ? null : parseWindowChoice(state, window.limits, window.read, lang);
  if (box !== null && !box.ok) Object.assign(errors, box.errors);
  const reason = state.text(BLOCKS.reason);
  const problem = reasonProblem(reason, lang);
  if (problem !== null) errors[BLOCKS.reason] = problem;
  if (!parsed.ok || problem !== null || (box !== null && !box.ok)) return { ok: false, errors };
  return { ok: true, mode, ips: parsed.ips, reason, timeBox: box?.ok ? box.asked : null };
}
