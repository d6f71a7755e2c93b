import type { KnownBlock } from '@slack/types';
import { utcMinutes } from '../core/delegation.js';
import { maskMobilesInText } from '../core/mask.js';
import type { OperationRequest } from '../core/model.js';
import { escapeMrkdwn } from '../core/mrkdwn.js';
import type { DelegationsOverview } from '../services/delegation.js';
import {
  breakGlassBlocks,
  operationTitleOf,
  previewSections,
  requestLine,
  slackDate,
  targetCode,
} from './approval.js';
import { actions, button, type SlackMessage, safe, section } from './blocks.js';
import { ACTIONS } from './ids.js';
import { truncate } from './limits.js';

/**
 * What people read about break-glass and delegation outside the approval message: the Break
 * glass button on a requester's pending notice, the leads' DM, and the App Home lines.
 * @see docs/architecture.md, "Break-glass and delegation"
 */

/** Under a pending notice, for someone the policy lets break the glass on it. */
export function breakGlassOffer(requestId: string): KnownBlock[] {
  return [
    section(
      ':rotating_light: Cannot wait? You may *break glass*: it runs now, every lead is told, and a lead reviews it afterwards.',
    ),
    actions(
      [button('Break glass…', ACTIONS.breakGlass, requestId, 'danger')],
      `break_glass_offer:${requestId}`,
    ),
  ];
}

/** The DM every lead gets when a change ran by break-glass (`reminder`: still unreviewed past its time). */
export function leadBreakGlassMessage(request: OperationRequest, reminder: boolean): SlackMessage {
  const by = request.breakGlass?.by.name ?? request.requester.name;
  const first = reminder
    ? `:alarm_clock: *Reminder:* the BREAK-GLASS change *${request.id}* (${operationTitleOf(request)} ${targetCode(request.target)}) by ${safe(by, 60)} is still not reviewed.`
    : `:rotating_light: *BREAK-GLASS:* ${safe(by, 60)} ran *${request.id}* (${operationTitleOf(request)} ${targetCode(request.target)}) without waiting for approval. A lead reviews it.`;
  const blocks: KnownBlock[] = [
    section(first),
    section(requestLine(request, { showRequester: true })),
    ...previewSections(request, 1200).map((text) => section(text)),
    ...breakGlassBlocks(request),
  ];
  const text = maskMobilesInText(
    `${reminder ? 'Reminder: not reviewed: ' : ''}BREAK-GLASS by ${escapeMrkdwn(by)}: ${operationTitleOf(request)} ${escapeMrkdwn(truncate(request.target, 200))} (${request.id})`,
  );
  return { text: truncate(text, 1000), blocks };
}

/** App Home lines about delegations: the one a lead gave, and those a person holds. */
export function delegationLines(overview: DelegationsOverview): string[] {
  const lines: string[] = [];
  if (overview.given !== null) {
    lines.push(
      `:busts_in_silhouette: You delegated to <@${overview.given.delegate.id}> until ${utcMinutes(overview.given.until)}. \`/vidops delegate cancel\` ends it.`,
    );
  }
  for (const d of overview.received) {
    lines.push(
      `:busts_in_silhouette: You approve for <@${d.lead.id}> until ${utcMinutes(d.until)} (delegated).`,
    );
  }
  return lines;
}

/** One line of the leads' "Break-glass to review" list. */
export function unreviewedLine(request: OperationRequest): string {
  const record = request.breakGlass;
  const due = record
    ? ` · review due ${slackDate(record.reviewDueAt)}${record.overdueAt ? ' *(overdue)*' : ''}`
    : '';
  return `:rotating_light: ${requestLine(request)} · by ${safe(record?.by.name ?? request.requester.name, 60)}${due}`;
}
