import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { COMMAND_HELP, type CommandHelp } from '../core/commands-help.js';
import type { CommandKind } from '../core/grammar.js';
import { isChangeOperation } from '../core/operations.js';
import { explainCode, PLAYER_ERROR_CODES } from '../core/player-errors.js';
import { isAgent, isLead, mayRun, type Policy, type PolicyActor } from '../core/policy.js';
import { type Said, say } from '../core/said.js';
import { parseResourceId } from '../core/validate/ids.js';
import { parseMobile } from '../core/validate/phone.js';
import { parseNumberList } from '../core/validate/phone-list.js';
import type { Lang } from '../i18n/index.js';
import { spec as fileRetry } from '../operations/file-retry/spec.js';
import { spec as viewerUnblock } from '../operations/viewer-unblock/spec.js';
import type { SubmitResult } from '../services/types.js';
import type { SlackRoutes } from '../slack/routes.js';
import { section } from '../views/blocks.js';
import { describeRecordedError, reasonIn, sayIn } from '../views/errors.js';
import {
  type ChangeOutcome,
  explainMessage,
  helpMessage,
  type Message,
  problemMessage,
  protectionMessage,
  refusalText,
  retryMessage,
  retryModal,
  unblockMessage,
  unblockModal,
  unknownCodeMessage,
  whitelistMessage,
} from '../views/everyday.js';
import { ACTIONS, BLOCKS, CALLBACKS, INPUT_ACTION } from '../views/ids.js';
import { messageModal } from '../views/modals/common.js';
import { unblockManyModal } from '../views/modals/unblock-many.js';
import { historyButton, repeatLines, viewerHistoryMessage } from '../views/viewer-history.js';
import { batchPreviewReply } from './batch.js';
import { withBreakGlassOffer } from './changes/break-glass.js';
import { readRequestClick } from './changes/clicks.js';
import {
  type AppContext,
  checkBlockKit,
  errorViewOptions,
  mergeWarnings,
  personOf,
  problemText,
  respondChecked,
  type SlashHandler,
  type Who,
} from './context.js';

/**
 * The agent's everyday commands: help, unblock, retry, whitelist, protect show and explain, and
 * the two modals `explain` opens. Each handler runs after the router acknowledged and parsed
 * the command: service → view → one `respond()`.
 * @see docs/architecture.md, "Slash command grammar"
 */

/** Whether `/vidops help` lists this command for this person. */
function mayList(policy: Policy, entry: CommandHelp, who: PolicyActor): boolean {
  if (entry.leadsOnly) return mayRun(policy, 'audit', who);
  if (entry.operation !== null && isChangeOperation(entry.operation)) {
    return mayRun(policy, entry.operation, who);
  }
  return isAgent(policy, who);
}

/** How a submitted change ended, for the views. */
function outcomeOf(ctx: AppContext, result: SubmitResult, lang: Lang): ChangeOutcome {
  switch (result.kind) {
    case 'denied':
      return { kind: 'denied', reason: reasonIn(lang, result) };
    case 'pending':
      return {
        kind: 'pending',
        requestId: result.request.id,
        why: result.why,
        approvalChannel: ctx.config.approvalChannel,
      };
    case 'executed': {
      const { request } = result;
      if (request.state === 'succeeded') {
        return { kind: 'succeeded', requestId: request.id, answer: request.result };
      }
      if (request.state === 'failed' && request.error !== null) {
        return {
          kind: 'failed',
          requestId: request.id,
          error: describeRecordedError(request.error, errorViewOptions(ctx, lang)),
        };
      }
      return { kind: 'other', requestId: request.id, state: request.state };
    }
  }
}

/**
 * Unblocks a viewer (look-up first, when the service supports it) and says how it went.
 * Shared by `/vidops unblock` and the modal of `explain 9910`.
 */
export async function unblockReply(
  ctx: AppContext,
  { actor, lang }: Who,
  mobile: { param: string; masked: string },
): Promise<Message> {
  const prepared = await ctx.ops.prepare(actor, { kind: viewerUnblock.name, mobileNumber: mobile.param });
  const { blocked, actionType } = prepared.preview;
  const viewer = { blocked, actionType };
  const result = await ctx.ops.submit(actor, prepared);
  const message = unblockMessage({
    masked: mobile.masked,
    viewer,
    warnings: prepared.warnings,
    outcome: outcomeOf(ctx, result, lang),
    secrets: errorViewOptions(ctx).secrets ?? [],
    lang,
  });
  return withBreakGlassOffer(withHistory(message, result, lang), result, lang);
}

