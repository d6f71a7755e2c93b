import { asciiDigits } from './validate/digits.js';

/**
 * Masking of mobile numbers for everything people read outside the store (Slack posts, logs):
 * keep the first four and last four digits, `09123456789` → `0912***6789`.
 * @see docs/architecture.md, "Audit log"
 */
export function maskMobile(number: string): string {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 9) return '***';
  const prefix = number.startsWith('+') ? '+' : '';
  return `${prefix}${digits.slice(0, 4)}***${digits.slice(-4)}`;
}

// A run of 9 to 15 digits, optionally with a leading + and single spaces/dashes between groups,
// not part of a longer run of digits or of a hex ID (ObjectIds stay readable).
const PHONE_LIKE = /(?<![0-9A-Za-z])\+?\d(?:[ -]?\d){8,14}(?![0-9A-Za-z])/g;

/** Masks every phone-like number inside free text. Hex IDs, times and short numbers are left alone. */
export function maskMobilesInText(text: string): string {
  const ascii = asciiDigits(text);
  if (ascii === text) return text.replace(PHONE_LIKE, (m) => maskMobile(m));
  // Persian/Arabic-Indic digits: find numbers on the ASCII form (same length, one code unit per
  // digit) and mask those spans only, so the rest of the text (e.g. a Persian title) is kept as is.
  let out = '';
  let last = 0;
  for (const match of ascii.matchAll(PHONE_LIKE)) {
    out += text.slice(last, match.index) + maskMobile(match[0]);
    last = match.index + match[0].length;
  }
  return out + text.slice(last);
}

// Slack tokens and request signatures, wherever they might surface in text.
const TOKEN_LIKE = /\b(xox[abeoprs]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+|v0=[0-9a-f]{16,})/g;

/** Replaces Slack tokens and signatures in free text with `[redacted]`. */
export function redactTokens(text: string): string {
  return text.replace(TOKEN_LIKE, '[redacted]');
}
