import { InputError } from '../../core/errors.js';
import type { OperationRequest, ResolveWay } from '../../core/model.js';
import { type Lang, ltr, num } from '../../i18n/index.js';
import { spec as whitelistSet } from '../../operations/whitelist-set/spec.js';
import type { DecisionResult, ResolveResult } from '../../services/types.js';
import type { SlackRoutes } from '../../slack/routes.js';
import { operationTitleOf, settledOutcome, stateWord } from '../../views/approval.js';
import { describeRecordedError, reasonIn } from '../../views/errors.js';
import { ACTIONS, CALLBACKS } from '../../views/ids.js';
import { problemLine } from '../../views/modals/common.js';
import { rejectModal } from '../../views/modals/reject.js';
import { type MarkWay, parseResolveSubmission, resolveModal } from '../../views/modals/resolve.js';
import { whitelistModal } from '../../views/modals/whitelist.js';
import { type AppContext, errorViewOptions, personOf, problemText } from '../context.js';
import {
  ackStatus,
  answerClick,
  type ClickArgs,
  ClickSchema,
  openWhenAllowed,
  readRequestClick,
  readSubmission,
  type SubmissionArgs,
  submitter,
} from './clicks.js';
import { openDraft } from './drafts.js';
import { publishHome } from './home.js';
import { openLoading, showStatus, showView } from './shared.js';
import { windowOf } from './time-box.js';

/**
 * The buttons of the change flows: Approve, Reject and Cancel on approval messages, the
 * `requests` list and the Home tab; Check now, Mark applied…, Mark not applied… and Send again on
 * the approval message of a request whose outcome is unknown; the whitelist's Add/Remove; Home's
 * Refresh; and the `app_home_opened` event. Every decision goes through the services, which check the clicker and
 * the request's state (compare-and-set): a refused click changes nothing and is told why.
 * @see docs/architecture.md, "Approvals"
 */

/** A state in an answer: its code word in English (as before), its word in Persian. */
function stateIn(lang: Lang, state: OperationRequest['state']): string {
  return lang.locale === 'en' ? state : stateWord(state, lang);
}

/** `*R-…* (Delete folder)`, isolated in Persian. */
function whatOf(request: OperationRequest, lang: Lang): string {
  return `${ltr(lang, `*${request.id}*`)} (${operationTitleOf(request, lang)})`;
}

/** Runs a decision and tells the clicker how it went; an unexpected error also goes to app.error. */
async function decide(
  ctx: AppContext,
  args: ClickArgs,
  run: (id: string, actor: { id: string; name: string }) => Promise<DecisionResult>,
  said: (result: Exclude<DecisionResult, { kind: 'refused' }>, lang: Lang) => string,
): Promise<void> {
  const read = await readRequestClick(ctx, args);
  if (read === null) return;
  const { lang } = read;
  const t = lang.t.approvals;
  await answerClick(ctx, args, read, t.actFailed, async () => {
    const result = await run(read.id, read.actor);
    return result.kind === 'refused' ? t.actRefused(reasonIn(lang, result)) : said(result, lang);
  });
}

function approvedText(
  ctx: AppContext,
  result: Exclude<DecisionResult, { kind: 'refused' }>,
  lang: Lang,
): string {
  const t = lang.t.approvals;
  const { request } = result;
  const what = whatOf(request, lang);
  switch (request.state) {
    case 'pending':
      return t.actApprovedPending(
        what,
        t.apprCountOf(num(lang, request.approvals.length), num(lang, request.quorum)),
      );
    case 'succeeded':
      return t.actApprovedDone(what);
    case 'failed':
      return t.actApprovedFailed(
        what,
        request.error
          ? describeRecordedError(request.error, { ...errorViewOptions(ctx), lang })
          : t.apprSubmitServiceRefused,
      );
    case 'unknown':
      return t.actApprovedUnknown(what);
    default:
      return t.actApprovedOther(what, stateIn(lang, request.state));
  }
}

