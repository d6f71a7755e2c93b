/**
 * The protection configuration as vidops knows it: pure types and the ten watermark colours. The
 * core validates and diffs these; the client sends and parses them (it imports them from here).
 * @see docs/api.md, "Protection configuration (storage-wide)"
 */

export const FONT_COLORS = [
  '#ffff00',
  '#dda0dd',
  '#800000',
  '#4b0082',
  '#ffa500',
  '#27ae60',
  '#16a085',
  '#af7ac5',
  '#e74c3c',
  '#66a310',
] as const;
export type FontColor = (typeof FONT_COLORS)[number];

export interface PlayerSettings {
  themeColor?: string;
  offlineMode?: boolean;
  securityProtection?: boolean;
}

export interface LinkSettings {
  accessWithMultiIp?: boolean;
  expireTime?: string;
}

/** Protection configuration (all optional: a change carries only the fields that change). */
export interface ProtectionConfig {
  speed?: number;
  fontColor?: FontColor;
  fontSize?: number;
  opacity?: number;
  sendProtectionAlert?: boolean;
  faultTolerance?: number;
  preventZoom?: boolean;
  ipValidation?: boolean;
  fixWatermark?: boolean;
  displayTextOnScreen?: boolean;
  enableBeep?: boolean;
  beepVolume?: number;
  beepInterval?: number;
  player?: PlayerSettings;
  link?: LinkSettings;
  enableActiveSession?: boolean;
  regenerateLink?: boolean;
  relatedPlaylist?: boolean;
  enablePlaylist?: boolean;
}
