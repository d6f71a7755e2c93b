import type {
  ActionsBlock,
  Button,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  KnownBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import { isolate, mayReorder, neutraliseBidi, stripBidiControls } from '../core/bidi.js';
import { maskMobilesInText } from '../core/mask.js';
import { escapeMrkdwn } from '../core/mrkdwn.js';
import { type Lang, ltr } from '../i18n/index.js';
import { BLOCK_KIT_LIMITS, truncate } from './limits.js';

/**
 * The small Block Kit pieces every view builds with: text helpers (free text made safe, code
 * spans), elements, blocks, and the packing of lines into sections. One home, so a limit or a
 * rule of escaping is applied the same way everywhere.
 *
 * The escaping rule: the one escape is `escapeMrkdwn` (core/mrkdwn.ts). Block builders that take
 * mrkdwn (`section`, `context`, `mrkdwn`) take it already written: whoever puts text from outside
 * into it escapes that text first (`safe`, `code`, or `escapeMrkdwn` at the call site). They only
 * cut to Slack's limits. Plain-text builders (`header`, `button`, `plainText`) never escape:
 * Slack shows plain text as it is.
 *
 * The bidi rule: text from outside loses its bidi controls where it comes in (`safe`, `plain`,
 * `code`, `escapeOutside` in core/mrkdwn.ts), and is isolated (FSI … PDI) in a sentence
 * (`isolated`, `isolateOutside`: in Persian always, in English when it holds more than printable
 * ASCII), so right-to-left letters in a title cannot reorder the request ID or the hash after it. Every text object the builders make keeps only vidops's own bidi controls, its
 * isolates paired (`mrkdwn`, `plainText`, core/bidi.ts `neutraliseBidi`): a cut never leaves one
 * open (`truncate`), and a stray control never reaches Slack.
 * @see docs/architecture.md, "Languages"
 * @see docs/slack.md, "Block Kit limits"; docs/architecture.md, "Audit log" (escaping)
 */

/** A message for Slack: blocks and the `text` fallback for notifications and screen readers. */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

/**
 * Free text as people read it: bidi controls dropped, mobile numbers masked, whitespace folded,
 * mrkdwn escaped, cut at `max`.
 */
export function safe(text: string, max = 500): string {
  return escapeMrkdwn(plain(text, max));
}

/**
 * Free text from outside inside a sentence (a title, a reason, a name, the service's words): as
 * {@link safe}, and isolated as {@link isolateOutside} says; empty text stays empty.
 */
export function isolated(lang: Lang, text: string, max = 500): string {
  return isolateOutside(lang, text, safe(text, max));
}

/**
 * Outside text made fit to show (`shown`) in a sentence of `lang`, isolated (FSI … PDI) when it
 * could reorder the line: always in Persian (as IDs are), and in English when the text as it came
 * (`raw`) holds more than printable ASCII (a right-to-left letter, a bidi control). Plain ASCII
 * cannot move anything in an English line, and English messages stay free of isolates.
 */
export function isolateOutside(lang: Lang, raw: string, shown: string): string {
  return shown !== '' && (lang.locale !== 'en' || mayReorder(raw)) ? isolate(shown) : shown;
}

/** Plain text (modal titles, button labels, option text): bidi controls dropped, masked and cut, never escaped. */
export function plain(text: string, max: number): string {
  return truncate(maskMobilesInText(stripBidiControls(text).replace(/\s+/g, ' ').trim()), max);
}

/**
 * A sentence vidops worded (a catalog line, `sayIn`, the errors view) with outside words in it,
 * for mrkdwn: folded, masked, escaped, cut, as {@link safe}; but its own isolates and the marks
 * `Intl` writes are kept (paired): the outside words lost their controls when it was worded.
 */
export function safeWorded(text: string, max = 500): string {
  return escapeMrkdwn(plainWorded(text, max));
}

/** The same as plain text (labels, hints, modal titles): folded, masked and cut, never escaped. */
export function plainWorded(text: string, max: number): string {
  return truncate(maskMobilesInText(neutraliseBidi(text).replace(/\s+/g, ' ').trim()), max);
}

/**
 * A `code` span of text shown as written (our own words, IDs, addresses, text masked already):
 * bidi controls dropped, escaped, and a backtick inside, which would end the span early,
 * replaced. Never cut.
 */
export function literalCode(text: string): string {
  return `\`${escapeMrkdwn(stripBidiControls(text).replace(/`/g, 'ˋ'))}\``;
}

