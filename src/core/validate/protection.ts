import { z } from 'zod';
import { FONT_COLORS, type FontColor, type ProtectionConfig } from '../protection.js';
import { type Said, say } from '../said.js';
import { normalizeDigits } from './digits.js';
import { nearest } from './nearest.js';

/**
 * Protection settings: schema, field metadata for modals and `protect show`, the
 * `protect set field=value…` reader, and the diff that decides what is sent (only what changes).
 * @see docs/api.md, "Protection configuration (storage-wide)"
 * @see docs/architecture.md, "Validation"
 */

/** The ten watermark colours by name, as people say them. */
export const FONT_COLOR_NAMES: Record<FontColor, string> = {
  '#ffff00': 'yellow',
  '#dda0dd': 'plum',
  '#800000': 'maroon',
  '#4b0082': 'indigo',
  '#ffa500': 'orange',
  '#27ae60': 'green',
  '#16a085': 'teal',
  '#af7ac5': 'lavender',
  '#e74c3c': 'red',
  '#66a310': 'olive',
};

/** `expireTime`: a number and a unit, `s m h d w M y` (M is months, m minutes). */
export const EXPIRE_TIME_PATTERN = /^\d+[smhdwMy]$/;

// z.number() already refuses NaN and ±Infinity.
const nonNegative = z.number().min(0, 'must be 0 or more');
const fraction = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

export const PlayerSettingsSchema = z.strictObject({
  themeColor: z.string().min(1, 'must not be empty').exactOptional(),
  offlineMode: z.boolean().exactOptional(),
  securityProtection: z.boolean().exactOptional(),
});

export const LinkSettingsSchema = z.strictObject({
  accessWithMultiIp: z.boolean().exactOptional(),
  expireTime: z
    .string()
    .regex(EXPIRE_TIME_PATTERN, 'must be a number and a unit (s m h d w M y), e.g. 2h')
    .exactOptional(),
});

/** Every field optional (a change carries only what changes); unknown fields refused. */
export const ProtectionConfigSchema = z.strictObject({
  speed: nonNegative.exactOptional(),
  fontColor: z.enum(FONT_COLORS, { message: 'must be one of the ten watermark colours' }).exactOptional(),
  fontSize: nonNegative.exactOptional(),
  opacity: fraction.exactOptional(),
  sendProtectionAlert: z.boolean().exactOptional(),
  faultTolerance: nonNegative.exactOptional(),
  preventZoom: z.boolean().exactOptional(),
  ipValidation: z.boolean().exactOptional(),
  fixWatermark: z.boolean().exactOptional(),
  displayTextOnScreen: z.boolean().exactOptional(),
  enableBeep: z.boolean().exactOptional(),
  beepVolume: fraction.exactOptional(),
  beepInterval: nonNegative.exactOptional(),
  player: PlayerSettingsSchema.exactOptional(),
  link: LinkSettingsSchema.exactOptional(),
  enableActiveSession: z.boolean().exactOptional(),
  regenerateLink: z.boolean().exactOptional(),
  relatedPlaylist: z.boolean().exactOptional(),
  enablePlaylist: z.boolean().exactOptional(),
});

export type ProtectionFieldType = 'number' | 'boolean' | 'color' | 'duration' | 'text';
export type ProtectionGroup = 'watermark' | 'beep' | 'link' | 'player' | 'session' | 'playlist' | 'security';
export type ProtectionValue = string | number | boolean;

/** The groups as modals, `protect show` and the Home tab title them, in the order they are shown. */
export const PROTECTION_GROUP_TITLES: Readonly<Record<ProtectionGroup, string>> = {
  watermark: 'Watermark text',
  beep: 'Beep',
  link: 'Links',
  player: 'Player',
  session: 'Sessions',
  playlist: 'Playlists',
  security: 'Security',
};

/** One setting as modals and `protect show` present it. `field` is dotted for nested settings. */
export interface ProtectionField {
  field: string;
  type: ProtectionFieldType;
  label: string;
  group: ProtectionGroup;
  /** Inclusive bounds for numbers; `max: null` is unbounded. */
  bounds: { min: number; max: number | null } | null;
  help: string;
}

