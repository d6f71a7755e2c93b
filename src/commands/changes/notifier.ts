import { createHash } from 'node:crypto';
import { ErrorCode, WebAPIPlatformError, WebAPIRateLimitedError } from '@slack/web-api';
import { countsToward } from '../../core/approvals.js';
import { redactError } from '../../core/mask.js';
import type { OperationRequest, RequestState, SlackRef } from '../../core/model.js';
import { followUpOf, TERMINAL_STATES } from '../../core/model.js';
import type { Lang } from '../../i18n/index.js';
import type { CoverRef } from '../../services/types.js';
import type { DeliverNotifications, DeliveryOutcome } from '../../slack/notification-worker.js';
import type { NotificationJob, RequestDmKind, Store } from '../../store/store.js';
import {
  approvalMessage,
  followUpMessage,
  putBackEscalationMessage,
  putBackReminderMessage,
  requesterNotice,
  settledFollowUpMessage,
  settledTimeBoxMessage,
} from '../../views/approval.js';
import type { SlackMessage } from '../../views/blocks.js';
import { leadBreakGlassMessage } from '../../views/break-glass.js';
import { boxInForce } from '../../views/put-back.js';
import { showBatch } from '../batch.js';
import { checkBlockKit, type SlackContext } from '../context.js';
import { type HomeContext, publishHome, readProtection } from './home.js';

/**
 * Tells Slack about the changes of requests, for the notification worker: posts the approval
 * message when a request starts waiting, updates it to show the request as it stands (buttons gone
 * once decided; who decided, when, and the result), DMs the requester on decisions and results,
 * and refreshes the Home tabs of the people involved. It runs after the change committed, never
 * in the path of the click that made it.
 *
 * Each step may run twice (a retry after another step failed, a replica taking over a lease): a
 * `chat.update` and a Home tab are replaced with the same content; the first post of the approval
 * message and each DM are claimed once in the store before they are sent, and the claim is given
 * back only when Slack said for sure that nothing was sent.
 * @see docs/architecture.md, "Approvals"
 */

/** The Slack side of notifications: the worker's `deliver`. */
export interface SlackNotifier {
  deliver: DeliverNotifications;
}

/** One post of a request's approval message is tried per window across replicas. */
const POST_WINDOW_MS = 5 * 60_000;
/** Requests whose steps done so far are remembered while the others are retried. */
const MAX_IN_PROGRESS = 1000;
/**
 * Slack answers that retrying will not change: the message or channel is gone, the bot may not
 * post there, the user cannot be reached, or the payload is refused. Logged and given up.
 */
const GIVE_UP = new Set([
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
  'channel_not_found',
  'is_archived',
  'not_in_channel',
  'user_not_found',
  'user_disabled',
  'cannot_dm_bot',
  'invalid_blocks',
  'invalid_arguments',
  'msg_too_long',
  'msg_blocks_too_long',
  'no_text',
]);

const DONE: DeliveryOutcome = { kind: 'done' };

/** States a request never leaves (`unknown` is settled later by a lead). */
const SETTLED: readonly RequestState[] = ['succeeded', 'failed', 'rejected', 'cancelled', 'expired'];

/**
 * Does a request need an approval message? Those that run directly (quorum 0) do not, unless
 * they are time-boxed: their message carries the put-back and its buttons (docs/time-boxed.md).
 */
function awaitsApproval(request: OperationRequest): boolean {
  return request.quorum > 0 || request.timeBox !== undefined;
}

/** A put-back that is over: its DMs lose their buttons, and are forgotten. */
function boxSettled(request: OperationRequest): boolean {
  const state = request.timeBox?.state;
  return state === 'done' || state === 'left' || state === 'cancelled';
}

/** States after which the Home tabs of the people involved change. */
function refreshesHome(request: OperationRequest): boolean {
  return request.state === 'pending' || TERMINAL_STATES.includes(request.state);
}

/** Slack did not take it, for sure: anything but a request whose answer was lost (timeout, reset). */
function surelyNotSent(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code !== ErrorCode.RequestError;
}

function givesUp(error: unknown): string | null {
  return error instanceof WebAPIPlatformError && GIVE_UP.has(error.data.error) ? error.data.error : null;
}

