import type { KnownBlock } from '@slack/types';
import type { AuditEvent } from '../core/model.js';
import { auditLine, seqRange } from './audit-post.js';
import { blocksText, context, packLines, type SlackMessage, section } from './blocks.js';
import { BLOCK_KIT_LIMITS } from './limits.js';

/**
 * `/vidops audit [n]`: the last events of the audit log for a lead, oldest first, one line each
 * (masked numbers, short hashes, as in the audit channel). When they do not fit one message the
 * free text is shortened, then the oldest are left out with a note.
 * @see docs/architecture.md, "Audit log"
 */

/** Room kept for the header and the note. */
const TEXT_BUDGET = BLOCK_KIT_LIMITS.messageBlocksText - 600;
/** Sections that hold the lines; with the header and the note well under 50 blocks. */
const MAX_SECTIONS = 40;

function render(events: readonly AuditEvent[], scale: number): string[] {
  return packLines(events.map((e) => auditLine(e, scale)));
}

function fits(sections: readonly string[]): boolean {
  return sections.length <= MAX_SECTIONS && blocksText(sections.map((text) => ({ text }))) <= TEXT_BUDGET;
}

/** The ephemeral answer to `audit [n]`; `asked` is the n the lead typed. */
export function auditListMessage(events: readonly AuditEvent[], asked: number): SlackMessage {
  if (events.length === 0) {
    const text = 'The audit log is empty.';
    return { text, blocks: [section(text)] };
  }
  let shown = [...events];
  let sections = render(shown, 1);
  for (const scale of [0.5, 0.25]) {
    if (fits(sections)) break;
    sections = render(shown, scale);
  }
  // Still too long: drop the oldest until the newest fit; the note says how many are left out.
  while (!fits(sections) && shown.length > 1) {
    shown = shown.slice(Math.max(1, Math.ceil(shown.length / 10)));
    sections = render(shown, 0.25);
  }
  const range = seqRange(shown);
  const blocks: KnownBlock[] = [
    context(
      `:scroll: *Audit log* · last ${shown.length} event${shown.length === 1 ? '' : 's'} ${range} · oldest first · numbers masked, hashes shortened`,
    ),
    ...sections.map((text) => section(text)),
  ];
  const left = events.length - shown.length;
  const notes: string[] = [];
  if (left > 0) notes.push(`${left} older event${left === 1 ? '' : 's'} did not fit in one message`);
  if (events.length < asked)
    notes.push(`the log holds only ${events.length} event${events.length === 1 ? '' : 's'}`);
  if (left > 0) notes.push('`npx vidops audit export` gives the whole log');
  if (notes.length > 0) {
    blocks.push(context(`_${notes.join('; ')}._`));
  }
  return { text: `Audit log: last ${shown.length} events ${range}`, blocks };
}
