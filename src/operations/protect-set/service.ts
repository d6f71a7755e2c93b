import { InputError } from '../../core/errors.js';
import { planProtection } from '../../core/put-back.js';
import { say } from '../../core/said.js';
import {
  diffProtection,
  flattenProtection,
  formatProtectionValue,
  protectionOf,
  readProtectionField,
} from '../../core/validate/protection.js';
import { serviceOf } from '../common/service.js';
import { spec } from './spec.js';

/** Only the settings that differ from the current ones are sent. */
export const service = serviceOf(spec, {
  async prepare(input, io) {
    const { raw: _raw, ...current } = await io.client.protection.get();
    const diff = diffProtection(current, input.changes);
    if (diff.rows.length === 0) {
      const asked = flattenProtection(input.changes);
      if (asked.length === 0) throw new InputError(say.prepNoSetting());
      const already = asked.map((row) => ({
        field: row.field,
        value: formatProtectionValue(row.field, row.value),
      }));
      throw new InputError(say.prepAlready(already));
    }
    return {
      params: { changes: diff.changed },
      preview: { kind: 'protection', rows: diff.rows },
      warnings: [],
    };
  },
  execute: (p, { client }) => client.protection.update(p.changes),
  /** The old values are read just before sending: what was there when it was applied. */
  async undo(p, _preview, { client }) {
    const { raw: _raw, ...current } = await client.protection.get();
    const rows = flattenProtection(p.changes).map((row) => ({
      field: row.field,
      before: readProtectionField(current, row.field) ?? null,
      after: row.value,
    }));
    return { kind: 'protection', rows };
  },
  async again(undo) {
    if (undo.kind !== 'protection') throw new InputError(say.revertBeforeUnknown());
    return {
      params: { changes: protectionOf(undo.rows.map((r) => ({ field: r.field, value: r.after }))) },
      preview: { kind: 'protection', rows: undo.rows.map((r) => ({ ...r })) },
    };
  },
  async inverse(undo, io) {
    if (undo.kind !== 'protection') throw new InputError(say.revertBeforeUnknown());
    const { raw: _raw, ...current } = await io.client.protection.get();
    const plan = planProtection(undo, current);
    const back = plan.back.map((row) => ({ field: row.field, value: row.to }));
    return {
      input: back.length === 0 ? null : { changes: protectionOf(back) },
      conflicts: plan.conflicts,
    };
  },
});
