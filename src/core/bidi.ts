/**
 * Bidirectional formatting characters in text from outside (reasons, titles, descriptions, names,
 * file names, the service's answers and errors), and the isolates vidops puts around such text.
 *
 * A right-to-left override (U+202E), an embedding, an isolate left open or a mark inside a reason
 * can visually reorder the rest of the line it is shown in: the request ID, the expiry, the hash.
 * Slack clients and terminals both honour them. So outside text loses every bidi control before
 * it is shown ({@link stripBidiControls}; it never needs one: the views isolate it themselves),
 * and the views wrap it in FSI … PDI ({@link isolate}) so that right-to-left letters in it keep to
 * themselves: always in a right-to-left language, and in English whenever it holds more than
 * printable ASCII ({@link mayReorder}). What is stored (the audit log, the request) keeps the text as it came: the hash
 * chain covers it; only what people are shown is neutralised.
 * @see docs/architecture.md, "Languages"
 */

/** FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: the only bidi controls vidops writes itself. */
export const FSI = '\u2068';
export const PDI = '\u2069';

/**
 * Every explicit bidi control: the embeddings and overrides LRE, RLE, PDF, LRO, RLO
 * (U+202A–U+202E), the isolates LRI, RLI, FSI, PDI (U+2066–U+2069), and the marks LRM, RLM, ALM
 * (U+200E, U+200F, U+061C).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
const ANY_BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

/** Controls vidops never writes: the embeddings, the overrides, LRI and RLI. */
const NEVER_OURS = /[\u202A-\u202E\u2066\u2067]/g;

/**
 * The marks, but those `Intl` writes itself in Persian: an RLM after the Arabic comma of a list
 * (`a،‏ b`) and an LRM before the minus sign of a number (`‎−۳`).
 */
const MARKS_NOT_INTL = /(?<!\u060C)\u200F|\u200E(?!\u2212)|\u061C/g;

/** Outside text without its bidi controls; letters, digits and joiners (ZWNJ) stay as they are. */
export function stripBidiControls(text: string): string {
  return ANY_BIDI_CONTROL.test(text) ? text.replace(BIDI_CONTROLS, '') : text;
}

/** Anything but printable ASCII and the whitespace people type (tab, line breaks). */
const NOT_PLAIN_ASCII = /[^\x20-\x7e\t\n\r]/;

/**
 * Whether outside text may reorder the line it is put in: it holds a character that is not
 * printable ASCII, so possibly a right-to-left letter, an Arabic-Indic digit or a bidi control.
 * Printable ASCII holds none of those (its letters are left-to-right, the rest neutral or
 * European digits): in a left-to-right line it keeps its place without an isolate.
 */
export function mayReorder(text: string): boolean {
  return NOT_PLAIN_ASCII.test(text);
}

/** A token isolated from the text around it: `FSI token PDI`. */
export function isolate(token: string): string {
  return `${FSI}${token}${PDI}`;
}

/**
 * A change, `before → after`, as one isolate that always runs left to right, so the arrow points
 * from what was to what is in any line: each side is isolated, and an isolate with no strong letter
 * of its own outside nested isolates takes the left-to-right direction (UAX #9, P3). Without it, a
 * right-to-left line draws `off → on` as `on → off`.
 */
export function isolatedChange(before: string, after: string): string {
  return isolate(`${isolate(before)} → ${isolate(after)}`);
}

/** How many isolates (FSI, LRI, RLI) are still open at the end of `text`. */
export function openIsolates(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0x2066 && c <= 0x2068) depth += 1;
    else if (c === 0x2069 && depth > 0) depth -= 1;
  }
  return depth;
}

/**
 * Text composed for people (a sentence, a line, a text object) with only vidops's own bidi
 * controls left: the controls vidops never writes are dropped (overrides, embeddings, LRI, RLI,
 * marks but the two `Intl` writes), and so are a PDI that closes nothing and an FSI never closed
 * within the text. The safety net under {@link stripBidiControls}, for text that mixes our words
 * and outside words; an FSI … PDI pair from outside is kept, and can reorder nothing outside it.
 */
export function neutraliseBidi(text: string): string {
  if (!ANY_BIDI_CONTROL.test(text)) return text;
  const chars = text.replace(NEVER_OURS, '').replace(MARKS_NOT_INTL, '').split('');
  const open: number[] = [];
  const drop = new Set<number>();
  chars.forEach((ch, i) => {
    if (ch === FSI) open.push(i);
    else if (ch === PDI && open.pop() === undefined) drop.add(i);
  });
  for (const i of open) drop.add(i);
  return drop.size === 0 ? chars.join('') : chars.filter((_, i) => !drop.has(i)).join('');
}

// C0 and C1 control characters: outside text must not move a terminal's cursor or colour it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text on one line: whitespace (line breaks included) folded to one space, and any other C0 or C1
 * control character (an escape sequence's ESC) replaced by U+FFFD, so outside text can neither
 * split a line scripts read one record per, nor clear or colour the reader's terminal.
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(CONTROL, '\uFFFD').trim();
}
