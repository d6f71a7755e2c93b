import { neutraliseBidi, stripBidiControls } from './bidi.js';

/**
 * The one escape for Slack mrkdwn. Slack reads `<…>` as a mention, a channel, a special mention
 * (`<!channel>`, `<!here>`), a date or a link with any label (`<https://x|Click to approve>`), and
 * `&lt;`/`&gt;`/`&amp;` as the characters they name. Text from outside (titles, descriptions,
 * reasons, notes, names, the service's answers and errors, IDs people typed) goes through this
 * before it is put into any mrkdwn: a message's `text` and every mrkdwn text object in its blocks.
 *
 * Every `&` is escaped, also one that already starts an entity: text that arrives as `&lt;!channel&gt;`
 * comes out as `&amp;lt;!channel&amp;gt;`, which Slack shows as typed and never turns into `<!channel>`.
 *
 * Not for `plain_text` objects (headers, buttons, labels, options, modal titles): Slack does not
 * parse those, so an escape there would show `&amp;` to the reader.
 * @see docs/slack.md, "Block Kit limits"; docs/architecture.md, "Audit log"
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Text from outside kept whole (an error, a refusal, a status the service sent) for mrkdwn: its
 * bidi controls dropped (they could reorder the line it is shown in), then {@link escapeMrkdwn}.
 * Never for text vidops composed: its own isolates and the marks `Intl` writes stay.
 * @see src/core/bidi.ts
 */
export function escapeOutside(text: string): string {
  return escapeMrkdwn(stripBidiControls(text));
}

/**
 * A sentence vidops worded with outside words in it (a refusal, an error as the errors view says
 * it) for mrkdwn: only our own bidi controls left ({@link neutraliseBidi}), then escaped.
 */
export function escapeWorded(text: string): string {
  return escapeMrkdwn(neutraliseBidi(text));
}
