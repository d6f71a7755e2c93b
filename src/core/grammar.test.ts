import { english } from '../i18n/said.js';
import {
  type Command,
  decodeSlackEntities,
  type ParseResult,
  parseCommand,
  parseWords,
  unblockListOf,
} from './grammar.js';
import { say } from './said.js';

const OID = '671018d0403eba579a6f90e2';
/** The result as the agent reads it: a refusal's sentence in English as `message`. */
const parse = (text: string, phoneRegion = 'IR') => {
  const result: ParseResult = parseCommand(text, { phoneRegion });
  return result.ok ? result : { ...result, message: english(result.said) };
};
const IR_MOBILE = {
  param: '09123456789',
  national: '09123456789',
  e164: '+989123456789',
  masked: '0912***6789',
};

describe('agent types a command of the design', () => {
  it.each<[string, Command]>([
    ['', { kind: 'help' }],
    ['   ', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['HELP unblock', { kind: 'help' }],
    ['unblock 09123456789', { kind: 'unblock', mobile: IR_MOBILE }],
    ['unblock +98 912 345 6789', { kind: 'unblock', mobile: IR_MOBILE }],
    ['unblock 0098 912 345 6789', { kind: 'unblock', mobile: IR_MOBILE }],
    ['unblock 0912-345-6789', { kind: 'unblock', mobile: IR_MOBILE }],
    ['unblock 9123456789', { kind: 'unblock', mobile: IR_MOBILE }],
    ['unblock ۰۹۱۲۳۴۵۶۷۸۹', { kind: 'unblock', mobile: IR_MOBILE }],
    ['unblock &lt;tel:+989123456789|+98 912 345 6789&gt;', { kind: 'unblock', mobile: IR_MOBILE }],
    ['  UNBLOCK    0912 345 6789  ', { kind: 'unblock', mobile: IR_MOBILE }],
    [`retry ${OID}`, { kind: 'retry', fileId: OID }],
    ['whitelist', { kind: 'whitelist.show' }],
    ['whitelist show', { kind: 'whitelist.show' }],
    ['whitelist add 5.160.12.10', { kind: 'whitelist.add', ips: ['5.160.12.10'] }],
    [
      'Whitelist ADD 5.160.12.10, 2A00:1::10 5.160.12.10',
      { kind: 'whitelist.add', ips: ['5.160.12.10', '2a00:1::10'] },
    ],
    ['whitelist remove ۲۰۳.۰.۱۱۳.۱۰', { kind: 'whitelist.remove', ips: ['203.0.113.10'] }],
    ['whitelist remove 0.0.0.0 ::1', { kind: 'whitelist.remove', ips: ['0.0.0.0', '::1'] }],
    ['protect', { kind: 'protect.modal' }],
    ['protect show', { kind: 'protect.show' }],
    [
      'protect set player.offlineMode=true link.expireTime=2h opacity=0.5 fontColor=red',
      {
        kind: 'protect.set',
        changes: {
          player: { offlineMode: true },
          link: { expireTime: '2h' },
          opacity: 0.5,
          fontColor: '#e74c3c',
        },
      },
    ],
    ['protect set faultTolerance=۸', { kind: 'protect.set', changes: { faultTolerance: 8 } }],
    ['folder create', { kind: 'folder.create' }],
    ['playlist create', { kind: 'playlist.create' }],
    ['Playlist CREATE', { kind: 'playlist.create' }],
    [`folder edit ${OID}`, { kind: 'folder.edit', bucketId: OID }],
    [`folder delete ${OID}`, { kind: 'folder.delete', bucketId: OID }],
    [`file edit ${OID}`, { kind: 'file.edit', fileId: OID }],
    [`file delete ${OID}`, { kind: 'file.delete', fileId: OID }],
    [`playlist edit ${OID}`, { kind: 'playlist.edit', playlistId: OID }],
    [`playlist delete ${OID}`, { kind: 'playlist.delete', playlistId: OID }],
    ['playlist delete ۶۷۱۰۱۸d0403eba579a6f90e2', { kind: 'playlist.delete', playlistId: OID }],
    [`FILE Delete \`${OID}\``, { kind: 'file.delete', fileId: OID }],
    ['requests', { kind: 'requests' }],
    ['audit', { kind: 'audit', n: 10 }],
    ['audit 25', { kind: 'audit', n: 25 }],
    ['audit ۱۰۰', { kind: 'audit', n: 100 }],
    ['audit 1', { kind: 'audit', n: 1 }],
    ['explain 9910', { kind: 'explain', code: '9910' }],
    ['explain ۹۹۱۰', { kind: 'explain', code: '9910' }],
    ['explain #9103', { kind: 'explain', code: '9103' }],
    ['explain 4242', { kind: 'explain', code: '4242' }],
  ])('"%s"', (text, command) => {
    expect(parse(text)).toEqual({ ok: true, command, warnings: [] });
  });

  it('reads a German mobile when the region is DE', () => {
    expect(parse('unblock 01512 3456789', 'DE')).toEqual({
      ok: true,
      command: {
        kind: 'unblock',
        mobile: {
          param: '015123456789',
          national: '015123456789',
          e164: '+4915123456789',
          masked: '0151***6789',
        },
      },
      warnings: [],
    });
  });

  it('refuses a Philippine mobile in an Iranian deployment, which as national digits would be an Iranian number', () => {
    expect(parse('unblock +63 917 123 4567')).toMatchObject({
      ok: false,
      message:
        'Nobody was unblocked: +63 917 123 4567 is a mobile number in the Philippines (PH); only numbers of Iran (IR) are accepted here.',
    });
  });

  it('reads a Philippine mobile where PHONE_REGIONS allows it, keeping its country code', () => {
    expect(
      parseCommand('unblock +63 917 123 4567', { phoneRegion: 'IR', phoneRegions: ['IR', 'PH'] }),
    ).toMatchObject({ ok: true, command: { kind: 'unblock', mobile: { param: '+639171234567' } } });
  });

  it.each([
    ['retry abc123', { kind: 'retry', fileId: 'abc123' }, 'file ID abc123 is not 24 hex digits'],
    [
      'folder edit photos',
      { kind: 'folder.edit', bucketId: 'photos' },
      'folder ID photos is not 24 hex digits',
    ],
    ['folder delete 42', { kind: 'folder.delete', bucketId: '42' }, 'folder ID 42 is not 24 hex digits'],
    ['file edit f-1', { kind: 'file.edit', fileId: 'f-1' }, 'file ID f-1 is not 24 hex digits'],
    ['file delete f-1', { kind: 'file.delete', fileId: 'f-1' }, 'file ID f-1 is not 24 hex digits'],
    ['playlist edit p1', { kind: 'playlist.edit', playlistId: 'p1' }, 'playlist ID p1 is not 24 hex digits'],
    [
      'playlist delete p1',
      { kind: 'playlist.delete', playlistId: 'p1' },
      'playlist ID p1 is not 24 hex digits',
    ],
  ] as const)('"%s" is accepted with a warning about the ID', (text, command, warningStart) => {
    const result = parse(text);
    expect(result.ok && result.command).toEqual(command);
    expect(
      result.ok &&
        result.warnings.length === 1 &&
        english(result.warnings[0] ?? say.phoneEmpty()).startsWith(warningStart),
    ).toBe(true);
  });
});

describe('agent gets a clear refusal', () => {
  it.each([
    // unblock
    ['unblock', 'Give the mobile number of the viewer to unblock.', '/vidops unblock <mobile>'],
    [
      'unblock 0212345678',
      'Nobody was unblocked: 0212345678 is a landline, not a mobile number.',
      '/vidops unblock <mobile>',
    ],
    [
      'unblock 0912345',
      'Nobody was unblocked: 0912345 is too short for a mobile number in IR.',
      '/vidops unblock <mobile>',
    ],
    ['unblock 0912abc6789', 'Nobody was unblocked: "0912abc6789" has letters.', '/vidops unblock <mobile>'],
    [
      'unblock 3023456789',
      'Nobody was unblocked: 3023456789 is not a valid number for IR.',
      '/vidops unblock <mobile>',
    ],
    // retry and IDs
    ['retry', 'Give the file ID (fileId).', '/vidops retry <fileId>'],
    ['retry a b', '`retry` takes one file ID; got 2 words: a b.', '/vidops retry <fileId>'],
    [
      'retry files/abc',
      'The file ID "files/abc" has a slash; give the ID alone, not a path or link.',
      '/vidops retry <fileId>',
    ],
    ['folder edit', 'Give the folder ID (bucketId).', '/vidops folder edit <bucketId>'],
    ['folder delete', 'Give the folder ID (bucketId).', '/vidops folder delete <bucketId>'],
    ['file edit', 'Give the file ID (fileId).', '/vidops file edit <fileId>'],
    [
      `file delete ${OID} ${OID}`,
      `\`file delete\` takes one file ID; got 2 words: ${OID} ${OID}.`,
      '/vidops file delete <fileId>',
    ],
    ['playlist edit', 'Give the playlist ID (playlistId).', '/vidops playlist edit <playlistId>'],
    ['playlist delete', 'Give the playlist ID (playlistId).', '/vidops playlist delete <playlistId>'],
    [
      'folder',
      'Say what to do with the folder: `/vidops folder create`, `/vidops folder edit`, `/vidops folder delete`.',
      '/vidops folder create',
    ],
    [
      'file',
      'Say what to do with the file: `/vidops file edit`, `/vidops file delete`.',
      '/vidops file edit <fileId>',
    ],
    [
      'folder create Lectures',
      '`folder create` takes nothing more; remove "Lectures" (the form asks for the title).',
      '/vidops folder create',
    ],
    [
      'playlist create Onboarding',
      '`playlist create` takes nothing more; remove "Onboarding" (the form asks for the title).',
      '/vidops playlist create',
    ],
    [
      'playlist',
      'Say what to do with the playlist: `/vidops playlist create`, `/vidops playlist edit`, `/vidops playlist delete`.',
      '/vidops playlist create',
    ],
    // whitelist
    [
      'whitelist add',
      'Give the IP addresses to add.',
      '/vidops whitelist add <ip>… [for <duration>|until <end>]',
    ],
    [
      'whitelist remove',
      'Give the IP addresses to remove.',
      '/vidops whitelist remove <ip>… [for <duration>|until <end>]',
    ],
    [
      'whitelist add 0.0.0.0 :: 192.168.1.5',
      'The whitelist was not changed:\n• 0.0.0.0 is the unspecified address: no server calls from it\n• :: is the unspecified address: no server calls from it\n• 192.168.1.5 is a private address (192.168.0.0/16): the service is on the internet and sees the public address of the server calling it, so this one would never match; give the public address',
      '/vidops whitelist add <ip>… [for <duration>|until <end>]',
    ],
    [
      'whitelist add api.example.com 10.0.0.0/8',
      'The whitelist was not changed:\n• "api.example.com" is a host name; give its IP address\n• "10.0.0.0/8" is a range (CIDR); list single addresses',
      '/vidops whitelist add <ip>… [for <duration>|until <end>]',
    ],
    [
      'whitelist 203.0.113.10',
      'To add 203.0.113.10 to the whitelist, write `/vidops whitelist add 203.0.113.10`.',
      '/vidops whitelist add <ip>… [for <duration>|until <end>]',
    ],
    ['whitelist show all', '`whitelist` takes nothing more; remove "all".', '/vidops whitelist'],
    // protect
    [
      'protect set',
      'Give the settings to change as field=value.',
      '/vidops protect set <field>=<value>… [for <duration>|until <end>]',
    ],
    [
      'protect set opactiy=0.5',
      'The settings were not changed:\n• unknown setting "opactiy"; did you mean "opacity"?',
      '/vidops protect set <field>=<value>… [for <duration>|until <end>]',
    ],
    [
      'protect set opacity=2',
      'The settings were not changed:\n• opacity: 2 is out of range; it must be between 0 and 1',
      '/vidops protect set <field>=<value>… [for <duration>|until <end>]',
    ],
    [
      'protect opacity=0.5',
      'To change settings, write `/vidops protect set opacity=0.5`.',
      '/vidops protect set <field>=<value>… [for <duration>|until <end>]',
    ],
    ['protect show all', '`protect show` takes nothing more; remove "all".', '/vidops protect show'],
    // requests, audit, explain
    ['requests mine', '`requests` takes nothing more; remove "mine".', '/vidops requests'],
    ['audit 0', '"0" is not a number of events from 1 to 100.', '/vidops audit [n]'],
    ['audit 101', '"101" is not a number of events from 1 to 100.', '/vidops audit [n]'],
    ['audit ten', '"ten" is not a number of events from 1 to 100.', '/vidops audit [n]'],
    ['audit 2.5', '"2.5" is not a number of events from 1 to 100.', '/vidops audit [n]'],
    ['audit 10 20', '`audit` takes nothing more; remove "20".', '/vidops audit [n]'],
    ['explain', 'Give the error code the player shows, e.g. 9910.', '/vidops explain <code>'],
    [
      'explain blocked',
      '"blocked" is not a player error code; it is a number like 9910.',
      '/vidops explain <code>',
    ],
  ])('"%s"', (text, message, usage) => {
    expect(parse(text)).toMatchObject({ ok: false, message, usage });
  });
});

describe('agent mistypes a command and is pointed at the right one', () => {
  it.each([
    [
      'unblok 09123456789',
      'Unknown command "unblok". Did you mean `/vidops unblock`?',
      '/vidops unblock <mobile>',
    ],
    ['whitelsit', 'Unknown command "whitelsit". Did you mean `/vidops whitelist`?', '/vidops whitelist'],
    ['reqests', 'Unknown command "reqests". Did you mean `/vidops requests`?', '/vidops requests'],
    ['req', 'Unknown command "req". Did you mean `/vidops requests`?', '/vidops requests'],
    ['Explian 9910', 'Unknown command "Explian". Did you mean `/vidops explain`?', '/vidops explain <code>'],
    ['protcet', 'Unknown command "protcet". Did you mean `/vidops protect`?', '/vidops protect'],
    [
      'delete folder abc',
      'Unknown command "delete". Did you mean `/vidops folder delete abc`?',
      '/vidops folder delete <bucketId>',
    ],
    [
      'edit playlist p1',
      'Unknown command "edit". Did you mean `/vidops playlist edit p1`?',
      '/vidops playlist edit <playlistId>',
    ],
    [
      'create folder',
      'Unknown command "create". Did you mean `/vidops folder create`?',
      '/vidops folder create',
    ],
    [
      'block 09123456789',
      'Unknown command "block". Did you mean `/vidops unblock`?',
      '/vidops unblock <mobile>',
    ],
    ['frobnicate', 'Unknown command "frobnicate". `/vidops help` lists what you can run.', null],
    [
      'whitelist ad 1.2.3.4',
      '`whitelist` has no "ad". Did you mean `/vidops whitelist add`?',
      '/vidops whitelist add <ip>… [for <duration>|until <end>]',
    ],
    [
      'whitelist delete 1.2.3.4',
      '`whitelist` has no "delete". Did you mean `/vidops whitelist remove`?',
      '/vidops whitelist remove <ip>… [for <duration>|until <end>]',
    ],
    [
      'whitelist purge',
      '`whitelist` has no "purge"; it has `whitelist add`, `whitelist remove`, `whitelist show`.',
      '/vidops whitelist add <ip>… [for <duration>|until <end>]',
    ],
    ['protect sho', '`protect` has no "sho". Did you mean `/vidops protect show`?', '/vidops protect show'],
    [
      'folder remove abc',
      '`folder` has no "remove". Did you mean `/vidops folder delete`?',
      '/vidops folder delete <bucketId>',
    ],
    [
      'file rename abc',
      '`file` has no "rename". Did you mean `/vidops file edit`?',
      '/vidops file edit <fileId>',
    ],
    [
      'playlist new',
      '`playlist` has no "new". Did you mean `/vidops playlist create`?',
      '/vidops playlist create',
    ],
    [
      'playlist purge',
      '`playlist` has no "purge"; it has `playlist create`, `playlist edit`, `playlist delete`.',
      '/vidops playlist create',
    ],
    [
      'create playlist',
      'Unknown command "create". Did you mean `/vidops playlist create`?',
      '/vidops playlist create',
    ],
    ['file retry abc', 'To retry a conversion, write `/vidops retry abc`.', '/vidops retry <fileId>'],
  ])('"%s"', (text, message, usage) => {
    expect(parse(text)).toMatchObject({ ok: false, message, usage });
  });

  it('a synonym of delete is only suggested, never run', () => {
    const result = parse(`folder rm ${OID}`);
    expect(result.ok).toBe(false);
  });
});

describe('the slash command arrives escaped (the manifest’s should_escape: true)', () => {
  const options = { phoneRegion: 'IR' };
  /** What Slack does to any typed text, escaping on or off: `&`, `<`, `>` as entities. */
  const entities = (typed: string) =>
    typed.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  it.each([
    [
      'a host name Slack made a link',
      'whitelist add example.com',
      'whitelist add <http://example.com|example.com>',
    ],
    ['a bare link', 'whitelist add https://example.com', 'whitelist add <https://example.com>'],
    [
      'an email address',
      'whitelist add ops@example.com',
      'whitelist add <mailto:ops@example.com|ops@example.com>',
    ],
    [
      'a phone number Slack linked',
      'unblock +98 912 345 6789',
      'unblock <tel:+989123456789|+98 912 345 6789>',
    ],
    [
      'an address among others',
      'whitelist add 1.2.3.4 example.com',
      'whitelist add 1.2.3.4 <http://example.com|example.com>',
    ],
  ])('%s reads as what was typed', (_what, typed, sent) => {
    expect(decodeSlackEntities(sent)).toBe(typed);
    expect(parseCommand(sent, options)).toEqual(parseCommand(entities(typed), options));
  });

  it.each([
    'unblock ۰۹۱۲ ۱۲۳ ۴۵۶۷',
    'retry 6710b0000000000000000203',
    'whitelist add 1.2.3.4, 2a00:1::4',
    'protect set player.themeColor=#1e88e5 opacity=0.5',
    'folder edit 6710a0000000000000000101 & <b>',
    'unblock 0912 <345> 6789',
    'unblock &lt;typed literally&gt; &amp;',
    'audit <5>',
  ])('"%s", with no markup in it, reads exactly as typed', (typed) => {
    expect(decodeSlackEntities(entities(typed))).toBe(typed);
  });

  it('a typed "&lt;" reaches the command as text', () => {
    const read = parseCommand(entities('unblock &lt;3'), options);
    expect(read.ok ? '' : english(read.said)).toContain('&lt;3');
  });

  it('keeps a mention whole, so a command that names a person can read its user ID', () => {
    expect(decodeSlackEntities('delegate <@U0LEAD1|lena> until 2d')).toBe(
      'delegate <@U0LEAD1|lena> until 2d',
    );
    expect(decodeSlackEntities('x <#C0VIDOPS|support> <!subteam^S0LEADS|@leads>')).toBe(
      'x <#C0VIDOPS|support> <!subteam^S0LEADS|@leads>',
    );
  });
});

describe('an agent asks for a change that puts itself back', () => {
  const H = 3_600_000;

  it.each<[string, Command]>([
    [
      'protect set preventZoom=false for 2h',
      {
        kind: 'protect.set',
        changes: { preventZoom: false },
        timeBox: { kind: 'for', ms: 2 * H, text: '2h' },
      },
    ],
    [
      'whitelist add 5.6.7.8 for 30m',
      { kind: 'whitelist.add', ips: ['5.6.7.8'], timeBox: { kind: 'for', ms: 30 * 60_000, text: '30m' } },
    ],
    [
      'whitelist remove 1.2.3.4 until 1405/09/07T18:00',
      {
        kind: 'whitelist.remove',
        ips: ['1.2.3.4'],
        timeBox: { kind: 'until', at: '2026-11-28T18:00:00', text: '1405/09/07T18:00' },
      },
    ],
    [
      'whitelist remove ۱.۲.۳.۴ until ۱۴۰۵/۰۹/۰۷ ۱۸:۰۰',
      {
        kind: 'whitelist.remove',
        ips: ['1.2.3.4'],
        timeBox: { kind: 'until', at: '2026-11-28T18:00:00', text: '1405/09/07 18:00' },
      },
    ],
    [
      'protect set opacity=0.5 For 1h30m',
      {
        kind: 'protect.set',
        changes: { opacity: 0.5 },
        timeBox: { kind: 'for', ms: 1.5 * H, text: '1h30m' },
      },
    ],
  ])('"%s"', (text, command) => {
    expect(parse(text)).toEqual({ ok: true, command, warnings: [] });
  });

  it.each([
    ['whitelist add 5.6.7.8 for', 'boxNoWindow', '/vidops whitelist add <ip>… [for <duration>|until <end>]'],
    [
      'whitelist add for 30m 5.6.7.8',
      'boxNotLast',
      '/vidops whitelist add <ip>… [for <duration>|until <end>]',
    ],
    [
      'protect set preventZoom=false for 0h',
      'boxNotPositive',
      '/vidops protect set <field>=<value>… [for <duration>|until <end>]',
    ],
    [
      'protect set preventZoom=false for 2 h',
      'boxUnreadable',
      '/vidops protect set <field>=<value>… [for <duration>|until <end>]',
    ],
    [
      'whitelist add 5.6.7.8 for 2h until 3h',
      'boxTwice',
      '/vidops whitelist add <ip>… [for <duration>|until <end>]',
    ],
  ])('"%s" is refused (%s) with the usage line', (text, key, usage) => {
    expect(parse(text)).toMatchObject({ ok: false, said: { key }, usage });
  });

  it.each([
    [`folder edit ${OID} for 2h`, 'folder.edit', 'Edit folder', 'revert'],
    [`folder delete ${OID} for 2h`, 'folder.delete', 'Delete folder', 'none'],
    ['unblock 09123456789 for 2h', 'viewer.unblock', 'Unblock viewer', 'none'],
    [`retry ${OID} until 1405/09/07`, 'file.retry', 'Retry conversion', 'none'],
  ])(
    '"%s" is refused: only protection and whitelist changes go back by themselves',
    (text, op, title, undo) => {
      expect(parse(text)).toMatchObject({
        ok: false,
        said: { key: 'boxNotTimeBoxed', params: [op, title, undo] },
      });
    },
  );

  it('a delete asked for a while says it cannot be undone; an edit, that Revert… undoes it', () => {
    const del = parse(`folder delete ${OID} for 2h`);
    const edit = parse(`folder edit ${OID} for 2h`);
    expect(del.ok ? null : del.said.params).toContain('none');
    expect(edit.ok ? null : edit.said.params).toContain('revert');
  });

  it('the command line’s words never carry a window: it is the --for flag there', () => {
    const spec = { kind: 'ips', change: 'add' } as const;
    expect(parseWords(spec, ['5.6.7.8', 'for', '2h'], { phoneRegion: 'IR' }, 'whitelist add')).toMatchObject({
      ok: false,
      said: { key: 'boxCliWords', params: ['for'] },
    });
    expect(english(say.boxCliWords('for'))).toContain('--for 2h');
  });

  it('a command of two IDs joined by a word (a test-only playlist add) reads both, or names the missing one', () => {
    const spec = { kind: 'id', resource: 'playlist', and: [{ word: 'add', resource: 'file' }] } as const;
    const read = (words: string[]) => parseWords(spec, words, { phoneRegion: 'IR' }, 'playlist edit');
    const both = read([OID, 'add', OID.replace('e2', 'e3')]);
    if (!both.ok) throw new Error(english(both.said));
    const value: { playlistId: string; fileId: string } = both.value;
    expect(value).toEqual({ playlistId: OID, fileId: OID.replace('e2', 'e3') });
    expect(read([OID, 'add'])).toMatchObject({ ok: false, said: say.grammarNoId('file', 'fileId') });
    expect(read([OID, OID])).toMatchObject({ ok: false, said: { key: 'grammarManyIds' } });
  });

  it('a delegation’s "until" is still its own', () => {
    expect(parse('delegate <@U0AGENT1|ana> until 2d')).toMatchObject({
      ok: true,
      command: { kind: 'delegate' },
    });
  });
});

describe('agent pastes a page of text where a word was expected', () => {
  // Each unknown word was compared with every keyword (or setting) letter by letter, in a table
  // as long as the word: 5 s for a 200,000-character word, 9 s as a setting's name, while every
  // other command waited.
  const page = 'x'.repeat(200_000);

  it('as the command: refused at once, with no guess', () => {
    const started = performance.now();
    const result = parse(page);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ ok: false, said: { key: 'grammarUnknown' } });
  });

  it('as a protection setting: refused at once, with no guess', () => {
    const started = performance.now();
    const result = parse(`protect set ${page}=1`);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : english(result.said)).not.toMatch(/did you mean/i);
  });
});

describe('several numbers after unblock (unblockListOf)', () => {
  const options = { phoneRegion: 'IR' };

  it('an agent pastes numbers on several lines: each read with its line, duplicates merged', () => {
    const list = unblockListOf('unblock 0912 345 6789\n+98 935 111 2222، ۰۹۱۲۳۴۵۶۷۸۹\nhello 12345', options);
    expect(list?.numbers.map((n) => n.param)).toEqual(['09123456789', '09351112222']);
    expect(list?.duplicates).toBe(1);
    expect(list?.refused.map((r) => [r.line, r.read])).toEqual([[3, '12345']]);
  });

  it.each([
    ['one number, however written', 'unblock +98 912 345 6789'],
    ['no number at all', 'unblock 12345 678'],
    ['another command', 'viewer 09123456789 09351112222'],
  ])('%s stays a single unblock (null)', (_, text) => {
    expect(unblockListOf(text, options)).toBeNull();
  });
});
