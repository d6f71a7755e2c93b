import { newTimeBox, readWindow, resolveWindow, type TimeBox } from '../core/time-box.js';
import { langFor } from '../i18n/index.js';
import { sayIn } from './errors.js';
import {
  type BoxModel,
  clockText,
  goesBackText,
  notRevertibleText,
  PUT_BACK_CHOICES,
  putBackChoices,
  putBackText,
  reminderText,
  spanText,
  windowText,
} from './time-box.js';

// 14:05 in Tehran (UTC+3:30, no summer time), 1405/08/30.
const NOW = new Date('2026-11-21T10:35:00.000Z');
const TEHRAN = 'Asia/Tehran';
const EN = langFor('en', TEHRAN);
const FA = langFor('fa', TEHRAN);
const H = 3_600_000;

/** The text without the isolates that keep left-to-right tokens whole in Persian. */
const bare = (text: string | null): string | null =>
  text === null ? null : text.replace(/[\u2068\u2069]/g, '');

function box(overrides: Partial<TimeBox> = {}): TimeBox {
  return {
    ...newTimeBox({ kind: 'for', ms: 2 * H, text: '2h' }),
    endsAt: '2026-11-21T12:35:00.000Z',
    ...overrides,
  };
}

function protection(overrides: Partial<TimeBox> = {}): BoxModel {
  return {
    operation: 'protect.set',
    updatedAt: '2026-11-21T12:35:10.000Z',
    undo: { kind: 'protection', rows: [{ field: 'preventZoom', before: true, after: false }] },
    timeBox: box(overrides),
  };
}

function whitelist(overrides: Partial<TimeBox> = {}): BoxModel {
  return {
    operation: 'whitelist.set',
    updatedAt: '2026-11-21T12:35:10.000Z',
    undo: { kind: 'whitelist', before: ['1.2.3.4'], added: ['5.6.7.8'], removed: ['1.2.3.4'] },
    timeBox: box(overrides),
  };
}

describe('times and lengths as the reader reads them', () => {
  it('a time today is the hour alone, in the display time zone, with Persian digits in Persian', () => {
    expect(clockText(EN, '2026-11-21T12:35:00.000Z', NOW)).toBe('16:05');
    expect(clockText(FA, '2026-11-21T12:35:00.000Z', NOW)).toBe('ساعت ۱۶:۰۵');
  });

  it('a time on another day carries its date, Solar Hijri in Persian', () => {
    expect(clockText(EN, '2026-11-28T14:30:00.000Z', NOW)).toBe('28 Nov 2026, 18:00 GMT+3:30');
    expect(clockText(FA, '2026-11-28T14:30:00.000Z', NOW)).toBe('۷ آذر ۱۴۰۵ ساعت ۱۸:۰۰');
  });

  it('"today" is the display time zone’s day: 23:50 in Tehran is still today there', () => {
    // 20:20 UTC is 23:50 in Tehran, the same day; 20:40 UTC is ten past midnight there, the next.
    expect(clockText(EN, '2026-11-21T20:20:00.000Z', NOW)).toBe('23:50');
    expect(clockText(EN, '2026-11-21T20:40:00.000Z', NOW)).toBe('22 Nov 2026, 00:10 GMT+3:30');
  });

  it.each([
    [2 * H, '2 hours', '۲ ساعت'],
    [1.5 * H, '1 hour and 30 minutes', '۱ ساعت و ۳۰ دقیقه'],
    [7 * 24 * H, '7 days', '۷ روز'],
    [60_000, '1 minute', '۱ دقیقه'],
  ])('%d ms is "%s" and "%s"', (ms, en, fa) => {
    expect(spanText(EN, ms)).toBe(en);
    expect(spanText(FA, ms)).toBe(fa);
  });
});

describe('the window of a change not yet applied', () => {
  it('for 2h says when it would go back if applied now', () => {
    const asked = { kind: 'for', ms: 2 * H, text: '2h' } as const;
    expect(windowText(EN, asked, NOW)).toBe('for 2 hours (until about 16:05 if applied now)');
    expect(windowText(FA, asked, NOW)).toBe('به مدت ۲ ساعت (اگر همین حالا اعمال شود، تا حدود ساعت ۱۶:۰۵)');
  });

  it('an end typed as a Solar Hijri date is said with how far off it is', () => {
    const read = readWindow('۱۴۰۵/۰۸/۳۰T۱۸:۰۰');
    if (!read.ok) throw new Error('not read');
    expect(windowText(EN, read.asked, NOW)).toBe('until 18:00, in 4 hours');
    expect(windowText(FA, read.asked, NOW)).toBe('تا ساعت ۱۸:۰۰، ۴ ساعت بعد');
  });

  it('an end made absolute by resolveWindow reads the same', () => {
    const read = readWindow('1405/08/30T18:00');
    if (!read.ok) throw new Error('not read');
    const resolved = resolveWindow(read.asked, { now: NOW, timeZone: TEHRAN, maxMs: 7 * 24 * H });
    if (!resolved.ok) throw new Error('refused');
    expect(windowText(EN, resolved.asked, NOW)).toBe(windowText(EN, read.asked, NOW));
  });

  it('a request with a box not yet applied reads as its window', () => {
    expect(putBackText(EN, protection({ endsAt: null }), NOW)).toBe(
      'for 2 hours (until about 16:05 if applied now)',
    );
  });
});

