import type { KnownBlock } from '@slack/types';
import { maskMobilesInText } from '../core/mask.js';
import type { OperationRequest } from '../core/model.js';
import { escapeOutside } from '../core/mrkdwn.js';
import { ENGLISH, type Lang, ltr } from '../i18n/index.js';
import type { DelegationsOverview } from '../services/delegation.js';
import {
  breakGlassBlocks,
  operationTitleOf,
  previewSections,
  readerDate,
  refOf,
  requestLine,
} from './approval.js';
import { actions, button, isolated, isolateOutside, type SlackMessage, section } from './blocks.js';
import { ACTIONS } from './ids.js';
import { truncate } from './limits.js';

/**
 * What people read about break-glass and delegation outside the approval message: the Break
 * glass button on a requester's pending notice, the leads' DM, and the App Home lines, each in
 * its reader's language.
 * @see docs/architecture.md, "Break-glass and delegation"
 */

/** Under a pending notice, for someone the policy lets break the glass on it. */
export function breakGlassOffer(requestId: string, lang: Lang): KnownBlock[] {
  const t = lang.t.breakGlass;
  return [
    section(t.glassOffer),
    actions(
      [button(t.glassOfferButton, ACTIONS.breakGlass, requestId, 'danger')],
      `break_glass_offer:${requestId}`,
    ),
  ];
}

/**
 * The DM every lead gets, in their language, when a change ran by break-glass (`reminder`: still
 * unreviewed past its time).
 */
export function leadBreakGlassMessage(
  request: OperationRequest,
  reminder: boolean,
  lang: Lang,
): SlackMessage {
  const t = lang.t.breakGlass;
  const by = request.breakGlass?.by.name ?? request.requester.name;
  const name = isolated(lang, by, 60);
  const first = reminder
    ? t.glassLeadReminder(refOf(request, lang), name)
    : t.glassLeadTold(name, refOf(request, lang));
  const blocks: KnownBlock[] = [
    section(first),
    section(requestLine(request, lang, { showRequester: true })),
    ...previewSections(request, lang, 1200).map((text) => section(text)),
    ...breakGlassBlocks(request, lang),
  ];
  const text = maskMobilesInText(
    t.glassLeadText(
      reminder,
      isolateOutside(lang, by, escapeOutside(by)),
      operationTitleOf(request, lang),
      isolateOutside(lang, request.target, escapeOutside(truncate(request.target, 200))),
      ltr(lang, request.id),
    ),
  );
  return { text: truncate(text, 1000), blocks };
}

/** App Home lines about delegations: the one a lead gave, and those a person holds. */
export function delegationLines(overview: DelegationsOverview, lang: Lang = ENGLISH): string[] {
  const t = lang.t.breakGlass;
  const lines: string[] = [];
  if (overview.given !== null) {
    lines.push(
      t.glassDelegatedTo(
        `<@${overview.given.delegate.id}>`,
        readerDate(overview.given.until, lang),
        ltr(lang, '`/vidops delegate cancel`'),
      ),
    );
  }
  for (const d of overview.received) {
    lines.push(t.glassApproveFor(`<@${d.lead.id}>`, readerDate(d.until, lang)));
  }
  return lines;
}

/** One line of the leads' "Break-glass to review" list. */
export function unreviewedLine(request: OperationRequest, lang: Lang = ENGLISH): string {
  const t = lang.t.breakGlass;
  const record = request.breakGlass;
  const due = record ? t.glassReviewDue(readerDate(record.reviewDueAt, lang), record.overdueAt !== null) : '';
  return t.glassUnreviewed(
    requestLine(request, lang),
    isolated(lang, record?.by.name ?? request.requester.name, 60),
    due,
  );
}
