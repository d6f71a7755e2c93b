import { setTimeout as sleep } from 'node:timers/promises';
import type { RespondFn } from '@slack/bolt';
import { z } from 'zod';
import { failedNumbers } from '../core/batch.js';
import { maskMobile } from '../core/mask.js';
import type { Actor, OperationRequest } from '../core/model.js';
import { MobileParamSchema } from '../core/validate/phone.js';
import type { NumberList } from '../core/validate/phone-list.js';
import type { Lang } from '../i18n/index.js';
import { ltr } from '../i18n/index.js';
import { MAX_BATCH, spec as unblockMany } from '../operations/viewer-unblock-many/spec.js';
import type { Drafts } from '../services/drafts.js';
import type { Reads } from '../services/reads.js';
import type { Operations, SubmitResult } from '../services/types.js';
import type { SlackRoutes } from '../slack/routes.js';
import type { Store } from '../store/store.js';
import { batchMessage, batchPreviewMessage } from '../views/batch.js';
import { type SlackMessage, section } from '../views/blocks.js';
import { reasonIn } from '../views/errors.js';
import { type Message, problemMessage } from '../views/everyday.js';
import { ACTIONS, CALLBACKS } from '../views/ids.js';
import { viewerHistoryMessage } from '../views/viewer-history.js';
import { withBreakGlassOffer } from './changes/break-glass.js';
import { ClickSchema } from './changes/clicks.js';
import {
  type AppContext,
  checkBlockKit,
  personOf,
  problemText,
  type SlackContext,
  type Who,
} from './context.js';

/**
 * Many numbers at once in Slack: a list (several numbers after `/vidops unblock`, the Unblock many
 * form, Retry the failed) is shown as read, with Confirm and Cancel; the list waits in a one-time
 * draft (src/services/drafts.ts) whose ID is all the buttons carry, so Confirm submits exactly what
 * was shown, once, and only for who was shown it. The batch then has one message, a DM to its
 * requester, edited in place as it runs (throttled) and at its end.
 * @see docs/commands.md, "Many numbers at once"
 */

/** What a preview's draft holds: the numbers, merged and in the form sent. */
const BatchDraftSchema = z.strictObject({ numbers: z.array(MobileParamSchema).min(1).max(MAX_BATCH) });

/** The list as read (repeat viewers marked), kept in a draft for Confirm; a list with no number, or too long, says so. */
export async function batchPreviewReply(
  ctx: AppContext,
  { actor, lang }: Who,
  list: NumberList,
): Promise<Message> {
  const t = lang.t.batch;
  if (list.numbers.length === 0) return problemMessage(t.batchNone);
  if (list.numbers.length > MAX_BATCH) return problemMessage(t.batchTooMany(MAX_BATCH, list.numbers.length));
  const preview = await ctx.ops.previewBatch(list);
  const draftId = await ctx.drafts.open(actor.id, CALLBACKS.batchPreview, {
    numbers: list.numbers.map((n) => n.param),
  });
  return batchPreviewMessage(preview, draftId, lang);
}

/** Numbers asked again (Retry the failed) as a list read without a refusal. */
function listOf(numbers: readonly string[]): NumberList {
  return {
    numbers: numbers.map((param) => ({ param, masked: maskMobile(param), lines: [] })),
    refused: [],
    duplicates: 0,
  };
}

/** What a batch's message needs: the Slack side, the request and its steps, and the DM it lives in. */
export type BatchShowContext = Pick<
  SlackContext,
  'web' | 'languages' | 'logger' | 'strictBlockKit' | 'clock'
> & {
  ops: Pick<Reads, 'batchSteps' | 'getRequest'>;
  store: Pick<Store, 'markDelivered' | 'forgetDelivery' | 'recordRequestDm' | 'requestDms'>;
};

/** A Slack user (not the CLI's `cli:…`): only they have a DM to post the batch's message in. */
function isSlackUser(id: string): boolean {
  return /^[UW][A-Z0-9]{2,}$/.test(id);
}

/** The batch's message is being posted elsewhere: nothing to edit yet. */
class BatchMessagePosting extends Error {
  override name = 'BatchMessagePosting';
  constructor() {
    super('the batch message is being posted by another run');
  }
}

/** How long a run waits for the batch's message that another run is posting. */
const POSTING_WAIT_MS = 3_000;

/**
 * Shows a batch as it stands in its requester's DM: the first time posted (claimed once across
 * replicas) and recorded, then edited in place, always from the request and steps read last.
 * Nothing while it waits for a lead, nor for a batch that never ran.
 */