describe('where the put-back of a change stands', () => {
  it('in force: when it goes back, and how far off that is', () => {
    expect(goesBackText(EN, '2026-11-21T12:35:00.000Z', NOW)).toBe('goes back at 16:05, in 2 hours');
    expect(putBackText(FA, protection(), NOW)).toBe('در ساعت ۱۶:۰۵ برمی‌گردد، ۲ ساعت بعد');
  });

  it('putting back, and failing and retrying at the next attempt', () => {
    expect(putBackText(EN, protection({ state: 'running' }), NOW)).toBe('putting back…');
    const retrying = protection({ state: 'retrying', nextAt: '2026-11-21T12:39:00.000Z', attempts: 2 });
    expect(putBackText(EN, retrying, NOW)).toBe('putting back failed, retrying at 16:09');
    expect(putBackText(FA, retrying, NOW)).toBe('برگرداندن ناموفق بود؛ در ساعت ۱۶:۰۹ دوباره تلاش می‌شود');
  });

  it('put back, and nothing else to say when nobody changed it since', () => {
    expect(putBackText(EN, protection({ state: 'done' }), NOW)).toBe('put back at 16:05');
  });

  it('put back, leaving a setting someone else changed since', () => {
    const done = protection({
      state: 'done',
      conflicts: [{ item: 'preventZoom', now: false, heldBy: null }],
    });
    expect(putBackText(EN, done, NOW)).toBe(
      'put back at 16:05; `preventZoom` left as `off`: changed since by someone else',
    );
    expect(bare(putBackText(FA, done, NOW))).toBe(
      'در ساعت ۱۶:۰۵ برگردانده شد؛ `preventZoom` همان `خاموش` ماند: کس دیگری از آن زمان تغییرش داده است',
    );
  });

  it('left to a later time-boxed change, as a record from before one holder per setting reads', () => {
    const left = protection({
      state: 'left',
      conflicts: [{ item: 'preventZoom', now: false, heldBy: 'R-abc123' }],
    });
    expect(putBackText(EN, left, NOW)).toBe(
      'nothing put back: `preventZoom` left to R-abc123, which holds it now',
    );
  });

  it('on the whitelist: an address removed since, one added back since', () => {
    const done = whitelist({
      state: 'done',
      conflicts: [
        { item: '5.6.7.8', now: null, heldBy: null },
        { item: '1.2.3.4', now: '1.2.3.4', heldBy: null },
      ],
    });
    expect(putBackText(EN, done, NOW)).toBe(
      'put back at 16:05; `5.6.7.8` left off the whitelist: removed since by someone else; `1.2.3.4` left on the whitelist: added back since by someone else',
    );
  });

  it('nothing put back and nothing to say why', () => {
    expect(putBackText(EN, protection({ state: 'left' }), NOW)).toBe('nothing put back');
    expect(putBackText(FA, protection({ state: 'left' }), NOW)).toBe('چیزی برگردانده نشد');
  });

  it('more than ten things left alone are cut at ten', () => {
    const conflicts = Array.from({ length: 12 }, (_, i) => ({
      item: `10.0.0.${i}`,
      now: null,
      heldBy: null,
    }));
    const text = putBackText(EN, whitelist({ state: 'left', conflicts }), NOW) ?? '';
    expect(text.match(/left off the whitelist/g)).toHaveLength(10);
    expect(text.endsWith('; …')).toBe(true);
  });

  it('a change with no window, or one that never applied, has no line', () => {
    const { timeBox: _none, ...unboxed } = protection();
    expect(putBackText(EN, unboxed, NOW)).toBeNull();
    expect(putBackText(EN, protection({ state: 'cancelled' }), NOW)).toBeNull();
  });
});

