import type { HomeView, KnownBlock } from '@slack/types';
import type { ProtectionConfig } from '../client/types.js';
import type { AuditEvent, OperationRequest } from '../core/model.js';
import { TERMINAL_STATES } from '../core/model.js';
import {
  PROTECTION_FIELDS,
  PROTECTION_GROUP_TITLES,
  type ProtectionGroup,
  readProtectionField,
} from '../core/validate/protection.js';
import { type Lang, ltr, num } from '../i18n/index.js';
import type { DelegationsOverview } from '../services/delegation.js';
import type { RequestsOverview } from '../services/types.js';
import {
  breakGlassReviewButtons,
  operationTitleOf,
  previewSections,
  readerDate,
  requestLine,
} from './approval.js';
import { auditLine } from './audit-post.js';
import { actions, button, context, divider, header, packSections, safeWorded, section } from './blocks.js';
import { delegationLines, unreviewedLine } from './break-glass.js';
import { ACTIONS, BLOCKS } from './ids.js';
import { BLOCK_KIT_LIMITS } from './limits.js';
import { protectionGroupTitle, protectionLabel, protectionValueText } from './protection-text.js';
import {
  confirmWhat,
  revertActionsBlock,
  revertButtons,
  revertible,
  timeBoxActionsBlock,
  timeBoxButtons,
  timeBoxLines,
} from './put-back.js';
import { awaitingBlocks, finishedLines, openRequestBlock } from './requests.js';

/**
 * The App Home tab: for everyone their open and recent requests (Cancel on the pending ones), a
 * summary of the protection settings and recent audit events (masked); for leads also the
 * requests awaiting them with Approve/Reject. At most 100 blocks: each list is capped and says
 * how many it leaves out. In the Home owner's language (`ctx.languages.of(userId)`).
 * @see docs/architecture.md, "Approvals", "Audit log" and "Languages"
 */

/** How many items each part of the Home tab shows. */
export const HOME_LIMITS = {
  awaiting: 15,
  open: 15,
  finished: 10,
  audit: 10,
  breakGlass: 10,
  timeBoxes: 10,
  revertible: 5,
} as const;

export interface HomeModel {
  userId: string;
  isLead: boolean;
  overview: RequestsOverview;
  /** Current settings; `{ error }` when they could not be read. */
  protection: ProtectionConfig | { error: string };
  /** Leads see the last events of the log; agents the events about their own requests. */
  audit: { scope: 'all' | 'mine'; events: readonly AuditEvent[] };
  /** A line shown at the top, e.g. why a click was refused. */
  notice?: string | null | undefined;
  /** When the tab was built (ISO), shown so people know how fresh it is. */
  builtAt: string;
  /** Break-glass changes no lead has reviewed yet (leads only). */
  breakGlass?: readonly OperationRequest[] | undefined;
  /** The delegation this person gave, and those they hold. */
  delegations?: DelegationsOverview | undefined;
  /** IDs of this person's pending requests they may run by break-glass (a Break glass… button). */
  breakGlassOffered?: ReadonlySet<string> | undefined;
  /** Time-boxed changes in force (anyone's), soonest end first (docs/time-boxed.md). */
  timeBoxes?: readonly OperationRequest[] | undefined;
}

/** A command in a sentence: a code span, isolated in Persian. */
function command(lang: Lang, text: string): string {
  return ltr(lang, `\`${text}\``);
}

/**
 * One line per group: `*Watermark text* · Moving text on screen: on · Text colour: yellow (#ffff00) · …`,
 * labels, titles and on/off in the reader's language.
 */
export function protectionSummary(config: ProtectionConfig, lang: Lang): string[] {
  const lines: string[] = [];
  for (const group of Object.keys(PROTECTION_GROUP_TITLES) as ProtectionGroup[]) {
    const parts = PROTECTION_FIELDS.filter((f) => f.group === group).map(
      (f) =>
        `${protectionLabel(f, lang)}: ${ltr(lang, safeWorded(protectionValueText(f.field, readProtectionField(config, f.field), lang), 60))}`,
    );
    lines.push(`*${protectionGroupTitle(group, lang)}* · ${parts.join(' · ')}`);
  }
  return lines;
}