/** An unblock's reply with why a repeat waits for a lead, and its History button. */
function withHistory(message: Message, result: SubmitResult, lang: Lang): Message {
  if (result.kind === 'denied' || result.request.operation !== viewerUnblock.name) return message;
  const { request } = result;
  const repeat = request.preview?.repeat;
  const why =
    repeat === undefined ? [] : [section(repeatLines(lang, request.params.mobileNumber, repeat).join('\n'))];
  return { ...message, blocks: [...message.blocks, ...why, historyButton(lang, request.id)] };
}

/**
 * Queues a failed conversion again after showing the file's title and status; `prepare` refuses
 * a file that converted already or is still queued. Shared by `/vidops retry` and `explain 9101`.
 */
export async function retryReply(
  ctx: AppContext,
  { actor, lang }: Who,
  fileId: string,
  parseWarnings: readonly Said[] = [],
): Promise<Message> {
  const prepared = await ctx.ops.prepare(actor, { kind: fileRetry.name, fileId });
  const file = prepared.preview;
  const result = await ctx.ops.submit(actor, prepared);
  return withBreakGlassOffer(
    retryMessage({
      fileId,
      title: file.title,
      status: file.hlsStatus,
      warnings: mergeWarnings(parseWarnings, prepared.warnings),
      outcome: outcomeOf(ctx, result, lang),
      secrets: errorViewOptions(ctx).secrets ?? [],
      lang,
    }),
    result,
    lang,
  );
}

const help: SlashHandler = async ({ ctx, actor, lang, respond }) => {
  const entries = COMMAND_HELP.filter((entry) => mayList(ctx.policy, entry, actor));
  await respondChecked(ctx, respond, helpMessage(entries, { isLead: isLead(ctx.policy, actor) }, lang));
};

const unblock: SlashHandler = async ({ command, ctx, actor, lang, respond }) => {
  if (command.kind !== 'unblock') return;
  await respondChecked(ctx, respond, await unblockReply(ctx, { actor, lang }, command.mobile));
};

const retry: SlashHandler = async ({ command, warnings, ctx, actor, lang, respond }) => {
  if (command.kind !== 'retry') return;
  await respondChecked(ctx, respond, await retryReply(ctx, { actor, lang }, command.fileId, warnings));
};

const whitelistShow: SlashHandler = async ({ ctx, lang, respond }) => {
  const ips = await ctx.ops.whitelist();
  await respondChecked(ctx, respond, whitelistMessage(ips, lang));
};

const protectShow: SlashHandler = async ({ ctx, lang, respond }) => {
  const { raw, ...config } = await ctx.ops.protection();
  await respondChecked(ctx, respond, protectionMessage(config, raw, lang));
};

const viewer: SlashHandler = async ({ command, ctx, lang, respond }) => {
  if (command.kind !== 'viewer') return;
  const history = await ctx.ops.viewerHistory(command.mobile.param);
  await respondChecked(ctx, respond, viewerHistoryMessage(history, lang));
};

const explain: SlashHandler = async ({ command, ctx, lang, respond }) => {
  if (command.kind !== 'explain') return;
  const explanation = explainCode(command.code);
  await respondChecked(
    ctx,
    respond,
    explanation === null
      ? unknownCodeMessage(command.code, PLAYER_ERROR_CODES, lang)
      : explainMessage(explanation, lang),
  );
};

/**
 * The everyday handlers by command kind; the router merges them with the change module's.
 * `requests`, `audit` and the change commands live in `changes.ts`.
 */
export const everydayHandlers = {
  help,
  unblock,
  viewer,
  retry,
  'whitelist.show': whitelistShow,
  'protect.show': protectShow,
  explain,
} satisfies Partial<Record<CommandKind, SlashHandler>>;

