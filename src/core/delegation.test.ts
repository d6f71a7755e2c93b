import { english } from '../i18n/said.js';
import { parseDelegateWords, parseMention, parseUntil, resolveUntil, zonedToUtc } from './delegation.js';
import { parseCommand } from './grammar.js';
import { say } from './said.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');

describe('a lead names their delegate as Slack sends a mention', () => {
  it.each([
    ['<@U0AGENT1|ana>', 'U0AGENT1', 'ana'],
    ['<@U0AGENT1>', 'U0AGENT1', null],
    ['<@W0ENTERPRISE|Ana Karimi>', 'W0ENTERPRISE', 'Ana Karimi'],
  ])('%s reads as %s', (text, id, name) => {
    expect(parseMention(`${text} until 4h`)).toEqual({ ok: true, id, name, rest: 'until 4h' });
  });

  it.each(['@ana until 4h', 'ana until 4h', 'U0AGENT1 until 4h', '<#C0123|support> until 4h'])(
    '%s is refused, asking to pick from the mention list',
    (text) => {
      const read = parseDelegateWords(text.split(' '));
      expect(read.ok ? '' : english(read.said)).toContain('Pick the person from Slack’s mention list');
    },
  );
});

describe('until a duration or a date', () => {
  it.each([
    ['4h', 4 * 3_600_000],
    ['2d', 2 * 86_400_000],
    ['30m', 30 * 60_000],
  ])('%s is a duration from now', (text, ms) => {
    expect(parseUntil(text)).toEqual({ ok: true, until: { kind: 'duration', ms, text } });
    const until = parseUntil(text);
    if (!until.ok) throw new Error('not read');
    expect(resolveUntil(until.until, NOW)).toMatchObject({
      ok: true,
      at: new Date(NOW.getTime() + ms).toISOString(),
    });
  });

  it.each([
    ['2026-12-01', '2026-11-30T20:30:00.000Z'],
    ['2026-12-01T18:00', '2026-12-01T14:30:00.000Z'],
    ['2026-12-01T18:00:30Z', '2026-12-01T18:00:30.000Z'],
  ])('%s is read as a Tehran clock shows it (with Z, in UTC): %s', (text, iso) => {
    const until = parseUntil(text);
    if (!until.ok) throw new Error('not read');
    expect(resolveUntil(until.until, NOW, 'Asia/Tehran')).toEqual({ ok: true, at: iso });
  });

  it('a time is read in UTC when no display time zone is given', () => {
    const until = parseUntil('2026-12-01T18:00');
    if (!until.ok) throw new Error('not read');
    expect(resolveUntil(until.until, NOW)).toEqual({ ok: true, at: '2026-12-01T18:00:00.000Z' });
  });

  it('a wall time in a zone with summer time lands on the right side of the change', () => {
    // New York: 2026-11-01 02:00 EDT → EST; noon on the 2nd is 17:00 UTC, noon on 31 Oct 16:00 UTC.
    expect(new Date(zonedToUtc('2026-11-02T12:00:00', 'America/New_York')).toISOString()).toBe(
      '2026-11-02T17:00:00.000Z',
    );
    expect(new Date(zonedToUtc('2026-10-31T12:00:00', 'America/New_York')).toISOString()).toBe(
      '2026-10-31T16:00:00.000Z',
    );
  });

  it.each([
    ['۱۴۰۵/۰۹/۱۰', '2026-11-30T20:30:00.000Z'],
    ['1405-09-10T18:00', '2026-12-01T14:30:00.000Z'],
    ['1405/9/10', '2026-11-30T20:30:00.000Z'],
    ['۲۰۲۶-۱۲-۰۱', '2026-11-30T20:30:00.000Z'],
    ['2026/12/1', '2026-11-30T20:30:00.000Z'],
  ])('%s, a Solar Hijri date or one in Persian digits, is the same day as 2026-12-01: %s', (text, iso) => {
    const until = parseUntil(text);
    if (!until.ok) throw new Error(`not read: ${until.said.key}`);
    expect(until.until).toMatchObject({ kind: 'time', text });
    expect(resolveUntil(until.until, NOW, 'Asia/Tehran')).toEqual({ ok: true, at: iso });
  });

  it('a duration in Persian digits is read as one', () => {
    expect(parseUntil('۴h')).toEqual({
      ok: true,
      until: { kind: 'duration', ms: 4 * 3_600_000, text: '۴h' },
    });
  });

  it.each([
    'tomorrow',
    '2026-02-30',
    '2026-12-01T25:00',
    '0h',
    '4x',
    '2026-12/01',
    '1404/12/30',
    '1405/07/31',
  ])('%s is refused', (text) => {
    expect(parseUntil(text)).toEqual({ ok: false, said: say.delegBadUntil(text) });
  });

  it('a time already past is refused, and so is one more than 30 days away', () => {
    const past = parseUntil('2026-11-20');
    const far = parseUntil('31d');
    const edge = parseUntil('30d');
    if (!past.ok || !far.ok || !edge.ok) throw new Error('not read');
    expect(resolveUntil(past.until, NOW)).toMatchObject({
      ok: false,
      said: say.delegPast('2026-11-20 00:00 UTC'),
    });
    expect(resolveUntil(far.until, NOW)).toEqual({ ok: false, said: say.delegTooLong() });
    expect(resolveUntil(edge.until, NOW).ok).toBe(true);
  });
});

describe('/vidops delegate in the grammar', () => {
  const parse = (text: string) => {
    const result = parseCommand(text, { phoneRegion: 'IR' });
    return result.ok ? result : { ...result, message: english(result.said) };
  };

  it('reads the mention, until and the reason', () => {
    expect(parse('delegate <@U0AGENT1|ana> until 2d on leave this week')).toEqual({
      ok: true,
      command: {
        kind: 'delegate',
        delegate: { id: 'U0AGENT1', name: 'ana' },
        until: { kind: 'duration', ms: 2 * 86_400_000, text: '2d' },
        reason: 'on leave this week',
      },
      warnings: [],
    });
  });

  it('reads a mention Slack sent as entities, with no reason', () => {
    expect(parse('delegate &lt;@U0AGENT1&gt; UNTIL 2026-12-01T18:00')).toMatchObject({
      ok: true,
      command: { kind: 'delegate', delegate: { id: 'U0AGENT1', name: null }, reason: null },
    });
  });

  it('delegate cancel is its own command', () => {
    expect(parse('delegate cancel')).toEqual({
      ok: true,
      command: { kind: 'delegate.cancel' },
      warnings: [],
    });
  });

  it('a plain @name is refused with the usage line', () => {
    expect(parse('delegate @ana until 4h')).toMatchObject({
      ok: false,
      message: `“@ana” is not a mention vidops can read. Pick the person from Slack’s mention list as you type @ (it sends them as a mention vidops can read); a plain name could be anyone.`,
      usage: '/vidops delegate <@user> until <date or duration> [reason]',
      said: { key: 'delegNotMention', params: ['@ana'] },
    });
  });

  it('without until it says how to write it', () => {
    expect(parse('delegate <@U0AGENT1|ana> for 4h')).toMatchObject({
      ok: false,
      message: english(say.delegMissingUntil()),
    });
  });
});