/** The Home tab for one person, in `lang` (their language). */
export function homeView(model: HomeModel, lang: Lang): HomeView {
  const t = lang.t.home;
  const blocks: KnownBlock[] = [header('vidops')];
  if (model.notice) blocks.push(section(`:information_source: ${safeWorded(model.notice, 1000)}`));
  const refresh = actions([button(t.homeRefresh, ACTIONS.homeRefresh, 'refresh')]);
  blocks.push(
    context(
      `${model.isLead ? t.homeIntroLead : t.homeIntroAgent} ${t.homeIntroHelp(command(lang, '/vidops help'), readerDate(model.builtAt, lang))}`,
    ),
    refresh,
  );

  blocks.push(...breakGlassAndDelegation(model, lang));

  const { awaitingMe, mine } = model.overview;
  const requests = command(lang, '/vidops requests');
  const awaitingCount = model.overview.awaitingCount ?? awaitingMe.length;
  if (model.isLead || awaitingCount > 0) {
    blocks.push(divider(), header(t.homeAwaitingHeader(num(lang, awaitingCount))));
    if (awaitingCount === 0) blocks.push(section(lang.t.requests.requestsNothingWaiting));
    const shown = awaitingMe.slice(0, HOME_LIMITS.awaiting);
    for (const request of shown) {
      const reject = !model.overview.inPlace?.includes(request.id);
      blocks.push(...awaitingBlocks(request, 800, lang, reject));
    }
    if (awaitingCount > shown.length) {
      blocks.push(context(t.homeMoreAwaiting(num(lang, awaitingCount - shown.length), requests)));
    }
  }

  const open = mine.filter((r) => !TERMINAL_STATES.includes(r.state));
  const finished = mine.filter((r) => TERMINAL_STATES.includes(r.state));
  const openCount = model.overview.openCount ?? open.length;
  blocks.push(divider(), header(t.homeOpenHeader(num(lang, openCount))));
  if (openCount === 0) blocks.push(section(lang.t.requests.requestsNoOpen));
  const openShown = open.slice(0, HOME_LIMITS.open);
  for (const request of openShown) {
    blocks.push(openRequestBlock(request, lang, new Date(model.builtAt)));
    if (request.state === 'pending' && model.breakGlassOffered?.has(request.id) === true) {
      blocks.push(
        actions(
          [button(t.homeBreakGlassButton, ACTIONS.breakGlass, request.id, 'danger')],
          `break_glass_offer:${request.id}`,
        ),
      );
    }
  }
  if (openCount > openShown.length) {
    blocks.push(context(t.homeMoreOpen(num(lang, openCount - openShown.length), requests)));
  }
  if (finished.length > 0) {
    blocks.push(section(lang.t.requests.requestsFinishedHeading));
    blocks.push(
      ...packSections(finishedLines(finished.slice(0, HOME_LIMITS.finished), lang, new Date(model.builtAt))),
    );
  }
  blocks.push(...timeBoxSection(model, lang), ...revertSection(finished, lang));

  blocks.push(divider(), header(lang.t.changes.protectFormTitle));
  if ('error' in model.protection) {
    blocks.push(section(t.homeProtectionUnreadable(safeWorded(model.protection.error, 500))));
  } else {
    blocks.push(...packSections(protectionSummary(model.protection, lang)));
    blocks.push(context(t.homeProtectionHowTo(command(lang, '/vidops protect'))));
  }

  blocks.push(divider(), header(model.audit.scope === 'all' ? t.homeAuditAll : t.homeAuditMine));
  const events = model.audit.events.slice(-HOME_LIMITS.audit);
  if (events.length === 0) blocks.push(section(t.homeNothingYet));
  blocks.push(...packSections(events.map((e) => auditLine(e, 0.5, lang))));
  if (model.audit.scope === 'all') blocks.push(context(t.homeAuditNote(command(lang, '/vidops audit 50'))));

  return { type: 'home', blocks: blocks.slice(0, BLOCK_KIT_LIMITS.viewBlocks) };
}

