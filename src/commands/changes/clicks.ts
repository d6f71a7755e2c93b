import type { AckFn, BlockAction, RespondFn, ViewResponseAction } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { Caller } from '../../core/actor.js';
import { InputError } from '../../core/errors.js';
import type { OperationRequest } from '../../core/model.js';
import { escapeMrkdwn } from '../../core/mrkdwn.js';
import type { Lang } from '../../i18n/index.js';
import type { PrecheckResult } from '../../services/types.js';
import type { SlackRoutes } from '../../slack/routes.js';
import { describeError, reasonIn, wordsOf } from '../../views/errors.js';
import { readViewState, statusModal, type ViewState } from '../../views/modals/common.js';
import { type AppContext, checkBlockKit, errorViewOptions, type Person, personOf } from '../context.js';
import { publishHome } from './home.js';
import { requestIdOf } from './shared.js';

/**
 * What the button handlers of requests (approvals, break-glass reviews) and their small modals
 * share: what a click tells about where it came from, how to answer the person who clicked, where
 * they clicked, and how a submitted note or reason is read.
 * @see docs/architecture.md, "Approvals"
 */

/** What a click tells about where it came from; everything else in the payload is ignored. */
export const ClickSchema = z.looseObject({
  user: z.looseObject({ id: z.string(), name: z.string().optional(), username: z.string().optional() }),
  trigger_id: z.string().optional(),
  response_url: z.string().optional(),
  channel: z.looseObject({ id: z.string() }).optional(),
  view: z.looseObject({ type: z.string() }).optional(),
  actions: z.array(z.looseObject({ value: z.string().optional() })).min(1),
});
export type Click = z.infer<typeof ClickSchema>;

export interface ClickArgs {
  body: BlockAction;
  respond: RespondFn;
  client: WebClient;
}

/** Routes a button to `run`, acknowledged first (what `run` finds out, it tells the clicker). */
export function onClick(
  routes: SlackRoutes,
  actionId: string,
  run: (args: ClickArgs) => Promise<void>,
): void {
  routes.action(actionId, async ({ ack, body, respond, client }) => {
    await ack();
    await run({ body, respond, client });
  });
}

/**
 * Says something to `person`, who clicked, where they clicked: on their Home tab, ephemeral in
 * the message's channel, or in the DM the button was in (a DM's buttons have no response URL).
 */
export async function tell(
  ctx: AppContext,
  click: Click,
  respond: RespondFn,
  text: string,
  person: Person,
): Promise<void> {
  if (click.view?.type === 'home') {
    await publishHome(ctx, click.user.id, { notice: text, person });
    return;
  }
  // The words quote names, reasons and the service's errors, and a message's `text` is mrkdwn:
  // escaped as a whole (they carry no markup of ours but `*bold*` and emoji, which stay).
  const message = { text: escapeMrkdwn(text) };
  checkBlockKit(ctx, message, 'message');
  if (click.response_url) {
    await respond({ response_type: 'ephemeral', replace_original: false, ...message });
    return;
  }
  if (click.channel) {
    await ctx.web.chat.postEphemeral({ channel: click.channel.id, user: click.user.id, ...message });
    return;
  }
  const dm = await ctx.web.conversations.open({ users: click.user.id });
  if (dm.channel?.id) await ctx.web.chat.postMessage({ channel: dm.channel.id, ...message });
}

/** The click's value as a request ID, or a word to the clicker and null. */
async function clickedRequest(
  ctx: AppContext,
  click: Click,
  respond: RespondFn,
  person: Person,
): Promise<string | null> {
  const id = requestIdOf(click.actions[0]?.value);
  if (id === null) await tell(ctx, click, respond, (await person.lang()).t.breakGlass.glassNoRequest, person);
  return id;
}

/** A click on a request's button, read: where it came from, the clicker's language, the request, who clicked. */
export interface RequestClick {
  click: Click;
  lang: Lang;
  id: string;
  /** The clicker as the services know them, with their user groups. */
  actor: Caller;
  /** The clicker, as looked up for this request. */
  person: Person;
}

