import { changeHandlers, typedHandlers } from '../src/commands/changes.js';
import { everydayHandlers } from '../src/commands/everyday.js';
import { CHANGE_OPERATIONS, OPERATION_SPECS } from '../src/core/catalog.js';
import { COMMAND_HELP, SLASH_COMMAND } from '../src/core/commands-help.js';
import { SERVICES } from '../src/operations/services.js';
import { ENDPOINTS, SPECS } from '../src/operations/specs.js';
import { VIEWS } from '../src/operations/views.js';

/**
 * The recipe of docs/architecture.md ("Adding an operation: every file it touches"), held: an
 * operation added to its module and the three lists is in every table, or this says which.
 */

const tables = { SPECS, SERVICES, VIEWS };
const handlers: Readonly<Record<string, unknown>> = {
  ...typedHandlers,
  ...everydayHandlers,
  ...changeHandlers,
};

describe('an engineer adds an operation', () => {
  it.each(Object.entries(tables))(
    'the %s list holds every operation, each under its own name',
    (_, table) => {
      expect(Object.keys(table)).toEqual(CHANGE_OPERATIONS);
      for (const [name, entry] of Object.entries(table)) expect([name, entry.name]).toEqual([name, name]);
    },
  );

  it.each(CHANGE_OPERATIONS)(
    '%s: its endpoint, its Slack handlers, its help lines and its undo',
    (operation) => {
      const spec = OPERATION_SPECS[operation];
      const service = SERVICES[operation];
      expect(ENDPOINTS[operation]).toBe(spec.endpoint);
      for (const command of spec.commands.filter((c) => c.slash !== false)) {
        expect([command.kind, typeof handlers[command.kind]]).toEqual([command.kind, 'function']);
        expect(
          COMMAND_HELP.some((h) => h.usage.startsWith(`${SLASH_COMMAND} ${command.words.join(' ')}`)),
        ).toBe(true);
      }
      // A change a Revert or a put-back undoes records what it replaced and plans its inverse.
      const undoes = spec.undo !== 'none';
      expect([operation, service.undo !== undefined, service.inverse !== undefined]).toEqual([
        operation,
        undoes,
        undoes,
      ]);
      expect([operation, service.again !== undefined]).toEqual([operation, spec.undo === 'time-box']);
    },
  );
});
