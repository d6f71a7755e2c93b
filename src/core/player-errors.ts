import { normalizeDigits } from './validate/digits.js';

/**
 * Error codes the player shows viewers, with what support can do about each. `action` names the
 * bot operation that fixes it, so `explain` can offer a button (9910 → Unblock).
 * @see docs/api-extras.md, "Player error codes"
 */
export type PlayerErrorAction = 'unblock' | 'retry';

export interface PlayerErrorEntry {
  /** Lowest and highest code of the entry (equal for a single code). */
  from: number;
  to: number;
  /** How the codes are written in listings: `9910`, `2001-2009`, `9104, 9105`. */
  codes: string;
  meaning: string;
  fix: string;
  action: PlayerErrorAction | null;
}

export interface PlayerErrorExplanation {
  code: string;
  meaning: string;
  fix: string;
  action: PlayerErrorAction | null;
}

/** The table, in the order of the service's documentation. */
export const PLAYER_ERROR_CODES: readonly PlayerErrorEntry[] = [
  {
    from: 9999,
    to: 9999,
    codes: '9999',
    meaning: 'Unexpected error in the player.',
    fix: 'Escalate to the service with the time, the file and the viewer.',
    action: null,
  },
  {
    from: 9910,
    to: 9910,
    codes: '9910',
    meaning: 'The viewer was blocked for suspicious behaviour.',
    fix: 'Unblock the viewer by mobile number.',
    action: 'unblock',
  },
  {
    from: 9199,
    to: 9199,
    codes: '9199',
    meaning: 'The link has expired.',
    fix: 'The viewer reloads the page to get a new link.',
    action: null,
  },
  {
    from: 9196,
    to: 9196,
    codes: '9196',
    meaning: 'The browser cannot play the higher quality.',
    fix: 'The viewer tries another browser.',
    action: null,
  },
  {
    from: 9195,
    to: 9195,
    codes: '9195',
    meaning: 'A VPN is on, or the link was shared.',
    fix: 'The viewer turns off the VPN and does not share links.',
    action: null,
  },
  {
    from: 9150,
    to: 9150,
    codes: '9150',
    meaning: 'Another device is using the account.',
    fix: 'The viewer closes the other session.',
    action: null,
  },
  {
    from: 9104,
    to: 9105,
    codes: '9104, 9105',
    meaning: 'The file is still being processed.',
    fix: 'Wait for the conversion to finish.',
    action: null,
  },
  {
    from: 9103,
    to: 9103,
    codes: '9103',
    meaning: 'Processing of the file failed.',
    fix: 'Retry the conversion of the file.',
    action: 'retry',
  },
  {
    from: 9102,
    to: 9102,
    codes: '9102',
    meaning: 'The account is suspended and needs a top-up.',
    fix: 'The account owner tops up the account.',
    action: null,
  },
  {
    from: 9101,
    to: 9101,
    codes: '9101',
    meaning: 'Conversion of the file failed.',
    fix: 'Retry the conversion; if it fails again, re-upload the file.',
    action: 'retry',
  },
  {
    from: 2001,
    to: 2009,
    codes: '2001-2009',
    meaning: 'An incompatible browser extension is active.',
    fix: 'The viewer disables browser extensions.',
    action: null,
  },
  {
    from: 1466,
    to: 1466,
    codes: '1466',
    meaning: 'The page zoom is not at 100%.',
    fix: 'The viewer resets the zoom to 100% (Ctrl+0).',
    action: null,
  },
  {
    from: 1457,
    to: 1457,
    codes: '1457',
    meaning: 'The link is not valid.',
    fix: 'The viewer gets a new link.',
    action: null,
  },
  {
    from: 1014,
    to: 1014,
    codes: '1014',
    meaning: 'The connection was lost.',
    fix: 'The viewer checks their internet connection.',
    action: null,
  },
  {
    from: 8001,
    to: 8005,
    codes: '8001-8005',
    meaning: 'A playback, network or browser problem.',
    fix: 'The viewer tries another browser or network.',
    action: null,
  },
  {
    from: 7443,
    to: 7443,
    codes: '7443',
    meaning: 'A download extension (e.g. IDM) or a theme changer is active.',
    fix: 'The viewer disables it.',
    action: null,
  },
];

/**
 * What a player error code means and what to do, or null for codes that are not in the table.
 * Accepts Persian/Arabic-Indic digits, spaces and a leading `#` or `E` (`#9910`, `E9910`).
 */
export function explainCode(raw: string): PlayerErrorExplanation | null {
  const code = normalizeErrorCode(raw);
  if (code === null) return null;
  const value = Number(code);
  const entry = PLAYER_ERROR_CODES.find((e) => value >= e.from && value <= e.to);
  if (entry === undefined) return null;
  return { code, meaning: entry.meaning, fix: entry.fix, action: entry.action };
}

/**
 * A player error code as typed (`۹۹۱۰`, `#9910`, `E9910`, `error 9910`) → `9910`; null when
 * it is not a number of one to six digits.
 */
export function normalizeErrorCode(raw: string): string | null {
  const code = normalizeDigits(raw)
    .trim()
    .replace(/^(#|e(rror)?\s*(code)?\s*[:#]?)\s*/i, '');
  if (!/^\d{1,6}$/.test(code)) return null;
  return String(Number(code));
}
