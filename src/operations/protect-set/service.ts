import { InputError } from '../../core/errors.js';
import { say } from '../../core/said.js';
import { diffProtection, flattenProtection, formatProtectionValue } from '../../core/validate/protection.js';
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
});
