import { previewBatch } from '../core/batch.js';
import { parseNumberList } from '../core/validate/phone-list.js';
import { langFor } from '../i18n/index.js';
import { batchPreviewLines } from './batch.js';

/** The list a person confirms before a batch is asked for, in English and Persian (docs/approvals.md). */

const RULE = { within: '30d', withinMs: 30 * 86_400_000, max: 2 };
const PASTED = ['09121234567، 0912 700 0001', 'name, ۰۹۱۲۱۲۳۴۵۶۷', '12345', '+989127000002'].join('\n');
const twiceBefore = (viewer: string) =>
  viewer === '09127000001' ? [{ outcome: 'succeeded' as const }, { outcome: 'succeeded' as const }] : [];

describe('an agent pastes a list of numbers', () => {
  const preview = previewBatch(parseNumberList(PASTED, 'IR'), RULE, 10, twiceBefore);

  test('each number once, the invalid line with its number, the repeat viewer marked', () => {
    expect(preview.numbers.map((n) => [n.param, n.lines, n.repeat?.nth ?? null])).toEqual([
      ['09121234567', [1, 2], null],
      ['09127000001', [1], 3],
      ['09127000002', [4], null],
    ]);
    expect(preview).toMatchObject({ duplicates: 1, repeats: 1, lead: { kind: 'repeats', count: 1 } });
    expect(preview.refused.map((r) => [r.line, r.read])).toEqual([[3, '12345']]);
  });

  test('over bulk.maxWithoutApproval the whole list waits for a lead, whatever its viewers', () => {
    expect(previewBatch(parseNumberList(PASTED, 'IR'), null, 2, twiceBefore).lead).toEqual({
      kind: 'size',
      size: 3,
      max: 2,
    });
    expect(previewBatch(parseNumberList(PASTED, 'IR'), null, 10, twiceBefore).lead).toBeNull();
  });

  test('the agent reads the summary in English, numbers masked in Slack and whole on the command line', () => {
    const lines = batchPreviewLines(preview, langFor('en'));
    expect(lines[0]).toBe('3 to unblock, 1 refused, 1 needs a lead');
    expect(lines).toContain('A lead approves the whole list: it holds 1 repeat viewer.');
    expect(lines).toContain('1 duplicate merged.');
    expect(lines.some((l) => l.startsWith('line 3: 12345: '))).toBe(true);
    expect(lines).toContain('`0912***0001`: the 3rd unblock in 30 days');
    expect(batchPreviewLines(preview, langFor('en'), true)).toContain(
      '09127000001: the 3rd unblock in 30 days',
    );
  });

  test('the agent reads the summary in Persian, with Persian digits', () => {
    const lines = batchPreviewLines(preview, langFor('fa'));
    expect(lines[0]).toBe('۳ برای رفع مسدودی، ۱ ردشده، ۱ نیازمند سرپرست');
    expect(lines.some((l) => l.startsWith('خط ۳: '))).toBe(true);
    expect(lines).toContain('یک سرپرست کل فهرست را تأیید می‌کند: ۱ بیننده‌ی تکراری در آن است.');
  });

  test('a list with no number says nothing will be sent', () => {
    const none = previewBatch(parseNumberList('hello\nworld 12', 'IR'), RULE, 10, () => []);
    expect(none.lead).toBeNull();
    expect(batchPreviewLines(none, langFor('en')).slice(0, 2)).toEqual([
      '0 to unblock, 2 refused, 0 need a lead',
      'No number to unblock was found: nothing will be sent.',
    ]);
  });
});
