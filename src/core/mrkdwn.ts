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