/**
 * Delegations in force (given and held), and for leads the break-glass changes to review, each
 * with Acknowledge / Flag… unless this lead broke the glass on it.
 * @see docs/architecture.md, "Break-glass and delegation"
 */
function breakGlassAndDelegation(model: HomeModel, lang: Lang): KnownBlock[] {
  const t = lang.t.home;
  const blocks: KnownBlock[] = [];
  const lines = model.delegations ? delegationLines(model.delegations, lang) : [];
  if (lines.length > 0) blocks.push(...packSections(lines));
  const unreviewed = model.breakGlass ?? [];
  if (!model.isLead || unreviewed.length === 0) return blocks;
  blocks.push(divider(), header(t.homeBreakGlassHeader(num(lang, unreviewed.length))));
  for (const request of unreviewed.slice(0, HOME_LIMITS.breakGlass)) {
    const line = section(unreviewedLine(request, lang));
    const own = request.breakGlass?.by.id === model.userId;
    if (own || request.state === 'executing') blocks.push(line);
    else
      blocks.push(
        line,
        actions(breakGlassReviewButtons(request, lang), `${BLOCKS.breakGlassActions}:${request.id}`),
      );
  }
  if (unreviewed.length > HOME_LIMITS.breakGlass) {
    blocks.push(context(t.homeMoreToReview(num(lang, unreviewed.length - HOME_LIMITS.breakGlass))));
  }
  return blocks;
}

/**
 * The time-boxed changes in force: what each changed, who asked, its end and how its put-back
 * stands, with Put back now and Extend…; or that there is none.
 * @see docs/time-boxed.md
 */
function timeBoxSection(model: HomeModel, lang: Lang): KnownBlock[] {
  const t = lang.t.home;
  const boxes = model.timeBoxes ?? [];
  const blocks: KnownBlock[] = [divider(), header(t.homeTimeBoxHeader(num(lang, boxes.length)))];
  if (boxes.length === 0) blocks.push(section(t.homeTimeBoxNone));
  for (const request of boxes.slice(0, HOME_LIMITS.timeBoxes)) {
    const lines = [
      requestLine(request, lang, { showRequester: true }),
      ...previewSections(request, lang, 400),
      ...timeBoxLines(request, new Date(model.builtAt), lang),
    ];
    blocks.push(...packSections(lines));
    const buttons = timeBoxButtons(request, lang, confirmWhat(request, operationTitleOf(request, lang)));
    if (buttons.length > 0) blocks.push(actions(buttons, timeBoxActionsBlock(request.id)));
  }
  if (boxes.length > HOME_LIMITS.timeBoxes) {
    blocks.push(context(t.homeTimeBoxMore(num(lang, boxes.length - HOME_LIMITS.timeBoxes))));
  }
  return blocks;
}

/** This person's recent done changes that Revert… can undo, each with its button; none when there are none. */
function revertSection(finished: readonly OperationRequest[], lang: Lang): KnownBlock[] {
  const mine = finished.filter(revertible).slice(0, HOME_LIMITS.revertible);
  if (mine.length === 0) return [];
  const blocks: KnownBlock[] = [section(`*${lang.t.home.homeRevertHeader}*`)];
  for (const request of mine) {
    blocks.push(
      section(`${requestLine(request, lang)} · ${readerDate(request.updatedAt, lang)}`),
      actions(revertButtons(request, lang), revertActionsBlock(request.id)),
    );
  }
  blocks.push(context(lang.t.home.homeRevertNote));
  return blocks;
}

/** The Home tab of someone outside `AGENTS`: what vidops is, and nothing of the team's data. */
export function homeNotAllowedView(lang: Lang): HomeView {
  return { type: 'home', blocks: [header('vidops'), section(lang.t.home.homeNotAllowed)] };
}