export async function showBatch(ctx: BatchShowContext, request: OperationRequest): Promise<void> {
  if (request.operation !== unblockMany.name || request.state === 'pending') return;
  const lang = await ctx.languages.of(request.requester.id);
  const render = async () => {
    const now = (await ctx.ops.getRequest(request.id)) ?? request;
    const message = batchMessage(now, await ctx.ops.batchSteps(request.id), lang);
    checkBlockKit(ctx, message, 'message');
    return message;
  };
  let dm: { channel: string; ts: string } | undefined = await batchDmOf(ctx, request.id);
  if (dm === undefined) {
    if (!isSlackUser(request.requester.id) || (await ctx.ops.batchSteps(request.id)).length === 0) return;
    if (await ctx.store.markDelivered(`batch:${request.id}`, ctx.clock().toISOString())) {
      const opened = await ctx.web.conversations.open({ users: request.requester.id });
      const channel = opened.channel?.id;
      const message = await render();
      const posted = channel && (await ctx.web.chat.postMessage({ channel, ...message }));
      if (!channel || !posted || posted.ts === undefined) return;
      const at = ctx.clock().toISOString();
      const userId = request.requester.id;
      await ctx.store.recordRequestDm({
        requestId: request.id,
        channel,
        ts: posted.ts,
        userId,
        kind: 'batch',
        postedAt: at,
      });
      dm = { channel, ts: posted.ts };
    } else dm = await postedElsewhere(ctx, request.id);
  }
  // Edited once more after a post: the batch may have moved on while it was being posted.
  await ctx.web.chat.update({ channel: dm.channel, ts: dm.ts, ...(await render()) });
}

async function batchDmOf(ctx: BatchShowContext, requestId: string) {
  return (await ctx.store.requestDms(requestId)).find((d) => d.kind === 'batch');
}

/** The batch's message another run claimed, once it is recorded; thrown when it takes too long. */
async function postedElsewhere(ctx: BatchShowContext, requestId: string) {
  for (const deadline = Date.now() + POSTING_WAIT_MS; Date.now() < deadline; ) {
    await sleep(100);
    const dm = await batchDmOf(ctx, requestId);
    if (dm !== undefined) return dm;
  }
  throw new BatchMessagePosting();
}

/**
 * The `onBatchProgress` hook: the batch's message brought up to date, at most once per
 * `intervalMs` across every running batch (`chat.update` is Slack's Tier 3, about 50 a minute), the
 * latest counts winning. Best effort: the end is shown by the notifier, from the outbox.
 */
export function batchProgress(
  ctx: BatchShowContext,
  intervalMs: number,
): (request: OperationRequest) => void {
  const due = new Set<string>();
  let nextSlot = 0;
  return (request) => {
    if (due.has(request.id)) return;
    due.add(request.id);
    const slot = Math.max(Date.now(), nextSlot);
    nextSlot = slot + intervalMs;
    setTimeout(async () => {
      due.delete(request.id);
      try {
        const now = await ctx.ops.getRequest(request.id);
        if (now !== null) await showBatch(ctx, now);
      } catch (error) {
        if (error instanceof BatchMessagePosting) return;
        ctx.logger.warn({ err: error, requestId: request.id }, 'could not show a batch’s progress');
      }
    }, slot - Date.now()).unref();
  };
}

/** How a confirmed batch went, as its preview is replaced: refused, waiting for a lead, or its message. */
async function confirmedReply(ctx: AppContext, who: Who, result: SubmitResult): Promise<SlackMessage> {
  const t = who.lang.t.batch;
  if (result.kind === 'denied') return problemMessage(t.batchDenied(reasonIn(who.lang, result)));
  const id = ltr(who.lang, `*${result.request.id}*`);
  if (result.kind === 'pending') {
    const text = t.batchPending(id, `<#${ctx.config.approvalChannel}>`);
    return withBreakGlassOffer(
      { text, blocks: [section(`:hourglass_flowing_sand: ${text}`)] },
      result,
      who.lang,
    );
  }
  return batchMessage(result.request, await ctx.ops.batchSteps(result.request.id), who.lang);
}

/** What Confirm and Cancel work with: the drafts, and the services that ask for the batch. */
export interface BatchDeps {
  drafts: Drafts;
  ops: Pick<Operations, 'prepare' | 'submit'>;
}

/**
 * Confirm of a preview: its draft taken once (only by who was shown it), then exactly its list
 * asked for as one batch; null, asking nothing, when the draft is gone (confirmed or cancelled
 * already, expired, someone else's, forged).
 */
