import { CLI_COMMANDS, type Invocation, parseInvocation } from './args.js';

function run(argv: string[]): Extract<Invocation, { kind: 'run' }> {
  const result = parseInvocation(argv);
  if (result.kind !== 'run') throw new Error(`expected a command, got ${JSON.stringify(result)}`);
  return result;
}

function usage(argv: string[]): string {
  const result = parseInvocation(argv);
  if (result.kind !== 'usage') throw new Error(`expected a usage error, got ${result.kind}`);
  return result.message;
}

describe('reading the command line', () => {
  test.each([
    [['unblock', '+98', '912', '345', '6789'], 'unblock', ['+98', '912', '345', '6789']],
    [['WHITELIST', 'Add', '203.0.113.1'], 'whitelist add', ['203.0.113.1']],
    [['whitelist'], 'whitelist', []],
    [['folder', 'delete', 'abc', '--confirm', 'abc'], 'folder delete', ['abc']],
    [['--as', 'ULEAD1', 'approve', 'R-7K2M9QXA'], 'approve', ['R-7K2M9QXA']],
    [['audit', 'tail', '-n', '5'], 'audit tail', []],
  ])('%j is %s with words %j', (argv, id, words) => {
    const result = run(argv);
    expect(result.command.id).toBe(id);
    expect(result.words).toEqual(words);
  });

  test('flags keep their values wherever they stand', () => {
    const result = run(['audit', 'export', '--format', 'csv', '--since=2024-10-17', '--out', 'a.csv']);
    expect(result.flags).toEqual({ format: 'csv', since: '2024-10-17', out: 'a.csv' });
  });

  test('help for a command, by --help or by `help <command>`', () => {
    expect(parseInvocation(['folder', 'delete', '--help'])).toMatchObject({
      kind: 'help',
      command: { id: 'folder delete' },
    });
    expect(parseInvocation(['help', 'audit', 'export'])).toMatchObject({
      kind: 'help',
      command: { id: 'audit export' },
    });
    expect(parseInvocation(['-h'])).toEqual({ kind: 'help', command: null });
  });

  test.each([
    [['unblok', '0912'], 'Did you mean `vidops unblock`?'],
    [
      ['audit', 'purge'],
      '`vidops audit` has no "purge"; it has `audit verify`, `audit checkpoint`, `audit checkpoints`, `audit keygen`, `audit witness`, `audit export`, `audit tail`.',
    ],
    [['retry'], '`vidops retry` needs more: vidops retry <fileId>'],
    [['retry', 'a', 'b'], 'takes 1 word after it; remove "b"'],
    [['whitelist', '--confirm', 'x'], '`vidops whitelist` does not take --confirm.'],
    [['reject', 'R-7K2M9QXA'], '`vidops reject` needs --as and --reason.'],
    [['unblock', '--nope'], "Unknown option '--nope'"],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(usage(argv)).toContain(message);
  });

  test('every command has a usage line that starts with its words', () => {
    for (const command of CLI_COMMANDS) {
      expect(command.usage.startsWith(`vidops ${command.id}`)).toBe(true);
    }
  });
});
