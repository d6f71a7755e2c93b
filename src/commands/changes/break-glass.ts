import type { KnownBlock } from '@slack/types';
import { BREAK_GLASS_WORDS, isBreakGlassWords } from '../../core/break-glass.js';
import { type Lang, ltr } from '../../i18n/index.js';
import type { BreakGlassResult } from '../../services/break-glass.js';
import type { SubmitResult } from '../../services/types.js';
import type { SlackRoutes } from '../../slack/routes.js';
import { readerDate, refOf, stateWordForText } from '../../views/approval.js';
import { boldId, section } from '../../views/blocks.js';
import { breakGlassOffer } from '../../views/break-glass.js';
import { reasonIn } from '../../views/errors.js';
import { problemMessage } from '../../views/everyday.js';
import { ACTIONS, BLOCKS, CALLBACKS } from '../../views/ids.js';
import {
  breakGlassModal,
  flagModal,
  parseBreakGlassSubmission,
  parseFlagSubmission,
} from '../../views/modals/break-glass.js';
import { problemLine } from '../../views/modals/common.js';
import { type AppContext, respondChecked, type SlashHandler } from '../context.js';
import {
  ackStatus,
  answerClick,
  type ClickArgs,
  onClick,
  onSubmit,
  openWhenAllowed,
  readRequestClick,
  readSubmission,
  type SubmissionArgs,
  submitter,
} from './clicks.js';
import { failureText, showResult } from './shared.js';

/**
 * Break-glass and delegation in Slack: the requester's Break glass… button (on their pending
 * notice and their Home tab) and its modal, a lead's Acknowledge and Flag… (approval message, DM,
 * Home tab), and `/vidops delegate …`. Everything is decided by the services.
 * @see docs/architecture.md, "Break-glass and delegation"
 */

/** The Break glass… offer under a pending notice, when the services say the requester may use it. */
export function withBreakGlassOffer<M extends { text: string; blocks?: KnownBlock[] | undefined }>(
  message: M,
  result: SubmitResult,
  lang: Lang,
): M {
  if (result.kind !== 'pending' || result.breakGlass !== true) return message;
  return { ...message, blocks: [...(message.blocks ?? []), ...breakGlassOffer(result.request.id, lang)] };
}

/** The line a modal's result adds when the requester may break the glass (the button is on Home). */
export function breakGlassHint(result: SubmitResult, lang: Lang): string[] {
  if (result.kind !== 'pending' || result.breakGlass !== true) return [];
  return [lang.t.breakGlass.glassHint];
}

/** Break glass…: checks first (a refused click is told why at once), then the modal. */
async function openBreakGlass(ctx: AppContext, args: ClickArgs): Promise<void> {
  await openWhenAllowed(
    ctx,
    args,
    (id, actor) => ctx.ops.checkBreakGlass(id, actor),
    (request, lang) =>
      breakGlassModal(request, ctx.policy.rules[request.operation].breakGlass?.reviewWithin ?? '24h', lang),
  );
}

function ranText(ctx: AppContext, result: BreakGlassResult, lang: Lang): string {
  if (result.kind === 'refused') return problemLine(reasonIn(lang, result), ':no_entry:');
  const t = lang.t.breakGlass;
  const { request } = result;
  const what = refOf(request, lang);
  switch (request.state) {
    case 'succeeded':
      return t.glassRanDone(what);
    case 'failed':
      return t.glassRanFailed(what, failureText(ctx, request, lang));
    case 'unknown':
      return t.glassRanUnknown(what);
    default:
      return t.glassRanOther(what, stateWordForText(request.state, lang));
  }
}

/** The reason and the typed words: wrong words stay in the form, under their field; nothing changes. */
async function submitBreakGlass(ctx: AppContext, args: SubmissionArgs): Promise<void> {
  const person = submitter(ctx, args);
  const lang = await person.lang();
  const t = lang.t.breakGlass;
  const title = t.glassModalTitle;
  const parsed = await readSubmission(ctx, args, title, lang, parseBreakGlassSubmission);
  if (parsed === null) return;
  if (!isBreakGlassWords(parsed.words)) {
    await args.ack({
      response_action: 'errors',
      errors: { [BLOCKS.breakGlassWords]: t.glassWrongWords(BREAK_GLASS_WORDS) },
    });
    return;
  }
  await ackStatus(ctx, args.ack, title, [t.glassRunning], lang);
  await showResult(ctx, args, title, lang, async () => {
    const { actor } = await person.who();
    const result = await ctx.ops.breakGlass(parsed.requestId, actor, {
      reason: parsed.reason,
      words: parsed.words,
    });
    return [ranText(ctx, result, lang)];
  });
}

