import type { JsonValue } from '../../core/json.js';
import { type ProtectionValue, protectionField } from '../../core/validate/protection.js';
import { beforeAfter, list, ltr, num } from '../../i18n/index.js';
import { code, isolateOutside, safeWorded } from '../../views/blocks.js';
import { protectionValueText } from '../../views/protection-text.js';
import { AUDIT_TITLE_LIMIT, isObj, viewsOf } from '../common/views.js';
import { messages } from './messages.js';
import { spec } from './spec.js';

/** How much of the settings a done change set an audit sentence shows. */
const SETTINGS_LIMIT = 300;

/** The settings a change sends, by dotted name (`player.offlineMode`), nested objects opened. */
function settingsIn(changes: JsonValue | undefined, prefix = ''): [string, ProtectionValue][] {
  if (!isObj(changes)) return [];
  return Object.entries(changes).flatMap(([key, value]): [string, ProtectionValue][] => {
    const field = `${prefix}${key}`;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      return [[field, value]];
    }
    return settingsIn(value, `${field}.`);
  });
}

export const views = viewsOf(spec, {
  messages,
  ask: (p) => messages[p.lang.locale].auditAskProtectSet,
  facts: ({ rows }, { own }) =>
    rows.length === 0 ? [] : [own(rows.map((row) => row.field).join(', '), AUDIT_TITLE_LIMIT)],
  // What was set, in words: `Protection settings changed (preventZoom: on, player.offlineMode: off)`.
  done({ params, lang, own }) {
    const set = settingsIn(isObj(params) ? params.changes : undefined).map(
      ([field, value]) => `${field}: ${protectionValueText(field, value, lang)}`,
    );
    return messages[lang.locale].auditProtectionChanged(
      set.length > 0 ? ` (${own(list(lang, set), SETTINGS_LIMIT)})` : '',
    );
  },
  // Values in the reader's words (`روشن`, not `on`), the change isolated whole (`beforeAfter`).
  slack: (preview, lang) => [
    messages[lang.locale].apprSettingsChange(num(lang, preview.rows.length)),
    ...preview.rows.map((row) => {
      const english = protectionField(row.field)?.label ?? row.field;
      const label = lang.t.changes.protectFormFieldLabel(row.field, english);
      const value = (v: typeof row.before) => {
        const text = protectionValueText(row.field, v, lang);
        const shown = safeWorded(text, 200);
        // In Persian `beforeAfter` isolates each side; in English only outside text that could reorder.
        return lang.locale === 'fa' ? shown : isolateOutside(lang, text, shown);
      };
      return `• ${safeWorded(label, 80)} (${ltr(lang, code(row.field))}): ${beforeAfter(lang, value(row.before), `*${value(row.after)}*`)}`;
    }),
  ],
  cli: (preview, lang) =>
    preview.rows.map((row) => {
      const show = (v: typeof row.before) =>
        v === null ? messages[lang.locale].cliNotSet : protectionValueText(row.field, v, lang);
      return `  ${ltr(lang, row.field)}: ${beforeAfter(lang, show(row.before), show(row.after))}`;
    }),
});
