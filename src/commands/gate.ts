import type { AllMiddlewareArgs, AnyMiddlewareArgs, Middleware, RespondFn } from '@slack/bolt';
import { z } from 'zod';
import { SLASH_COMMAND } from '../core/commands-help.js';
import { type ParseResult, parseCommand } from '../core/grammar.js';
import { redactError } from '../core/mask.js';
import type { Actor } from '../core/model.js';
import { isAgent } from '../core/policy.js';
import type { Lang } from '../i18n/lang.js';
import { settledWithin } from '../jobs/timeout.js';
import { spec as fileRetry } from '../operations/file-retry/spec.js';
import { spec as viewerUnblock } from '../operations/viewer-unblock/spec.js';
import { settleOutcome } from '../slack/metrics.js';
import { notAllowedMessage } from '../views/everyday.js';
import { homeNotAllowedView } from '../views/home.js';
import { statusModal } from '../views/modals/common.js';
import { type AppContext, checkBlockKit, type Person, personOf } from './context.js';

/**
 * Who may act, checked once for every request that comes from a person: the slash command, every
 * button and every modal submission. It runs before any handler, so before any upstream read or
 * store write; someone outside AGENTS gets a polite refusal where they acted and a `denied` event
 * in the audit log, and no handler runs. Events (the Home tab) pass: the Home tab of someone
 * outside AGENTS shows nothing of the team's (src/commands/changes/home.ts).
 * @see docs/architecture.md, "Approvals" (who may do what)
 */

/** The refusal's reason, as recorded in the audit log. */
export const NOT_AN_AGENT = 'not one of the agents allowed to use vidops (AGENTS)';

/**
 * How long the check may wait on Slack for user-group members (cached for minutes) before the
 * request is acknowledged anyway, as "try again": Slack wants the acknowledgement within 3 s.
 */
export const GATE_BUDGET_MS = 2000;

/** Which refusal the person reads: not on the team, or not checked in time. */
type Refusal = 'notAllowed' | 'checkLate';

/** What a refused person reads: not for them, or their access could not be checked in time. */
function refusalText(lang: Lang, refusal: Refusal): string {
  return refusal === 'checkLate' ? lang.t.everyday.checkLate : lang.t.everyday.notAllowed;
}

/** What the gate reads of a request: who sent it and what it was. Everything else is ignored. */
const CommandSchema = z.looseObject({
  command: z.string(),
  text: z.string(),
  user_id: z.string(),
  user_name: z.string().optional(),
});
const InteractiveSchema = z.looseObject({
  type: z.enum([
    'block_actions',
    'view_submission',
    'view_closed',
    'block_suggestion',
    'shortcut',
    'message_action',
  ]),
  user: z.looseObject({ id: z.string(), name: z.string().optional(), username: z.string().optional() }),
  actions: z
    .array(z.looseObject({ action_id: z.string().optional(), value: z.string().optional() }))
    .optional(),
  view: z.looseObject({ type: z.string().optional(), callback_id: z.string().optional() }).optional(),
  channel: z.looseObject({ id: z.string() }).nullish(),
  response_url: z.string().optional(),
  /** Shortcuts name themselves at the top level. */
  callback_id: z.string().optional(),
  trigger_id: z.string().optional(),
});
type Interaction =
  | { kind: 'command'; body: z.infer<typeof CommandSchema> }
  | { kind: 'interactive'; body: z.infer<typeof InteractiveSchema> };

function interactionOf(body: unknown): Interaction | null {
  const command = CommandSchema.safeParse(body);
  if (command.success) return { kind: 'command', body: command.data };
  const interactive = InteractiveSchema.safeParse(body);
  return interactive.success ? { kind: 'interactive', body: interactive.data } : null;
}

function userOf(interaction: Interaction): { id: string; name: string | undefined } {
  return interaction.kind === 'command'
    ? { id: interaction.body.user_id, name: interaction.body.user_name }
    : { id: interaction.body.user.id, name: interaction.body.user.name ?? interaction.body.user.username };
}

/** Any acknowledgement: Bolt's differ by kind only in what they may carry. */
type AnyAck = (response?: unknown) => Promise<void>;

