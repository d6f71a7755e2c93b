import type { App, RespondFn, SlashCommand } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { SLASH_COMMAND, usageOf } from '../core/commands-help.js';
import { InputError, PolicyDeniedError } from '../core/errors.js';
import { type Command, type ParseResult, parseCommand } from '../core/grammar.js';
import { newEventId } from '../core/ids.js';
import type { Actor } from '../core/model.js';
import { isAgent } from '../core/policy.js';
import type { Operations } from '../services/types.js';
import { commandLabel } from '../slack/app.js';
import { type CommandOutcome, countOwnOutcome } from '../slack/metrics.js';
import { createSlackRoutes } from '../slack/routes.js';
import { describeError } from '../views/errors.js';
import {
  busyMessage,
  maskValidMobiles,
  notAllowedMessage,
  parseErrorMessage,
  problemMessage,
  unavailableMessage,
} from '../views/everyday.js';
import { changeHandlers, registerChangeActions } from './changes.js';
import {
  type AppContext,
  checkBlockKit,
  errorViewOptions,
  resolveActor,
  respondChecked,
  type SlashHandler,
} from './context.js';
import { everydayHandlers, registerEverydayActions } from './everyday.js';

/**
 * The `/vidops` router: acknowledge at once, then parse, check that the caller is an agent, and
 * hand the typed command to its handler. Everything after `ack()` may wait on Slack or upstream.
 * @see docs/architecture.md, "Slash command grammar"; docs/slack.md, "Deadlines"
 */

export type SlashHandlers = Partial<Record<Command['kind'], SlashHandler>>;

/** The polite refusal's reason, as recorded in the audit log. */
const NOT_AN_AGENT = 'not one of the agents allowed to use vidops (AGENTS)';

/** What a refused command was about, for the `denied` audit event. */
function deniedSubject(parsed: ParseResult, text: string): { operation: string; target: string } {
  if (!parsed.ok) return { operation: 'command', target: SLASH_COMMAND };
  const { command } = parsed;
  switch (command.kind) {
    case 'unblock':
      return { operation: 'viewer.unblock', target: `viewer ${command.mobile.param}` };
    case 'retry':
      return { operation: 'file.retry', target: `file ${command.fileId}` };
    case 'whitelist.show':
      return { operation: 'whitelist.get', target: 'whitelist' };
    case 'protect.show':
      return { operation: 'protect.get', target: 'protection settings' };
    default:
      return {
        operation: command.kind,
        target: `${SLASH_COMMAND} ${text.trim().split(/\s+/)[0] ?? ''}`.trim(),
      };
  }
}

/** Records a refusal that changes no request: who, what they typed, and why. */
async function auditRefusal(
  ctx: AppContext,
  actor: Actor,
  subject: { operation: string; target: string },
  text: string,
  reason: string,
): Promise<void> {
  await ctx.store.appendAudit([
    {
      id: newEventId(),
      type: 'denied',
      at: ctx.clock().toISOString(),
      actor,
      operation: subject.operation,
      target: subject.target,
      params: { command: SLASH_COMMAND, text },
      requestId: null,
      outcome: { action: 'command', reason },
      error: null,
    },
  ]);
}

/**
 * Registers `/vidops` with the merged handlers (the change module's win over the everyday ones
 * for the same command, so it can take over a command without touching this file).
 */
export function registerSlashCommand(
  app: App,
  ctx: AppContext,
  handlers: SlashHandlers = { ...everydayHandlers, ...changeHandlers },
): void {
  // The same answer every time: built and checked once, not on every request of a flood.
  const busy = { response_type: 'ephemeral' as const, ...busyMessage() };
  checkBlockKit(ctx, busy, 'message');
  app.command(SLASH_COMMAND, async ({ command: body, ack, respond, client, context }) => {
    const label = commandLabel(body);
    // Counted here once it has run: at the ack, a command that will be denied looks like any other.
    countOwnOutcome(context);
    if (ctx.work.isFull()) {
      // Answered in the ack itself: no Slack call, nothing queued, nothing done.
      ctx.work.turnedAway(label);
      ctx.metrics.countCommand(label, 'busy');
      await ack(busy);
      return;
    }
    await ack();
    ctx.work.push(label, async () => {
      let outcome: CommandOutcome = 'error';
      try {
        outcome = await runCommand(ctx, handlers, { body, respond, client });
      } finally {
        ctx.metrics.countCommand(label, outcome);
      }
    });
  });
}