/** What the lead who settled (or tried to settle) an unknown outcome is told. */
function settledText(result: Exclude<ResolveResult, { kind: 'refused' }>, lang: Lang): string {
  const t = lang.t.approvals;
  const { request } = result;
  const what = whatOf(request, lang);
  if (result.kind === 'unsettled') return t.actStillUnknown(what, reasonIn(lang, result));
  const outcome =
    settledOutcome(request, lang) ??
    (request.state === 'failed'
      ? (request.error?.message ?? t.apprOutcomeNotApplied)
      : (outcomeOf(request) ?? t.apprOutcomeApplied));
  const icon = request.state === 'succeeded' ? ':white_check_mark:' : ':x:';
  return t.actSettled(icon, what, outcome);
}

function outcomeOf(request: OperationRequest): string | null {
  const result = request.result;
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return null;
  return typeof result.outcome === 'string' ? result.outcome : null;
}

/** Check now and Send again: run at once and answer the clicker. */
async function settle(ctx: AppContext, args: ClickArgs, way: ResolveWay): Promise<void> {
  const read = await readRequestClick(ctx, args);
  if (read === null) return;
  const { lang } = read;
  const t = lang.t.approvals;
  await answerClick(ctx, args, read, t.actFailed, async () => {
    const result = await ctx.ops.resolve(read.id, read.actor, way);
    return result.kind === 'refused' ? t.actRefused(reasonIn(lang, result)) : settledText(result, lang);
  });
}

/**
 * The requester's Remind: the approvers who have not decided get a DM (sent from the notification
 * outbox); at most once per `remindAfter`, refused with when they can remind again.
 */
async function remindApprovers(ctx: AppContext, args: ClickArgs): Promise<void> {
  const read = await readRequestClick(ctx, args);
  if (read === null) return;
  const { lang } = read;
  const t = lang.t.approvals;
  await answerClick(ctx, args, read, t.actFailed, async () => {
    const result = await ctx.ops.remind(read.id, read.actor);
    if (result.kind === 'refused') return t.actRefusedNotSent(reasonIn(lang, result));
    const count = result.request.approvals.length;
    return t.apprReminded(ltr(lang, `*${result.request.id}*`), count, num(lang, count));
  });
}

/** Mark applied… / Mark not applied…: a modal asking what the lead found on the service. */
async function openMark(ctx: AppContext, args: ClickArgs, way: MarkWay): Promise<void> {
  const read = await readRequestClick(ctx, args);
  if (read === null) return;
  const { lang } = read;
  // Who may settle, and whether it is still unknown, before the form asks (checked again on submit).
  const check = await ctx.ops.checkResolve(read.id, read.actor);
  await openWhenAllowed(ctx, args, read, check, lang.t.approvals.actRefused, (request) =>
    resolveModal(request, way, lang),
  );
}

/** The submitted note: a problem goes back to the field; otherwise the form closes into the result. */
async function submitMark(ctx: AppContext, args: SubmissionArgs): Promise<void> {
  const person = submitter(ctx, args);
  const lang = await person.lang();
  const title = lang.t.approvals.actSettleTitle;
  const parsed = await readSubmission(ctx, args, title, lang, parseResolveSubmission);
  if (parsed === null) return;
  await ackStatus(ctx, args.ack, title, [lang.t.breakGlass.glassRecording], lang);
  let lines: string[];
  try {
    const { actor } = await person.who();
    const result = await ctx.ops.resolve(parsed.requestId, actor, parsed.way, parsed.note);
    lines =
      result.kind === 'refused'
        ? [`:no_entry: ${problemText(ctx, new InputError(result.said ?? result.reason), title)}`]
        : [settledText(result, lang)];
  } catch (error) {
    lines = [`:x: ${problemText(ctx, error, title)}`];
  }
  await showStatus(ctx, args.client, args.view.id, title, lines);
}

/**
 * Reject opens a modal asking why; who may reject and whether the request is still open are
 * checked first, so a refused click gets its answer at once instead of a form.
 */
async function openReject(ctx: AppContext, args: ClickArgs): Promise<void> {
  const read = await readRequestClick(ctx, args);
  if (read === null) return;
  const { lang } = read;
  const check = await ctx.ops.checkReject(read.id, read.actor);
  await openWhenAllowed(ctx, args, read, check, lang.t.approvals.actRefused, (request) =>
    rejectModal(request, lang),
  );
}