/** What a modal opened from an ephemeral message carries: where to answer. */
const ModalMetadataSchema = z.strictObject({
  responseUrl: z.string().optional(),
  channelId: z.string().optional(),
});
type ModalMetadata = z.infer<typeof ModalMetadataSchema>;

function readMetadata(text: string): ModalMetadata {
  try {
    const parsed = ModalMetadataSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

const ViewValuesSchema = z.record(
  z.string(),
  z.record(z.string(), z.looseObject({ value: z.string().nullish() })),
);

/** The text typed into the input of block `blockId` (empty when none). */
function typedValue(values: unknown, blockId: string): string {
  const parsed = ViewValuesSchema.safeParse(values);
  if (!parsed.success) return '';
  return parsed.data[blockId]?.[INPUT_ACTION]?.value ?? '';
}

/**
 * Only Slack's own response URLs (or those of the configured Slack API host, in tests and behind
 * proxies) are posted to: the metadata comes back from Slack, but a URL is never trusted blindly.
 */
function isSlackResponseUrl(ctx: AppContext, url: string): boolean {
  try {
    const target = new URL(url);
    if (target.protocol === 'https:' && target.hostname === 'hooks.slack.com') return true;
    const api = ctx.config.slack.apiUrl;
    return api !== undefined && new URL(api).origin === target.origin;
  } catch {
    return false;
  }
}

/**
 * Answers the person who submitted a modal: through the response URL of the message they
 * clicked (ephemeral, where they were), else in a direct message from the app.
 */
async function deliver(
  ctx: AppContext,
  web: WebClient,
  meta: ModalMetadata,
  userId: string,
  message: Message,
): Promise<void> {
  checkBlockKit(ctx, message, 'message');
  if (meta.responseUrl !== undefined && isSlackResponseUrl(ctx, meta.responseUrl)) {
    const response = await fetch(meta.responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, ...message }),
      signal: AbortSignal.timeout(10_000),
    });
    if (response.ok) return;
    ctx.logger.warn({ status: response.status }, 'response URL refused the answer; sending a direct message');
  }
  await web.chat.postMessage({ channel: userId, text: message.text, blocks: message.blocks });
}

/** Runs a modal's change and turns any failure into the message the person reads. */
async function replyOrProblem(ctx: AppContext, lang: Lang, run: () => Promise<Message>): Promise<Message> {
  try {
    return await run();
  } catch (error) {
    return problemMessage(problemText(ctx, error, 'an everyday modal', lang));
  }
}

/**
 * The buttons of `explain` and the modals they open: 9910 asks for the viewer's number and
 * unblocks, 9101/9103 ask for the file ID and retry.
 * @see docs/architecture.md, "Slash command grammar" (`explain`)
 */
