/**
 * Slack's mrkdwn as HTML, for the playground page: what vidops sends, drawn as Slack draws it.
 * Bold, italics, strike, code spans and blocks, quotes, links, user, channel and group mentions,
 * `<!date^…>` (the page writes it in the reader's time zone), `<!here>`, and the emoji short codes
 * vidops uses. Every piece of text is HTML-escaped; only http(s) and mailto links become links.
 * Each text gets the direction of its first letter, as Slack's readers expect (Persian right to
 * left, English left to right; a line in the other direction is its own block), and IDs and
 * numbers inside are isolated left to right. Unicode isolates (FSI … PDI, which vidops puts
 * around IDs and code spans in Persian) count as a word boundary for bold, italics and strike.
 * @see docs/architecture.md, "Emulator and playground"
 */

/** Names the text refers to by ID. */
export interface NameBook {
  user(id: string): string | undefined;
  channel(id: string): string | undefined;
  group(id: string): string | undefined;
}

export const NO_NAMES: NameBook = {
  user: () => undefined,
  channel: () => undefined,
  group: () => undefined,
};

/** The short codes vidops sends, and a few common ones. */
const EMOJI: Readonly<Record<string, string>> = {
  arrows_counterclockwise: '🔄',
  ballot_box_with_check: '☑️',
  bell: '🔔',
  construction: '🚧',
  eyes: '👀',
  gear: '⚙️',
  grey_exclamation: '❕',
  grey_question: '❔',
  heavy_check_mark: '✔️',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  inbox_tray: '📥',
  information_source: 'ℹ️',
  key: '🔑',
  leftwards_arrow_with_hook: '↩️',
  lock: '🔒',
  mag: '🔍',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  pencil2: '✏️',
  question: '❓',
  red_circle: '🔴',
  scroll: '📜',
  shield: '🛡️',
  tada: '🎉',
  thumbsdown: '👎',
  thumbsup: '👍',
  warning: '⚠️',
  wastebasket: '🗑️',
  white_check_mark: '✅',
  x: '❌',
};

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Slack's own three escapes in message text, undone. */
function decodeSlack(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** `:name:` short codes as emoji; unknown ones stay as written. */
export function emojify(text: string): string {
  return text.replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => EMOJI[name] ?? whole);
}

