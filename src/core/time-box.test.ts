import { english } from '../i18n/said.js';
import type { Said } from './said.js';
import {
  type BoxAsked,
  checkWindow,
  endsAtFrom,
  readWindow,
  resolveWindow,
  splitWindowWords,
  type WindowRule,
} from './time-box.js';

// 13:30 in Tehran (UTC+3:30 all year), Saturday 1405/08/30.
const NOW = new Date('2026-11-21T10:00:00.000Z');
const TEHRAN = 'Asia/Tehran';
const H = 3_600_000;
const DAY = 24 * H;
const BOUNDS = { now: NOW, timeZone: TEHRAN, maxMs: 7 * DAY };

function asked(text: string): BoxAsked {
  const read = readWindow(text);
  if (!read.ok) throw new Error(`not read: ${read.said.key}`);
  return read.asked;
}

function refusedWith(result: { ok: boolean; said?: Said }): Said {
  if (result.ok || result.said === undefined) throw new Error('not refused');
  return result.said;
}

describe('an agent types how long a change should last', () => {
  it.each([
    ['2h', 2 * H],
    ['30m', 30 * 60_000],
    ['1h30m', 1.5 * H],
    ['1w', 7 * DAY],
    ['۲h', 2 * H],
  ])('%s is a window from when it applies', (text, ms) => {
    expect(readWindow(text)).toEqual({ ok: true, asked: { kind: 'for', ms, text } });
  });

  it.each([
    ['1405/09/07T18:00', '2026-11-28T18:00:00'],
    ['۱۴۰۵/۰۹/۰۷T۱۸:۰۰', '2026-11-28T18:00:00'],
    ['1405/09/07 18:00', '2026-11-28T18:00:00'],
    ['2026-11-28T18:00Z', '2026-11-28T18:00:00Z'],
  ])('%s is an end, kept as the wall clock %s', (text, at) => {
    expect(readWindow(text)).toEqual({ ok: true, asked: { kind: 'until', at, text } });
  });

  it.each([
    ['0m', 'boxNotPositive'],
    ['-2h', 'boxNotPositive'],
    ['2 h', 'boxUnreadable'],
    ['soon', 'boxUnreadable'],
    ['1404/12/30', 'boxUnreadable'],
    ['', 'boxUnreadable'],
  ])('%s is refused (%s)', (text, key) => {
    expect(refusedWith(readWindow(text)).key).toBe(key);
  });
});

describe('a window is checked against the policy’s bounds', () => {
  it('for 2h ends two hours after now, if applied now', () => {
    expect(resolveWindow(asked('2h'), BOUNDS)).toEqual({
      ok: true,
      endsAt: '2026-11-21T12:00:00.000Z',
      asked: { kind: 'for', ms: 2 * H, text: '2h' },
    });
  });

  it('an end typed in Tehran time becomes an absolute instant', () => {
    expect(resolveWindow(asked('1405/09/03T18:00'), BOUNDS)).toEqual({
      ok: true,
      endsAt: '2026-11-24T14:30:00.000Z',
      asked: { kind: 'until', at: '2026-11-24T14:30:00.000Z', text: '1405/09/03T18:00' },
    });
  });

  it('exactly one minute and exactly the maximum are accepted; one second less or more is not', () => {
    expect(resolveWindow(asked('1m'), BOUNDS).ok).toBe(true);
    expect(resolveWindow(asked('7d'), BOUNDS).ok).toBe(true);
    expect(refusedWith(resolveWindow(asked('59s'), BOUNDS))).toEqual({
      key: 'boxTooShort',
      params: ['59s', 60_000],
    });
    expect(refusedWith(resolveWindow(asked('7d1s'), BOUNDS))).toEqual({
      key: 'boxTooLong',
      params: ['7d1s', 7 * DAY],
    });
  });

  it('an end already past, one under a minute away, and one past the maximum are refused', () => {
    expect(refusedWith(resolveWindow(asked('1405/08/30T13:00'), BOUNDS)).key).toBe('boxPast');
    expect(refusedWith(resolveWindow(asked('1405/08/30T13:30:30'), BOUNDS)).key).toBe('boxTooShort');
    expect(refusedWith(resolveWindow(asked('1405/09/30'), BOUNDS)).key).toBe('boxTooLong');
  });

  it('a window of zero that did not come from readWindow is refused all the same', () => {
    expect(refusedWith(resolveWindow({ kind: 'for', ms: 0, text: '0h' }, BOUNDS)).key).toBe('boxNotPositive');
    expect(refusedWith(resolveWindow({ kind: 'until', at: 'never', text: 'never' }, BOUNDS)).key).toBe(
      'boxUnreadable',
    );
  });

  it('a window far beyond any date is refused as too long, not thrown', () => {
    expect(refusedWith(resolveWindow(asked('99999999999999d'), BOUNDS)).key).toBe('boxTooLong');
  });

  it('the policy’s maximum is said in words', () => {
    const said = refusedWith(resolveWindow(asked('8d'), { ...BOUNDS, maxMs: 36 * H }));
    expect(english(said)).toBe('“8d” is too long: the policy allows at most 1 day 12 hours.');
  });
});

