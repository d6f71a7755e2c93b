import { langFor } from '../i18n/lang.js';
import { ordinalText, repeatBreakGlassLine, repeatLines } from './viewer-history.js';

const EN = langFor('en');
const FA = langFor('fa');
const REPEAT = {
  nth: 3,
  max: 2,
  within: '30d',
  history: [
    {
      askedAt: '2026-11-20T10:00:00.000Z',
      requester: { id: 'U0BEN', name: 'ben' },
      approvers: [{ id: 'U0LEE', name: 'lee' }],
      outcome: 'succeeded' as const,
      reason: 'ticket 52',
      breakGlass: false,
    },
  ],
};

describe('the repeat rule in an approval and a break-glass review', () => {
  it('a lead reads why the unblock came to them, and the unblock before it, the number masked', () => {
    const lines = repeatLines(EN, '09124564567', REPEAT).join('\n');
    expect(lines).toContain('*A lead must approve:* this is the 3rd unblock of `0912***4567` in 30 days.');
    expect(lines).toMatch(/unblocked · asked by ben · approved by lee · reason: ticket 52/);
    expect(lines).not.toContain('09124564567');
  });

  it('a Persian lead reads it in Persian, the date in the Solar Hijri calendar', () => {
    const lines = repeatLines(FA, '09124564567', REPEAT).join('\n');
    expect(lines).toContain('سومین رفع مسدودی');
    expect(lines).toContain('۱۴۰۵');
  });

  it('a break-glass run of a repeat viewer is flagged for its review', () => {
    expect(repeatBreakGlassLine(EN, '09124564567', REPEAT)).toBe(
      ':warning: *Repeat viewer:* the 3rd unblock of `0912***4567` in 30 days, run by break-glass without the lead it needed.',
    );
  });

  it.each([
    [1, '1st', 'اولین'],
    [2, '2nd', 'دومین'],
    [11, '11th', '۱۱مین'],
    [22, '22nd', '۲۲مین'],
  ])('the %i as an ordinal', (n, en, fa) => {
    expect(ordinalText(EN, n)).toBe(en);
    expect(ordinalText(FA, n)).toBe(fa);
  });
});