export async function confirmBatch(
  deps: BatchDeps,
  actor: Actor,
  draftId: string,
): Promise<SubmitResult | null> {
  const taken = await deps.drafts.take(
    { draftId, userId: actor.id, kind: CALLBACKS.batchPreview },
    BatchDraftSchema,
  );
  if (!taken.ok) return null;
  const prepared = await deps.ops.prepare(actor, {
    kind: unblockMany.name,
    mobileNumbers: taken.value.numbers,
  });
  return deps.ops.submit(actor, prepared);
}

/** Cancel of a preview: its draft taken once, nothing asked; false when it was gone already. */
export async function cancelBatch(deps: Pick<BatchDeps, 'drafts'>, userId: string, draftId: string) {
  const taken = await deps.drafts.take({ draftId, userId, kind: CALLBACKS.batchPreview }, BatchDraftSchema);
  return taken.ok;
}

/** A click on a batch button, read: who clicked, in which language, and the value. */
async function clickOf(ctx: AppContext, body: object) {
  const click = ClickSchema.parse(body);
  const person = personOf(ctx, body, { id: click.user.id, name: click.user.name ?? click.user.username });
  return { person, value: click.actions[0]?.value ?? '' };
}

/** Says `message` privately to who clicked, beside what they clicked (`replace`: instead of it). */
async function answer(ctx: AppContext, respond: RespondFn, message: SlackMessage, replace = false) {
  checkBlockKit(ctx, message, 'message');
  await respond({ response_type: 'ephemeral', replace_original: replace, ...message });
}

/** The batch named by a button's value (`R-…`, or `R-…:index` for History), or what to say. */
async function batchOf(ctx: AppContext, value: string, lang: Lang) {
  const request = await ctx.ops.getRequest(value.split(':')[0] ?? '');
  if (request === null || request.operation !== unblockMany.name) return null;
  return { request, steps: await ctx.ops.batchSteps(request.id), lang };
}

/** Confirm and Cancel of a preview, and Retry the failed and History of a batch's message. */
export function registerBatchActions(routes: SlackRoutes, ctx: AppContext): void {
  routes.action(ACTIONS.batchConfirm, async ({ ack, body, respond }) => {
    await ack();
    const { person, value } = await clickOf(ctx, body);
    const who = await person.who();
    let reply: SlackMessage;
    try {
      const result = await confirmBatch(ctx, who.actor, value);
      // Gone: said beside what was clicked, which stays as it is.
      if (result === null) return answer(ctx, respond, problemMessage(who.lang.t.batch.batchGone));
      reply = await confirmedReply(ctx, who, result);
    } catch (error) {
      reply = problemMessage(problemText(ctx, error, 'a batch of unblocks', who.lang));
    }
    await answer(ctx, respond, reply, true);
  });

  routes.action(ACTIONS.batchCancel, async ({ ack, body, respond }) => {
    await ack();
    const { person, value } = await clickOf(ctx, body);
    const lang = await person.lang();
    const cancelled = await cancelBatch(ctx, person.id, value);
    const t = lang.t.batch;
    await answer(
      ctx,
      respond,
      problemMessage(cancelled ? t.batchCancelled : t.batchGone, ':wastebasket:'),
      cancelled,
    );
  });

  routes.action(ACTIONS.batchRetry, async ({ ack, body, respond }) => {
    await ack();
    const { person, value } = await clickOf(ctx, body);
    const who = await person.who();
    const t = who.lang.t.batch;
    const batch = await batchOf(ctx, value, who.lang);
    if (batch === null) return answer(ctx, respond, problemMessage(t.batchNotBatch));
    const failed = failedNumbers(batch.steps);
    if (failed.length === 0)
      return answer(ctx, respond, problemMessage(t.batchNothingFailed, ':white_check_mark:'));
    // A new batch of exactly those numbers, through the same preview, Confirm and policy.
    await answer(ctx, respond, await batchPreviewReply(ctx, who, listOf(failed)));
  });

  routes.action(ACTIONS.batchHistory, async ({ ack, body, respond }) => {
    await ack();
    const { person, value } = await clickOf(ctx, body);
    const lang = await person.lang();
    const batch = await batchOf(ctx, value, lang);
    const index = Number(value.split(':')[1] ?? Number.NaN);
    const step = batch?.steps.find((s) => s.index === index);
    if (step === undefined) return answer(ctx, respond, problemMessage(lang.t.batch.batchNotBatch));
    await answer(ctx, respond, viewerHistoryMessage(await ctx.ops.viewerHistory(step.mobileNumber), lang));
  });
}