/** All settings, in the order they are shown (grouped). */
export const PROTECTION_FIELDS = [
  {
    field: 'displayTextOnScreen',
    type: 'boolean',
    label: 'Moving text on screen',
    group: 'watermark',
    bounds: null,
    help: 'Shows the moving text (watermark) over the video.',
  },
  {
    field: 'fixWatermark',
    type: 'boolean',
    label: 'Fixed watermark',
    group: 'watermark',
    bounds: null,
    help: 'Adds fixed text across the screen.',
  },
  {
    field: 'speed',
    type: 'number',
    label: 'Text speed',
    group: 'watermark',
    bounds: { min: 0, max: null },
    help: 'Speed of the moving text; the service does not document the unit.',
  },
  {
    field: 'fontColor',
    type: 'color',
    label: 'Text colour',
    group: 'watermark',
    bounds: null,
    help: `One of: ${FONT_COLORS.map((hex) => `${FONT_COLOR_NAMES[hex]} (${hex})`).join(', ')}.`,
  },
  {
    field: 'fontSize',
    type: 'number',
    label: 'Text size',
    group: 'watermark',
    bounds: { min: 0, max: null },
    help: 'Font size of the moving text.',
  },
  {
    field: 'opacity',
    type: 'number',
    label: 'Text opacity',
    group: 'watermark',
    bounds: { min: 0, max: 1 },
    help: 'From 0 (invisible) to 1 (solid).',
  },
  {
    field: 'enableBeep',
    type: 'boolean',
    label: 'Beep layer',
    group: 'beep',
    bounds: null,
    help: 'Adds a sound-protection layer (beep) to playback.',
  },
  {
    field: 'beepVolume',
    type: 'number',
    label: 'Beep volume',
    group: 'beep',
    bounds: { min: 0, max: 1 },
    help: 'From 0 to 1; the service documents 0.1 as the lowest useful volume.',
  },
  {
    field: 'beepInterval',
    type: 'number',
    label: 'Beep interval',
    group: 'beep',
    bounds: { min: 0, max: null },
    help: 'Delay between beeps; the service documents 1 as the lowest.',
  },
  {
    field: 'link.expireTime',
    type: 'duration',
    label: 'Link expiry',
    group: 'link',
    bounds: null,
    help: 'A number and a unit: s, m (minutes), h, d, w, M (months), y; e.g. 2h, 1d, 1M.',
  },
  {
    field: 'link.accessWithMultiIp',
    type: 'boolean',
    label: 'Block link sharing across IPs',
    group: 'link',
    bounds: null,
    help: 'Prevents sharing links based on the client IP.',
  },
  {
    field: 'regenerateLink',
    type: 'boolean',
    label: 'Regenerate expired links',
    group: 'link',
    bounds: null,
    help: 'Generates a link again after it has expired.',
  },
  {
    field: 'player.themeColor',
    type: 'text',
    label: 'Player theme colour',
    group: 'player',
    bounds: null,
    help: 'Colour of the player theme, e.g. #1e88e5.',
  },
  {
    field: 'player.offlineMode',
    type: 'boolean',
    label: 'Block offline mode',
    group: 'player',
    bounds: null,
    help: 'Prevents showing the video in offline mode.',
  },
  {
    field: 'player.securityProtection',
    type: 'boolean',
    label: '360° security protection',
    group: 'player',
    bounds: null,
    help: 'The 360-degree security protection system of the player.',
  },
  {
    field: 'preventZoom',
    type: 'boolean',
    label: 'Block page zoom',
    group: 'player',
    bounds: null,
    help: 'Blocks zooming the page (viewers see error 1466 when zoom is not 100%).',
  },
  {
    field: 'enableActiveSession',
    type: 'boolean',
    label: 'One session per viewer',
    group: 'session',
    bounds: null,
    help: 'Allows one concurrent session per viewer, so links cannot be shared.',
  },
  {
    field: 'faultTolerance',
    type: 'number',
    label: 'Fault tolerance',
    group: 'session',
    bounds: { min: 0, max: null },
    help: 'How many player errors a viewer may hit before being blocked; the service suggests 6 or more.',
  },
  {
    field: 'enablePlaylist',
    type: 'boolean',
    label: 'Use playlists',
    group: 'playlist',
    bounds: null,
    help: 'Enables use of a playlist when one exists.',
  },
  {
    field: 'relatedPlaylist',
    type: 'boolean',
    label: 'Single downloadable file in playlist',
    group: 'playlist',
    bounds: null,
    help: 'Single downloadable file in a playlist.',
  },
  {
    field: 'ipValidation',
    type: 'boolean',
    label: 'IP whitelist enforced',
    group: 'security',
    bounds: null,
    help: 'When on, link creation is answered only for server IPs on the whitelist.',
  },
  {
    field: 'sendProtectionAlert',
    type: 'boolean',
    label: 'Warning SMS to risky viewers',
    group: 'security',
    bounds: null,
    help: 'Sends a warning SMS to high-risk viewers.',
  },
] as const satisfies readonly ProtectionField[];

export type ProtectionFieldName = (typeof PROTECTION_FIELDS)[number]['field'];

