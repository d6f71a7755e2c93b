import { isChangeOperation, OPERATION_SPECS } from './catalog.js';
import {
  COMMAND_HELP,
  COMMANDS,
  commandLine,
  SLASH_COMMAND,
  SLASH_COMMANDS,
  SUBWORDS,
  takesWindow,
  usageOf,
  WINDOW_USAGE,
} from './commands-help.js';
import { parseCommand } from './grammar.js';
import { KEYWORDS } from './operation-spec.js';
import { CHANGE_OPERATIONS } from './operations.js';

describe('help lists the whole grammar', () => {
  it('in the design’s order: by first word, the bare command first, reads before changes in the catalog’s order', () => {
    const changes = Object.values(OPERATION_SPECS).flatMap((op) => op.commands.map((c) => c.words.join(' ')));
    const rank = ({ spec, operation }: (typeof COMMANDS)[number]) => [
      KEYWORDS.indexOf(spec.words[0]),
      spec.words.length,
      operation !== null && isChangeOperation(operation) ? 1 + changes.indexOf(spec.words.join(' ')) : 0,
    ];
    const ranks = COMMANDS.map(rank);
    const sorted = [...ranks].sort((a, b) => a.reduce((d, x, i) => d || x - (b[i] ?? 0), 0));
    expect(ranks).toEqual(sorted);
    expect(COMMAND_HELP[0]?.usage).toBe('/vidops help');
    expect(COMMAND_HELP.map((h) => h.usage)).toEqual(
      expect.arrayContaining(['/vidops protect', '/vidops protect show']),
    );
  });

  it('knows every second word the commands declare, in help’s order', () => {
    const declared = COMMANDS.flatMap(({ spec }) => spec.words.slice(1));
    expect(new Set(SUBWORDS)).toEqual(new Set(declared));
    expect(SUBWORDS.indexOf('show')).toBeLessThan(SUBWORDS.indexOf('set'));
  });

  it('lists every command of every operation, with its words and the window it may take', () => {
    const usages = COMMAND_HELP.map((h) => h.usage);
    for (const operation of CHANGE_OPERATIONS) {
      const listed = SLASH_COMMANDS.filter((c) => c.operation === operation);
      const asked = OPERATION_SPECS[operation].commands.filter((c) => c.slash !== false);
      expect([operation, listed.length]).toEqual([operation, asked.length]);
      for (const c of listed) {
        const window = takesWindow(c) ? ` ${WINDOW_USAGE}` : '';
        expect(usages).toContain(`${SLASH_COMMAND} ${commandLine(c.spec)}${window}`);
      }
    }
    expect(usages).toContain('/vidops unblock <mobile>');
    expect(usages).toContain('/vidops protect set <field>=<value>… [for <duration>|until <end>]');
  });

  it('every example parses', () => {
    for (const entry of COMMAND_HELP) {
      const text = entry.example.slice(SLASH_COMMAND.length).trim();
      expect([entry.example, parseCommand(text, { phoneRegion: 'IR' }).ok]).toEqual([entry.example, true]);
    }
  });

  it('every change operation has a command that runs it', () => {
    const covered = new Set(COMMAND_HELP.map((h) => h.operation));
    // Many numbers ride on `unblock`'s words (several numbers, the form, `--file`).
    const ownWords = CHANGE_OPERATIONS.filter((op) => OPERATION_SPECS[op].commands.length > 0);
    expect(ownWords.filter((op) => !covered.has(op))).toEqual([]);
    expect(CHANGE_OPERATIONS.filter((op) => !covered.has(op))).toEqual(['viewer.unblock-many']);
  });

  it('only audit and delegation are for leads only', () => {
    expect(COMMAND_HELP.filter((h) => h.leadsOnly).map((h) => h.usage)).toEqual([
      '/vidops audit [n]',
      '/vidops delegate <@user> until <date or duration> [reason]',
      '/vidops delegate cancel',
    ]);
  });

  it.each([
    ['whitelist', '/vidops whitelist'],
    ['whitelist add', '/vidops whitelist add <ip>… [for <duration>|until <end>]'],
    ['protect', '/vidops protect'],
    ['audit', '/vidops audit [n]'],
  ])('usage of %s is %s', (command, usage) => {
    expect(usageOf(command)).toBe(usage);
  });

  it('asking for the usage of a command that does not exist is a programming error', () => {
    expect(() => usageOf('frobnicate')).toThrow('no help entry for "frobnicate"');
  });
});
