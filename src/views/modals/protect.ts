import type {
  Checkboxes,
  InputBlock,
  KnownBlock,
  ModalView,
  NumberInput,
  PlainTextOption,
  StaticSelect,
} from '@slack/types';
import { z } from 'zod';
import { FONT_COLORS, type ProtectionConfig } from '../../client/types.js';
import type { BoxAsked } from '../../core/time-box.js';
import { normalizeDigits } from '../../core/validate/digits.js';
import {
  diffProtection,
  EXPIRE_TIME_PATTERN,
  FONT_COLOR_NAMES,
  flattenProtection,
  PROTECTION_FIELDS,
  PROTECTION_GROUP_TITLES,
  type ProtectionDiffRow,
  type ProtectionField,
  type ProtectionGroup,
  type ProtectionValue,
  parseFontColor,
  readProtectionField,
  toProtectionConfig,
} from '../../core/validate/protection.js';
import { type Lang, ltr, num } from '../../i18n/index.js';
import { plainWorded, section } from '../blocks.js';
import { BLOCKS, CALLBACKS, INPUT_ACTION, protectFieldBlock, protectGroupBlock } from '../ids.js';
import { BLOCK_KIT_LIMITS } from '../limits.js';
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
 * The `protect` modal: every protection setting, grouped as the fields metadata says; on/off
 * settings as checkboxes per group, the colour as a select with the colour names, numbers as
 * number inputs with their bounds, the link expiry as text with its format in the hint. The
 * values shown are kept on the server as the modal's draft (`protectDraft`), so the submission
 * sends only what the person changed, even if someone else changed another setting meanwhile.
 * @see docs/architecture.md, "Validation" (protection config)
 */

const GROUPS = Object.keys(PROTECTION_GROUP_TITLES) as ProtectionGroup[];

const ShownSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** The server's copy of what the modal showed: each set field (dotted) with its value. */
export const ProtectDraftSchema = z.strictObject({ shown: ShownSchema });
export type ProtectDraft = z.infer<typeof ProtectDraftSchema>;

/** What the server keeps while a `protect` modal showing `current` is open. */
export function protectDraft(current: ProtectionConfig): ProtectDraft {
  return { shown: Object.fromEntries(flattenProtection(current).map((row) => [row.field, row.value])) };
}

function fieldsOf(group: ProtectionGroup): readonly ProtectionField[] {
  return PROTECTION_FIELDS.filter((f) => f.group === group);
}

function option(text: string, value: string, description?: string): PlainTextOption {
  return {
    text: { type: 'plain_text', text: plainWorded(text, BLOCK_KIT_LIMITS.optionText) },
    value,
    ...(description === undefined
      ? {}
      : {
          description: {
            type: 'plain_text',
            text: plainWorded(description, BLOCK_KIT_LIMITS.optionDescription),
          },
        }),
  };
}

function colorOption(hex: (typeof FONT_COLORS)[number], lang: Lang): PlainTextOption {
  return option(
    `${lang.t.changes.protectFormColourName(hex, FONT_COLOR_NAMES[hex])} (${ltr(lang, hex)})`,
    hex,
  );
}

/** A setting's label and help in the reader's language (core keeps the English). */
function labelOf(field: ProtectionField, lang: Lang): string {
  return lang.t.changes.protectFormFieldLabel(field.field, field.label);
}

function helpOf(field: ProtectionField, lang: Lang): string {
  return lang.t.changes.protectFormFieldHelp(field.field, field.help);
}

/** Opacity and beep volume are fractions; other numbers are whole unless the service already holds a fraction. */
function decimalAllowed(field: ProtectionField, current: ProtectionValue | undefined): boolean {
  return field.bounds?.max === 1 || (typeof current === 'number' && !Number.isInteger(current));
}

function boundsHint(field: ProtectionField, lang: Lang): string {
  const t = lang.t.changes;
  const b = field.bounds;
  const help = helpOf(field, lang);
  if (b === null) return help;
  return `${help} ${b.max === null ? t.protectFormAtLeast(num(lang, b.min)) : t.protectFormFromTo(num(lang, b.min), num(lang, b.max))}`;
}

