import type { ContextBlock, HomeView, KnownBlock } from '@slack/types';
import type { ProtectionConfig } from '../client/types.js';
import type { AuditEvent, OperationRequest } from '../core/model.js';
import { TERMINAL_STATES } from '../core/model.js';
import {
  formatProtectionValue,
  PROTECTION_FIELDS,
  PROTECTION_GROUP_TITLES,
  readProtectionField,
} from '../core/validate/protection.js';
import type { DelegationsOverview } from '../services/delegation.js';
import type { RequestsOverview } from '../services/types.js';
import { breakGlassReviewButtons, slackDate } from './approval.js';
import { auditLine } from './audit-post.js';
import { actions, button, context, divider, header, packSections, safe, section } from './blocks.js';
import { delegationLines, unreviewedLine } from './break-glass.js';
import { ACTIONS, BLOCKS } from './ids.js';
import { BLOCK_KIT_LIMITS } from './limits.js';
import { awaitingBlocks, finishedLines, openRequestBlock } from './requests.js';

/**
 * The App Home tab: for everyone their open and recent requests (Cancel on the pending ones), a
 * summary of the protection settings and recent audit events (masked); for leads also the
 * requests awaiting them with Approve/Reject. At most 100 blocks: each list is capped and says
 * how many it leaves out.
 * @see docs/architecture.md, "Approvals" and "Audit log"
 */

/** How many items each part of the Home tab shows. */
export const HOME_LIMITS = { awaiting: 15, open: 15, finished: 10, audit: 10, breakGlass: 10 } as const;

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
}

function more(count: number, what: string): ContextBlock {
  return context(`_… and ${count} more ${what}; \`/vidops requests\` lists them._`);
}

/** One line per group: `*Watermark text* · Moving text on screen: on · Text colour: yellow (#ffff00) · …`. */
export function protectionSummary(config: ProtectionConfig): string[] {
  const lines: string[] = [];
  for (const [group, title] of Object.entries(PROTECTION_GROUP_TITLES)) {
    const parts = PROTECTION_FIELDS.filter((f) => f.group === group).map(
      (f) => `${f.label}: ${safe(formatProtectionValue(f.field, readProtectionField(config, f.field)), 60)}`,
    );
    lines.push(`*${title}* · ${parts.join(' · ')}`);
  }
  return lines;
}

/** The Home tab for one person. */
export function homeView(model: HomeModel): HomeView {
  const blocks: KnownBlock[] = [header('vidops')];
  if (model.notice) blocks.push(section(`:information_source: ${safe(model.notice, 1000)}`));
  const refresh = actions([button('Refresh', ACTIONS.homeRefresh, 'refresh')]);
  blocks.push(
    context(
      `${model.isLead ? 'You are a lead: you approve changes others ask for.' : 'Changes you ask for are approved by a lead.'} Type \`/vidops help\` for the commands. Updated ${slackDate(model.builtAt)}.`,
    ),
    refresh,
  );

  blocks.push(...breakGlassAndDelegation(model));

  const { awaitingMe, mine } = model.overview;
  if (model.isLead || awaitingMe.length > 0) {
    blocks.push(divider(), header(`Awaiting your approval (${awaitingMe.length})`));
    if (awaitingMe.length === 0) blocks.push(section('_Nothing is waiting for you._'));
    for (const request of awaitingMe.slice(0, HOME_LIMITS.awaiting))
      blocks.push(...awaitingBlocks(request, 800));
    if (awaitingMe.length > HOME_LIMITS.awaiting) {
      blocks.push(more(awaitingMe.length - HOME_LIMITS.awaiting, 'requests awaiting you'));
    }
  }

  const open = mine.filter((r) => !TERMINAL_STATES.includes(r.state));
  const finished = mine.filter((r) => TERMINAL_STATES.includes(r.state));
  blocks.push(divider(), header(`Your open requests (${open.length})`));
  if (open.length === 0) blocks.push(section('_You have no open requests._'));
  for (const request of open.slice(0, HOME_LIMITS.open)) {
    blocks.push(openRequestBlock(request));
    if (request.state === 'pending' && model.breakGlassOffered?.has(request.id) === true) {
      blocks.push(
        actions(
          [button('Break glass…', ACTIONS.breakGlass, request.id, 'danger')],
          `break_glass_offer:${request.id}`,
        ),
      );
    }
  }
  if (open.length > HOME_LIMITS.open) blocks.push(more(open.length - HOME_LIMITS.open, 'open requests'));
  if (finished.length > 0) {
    blocks.push(section('*Recently finished*'));
    blocks.push(...packSections(finishedLines(finished.slice(0, HOME_LIMITS.finished))));
  }

  blocks.push(divider(), header('Protection settings'));
  if ('error' in model.protection) {
    blocks.push(section(`_The settings could not be read: ${safe(model.protection.error, 500)}_`));
  } else {
    blocks.push(...packSections(protectionSummary(model.protection)));
    blocks.push(context('`/vidops protect` changes them (a lead approves).'));
  }

  blocks.push(
    divider(),
    header(model.audit.scope === 'all' ? 'Recent audit events' : 'Your recent activity'),
  );
  const events = model.audit.events.slice(-HOME_LIMITS.audit);
  if (events.length === 0) blocks.push(section('_Nothing yet._'));
  blocks.push(...packSections(events.map((e) => auditLine(e, 0.5))));
  if (model.audit.scope === 'all')
    blocks.push(context('Numbers are masked; hashes are shortened. `/vidops audit 50` shows more.'));

  return { type: 'home', blocks: blocks.slice(0, BLOCK_KIT_LIMITS.viewBlocks) };
}

/**
 * Delegations in force (given and held), and for leads the break-glass changes to review, each
 * with Acknowledge / Flag… unless this lead broke the glass on it.
 * @see docs/architecture.md, "Break-glass and delegation"
 */
function breakGlassAndDelegation(model: HomeModel): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  const lines = model.delegations ? delegationLines(model.delegations) : [];
  if (lines.length > 0) blocks.push(...packSections(lines));
  const unreviewed = model.breakGlass ?? [];
  if (!model.isLead || unreviewed.length === 0) return blocks;
  blocks.push(divider(), header(`Break-glass to review (${unreviewed.length})`));
  for (const request of unreviewed.slice(0, HOME_LIMITS.breakGlass)) {
    const line = section(unreviewedLine(request));
    const own = request.breakGlass?.by.id === model.userId;
    if (own || request.state === 'executing') blocks.push(line);
    else
      blocks.push(
        line,
        actions(breakGlassReviewButtons(request), `${BLOCKS.breakGlassActions}:${request.id}`),
      );
  }
  if (unreviewed.length > HOME_LIMITS.breakGlass) {
    blocks.push(context(`_… and ${unreviewed.length - HOME_LIMITS.breakGlass} more to review._`));
  }
  return blocks;
}

/** The Home tab of someone outside `AGENTS`: what vidops is, and nothing of the team's data. */
export function homeNotAllowedView(): HomeView {
  return {
    type: 'home',
    blocks: [
      header('vidops'),
      section(
        'vidops is the support team’s tool for viewers, videos and protection settings. You are not on the team list (AGENTS); ask a team lead if you need access.',
      ),
    ],
  };
}
