import type { JsonObject } from '../core/json.js';
import type { InjectedFailure } from './emulator.js';
import { fail, isObject, str } from './json.js';
import { appEphemeral, botMessage, checkMessage, messageOut, updateMessage } from './messages.js';
import { changed, channelFor, dmChannelOf, type EmulatorState, fileInfo, userOut } from './state.js';
import { checkView, findExternal, openView, storeView } from './views.js';
import { APP_ID, BOT_ID, BOT_NAME, BOT_USER_ID, TEAM_DOMAIN, TEAM_ID } from './workspace.js';

/**
 * The Slack Web API methods vidops calls, one small handler per method as Slack documents them
 * (https://api.slack.com/methods), and what comes before every call: a failure injected with
 * `failNext`, the token's check, the call recorded.
 * @see docs/slack.md; docs/architecture.md, "Emulator and playground"
 */

/** An answer to an HTTP request: 200 and a JSON body unless said otherwise. */
export type Answer = { status?: number; headers?: Record<string, string>; body: JsonObject };

/** One Web API method: the call's arguments in, Slack's JSON answer out. */
export type WebApiMethod = (state: EmulatorState, args: JsonObject) => JsonObject;

/** Methods Slack answers without a token, and the one that takes the app-level token. */
const NO_AUTH_METHODS = new Set(['api.test']);
const APP_TOKEN_METHODS = new Set(['apps.connections.open']);