function groupCheckboxes(group: ProtectionGroup, current: ProtectionConfig, lang: Lang): InputBlock | null {
  const booleans = fieldsOf(group).filter((f) => f.type === 'boolean');
  if (booleans.length === 0) return null;
  const options = booleans.map((f) => option(labelOf(f, lang), f.field, helpOf(f, lang)));
  const on = options.filter((o) => readProtectionField(current, o.value ?? '') === true);
  const element: Checkboxes = { type: 'checkboxes', action_id: INPUT_ACTION, options };
  if (on.length > 0) element.initial_options = on;
  return {
    type: 'input',
    block_id: protectGroupBlock(group),
    optional: true,
    label: { type: 'plain_text', text: lang.t.changes.protectFormOn },
    element,
  };
}

function fieldInput(field: ProtectionField, current: ProtectionConfig, lang: Lang): InputBlock {
  const t = lang.t.changes;
  const value = readProtectionField(current, field.field);
  const label = `${labelOf(field, lang)} (${ltr(lang, field.field)})`;
  const blockId = protectFieldBlock(field.field);
  switch (field.type) {
    case 'number': {
      const element: NumberInput = {
        type: 'number_input',
        action_id: INPUT_ACTION,
        is_decimal_allowed: decimalAllowed(field, value),
      };
      if (field.bounds !== null) element.min_value = String(field.bounds.min);
      if (field.bounds?.max !== null && field.bounds?.max !== undefined)
        element.max_value = String(field.bounds.max);
      if (typeof value === 'number') element.initial_value = String(value);
      return {
        type: 'input',
        block_id: blockId,
        optional: true,
        label: { type: 'plain_text', text: label },
        hint: { type: 'plain_text', text: boundsHint(field, lang) },
        element,
      };
    }
    case 'color': {
      const options = FONT_COLORS.map((c) => colorOption(c, lang));
      const hex = typeof value === 'string' ? parseFontColor(value) : null;
      const element: StaticSelect = {
        type: 'static_select',
        action_id: INPUT_ACTION,
        placeholder: { type: 'plain_text', text: t.protectFormPickColour },
        options,
      };
      if (hex !== null) element.initial_option = colorOption(hex, lang);
      return {
        type: 'input',
        block_id: blockId,
        optional: true,
        label: { type: 'plain_text', text: label },
        element,
      };
    }
    case 'duration':
      return textInput({
        blockId,
        label,
        initial: typeof value === 'string' ? value : undefined,
        maxLength: 20,
        placeholder: t.protectFormDurationPlaceholder,
        hint: t.protectFormKeepHint(helpOf(field, lang)),
        optional: true,
      });
    default:
      return textInput({
        blockId,
        label,
        initial: typeof value === 'string' ? value : undefined,
        maxLength: 100,
        hint: helpOf(field, lang),
        optional: true,
      });
  }
}

/**
 * The modal with the settings as read now; with `bounds`, "Put back after" under them (the
 * operation may be time-boxed, docs/time-boxed.md).
 */
export function protectModal(
  current: ProtectionConfig,
  draftId: string,
  lang: Lang,
  bounds?: WindowLimits,
): ModalView {
  const t = lang.t.changes;
  const blocks: KnownBlock[] = [section(t.protectFormIntro)];
  for (const group of GROUPS) {
    blocks.push(section(`*${t.protectFormGroupTitle(group, PROTECTION_GROUP_TITLES[group])}*`));
    const checks = groupCheckboxes(group, current, lang);
    if (checks !== null) blocks.push(checks);
    for (const field of fieldsOf(group)) {
      if (field.type !== 'boolean') blocks.push(fieldInput(field, current, lang));
    }
  }
  if (bounds !== undefined) blocks.push(...windowInputs(bounds, lang));
  blocks.push(reasonInput(lang));
  return modal({
    callbackId: CALLBACKS.protect,
    title: t.protectFormTitle,
    submit: t.formAskApproval,
    blocks,
    privateMetadata: draftMetadata(draftId),
    lang,
  });
}

export type ProtectSubmission =
  | {
      ok: true;
      changes: ProtectionConfig;
      rows: ProtectionDiffRow[];
      reason: string;
      /** "Put back after", when the form asks it: null for never. */
      timeBox: BoxAsked | null;
    }
  | { ok: false; errors: FieldErrors };

