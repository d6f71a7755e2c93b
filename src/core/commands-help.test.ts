import { COMMAND_HELP, SLASH_COMMAND, usageOf } from './commands-help.js';
import { parseCommand } from './grammar.js';
import { CHANGE_OPERATIONS } from './operations.js';

describe('help lists the whole grammar', () => {
  it('in the design’s order', () => {
    expect(COMMAND_HELP.map((h) => h.usage)).toEqual([
      '/vidops help',
      '/vidops unblock <mobile>',
      '/vidops viewer <mobile>',
      '/vidops retry <fileId>',
      '/vidops whitelist',
      '/vidops whitelist add <ip>… [for <duration>|until <end>]',
      '/vidops whitelist remove <ip>… [for <duration>|until <end>]',
      '/vidops protect',
      '/vidops protect show',
      '/vidops protect set <field>=<value>… [for <duration>|until <end>]',
      '/vidops folder create',
      '/vidops folder edit <bucketId>',
      '/vidops folder delete <bucketId>',
      '/vidops file edit <fileId>',
      '/vidops file delete <fileId>',
      '/vidops playlist create',
      '/vidops playlist edit <playlistId>',
      '/vidops playlist delete <playlistId>',
      '/vidops requests',
      '/vidops audit [n]',
      '/vidops explain <code>',
      '/vidops delegate <@user> until <date or duration> [reason]',
      '/vidops delegate cancel',
      '/vidops lang [fa|en]',
    ]);
  });

  it('every example parses', () => {
    for (const entry of COMMAND_HELP) {
      const text = entry.example.slice(SLASH_COMMAND.length).trim();
      expect([entry.example, parseCommand(text, { phoneRegion: 'IR' }).ok]).toEqual([entry.example, true]);
    }
  });

  it('every change operation has a command that runs it', () => {
    const covered = new Set(COMMAND_HELP.map((h) => h.operation));
    expect(CHANGE_OPERATIONS.filter((op) => !covered.has(op))).toEqual([]);
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