/**
 * The operations as a handler sees them, noting when the policy refuses the person (a `denied`
 * submit, a refused `audit`): the services have audited the refusal, and the command counts as
 * denied.
 */
function noticingDenials(ops: Operations, denied: () => void): Operations {
  return {
    ...ops,
    async submit(actor, prepared, options) {
      const result = await ops.submit(actor, prepared, options);
      if (result.kind === 'denied') denied();
      return result;
    },
    async recentAudit(actor, n) {
      try {
        return await ops.recentAudit(actor, n);
      } catch (error) {
        if (error instanceof PolicyDeniedError) denied();
        throw error;
      }
    },
  };
}

/** Everything after the ack: parse, check the caller, run the handler, answer; says how it ended. */
async function runCommand(
  ctx: AppContext,
  handlers: SlashHandlers,
  args: { body: SlashCommand; respond: RespondFn; client: WebClient },
): Promise<CommandOutcome> {
  const { body, respond, client } = args;
  const parsed = parseCommand(body.text, {
    phoneRegion: ctx.config.phoneRegion,
    phoneRegions: ctx.config.phoneRegions,
  });
  const { actor, groups } = await resolveActor(ctx, body.user_id, body.user_name);

  if (!isAgent(ctx.policy, { id: actor.id, groups })) {
    ctx.logger.info({ user: actor.id }, 'refused a command from someone outside AGENTS');
    await auditRefusal(ctx, actor, deniedSubject(parsed, body.text), body.text, NOT_AN_AGENT);
    await respondChecked(ctx, respond, notAllowedMessage());
    return 'denied';
  }

  if (!parsed.ok) {
    // The message says what was read; a valid number inside it is still masked.
    const message = maskValidMobiles(parsed.message, ctx.config.phoneRegion);
    await respondChecked(ctx, respond, parseErrorMessage(message, parsed.usage));
    return 'invalid';
  }

  const { command, warnings } = parsed;
  const handler = handlers[command.kind];
  if (handler === undefined) {
    await respondChecked(ctx, respond, unavailableMessage(usageFor(command)));
    return 'invalid';
  }
  let denied = false;
  const watched: AppContext = {
    ...ctx,
    ops: noticingDenials(ctx.ops, () => {
      denied = true;
    }),
  };
  try {
    await handler({ command, warnings, body, respond, client, actor, ctx: watched });
  } catch (error) {
    const view = describeError(error, errorViewOptions(ctx));
    await respondChecked(ctx, respond, problemMessage(view.text));
    // Expected failures (bad input, upstream down) are answered; ours are also logged by the queue.
    if (!view.expected) throw error;
    if (denied || error instanceof PolicyDeniedError) return 'denied';
    return error instanceof InputError ? 'invalid' : 'error';
  }
  return denied ? 'denied' : 'ok';
}

/** The usage line of a command kind: `whitelist.add` → `/vidops whitelist add <ip>…`. */
function usageFor(command: Command): string {
  const words = command.kind.replace('.', ' ').replace(/ modal$/, '');
  try {
    return usageOf(words);
  } catch {
    return `${SLASH_COMMAND} ${words}`;
  }
}

/**
 * Registers everything vidops answers in Slack: the slash command, the everyday buttons and
 * modals, and the change module's actions.
 */
export function registerVidopsHandlers(app: App, ctx: AppContext): void {
  registerSlashCommand(app, ctx);
  const routes = createSlackRoutes(app);
  registerEverydayActions(routes, ctx);
  registerChangeActions(routes, ctx);
}
