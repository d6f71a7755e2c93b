import type { AuditEvent } from '../core/model.js';
import { auditCsvLine, auditTailLine, csvField, previewLines, usageError } from './format.js';

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
  test('masks numbers in the target and the outcome but leaves IDs and hashes whole', () => {
    const line = auditTailLine(event());
    expect(line).toBe(
      `#7  2024-10-17T06:00:00.000Z  succeeded  viewer.unblock  viewer 0912***6789  by vidops (system)  R-7K2M9QXA  bbbbbbbbbbbb  — {"unblocked":"0912***6789"}`,
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
    expect(line.endsWith('— ServerError: upstream 500')).toBe(true);
  });
});

describe('previews', () => {
  test.each([
    [
      'whitelist',
      { kind: 'whitelist', before: [], after: ['203.0.113.1'], added: ['203.0.113.1'], removed: [] },
      ['  before: (empty)', '  after:  203.0.113.1', '  added: 203.0.113.1; removed: none'],
    ],
    [
      'protection',
      { kind: 'protection', rows: [{ field: 'fontColor', before: '#ffff00', after: '#e74c3c' }] },
      ['  fontColor: yellow (#ffff00) → red (#e74c3c)'],
    ],
    [
      'edit',
      {
        kind: 'edit',
        resource: 'folder',
        id: 'f1',
        before: { title: 'Old' },
        after: { title: 'New', description: null },
      },
      ['  title: "Old" → "New"'],
    ],
    [
      'playlist edit, files as numbered lists before and after',
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
      { kind: 'unblock', mobileNumber: '09123456789', blocked: true, actionType: 'attacker' },
      ['  viewer 0912***6789: blocked (attacker)'],
    ],
  ])('%s', (_name, preview, lines) => {
    expect(previewLines(preview)).toEqual(lines);
  });
});

test('a usage error without a command points to help', () => {
  expect(usageError('Give a command.', null)).toBe(
    'vidops: Give a command.\nRun `vidops help` for the commands.\n',
  );
});