function setField(target: Record<string, unknown>, field: string, value: ProtectionValue): void {
  const [head = '', leaf] = field.split('.');
  if (leaf === undefined) {
    target[head] = value;
    return;
  }
  const existing = target[head];
  const group: Record<string, unknown> =
    typeof existing === 'object' && existing !== null ? { ...existing } : {};
  group[leaf] = value;
  target[head] = group;
}

function readNumber(field: ProtectionField, text: string, lang: Lang): number | string {
  const t = lang.t.changes;
  const clean = normalizeDigits(text)
    .replace(/\u066b/g, '.')
    .trim();
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(clean)) return t.protectFormNotNumber(ltr(lang, text));
  const value = Number(clean);
  const b = field.bounds;
  if (b !== null && (value < b.min || (b.max !== null && value > b.max))) {
    return b.max === null
      ? t.protectFormMustAtLeast(num(lang, b.min))
      : t.protectFormMustBetween(num(lang, b.min), num(lang, b.max));
  }
  return value;
}

/**
 * Reads a submitted `protect` modal against what it showed: inline errors for values that are
 * not valid, an error when nothing changed, else only the changed settings; with `window`, also
 * "Put back after" (its problems under its fields).
 */
export function parseProtectSubmission(
  state: ViewState,
  draft: ProtectDraft,
  lang: Lang,
  window?: { limits: WindowLimits; read: WindowReader },
): ProtectSubmission {
  const t = lang.t.changes;
  const { shown } = draft;
  const before: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(shown)) setField(before, field, value);
  const shownConfig = toProtectionConfig(before);

  const errors: FieldErrors = {};
  const wanted: Record<string, unknown> = {};
  for (const group of GROUPS) {
    const block = protectGroupBlock(group);
    // A group the form did not send back is left as it was.
    if (!state.has(block)) continue;
    const on = new Set(state.selectedMany(block));
    for (const field of fieldsOf(group)) {
      if (field.type !== 'boolean') continue;
      const checked = on.has(field.field);
      // An unticked box for a setting the service never reported is no change to "off".
      if (!checked && readProtectionField(shownConfig, field.field) === undefined) continue;
      setField(wanted, field.field, checked);
    }
  }
  for (const field of PROTECTION_FIELDS) {
    if (field.type === 'boolean') continue;
    const block = protectFieldBlock(field.field);
    if (field.type === 'color') {
      const picked = state.selected(block);
      if (picked === null) continue;
      const hex = parseFontColor(picked);
      if (hex === null) errors[block] = t.protectFormPickOneColour;
      else setField(wanted, field.field, hex);
      continue;
    }
    const text = state.text(block);
    // Empty means "keep": the service has no way to unset a setting.
    if (text === '') continue;
    if (field.type === 'number') {
      const value = readNumber(field, text, lang);
      if (typeof value === 'string') errors[block] = value;
      else setField(wanted, field.field, value);
    } else if (field.type === 'duration') {
      if (EXPIRE_TIME_PATTERN.test(text)) setField(wanted, field.field, text);
      else errors[block] = t.protectFormNotDuration(ltr(lang, text));
    } else {
      setField(wanted, field.field, text);
    }
  }
  const reason = state.text(BLOCKS.reason);
  const box = window === undefined ? null : parseWindowChoice(state, window.limits, window.read, lang);
  if (box !== null && !box.ok) Object.assign(errors, box.errors);
  if (Object.keys(errors).length > 0) {
    const problem = reasonProblem(reason, lang);
    if (problem !== null) errors[BLOCKS.reason] = problem;
    return { ok: false, errors };
  }
  const diff = diffProtection(shownConfig, toProtectionConfig(wanted));
  if (diff.rows.length === 0) {
    return {
      ok: false,
      errors: { [BLOCKS.reason]: t.protectFormNothingChanged },
    };
  }
  const problem = reasonProblem(reason, lang);
  if (problem !== null) return { ok: false, errors: { [BLOCKS.reason]: problem } };
  return { ok: true, changes: diff.changed, rows: diff.rows, reason, timeBox: box?.ok ? box.asked : null };
}
