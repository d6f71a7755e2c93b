import { stripBidiControls as shown } from '../../core/bidi.js';
import {
  formatProtectionValue,
  type ProtectionValue,
  protectionField,
} from '../../core/validate/protection.js';
import { ltr, num } from '../../i18n/index.js';
import { code, isolated, safeWorded } from '../../views/blocks.js';
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
  slack: (preview, lang) => [
    lang.t.approvals.apprSettingsChange(num(lang, preview.rows.length)),
    ...preview.rows.map((row) => {
      const english = protectionField(row.field)?.label ?? row.field;
      const label = lang.t.changes.protectFormFieldLabel(row.field, english);
      const value = (v: Parameters<typeof formatProtectionValue>[1]) =>
        isolated(lang, formatProtectionValue(row.field, v), 200);
      return `• ${safeWorded(label, 80)} (${ltr(lang, code(row.field))}): ${value(row.before)} → *${value(row.after)}*`;
    }),
  ],
  cli: (preview, lang) =>
    preview.rows.map((row) => {
      const show = (v: ProtectionValue | null) =>
        v === null ? lang.t.cli.cliNotSet : ltr(lang, shown(formatProtectionValue(row.field, v)));
      return `  ${ltr(lang, row.field)}: ${show(row.before)} → ${show(row.after)}`;
    }),
});