const FIELD_NAMES: readonly ProtectionFieldName[] = PROTECTION_FIELDS.map((f) => f.field);
/** A name twice as long as the longest setting's is no typo of one: nothing is suggested for it. */
const LONGEST_GUESSED = 2 * Math.max(...FIELD_NAMES.map((f) => f.length));

/** Looks a field up by dotted name; `undefined` for names that are not settings. */
export function protectionField(name: string): ProtectionField | undefined {
  return PROTECTION_FIELDS.find((f) => f.field === name);
}

/** The typed config from anything (e.g. a modal's state); throws ZodError on bad input. */
export function toProtectionConfig(value: unknown): ProtectionConfig {
  return ProtectionConfigSchema.parse(value);
}

/** The value of one setting, `undefined` when not set. */
export function readProtectionField(config: ProtectionConfig, field: string): ProtectionValue | undefined {
  const [head = '', leaf] = field.split('.');
  let value: unknown = asRecord(config)[head];
  if (leaf !== undefined) value = isObject(value) ? asRecord(value)[leaf] : undefined;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? value
    : undefined;
}

/** Every set field, flat and in display order: `[{ field: 'player.offlineMode', value: true }, …]`. */
export function flattenProtection(
  config: ProtectionConfig,
): { field: ProtectionFieldName; value: ProtectionValue }[] {
  const rows: { field: ProtectionFieldName; value: ProtectionValue }[] = [];
  for (const field of FIELD_NAMES) {
    const value = readProtectionField(config, field);
    if (value !== undefined) rows.push({ field, value });
  }
  return rows;
}

/** How a value reads to people: colours by name, booleans as on/off, unset as "not set". */
export function formatProtectionValue(field: string, value: ProtectionValue | null | undefined): string {
  if (value === null || value === undefined) return 'not set';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (protectionField(field)?.type === 'color' && typeof value === 'string') {
    const name = colorName(value);
    return name === null ? value : `${name} (${value.toLowerCase()})`;
  }
  return String(value);
}

/** One changed setting. `before` is null when the setting was not set. */
export interface ProtectionDiffRow {
  field: ProtectionFieldName;
  before: ProtectionValue | null;
  after: ProtectionValue;
}

/**
 * What a change would really change: `changed` keeps only fields whose value differs from
 * `current` (nested kept nested; this is what is sent), `rows` shows each before → after.
 */
export function diffProtection(
  current: ProtectionConfig,
  changes: ProtectionConfig,
): { changed: ProtectionConfig; rows: ProtectionDiffRow[] } {
  const rows: ProtectionDiffRow[] = [];
  const changed: Record<string, unknown> = {};
  for (const field of FIELD_NAMES) {
    const after = readProtectionField(changes, field);
    if (after === undefined) continue;
    const before = readProtectionField(current, field);
    if (before !== undefined && sameProtectionValue(field, before, after)) continue;
    rows.push({ field, before: before ?? null, after });
    assign(changed, field, after);
  }
  return { changed: toProtectionConfig(changed), rows };
}

export type AssignmentsResult = { ok: true; changes: ProtectionConfig } | { ok: false; said: Said[] };

function refusedAll(said: Said[]): AssignmentsResult {
  return { ok: false, said };
}

/**
 * Reads `field=value` pairs: `player.offlineMode=true link.expireTime=2h opacity=0.5 fontColor=red`.
 * Field names are case-insensitive; nested leaves may be given without their group
 * (`offlineMode`). Colours by name or hex; booleans true/false, on/off, yes/no; numbers with
 * Persian or Arabic-Indic digits. Every problem is listed, not just the first.
 */
export function parseAssignments(tokens: readonly string[]): AssignmentsResult {
  const text = normalizeDigits(tokens.join(' '))
    .replace(/\s*=\s*/g, '=')
    .trim();
  const pairs = text === '' ? [] : text.split(/\s+/);
  if (pairs.length === 0) {
    return refusedAll([say.protNone()]);
  }
  const problems: Said[] = [];
  const changes: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 0) {
      problems.push(say.protNoValue(pair));
      continue;
    }
    const name = pair.slice(0, at);
    const raw = stripQuotes(pair.slice(at + 1));
    if (name === '') {
      problems.push(say.protNoName(pair));
      continue;
    }
    const field = resolveFieldName(name);
    if (field === undefined) {
      const guess = name.length > LONGEST_GUESSED ? null : nearest(name, FIELD_NAMES);
      problems.push(say.protUnknown(name, guess === null ? null : guess.value));
      continue;
    }
    if (given.has(field.field)) {
      problems.push(say.protTwice(field.field));
      continue;
    }
    given.add(field.field);
    if (raw === '') {
      problems.push(say.protNeedsValue(field.field));
      continue;
    }
    const value = readValue(field, raw);
    if (typeof value === 'object') {
      problems.push(say.protBadValue(field.field, value.problem));
      continue;
    }
    assign(changes, field.field, value);
  }
  if (problems.length > 0) return refusedAll(problems);
  const checked = ProtectionConfigSchema.safeParse(changes);
  if (!checked.success) {
    return refusedAll(
      checked.error.issues.map((issue) => say.protIssue(issue.path.join('.'), issue.message)),
    );
  }
  return { ok: true, changes: checked.data };
}

