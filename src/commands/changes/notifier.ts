import { redactError } from '../../core/mask.js';
import type { OperationRequest } from '../../core/model.js';
import { TERMINAL_STATES } from '../../core/model.js';
import type { CoverRef, Notifier } from '../../services/types.js';
import { approvalMessage, requesterNotice } from '../../views/approval.js';
import type { SlackMessage } from '../../views/blocks.js';
import { checkBlockKit, type SlackContext } from '../context.js';
import { publishHome, readProtection } from './home.js';

/**
 * Tells Slack about every change of a request: posts the approval message when a request starts
 * waiting, updates it on every change (buttons gone once decided; who decided, when, and the
 * result), DMs the requester on decisions and results, and refreshes the Home tabs of the people
 * involved. Errors are logged, never thrown: the change itself already happened.
 * @see docs/architecture.md, "Approvals"
 */

/** Does a request need an approval message? Those that run directly (quorum 0) do not. */
function awaitsApproval(request: OperationRequest): boolean {
  return request.quorum > 0;
}

/** States after which the Home tabs of the people involved change. */
function refreshesHome(request: OperationRequest): boolean {
  return request.state === 'pending' || TERMINAL_STATES.includes(request.state);
}

/**
 * The notifier for `createOperations`, built before them: it reads requests through the services'
 * reads (`ctx.ops`), which need no notifier.
 */
export function createSlackNotifier(ctx: SlackContext): Notifier {
  // One change at a time per request, so a later state never lands before an earlier one.
  const queues = new Map<string, Promise<void>>();

  async function post(ctx: SlackContext, channel: string, message: SlackMessage): Promise<string | null> {
    checkBlockKit(ctx, message, 'message');
    const answer = await ctx.web.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
    return answer.ts ?? null;
  }

  /** Posts or updates the approval message so it shows the request as it stands now. */
  async function syncApprovalMessage(ctx: SlackContext, changed: OperationRequest): Promise<void> {
    const latest = (await ctx.ops.getRequest(changed.id)) ?? changed;
    if (latest.slack !== null) {
      const message = approvalMessage(latest);
      checkBlockKit(ctx, message, 'message');
      await ctx.web.chat.update({
        channel: latest.slack.channel,
        ts: latest.slack.ts,
        text: message.text,
        blocks: message.blocks,
      });
      return;
    }
    // The creation posts; a later change posts only while the request is still open (the first
    // post failed), so a decision racing the first post does not make a second message.
    if (changed.version !== 1 && latest.state !== 'pending') return;
    const channel = ctx.config.approvalChannel;
    const ts = await post(ctx, channel, approvalMessage(latest));
    if (ts === null) return;
    const attached = await ctx.ops.attachSlackMessage(latest.id, { channel, ts });
    // A decision that landed while the message was posted: show it now.
    if (attached !== null && attached.version !== latest.version + 1) {
      const message = approvalMessage(attached);
      checkBlockKit(ctx, message, 'message');
      await ctx.web.chat.update({ channel, ts, text: message.text, blocks: message.blocks });
    }
  }

  async function tellRequester(ctx: SlackContext, changed: OperationRequest): Promise<void> {
    const notice = requesterNotice(changed);
    if (notice === null) return;
    const dm = await ctx.web.conversations.open({ users: changed.requester.id });
    const channel = dm.channel?.id;
    if (!channel) return;
    await post(ctx, channel, notice);
  }

  /** The requester, whoever decided, and everyone who may approve it. */
  async function involved(ctx: SlackContext, request: OperationRequest): Promise<string[]> {
    const ids = new Set<string>([request.requester.id, ...request.approvals.map((a) => a.by.id)]);
    if (request.decidedBy) ids.add(request.decidedBy.id);
    for (const approver of ctx.policy.rules[request.operation].approvers) {
      // The directory's cache: one Tier 2 call per group per TTL, shared with the policy checks.
      if (approver.startsWith('S'))
        for (const member of await ctx.directory.membersOf(approver)) ids.add(member);
      else ids.add(approver);
    }
    ids.delete('system');
    return [...ids];
  }

  async function refreshHomes(ctx: SlackContext, request: OperationRequest): Promise<void> {
    const users = await involved(ctx, request);
    const protection = await readProtection(ctx);
    for (const userId of users) {
      try {
        await publishHome(ctx, userId, { protection });
      } catch (error) {
        ctx.logger.warn({ err: redactError(error), user: userId }, 'could not refresh a Home tab');
      }
    }
  }

  async function handle(changed: OperationRequest): Promise<void> {
    const steps: [string, () => Promise<void>][] = [];
    if (awaitsApproval(changed)) {
      steps.push(['approval message', () => syncApprovalMessage(ctx, changed)]);
      steps.push(['requester message', () => tellRequester(ctx, changed)]);
      if (refreshesHome(changed)) steps.push(['Home tabs', () => refreshHomes(ctx, changed)]);
    } else if (changed.state === 'unknown') {
      // A direct request interrupted by a crash: the requester's answer never came.
      steps.push(['requester message', () => tellRequester(ctx, changed)]);
    }
    for (const [what, step] of steps) {
      try {
        await step();
      } catch (error) {
        ctx.logger.error(
          { err: redactError(error), requestId: changed.id, state: changed.state },
          `could not update Slack (${what})`,
        );
      }
    }
  }

  return {
    async requestChanged(request) {
      const previous = queues.get(request.id) ?? Promise.resolve();
      const run = previous.then(() => handle(request));
      queues.set(request.id, run);
      try {
        await run;
      } finally {
        if (queues.get(request.id) === run) queues.delete(request.id);
      }
    },
  };
}

/** Largest cover image downloaded (the service's limits are not documented; Slack allows more). */
const COVER_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Downloads a cover image from Slack for `file.edit`, with the bot token. The URL is taken from
 * `files.info` for the Slack file ID (not from the stored request), so the token only ever goes
 * to Slack's own file host; the answer must be an image of at most 10 MB.
 */
export function createCoverFetcher(
  ctx: Pick<SlackContext, 'web' | 'config'>,
): (cover: CoverRef) => Promise<Uint8Array> {
  return async (cover) => {
    const info = await ctx.web.files.info({ file: cover.slackFileId });
    const url = info.file?.url_private;
    if (!url) throw new Error(`Slack has no download for the cover image ${cover.slackFileId}`);
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${ctx.config.slack.botToken}` },
      signal: AbortSignal.timeout(ctx.config.video.timeoutMs),
    });
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.startsWith('image/')) {
      throw new Error(
        `the cover image could not be downloaded from Slack (${response.status}, ${type || 'no type'})`,
      );
    }
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > COVER_MAX_BYTES) throw new Error('the cover image is larger than 10 MB');
    const data = new Uint8Array(await response.arrayBuffer());
    if (data.byteLength > COVER_MAX_BYTES) throw new Error('the cover image is larger than 10 MB');
    return data;
  };
}
