import { REQUEST_T0, requestWith } from '../../test/fixtures/requests.js';
import { type BatchStep, previewBatch } from '../core/batch.js';
import { parseNumberList } from '../core/validate/phone-list.js';
import { FSI, langFor, PDI } from '../i18n/index.js';
import { batchMessage, batchPreviewLines } from './batch.js';
import { ACTIONS } from './ids.js';
import { assertBlockKitLimits } from './limits.js';

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

describe('a batch’s message, as its requester reads it', () => {
  const numbers = Array.from({ length: 500 }, (_, i) => `0912${String(1_000_000 + i)}`);
  const request = (state: string) =>
    requestWith({
      id: 'R-0000BATC',
      operation: 'viewer.unblock-many',
      params: { mobileNumbers: numbers },
      target: '500 viewers',
      state,
    });
  const step = (index: number, state: BatchStep['state']): BatchStep => ({
    requestId: 'R-0000BATC',
    index,
    mobileNumber: numbers[index] ?? '',
    state,
    error:
      state === 'failed'
        ? { name: 'ValidationError', message: 'mobileNumber is not blocked', status: 400 }
        : null,
    updatedAt: REQUEST_T0,
  });
  const steps = numbers.map((_, i) => step(i, i % 10 === 0 ? 'failed' : i === 7 ? 'unknown' : 'done'));

  test.each(['en', 'fa'] as const)(
    'while it runs, the counts so far, a lost answer counted unknown (%s)',
    (locale) => {
      const shown = batchMessage(request('executing'), steps.slice(0, 27), langFor(locale));
      expect(shown.text).toBe(
        locale === 'en'
          ? 'Batch R-0000BATC: 23 of 500 done, 3 failed, 1 unknown'
          : `دسته‌ی ${FSI}R-0000BATC${PDI}: ۲۳ از ۵۰۰ انجام شد، ۳ ناموفق، ۱ نامعلوم`,
      );
    },
  );

  test('at its end: each failure and why (numbers masked), the unknown said unknown, Retry the failed, History; within Slack’s limits', () => {
    const shown = batchMessage(request('succeeded'), steps, langFor('en'));
    const all = JSON.stringify(shown);
    expect(shown.text).toContain('449 of 500 unblocked');
    expect(shown.text).toContain('50 failed');
    expect(shown.text).toContain('1 unknown');
    expect(all).toContain('0912***0000');
    expect(all).toContain('mobileNumber is not blocked');
    expect(all).not.toMatch(/09121\d{6}/);
    expect(all).toContain(ACTIONS.batchRetry);
    expect(all.match(new RegExp(ACTIONS.batchHistory, 'g'))).toHaveLength(5);
    expect(() => assertBlockKitLimits(shown, 'message')).not.toThrow();
  });

  test('a batch that ran with no failure offers no Retry', () => {
    const shown = batchMessage(
      request('succeeded'),
      steps.map((s) => ({ ...s, state: 'done' as const, error: null })),
      langFor('fa'),
    );
    expect(JSON.stringify(shown)).not.toContain(ACTIONS.batchRetry);
    expect(shown.text).toContain('۵۰۰ از ۵۰۰');
  });
});
