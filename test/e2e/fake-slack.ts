import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { type BlockKitSurface, findBlockKitProblems } from '../../src/views/limits.js';

/** The workspace the fake Slack pretends to be. */
export const FAKE_TEAM_ID = 'T0VIDOPS';
export const FAKE_TEAM_DOMAIN = 'vidops-test';
export const FAKE_APP_ID = 'A0VIDOPS';
export const FAKE_BOT_USER_ID = 'U0VIDOPSBOT';
export const FAKE_BOT_ID = 'B0VIDOPS';
export const FAKE_BOT_TOKEN = 'xoxb-0000-fake-slack-token';

/** One Web API call as the fake received it; `args` has JSON-valued form fields decoded. */
export interface RecordedCall {
  method: string;
  args: JsonObject;
  at: Date;
  /** HTTP status answered (200 unless a failure was injected). */
  status: number;
  /** Body answered. */
  response: JsonObject;
}

/** One post to a `response_url`. */
export interface ResponsePost {
  tag: string;
  body: JsonObject;
  at: Date;
  status: number;
}

/** A failure injected with {@link FakeSlack.failNext}. */
export type InjectedFailure = { status: 429; retryAfter: number } | { status: 500 } | { error: string };

export interface FakeSlackUser {
  id: string;
  name: string;
  real_name?: string;
  display_name?: string;
}

/** A file `files.info` knows about, downloadable at its `url_private` with the bot token. */
export interface FakeSlackFile {
  id: string;
  name: string;
  mimetype: string;
  content: Uint8Array | string;
  title?: string;
  user?: string;
}

/** A message as it stands in a channel now (after any `chat.update`). */
export interface StoredMessage extends JsonObject {
  type: 'message';
  channel: string;
  ts: string;
  text: string;
}

/** A view (modal or Home tab) as Slack holds it. */
export interface StoredView extends JsonObject {
  id: string;
  type: string;
  hash: string;
  external_id: string;
}

export interface FakeSlackOptions {
  /** The bot token accepted; anything else is `invalid_auth`. */
  botToken?: string;
  botUserId?: string;
  botId?: string;
  teamId?: string;
}

/**
 * A local stand-in for Slack's Web API and `response_url`s, for end-to-end tests: it records every
 * call, answers like Slack (HTTP 200 with `ok`), checks Block Kit limits as Slack does, and can be
 * told to fail the next calls.
 * @see docs/slack.md
 */