/** A `code` span of text that may hold a mobile number (targets, names): masked, then as {@link literalCode}. */
export function code(text: string): string {
  return literalCode(maskMobilesInText(text));
}

/** A request ID in bold (`*R-…*`), isolated outside the asterisks in Persian. */
export function boldId(lang: Lang, id: string): string {
  return ltr(lang, `*${id}*`);
}

/** A mrkdwn text object; the text is taken as written (escaped already), with only our own bidi controls, paired. */
export function mrkdwn(text: string): MrkdwnElement {
  return { type: 'mrkdwn', text: neutraliseBidi(text) };
}

/**
 * A plain-text object; Slack shows it as it is (emoji codes such as `:lock:` drawn), with only our
 * own bidi controls, paired.
 */
export function plainText(text: string): PlainTextElement {
  return { type: 'plain_text', text: neutraliseBidi(text), emoji: true };
}

/** A mrkdwn section, cut to Slack's 3000 characters. */
export function section(text: string, blockId?: string): SectionBlock {
  return {
    type: 'section',
    ...(blockId === undefined ? {} : { block_id: blockId }),
    text: mrkdwn(truncate(text, BLOCK_KIT_LIMITS.sectionText)),
  };
}

/** A context block of mrkdwn lines: at most 10 elements, each cut to 3000 characters. */
export function context(lines: string | readonly string[]): ContextBlock {
  const all = typeof lines === 'string' ? [lines] : lines;
  return {
    type: 'context',
    elements: all
      .slice(0, BLOCK_KIT_LIMITS.contextElements)
      .map((line) => mrkdwn(truncate(line, BLOCK_KIT_LIMITS.sectionText))),
  };
}

/** A header, cut to Slack's 150 characters. */
export function header(text: string): HeaderBlock {
  return { type: 'header', text: plainText(truncate(text, BLOCK_KIT_LIMITS.headerText)) };
}

export function divider(): DividerBlock {
  return { type: 'divider' };
}

/** A button whose value is `value` (an ID or a word, never data to trust), its label cut to 75 characters. */
export function button(text: string, actionId: string, value: string, style?: 'primary' | 'danger'): Button {
  return {
    type: 'button',
    text: plainText(truncate(text, BLOCK_KIT_LIMITS.buttonText)),
    action_id: actionId,
    value,
    ...(style === undefined ? {} : { style }),
  };
}

export function actions(elements: ActionsBlock['elements'], blockId?: string): ActionsBlock {
  return { type: 'actions', ...(blockId === undefined ? {} : { block_id: blockId }), elements };
}

/** Lines packed in order into as few texts of at most `max` characters as they fit (a longer line is cut). */
export function packLines(lines: readonly string[], max: number = BLOCK_KIT_LIMITS.sectionText): string[] {
  const out: string[] = [];
  let current = '';
  for (const raw of lines) {
    const line = truncate(raw, max);
    if (current !== '' && current.length + 1 + line.length > max) {
      out.push(current);
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') out.push(current);
  return out;
}

/** Lines packed into as few sections as they fit (3000 characters each), in order. */
export function packSections(lines: readonly string[]): SectionBlock[] {
  return packLines(lines).map((text) => section(text));
}

/** Characters of every `text` string in the blocks: what Slack sums for `msg_blocks_too_long`. */
export function blocksText(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + blocksText(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let sum = 0;
  for (const [key, v] of Object.entries(value)) {
    sum += key === 'text' && typeof v === 'string' ? v.length : blocksText(v);
  }
  return sum;
}
