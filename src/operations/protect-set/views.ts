import { protectionField } from '../../core/validate/protection.js';
import { beforeAfter, ltr, num } from '../../i18n/index.js';
import { code, isolateOutside, safeWorded } from '../../views/blocks.js';
import { protectionValueText } from '../../views/protection-text.js';
import { AUDIT_TITLE_LIMIT, isObj, viewsOf } from '../common/views.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  ask: (p) => p.t.auditAskProtectSet,
  done({ params, t, own }) {
    const changes = isObj(params) && isObj(params.changes) ? Object.keys(params.changes) : [];
    return t.auditProtectionChanged(
      changes.length > 0 ? ` (${own(changes.join(', '), AUDIT_TITLE_LIMIT)})` : '',
    );
  },
  // Values in the reader's words (`روشن`, not `on`), the change isolated whole (`beforeAfter`).
  slack: (preview, lang) => [
    lang.t.approvals.apprSettingsChange(num(lang, preview.rows.length)),
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
        v === null ? lang.t.cli.cliNotSet : protectionValueText(row.field, v, lang);
      return `  ${ltr(lang, row.field)}: ${beforeAfter(lang, show(row.before), show(row.after))}`;
    }),
});
