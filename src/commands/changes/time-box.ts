import type { ModalView } from '@slack/types';
import type { ChangeOperation } from '../../core/catalog.js';
import { InputError } from '../../core/errors.js';
import type { OperationRequest } from '../../core/model.js';
import { windowRule } from '../../core/policy.js';
import type { Lang } from '../../i18n/index.js';
import { settledWithin } from '../../jobs/timeout.js';
import { spec as protectSet } from '../../operations/protect-set/spec.js';
import { spec as whitelistSet } from '../../operations/whitelist-set/spec.js';
import type { Prepared, SubmitResult } from '../../services/types.js';
import type { SlackRoutes } from '../../slack/routes.js';
import { submittedSections } from '../../views/approval.js';
import { boldId } from '../../views/blocks.js';
import { describeError, reasonIn } from '../../views/errors.js';
import { ACTIONS, CALLBACKS } from '../../views/ids.js';
import { decodeMetadata, problemLine } from '../../views/modals/common.js';
import { protectDraft, protectModal } from '../../views/modals/protect.js';
import {
  ExtendMetadataSchema,
  extendModal,
  parseExtendSubmission,
  revertConfirmModal,
  storedRevertDraft,
  type WindowLimits,
  type WindowReader,
  windowChoice,
} from '../../views/modals/time-box.js';
import { whitelistModal } from '../../views/modals/whitelist.js';
import { type AppContext, checkBlockKit, errorViewOptions, problemText } from '../context.js';
import {
  ackStatus,
  answerClick,
  type ClickArgs,
  onClick,
  onSubmit,
  openWhenAllowed,
  type RequestClick,
  readRequestClick,
  readSubmission,
  type SubmissionArgs,
  submitter,
  tell,
} from './clicks.js';
import { openDraft } from './drafts.js';
import { openLoading, outcomeOf, showResult, showStatus, showView } from './shared.js';

/**
 * The Slack side of changes that undo themselves (issue 23): "Put back after" read against the
 * policy for the protection and whitelist modals, the buttons Put back now, Extend… and Revert…
 * (on the requester's answer, the approval message, DMs and the App Home) and the Extend… form.
 * Who may press them, and whether the change is still in force, is the services' to say: a
 * refused click is answered with the reason, only to the person who clicked, and changes nothing.
 * @see docs/time-boxed.md
 */

/** How long a Revert… click waits for the inverse to be prepared before it opens a loading modal. */
const REVERT_BUDGET_MS = 1500;

/**
 * "Put back after" of one operation as the policy bounds it: the limits the modal offers, and the
 * reader of a typed window (the core reads it; the clock and the display time zone are now's).
 */
export function windowOf(
  ctx: AppContext,
  operation: ChangeOperation,
): { limits: WindowLimits; read: WindowReader } {
  return windowChoice(windowRule(ctx.policy, operation), ctx.clock(), ctx.config.languages.timeZone);
}

/** The protection form, its draft holding the settings as they are now, with "Put back after". */
export async function protectForm(ctx: AppContext, userId: string, lang: Lang): Promise<ModalView> {
  const { raw: _raw, ...current } = await ctx.ops.protection();
  const draftId = await openDraft(ctx, userId, CALLBACKS.protect, protectDraft(current));
  return protectModal(current, draftId, lang, windowOf(ctx, protectSet.name).limits);
}

/** The whitelist's Add or Remove form in `lang`, with "Put back after" and the list as it is now when it can be read. */
export async function whitelistForm(
  ctx: AppContext,
  userId: string,
  mode: 'add' | 'remove',
  lang: Lang,
): Promise<ModalView> {
  // The form still works without the list: the services read it again on submit.
  const current = await ctx.ops.whitelist().catch((error: unknown) => {
    ctx.logger.warn({ err: error }, 'could not read the whitelist for the change form');
    return null;
  });
  const draftId = await openDraft(ctx, userId, CALLBACKS.whitelistChange, { mode });
  return whitelistModal({ mode, current, draftId, bounds: windowOf(ctx, whitelistSet.name).limits }, lang);
}

/** What "Put back now" answers once the services took it: put back, nothing to put back, or under way. */
function putBackWords(request: OperationRequest, lang: Lang): string {
  const t = lang.t.approvals;
  const state = request.timeBox?.state;
  if (state === 'done') return t.actPutBackDone(boldId(lang, request.id));
  if (state === 'left') return t.actPutBackLeft(boldId(lang, request.id));
  return t.actPutBackStarted(boldId(lang, request.id));
}

/** Put back now: the requester or a lead; the services plan and send the put-back. */
async function putBackNow(ctx: AppContext, args: ClickArgs): Promise<void> {
  const read = await readRequestClick(ctx, args);
  if (read === null) return;
  const t = read.lang.t.approvals;
  await answerClick(ctx, args, read, t.actFailed, async () => {
    const result = await ctx.ops.putBackNow(read.id, read.actor);
    return result.kind === 'refused'
      ? t.actRefused(reasonIn(read.lang, result))
      : putBackWords(result.request, read.lang);
  });
}

