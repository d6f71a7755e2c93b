import type { App, SlashCommand } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { SLASH_COMMAND } from '../core/commands-help.js';
import { InputError, PolicyDeniedError } from '../core/errors.js';
import { type CommandKind, parseCommand, unblockListOf } from '../core/grammar.js';
import { redactError } from '../core/mask.js';
import type { Lang } from '../i18n/index.js';
import type { Operations } from '../services/types.js';
import { commandLabel } from '../slack/app.js';
import { RespondError } from '../slack/bolt.js';
import { type CommandOutcome, settleOutcome } from '../slack/metrics.js';
import type { Respond } from '../slack/response-url.js';
import { createSlackRoutes } from '../slack/routes.js';
import { describeError } from '../views/errors.js';
import { busyMessage, parseErrorMessage, problemMessage, refusalText } from '../views/everyday.js';
import { batchPreviewReply, registerBatchActions } from './batch.js';
import { changeHandlers, registerChangeActions, typedHandlers } from './changes.js';
import {
  type AppContext,
  checkBlockKit,
  errorViewOptions,
  personOf,
  respondChecked,
  type SlashHandler,
} from './context.js';
import { everydayHandlers, registerEverydayActions } from './everyday.js';
import { actorGate } from './gate.js';
import { languageHandlers } from './lang.js';
import { registerShortcuts } from './shortcuts.js';

/**
 * The `/vidops` router: acknowledge at once, then parse and hand the typed command to its
 * handler. Whether the caller is an agent was checked before (./gate.ts, for every request a
 * person sends). Everything after `ack()` may wait on Slack or upstream.
 * @see docs/architecture.md, "Slash command grammar"; docs/slack.md, "Deadlines"
 */

/** A handler for every command kind of the grammar: a command without one is a type error. */
export type SlashHandlers = Readonly<Record<CommandKind, SlashHandler>>;

/**
 * The "busy" answer given before Bolt (HTTP mode): a slash command that arrives while the work
 * queue is full is turned away by the receiver, counted as `busy`, with nothing recorded or run.
 * The listener below checks again for what gets past (Socket Mode, a queue that filled meanwhile).
 */
export function busyShed(ctx: AppContext): (body: Record<string, unknown>) => object | null {
  const busy = { response_type: 'ephemeral' as const, ...busyMessage(ctx.languages.fallback) };
  checkBlockKit(ctx, busy, 'message');
  return (body) => {
    if (typeof body.command !== 'string' || !ctx.work.isFull()) return null;
    const label = commandLabel(body);
    ctx.work.turnedAway(label);
    ctx.metrics.countCommand(label, 'busy');
    return busy;
  };
}

/**
 * Registers `/vidops` with the merged handlers (the change module's win over the everyday ones
 * for the same command, so it can take over a command without touching this file).
 */
export function registerSlashCommand(
  app: App,
  ctx: AppContext,
  handlers: SlashHandlers = { ...typedHandlers, ...everydayHandlers, ...languageHandlers, ...changeHandlers },
): void {
  // The same answer every time: built and checked once, not on every request of a flood (so in
  // DEFAULT_LOCALE: finding out who reads which language could wait on Slack).
  const busy = { response_type: 'ephemeral' as const, ...busyMessage(ctx.languages.fallback) };
  checkBlockKit(ctx, busy, 'message');
  app.command(SLASH_COMMAND, async ({ command: body, ack, client, context }) => {
    const label = commandLabel(body);
    if (ctx.work.isFull()) {
      // Answered in the ack itself: no Slack call, nothing queued, nothing done.
      ctx.work.turnedAway(label);
      settleOutcome(context, 'busy');
      await ack(busy);
      return;
    }
    await ack();
    // Not Bolt's `respond` (global fetch): the same post at half the CPU (../slack/response-url.ts).
    const respond = orPrivately(ctx, ctx.respondTo(body.response_url), client, body);
    // Counted once it has run: at the ack, a command that will be denied looks like any other.
    let ended: (outcome: CommandOutcome) => void = () => {};
    settleOutcome(context, new Promise<CommandOutcome>((resolve) => (ended = resolve)));
    ctx.work.push(label, async () => {
      let outcome: CommandOutcome = 'error';
      try {
        outcome = await runCommand(ctx, handlers, { body, respond, client });
      } finally {
        ended(outcome);
      }
    });
  });
}

/**
 * The operations as a handler sees them, noting how a change it submitted ended: refused by the
 * policy (a `denied` submit, a refused `audit`: the services have audited the refusal), or run
 * and failed or left unknown by the service. The handler answers the person either way; the
 * command is counted as `denied` or `error` instead of `ok`.
 */