export interface FakeSlack {
  /** `http://127.0.0.1:PORT/api/`: what SLACK_API_URL gets. */
  readonly apiUrl: string;
  readonly url: string;
  readonly botToken: string;
  readonly botUserId: string;
  /** Every Web API call, oldest first. */
  readonly calls: readonly RecordedCall[];
  /** Things Slack accepts but warns about (e.g. blocks without a `text` fallback). */
  readonly warnings: readonly string[];
  /** Every post to a response URL, oldest first. */
  readonly responsePosts: readonly ResponsePost[];
  callsTo(method: string): RecordedCall[];
  /** Resolves with the first call (already arrived or arriving) that matches; rejects on timeout. */
  waitFor(
    method: string,
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  /** Makes the next `times` calls to `method` fail this way. */
  failNext(method: string, failure: InjectedFailure, times?: number): void;
  setUsers(users: readonly FakeSlackUser[]): void;
  setUsergroup(id: string, userIds: readonly string[]): void;
  setFiles(files: readonly FakeSlackFile[]): void;
  /** A response URL on this server; posts to it are recorded under `tag`. */
  responseUrl(tag?: string): string;
  waitForResponse(predicate?: (post: ResponsePost) => boolean, timeoutMs?: number): Promise<ResponsePost>;
  /** Messages posted to a channel, as they stand now. */
  messages(channel: string): StoredMessage[];
  message(channel: string, ts: string): StoredMessage | undefined;
  view(id: string): StoredView | undefined;
  homeView(userId: string): StoredView | undefined;
  /** Forgets calls, messages, views, users, files and injected failures. */
  reset(): void;
  close(): Promise<void>;
}

type Answer = { status?: number; headers?: Record<string, string>; body: JsonObject };
type Handler = (args: JsonObject, call: { token: string | undefined }) => JsonObject;

// Methods Slack answers without a token.
const NO_AUTH_METHODS = new Set(['api.test']);

// Form-encoded fields that Slack reads as JSON (the SDK JSON-encodes non-scalar arguments).
const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata']);

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function fail(error: string, extra: JsonObject = {}): JsonObject {
  return { ok: false, error, ...extra };
}

function summarize(call: RecordedCall): string {
  const args = JSON.stringify(call.args);
  const shown = args.length > 200 ? `${args.slice(0, 199)}…` : args;
  return `  ${call.at.toISOString()} ${call.method} → ${call.response.ok === true ? 'ok' : String(call.response.error)} ${shown}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function parseForm(text: string): JsonObject {
  const args: JsonObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (JSON_FIELDS.has(key) && /^\s*[[{]/.test(value)) {
      try {
        args[key] = JSON.parse(value);
        continue;
      } catch {
        // Slack answers invalid JSON in these fields per method; keep the raw text for the handler.
      }
    }
    args[key] = value;
  }
  return args;
}

function parseBody(contentType: string, text: string): JsonObject | undefined {
  if (text.trim() === '') return {};
  if (contentType.includes('application/json')) {
    try {
      const parsed: JsonValue = JSON.parse(text);
      return isObject(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return parseForm(text);
}

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status ?? 200, {
    'content-type': 'application/json; charset=utf-8',
    ...answer.headers,
  });
  res.end(JSON.stringify(answer.body));
}

/**
 * Starts the fake Slack on 127.0.0.1 and a free port.
 * @see docs/slack.md for the behaviour it imitates (limits, 429 with Retry-After)
 */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const botToken = options.botToken ?? FAKE_BOT_TOKEN;
  const botUserId = options.botUserId ?? FAKE_BOT_USER_ID;
  const botId = options.botId ?? FAKE_BOT_ID;
  const teamId = options.teamId ?? FAKE_TEAM_ID;
  const epoch = Math.floor(Date.now() / 1000);
  const events = new EventEmitter();
  events.setMaxListeners(0);

  const calls: RecordedCall[] = [];
  const warnings: string[] = [];
  const responsePosts: ResponsePost[] = [];
  const failures = new Map<string, { failure: InjectedFailure; remaining: number }[]>();
  const users = new Map<string, FakeSlackUser>();
  const usergroups = new Map<string, string[]>();
  const files = new Map<string, FakeSlackFile>();
  const channels = new Map<string, StoredMessage[]>();
  const tsCounters = new Map<string, number>();
  const views = new Map<string, StoredView>();
  const homeViews = new Map<string, StoredView>();
  const usedTriggers = new Set<string>();
  const dmChannels = new Map<string, string>();
  const responseUses = new Map<string, number>();
  let viewCounter = 0;
  let responseCounter = 0;
  let baseUrl = '';

  const nextTs = (channel: string): string => {
    const n = (tsCounters.get(channel) ?? 0) + 1;
    tsCounters.set(channel, n);
    return `${epoch}.${String(n).padStart(6, '0')}`;
  };
  const newHash = (): string => `${Math.floor(Date.now() / 1000)}.${randomBytes(4).toString('hex')}`;

  /** Checks what a message would show; returns an error answer, or undefined when Slack takes it. */
  const checkMessage = (method: string, args: JsonObject, needsContent: boolean): JsonObject | undefined => {
    const text = str(args.text);
    const blocks = args.blocks;
    if (blocks !== undefined && !Array.isArray(blocks)) return fail('invalid_blocks_format');
    const hasContent = (text ?? '') !== '' || (blocks?.length ?? 0) > 0 || args.attachments !== undefined;
    if (needsContent && !hasContent) return fail('no_text');
    const problems = findBlockKitProblems({ text, blocks }, 'message');
    if (problems.length > 0) {
      const first = problems.find((p) => p.code === 'invalid_blocks') ?? problems[0];
      const errors = problems.map((p) => `${p.path}: ${p.message}`);
      return fail(first?.code ?? 'invalid_blocks', {
        errors,
        response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) },
      });
    }
    if (blocks !== undefined && blocks.length > 0 && (text ?? '') === '') {
      warnings.push(`${method} to ${str(args.channel) ?? '?'}: blocks without a \`text\` fallback`);
    }
    return undefined;
  };

  const checkView = (view: JsonValue | undefined, surface: BlockKitSurface): JsonObject | undefined => {
    if (!isObject(view))
      return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] view'] } });
    const problems = findBlockKitProblems({ view }, surface);
    if (problems.length === 0) return undefined;
    const errors = problems.map((p) => `${p.path}: ${p.message}`);
    return fail('invalid_arguments', {
      errors,
      response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) },
    });
  };

  const storeView = (view: JsonObject, previous: StoredView | undefined): StoredView => {
    viewCounter += 1;
    const id = previous?.id ?? `V0FAKE${String(viewCounter).padStart(4, '0')}`;
    const stored: StoredView = {
      ...view,
      id,
      team_id: teamId,
      type: str(view.type) ?? 'modal',
      blocks: view.blocks ?? [],
      private_metadata: str(view.private_metadata) ?? '',
      callback_id: str(view.callback_id) ?? '',
      state: { values: {} },
      hash: newHash(),
      clear_on_close: view.clear_on_close ?? false,
      notify_on_close: view.notify_on_close ?? false,
      close: view.close ?? null,
      submit: view.submit ?? null,
      previous_view_id: null,
      root_view_id: previous?.root_view_id ?? id,
      app_id: FAKE_APP_ID,
      external_id: str(view.external_id) ?? previous?.external_id ?? '',
      app_installed_team_id: teamId,
      bot_id: botId,
    };
    views.set(id, stored);
    return stored;
  };

  const findExternal = (externalId: string): StoredView | undefined =>
    [...views.values()].find((v) => v.external_id === externalId);

  const openView = (args: JsonObject): JsonObject => {
    const trigger = str(args.trigger_id);
    if (trigger === undefined || trigger === '') return fail('invalid_arguments');
    // A trigger_id can be exchanged once (Slack also expires it after 3 s).
    if (usedTriggers.has(trigger)) return fail('exchanged_trigger_id');
    const problem = checkView(args.view, 'modal');
    if (problem !== undefined || !isObject(args.view)) return problem ?? fail('invalid_arguments');
    const externalId = str(args.view.external_id);
    if (externalId !== undefined && externalId !== '' && findExternal(externalId) !== undefined) {
      return fail('duplicate_external_id');
    }
    usedTriggers.add(trigger);
    return { ok: true, view: storeView(args.view, undefined) };
  };

  const messageOut = (m: StoredMessage): JsonObject => {
    const { channel: _channel, ...message } = m;
    return message;
  };

  const handlers: Record<string, Handler> = {
    'api.test': (args) => ({ ok: true, args }),
    'auth.test': () => ({
      ok: true,
      url: `https://${FAKE_TEAM_DOMAIN}.slack.com/`,
      team: 'vidops test',
      user: 'vidops',
      team_id: teamId,
      user_id: botUserId,
      bot_id: botId,
      is_enterprise_install: false,
    }),
    'chat.postMessage': (args) => {
      const channel = str(args.channel);
      if (channel === undefined || channel === '') return fail('channel_not_found');
      const problem = checkMessage('chat.postMessage', args, true);
      if (problem !== undefined) return problem;
      const ts = nextTs(channel);
      const message: StoredMessage = {
        type: 'message',
        channel,
        ts,
        text: str(args.text) ?? '',
        user: botUserId,
        bot_id: botId,
        app_id: FAKE_APP_ID,
        team: teamId,
      };
      if (args.blocks !== undefined) message.blocks = args.blocks;
      if (args.attachments !== undefined) message.attachments = args.attachments;
      const threadTs = str(args.thread_ts);
      if (threadTs !== undefined) message.thread_ts = threadTs;
      const list = channels.get(channel) ?? [];
      list.push(message);
      channels.set(channel, list);
      const answer: JsonObject = { ok: true, channel, ts, message: messageOut(message) };
      if (args.blocks !== undefined && (str(args.text) ?? '') === '') {
        answer.warning = 'missing_text_or_fallback_or_attachments';
        answer.response_metadata = { warnings: ['missing_text_or_fallback_or_attachments'] };
      }
      return answer;
    },
    'chat.postEphemeral': (args) => {
      const channel = str(args.channel);
      if (channel === undefined || channel === '') return fail('channel_not_found');
      if (str(args.user) === undefined) return fail('user_not_in_channel');
      const problem = checkMessage('chat.postEphemeral', args, true);
      if (problem !== undefined) return problem;
      // Ephemeral messages are not stored: chat.update cannot reach them, as in Slack.
      return { ok: true, message_ts: nextTs(`ephemeral:${channel}`) };
    },
    'chat.update': (args) => {
      const channel = str(args.channel) ?? '';
      const ts = str(args.ts) ?? '';
      const message = channels.get(channel)?.find((m) => m.ts === ts);
      if (message === undefined) return fail('message_not_found');
      const problem = checkMessage('chat.update', args, true);
      if (problem !== undefined) return problem;
      if (args.text !== undefined) message.text = str(args.text) ?? '';
      // Slack keeps the previous blocks when `blocks` is left out; `[]` removes them.
      if (args.blocks !== undefined) message.blocks = args.blocks;
      if (args.attachments !== undefined) message.attachments = args.attachments;
      message.edited = { user: botUserId, ts: nextTs(`edit:${channel}`) };
      return { ok: true, channel, ts, text: message.text, message: messageOut(message) };
    },
    'views.open': (args) => openView(args),
    'views.push': (args) => openView(args),
    'views.update': (args) => {
      const viewId = str(args.view_id);
      const externalId = str(args.external_id);
      if (viewId === undefined && externalId === undefined) return fail('invalid_arguments');
      const current = viewId !== undefined ? views.get(viewId) : findExternal(externalId ?? '');
      if (current === undefined) return fail('not_found');
      const hash = str(args.hash);
      if (hash !== undefined && hash !== current.hash) return fail('hash_conflict');
      const problem = checkView(args.view, current.type === 'home' ? 'home' : 'modal');
      if (problem !== undefined || !isObject(args.view)) return problem ?? fail('invalid_arguments');
      return { ok: true, view: storeView(args.view, current) };
    },
    'views.publish': (args) => {
      const userId = str(args.user_id);
      if (userId === undefined || userId === '') return fail('invalid_arguments');
      const problem = checkView(args.view, 'home');
      if (problem !== undefined || !isObject(args.view)) return problem ?? fail('invalid_arguments');
      const current = homeViews.get(userId);
      const hash = str(args.hash);
      if (hash !== undefined && current !== undefined && hash !== current.hash) return fail('hash_conflict');
      const stored = storeView(args.view, current);
      homeViews.set(userId, stored);
      return { ok: true, view: stored };
    },
    'usergroups.users.list': (args) => {
      const members = usergroups.get(str(args.usergroup) ?? '');
      if (members === undefined) return fail('no_such_subteam');
      return { ok: true, users: [...members] };
    },
    'users.info': (args) => {
      const user = users.get(str(args.user) ?? '');
      if (user === undefined) return fail('user_not_found');
      const realName = user.real_name ?? user.name;
      const displayName = user.display_name ?? user.name;
      return {
        ok: true,
        user: {
          id: user.id,
          team_id: teamId,
          name: user.name,
          real_name: realName,
          deleted: false,
          is_bot: false,
          tz: 'Asia/Tehran',
          profile: { display_name: displayName, real_name: realName, team: teamId },
        },
      };
    },
    'conversations.open': (args) => {
      const ids = (str(args.users) ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .sort();
      if (ids.length === 0) {
        const channel = str(args.channel);
        return channel === undefined
          ? fail('users_list_not_supplied')
          : { ok: true, channel: { id: channel } };
      }
      const key = ids.join(',');
      let id = dmChannels.get(key);
      if (id === undefined) {
        id = `D0FAKE${String(dmChannels.size + 1).padStart(4, '0')}`;
        dmChannels.set(key, id);
      }
      return { ok: true, no_op: false, already_open: false, channel: { id } };
    },
    'files.info': (args) => {
      const file = files.get(str(args.file) ?? '');
      if (file === undefined) return fail('file_not_found');
      const url = `${baseUrl}/files-pri/${teamId}-${file.id}/${encodeURIComponent(file.name)}`;
      const size =
        typeof file.content === 'string' ? Buffer.byteLength(file.content) : file.content.byteLength;
      return {
        ok: true,
        file: {
          id: file.id,
          name: file.name,
          title: file.title ?? file.name,
          mimetype: file.mimetype,
          filetype: file.name.split('.').pop() ?? '',
          size,
          user: file.user ?? botUserId,
          url_private: url,
          url_private_download: `${url}?download=1`,
        },
      };
    },
  };

  // --- Channel history, for `vidops audit witness` (issue 12) ---------------------------------
  // conversations.history pages a channel's messages newest first (thread replies left out), with
  // `limit` (default 100, at most 999), `oldest`/`latest` (exclusive unless `inclusive`) and an
  // opaque cursor; chat.delete removes a message, as the bot (or an admin) can.
  handlers['conversations.history'] = (args) => {
    const channel = str(args.channel);
    if (channel === undefined || channel === '') return fail('channel_not_found');
    const limit = Math.min(Math.max(Number(str(args.limit) ?? 100) || 100, 1), 999);
    const inclusive = str(args.inclusive) === 'true' || str(args.inclusive) === '1';
    const oldest = Number(str(args.oldest) ?? 0);
    const latest = Number(str(args.latest) ?? Number.POSITIVE_INFINITY);
    const inRange = (ts: number) => (inclusive ? ts >= oldest && ts <= latest : ts > oldest && ts < latest);
    const all = (channels.get(channel) ?? [])
      .filter((m) => (m.thread_ts === undefined || m.thread_ts === m.ts) && inRange(Number(m.ts)))
      .reverse();
    const cursor = str(args.cursor);
    const start =
      cursor === undefined || cursor === '' ? 0 : Number(Buffer.from(cursor, 'base64').toString());
    if (!Number.isInteger(start) || start < 0) return fail('invalid_cursor');
    const page = all.slice(start, start + limit);
    const more = start + limit < all.length;
    return {
      ok: true,
      messages: page.map(messageOut),
      has_more: more,
      pin_count: 0,
      response_metadata: { next_cursor: more ? Buffer.from(String(start + limit)).toString('base64') : '' },
    };
  };
  handlers['chat.delete'] = (args) => {
    const list = channels.get(str(args.channel) ?? '');
    const index = list?.findIndex((m) => m.ts === str(args.ts)) ?? -1;
    if (list === undefined || index === -1) return fail('message_not_found');
    list.splice(index, 1);
    return { ok: true, channel: str(args.channel) ?? '', ts: str(args.ts) ?? '' };
  };

  const record = (call: RecordedCall): void => {
    calls.push(call);
    events.emit('call', call);
  };

  const takeFailure = (method: string): InjectedFailure | undefined => {
    const queue = failures.get(method);
    const head = queue?.[0];
    if (queue === undefined || head === undefined) return undefined;
    head.remaining -= 1;
    if (head.remaining <= 0) queue.shift();
    return head.failure;
  };

  const failureAnswer = (failure: InjectedFailure): Answer => {
    if ('error' in failure) return { body: fail(failure.error) };
    if (failure.status === 429) {
      return {
        status: 429,
        headers: { 'retry-after': String(failure.retryAfter) },
        body: fail('ratelimited'),
      };
    }
    return { status: 500, body: fail('internal_error') };
  };

  const handleApi = async (
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    query: URLSearchParams,
  ) => {
    const text = await readBody(req);
    const parsed = parseBody(req.headers['content-type'] ?? '', text);
    const { token: bodyToken, ...args }: JsonObject = { ...parseForm(query.toString()), ...(parsed ?? {}) };
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    // Slack reads a JSON body's token only from the Authorization header.
    const token = bearer ?? (req.headers['content-type']?.includes('json') ? undefined : str(bodyToken));

    let answer: Answer;
    const injected = takeFailure(method);
    const handler = handlers[method];
    if (injected !== undefined) answer = failureAnswer(injected);
    else if (parsed === undefined) answer = { body: fail('invalid_json') };
    else if (handler === undefined) answer = { body: fail('unknown_method', { req_method: method }) };
    else if (token !== botToken && !NO_AUTH_METHODS.has(method)) answer = { body: fail('invalid_auth') };
    else answer = { body: handler(args, { token }) };

    record({ method, args, at: new Date(), status: answer.status ?? 200, response: answer.body });
    send(res, answer);
  };

  const handleResponseUrl = async (req: IncomingMessage, res: ServerResponse, tag: string) => {
    const text = await readBody(req);
    const contentType = req.headers['content-type'] ?? '';
    let body = parseBody(contentType, text);
    // Some clients post `payload=<json>` form bodies to response URLs.
    if (body !== undefined && !contentType.includes('json') && typeof body.payload === 'string') {
      body = parseBody('application/json', body.payload);
    }
    const uses = (responseUses.get(tag) ?? 0) + 1;
    responseUses.set(tag, uses);
    let answer: Answer;
    if (body === undefined) answer = { status: 400, body: fail('invalid_payload') };
    else if (uses > 5) answer = { status: 404, body: fail('used_url') };
    else if (body.delete_original === true || body.delete_original === 'true')
      answer = { body: { ok: true } };
    else {
      const problem = checkMessage('response_url', body, true);
      answer = problem === undefined ? { body: { ok: true } } : { status: 400, body: problem };
    }
    const post: ResponsePost = {
      tag,
      body: body ?? { raw: text },
      at: new Date(),
      status: answer.status ?? 200,
    };
    responsePosts.push(post);
    events.emit('response', post);
    send(res, answer);
  };

  const handleDownload = (req: IncomingMessage, res: ServerResponse, fileKey: string) => {
    const file = files.get(fileKey.slice(teamId.length + 1));
    if (req.headers.authorization !== `Bearer ${botToken}`) {
      // Like Slack: without the token you get redirected to a sign-in page, not a 401.
      res.writeHead(302, { location: `${baseUrl}/signin` });
      res.end();
      return;
    }
    if (file === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('file not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.mimetype });
    res.end(typeof file.content === 'string' ? Buffer.from(file.content) : file.content);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', baseUrl || 'http://127.0.0.1');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const route = async () => {
      if (parts[0] === 'api' && parts.length === 2 && parts[1] !== undefined) {
        await handleApi(req, res, parts[1], url.searchParams);
      } else if (
        parts[0] === 'response' &&
        parts.length === 2 &&
        parts[1] !== undefined &&
        req.method === 'POST'
      ) {
        await handleResponseUrl(req, res, parts[1]);
      } else if (parts[0] === 'files-pri' && parts[1] !== undefined && req.method === 'GET') {
        handleDownload(req, res, parts[1]);
      } else if (parts[0] === 'signin') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!DOCTYPE html><html><body>Sign in to vidops test</body></html>');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    };
    route().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake Slack failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  function waitForEvent<T>(
    event: 'call' | 'response',
    existing: readonly T[],
    matches: (item: T) => boolean,
    timeoutMs: number,
    describeTimeout: () => string,
  ): Promise<T> {
    const found = existing.find(matches);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const onItem = (item: T) => {
        let matched: boolean;
        try {
          matched = matches(item);
        } catch (error) {
          // A throwing predicate fails the wait, not the fake's answer to the client.
          clearTimeout(timer);
          events.off(event, onItem);
          reject(error);
          return;
        }
        if (!matched) return;
        clearTimeout(timer);
        events.off(event, onItem);
        resolve(item);
      };
      const timer = setTimeout(() => {
        events.off(event, onItem);
        reject(new Error(describeTimeout()));
      }, timeoutMs);
      events.on(event, onItem);
    });
  }

  const fake: FakeSlack = {
    apiUrl: `${baseUrl}/api/`,
    url: baseUrl,
    botToken,
    botUserId,
    calls,
    warnings,
    responsePosts,
    callsTo: (method) => calls.filter((c) => c.method === method),
    waitFor: (method, predicate = () => true, timeoutMs = 5000) =>
      waitForEvent<RecordedCall>(
        'call',
        calls,
        (c) => c.method === method && predicate(c),
        timeoutMs,
        () => {
          const recent = calls.slice(-10).map(summarize);
          return [
            `fake Slack: no matching ${method} call within ${timeoutMs} ms (${calls.length} calls in all).`,
            recent.length > 0 ? `Most recent calls:\n${recent.join('\n')}` : 'No calls at all.',
          ].join('\n');
        },
      ),
    failNext: (method, failure, times = 1) => {
      const queue = failures.get(method) ?? [];
      queue.push({ failure, remaining: times });
      failures.set(method, queue);
    },
    setUsers: (list) => {
      for (const user of list) users.set(user.id, { ...user });
    },
    setUsergroup: (id, userIds) => {
      usergroups.set(id, [...userIds]);
    },
    setFiles: (list) => {
      for (const file of list) files.set(file.id, { ...file });
    },
    responseUrl: (tag) => {
      responseCounter += 1;
      return `${baseUrl}/response/${encodeURIComponent(tag ?? `r${responseCounter}`)}`;
    },
    waitForResponse: (predicate = () => true, timeoutMs = 5000) =>
      waitForEvent<ResponsePost>('response', responsePosts, predicate, timeoutMs, () => {
        const recent = responsePosts
          .slice(-10)
          .map((p) => `  ${p.tag}: ${JSON.stringify(p.body).slice(0, 200)}`);
        return [
          `fake Slack: no matching response_url post within ${timeoutMs} ms.`,
          recent.length > 0 ? `Most recent posts:\n${recent.join('\n')}` : 'No response_url posts at all.',
        ].join('\n');
      }),
    messages: (channel) => [...(channels.get(channel) ?? [])],
    message: (channel, ts) => channels.get(channel)?.find((m) => m.ts === ts),
    view: (id) => views.get(id),
    homeView: (userId) => homeViews.get(userId),
    reset: () => {
      calls.length = 0;
      warnings.length = 0;
      responsePosts.length = 0;
      // Timestamps keep increasing across resets, so a ts is never reused by the same server.
      for (const map of [failures, users, usergroups, files, channels, views, homeViews, dmChannels]) {
        map.clear();
      }
      usedTriggers.clear();
      responseUses.clear();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        events.removeAllListeners();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of the client under test would otherwise hold the server open.
        server.closeAllConnections();
      }),
  };
  return fake;
}
