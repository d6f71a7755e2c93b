import type { ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import { shortHash } from '../core/audit-chain.js';
import type { JsonValue } from '../core/json.js';
import { maskMobilesInText } from '../core/mask.js';
import type { AuditEvent, AuditEventType } from '../core/model.js';
import { BLOCK_KIT_LIMITS, truncate } from './limits.js';

/** A message for the audit channel: Block Kit blocks and the `text` fallback for notifications. */
export interface AuditPost {
  text: string;
  blocks: KnownBlock[];
}

/** Display lengths of free text in a line. IDs, request IDs and hashes are never cut. */
export const AUDIT_LINE_LIMITS = {
  actorName: 60,
  /** A target with spaces is descriptive text (a title, "protection settings"): cut it. */
  targetText: 120,
  /** A target without spaces is an ID or a number: kept whole up to Slack's ID length. */
  targetId: BLOCK_KIT_LIMITS.id,
  outcome: 200,
  error: 200,
} as const;

const TYPE_EMOJI: Record<AuditEventType, string> = {
  requested: ':inbox_tray:',
  approved: ':thumbsup:',
  rejected: ':no_entry_sign:',
  cancelled: ':leftwards_arrow_with_hook:',
  expired: ':hourglass:',
  executing: ':gear:',
  succeeded: ':white_check_mark:',
  failed: ':x:',
  denied: ':no_entry:',
  unknown: ':grey_question:',
  resolved: ':ballot_box_with_check:',
};

/** Slack mrkdwn control characters; escaping them also stops `<@U…>`/`<!here>` from pinging. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text inside a `code` span: a backtick would end the span early. */
function code(text: string): string {
  return `\`${escapeMrkdwn(text.replace(/`/g, 'ˋ'))}\``;
}

/** Everything people read is masked: a mobile number may hide in any free-text field. */
function clean(text: string): string {
  return maskMobilesInText(text.replace(/\s+/g, ' ').trim());
}

/** `2024-05-01T10:22:03.123Z` → `2024-05-01 10:22:03Z`; anything else is shown as it is. */
function formatTime(at: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(at);
  return m ? `${m[1]} ${m[2]}Z` : at;
}

/** A display limit scaled down for compact lines, never below a readable minimum. */
function limit(max: number, scale: number): number {
  return Math.max(16, Math.floor(max * scale));
}

function formatTarget(target: string, scale: number): string {
  const t = clean(target);
  if (t === '') return '';
  // IDs are not scaled: a cut ID is useless to the person who has to look it up.
  const max = /\s/.test(t) ? limit(AUDIT_LINE_LIMITS.targetText, scale) : AUDIT_LINE_LIMITS.targetId;
  return truncate(t, max);
}

function formatOutcome(outcome: JsonValue, scale: number): string {
  if (outcome === null) return '';
  const raw = typeof outcome === 'string' ? outcome : JSON.stringify(outcome);
  if (raw === '' || raw === '{}' || raw === '[]') return '';
  return truncate(clean(raw), limit(AUDIT_LINE_LIMITS.outcome, scale));
}

function formatError(event: AuditEvent, scale: number): string {
  if (!event.error) return '';
  const status = event.error.status === undefined ? '' : ` (${event.error.status})`;
  return truncate(
    clean(`${event.error.name}${status}: ${event.error.message}`),
    limit(AUDIT_LINE_LIMITS.error, scale),
  );
}

function formatName(name: string, scale: number): string {
  return truncate(clean(name), limit(AUDIT_LINE_LIMITS.actorName, scale));
}

/**
 * One event as a compact mrkdwn line: seq, time, type, operation and masked target, actor name
 * and ID, request ID, outcome or error, and the short hash that makes the channel a witness of
 * the chain. `scale` (0..1] shortens the free text (name, descriptive target, outcome, error)
 * for big batches; IDs and the hash are never shortened.
 * @see docs/architecture.md, "Audit log"
 */
