import { parseUntil as delegationUntil } from './delegation.js';
import { momentMs, parseUntil, readSpan, readWhen } from './when.js';

const H = 3_600_000;
const M = 60_000;

describe('a person types a length of time', () => {
  it.each([
    ['15m', 15 * M],
    ['2h', 2 * H],
    ['1d', 24 * H],
    ['1w', 7 * 24 * H],
    ['90s', 90_000],
    ['1h30m', 90 * M],
    ['1d12h', 36 * H],
    ['0m', 0],
    ['-2h', -2 * H],
  ])('%s reads as %d ms', (text, ms) => {
    expect(readSpan(text)).toBe(ms);
  });

  it.each(['2', 'h', '2 h', '1.5h', '30m1h', '1h1h', '2H', '2x', '+2h', ''])(
    '%s is not a duration',
    (text) => {
      expect(readSpan(text)).toBeNull();
    },
  );

  it('reads Persian and Arabic-Indic digits', () => {
    expect(readWhen('۲h')).toEqual({ kind: 'duration', ms: 2 * H, text: '۲h' });
    expect(readWhen('٣٠m')).toEqual({ kind: 'duration', ms: 30 * M, text: '٣٠m' });
  });
});

describe('a person types a date and time', () => {
  it.each([
    ['1405/09/07T18:00', '2026-11-28T18:00:00', false],
    ['۱۴۰۵/۰۹/۰۷T۱۸:۰۰', '2026-11-28T18:00:00', false],
    ['1405/09/07 18:00', '2026-11-28T18:00:00', false],
    ['1405-9-7', '2026-11-28T00:00:00', false],
    ['2026-11-28T18:00:30Z', '2026-11-28T18:00:30', true],
  ])('%s is the wall clock %s (UTC: %s)', (text, local, utc) => {
    expect(readWhen(text)).toEqual({ kind: 'time', local, utc, text });
  });

  it('a wall clock is read in the display time zone, and in UTC with Z', () => {
    const tehran = readWhen('1405/09/07T18:00');
    const utc = readWhen('1405/09/07T18:00Z');
    if (tehran?.kind !== 'time' || utc?.kind !== 'time') throw new Error('not read');
    expect(new Date(momentMs(tehran, 'Asia/Tehran')).toISOString()).toBe('2026-11-28T14:30:00.000Z');
    expect(new Date(momentMs(utc, 'Asia/Tehran')).toISOString()).toBe('2026-11-28T18:00:00.000Z');
  });

  it.each(['1404/12/30', '2026-02-30', '1405/09/07T24:00', '1405/09/07T18', 'tomorrow', '18:00'])(
    '%s is refused',
    (text) => {
      expect(readWhen(text)).toBeNull();
    },
  );
});

describe('delegation reads `until` with the same reading', () => {
  it('delegation.ts hands out the one parseUntil', () => {
    expect(delegationUntil).toBe(parseUntil);
  });

  it.each(['0h', '-2h', 'soon'])('%s is refused with the delegation’s own sentence', (text) => {
    expect(parseUntil(text)).toMatchObject({ ok: false, said: { key: 'delegBadUntil', params: [text] } });
  });
});
