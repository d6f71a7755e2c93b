import type { ChangeOperation, Preview } from '../core/catalog.js';
import type { AuditEvent } from '../core/model.js';
import { ENGLISH, langFor } from '../i18n/lang.js';
import { CLI_COMMANDS } from './args.js';
import {
  auditCsvLine,
  auditTailLine,
  commandHelp,
  csvField,
  generalHelp,
  neutralizeFormula,
  previewLines,
  usageError,
} from './format.js';

function event(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    seq: 7,
    id: '5b0c3a55-1a2b-4c3d-9e8f-000000000007',
    type: 'succeeded',
    at: '2024-10-17T06:00:00.000Z',
    actor: { id: 'system', name: 'vidops' },
    operation: 'viewer.unblock',
    target: 'viewer 09123456789',
    params: { mobileNumber: '09123456789' },
    requestId: 'R-7K2M9QXA',
    outcome: { unblocked: '09123456789' },
    error: null,
    prevHash: 'a'.repeat(64),
    hash: 'b'.repeat(64),
    ...overrides,
  };
}

describe('CSV fields', () => {
  test.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['', ''],
  ])('%j is written %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  test('a row keeps full numbers and JSON columns, and ends with CRLF', () => {
    const line = auditCsvLine(event());
    expect(line.endsWith('\r\n')).toBe(true);
    expect(line).toContain(',viewer 09123456789,R-7K2M9QXA,"{""mobileNumber"":""09123456789""}",');
  });
});

describe('audit tail', () => {
  test('one readable line, numbers masked in the target and the outcome, IDs and hashes whole', () => {
    const line = auditTailLine(event());
    expect(line).toBe(
      '#7  2024-10-17T06:00:00.000Z  succeeded  Viewer 0912***6789 unblocked · R-7K2M9QXA  hash bbbbbbbbbbbb',
    );
  });

  test('shows the error of a failed event', () => {
    const line = auditTailLine(
      event({
        type: 'failed',
        outcome: null,
        error: { name: 'ServerError', message: 'upstream 500', status: 500 },
      }),
    );
    expect(line).toContain(
      'Could not unblock viewer 0912***6789: ServerError (500): upstream 500 · R-7K2M9QXA',
    );
  });

  test('no JSON, however the outcome looks', () => {
    const line = auditTailLine(
      event({
        type: 'requested',
        actor: { id: 'U0AGENT1', name: 'ana' },
        outcome: { expiresAt: null, paramsHash: 'c'.repeat(64), preview: { kind: 'unblock' }, quorum: 0 },
      }),
    );
    expect(line).toBe(
      '#7  2024-10-17T06:00:00.000Z  requested  ana (U0AGENT1) asked to unblock viewer 0912***6789, no reason given, runs without approval · R-7K2M9QXA  hash bbbbbbbbbbbb',
    );
  });
});

describe('CSV export against formula injection', () => {
  test.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+98 912', "'+98 912"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ["'quoted", "''quoted"],
    ['ana', 'ana'],
  ])('a cell %j is written %j', (value, written) => {
    const line = auditCsvLine(event({ actor: { id: 'U0AGENT1', name: value } }));
    expect(line).toContain(`,U0AGENT1,${written},viewer.unblock,`);
  });

  test('the neutralising can be undone: one leading quote is dropped', () => {
    for (const value of ['=1', "'=1", "''x", 'plain']) {
      const written = neutralizeFormula(value);
      expect(written.startsWith("'") && /^[=+\-@\t\r']/.test(value) ? written.slice(1) : written).toBe(value);
    }
  });
});

describe('previews', () => {
  test.each([
    [
      'whitelist',
      'whitelist.set',
      { kind: 'whitelist', before: [], after: ['203.0.113.1'], added: ['203.0.113.1'], removed: [] },
      ['  before: (empty)', '  after:  203.0.113.1', '  added: 203.0.113.1; removed: none'],
    ],
    [
      'protection',
      'protect.set',
      { kind: 'protection', rows: [{ field: 'fontColor', before: '#ffff00', after: '#e74c3c' }] },
      ['  fontColor: yellow (#ffff00) → red (#e74c3c)'],
    ],
    [
      'edit',
      'folder.edit',
      {
        kind: 'edit',
        resource: 'folder',
        id: 'f1',
        before: { title: 'Old', description: null },
        after: { title: 'New', description: null },
      },
      ['  title: "Old" → "New"'],
    ],
    [
      'playlist edit, files as numbered lists before and after',
      'playlist.edit',
      {
        kind: 'edit',
        resource: 'playlist',
        id: 'p1',
        before: { title: 'Course', files: [{ _id: 'f1', title: 'Intro' }] },
        after: { title: null, files: [{ _id: 'f2' }, { _id: 'f1', title: 'Intro' }] },
      },
      [
        '  files after (2):',
        '    1. f2',
        '    2. f1 ("Intro")',
        '  files before (1):',
        '    1. f1 ("Intro")',
      ],
    ],
    [
      'playlist edit when the playlist could not be looked up',
      'playlist.edit',
      {
        kind: 'edit',
        resource: 'playlist',
        id: 'p1',
        before: null,
        after: { title: 'Course', files: [] },
      },
      [
        '  title: "Course"',
        '  files after (0):',
        '    (none)',
        '  files before: not known (the playlist could not be looked up)',
      ],
    ],
    [
      'unblock',
      'viewer.unblock',
      { kind: 'unblock', mobileNumber: '09123456789', blocked: true, actionType: 'attacker' },
      ['  viewer 0912***6789: blocked (attacker)'],
    ],
    [
      'a stored preview this build cannot read',
      'folder.delete',
      null,
      ['  preview not available (the request was made by an earlier version of vidops)'],
    ],
  ])('%s', (_name, operation, preview, lines) => {
    const subject = { operation, preview } as { operation: ChangeOperation; preview: Preview | null };
    expect(previewLines(subject)).toEqual(lines);
  });
});

test('a usage error without a command points to help', () => {
  expect(usageError('Give a command.', null)).toBe(
    'vidops: Give a command.\nRun `vidops help` for the commands.\n',
  );
});

test('an operator whose CLI speaks Persian reads help: every command is summed up in Persian', () => {
  const fa = langFor('fa', 'Asia/Tehran');
  const help = generalHelp(fa).split('\n');
  const listed = CLI_COMMANDS.filter((c) => !c.alias);
  for (const c of listed) {
    const summary = help[help.indexOf(`  ${c.usage}`) + 1] ?? '';
    expect([c.id, summary]).toEqual([c.id, expect.stringMatching(/^ {6}[\u0600-\u06FF]/)]);
    expect(commandHelp(c, fa).split('\n')[2]).toBe(summary.trim());
  }
  // In English each summary is the command's own, as before.
  const english = generalHelp(ENGLISH);
  for (const c of listed) expect(english).toContain(`  ${c.usage}\n      ${c.summary}\n`);
});
