import { z } from 'zod';
import type { JsonObject } from '../core/json.js';
import type { RetryPolicy, Transport } from './http.js';
import { asRaw, bool, isObject, num, recordOf, text } from './parse.js';
import { ExpireTimeSchema, failValidation, siteOf, validateRequest } from './schemas.js';
import {
  type Answer,
  FONT_COLORS,
  type FontColor,
  type LinkSettings,
  type PlayerSettings,
  type ProtectionConfig,
} from './types.js';

/**
 * Operations 3 and 4: the storage-wide protection configuration.
 * @see docs/api.md, "Protection configuration (storage-wide)"
 */

const GET_SITE = siteOf('protect.get');
const SET_SITE = siteOf('protect.set');

const Amount = z.number({ message: 'must be a number' }).nonnegative('must not be negative');
const Fraction = z.number({ message: 'must be a number' }).min(0, 'must be 0 to 1').max(1, 'must be 0 to 1');
const Flag = z.boolean({ message: 'must be true or false' });

/** Body of op 3: any subset of the fields, each typed as in the spec. */
export const ProtectionUpdateSchema = z.strictObject({
  speed: Amount.optional(),
  fontColor: z.enum(FONT_COLORS, { message: `must be one of ${FONT_COLORS.join(', ')}` }).optional(),
  fontSize: Amount.optional(),
  opacity: Fraction.optional(),
  sendProtectionAlert: Flag.optional(),
  faultTolerance: Amount.optional(),
  preventZoom: Flag.optional(),
  ipValidation: Flag.optional(),
  fixWatermark: Flag.optional(),
  displayTextOnScreen: Flag.optional(),
  enableBeep: Flag.optional(),
  beepVolume: Fraction.optional(),
  beepInterval: Amount.optional(),
  player: z
    .strictObject({
      themeColor: z.string({ message: 'must be text' }).optional(),
      offlineMode: Flag.optional(),
      securityProtection: Flag.optional(),
    })
    .optional(),
  link: z
    .strictObject({
      accessWithMultiIp: Flag.optional(),
      expireTime: ExpireTimeSchema.optional(),
    })
    .optional(),
  enableActiveSession: Flag.optional(),
  regenerateLink: Flag.optional(),
  relatedPlaylist: Flag.optional(),
  enablePlaylist: Flag.optional(),
});

const NUMBER_FIELDS = [
  'speed',
  'fontSize',
  'opacity',
  'faultTolerance',
  'beepVolume',
  'beepInterval',
] as const;
const FLAG_FIELDS = [
  'sendProtectionAlert',
  'preventZoom',
  'ipValidation',
  'fixWatermark',
  'displayTextOnScreen',
  'enableBeep',
  'enableActiveSession',
  'regenerateLink',
  'relatedPlaylist',
  'enablePlaylist',
] as const;

function isFontColor(value: string): value is FontColor {
  return (FONT_COLORS as readonly string[]).includes(value);
}

/**
 * The typed view of an answer of op 4: fields of the right type are picked, anything else stays
 * in `raw` only.
 */
export function parseProtectionConfig(record: JsonObject): ProtectionConfig {
  const config: ProtectionConfig = {};
  for (const key of NUMBER_FIELDS) {
    const value = num(record, key);
    if (value !== null) config[key] = value;
  }
  for (const key of FLAG_FIELDS) {
    const value = bool(record, key);
    if (value !== null) config[key] = value;
  }
  const color = text(record, 'fontColor');
  if (color !== null) {
    const lower = color.toLowerCase();
    if (isFontColor(lower)) config.fontColor = lower;
  }
  if (isObject(record.player)) {
    const player: PlayerSettings = {};
    const themeColor = text(record.player, 'themeColor');
    const offlineMode = bool(record.player, 'offlineMode');
    const securityProtection = bool(record.player, 'securityProtection');
    if (themeColor !== null) player.themeColor = themeColor;
    if (offlineMode !== null) player.offlineMode = offlineMode;
    if (securityProtection !== null) player.securityProtection = securityProtection;
    config.player = player;
  }
  if (isObject(record.link)) {
    const link: LinkSettings = {};
    const accessWithMultiIp = bool(record.link, 'accessWithMultiIp');
    const expireTime = text(record.link, 'expireTime');
    if (accessWithMultiIp !== null) link.accessWithMultiIp = accessWithMultiIp;
    if (expireTime !== null) link.expireTime = expireTime;
    config.link = link;
  }
  return config;
}

export function createProtectionResource(transport: Transport, retry: RetryPolicy) {
  return {
    /** op 4 */
    async get(): Promise<ProtectionConfig & Answer> {
      const body = await transport.request({ ...GET_SITE, retry });
      const record = recordOf(body);
      return { ...parseProtectionConfig(record), raw: record };
    },
    /** op 3: sends only the given fields. */
    async update(changes: ProtectionConfig): Promise<Answer> {
      const body = validateRequest(ProtectionUpdateSchema, changes, SET_SITE);
      if (Object.keys(body).length === 0) {
        failValidation(SET_SITE, ['(request)'], ['request: names no field to change']);
      }
      // Setting the same values twice is harmless, so the update takes the idempotent policy.
      const answer = await transport.request({ ...SET_SITE, json: body, retry });
      return { raw: asRaw(answer) };
    },
  };
}
