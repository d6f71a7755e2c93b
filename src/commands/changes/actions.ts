import { InputError, wasNotSent } from '../../core/errors.js';
import type { OperationRequest, ResolveWay } from '../../core/model.js';
import { type Lang, num } from '../../i18n/index.js';
import type { DecisionResult, ResolveResult } from '../../services/types.js';
import type { SlackRoutes } from '../../slack/routes.js';
import { operationTitleOf, settledOutcome, stateWordForText } from '../../views/approval.js';
import { boldId } from '../../views/blocks.js';
import { reasonIn } from '../../views/errors.js';
import { ACTIONS, CALLBACKS } from '../../views/ids.js';
import { problemLine } from '../../views/modals/common.js';
import { rejectModal } from '../../views/modals/reject.js';
import { type MarkWay, parseResolveSubmission, resolveModal } from '../../views/modals/resolve.js';
import { type AppContext, personOf, problemText } from '../context.js';
import {
  ackStatus,
  answerClick,
  type ClickArgs,
  ClickSchema,
  onClick,
  onSubmit,
  openWhenAllowed,
  readRequestClick,
  readSubmission,
  type SubmissionArgs,
  submitter,
} from './clicks.js';
import { publishHome } from './home.js';
import { failureText, openLoading, showStatus, showView } from './shared.js';
import { whitelistForm } from './time-box.js';

/**
 * The buttons of the change flows: Approve, Reject and Cancel on approval messages, the
 * `requests` list and the Home tab; Check now, Mark applied…, Mark not applied… and Send again on
 * the approval message of a request whose outcome is unknown; the whitelist's Add/Remove; Home's
 * Refresh; and the `app_home_opened` event. Every decision goes through the services, which check the clicker and
 * the request's state (compare-and-set): a refused click changes nothing and is told why.
 * @see docs/architecture.md, "Approvals"
 */

/** `*R-…* (Delete folder)`, isolated in Persian. */
function whatOf(request: OperationRequest, lang: Lang): string {
  return `${boldId(lang, request.id)} (${operationTitleOf(request, lang)})`;
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
      return wasNotSent(request.error)
        ? t.actApprovedNotSent(what, failureText(ctx, request, lang))
        : t.actApprovedFailed(what, failureText(ctx, request, lang));
    case 'unknown':
      return t.actApprovedUnknown(what);
    default:
      return t.actApprovedOther(what, stateWordForText(request.state, lang));
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
    return t.apprReminded(boldId(lang, result.request.id), count, num(lang, count));
  });
}

/** Mark applied… / Mark not applied…: a modal asking what the lead found on the service. */
async function openMark(ctx: AppContext, args: ClickArgs, way: MarkWay): Promise<void> {
  // Who may settle, and whether it is still unknown, before the form asks (checked again on submit).
  await openWhenAllowed(
    ctx,
    args,
    (id, actor) => ctx.ops.checkResolve(id, actor),
    (request, lang) => resolveModal(request, way, lang),
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
  await openWhenAllowed(ctx, args, (id, actor) => ctx.ops.checkReject(id, actor), rejectModal);
}

/** The whitelist message's Add / Remove: a modal showing the current list. */
async function openWhitelist(ctx: AppContext, args: ClickArgs, mode: 'add' | 'remove'): Promise<void> {
  const click = ClickSchema.parse(args.body);
  const lang = await ctx.languages.of(click.user.id);
  const t = lang.t.changes;
  const title = mode === 'add' ? t.whitelistFormAddTitle : t.whitelistFormRemoveTitle;
  const viewId = await openLoading(ctx, args.client, click.trigger_id, title, lang);
  if (viewId === null) return;
  try {
    await showView(ctx, args.client, viewId, await whitelistForm(ctx, click.user.id, mode, lang));
  } catch (error) {
    const problem = problemLine(problemText(ctx, error, title, lang));
    await showStatus(ctx, args.client, viewId, title, [problem], lang);
  }
}

/** Registers the buttons of the change flows and the Home tab event. */
export function registerChangeButtons(routes: SlackRoutes, ctx: AppContext): void {
  onClick(routes, ACTIONS.approve, (args) =>
    decide(
      ctx,
      args,
      (id, actor) => ctx.ops.approve(id, actor),
      (result, lang) => approvedText(ctx, result, lang),
    ),
  );
  onClick(routes, ACTIONS.cancel, (args) =>
    decide(
      ctx,
      args,
      (id, actor) => ctx.ops.cancel(id, actor),
      (result, lang) =>
        result.request.state === 'cancelled'
          ? lang.t.approvals.actCancelled(boldId(lang, result.request.id))
          : lang.t.approvals.actNowState(
              boldId(lang, result.request.id),
              stateWordForText(result.request.state, lang),
            ),
    ),
  );
  onClick(routes, ACTIONS.remind, (args) => remindApprovers(ctx, args));
  onClick(routes, ACTIONS.reject, (args) => openReject(ctx, args));
  onClick(routes, ACTIONS.resolveCheck, (args) => settle(ctx, args, 'check'));
  onClick(routes, ACTIONS.resolveSendAgain, (args) => settle(ctx, args, 'send-again'));
  onClick(routes, ACTIONS.resolveApplied, (args) => openMark(ctx, args, 'applied'));
  onClick(routes, ACTIONS.resolveNotApplied, (args) => openMark(ctx, args, 'not-applied'));
  onSubmit(routes, CALLBACKS.resolveNote, (args) => submitMark(ctx, args));
  onClick(routes, ACTIONS.whitelistAdd, (args) => openWhitelist(ctx, args, 'add'));
  onClick(routes, ACTIONS.whitelistRemove, (args) => openWhitelist(ctx, args, 'remove'));

  routes.action(ACTIONS.homeRefresh, async ({ ack, body }) => {
    await ack();
    await publishHome(ctx, body.user.id, { person: personOf(ctx, body, body.user) });
  });

  routes.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'home') return;
    await publishHome(ctx, event.user);
  });
}
