import type { KnownBlock } from '@slack/types';
import type { AuditEvent } from '../core/model.js';
import { type Lang, ltr, num } from '../i18n/index.js';
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

/**
 * The ephemeral answer to `audit [n]`; `asked` is the n the lead typed. The event lines come from
 * the audit channel's views (English for now); the words around them are the reader's.
 */
export function auditListMessage(events: readonly AuditEvent[], asked: number, lang: Lang): SlackMessage {
  const t = lang.t.requests;
  if (events.length === 0) {
    const text = t.auditListEmpty;
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
  const range = ltr(lang, seqRange(shown));
  const blocks: KnownBlock[] = [
    context(`:scroll: ${t.auditListHeader(shown.length, num(lang, shown.length), range)}`),
    ...sections.map((text) => section(text)),
  ];
  const left = events.length - shown.length;
  const notes: string[] = [];
  if (left > 0) notes.push(t.auditListLeftOut(left, num(lang, left)));
  if (events.length < asked) notes.push(t.auditListHoldsOnly(events.length, num(lang, events.length)));
  if (left > 0) notes.push(t.auditListExport(ltr(lang, '`npx vidops audit export`')));
  if (notes.length > 0) {
    blocks.push(context(`_${notes.join(t.auditListNoteSeparator)}._`));
  }
  return { text: t.auditListText(num(lang, shown.length), range), blocks };
}