/** What a refused command was about, for the `denied` audit event. */
function deniedSubject(parsed: ParseResult, text: string): { operation: string; target: string } {
  if (!parsed.ok) return { operation: 'command', target: SLASH_COMMAND };
  const { command } = parsed;
  switch (command.kind) {
    case 'unblock':
      return { operation: viewerUnblock.name, target: `viewer ${command.mobile.param}` };
    case 'retry':
      return { operation: fileRetry.name, target: `file ${command.fileId}` };
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

/** What the person did, for the audit log: the command typed, the button or the form. */
function subjectOf(
  ctx: AppContext,
  interaction: Interaction,
): { operation: string; target: string; params: Record<string, string> } {
  if (interaction.kind === 'command') {
    const { text } = interaction.body;
    const parsed = parseCommand(text, {
      phoneRegion: ctx.config.phoneRegion,
      phoneRegions: ctx.config.phoneRegions,
    });
    return { ...deniedSubject(parsed, text), params: { command: SLASH_COMMAND, text } };
  }
  const body = interaction.body;
  const clip = (s: string | undefined) => (s ?? '').slice(0, 100);
  if (body.type === 'block_actions') {
    const action = body.actions?.[0];
    return {
      operation: 'button',
      target: `button ${clip(action?.action_id)}`,
      params: { actionId: clip(action?.action_id), value: clip(action?.value) },
    };
  }
  if (body.type === 'shortcut' || body.type === 'message_action') {
    const shortcut = clip(body.callback_id);
    return {
      operation: body.type,
      target: `shortcut ${shortcut}`,
      params: { type: body.type, callbackId: shortcut },
    };
  }
  const callbackId = clip(body.view?.callback_id);
  return {
    operation: body.type === 'view_submission' ? 'form' : body.type,
    target: callbackId === '' ? body.type : `form ${callbackId}`,
    params: { type: body.type, callbackId },
  };
}

function kindOf(interaction: Interaction): string {
  return interaction.kind === 'command' ? 'command' : interaction.body.type;
}

async function auditDenied(ctx: AppContext, actor: Actor, interaction: Interaction): Promise<void> {
  await ctx.ops.auditRefusal(actor, subjectOf(ctx, interaction), kindOf(interaction), NOT_AN_AGENT);
}

/** Acknowledges a request that will not be handled, saying `text` where the person acted when the ack can. */
async function ackRefusal(
  ctx: AppContext,
  interaction: Interaction,
  ack: AnyAck | undefined,
  refusal: Refusal,
) {
  if (ack === undefined) return;
  const kind = kindOf(interaction);
  if (kind === 'view_submission') {
    // Said before the ack's deadline: in DEFAULT_LOCALE, without waiting on Slack for the person's.
    const text = refusalText(ctx.languages.fallback, refusal);
    const view = statusModal('vidops', [`:lock: ${text}`]);
    checkBlockKit(ctx, { view }, 'modal');
    await ack({ response_action: 'update', view });
  } else if (kind === 'block_suggestion') {
    await ack({ options: [] });
  } else {
    await ack();
  }
}

/**
 * Tells the person, after the ack, where they acted (in their language): the command's or
 * message's response URL, the channel, their Home tab, or a modal for a shortcut.
 */
async function tell(
  ctx: AppContext,
  interaction: Interaction,
  respond: RespondFn | undefined,
  refusal: Refusal,
  person: Person,
) {
  const lang = await person.lang();
  const text = refusalText(lang, refusal);
  const message = { ...notAllowedMessage(lang), text };
  checkBlockKit(ctx, message, 'message');
  if (interaction.kind === 'command') {
    await respond?.({ response_type: 'ephemeral', ...message });
    return;
  }
  const body = interaction.body;
  if (body.type === 'shortcut' || body.type === 'message_action') {
    // Said in a modal: a shortcut is run from a menu, where an ephemeral line could go unseen.
    if (body.trigger_id === undefined) return;
    const view = statusModal('vidops', [`:lock: ${text}`]);
    checkBlockKit(ctx, { view }, 'modal');
    await ctx.web.views.open({ trigger_id: body.trigger_id, view });
    return;
  }
  if (body.type !== 'block_actions') return;
  if (respond !== undefined && body.response_url) {
    await respond({ response_type: 'ephemeral', replace_original: false, ...message });
  } else if (body.view?.type === 'home') {
    const view = homeNotAllowedView(lang);
    checkBlockKit(ctx, { view }, 'home');
    await ctx.web.views.publish({ user_id: body.user.id, view });
  } else if (body.channel) {
    await ctx.web.chat.postEphemeral({ channel: body.channel.id, user: body.user.id, text });
  }
}

/** The Bolt middleware that checks who may act before anything else runs. */
export function actorGate(ctx: AppContext): Middleware<AnyMiddlewareArgs> {
  return async (args: AnyMiddlewareArgs & AllMiddlewareArgs) => {
    const interaction = interactionOf(args.body);
    if (interaction === null) {
      // Events carry no person acting in this sense; anything else a person sends names its user.
      const type = (args.body as { type?: unknown }).type;
      if (type === 'event_callback') await args.next();
      else
        ctx.logger.warn(
          { type: typeof type === 'string' ? type : null },
          'ignored a request of an unknown shape',
        );
      return;
    }
    const user = userOf(interaction);
    const userId = user.id;
    // The policy's own lists first: only membership through a user group needs Slack.
    if (isAgent(ctx.policy, { id: userId, groups: [] })) {
      await args.next();
      return;
    }
    // Bolt's ack and respond differ by request kind; the gate only passes them what every kind takes.
    const { ack, respond } = args as { ack?: AnyAck; respond?: RespondFn };
    // Looked up for the handler as well: it reads the same person, not Slack again.
    const person = personOf(ctx, args.body, user);
    const groups = await settledWithin(person.groups(), GATE_BUDGET_MS);
    if (groups.kind !== 'ok') {
      if (groups.kind === 'error')
        ctx.logger.warn({ err: redactError(groups.error) }, 'could not read user groups');
      await ackRefusal(ctx, interaction, ack, 'checkLate');
      await tell(ctx, interaction, respond, 'checkLate', person);
      return;
    }
    if (isAgent(ctx.policy, { id: userId, groups: groups.value })) {
      await args.next();
      return;
    }
    // Nothing after the gate runs, so the counting middleware would see a quiet success.
    settleOutcome(args.context, 'denied');
    await ackRefusal(ctx, interaction, ack, 'notAllowed');
    ctx.logger.info({ user: userId, kind: kindOf(interaction) }, 'refused someone outside AGENTS');
    const { actor } = await person.who();
    await auditDenied(ctx, actor, interaction);
    await tell(ctx, interaction, respond, 'notAllowed', person);
  };
}