/** What a step failing for a while means for the next try: Slack unreachable first, then the rest. */
function worst(errors: readonly unknown[]): unknown {
  const code = (e: unknown) => (e as { code?: unknown } | null)?.code;
  return (
    errors.find((e) => code(e) === ErrorCode.RequestError || code(e) === ErrorCode.HTTPError) ?? errors[0]
  );
}

/**
 * Does `each` for every item (a person to tell, a DM to update), going on past failures: Slack's
 * 429 stops at once (every other call would be refused too); an answer that retrying will not
 * change goes to `gaveUp` and counts as done; the other failures are thrown together at the end,
 * the worst first, so that the job is retried.
 */
async function forEach<T>(
  items: Iterable<T>,
  each: (item: T) => Promise<void>,
  gaveUp: (item: T, error: unknown, code: string) => Promise<void> | void,
): Promise<void> {
  const failed: unknown[] = [];
  for (const item of items) {
    try {
      await each(item);
    } catch (error) {
      if (error instanceof WebAPIRateLimitedError) throw error;
      const code = givesUp(error);
      if (code === null) failed.push(error);
      else await gaveUp(item, error, code);
    }
  }
  if (failed.length > 0) throw worst(failed);
}

/** Keeps `key` in a map bounded like the progress of requests, dropping the oldest. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_IN_PROGRESS) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

/** Steps of one request already done while others are retried. */
interface Progress {
  /** What the approval message shows now, as far as this process put it there. */
  shown: string | null;
  /** Posted but not yet recorded on the request (the store failed): record it, do not post again. */
  posted: SlackRef | null;
  /** Home tabs published for the request as it stands (`homeKey`). */
  homes: Set<string>;
  homeKey: string;
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

/**
 * What the notifier works with: the Slack side of the context, reading requests through the
 * services' reads (which need no notifier), and the store's delivery keys and notification jobs.
 */
export interface NotifierContext extends SlackContext {
  ops: HomeContext['ops'];
  store: Pick<
    Store,
    'markDelivered' | 'forgetDelivery' | 'recordRequestDm' | 'requestDms' | 'forgetRequestDm'
  >;
}

/** What this process remembers of the steps done, so that a retry does not repeat them. */
interface NotifierMemory {
  progress: Map<string, Progress>;
  /** What each DM with buttons shows now, as far as this process updated it (`channel:ts`). */
  dmsShown: Map<string, string>;
}

/** The notifier, built before the services and the Bolt app: it needs neither. */
export function createSlackNotifier(ctx: NotifierContext): SlackNotifier {
  const memory: NotifierMemory = { progress: new Map(), dmsShown: new Map() };
  return {
    deliver: (requestId, jobs) => deliver(ctx, memory, requestId, jobs),
  };
}

function progressOf(progress: Map<string, Progress>, requestId: string): Progress {
  let p = progress.get(requestId);
  if (p === undefined) {
    p = { shown: null, posted: null, homes: new Set(), homeKey: '' };
    remember(progress, requestId, p);
  }
  return p;
}

async function post(ctx: NotifierContext, channel: string, message: SlackMessage): Promise<string | null> {
  checkBlockKit(ctx, message, 'message');
  const answer = await ctx.web.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
  return answer.ts ?? null;
}

/**
 * Sends once across retries and replicas: `key` is claimed in the store first and given back
 * when Slack surely did not take it. `null` when the key was claimed already.
 */
async function once<T>(
  ctx: NotifierContext,
  key: string,
  send: () => Promise<T>,
): Promise<{ value: T } | null> {
  if (!(await ctx.store.markDelivered(key, ctx.clock().toISOString()))) return null;
  try {
    return { value: await send() };
  } catch (error) {
    if (surelyNotSent(error)) await ctx.store.forgetDelivery(key);
    throw error;
  }
}

/** Posts or updates the approval message so it shows the request as it stands now. */
async function syncApprovalMessage(
  ctx: NotifierContext,
  request: OperationRequest,
  jobs: readonly NotificationJob[],
  p: Progress,
): Promise<DeliveryOutcome> {
  const message = approvalMessage(request, ctx.clock(), ctx.languages.channel);
  const content = digest(message);
  if (request.slack === null && p.posted !== null) {
    // Posted on an earlier try whose record failed: record it now.
    await ctx.ops.attachSlackMessage(request.id, p.posted);
    p.posted = null;
    return DONE;
  }
  if (request.slack !== null) {
    if (p.shown === content) return DONE;
    checkBlockKit(ctx, message, 'message');
    await ctx.web.chat.update({
      channel: request.slack.channel,
      ts: request.slack.ts,
      text: message.text,
      blocks: message.blocks,
    });
    p.shown = content;
    return DONE;
  }
  // The creation posts; a later change posts only while the request is still open (the first
  // post failed for good, or it was made before notifications were kept), or while a time-boxed
  // change that ran at once has no message yet.
  if (!jobs.some((j) => j.version === 1) && request.state !== 'pending' && request.timeBox === undefined)
    return DONE;
  const now = ctx.clock().getTime();
  const window = Math.floor(now / POST_WINDOW_MS);
  const channel = ctx.config.approvalChannel;
  const posted = await once(ctx, `post:${request.id}:${window}`, () => post(ctx, channel, message));
  if (posted === null) {
    return {
      kind: 'later',
      notBefore: new Date((window + 1) * POST_WINDOW_MS),
      reason: 'the approval message was posted, or its post answered nothing, in this window',
    };
  }
  if (posted.value === null) return DONE;
  p.posted = { channel, ts: posted.value };
  p.shown = content;
  // A change that lands meanwhile has its own job, told once this one is done.
  await ctx.ops.attachSlackMessage(request.id, p.posted);
  p.posted = null;
  return DONE;
}

/**
 * DMs `user` a message that carries the request's buttons, in their language, and records where
 * it went so that `settleDms` can take the buttons away once they no longer apply.
 */
async function sendDm(
  ctx: NotifierContext,
  request: OperationRequest,
  user: string,
  kind: RequestDmKind,
  message: (lang: Lang) => SlackMessage,
): Promise<void> {
  const dm = await ctx.web.conversations.open({ users: user });
  const channel = dm.channel?.id;
  if (!channel) return;
  const ts = await post(ctx, channel, message(await ctx.languages.of(user)));
  if (ts === null) return;
  try {
    await ctx.store.recordRequestDm({
      requestId: request.id,
      channel,
      ts,
      userId: user,
      kind,
      postedAt: ctx.clock().toISOString(),
    });
  } catch (error) {
    // Sent all the same (and claimed): the DM keeps its buttons, which refuse once decided.
    ctx.logger.warn(
      { err: redactError(error), requestId: request.id, user },
      'could not record a DM with buttons; it will keep them after the decision',
    );
  }
}

/**
 * The DMs sent with the request's buttons, brought up to date once the buttons no longer
 * apply: a reminder, escalation or expiry warning when the request stopped waiting for a
 * decision, or for its reader's (who approved it meanwhile, or whose delegate did); a
 * break-glass notice when a lead reviewed the change. Each is updated in its reader's language,
 * and forgotten once the request can change no more; one Slack will not take is logged and
 * forgotten.
 */
async function settleDms(
  ctx: NotifierContext,
  dmsShown: Map<string, string>,
  request: OperationRequest,
): Promise<void> {
  const decided = request.state !== 'pending';
  const reviewed = request.breakGlass !== undefined && request.breakGlass.review !== null;
  const boxOver = request.timeBox !== undefined && !boxInForce(request);
  if (!decided && !reviewed && request.approvals.length === 0 && !boxOver) return;
  const due = (await ctx.store.requestDms(request.id)).filter((dm) =>
    dm.kind === 'batch'
      ? false // the batch's own message (../batch.ts)
      : dm.kind === 'followUp'
        ? // A lead whose delegate approved in their place counts already, as one who approved.
          decided || countsToward(request, { id: dm.userId })
        : dm.kind === 'timeBox'
          ? boxOver
          : reviewed,
  );
  await forEach(
    due,
    async (dm) => {
      const lang = await ctx.languages.of(dm.userId);
      const message =
        dm.kind === 'followUp'
          ? settledFollowUpMessage(request, lang)
          : dm.kind === 'timeBox'
            ? settledTimeBoxMessage(request, lang)
            : leadBreakGlassMessage(request, dm.kind === 'breakGlassOverdue', lang);
      const where = `${dm.channel}:${dm.ts}`;
      const content = digest(message);
      if (dmsShown.get(where) !== content) {
        checkBlockKit(ctx, message, 'message');
        await ctx.web.chat.update({
          channel: dm.channel,
          ts: dm.ts,
          text: message.text,
          blocks: message.blocks,
        });
        remember(dmsShown, where, content);
      }
      // Kept while the request may still change (approved, running, its outcome unknown), or
      // its put-back (being put back, retried).
      if (dm.kind === 'timeBox' ? boxSettled(request) : SETTLED.includes(request.state)) {
        await ctx.store.forgetRequestDm(dm);
        dmsShown.delete(where);
      }
    },
    async (dm, error, code) => {
      ctx.logger.warn(
        { err: redactError(error), requestId: request.id, user: dm.userId, code },
        'could not take the buttons off a DM; not retried',
      );
      await ctx.store.forgetRequestDm(dm);
    },
  );
}

async function tellRequester(ctx: NotifierContext, request: OperationRequest): Promise<void> {
  const notice = requesterNotice(request, await ctx.languages.of(request.requester.id));
  if (notice === null) return;
  // Keyed by what it says (and the approval count, since "got an approval" reads alike each
  // time): the requester never reads the same words about one request twice.
  const key = `notice:${request.id}:${request.approvals.length}:${digest(notice)}`;
  if (boxInForce(request)) {
    // It offers Put back now and Extend…: recorded, so that they go once the change is put back.
    await once(ctx, key, () => sendDm(ctx, request, request.requester.id, 'timeBox', () => notice));
    return;
  }
  const dm = await ctx.web.conversations.open({ users: request.requester.id });
  const channel = dm.channel?.id;
  if (!channel) return;
  await once(ctx, key, () => post(ctx, channel, notice));
}

/** A Slack user or bot user ID, not the CLI's `cli:…` or vidops' own `system` and `vidops`. */
function isSlackUser(id: string): boolean {
  return /^[UW][A-Z0-9]{2,}$/.test(id);
}

/**
 * A time-boxed change near its end (`put-back-reminded`): its requester gets a DM saying what goes
 * back and when, with Extend… and Put back now; once per reminder across retries and replicas.
 * Putting it back failing for an hour (`put-back-escalated`): every lead is told, once.
 * @see docs/time-boxed.md
 */
async function tellPutBack(ctx: NotifierContext, request: OperationRequest): Promise<void> {
  const box = request.timeBox;
  if (box === undefined || !boxInForce(request)) return;
  const sends: { user: string; key: string; message: (lang: Lang) => SlackMessage }[] = [];
  const now = ctx.clock();
  if (box.remindedAt !== null && isSlackUser(request.requester.id)) {
    sends.push({
      user: request.requester.id,
      key: `put-back-reminded:${request.id}:${box.remindedAt}`,
      message: (lang) => putBackReminderMessage(request, now, lang),
    });
  }
  if (box.leadTold && box.state === 'retrying') {
    for (const lead of await usersOf(ctx, ctx.policy.leads)) {
      sends.push({
        user: lead,
        key: `put-back-escalated:${request.id}:${box.failingSince ?? ''}:${lead}`,
        message: (lang) => putBackEscalationMessage(request, lang),
      });
    }
  }
  await forEach(
    sends,
    async (send) => {
      await once(ctx, send.key, () => sendDm(ctx, request, send.user, 'timeBox', send.message));
    },
    (send, error, code) =>
      ctx.logger.warn(
        { err: redactError(error), requestId: request.id, user: send.user, code },
        'could not send a DM about a put-back',
      ),
  );
}

/** User IDs of a list of user and user-group IDs, groups expanded. */
async function usersOf(ctx: NotifierContext, principals: readonly string[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const principal of principals) {
    // The directory's cache: one Tier 2 call per group per TTL, shared with the policy checks.
    if (principal.startsWith('S'))
      for (const member of await ctx.directory.membersOf(principal)) ids.add(member);
    else ids.add(principal);
  }
  return ids;
}

/** The requester, whoever decided, and everyone who may approve it (backups it was escalated to too). */
async function involved(ctx: NotifierContext, request: OperationRequest): Promise<string[]> {
  const ids = new Set<string>([request.requester.id, ...request.approvals.map((a) => a.by.id)]);
  if (request.decidedBy) ids.add(request.decidedBy.id);
  const approvers = [...ctx.policy.rules[request.operation].approvers, ...followUpOf(request).escalatedTo];
  for (const id of await usersOf(ctx, approvers)) ids.add(id);
  ids.delete('system');
  return [...ids];
}

/**
 * The DMs of the follow-ups recorded by the changes in hand (`jobs`): the reminder to the
 * approvers who have not decided, the escalation to the backups, the expiry warning to the
 * requester and those approvers. Each DM is claimed once per person in the store (`once`), so a
 * retry or another replica never sends it twice; a person Slack cannot reach is logged and left.
 */
async function tellFollowUps(
  ctx: NotifierContext,
  request: OperationRequest,
  jobs: readonly NotificationJob[],
): Promise<void> {
  const done = followUpOf(request);
  // Only for the change that recorded it: an older follow-up was told when its own job was.
  const inHand = (at: string | null): at is string =>
    at !== null && jobs.some((j) => Date.parse(j.at) >= Date.parse(at));
  const now = ctx.clock();
  // A lead whose delegate approved in her place has decided too: her Approve would be refused.
  const undecided = async (principals: readonly string[]): Promise<string[]> =>
    [...(await usersOf(ctx, principals))].filter(
      (u) => u !== request.requester.id && !countsToward(request, { id: u }),
    );
  const rule = ctx.policy.rules[request.operation];
  const sends: {
    user: string;
    key: string;
    message: (lang: Lang) => ReturnType<typeof followUpMessage>;
  }[] = [];

  const backups = await undecided(done.escalatedTo);
  if (inHand(done.escalatedAt)) {
    for (const user of backups) {
      sends.push({
        user,
        key: `escalated:${request.id}:${user}`,
        message: (lang) => followUpMessage(request, 'escalation', 'approver', now, lang),
      });
    }
  }
  if (inHand(done.remindedAt)) {
    // Backups just told of the escalation are not reminded right after it.
    const escalatedRecently =
      done.escalatedAt !== null &&
      Date.parse(done.remindedAt) - Date.parse(done.escalatedAt) < (rule.followUp.remindAfterMs ?? 0);
    const skip = new Set(escalatedRecently ? backups : []);
    for (const user of await undecided([...rule.approvers, ...done.escalatedTo])) {
      if (skip.has(user)) continue;
      sends.push({
        user,
        key: `reminded:${request.id}:${done.remindedAt}:${user}`,
        message: (lang) => followUpMessage(request, 'reminder', 'approver', now, lang),
      });
    }
  }
  if (inHand(done.expiryWarnedAt)) {
    sends.push({
      user: request.requester.id,
      key: `expiry-warned:${request.id}:${request.requester.id}`,
      message: (lang) => followUpMessage(request, 'warning', 'requester', now, lang),
    });
    for (const user of await undecided([...rule.approvers, ...done.escalatedTo])) {
      sends.push({
        user,
        key: `expiry-warned:${request.id}:${user}`,
        message: (lang) => followUpMessage(request, 'warning', 'approver', now, lang),
      });
    }
  }

  await forEach(
    sends.filter((send) => send.user !== 'system' && !send.user.startsWith('cli:')),
    async (send) => {
      await once(ctx, send.key, () => sendDm(ctx, request, send.user, 'followUp', send.message));
    },
    (send, error, code) =>
      ctx.logger.warn({ err: redactError(error), user: send.user, code }, 'could not send a follow-up DM'),
  );
}

async function refreshHomes(ctx: NotifierContext, request: OperationRequest, p: Progress): Promise<void> {
  const glass = request.breakGlass;
  const box = request.timeBox;
  const boxKey = box === undefined ? '' : `${box.state}:${box.endsAt ?? ''}:${box.attempts}`;
  const key = `${request.state}:${request.approvals.length}:${glass === undefined ? '' : `${glass.review?.verdict ?? 'due'}:${glass.overdueAt ?? ''}`}:${boxKey}`;
  if (p.homeKey !== key) {
    p.homeKey = key;
    p.homes.clear();
  }
  const users = (await involved(ctx, request)).filter((u) => !p.homes.has(u));
  if (users.length === 0) return;
  const protection = await readProtection(ctx);
  await forEach(
    users,
    async (userId) => {
      await publishHome(ctx, userId, { protection });
      p.homes.add(userId);
    },
    (userId, error, code) => {
      ctx.logger.warn({ err: redactError(error), user: userId, code }, 'could not refresh a Home tab');
      p.homes.add(userId);
    },
  );
}

/**
 * Break-glass: every lead (but the one who broke the glass) gets a DM once when the change has
 * run, and once more when it is found unreviewed past its review time. Each DM is claimed once.
 * @see docs/architecture.md, "Break-glass and delegation"
 */
async function tellLeads(ctx: NotifierContext, request: OperationRequest): Promise<void> {
  const record = request.breakGlass;
  if (record === undefined) return;
  const reminder = record.overdueAt !== null;
  if (reminder && record.review !== null) return;
  const leads = new Set<string>();
  for (const lead of ctx.policy.leads) {
    if (lead.startsWith('S')) for (const member of await ctx.directory.membersOf(lead)) leads.add(member);
    else leads.add(lead);
  }
  leads.delete(record.by.id);
  await forEach(
    leads,
    async (lead) => {
      await once(ctx, `${reminder ? 'glass-overdue' : 'glass'}:${request.id}:${lead}`, () =>
        sendDm(ctx, request, lead, reminder ? 'breakGlassOverdue' : 'breakGlass', (lang) =>
          leadBreakGlassMessage(request, reminder, lang),
        ),
      );
    },
    (lead, error, code) =>
      ctx.logger.warn(
        { err: redactError(error), requestId: request.id, user: lead, code },
        'could not tell a lead of a break-glass change',
      ),
  );
}

/** The worker's `deliver`: every step that tells Slack about the request as it stands now. */
async function deliver(
  ctx: NotifierContext,
  memory: NotifierMemory,
  requestId: string,
  jobs: readonly NotificationJob[],
): Promise<DeliveryOutcome> {
  const request = await ctx.ops.getRequest(requestId);
  if (request === null) {
    ctx.logger.warn({ requestId }, 'a notification names no request; dropped');
    return DONE;
  }
  // A request being executed always changes again (its outcome, or `unknown` after a crash) and
  // that change is told: showing "running" meanwhile would only get between a lead and the answer.
  if (request.state === 'executing') return DONE;
  const p = progressOf(memory.progress, requestId);
  const steps: [string, () => Promise<DeliveryOutcome | undefined>][] = [];
  if (awaitsApproval(request)) {
    steps.push(['approval message', () => syncApprovalMessage(ctx, request, jobs, p)]);
    steps.push(['requester message', () => tellRequester(ctx, request).then(() => undefined)]);
    if (request.state === 'pending')
      steps.push(['follow-up messages', () => tellFollowUps(ctx, request, jobs).then(() => undefined)]);
    if (request.breakGlass !== undefined)
      steps.push(['break-glass DMs to leads', () => tellLeads(ctx, request).then(() => undefined)]);
    if (request.timeBox !== undefined)
      steps.push(['put-back DMs', () => tellPutBack(ctx, request).then(() => undefined)]);
    steps.push(['DMs with buttons', () => settleDms(ctx, memory.dmsShown, request).then(() => undefined)]);
    if (refreshesHome(request))
      steps.push(['Home tabs', () => refreshHomes(ctx, request, p).then(() => undefined)]);
  } else if (request.state === 'unknown') {
    // A direct request interrupted by a crash: the requester's answer never came.
    steps.push(['requester message', () => tellRequester(ctx, request).then(() => undefined)]);
  }
  // A batch's own message shows how it ended, whatever its path (../batch.ts).
  steps.push(['batch message', () => showBatch(ctx, request).then(() => undefined)]);
  let outcome: DeliveryOutcome = DONE;
  await forEach(
    steps,
    async ([, step]) => {
      const result = await step();
      if (result?.kind === 'later') outcome = result;
    },
    ([what], error, code) =>
      ctx.logger.error(
        { err: redactError(error), requestId, state: request.state, code },
        `could not update Slack (${what}); not retried`,
      ),
  );
  if (outcome.kind === 'done') memory.progress.delete(requestId);
  return outcome;
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