export const WEB_API: Readonly<Record<string, WebApiMethod>> = {
  'api.test': (_state, args) => ({ ok: true, args }),
  'apps.connections.open': (state) => ({
    ok: true,
    url: `${state.baseUrl.replace(/^http/, 'ws')}/link/?ticket=${state.hub.issueTicket()}&app_id=${APP_ID}`,
  }),
  'auth.test': () => ({
    ok: true,
    url: `https://${TEAM_DOMAIN}.slack.com/`,
    team: 'vidops (local)',
    user: BOT_NAME,
    team_id: TEAM_ID,
    user_id: BOT_USER_ID,
    bot_id: BOT_ID,
    is_enterprise_install: false,
  }),
  'chat.postMessage': (state, args) => {
    const given = str(args.channel);
    if (given === undefined || given === '') return fail('channel_not_found');
    const problem = checkMessage(state, 'chat.postMessage', args, true);
    if (problem !== undefined) return problem;
    const channel = channelFor(state, given);
    const message = botMessage(state, channel, args);
    return { ok: true, channel, ts: message.ts, message: messageOut(message), ...fallbackWarning(args) };
  },
  'chat.postEphemeral': (state, args) => {
    const channel = str(args.channel);
    const user = str(args.user);
    if (channel === undefined || channel === '') return fail('channel_not_found');
    if (user === undefined) return fail('user_not_in_channel');
    const problem = checkMessage(state, 'chat.postEphemeral', args, true);
    if (problem !== undefined) return problem;
    // Kept apart from the channel's messages: chat.update cannot reach them, as in Slack.
    return { ok: true, message_ts: appEphemeral(state, channelFor(state, channel), user, args).ts };
  },
  'chat.update': (state, args) => {
    const channel = str(args.channel) ?? '';
    const ts = str(args.ts) ?? '';
    const message = state.channels.get(channel)?.find((m) => m.ts === ts);
    if (message === undefined) return fail('message_not_found');
    const problem = checkMessage(state, 'chat.update', args, true);
    if (problem !== undefined) return problem;
    updateMessage(state, message, args);
    return { ok: true, channel, ts, text: message.text, message: messageOut(message) };
  },
  'chat.delete': (state, args) => {
    const channel = str(args.channel) ?? '';
    const list = state.channels.get(channel);
    const index = list?.findIndex((m) => m.ts === str(args.ts)) ?? -1;
    if (list === undefined || index === -1) return fail('message_not_found');
    list.splice(index, 1);
    changed(state, { kind: 'message', channel });
    return { ok: true, channel, ts: str(args.ts) ?? '' };
  },
  'conversations.history': (state, args) => {
    const channel = str(args.channel);
    if (channel === undefined || channel === '') return fail('channel_not_found');
    const cursor = str(args.cursor);
    const start =
      cursor === undefined || cursor === '' ? 0 : Number(Buffer.from(cursor, 'base64').toString());
    if (!Number.isInteger(start) || start < 0) return fail('invalid_cursor');
    return historyPage(state, channelFor(state, channel), args, start);
  },
  'conversations.open': (state, args) => {
    const ids = (str(args.users) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .sort();
    const channel = str(args.channel);
    if (ids.length === 0)
      return channel === undefined ? fail('users_list_not_supplied') : { ok: true, channel: { id: channel } };
    if (ids.length > 1) return fail('not_implemented', { detail: 'the emulator opens DMs with one person' });
    const user = ids[0] ?? '';
    const already = state.dmChannels.has(user);
    return { ok: true, no_op: already, already_open: already, channel: { id: dmChannelOf(state, user) } };
  },
  'views.open': (state, args) => openView(state, args, false),
  'views.push': (state, args) => openView(state, args, true),
  'views.update': (state, args) => {
    const viewId = str(args.view_id);
    const externalId = str(args.external_id);
    if (viewId === undefined && externalId === undefined) return fail('invalid_arguments');
    const current = viewId !== undefined ? state.views.get(viewId) : findExternal(state, externalId ?? '');
    if (current === undefined || state.closedViews.has(current.id)) return fail('not_found');
    const hash = str(args.hash);
    if (hash !== undefined && hash !== current.hash) return fail('hash_conflict');
    const home = current.type === 'home';
    const problem = checkView(args.view, home ? 'home' : 'modal');
    if (problem !== undefined || !isObject(args.view)) return problem ?? fail('invalid_arguments');
    const stored = storeView(state, args.view, current, null);
    const owner = state.viewOwners.get(stored.id);
    changed(state, { kind: home ? 'home' : 'view', ...(owner === undefined ? {} : { user: owner }) });
    return { ok: true, view: stored };
  },
  'views.publish': (state, args) => {
    const userId = str(args.user_id);
    if (userId === undefined || userId === '') return fail('invalid_arguments');
    const problem = checkView(args.view, 'home');
    if (problem !== undefined || !isObject(args.view)) return problem ?? fail('invalid_arguments');
    const current = state.homeViews.get(userId);
    const hash = str(args.hash);
    if (hash !== undefined && current !== undefined && hash !== current.hash) return fail('hash_conflict');
    const stored = storeView(state, args.view, current, null);
    state.homeViews.set(userId, stored);
    state.viewOwners.set(stored.id, userId);
    changed(state, { kind: 'home', user: userId });
    return { ok: true, view: stored };
  },
  // https://api.slack.com/methods/conversations.info: `is_member` says whether the bot is in it.
  'conversations.info': (state, args) => {
    const id = str(args.channel) ?? '';
    const known = state.channelList.get(id);
    if (known === undefined && !state.channels.has(id)) return fail('channel_not_found');
    return {
      ok: true,
      channel: {
        id,
        name: known?.name ?? id.toLowerCase(),
        is_channel: true,
        is_private: false,
        is_archived: false,
        is_member: known?.botIsMember ?? true,
      },
    };
  },
  'usergroups.users.list': (state, args) => {
    const group = state.usergroups.get(str(args.usergroup) ?? '');
    return group === undefined ? fail('no_such_subteam') : { ok: true, users: [...group.members] };
  },
  'users.info': (state, args) => {
    const user = state.users.get(str(args.user) ?? '');
    if (user === undefined) return fail('user_not_found');
    // Like Slack, `locale` only when asked for with `include_locale`.
    const locale = str(args.include_locale) === 'true' ? { locale: user.locale ?? 'en-US' } : {};
    return { ok: true, user: { ...userOut(user), ...locale } };
  },
  'files.info': (state, args) => {
    const file = fileInfo(state, str(args.file) ?? '');
    return file === undefined ? fail('file_not_found') : { ok: true, file };
  },
};

/** Slack's warning on blocks posted without a `text` fallback. */
function fallbackWarning(args: JsonObject): JsonObject {
  if (args.blocks === undefined || (str(args.text) ?? '') !== '') return {};
  const warning = 'missing_text_or_fallback_or_attachments';
  return { warning, response_metadata: { warnings: [warning] } };
}

/**
 * One page of a channel's history, newest first (thread replies left out), as `vidops audit
 * witness` reads it: `limit` (default 100, at most 999), `oldest`/`latest` (exclusive unless
 * `inclusive`), from `start` (the opaque cursor read).
 */
function historyPage(state: EmulatorState, channel: string, args: JsonObject, start: number): JsonObject {
  const limit = Math.min(Math.max(Number(str(args.limit) ?? 100) || 100, 1), 999);
  const inclusive = str(args.inclusive) === 'true' || str(args.inclusive) === '1';
  const oldest = Number(str(args.oldest) ?? 0);
  const latest = Number(str(args.latest) ?? Number.POSITIVE_INFINITY);
  const inRange = (ts: number) => (inclusive ? ts >= oldest && ts <= latest : ts > oldest && ts < latest);
  const all = (state.channels.get(channel) ?? [])
    .filter((m) => (m.thread_ts === undefined || m.thread_ts === m.ts) && inRange(Number(m.ts)))
    .reverse();
  const more = start + limit < all.length;
  return {
    ok: true,
    messages: all.slice(start, start + limit).map(messageOut),
    has_more: more,
    pin_count: 0,
    response_metadata: { next_cursor: more ? Buffer.from(String(start + limit)).toString('base64') : '' },
  };
}

/** Why the token does not open this method (none, unknown, the wrong kind); undefined when it does. */
function authProblem(state: EmulatorState, method: string, token: string | undefined): string | undefined {
  if (NO_AUTH_METHODS.has(method)) return undefined;
  const wanted = APP_TOKEN_METHODS.has(method) ? state.appToken : state.botToken;
  if (token === wanted) return undefined;
  if (token === state.appToken || token === state.botToken) return 'not_allowed_token_type';
  return token === undefined || token === '' ? 'not_authed' : 'invalid_auth';
}

function takeFailure(state: EmulatorState, method: string): InjectedFailure | undefined {
  const queue = state.failures.get(method);
  const head = queue?.[0];
  if (queue === undefined || head === undefined) return undefined;
  head.remaining -= 1;
  if (head.remaining <= 0) queue.shift();
  return head.failure;
}

function failureAnswer(failure: InjectedFailure): Answer {
  if ('error' in failure) return { body: fail(failure.error) };
  if (failure.status === 429) {
    return { status: 429, headers: { 'retry-after': String(failure.retryAfter) }, body: fail('ratelimited') };
  }
  return { status: 500, body: fail('internal_error') };
}

/** A Web API call as read from its request (the token taken out of `args`). */
export interface ApiCall {
  method: string;
  args: JsonObject;
  token: string | undefined;
  /** The body was not the JSON its content type said. */
  invalidJson: boolean;
}

/** Answers one Web API call as Slack would, and records it. */
export function callMethod(state: EmulatorState, call: ApiCall): Answer {
  const { method, args, token } = call;
  const injected = takeFailure(state, method);
  // Own methods only: `constructor` or `toString` is no Web API method.
  const handler = Object.hasOwn(WEB_API, method) ? WEB_API[method] : undefined;
  const auth = handler === undefined ? undefined : authProblem(state, method, token);
  let answer: Answer;
  if (injected !== undefined) answer = failureAnswer(injected);
  else if (call.invalidJson) answer = { body: fail('invalid_json') };
  else if (handler === undefined) answer = { body: fail('unknown_method', { req_method: method }) };
  else if (auth !== undefined) answer = { body: fail(auth) };
  else answer = { body: handler(state, args), headers: { 'x-oauth-scopes': state.scopes.join(',') } };
  const recorded = {
    method,
    args,
    at: new Date(state.now()),
    status: answer.status ?? 200,
    response: answer.body,
  };
  state.calls.push(recorded);
  state.events.emit('call', recorded);
  return answer;
}