/** The hex of a colour given by name (`red`) or hex (`#E74C3C`, `e74c3c`); null if not one of the ten. */
export function parseFontColor(raw: string): FontColor | null {
  const text = raw.trim().toLowerCase();
  const byName = FONT_COLORS.find((hex) => FONT_COLOR_NAMES[hex] === text);
  if (byName !== undefined) return byName;
  const hex = text.startsWith('#') ? text : `#${text}`;
  return FONT_COLORS.find((c) => c === hex) ?? null;
}

function colorName(value: string): string | null {
  const hex = parseFontColor(value);
  return hex === null ? null : FONT_COLOR_NAMES[hex];
}

function resolveFieldName(name: string): ProtectionField | undefined {
  const lower = name.toLowerCase();
  return (
    PROTECTION_FIELDS.find((f) => f.field.toLowerCase() === lower) ??
    // Nested leaves are unique, so `offlineMode` can only mean `player.offlineMode`.
    PROTECTION_FIELDS.find((f) => f.field.includes('.') && f.field.split('.')[1]?.toLowerCase() === lower)
  );
}

const TRUE_WORDS = new Set(['true', 'on', 'yes']);
const FALSE_WORDS = new Set(['false', 'off', 'no']);

function readValue(field: ProtectionField, raw: string): ProtectionValue | { problem: Said } {
  switch (field.type) {
    case 'boolean': {
      const word = raw.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return { problem: say.protNotSwitch(raw) };
    }
    case 'number': {
      // Arabic decimal separator (U+066B) as a decimal point.
      const text = raw.replace(/\u066b/g, '.');
      if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(text)) return { problem: say.protNotNumber(raw) };
      const value = Number(text);
      const bounds = field.bounds;
      if (bounds !== null && (value < bounds.min || (bounds.max !== null && value > bounds.max))) {
        return {
          problem:
            bounds.max === null
              ? say.protBelow(raw, bounds.min)
              : say.protOutside(raw, bounds.min, bounds.max),
        };
      }
      return value;
    }
    case 'color': {
      const hex = parseFontColor(raw);
      if (hex !== null) return hex;
      return {
        problem: say.protNotColour(
          raw,
          FONT_COLORS.map((c) => FONT_COLOR_NAMES[c]),
        ),
      };
    }
    case 'duration': {
      if (EXPIRE_TIME_PATTERN.test(raw)) return raw;
      return { problem: say.protNotDuration(raw) };
    }
    case 'text':
      return raw;
  }
}

function assign(target: Record<string, unknown>, field: string, value: ProtectionValue): void {
  const [head = '', leaf] = field.split('.');
  if (leaf === undefined) {
    target[head] = value;
    return;
  }
  const existing = target[head];
  const group: Record<string, unknown> = isObject(existing) ? asRecord(existing) : {};
  group[leaf] = value;
  target[head] = group;
}

/**
 * Whether two values of a setting are the same as the service means them: colours in any case,
 * numbers by value (`0.50` read back as `0.5`).
 */
export function sameProtectionValue(field: string, a: ProtectionValue, b: ProtectionValue): boolean {
  const type = protectionField(field)?.type;
  if (type === 'color' && typeof a === 'string' && typeof b === 'string') {
    return a.toLowerCase() === b.toLowerCase();
  }
  if (type === 'number' && typeof a !== 'boolean' && typeof b !== 'boolean') {
    const [x, y] = [Number(a), Number(b)];
    if (Number.isFinite(x) && Number.isFinite(y)) return x === y;
  }
  return a === b;
}

/** The settings object (nested as the service takes it) of dotted rows: `player.offlineMode`. */
export function protectionOf(rows: readonly { field: string; value: ProtectionValue }[]): ProtectionConfig {
  const out: Record<string, unknown> = {};
  for (const row of rows) assign(out, row.field, row.value);
  return toProtectionConfig(out);
}

function stripQuotes(value: string): string {
  return value.replace(/^[`"'“”]+|[`"'“”]+$/g, '');
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asRecord(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value));
}
