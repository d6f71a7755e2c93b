import { stripBidiControls } from '../core/bidi.js';
import {
  FONT_COLOR_NAMES,
  formatProtectionValue,
  PROTECTION_GROUP_TITLES,
  type ProtectionField,
  type ProtectionGroup,
  type ProtectionValue,
  parseFontColor,
  protectionField,
} from '../core/validate/protection.js';
import { type Lang, ltr } from '../i18n/index.js';

/**
 * The protection settings as a reader of each language reads them (`protect show`, the App Home,
 * the CLI): field labels and group titles from the catalog (the same words as the settings
 * modal), on/off and colour names in words, everything else as sent (without bidi controls: a
 * watermark text is outside text), isolated in Persian. The core keeps the English
 * (src/core/validate/protection.ts); English here is exactly its text, without bidi controls.
 * @see docs/architecture.md, "Languages"
 */

/** `Moving text on screen`, `متن متحرک روی صفحه`. */
export function protectionLabel(field: Pick<ProtectionField, 'field' | 'label'>, lang: Lang): string {
  return lang.t.changes.protectFormFieldLabel(field.field, field.label);
}

/** `Watermark text`, `متن واترمارک`. */
export function protectionGroupTitle(group: ProtectionGroup, lang: Lang): string {
  return lang.t.changes.protectFormGroupTitle(group, PROTECTION_GROUP_TITLES[group]);
}

/**
 * How a value reads: `on`, `yellow (#ffff00)`, `not set`; in Persian `روشن`, `زرد (#ffff00)` (the
 * hex isolated). The caller isolates the whole value in Persian text (`ltr`).
 */
export function protectionValueText(
  field: string,
  value: ProtectionValue | null | undefined,
  lang: Lang,
): string {
  if (lang.locale === 'en') return stripBidiControls(formatProtectionValue(field, value));
  const t = lang.t.home;
  if (value === null || value === undefined) return t.protectValueNotSet;
  if (typeof value === 'boolean') return value ? t.protectValueOn : t.protectValueOff;
  const hex =
    protectionField(field)?.type === 'color' && typeof value === 'string' ? parseFontColor(value) : null;
  if (hex !== null) {
    const name = lang.t.changes.protectFormColourName(hex, FONT_COLOR_NAMES[hex]);
    return `${name} (${ltr(lang, hex)})`;
  }
  // Numbers, durations and texts as sent: the caller isolates the whole value.
  return stripBidiControls(String(value));
}