// A run holding a digit (an ID, a number, a masked mobile, an IP, a request ID) is shown left to
// right even inside right-to-left text.
const LTR_RUN = /[A-Za-z0-9+#][A-Za-z0-9_.:/*+#-]*[0-9][A-Za-z0-9_.:/*#-]*|[0-9]+/g;

/** Plain text as HTML: emoji drawn, escaped, IDs and numbers isolated left to right. */
export function textToHtml(text: string, emoji = true): string {
  const shown = emoji ? emojify(text) : text;
  let out = '';
  let last = 0;
  for (const match of shown.matchAll(LTR_RUN)) {
    out += escapeHtml(shown.slice(last, match.index));
    out += `<bdi dir="ltr">${escapeHtml(match[0])}</bdi>`;
    last = match.index + match[0].length;
  }
  return out + escapeHtml(shown.slice(last));
}

function safeHref(url: string): string | undefined {
  return /^(https?:\/\/|mailto:)/i.test(url) ? url : undefined;
}

/** One `<…>` control sequence as HTML. */
function controlToHtml(inner: string, names: NameBook): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : decodeSlack(inner.slice(bar + 1));
  if (target.startsWith('@')) {
    const id = target.slice(1);
    const name = names.user(id) ?? label ?? id;
    return `<span class="mention" data-user="${escapeHtml(id)}">@${escapeHtml(name)}</span>`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    const name = names.channel(id) ?? label ?? id;
    return `<a class="channel-link" href="#${escapeHtml(id)}" data-channel="${escapeHtml(id)}">#${escapeHtml(name)}</a>`;
  }
  if (target.startsWith('!')) {
    const [word, ...rest] = target.slice(1).split('^');
    if (word === 'date') {
      const [seconds, format = '{date_num}'] = rest;
      const fallback = label ?? '';
      const stamp = Number(seconds);
      const iso = Number.isFinite(stamp) ? new Date(stamp * 1000).toISOString() : '';
      return `<time datetime="${escapeHtml(iso)}" data-format="${escapeHtml(format)}">${escapeHtml(fallback)}</time>`;
    }
    if (word === 'subteam') {
      const id = rest[0] ?? '';
      const name = names.group(id) ?? label?.replace(/^@/, '') ?? id;
      return `<span class="mention">@${escapeHtml(name)}</span>`;
    }
    if (word === 'here' || word === 'channel' || word === 'everyone') {
      return `<span class="mention">@${word}</span>`;
    }
    return escapeHtml(label ?? `<${target}>`);
  }
  const href = safeHref(decodeSlack(target));
  const text = label ?? decodeSlack(target);
  if (href === undefined) return escapeHtml(text);
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${textToHtml(text, false)}</a>`;
}

// Placeholders for pieces drawn before the formatting is read: private-use characters, never in
// Slack text, one per piece, and not whitespace or punctuation, so `*<@U1>*` still reads as bold.
const PLACEHOLDER_BASE = 0xe000;

/** Bold, italics and strike, read as Slack reads them: markers next to a word, not inside one. */
const FORMATS: readonly { marker: string; tag: string }[] = [
  { marker: '*', tag: 'strong' },
  { marker: '_', tag: 'em' },
  { marker: '~', tag: 'del' },
];

function formatRegex(marker: string): RegExp {
  const m = marker === '*' ? '\\*' : marker;
  // Opening: at the start or after a space, punctuation or an isolate mark (U+2066-U+2069);
  // closing: before the end, a space, punctuation or an isolate mark.
  return new RegExp(
    `(^|[\\s(\\[{"'“‘.,;:!?\\u2014\\u2066-\\u2069-])${m}(?=\\S)([^${m}\\n]*?[^\\s${m}])${m}(?=$|[\\s)\\]}"'”’.,;:!?\\u2014\\u2066-\\u2069-])`,
    'u',
  );
}
const FORMAT_REGEXES = FORMATS.map((f) => ({ ...f, regex: formatRegex(f.marker) }));

function formatInline(text: string, pieces: readonly string[]): string {
  let best: { index: number; length: number; lead: string; inner: string; tag: string } | undefined;
  for (const { regex, tag } of FORMAT_REGEXES) {
    const match = regex.exec(text);
    if (match === null) continue;
    const lead = match[1] ?? '';
    if (best === undefined || match.index < best.index) {
      best = { index: match.index, length: match[0].length, lead, inner: match[2] ?? '', tag };
    }
  }
  if (best === undefined) return leaf(text, pieces);
  return (
    formatInline(text.slice(0, best.index) + best.lead, pieces) +
    `<${best.tag}>${formatInline(best.inner, pieces)}</${best.tag}>` +
    formatInline(text.slice(best.index + best.length), pieces)
  );
}

/** Text with no formatting left: placeholders become their pieces, the rest plain text. */
function leaf(text: string, pieces: readonly string[]): string {
  let out = '';
  let plain = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const piece =
      code >= PLACEHOLDER_BASE && code < PLACEHOLDER_BASE + pieces.length
        ? pieces[code - PLACEHOLDER_BASE]
        : undefined;
    if (piece === undefined) {
      plain += char;
      continue;
    }
    out += textToHtml(decodeSlack(plain)) + piece;
    plain = '';
  }
  return out + textToHtml(decodeSlack(plain));
}

/** One paragraph's worth of inline mrkdwn (no code blocks). */
function inlineToHtml(text: string, names: NameBook): string {
  const pieces: string[] = [];
  const hold = (html: string) => {
    pieces.push(html);
    return String.fromCodePoint(PLACEHOLDER_BASE + pieces.length - 1);
  };
  const held = text
    .replace(/`([^`\n]+)`/g, (_whole, inner: string) =>
      hold(`<code dir="ltr">${escapeHtml(decodeSlack(inner))}</code>`),
    )
    .replace(/<([^<>\n]+)>/g, (_whole, inner: string) => hold(controlToHtml(inner, names)));
  return formatInline(held, pieces);
}

/** Lines as HTML: `>` lines quoted, the others joined with line breaks; `dir` is the text's direction. */
function linesToHtml(text: string, names: NameBook, dir: Direction | undefined): string {
  const out: string[] = [];
  let quote: string[] = [];
  const flushQuote = () => {
    if (quote.length > 0) out.push(`<blockquote dir="auto">${quote.join('<br>')}</blockquote>`);
    quote = [];
  };
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const quoted = /^(>|&gt;)\s?(.*)$/.exec(line);
    // Only a raw `>` starts a quote; vidops escapes `>` in text from outside to `&gt;`.
    if (quoted !== null && line.startsWith('>')) {
      quote.push(inlineToHtml(quoted[2] ?? '', names));
      return;
    }
    flushQuote();
    const own = directionOf(line);
    if (dir !== undefined && own !== undefined && own !== dir) {
      // An English line in a Persian message (or the reverse) runs in its own direction.
      out.push(`<div dir="${own}">${inlineToHtml(line, names)}</div>`);
      return;
    }
    out.push(inlineToHtml(line, names) + (i < lines.length - 1 ? '<br>' : ''));
  });
  flushQuote();
  return out.join('');
}

/** A mrkdwn text as HTML (a `<div dir="…">` of it, in the direction of its first letter). */
export function mrkdwnToHtml(text: string, names: NameBook = NO_NAMES): string {
  const dir = directionOf(text);
  const parts = text.split('```');
  let html = '';
  parts.forEach((part, i) => {
    // Odd parts sit between ``` fences: preformatted, shown as written.
    if (i % 2 === 1 && i < parts.length - 1) {
      html += `<pre dir="ltr">${escapeHtml(decodeSlack(part.replace(/^\n/, '')))}</pre>`;
    } else {
      html += linesToHtml(i % 2 === 1 ? `\`\`\`${part}` : part, names, dir);
    }
  });
  return `<div class="mrkdwn" dir="${dir ?? 'auto'}">${html}</div>`;
}

/** A plain_text object's text as HTML (emoji drawn when it asks for them). */
export function plainToHtml(text: string, emoji = true): string {
  return `<span dir="${directionOf(text) ?? 'auto'}">${textToHtml(text, emoji)}</span>`;
}

export type Direction = 'ltr' | 'rtl';

const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

/**
 * The direction a text reads in: that of its first letter, as the Unicode bidi algorithm finds a
 * paragraph's (P2), skipping what Slack draws apart or vidops isolates: code spans, `<…>` mentions
 * and links, emoji short codes, FSI/LRI/RLI … PDI isolates, and runs holding a digit (IDs,
 * numbers). Undefined when it has no letter.
 */
export function directionOf(text: string): Direction | undefined {
  const letters = text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/<[^<>\n]*>/g, ' ')
    .replace(/:[a-z0-9_+-]+:/g, ' ')
    .replace(/[\u2066-\u2068][^\u2069]*(\u2069|$)/g, ' ')
    .replace(LTR_RUN, ' ');
  const first = /\p{L}/u.exec(letters)?.[0];
  if (first === undefined) return undefined;
  return RTL_LETTER.test(first) ? 'rtl' : 'ltr';
}