/** The whitelist message's Add / Remove: a modal showing the current list. */
async function openWhitelist(ctx: AppContext, args: ClickArgs, mode: 'add' | 'remove'): Promise<void> {
  const click = ClickSchema.parse(args.body);
  const title = mode === 'add' ? 'Add to whitelist' : 'Remove from whitelist';
  const viewId = await openLoading(ctx, args.client, click.trigger_id, title);
  if (viewId === null) return;
  let current: string[] | null = null;
  try {
    current = await ctx.ops.whitelist();
  } catch (error) {
    // The form still works: the services read the list again on submit.
    ctx.logger.warn({ err: error }, 'could not read the whitelist for the change form');
  }
  try {
    const draftId = await openDraft(ctx, click.user.id, CALLBACKS.whitelistChange, { mode });
    const bounds = windowOf(ctx, whitelistSet.name).limits;
    await showView(ctx, args.client, viewId, whitelistModal({ mode, current, draftId, bounds }));
  } catch (error) {
    await showStatus(ctx, args.client, viewId, title, [problemLine(problemText(ctx, error, title))]);
  }
}

/** Registers the buttons of the change flows and the Home tab event. */
export function registerChangeButtons(routes: SlackRoutes, ctx: AppContext): void {
  routes.action(ACTIONS.approve, async ({ ack, body, respond, client }) => {
    await ack();
    await decide(
      ctx,
      { body, respond, client },
      (id, actor) => ctx.ops.approve(id, actor),
      (result, lang) => approvedText(ctx, result, lang),
    );
  });

  routes.action(ACTIONS.cancel, async ({ ack, body, respond, client }) => {
    await ack();
    await decide(
      ctx,
      { body, respond, client },
      (id, actor) => ctx.ops.cancel(id, actor),
      (result, lang) =>
        result.request.state === 'cancelled'
          ? lang.t.approvals.actCancelled(ltr(lang, `*${result.request.id}*`))
          : lang.t.approvals.actNowState(
              ltr(lang, `*${result.request.id}*`),
              stateIn(lang, result.request.state),
            ),
    );
  });

  routes.action(ACTIONS.remind, async ({ ack, body, respond, client }) => {
    await ack();
    await remindApprovers(ctx, { body, respond, client });
  });

  routes.action(ACTIONS.reject, async ({ ack, body, respond, client }) => {
    await ack();
    await openReject(ctx, { body, respond, client });
  });

  routes.action(ACTIONS.resolveCheck, async ({ ack, body, respond, client }) => {
    await ack();
    await settle(ctx, { body, respond, client }, 'check');
  });

  routes.action(ACTIONS.resolveSendAgain, async ({ ack, body, respond, client }) => {
    await ack();
    await settle(ctx, { body, respond, client }, 'send-again');
  });

  routes.action(ACTIONS.resolveApplied, async ({ ack, body, respond, client }) => {
    await ack();
    await openMark(ctx, { body, respond, client }, 'applied');
  });

  routes.action(ACTIONS.resolveNotApplied, async ({ ack, body, respond, client }) => {
    await ack();
    await openMark(ctx, { body, respond, client }, 'not-applied');
  });

  routes.view(CALLBACKS.resolveNote, async ({ ack, body, view, client }) => {
    await submitMark(ctx, { ack, body, view, client });
  });

  routes.action(ACTIONS.whitelistAdd, async ({ ack, body, respond, client }) => {
    await ack();
    await openWhitelist(ctx, { body, respond, client }, 'add');
  });

  routes.action(ACTIONS.whitelistRemove, async ({ ack, body, respond, client }) => {
    await ack();
    await openWhitelist(ctx, { body, respond, client }, 'remove');
  });

  routes.action(ACTIONS.homeRefresh, async ({ ack, body }) => {
    await ack();
    await publishHome(ctx, body.user.id, { person: personOf(ctx, body, body.user) });
  });

  routes.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'home') return;
    await publishHome(ctx, event.user);
  });
}
