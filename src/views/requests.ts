import type { ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import { TERMINAL_STATES } from '../core/model.js';
import type { RequestsOverview } from '../services/types.js';
import { outcomeText, previewSections, requestButtons, requestLine, slackDate } from './approval.js';
import {
  actions,
  blocksText,
  context,
  divider,
  packSections,
  type SlackMessage,
  safe,
  section,
} from './blocks.js';
import { requestActionsBlock } from './ids.js';
import { BLOCK_KIT_LIMITS } from './limits.js';

/**
 * `/vidops requests`: the caller's open requests with Cancel, their recent finished ones, and for
 * leads the requests awaiting them with Approve/Reject. Long lists are cut deliberately: a
 * message holds at most 50 blocks and about 12,000 characters.
 * @see docs/architecture.md, "Slash command grammar"
 */

/** How many requests of each list are shown with their own buttons. */
export const REQUESTS_LIMITS = { awaiting: 10, open: 10, finished: 10 } as const;

function more(count: number, what: string): ContextBlock {
  return context(`_… and ${count} more ${what} not shown._`);
}

/** One request awaiting a decision: its line, a short preview, and the Approve/Reject buttons. */
export function awaitingBlocks(
  request: RequestsOverview['awaitingMe'][number],
  previewBudget = 600,
): KnownBlock[] {
  const preview = previewSections(request, previewBudget).join('\n');
  const reason = request.reason ? `\n*Reason:* ${safe(request.reason, Math.min(300, previewBudget))}` : '';
  const expires = request.expiresAt ? `\nExpires ${slackDate(request.expiresAt)}` : '';
  return [
    section(
      `${requestLine(request, { showRequester: true })}${preview === '' ? '' : `\n${preview}`}${reason}${expires}`,
    ),
    actions(
      requestButtons(request, { approve: true, reject: true, cancel: false }),
      requestActionsBlock(request.id),
    ),
  ];
}

/** One open request of the caller: its line, with a Cancel button while it is still pending. */
export function openRequestBlock(request: RequestsOverview['mine'][number]): SectionBlock {
  const outcome = outcomeText(request);
  const block = section(
    `${requestLine(request)}${outcome === null ? '' : `\n${outcome}`}${request.expiresAt && request.state === 'pending' ? `\nExpires ${slackDate(request.expiresAt)}` : ''}`,
  );
  if (request.state !== 'pending') return block;
  const [cancel] = requestButtons(request, { approve: false, reject: false, cancel: true });
  return cancel === undefined ? block : { ...block, accessory: cancel };
}

/** The caller's finished requests as compact lines. */
export function finishedLines(requests: RequestsOverview['mine']): string[] {
  return requests.map((r) => `${requestLine(r)} · ${slackDate(r.updatedAt)}`);
}

interface Sizing {
  awaiting: number;
  open: number;
  finished: number;
  previewBudget: number;
}

const SIZINGS: readonly Sizing[] = [
  { ...REQUESTS_LIMITS, previewBudget: 500 },
  { ...REQUESTS_LIMITS, previewBudget: 200 },
  { awaiting: 6, open: 6, finished: 5, previewBudget: 150 },
  { awaiting: 3, open: 3, finished: 3, previewBudget: 100 },
];

/**
 * The ephemeral answer to `requests`. `isLead` adds the "awaiting you" list (even when empty, so a
 * lead knows there is nothing to decide). Lists are shortened until the message fits Slack's limits.
 */
export function requestsMessage(overview: RequestsOverview, options: { isLead: boolean }): SlackMessage {
  let message = buildRequests(overview, options, SIZINGS[0] ?? { ...REQUESTS_LIMITS, previewBudget: 500 });
  for (const sizing of SIZINGS.slice(1)) {
    if (blocksText(message.blocks) <= BLOCK_KIT_LIMITS.messageBlocksText) break;
    message = buildRequests(overview, options, sizing);
  }
  return message;
}

function buildRequests(
  overview: RequestsOverview,
  options: { isLead: boolean },
  sizing: Sizing,
): SlackMessage {
  const blocks: KnownBlock[] = [];
  const awaiting = overview.awaitingMe;
  if (options.isLead || awaiting.length > 0) {
    blocks.push(section(`*Awaiting your approval* (${awaiting.length})`));
    if (awaiting.length === 0) blocks.push(section('_Nothing is waiting for you._'));
    for (const request of awaiting.slice(0, sizing.awaiting)) {
      blocks.push(...awaitingBlocks(request, sizing.previewBudget));
    }
    if (awaiting.length > sizing.awaiting) {
      blocks.push(more(awaiting.length - sizing.awaiting, 'requests awaiting you'));
    }
    blocks.push(divider());
  }
  const open = overview.mine.filter((r) => !TERMINAL_STATES.includes(r.state));
  const finished = overview.mine.filter((r) => TERMINAL_STATES.includes(r.state));
  blocks.push(section(`*Your open requests* (${open.length})`));
  if (open.length === 0) blocks.push(section('_You have no open requests._'));
  for (const request of open.slice(0, sizing.open)) blocks.push(openRequestBlock(request));
  if (open.length > sizing.open) blocks.push(more(open.length - sizing.open, 'open requests'));
  if (finished.length > 0) {
    const shown = finished.slice(0, sizing.finished);
    blocks.push(section('*Recently finished*'));
    blocks.push(...packSections(finishedLines(shown)));
  }
  const text =
    awaiting.length > 0
      ? `${awaiting.length} request${awaiting.length === 1 ? '' : 's'} awaiting your approval; you have ${open.length} open.`
      : `You have ${open.length} open request${open.length === 1 ? '' : 's'}.`;
  return { text, blocks };
}
