/**
 * Digits as people paste them: Persian (۰-۹) and Arabic-Indic (٠-٩) digits become ASCII, and the
 * invisible marks that right-to-left text carries (bidi controls, zero-width joiners, BOM) go.
 * @see docs/architecture.md, "Slash command grammar"
 */

// LRM/RLM, LRE…RLO embeddings, LRI…PDI isolates, ZWNJ/ZWJ, BOM, ALM (Arabic letter mark).
const INVISIBLE_MARKS = /[\u200c-\u200f\u202a-\u202e\u2066-\u2069\ufeff\u061c]/g;
const PERSIAN_DIGITS = /[\u06f0-\u06f9]/g;
const ARABIC_INDIC_DIGITS = /[\u0660-\u0669]/g;

/** Persian and Arabic-Indic digits → ASCII, one code unit for one, so offsets stay the same. */
export function asciiDigits(s: string): string {
  return s
    .replace(PERSIAN_DIGITS, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(ARABIC_INDIC_DIGITS, (d) => String(d.charCodeAt(0) - 0x0660));
}

/**
 * Persian and Arabic-Indic digits → ASCII; bidi and zero-width marks removed; no-break spaces
 * (U+00A0, U+202F) become plain spaces so splitting on whitespace sees them.
 */
export function normalizeDigits(s: string): string {
  return asciiDigits(s.replace(INVISIBLE_MARKS, '').replace(/[\u00a0\u202f]/g, ' '));
}