describe('when a time-boxed change goes back once applied', () => {
  const applied = new Date('2026-11-21T11:15:00.000Z');

  it('for 2h counts from when it applied, not from when it was asked', () => {
    expect(endsAtFrom(asked('2h'), applied, TEHRAN)).toBe('2026-11-21T13:15:00.000Z');
  });

  it('until an end is that end, typed or resolved', () => {
    const typed = asked('1405/09/03T18:00');
    expect(endsAtFrom(typed, applied, TEHRAN)).toBe('2026-11-24T14:30:00.000Z');
    const resolved = resolveWindow(typed, BOUNDS);
    if (!resolved.ok) throw new Error('refused');
    expect(endsAtFrom(resolved.asked, applied, 'UTC')).toBe('2026-11-24T14:30:00.000Z');
  });
});

describe('the policy’s rule for windows', () => {
  const rule: WindowRule = {
    operation: 'protect.set',
    title: 'Change protection settings',
    undo: 'time-box',
    requireDuration: false,
    maxMs: 7 * DAY,
    minMs: 60_000,
  };
  const at = { now: NOW, timeZone: TEHRAN };

  it('no window is fine unless the policy requires one', () => {
    expect(checkWindow(rule, null, at)).toEqual({ ok: true, window: null });
    const said = refusedWith(checkWindow({ ...rule, requireDuration: true }, undefined, at));
    expect(said).toEqual({
      key: 'boxRequired',
      params: ['protect.set', 'Change protection settings', 7 * DAY],
    });
    expect(english(said)).toContain('must be asked for a while');
  });

  it('a window on an operation that does not go back by itself is refused, saying Revert… undoes it', () => {
    const said = refusedWith(
      checkWindow(
        { ...rule, operation: 'folder.edit', title: 'Edit folder', undo: 'revert' },
        asked('2h'),
        at,
      ),
    );
    expect(english(said)).toBe(
      '"Edit folder" cannot be asked for a while: only protection settings and whitelist changes go back by themselves. Once it is done, Revert… undoes it.',
    );
  });

  it('a window within bounds is resolved', () => {
    expect(checkWindow(rule, asked('30m'), at)).toEqual({
      ok: true,
      window: { asked: { kind: 'for', ms: 30 * 60_000, text: '30m' }, endsAt: '2026-11-21T10:30:00.000Z' },
    });
  });
});

describe('a window at the end of a command’s words', () => {
  it.each([
    [['5.6.7.8', 'for', '30m'], ['5.6.7.8'], { kind: 'for', ms: 30 * 60_000, text: '30m' }],
    [['preventZoom=false', 'FOR', '2h'], ['preventZoom=false'], { kind: 'for', ms: 2 * H, text: '2h' }],
    [
      ['1.2.3.4', 'until', '1405/09/07', '18:00'],
      ['1.2.3.4'],
      { kind: 'until', at: '2026-11-28T18:00:00', text: '1405/09/07 18:00' },
    ],
    [['1.2.3.4'], ['1.2.3.4'], null],
  ])('%j → %j', (tokens, rest, window) => {
    expect(splitWindowWords(tokens)).toEqual({ ok: true, rest, asked: window });
  });

  it.each([
    [['1.2.3.4', 'for'], 'boxNoWindow'],
    [['for', '2h', '1.2.3.4'], 'boxNotLast'],
    [['for', '2h', '1.2.3.4', '5.6.7.8'], 'boxNotLast'],
    [['1.2.3.4', 'for', '2h', 'until', '3h'], 'boxTwice'],
    [['1.2.3.4', 'for', '2', 'h'], 'boxUnreadable'],
    [['1.2.3.4', 'for', '0h'], 'boxNotPositive'],
  ])('%j is refused (%s)', (tokens, key) => {
    expect(refusedWith(splitWindowWords(tokens)).key).toBe(key);
  });
});
