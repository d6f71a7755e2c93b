import type { BlockAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { escapeMrkdwn } from '../../core/mrkdwn.js';
import type { Lang } from '../../i18n/index.js';
import { type AppContext, checkBlockKit } from '../context.js';
import { publishHome } from './home.js';
import { requestIdOf } from './shared.js';

/**
 * What the button handlers of requests (approvals, break-glass reviews) share: what a click tells
 * about where it came from, and how to answer the person who clicked, where they clicked.
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

/**
 * Says something to the person who clicked, where they clicked: on their Home tab, ephemeral in
 * the message's channel, or in the DM the button was in (a DM's buttons have no response URL).
 */
export async function tell(ctx: AppContext, click: Click, respond: RespondFn, text: string): Promise<void> {
  if (click.view?.type === 'home') {
    await publishHome(ctx, click.user.id, { notice: text });
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
export async function clickedRequest(
  ctx: AppContext,
  click: Click,
  respond: RespondFn,
  lang: Lang,
): Promise<string | null> {
  const id = requestIdOf(click.actions[0]?.value);
  if (id === null) await tell(ctx, click, respond, lang.t.breakGlass.glassNoRequest);
  return id;
}