async function acknowledge(ctx: AppContext, args: ClickArgs): Promise<void> {
  const read = await readRequestClick(ctx, args);
  if (read === null) return;
  const { lang, id } = read;
  const t = lang.t.breakGlass;
  await answerClick(
    ctx,
    args,
    read,
    (problem) => `:x: ${problem}`,
    async () => {
      const result = await ctx.ops.reviewBreakGlass(id, read.actor, 'acknowledged');
      return result.kind === 'refused'
        ? lang.t.approvals.actRefused(reasonIn(lang, result))
        : t.glassAcknowledged(boldId(lang, id));
    },
  );
}

async function openFlag(ctx: AppContext, args: ClickArgs): Promise<void> {
  await openWhenAllowed(ctx, args, (id, actor) => ctx.ops.checkBreakGlassReview(id, actor), flagModal);
}

async function submitFlag(ctx: AppContext, args: SubmissionArgs): Promise<void> {
  const person = submitter(ctx, args);
  const lang = await person.lang();
  const t = lang.t.breakGlass;
  const title = t.glassFlagTitle;
  const parsed = await readSubmission(ctx, args, title, lang, parseFlagSubmission);
  if (parsed === null) return;
  await ackStatus(ctx, args.ack, title, [t.glassRecording], lang);
  await showResult(ctx, args, title, lang, async () => {
    const { actor } = await person.who();
    const result = await ctx.ops.reviewBreakGlass(parsed.requestId, actor, 'flagged', parsed.note);
    return result.kind === 'refused'
      ? [problemLine(reasonIn(lang, result), ':no_entry:')]
      : [t.glassFlagged(boldId(lang, parsed.requestId))];
  });
}

/** Registers the break-glass buttons and modals. */
export function registerBreakGlass(routes: SlackRoutes, ctx: AppContext): void {
  onClick(routes, ACTIONS.breakGlass, (args) => openBreakGlass(ctx, args));
  onClick(routes, ACTIONS.breakGlassAcknowledge, (args) => acknowledge(ctx, args));
  onClick(routes, ACTIONS.breakGlassFlag, (args) => openFlag(ctx, args));
  onSubmit(routes, CALLBACKS.breakGlass, (args) => submitBreakGlass(ctx, args));
  onSubmit(routes, CALLBACKS.breakGlassFlag, (args) => submitFlag(ctx, args));
}

// --- /vidops delegate ---------------------------------------------------------------------------

/**
 * A lead delegates; the answer names when it ends as the reader reads dates: Slack's date token
 * in English (shown in their own time zone), the Solar Hijri date in Persian.
 */
const delegate: SlashHandler = async ({ command, ctx, actor, lang, respond }) => {
  if (command.kind !== 'delegate') return;
  const t = lang.t.breakGlass;
  const name = command.delegate.name ?? (await ctx.directory.nameOf(command.delegate.id));
  const result = await ctx.ops.delegate(actor, { ...command, delegate: { id: command.delegate.id, name } });
  if (result.kind === 'refused') {
    await respondChecked(
      ctx,
      respond,
      problemMessage(t.delegateNothingChanged(reasonIn(lang, result)), ':no_entry:'),
    );
    return;
  }
  const d = result.delegation;
  const text = t.delegateDone(
    `<@${d.delegate.id}>`,
    readerDate(d.until, lang),
    ltr(lang, '`/vidops delegate cancel`'),
  );
  await respondChecked(ctx, respond, { text, blocks: [section(text)] });
};

const delegateCancel: SlashHandler = async ({ command, ctx, actor, lang, respond }) => {
  if (command.kind !== 'delegate.cancel') return;
  const t = lang.t.breakGlass;
  const result = await ctx.ops.cancelDelegation(actor);
  if (result.kind === 'refused') {
    await respondChecked(
      ctx,
      respond,
      problemMessage(t.delegateNothingChanged(reasonIn(lang, result)), ':no_entry:'),
    );
    return;
  }
  const text = t.delegateEnded(`<@${result.delegation.delegate.id}>`);
  await respondChecked(ctx, respond, { text, blocks: [section(text)] });
};

/** The delegation commands by kind, for the router. */
export const delegationHandlers = { delegate, 'delegate.cancel': delegateCancel } as const;