export function auditLine(event: AuditEvent, scale = 1): string {
  const parts = [
    `${TYPE_EMOJI[event.type]} *#${event.seq}* ${formatTime(event.at)} *${event.type}* ${code(event.operation)}`,
  ];
  const target = formatTarget(event.target, scale);
  if (target !== '') parts[0] += ` ${code(target)}`;
  const name = formatName(event.actor.name, scale);
  parts.push(`by ${escapeMrkdwn(name)} (${code(event.actor.id)})`);
  if (event.requestId !== null) parts.push(`req ${code(event.requestId)}`);
  const outcome = formatOutcome(event.outcome, scale);
  if (outcome !== '') parts.push(`outcome: ${escapeMrkdwn(outcome)}`);
  const error = formatError(event, scale);
  if (error !== '') parts.push(`error: ${escapeMrkdwn(error)}`);
  parts.push(`hash ${code(shortHash(event.hash))}`);
  return parts.join(' · ');
}

/** The same event in plain words for the notification `text`. */
function plainLine(event: AuditEvent): string {
  const target = formatTarget(event.target, 1);
  const name = formatName(event.actor.name, 1);
  return [
    `#${event.seq} ${event.type} ${event.operation}${target === '' ? '' : ` ${target}`}`,
    `by ${name} (${event.actor.id})`,
    `hash ${shortHash(event.hash)}`,
  ].join(' · ');
}

/** Keeps the fallback short: Slack only shows it in notifications and to screen readers. */
const TEXT_BUDGET = 3000;

function range(events: readonly AuditEvent[]): string {
  const first = events[0];
  const last = events[events.length - 1];
  if (!first || !last) return '';
  return first.seq === last.seq ? `#${first.seq}` : `#${first.seq}–#${last.seq}`;
}

function packSections(events: readonly AuditEvent[], scale: number): SectionBlock[] {
  const sections: SectionBlock[] = [];
  let current = '';
  for (const event of events) {
    // A line only exceeds a section with absurd IDs; cutting it then beats losing the post.
    const line = truncate(auditLine(event, scale), BLOCK_KIT_LIMITS.sectionText);
    if (current !== '' && current.length + 1 + line.length > BLOCK_KIT_LIMITS.sectionText) {
      sections.push({ type: 'section', text: { type: 'mrkdwn', text: current } });
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') sections.push({ type: 'section', text: { type: 'mrkdwn', text: current } });
  return sections;
}

function sectionsText(sections: readonly SectionBlock[]): number {
  return sections.reduce((sum, s) => sum + (s.text?.text.length ?? 0), 0);
}

/**
 * One audit channel message for a batch of events, oldest first: a context line naming the
 * range, then the event lines packed into sections of at most 3000 characters, with the free
 * text shortened when the batch would be too long for one message. Pure.
 * @see docs/architecture.md, "Audit log"; docs/slack.md, "Block Kit limits"
 */
export function renderAuditPost(events: readonly AuditEvent[]): AuditPost {
  if (events.length === 0) {
    return {
      text: 'vidops audit: no events',
      blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text: 'vidops audit: no events' }] }],
    };
  }
  const count = events.length === 1 ? '1 event' : `${events.length} events`;
  const header = {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `:scroll: *vidops audit* · ${range(events)} · ${count}` }],
  } satisfies ContextBlock;

  // Slack refuses a message whose blocks hold too much text in total (`msg_blocks_too_long`):
  // shorten the free text of every line until the batch fits.
  let sections = packSections(events, 1);
  for (const scale of [0.5, 0.25]) {
    if (sectionsText(sections) + 200 <= BLOCK_KIT_LIMITS.messageBlocksText) break;
    sections = packSections(events, scale);
  }

  let text = `vidops audit ${range(events)} (${count})`;
  let shown = 0;
  for (const event of events) {
    const next = `\n${plainLine(event)}`;
    if (text.length + next.length > TEXT_BUDGET) break;
    text += next;
    shown += 1;
  }
  if (shown < events.length) text += `\n… and ${events.length - shown} more`;

  return { text, blocks: [header, ...sections] };
}