function noticingOutcomes(ops: Operations, noted: (outcome: 'denied' | 'error') => void): Operations {
  return {
    ...ops,
    async submit(actor, prepared, options) {
      const result = await ops.submit(actor, prepared, options);
      if (result.kind === 'denied') noted('denied');
      else if (result.kind === 'executed' && result.request.state !== 'succeeded') noted('error');
      return result;
    },
    async recentAudit(actor, n) {
      try {
        return await ops.recentAudit(actor, n);
      } catch (error) {
        if (error instanceof PolicyDeniedError) noted('denied');
        throw error;
      }
    },
  };
}

/**
 * `respond`, or where Slack no longer takes posts at the command's `response_url` (used up, 30
 * minutes gone), the same message privately beside the command (`chat.postEphemeral`), and failing
 * that in a direct message: the person learns how their command ended whatever Slack said.
 */
function orPrivately(ctx: AppContext, respond: Respond, client: WebClient, body: SlashCommand): Respond {
  return async (message) => {
    try {
      return await respond(message);
    } catch (error) {
      if (!(error instanceof RespondError)) throw error;
      const said: { text?: string; blocks?: unknown } =
        typeof message === 'string' ? { text: message } : message;
      ctx.logger.warn({ err: redactError(error) }, 'response_url refused the reply; sent privately instead');
      const text = said.text ?? '';
      const content = Array.isArray(said.blocks) ? { text, blocks: said.blocks as KnownBlock[] } : { text };
      try {
        return await client.chat.postEphemeral({ channel: body.channel_id, user: body.user_id, ...content });
      } catch {
        const dm = await client.conversations.open({ users: body.user_id });
        return await client.chat.postMessage({ channel: dm.channel?.id ?? body.user_id, ...content });
      }
    }
  };
}

/** Everything after the ack (the gate has checked the caller): parse, run the handler, answer; says how it ended. */
async function runCommand(
  ctx: AppContext,
  handlers: SlashHandlers,
  args: { body: SlashCommand; respond: Respond; client: WebClient },
): Promise<CommandOutcome> {
  const { body, respond, client } = args;
  const options = { phoneRegion: ctx.config.phoneRegion, phoneRegions: ctx.config.phoneRegions };
  // Who typed it, with their groups and language: the gate may have begun it; nobody asks again.
  const person = personOf(ctx, body, { id: body.user_id, name: body.user_name });
  // Several numbers after `unblock`: shown as read, with Confirm; nothing is sent yet.
  const list = unblockListOf(body.text, options);
  if (list !== null) {
    const who = await person.who();
    return runHandler(ctx, respond, who.lang, async () =>
      respondChecked(ctx, respond, await batchPreviewReply(ctx, who, list)),
    );
  }
  const parsed = parseCommand(body.text, options);

  if (!parsed.ok) {
    // The message says what was read; a valid number inside it is still masked.
    const lang = await person.lang();
    const message = refusalText(parsed.said, ctx.config.phoneRegion, lang);
    await respondChecked(ctx, respond, parseErrorMessage(message, parsed.usage, lang));
    return 'invalid';
  }

  const { actor, lang } = await person.who();
  const { command, warnings } = parsed;
  const handler = handlers[command.kind];
  let denied = false;
  let failed = false;
  const watched: AppContext = {
    ...ctx,
    ops: noticingOutcomes(ctx.ops, (outcome) => {
      if (outcome === 'denied') denied = true;
      else failed = true;
    }),
  };
  const ran = await runHandler(ctx, respond, lang, () =>
    handler({ command, warnings, body, respond, client, actor, lang, ctx: watched }),
  );
  if (ran !== 'ok') return denied ? 'denied' : ran;
  return denied ? 'denied' : failed ? 'error' : 'ok';
}

/** Runs a command's work; a failure is answered to the person in their language and says how it ended. */
async function runHandler(
  ctx: AppContext,
  respond: Respond,
  lang: Lang,
  run: () => Promise<void>,
): Promise<CommandOutcome> {
  try {
    await run();
  } catch (error) {
    const view = describeError(error, errorViewOptions(ctx, lang));
    await respondChecked(ctx, respond, problemMessage(view.text));
    // Expected failures (bad input, upstream down) are answered; ours are also logged by the queue.
    if (!view.expected) throw error;
    if (error instanceof PolicyDeniedError) return 'denied';
    return error instanceof InputError ? 'invalid' : 'error';
  }
  return 'ok';
}

/**
 * Registers everything vidops answers in Slack: first the check of who may act, which every
 * request passes before any handler; then the slash command, the everyday buttons and modals,
 * the change module's actions, and the shortcuts.
 */
export function registerVidopsHandlers(app: App, ctx: AppContext): void {
  app.use(actorGate(ctx));
  registerSlashCommand(app, ctx);
  const routes = createSlackRoutes(app);
  registerEverydayActions(routes, ctx);
  registerChangeActions(routes, ctx);
  registerBatchActions(routes, ctx);
  registerShortcuts(app, routes, ctx);
}