describe('the reminder before the end', () => {
  const soon = { endsAt: '2026-11-21T10:45:00.000Z' };

  it('a setting: what it goes back to, and when', () => {
    expect(reminderText(EN, protection(soon), NOW)).toBe(
      '`preventZoom` goes back to `on` in 10 minutes: extend?',
    );
    expect(bare(reminderText(FA, protection(soon), NOW))).toBe(
      '`preventZoom` ۱۰ دقیقه بعد به `روشن` برمی‌گردد: تمدیدش می‌کنید؟',
    );
  });

  it('several settings are counted and named', () => {
    const model: BoxModel = {
      ...protection(soon),
      undo: {
        kind: 'protection',
        rows: [
          { field: 'preventZoom', before: true, after: false },
          { field: 'opacity', before: 0.5, after: 0.9 },
        ],
      },
    };
    expect(reminderText(EN, model, NOW)).toBe(
      '2 settings (`preventZoom` and `opacity`) go back in 10 minutes: extend?',
    );
  });

  it('the whitelist: what leaves it, and what comes back on it', () => {
    expect(reminderText(EN, whitelist(soon), NOW)).toBe(
      '`5.6.7.8` leaves the whitelist in 10 minutes; `1.2.3.4` comes back on the whitelist in 10 minutes: extend?',
    );
    const added: BoxModel = {
      ...whitelist(soon),
      undo: { kind: 'whitelist', before: [], added: ['5.6.7.8', '9.9.9.9'], removed: [] },
    };
    expect(reminderText(EN, added, NOW)).toBe(
      '`5.6.7.8` and `9.9.9.9` leave the whitelist in 10 minutes: extend?',
    );
    expect(bare(reminderText(FA, added, NOW))).toBe(
      '`5.6.7.8` و `9.9.9.9` ۱۰ دقیقه بعد از لیست سفید برداشته می‌شود: تمدیدش می‌کنید؟',
    );
  });

  it('nothing to remind of before the change applied', () => {
    expect(reminderText(EN, protection({ endsAt: null }), NOW)).toBeNull();
    const { undo: _none, ...noUndo } = protection(soon);
    expect(reminderText(EN, noUndo, NOW)).toBeNull();
  });
});

describe('"Put back after" in the modals', () => {
  it('offers never, 15 minutes, 1 hour, 4 hours, 1 day and other, in each language', () => {
    expect(putBackChoices(EN).map((c) => [c.value, c.label])).toEqual([
      ['never', 'Never'],
      ['15m', '15 minutes'],
      ['1h', '1 hour'],
      ['4h', '4 hours'],
      ['1d', '1 day'],
      ['other', 'Other (type a duration or date)'],
    ]);
    expect(PUT_BACK_CHOICES.map((c) => c.label.fa)).toEqual([
      'هیچ‌وقت',
      '۱۵ دقیقه',
      '۱ ساعت',
      '۴ ساعت',
      '۱ روز',
      'دیگر (مدت یا تاریخی بنویسید)',
    ]);
  });

  it('leaves out never when the policy requires a window, and choices past its maximum', () => {
    expect(putBackChoices(EN, { maxMs: 4 * H, required: true }).map((c) => c.value)).toEqual([
      '15m',
      '1h',
      '4h',
      'other',
    ]);
  });

  it('a window typed in the other field that the policy refuses is said in the reader’s language', () => {
    const read = readWindow('8d');
    if (!read.ok) throw new Error('not read');
    const refused = resolveWindow(read.asked, { now: NOW, timeZone: TEHRAN, maxMs: 7 * 24 * H });
    if (refused.ok) throw new Error('accepted');
    expect(sayIn(EN, refused.said)).toBe('“8d” is too long: the policy allows at most 7 days.');
    expect(bare(sayIn(FA, refused.said))).toBe('«8d» خیلی طولانی است: سیاست حداکثر ۷ روز را می‌پذیرد.');
  });
});

describe('where someone looks for Revert… on a change that has none', () => {
  it.each([
    ['folder.delete', 'Deletes and creates cannot be reverted: what a delete removed is gone.'],
    ['playlist.create', 'Deletes and creates cannot be reverted: delete what was created if it must go.'],
    ['viewer.unblock', 'An unblock cannot be reverted: vidops does not block viewers.'],
    ['file.retry', 'A conversion retry cannot be reverted: the file converts again, or fails again.'],
  ] as const)('%s: %s', (operation, text) => {
    expect(notRevertibleText(EN, operation)).toBe(text);
    expect(notRevertibleText(FA, operation)).toMatch(/برگرداندنی نیست/);
  });

  it('an edit, a protection or a whitelist change can be reverted: nothing to say', () => {
    expect(notRevertibleText(EN, 'folder.edit')).toBeNull();
    expect(notRevertibleText(EN, 'protect.set')).toBeNull();
    expect(notRevertibleText(EN, 'whitelist.set')).toBeNull();
  });
});