export function registerEverydayActions(routes: SlackRoutes, ctx: AppContext): void {
  const openModal = (build: (meta: string, lang: Lang) => ReturnType<typeof unblockModal>) =>
    async function open(args: {
      ack: () => Promise<void>;
      body: {
        trigger_id?: string;
        response_url?: string;
        channel?: { id: string } | undefined;
        user: { id: string };
      };
      client: WebClient;
    }): Promise<void> {
      await args.ack();
      const meta: ModalMetadata = {
        ...(args.body.response_url ? { responseUrl: args.body.response_url } : {}),
        ...(args.body.channel?.id ? { channelId: args.body.channel.id } : {}),
      };
      const lang = await personOf(ctx, args.body, args.body.user).lang();
      const view = build(JSON.stringify(meta), lang);
      checkBlockKit(ctx, { view }, 'modal');
      if (!args.body.trigger_id) return;
      await args.client.views.open({ trigger_id: args.body.trigger_id, view });
    };

  routes.action(ACTIONS.explainUnblock, async ({ ack, body, client }) => {
    if (body.type !== 'block_actions') return ack();
    await openModal(unblockModal)({ ack, body, client });
  });

  routes.action(ACTIONS.viewerHistory, async ({ ack, body, respond }) => {
    await ack();
    const read = await readRequestClick(ctx, { body, respond, client: ctx.web });
    if (read === null) return;
    const request = await ctx.ops.getRequest(read.id);
    const t = read.lang.t.viewers;
    let message: Message;
    if (request === null) message = { text: t.vwGone, blocks: [section(t.vwGone)] };
    else if (request.operation !== viewerUnblock.name)
      message = { text: t.vwNotViewer, blocks: [section(t.vwNotViewer)] };
    else message = viewerHistoryMessage(await ctx.ops.viewerHistory(request.params.mobileNumber), read.lang);
    // Clicked in a modal (the Unblock viewer shortcut's list): no response URL, shown over the list.
    if (read.click.view?.type === 'modal' && read.click.trigger_id !== undefined) {
      const view = messageModal(t.vwHistoryButton, message, read.lang);
      checkBlockKit(ctx, { view }, 'modal');
      await ctx.web.views.push({ trigger_id: read.click.trigger_id, view });
      return;
    }
    checkBlockKit(ctx, message, 'message');
    await respond({ response_type: 'ephemeral', replace_original: false, ...message });
  });

  routes.action(ACTIONS.unblockManyOpen, async ({ ack, body, client }) => {
    if (body.type !== 'block_actions') return ack();
    await openModal(unblockManyModal)({ ack, body, client });
  });

  // Unblock many: the pasted list read before the form closes; the preview, with Confirm, after.
  routes.view(CALLBACKS.unblockMany, async ({ ack, body, view, client }) => {
    const list = parseNumberList(typedValue(view.state.values, BLOCKS.mobileList), ctx.config.phoneRegion, {
      regions: ctx.config.phoneRegions,
    });
    const person = personOf(ctx, body, body.user);
    if (list.numbers.length === 0) {
      const lang = await person.lang();
      const first = list.refused[0];
      const why = first === undefined ? '' : ` ${refusalText(first.said, ctx.config.phoneRegion, lang)}`;
      await ack({
        response_action: 'errors',
        errors: { [BLOCKS.mobileList]: `${lang.t.batch.batchNone}${why}` },
      });
      return;
    }
    await ack();
    ctx.work.push('unblock many modal', async () => {
      const who = await person.who();
      const message = await replyOrProblem(ctx, who.lang, () => batchPreviewReply(ctx, who, list));
      await deliver(ctx, client, readMetadata(view.private_metadata), person.id, message);
    });
  });

  routes.action(ACTIONS.explainRetry, async ({ ack, body, client }) => {
    if (body.type !== 'block_actions') return ack();
    await openModal(retryModal)({ ack, body, client });
  });

  routes.view(CALLBACKS.unblock, async ({ ack, body, view, client }) => {
    const typed = typedValue(view.state.values, BLOCKS.mobile);
    const mobile = parseMobile(typed, ctx.config.phoneRegion, { regions: ctx.config.phoneRegions });
    const person = personOf(ctx, body, body.user);
    if (!mobile.ok) {
      // Checked before the modal closes, so the person corrects it in place; nothing is sent.
      const lang = await person.lang();
      await ack({
        response_action: 'errors',
        errors: {
          [BLOCKS.mobile]: refusalText(say.modalNobodyUnblocked(mobile.said), ctx.config.phoneRegion, lang),
        },
      });
      return;
    }
    await ack();
    ctx.work.push('unblock modal', async () => {
      const who = await person.who();
      const message = await replyOrProblem(ctx, who.lang, () => unblockReply(ctx, who, mobile));
      await deliver(ctx, client, readMetadata(view.private_metadata), person.id, message);
    });
  });

  routes.view(CALLBACKS.retry, async ({ ack, body, view, client }) => {
    const typed = typedValue(view.state.values, BLOCKS.fileId).trim();
    const id = parseResourceId(typed, 'file');
    const person = personOf(ctx, body, body.user);
    if (!id.ok) {
      const lang = await person.lang();
      await ack({
        response_action: 'errors',
        errors: { [BLOCKS.fileId]: sayIn(lang, say.modalNothingRetried(id.said)) },
      });
      return;
    }
    await ack();
    ctx.work.push('retry modal', async () => {
      const who = await person.who();
      const warnings = id.warning === null ? [] : [id.warning];
      const message = await replyOrProblem(ctx, who.lang, () => retryReply(ctx, who, id.id, warnings));
      await deliver(ctx, client, readMetadata(view.private_metadata), person.id, message);
    });
  });
}