/** Extend…: a form asking the new window, for a change still in force and the clicker's to extend; otherwise why not. */
async function openExtend(ctx: AppContext, args: ClickArgs): Promise<void> {
  await openWhenAllowed(
    ctx,
    args,
    (id, actor) => ctx.ops.checkExtend(id, actor),
    (request, lang) => extendModal(request, windowOf(ctx, request.operation).limits, lang),
  );
}

/** The submitted Extend…: a problem goes back to its field; otherwise the new request, as any submit answers. */
async function submitExtend(ctx: AppContext, args: SubmissionArgs): Promise<void> {
  const person = submitter(ctx, args);
  const lang = await person.lang();
  const title = lang.t.approvals.actExtendTitle;
  let operation: ChangeOperation | null = null;
  try {
    const { requestId } = decodeMetadata(ExtendMetadataSchema, args.view.private_metadata, lang);
    operation = (await ctx.ops.getRequest(requestId))?.operation ?? null;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
  }
  if (operation === null) {
    await ackStatus(ctx, args.ack, title, [problemLine(lang.t.changes.formContextLost)], lang);
    return;
  }
  const { limits, read } = windowOf(ctx, operation);
  const parsed = await readSubmission(ctx, args, title, lang, (state, meta, reader) =>
    parseExtendSubmission(state, meta, limits, read, reader),
  );
  if (parsed === null) return;
  await ackStatus(ctx, args.ack, title, [`:hourglass_flowing_sand: ${lang.t.changes.changesPosting}`], lang);
  await showResult(ctx, args, title, lang, async () => {
    const { actor } = await person.who();
    const result: SubmitResult = await ctx.ops.extend(parsed.requestId, actor, parsed.asked, parsed.reason);
    return submittedSections(
      outcomeOf(ctx, result, lang),
      { approvalChannel: ctx.config.approvalChannel },
      lang,
    );
  });
}

/** The inverse prepared: shown in a modal (opened now, or filled in the loading one), its draft kept on the server. */
async function showRevert(
  ctx: AppContext,
  args: ClickArgs,
  read: RequestClick,
  prepared: Prepared,
  viewId: string | null,
): Promise<void> {
  const draftId = await openDraft(
    ctx,
    read.click.user.id,
    CALLBACKS.revertConfirm,
    storedRevertDraft(prepared),
  );
  const view = revertConfirmModal({ prepared, draftId }, read.lang);
  if (viewId !== null) {
    await showView(ctx, args.client, viewId, view);
    return;
  }
  if (!read.click.trigger_id) return;
  checkBlockKit(ctx, { view }, 'modal');
  await args.client.views.open({ trigger_id: read.click.trigger_id, view });
}

/**
 * Revert…: the services prepare the inverse (refusing what cannot be reverted, or not by this
 * person, with the reason told to them alone); the inverse is shown before it is asked for.
 * When preparing takes long, a loading modal opens first (a trigger lives 3 s).
 */
async function openRevert(ctx: AppContext, args: ClickArgs): Promise<void> {
  const read = await readRequestClick(ctx, args);
  if (read === null) return;
  const { lang } = read;
  const title = lang.t.approvals.actRevertTitle;
  const preparing = ctx.ops.prepareRevert(read.id, read.actor);
  const early = await settledWithin(preparing, REVERT_BUDGET_MS);
  const refuse = async (error: unknown): Promise<void> => {
    const view = describeError(error, { ...errorViewOptions(ctx), lang });
    const words =
      error instanceof InputError
        ? lang.t.approvals.actRevertNot(view.text)
        : lang.t.approvals.actFailed(view.text);
    await tell(ctx, read.click, args.respond, words, read.person);
    if (!view.expected) throw error;
  };
  if (early.kind === 'error') {
    await refuse(early.error);
    return;
  }
  if (early.kind === 'ok') {
    await showRevert(ctx, args, read, early.value, null);
    return;
  }
  const viewId = await openLoading(ctx, args.client, read.click.trigger_id, title, lang);
  let prepared: Prepared;
  try {
    prepared = await preparing;
  } catch (error) {
    if (viewId !== null) {
      await showStatus(ctx, args.client, viewId, title, [problemLine(problemText(ctx, error, title))], lang);
      return;
    }
    await refuse(error);
    return;
  }
  await showRevert(ctx, args, read, prepared, viewId);
}

/** Registers Put back now, Extend… (and its form) and Revert…. */
export function registerTimeBox(routes: SlackRoutes, ctx: AppContext): void {
  onClick(routes, ACTIONS.putBackNow, (args) => putBackNow(ctx, args));
  onClick(routes, ACTIONS.extend, (args) => openExtend(ctx, args));
  onSubmit(routes, CALLBACKS.extend, (args) => submitExtend(ctx, args));
  onClick(routes, ACTIONS.revert, (args) => openRevert(ctx, args));
}
