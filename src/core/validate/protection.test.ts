import { english } from '../../i18n/said.js';
import { FONT_COLORS, type ProtectionConfig } from '../protection.js';
import {
  diffProtection,
  FONT_COLOR_NAMES,
  flattenProtection,
  formatProtectionValue,
  PROTECTION_FIELDS,
  ProtectionConfigSchema,
  parseAssignments,
  parseFontColor,
} from './protection.js';

/** A full configuration as the service might return it; override what a test is about. */
function config(overrides: Partial<ProtectionConfig> = {}): ProtectionConfig {
  return {
    speed: 5,
    fontColor: '#ffff00',
    fontSize: 14,
    opacity: 0.6,
    sendProtectionAlert: false,
    faultTolerance: 6,
    preventZoom: false,
    ipValidation: false,
    fixWatermark: false,
    displayTextOnScreen: true,
    enableBeep: false,
    beepVolume: 0.5,
    beepInterval: 10,
    player: { themeColor: '#1e88e5', offlineMode: false, securityProtection: true },
    link: { accessWithMultiIp: false, expireTime: '1d' },
    enableActiveSession: true,
    regenerateLink: true,
    relatedPlaylist: false,
    enablePlaylist: true,
    ...overrides,
  };
}

describe('protection settings schema', () => {
  it('accepts a full configuration and an empty one', () => {
    expect(ProtectionConfigSchema.parse(config())).toEqual(config());
    expect(ProtectionConfigSchema.parse({})).toEqual({});
  });

  it.each([
    ['opacity above 1', { opacity: 1.5 }, 'opacity'],
    ['beepVolume below 0', { beepVolume: -0.1 }, 'beepVolume'],
    ['negative speed', { speed: -1 }, 'speed'],
    ['infinite font size', { fontSize: Number.POSITIVE_INFINITY }, 'fontSize'],
    ['NaN interval', { beepInterval: Number.NaN }, 'beepInterval'],
    ['a colour outside the ten', { fontColor: '#000000' }, 'fontColor'],
    ['an expiry without unit', { link: { expireTime: '2' } }, 'link.expireTime'],
    ['an expiry with a unit that does not exist', { link: { expireTime: '2x' } }, 'link.expireTime'],
    ['a boolean as text', { preventZoom: 'false' }, 'preventZoom'],
    ['an unknown field', { watermarkText: 'x' }, ''],
    ['an unknown nested field', { player: { autoplay: true } }, 'player'],
  ])('refuses %s', (_, value, path) => {
    const result = ProtectionConfigSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it.each(['1s', '30m', '2h', '1d', '2w', '1M', '1y', '120m'])('accepts expiry %s', (expireTime) => {
    expect(ProtectionConfigSchema.safeParse({ link: { expireTime } }).success).toBe(true);
  });
});

describe('field metadata', () => {
  it('describes every field of the spec once, nested ones dotted', () => {
    expect(PROTECTION_FIELDS.map((f) => f.field).sort()).toEqual(
      [
        'speed',
        'fontColor',
        'fontSize',
        'opacity',
        'sendProtectionAlert',
        'faultTolerance',
        'preventZoom',
        'ipValidation',
        'fixWatermark',
        'displayTextOnScreen',
        'enableBeep',
        'beepVolume',
        'beepInterval',
        'player.themeColor',
        'player.offlineMode',
        'player.securityProtection',
        'link.accessWithMultiIp',
        'link.expireTime',
        'enableActiveSession',
        'regenerateLink',
        'relatedPlaylist',
        'enablePlaylist',
      ].sort(),
    );
  });

  it.each([
    ['opacity', 'watermark', { min: 0, max: 1 }],
    ['beepVolume', 'beep', { min: 0, max: 1 }],
    ['speed', 'watermark', { min: 0, max: null }],
    ['link.expireTime', 'link', null],
    ['player.offlineMode', 'player', null],
    ['enableActiveSession', 'session', null],
    ['enablePlaylist', 'playlist', null],
    ['ipValidation', 'security', null],
  ])('%s is in group %s with bounds %j', (field, group, bounds) => {
    const meta = PROTECTION_FIELDS.find((f) => f.field === field);
    expect(meta?.group).toBe(group);
    expect(meta?.bounds ?? null).toEqual(bounds);
  });

  it('names all ten colours', () => {
    expect(FONT_COLORS.map((hex) => FONT_COLOR_NAMES[hex])).toEqual([
      'yellow',
      'plum',
      'maroon',
      'indigo',
      'orange',
      'green',
      'teal',
      'lavender',
      'red',
      'olive',
    ]);
  });
});

describe('agent types protect set field=value…', () => {
  it.each([
    [
      'the design example',
      ['player.offlineMode=true', 'link.expireTime=2h', 'opacity=0.5', 'fontColor=red'],
      { player: { offlineMode: true }, link: { expireTime: '2h' }, opacity: 0.5, fontColor: '#e74c3c' },
    ],
    ['a colour by hex, any case, # optional', ['fontColor=#DDA0DD'], { fontColor: '#dda0dd' }],
    ['a colour hex without #', ['fontColor=4b0082'], { fontColor: '#4b0082' }],
    ['a colour name in capitals', ['fontColor=Olive'], { fontColor: '#66a310' }],
    ['on/off', ['enableBeep=on', 'preventZoom=off'], { enableBeep: true, preventZoom: false }],
    ['yes/no', ['ipValidation=YES', 'regenerateLink=no'], { ipValidation: true, regenerateLink: false }],
    ['Persian digits', ['faultTolerance=۸', 'opacity=۰.۷'], { faultTolerance: 8, opacity: 0.7 }],
    ['the Arabic decimal separator', ['beepVolume=۰٫۵'], { beepVolume: 0.5 }],
    ['a leading-dot number', ['opacity=.25'], { opacity: 0.25 }],
    [
      'case-insensitive field names',
      ['FONTSIZE=18', 'Player.OfflineMode=false'],
      { fontSize: 18, player: { offlineMode: false } },
    ],
    [
      'a nested leaf without its group',
      ['offlineMode=true', 'expireTime=1M'],
      { player: { offlineMode: true }, link: { expireTime: '1M' } },
    ],
    ['spaces around =', ['opacity', '=', '0.3', 'speed', '=4'], { opacity: 0.3, speed: 4 }],
    [
      'two nested fields of one group',
      ['player.offlineMode=true', 'player.themeColor=#222222'],
      { player: { offlineMode: true, themeColor: '#222222' } },
    ],
    ['bounds inclusive', ['opacity=0', 'beepVolume=1'], { opacity: 0, beepVolume: 1 }],
    ['quoted values', ['link.expireTime="2h"'], { link: { expireTime: '2h' } }],
  ])('reads %s', (_, tokens, changes) => {
    expect(parseAssignments(tokens)).toEqual({ ok: true, changes });
  });

  it.each([
    [
      'an unknown field, naming the nearest',
      ['opactiy=0.5'],
      ['unknown setting "opactiy"; did you mean "opacity"?'],
    ],
    [
      'a misspelt nested field',
      ['player.ofline=true'],
      ['unknown setting "player.ofline"; did you mean "player.offlineMode"?'],
    ],
    ['opacity above 1', ['opacity=1.5'], ['opacity: 1.5 is out of range; it must be between 0 and 1']],
    ['a negative number', ['speed=-2'], ['speed: -2 is out of range; it must be 0 or more']],
    ['a word for a number', ['fontSize=big'], ['fontSize: "big" is not a number']],
    [
      'a boolean that is not one',
      ['enableBeep=maybe'],
      ['enableBeep: "maybe" is not on/off; use true/false, on/off or yes/no'],
    ],
    [
      'a colour outside the ten',
      ['fontColor=black'],
      [
        'fontColor: "black" is not one of the watermark colours: yellow, plum, maroon, indigo, orange, green, teal, lavender, red, olive',
      ],
    ],
    [
      'an expiry without unit',
      ['link.expireTime=2'],
      ['link.expireTime: "2" is not a duration; write a number and a unit (s m h d w M y), e.g. 2h, 1d, 1M'],
    ],
    ['a field without value', ['opacity='], ['opacity needs a value']],
    ['a word without =', ['opacity'], ['"opacity" has no value; write field=value']],
    ['a value without field', ['=3'], ['"=3" has no setting name; write field=value']],
    ['a field given twice', ['opacity=0.1', 'opacity=0.2'], ['opacity is given more than once']],
    ['nothing', [], ['no settings were given; write field=value, e.g. opacity=0.5']],
    [
      'several problems at once',
      ['opacity=2', 'fontColor=pink', 'speed=3'],
      [
        'opacity: 2 is out of range; it must be between 0 and 1',
        'fontColor: "pink" is not one of the watermark colours: yellow, plum, maroon, indigo, orange, green, teal, lavender, red, olive',
      ],
    ],
  ])('refuses %s', (_, tokens, problems) => {
    const read = parseAssignments(tokens);
    expect(read.ok ? [] : read.said.map(english)).toEqual(problems);
  });
});

describe('what a change would change', () => {
  it('keeps only fields that differ, nested kept nested', () => {
    const result = diffProtection(config(), {
      opacity: 0.6,
      fontColor: '#e74c3c',
      player: { offlineMode: true, securityProtection: true },
      link: { expireTime: '2h' },
    });
    expect(result.changed).toEqual({
      fontColor: '#e74c3c',
      player: { offlineMode: true },
      link: { expireTime: '2h' },
    });
    expect(result.rows).toEqual([
      { field: 'fontColor', before: '#ffff00', after: '#e74c3c' },
      { field: 'link.expireTime', before: '1d', after: '2h' },
      { field: 'player.offlineMode', before: false, after: true },
    ]);
  });

  it('shows a field the service did not report as changed from nothing', () => {
    const result = diffProtection({ opacity: 0.5 }, { beepVolume: 0.3 });
    expect(result.rows).toEqual([{ field: 'beepVolume', before: null, after: 0.3 }]);
    expect(result.changed).toEqual({ beepVolume: 0.3 });
  });

  it('treats a colour reported in capitals as the same colour', () => {
    // The client parses answers permissively, so the service's own spelling can reach the diff.
    const reported: ProtectionConfig = {};
    Object.assign(reported, { fontColor: '#FFFF00' });
    expect(diffProtection(reported, { fontColor: '#ffff00' })).toEqual({ changed: {}, rows: [] });
  });

  it('finds nothing to send when every value is already set', () => {
    expect(diffProtection(config(), { opacity: 0.6, player: { offlineMode: false } })).toEqual({
      changed: {},
      rows: [],
    });
  });
});

describe('settings as people read them', () => {
  it('flattens set fields in display order', () => {
    expect(
      flattenProtection({
        opacity: 0.5,
        player: { offlineMode: true },
        link: { expireTime: '2h' },
        enableBeep: false,
      }),
    ).toEqual([
      { field: 'opacity', value: 0.5 },
      { field: 'enableBeep', value: false },
      { field: 'link.expireTime', value: '2h' },
      { field: 'player.offlineMode', value: true },
    ]);
  });

  it('lists every field of a full configuration', () => {
    expect(flattenProtection(config())).toHaveLength(PROTECTION_FIELDS.length);
  });

  it.each([
    ['fontColor', '#e74c3c', 'red (#e74c3c)'],
    ['fontColor', '#123456', '#123456'],
    ['enableBeep', true, 'on'],
    ['preventZoom', false, 'off'],
    ['opacity', 0.5, '0.5'],
    ['link.expireTime', '2h', '2h'],
    ['opacity', null, 'not set'],
  ] as const)('%s %s reads "%s"', (field, value, shown) => {
    expect(formatProtectionValue(field, value)).toBe(shown);
  });

  it.each([
    ['red', '#e74c3c'],
    ['#FFA500', '#ffa500'],
    ['27ae60', '#27ae60'],
    ['black', null],
  ])('colour %s is %s', (raw, hex) => {
    expect(parseFontColor(raw)).toBe(hex);
  });
});