/** Reads a click on a request's button; null when its value names no request (the clicker is told). */
export async function readRequestClick(ctx: AppContext, args: ClickArgs): Promise<RequestClick | null> {
  const click = ClickSchema.parse(args.body);
  const person = personOf(ctx, args.body, {
    id: click.user.id,
    name: click.user.name ?? click.user.username,
  });
  const id = await clickedRequest(ctx, click, args.respond, person);
  if (id === null) return null;
  const { actor, lang } = await person.who();
  return { click, lang, id, actor, person };
}

/**
 * Runs what a click asks and tells the clicker the words it returns; a failure is told as
 * `failed(what went wrong)`, and an unexpected one also goes on to app.error.
 */
export async function answerClick(
  ctx: AppContext,
  args: ClickArgs,
  read: RequestClick,
  failed: (problem: string) => string,
  run: () => Promise<string>,
): Promise<void> {
  try {
    await tell(ctx, read.click, args.respond, await run(), read.person);
  } catch (error) {
    const view = describeError(error, { ...errorViewOptions(ctx), lang: read.lang });
    await tell(ctx, read.click, args.respond, failed(view.text), read.person);
    if (!view.expected) throw error;
  }
}

/**
 * Opens the modal of a request's button once the services' `check` allowed the clicker: a refused
 * click is told why at once instead of getting a form; the submission is checked again.
 */
export async function openWhenAllowed(
  ctx: AppContext,
  args: ClickArgs,
  check: (id: string, actor: Caller) => Promise<PrecheckResult>,
  modal: (request: OperationRequest, lang: Lang) => ModalView,
): Promise<void> {
  const read = await readRequestClick(ctx, args);
  if (read === null) return;
  const checked = await check(read.id, read.actor);
  if (checked.kind === 'refused') {
    const text = read.lang.t.approvals.actRefused(reasonIn(read.lang, checked));
    await tell(ctx, read.click, args.respond, text, read.person);
    return;
  }
  if (!read.click.trigger_id) return;
  const view = modal(checked.request, read.lang);
  checkBlockKit(ctx, { view }, 'modal');
  await args.client.views.open({ trigger_id: read.click.trigger_id, view });
}

/** A submitted modal of a request (reject, mark applied…, break glass, flag…), as the handlers read it. */
export interface SubmissionArgs {
  ack: AckFn<ViewResponseAction>;
  body: { user: { id: string; name?: string | undefined } };
  view: { id: string; private_metadata: string; state: { values: unknown } };
  client: WebClient;
}

/** Routes a submitted modal to `run`, which acknowledges it. */
export function onSubmit(
  routes: SlackRoutes,
  callbackId: string,
  run: (args: SubmissionArgs) => Promise<void>,
): void {
  routes.view(callbackId, async ({ ack, body, view, client }) => {
    await run({ ack, body, view, client });
  });
}

/** Who submitted the form: the person of the request, looked up once. */
export function submitter(ctx: AppContext, args: Pick<SubmissionArgs, 'body'>): Person {
  return personOf(ctx, args.body, args.body.user);
}

/** Closes the submission into a status view (`title`, one line each). */
export async function ackStatus(
  ctx: AppContext,
  ack: AckFn<ViewResponseAction>,
  title: string,
  lines: string[],
  lang: Lang,
): Promise<void> {
  const view = statusModal(title, lines, lang);
  checkBlockKit(ctx, { view }, 'modal');
  await ack({ response_action: 'update', view });
}

/**
 * Reads a submission with the modal's `parse`: what it found, or null once the person was
 * answered (a form that lost its context becomes a status view; problems with what was typed go
 * back under their fields, and nothing changes).
 */
export async function readSubmission<P extends { ok: true } | { ok: false; errors: Record<string, string> }>(
  ctx: AppContext,
  args: SubmissionArgs,
  title: string,
  lang: Lang,
  parse: (state: ViewState, privateMetadata: string, lang: Lang) => P,
): Promise<Extract<P, { ok: true }> | null> {
  let parsed: P;
  try {
    parsed = parse(readViewState(args.view.state.values, lang), args.view.private_metadata, lang);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    await ackStatus(ctx, args.ack, title, [`:x: ${wordsOf(error, lang)}`], lang);
    return null;
  }
  if (parsed.ok) return parsed as Extract<P, { ok: true }>;
  await args.ack({ response_action: 'errors', errors: parsed.errors });
  return null;
}
