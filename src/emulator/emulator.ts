import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { BlockKitSurface } from '../views/limits.js';
import { findSurfaceProblems } from './blockkit.js';
import { postToApp } from './delivery.js';
import { type SlackRequest, triggerIssuedAt } from './payloads.js';
import { type EnvelopeType, SocketModeHub } from './socket-mode.js';
import {
  APP_ID,
  BOT_ID,
  BOT_NAME,
  BOT_USER_ID,
  type EmulatorChannel,
  type EmulatorUser,
  type EmulatorUsergroup,
  randomCredentials,
  TEAM_DOMAIN,
  TEAM_ID,
} from './workspace.js';

/** One Web API call as the emulator received it; `args` has JSON-valued form fields decoded. */
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

/** A failure injected with {@link Emulator.failNext}. */
export type InjectedFailure = { status: 429; retryAfter: number } | { status: 500 } | { error: string };

/** A file `files.info` knows about, downloadable at its `url_private` with the bot token. */
export interface EmulatorFile {
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

/** A message only one person sees: an ephemeral reply, or Slack's own notice to them. */
export interface EphemeralMessage {
  channel: string;
  /** The one person who sees it. */
  user: string;
  ts: string;
  text: string;
  blocks?: JsonValue;
  /** `app`: vidops; `slackbot`: Slack itself (a failed command); `echo`: the command as typed. */
  from: 'app' | 'slackbot' | 'echo';
}

/** Where posts to a response URL land; URLs made for tests (no target) are only recorded. */
export interface ResponseTarget {
  channel: string;
  user: string;
  /** The message an interaction came from: `replace_original`/`delete_original` act on it. */
  original?: { ts: string; ephemeral: boolean };
}

export type DeliveryKind = EnvelopeType;

/** How Slack's delivery of one request to the app went. */
export type Delivery =
  | {
      ok: true;
      via: 'http' | 'socket';
      /** The ack's payload (a `response_action`, a reply), when it had one. */
      payload: JsonObject | undefined;
      ms: number;
      attempts: number;
    }
  | {
      ok: false;
      via: 'http' | 'socket' | 'none';
      /** What Slack tells the person: `dispatch_failed` (unreachable, not 200), `operation_timeout`. */
      error: 'dispatch_failed' | 'operation_timeout';
      detail: string;
      ms: number;
      attempts: number;
    };

/** Something a viewer of the workspace should redraw. */
export interface EmulatorChange {
  kind: 'message' | 'ephemeral' | 'view' | 'home' | 'connection' | 'directory';
  channel?: string;
  user?: string;
}

export interface EmulatorOptions {
  /** Credentials; random per start when left out (nothing in them is a real secret). */
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  /** Listen address and port; 127.0.0.1 and a free port by default. */
  host?: string;
  port?: number;
  users?: readonly EmulatorUser[];
  usergroups?: readonly EmulatorUsergroup[];
  channels?: readonly EmulatorChannel[];
  /** Slack's ack deadline; 3000 ms. */
  ackTimeoutMs?: number;
  /** How long a trigger_id may wait to be exchanged; 3000 ms. */
  triggerTtlMs?: number;
  /** Pauses before Slack's retries of an Events API delivery; Slack's: nearly at once, 1 min, 5 min. */
  eventRetryDelaysMs?: readonly number[];
  /** How often open Socket Mode connections are pinged; 10 s. */
  socketPingIntervalMs?: number;
  /** The emulator's clock (response URL and trigger expiry); `Date.now` by default. */
  now?: () => number;
  /** Told of things worth a line in a log (late acks, refused deliveries). */
  onNote?: (note: string) => void;
  /** Serves more routes (the playground page) on the same server; answers false to pass. */
  extraRoutes?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
  /** Asked first about every request and WebSocket upgrade (the playground's Host check): a reason refuses it with 403. */
  refuse?: (req: IncomingMessage) => string | undefined;
}

/**
 * A local Slack for vidops: the Web API methods it calls, `response_url`s, file downloads, and
 * delivery of what people do (slash commands, clicks, submissions, App Home) over HTTP (signed,
 * with Slack's 3-second deadline and retries) or Socket Mode. It records every call, answers like
 * Slack (HTTP 200 with `ok`), refuses Block Kit that Slack would refuse, and can be told to fail
 * the next calls. Tests, the benchmark and the playground all use it.
 * @see docs/slack.md; docs/architecture.md, "Emulator and playground"
 */
export interface Emulator {
  /** `http://HOST:PORT/api/`: what SLACK_API_URL gets. */
  readonly apiUrl: string;
  readonly url: string;
  readonly botToken: string;
  /** The app-level token `apps.connections.open` accepts (Socket Mode). */
  readonly appToken: string;
  /** The secret HTTP deliveries are signed with. */
  readonly signingSecret: string;
  readonly botUserId: string;
  readonly teamId: string;
  /** Every Web API call, oldest first. */
  readonly calls: readonly RecordedCall[];
  /** Things Slack accepts but warns about (e.g. blocks without a `text` fallback). */
  readonly warnings: readonly string[];
  /** Every post to a response URL, oldest first. */
  readonly responsePosts: readonly ResponsePost[];
  readonly socketMode: {
    readonly connections: number;
    /** Connections greeted with `hello` since the start (a reconnect adds one). */
    readonly helloCount: number;
    waitForConnections(count?: number, timeoutMs?: number): Promise<void>;
    /** Sends `disconnect`: every client must reconnect. */
    requestReconnect(reason?: string): void;
    /** Cuts every connection, as a network failure would. */
    dropAll(): void;
  };
  callsTo(method: string): RecordedCall[];
  /** Resolves with the first call (already arrived or arriving) that matches; rejects on timeout. */
  waitFor(
    method: string,
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  /** Makes the next `times` calls to `method` fail this way. */
  failNext(method: string, failure: InjectedFailure, times?: number): void;
  setUsers(users: readonly EmulatorUser[]): void;
  setUsergroup(id: string, userIds: readonly string[], handle?: string): void;
  setChannels(channels: readonly EmulatorChannel[]): void;
  setFiles(files: readonly EmulatorFile[]): void;
  /** Stores an uploaded file under a new `F…` ID. */
  addFile(file: Omit<EmulatorFile, 'id'>): EmulatorFile;
  /** `files.info`'s description of a file, its `url_private` included. */
  fileInfo(id: string): JsonObject | undefined;
  users(): EmulatorUser[];
  user(id: string): EmulatorUser | undefined;
  channels(): EmulatorChannel[];
  usergroups(): EmulatorUsergroup[];
  /** A response URL on this server; posts to it are recorded under `tag` and land at `target`. */
  responseUrl(tag?: string, target?: ResponseTarget): string;
  waitForResponse(predicate?: (post: ResponsePost) => boolean, timeoutMs?: number): Promise<ResponsePost>;
  /** A trigger_id good for one `views.open`/`views.push` within 3 seconds, for this user. */
  issueTrigger(userId: string): string;
  /** Messages posted to a channel, as they stand now. */
  messages(channel: string): StoredMessage[];
  message(channel: string, ts: string): StoredMessage | undefined;
  /** What only `user` sees, in `channel` or everywhere. */
  ephemerals(user: string, channel?: string): EphemeralMessage[];
  /** Shows `user` a message only they see (Slack's notices, the command they typed). */
  addEphemeral(message: Omit<EphemeralMessage, 'ts'>): EphemeralMessage;
  /** A message a person writes in a channel. */
  postAsUser(channel: string, user: string, text: string): StoredMessage;
  /**
   * Shows a reply given in an ack (a slash command's): where a response URL post would land, but
   * without using one of the URL's five posts. Answers Slack's error when the reply is refused.
   */
  showAckReply(target: ResponseTarget, body: JsonObject): string | undefined;
  /** The bot's DM channel with a user (opened if needed). */
  dmChannel(user: string): string;
  /** The DM channels the bot has with `user`. */
  dmsOf(user: string): string[];
  view(id: string): StoredView | undefined;
  homeView(userId: string): StoredView | undefined;
  /** The modals open for a user, the root first and the one on top last. */
  modalStack(userId: string): StoredView[];
  /** Closes the top modal of a user (`all`: the whole stack); returns what was closed. */
  closeModals(userId: string, which: 'top' | 'all'): StoredView[];
  /**
   * Applies a `response_action` of `update` (the top view replaced) or `push`; answers Slack's
   * error when the view is refused.
   */
  showSubmittedView(
    userId: string,
    viewId: string,
    action: 'update' | 'push',
    view: JsonValue | undefined,
  ): { ok: true; view: StoredView } | { ok: false; error: string; problems: string[] };
  /** Where HTTP deliveries go (`…/slack/events`); Socket Mode connections take precedence. */
  setRequestUrl(url: string | undefined): void;
  /** Delivers a request to the app as Slack would: over a socket when one is open, else over HTTP. */
  deliver(kind: DeliveryKind, request: SlackRequest): Promise<Delivery>;
  /** Calls `listener` after every change a viewer would see; returns the unsubscribe. */
  onChange(listener: (change: EmulatorChange) => void): () => void;
  /** Forgets calls, messages, views, users, files and injected failures. */
  reset(): void;
  close(): Promise<void>;
}

type Answer = { status?: number; headers?: Record<string, string>; body: JsonObject };
type Handler = (args: JsonObject, call: { token: string | undefined }) => JsonObject;

/** Methods Slack answers without a token, and the one that takes the app-level token. */
const NO_AUTH_METHODS = new Set(['api.test']);
const APP_TOKEN_METHODS = new Set(['apps.connections.open']);

// Form-encoded fields that Slack reads as JSON (the SDK JSON-encodes non-scalar arguments).
const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata']);

/** Slack's rule for response URLs: 5 uses within 30 minutes. */
const RESPONSE_URL_USES = 5;
const RESPONSE_URL_TTL_MS = 30 * 60_000;
/** Modals stack at most three deep. */
const MAX_MODAL_STACK = 3;

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function truthy(value: JsonValue | undefined): boolean {
  return value === true || value === 'true';
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

function problemAnswer(code: string, errors: string[]): JsonObject {
  return fail(code, { errors, response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) } });
}

/**
 * Starts the emulator on 127.0.0.1 (or `host`) and a free port (or `port`).
 * @see docs/slack.md for the behaviour it imitates (limits, deadlines, 429 with Retry-After)
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const random = randomCredentials();
  const botToken = options.botToken ?? random.botToken;
  const appToken = options.appToken ?? random.appToken;
  const signingSecret = options.signingSecret ?? random.signingSecret;
  const botUserId = BOT_USER_ID;
  const botId = BOT_ID;
  const teamId = TEAM_ID;
  const now = options.now ?? Date.now;
  const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
  const triggerTtlMs = options.triggerTtlMs ?? 3000;
  const eventRetryDelaysMs = options.eventRetryDelaysMs ?? [0, 60_000, 300_000];
  const note = options.onNote ?? (() => {});
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const hub = new SocketModeHub({
    onNote: note,
    ...(options.socketPingIntervalMs === undefined ? {} : { pingIntervalMs: options.socketPingIntervalMs }),
  });

  const calls: RecordedCall[] = [];
  const warnings: string[] = [];
  const responsePosts: ResponsePost[] = [];
  const failures = new Map<string, { failure: InjectedFailure; remaining: number }[]>();
  const users = new Map<string, EmulatorUser>();
  const usergroups = new Map<string, EmulatorUsergroup>();
  const channelList = new Map<string, EmulatorChannel>();
  const files = new Map<string, EmulatorFile>();
  const channels = new Map<string, StoredMessage[]>();
  const ephemeralList: EphemeralMessage[] = [];
  const views = new Map<string, StoredView>();
  const viewOwners = new Map<string, string>();
  const closedViews = new Set<string>();
  const stacks = new Map<string, string[]>();
  const homeViews = new Map<string, StoredView>();
  const triggers = new Map<string, { user: string | undefined; issuedAt: number }>();
  const usedTriggers = new Set<string>();
  const dmChannels = new Map<string, string>();
  const responseSlots = new Map<
    string,
    { target: ResponseTarget | undefined; uses: number; createdAt: number }
  >();
  const retryTimers = new Set<NodeJS.Timeout>();
  let requestUrl: string | undefined;
  let viewCounter = 0;
  let fileCounter = 0;
  let responseCounter = 0;
  let lastMicros = 0;
  let baseUrl = '';

  const changed = (change: EmulatorChange) => events.emit('change', change);

  const seedDirectory = () => {
    for (const user of options.users ?? []) users.set(user.id, { ...user });
    for (const group of options.usergroups ?? [])
      usergroups.set(group.id, { ...group, members: [...group.members] });
    for (const channel of options.channels ?? []) channelList.set(channel.id, { ...channel });
  };
  seedDirectory();

  /** A ts unique and increasing across the workspace: microseconds of the clock, never repeated. */
  const nextTs = (): string => {
    const micros = Math.max(now() * 1000, lastMicros + 1);
    lastMicros = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  };
  const newHash = (): string => `${Math.floor(now() / 1000)}.${randomBytes(4).toString('hex')}`;

  const dmChannelOf = (user: string): string => {
    let id = dmChannels.get(user);
    if (id === undefined) {
      id = `D${user.slice(1)}`;
      dmChannels.set(user, id);
      changed({ kind: 'directory', user });
    }
    return id;
  };
  /** Slack accepts a user ID as the channel of chat.postMessage: the bot's DM with them. */
  const channelFor = (channel: string): string =>
    /^[UW][A-Z0-9]+$/.test(channel) ? dmChannelOf(channel) : channel;

  /** Checks what a message would show; returns an error answer, or undefined when Slack takes it. */
  const checkMessage = (where: string, args: JsonObject, needsContent: boolean): JsonObject | undefined => {
    const text = str(args.text);
    const blocks = args.blocks;
    if (blocks !== undefined && !Array.isArray(blocks)) return fail('invalid_blocks_format');
    const hasContent = (text ?? '') !== '' || (blocks?.length ?? 0) > 0 || args.attachments !== undefined;
    if (needsContent && !hasContent) return fail('no_text');
    const problems = findSurfaceProblems({ text, blocks }, 'message');
    if (problems.length > 0) {
      const first = problems.find((p) => p.code === 'invalid_blocks') ?? problems[0];
      return problemAnswer(
        first?.code ?? 'invalid_blocks',
        problems.map((p) => `${p.path}: ${p.message}`),
      );
    }
    if (blocks !== undefined && blocks.length > 0 && (text ?? '') === '') {
      warnings.push(`${where} to ${str(args.channel) ?? '?'}: blocks without a \`text\` fallback`);
    }
    return undefined;
  };

  const checkView = (view: JsonValue | undefined, surface: BlockKitSurface): JsonObject | undefined => {
    if (!isObject(view))
      return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] view'] } });
    const problems = findSurfaceProblems({ view }, surface);
    if (problems.length === 0) return undefined;
    return problemAnswer(
      'invalid_arguments',
      problems.map((p) => `${p.path}: ${p.message}`),
    );
  };

  const storeView = (
    view: JsonObject,
    previous: StoredView | undefined,
    previousViewId: string | null,
  ): StoredView => {
    viewCounter += 1;
    const id = previous?.id ?? `V0EMU${String(viewCounter).padStart(5, '0')}`;
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
      previous_view_id: previous === undefined ? previousViewId : (previous.previous_view_id ?? null),
      root_view_id: previous?.root_view_id ?? id,
      app_id: APP_ID,
      external_id: str(view.external_id) ?? previous?.external_id ?? '',
      app_installed_team_id: teamId,
      bot_id: botId,
    };
    views.set(id, stored);
    return stored;
  };

  const findExternal = (externalId: string): StoredView | undefined =>
    [...views.values()].find((v) => v.external_id === externalId && !closedViews.has(v.id));

  const openView = (args: JsonObject, push: boolean): JsonObject => {
    const trigger = str(args.trigger_id);
    if (trigger === undefined || trigger === '') return fail('invalid_arguments');
    const issued = triggers.get(trigger);
    const issuedAt = issued?.issuedAt ?? triggerIssuedAt(trigger);
    if (issuedAt === undefined) return fail('invalid_trigger_id');
    // A trigger_id can be exchanged once, within 3 seconds of the interaction.
    if (usedTriggers.has(trigger)) return fail('exchanged_trigger_id');
    if (now() - issuedAt > triggerTtlMs) return fail('expired_trigger_id');
    const problem = checkView(args.view, 'modal');
    if (problem !== undefined || !isObject(args.view)) return problem ?? fail('invalid_arguments');
    const externalId = str(args.view.external_id);
    if (externalId !== undefined && externalId !== '' && findExternal(externalId) !== undefined) {
      return fail('duplicate_external_id');
    }
    const owner = issued?.user;
    const stack = owner === undefined ? undefined : (stacks.get(owner) ?? []);
    if (push && stack !== undefined && stack.length >= MAX_MODAL_STACK) return fail('push_limit_reached');
    usedTriggers.add(trigger);
    const previousViewId = push ? (stack?.at(-1) ?? null) : null;
    const stored = storeView(args.view, undefined, previousViewId);
    if (owner !== undefined && stack !== undefined) {
      viewOwners.set(stored.id, owner);
      if (!push) {
        for (const id of stack) closedViews.add(id);
        stacks.set(owner, [stored.id]);
      } else {
        stacks.set(owner, [...stack, stored.id]);
      }
      changed({ kind: 'view', user: owner });
    }
    return { ok: true, view: stored };
  };

  const messageOut = (m: StoredMessage): JsonObject => {
    const { channel: _channel, ...message } = m;
    return message;
  };

  const storeMessage = (channel: string, fields: JsonObject): StoredMessage => {
    const message: StoredMessage = { type: 'message', channel, ts: nextTs(), text: '', ...fields };
    const list = channels.get(channel) ?? [];
    list.push(message);
    channels.set(channel, list);
    changed({ kind: 'message', channel });
    return message;
  };

  const botMessage = (channel: string, args: JsonObject): StoredMessage => {
    const fields: JsonObject = {
      text: str(args.text) ?? '',
      user: botUserId,
      bot_id: botId,
      app_id: APP_ID,
      team: teamId,
    };
    if (args.blocks !== undefined) fields.blocks = args.blocks;
    if (args.attachments !== undefined) fields.attachments = args.attachments;
    const threadTs = str(args.thread_ts);
    if (threadTs !== undefined) fields.thread_ts = threadTs;
    return storeMessage(channel, fields);
  };

  const addEphemeral = (message: Omit<EphemeralMessage, 'ts'>): EphemeralMessage => {
    const stored: EphemeralMessage = { ...message, ts: nextTs() };
    ephemeralList.push(stored);
    changed({ kind: 'ephemeral', channel: stored.channel, user: stored.user });
    return stored;
  };

  const updateMessage = (message: StoredMessage, args: JsonObject): void => {
    if (args.text !== undefined) message.text = str(args.text) ?? '';
    // Slack keeps the previous blocks when `blocks` is left out; `[]` removes them.
    if (args.blocks !== undefined) message.blocks = args.blocks;
    if (args.attachments !== undefined) message.attachments = args.attachments;
    message.edited = { user: botUserId, ts: nextTs() };
    changed({ kind: 'message', channel: message.channel });
  };

  const fileInfo = (id: string): JsonObject | undefined => {
    const file = files.get(id);
    if (file === undefined) return undefined;
    const url = `${baseUrl}/files-pri/${teamId}-${file.id}/${encodeURIComponent(file.name)}`;
    const size = typeof file.content === 'string' ? Buffer.byteLength(file.content) : file.content.byteLength;
    return {
      id: file.id,
      name: file.name,
      title: file.title ?? file.name,
      mimetype: file.mimetype,
      filetype: file.name.split('.').pop() ?? '',
      size,
      user: file.user ?? botUserId,
      url_private: url,
      url_private_download: `${url}?download=1`,
    };
  };

  const userOut = (user: EmulatorUser): JsonObject => {
    const realName = user.real_name ?? user.name;
    const displayName = user.display_name ?? user.name;
    return {
      id: user.id,
      team_id: teamId,
      name: user.name,
      real_name: realName,
      deleted: user.deleted ?? false,
      is_bot: user.is_bot ?? false,
      tz: 'Asia/Tehran',
      profile: { display_name: displayName, real_name: realName, team: teamId },
    };
  };

  const handlers: Record<string, Handler> = {
    'api.test': (args) => ({ ok: true, args }),
    'apps.connections.open': () => ({
      ok: true,
      url: `${baseUrl.replace(/^http/, 'ws')}/link/?ticket=${hub.issueTicket()}&app_id=${APP_ID}`,
    }),
    'auth.test': () => ({
      ok: true,
      url: `https://${TEAM_DOMAIN}.slack.com/`,
      team: 'vidops (local)',
      user: BOT_NAME,
      team_id: teamId,
      user_id: botUserId,
      bot_id: botId,
      is_enterprise_install: false,
    }),
    'chat.postMessage': (args) => {
      const given = str(args.channel);
      if (given === undefined || given === '') return fail('channel_not_found');
      const problem = checkMessage('chat.postMessage', args, true);
      if (problem !== undefined) return problem;
      const channel = channelFor(given);
      const message = botMessage(channel, args);
      const answer: JsonObject = { ok: true, channel, ts: message.ts, message: messageOut(message) };
      if (args.blocks !== undefined && (str(args.text) ?? '') === '') {
        answer.warning = 'missing_text_or_fallback_or_attachments';
        answer.response_metadata = { warnings: ['missing_text_or_fallback_or_attachments'] };
      }
      return answer;
    },
    'chat.postEphemeral': (args) => {
      const channel = str(args.channel);
      const user = str(args.user);
      if (channel === undefined || channel === '') return fail('channel_not_found');
      if (user === undefined) return fail('user_not_in_channel');
      const problem = checkMessage('chat.postEphemeral', args, true);
      if (problem !== undefined) return problem;
      // Kept apart from the channel's messages: chat.update cannot reach them, as in Slack.
      const stored = addEphemeral({
        channel: channelFor(channel),
        user,
        text: str(args.text) ?? '',
        ...(args.blocks === undefined ? {} : { blocks: args.blocks }),
        from: 'app',
      });
      return { ok: true, message_ts: stored.ts };
    },
    'chat.update': (args) => {
      const channel = str(args.channel) ?? '';
      const ts = str(args.ts) ?? '';
      const message = channels.get(channel)?.find((m) => m.ts === ts);
      if (message === undefined) return fail('message_not_found');
      const problem = checkMessage('chat.update', args, true);
      if (problem !== undefined) return problem;
      updateMessage(message, args);
      return { ok: true, channel, ts, text: message.text, message: messageOut(message) };
    },
    // A channel's history, newest first (thread replies left out), as `vidops audit witness` reads
    // it: `limit` (default 100, at most 999), `oldest`/`latest` (exclusive unless `inclusive`) and
    // an opaque cursor.
    'conversations.history': (args) => {
      const channel = str(args.channel);
      if (channel === undefined || channel === '') return fail('channel_not_found');
      const limit = Math.min(Math.max(Number(str(args.limit) ?? 100) || 100, 1), 999);
      const inclusive = str(args.inclusive) === 'true' || str(args.inclusive) === '1';
      const oldest = Number(str(args.oldest) ?? 0);
      const latest = Number(str(args.latest) ?? Number.POSITIVE_INFINITY);
      const inRange = (ts: number) => (inclusive ? ts >= oldest && ts <= latest : ts > oldest && ts < latest);
      const all = (channels.get(channelFor(channel)) ?? [])
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
    },
    'chat.delete': (args) => {
      const channel = str(args.channel) ?? '';
      const list = channels.get(channel);
      const index = list?.findIndex((m) => m.ts === str(args.ts)) ?? -1;
      if (list === undefined || index === -1) return fail('message_not_found');
      list.splice(index, 1);
      changed({ kind: 'message', channel });
      return { ok: true, channel, ts: str(args.ts) ?? '' };
    },
    'views.open': (args) => openView(args, false),
    'views.push': (args) => openView(args, true),
    'views.update': (args) => {
      const viewId = str(args.view_id);
      const externalId = str(args.external_id);
      if (viewId === undefined && externalId === undefined) return fail('invalid_arguments');
      const current = viewId !== undefined ? views.get(viewId) : findExternal(externalId ?? '');
      if (current === undefined || closedViews.has(current.id)) return fail('not_found');
      const hash = str(args.hash);
      if (hash !== undefined && hash !== current.hash) return fail('hash_conflict');
      const problem = checkView(args.view, current.type === 'home' ? 'home' : 'modal');
      if (problem !== undefined || !isObject(args.view)) return problem ?? fail('invalid_arguments');
      const stored = storeView(args.view, current, null);
      const owner = viewOwners.get(stored.id);
      changed({
        kind: current.type === 'home' ? 'home' : 'view',
        ...(owner === undefined ? {} : { user: owner }),
      });
      return { ok: true, view: stored };
    },
    'views.publish': (args) => {
      const userId = str(args.user_id);
      if (userId === undefined || userId === '') return fail('invalid_arguments');
      const problem = checkView(args.view, 'home');
      if (problem !== undefined || !isObject(args.view)) return problem ?? fail('invalid_arguments');
      const current = homeViews.get(userId);
      const hash = str(args.hash);
      if (hash !== undefined && current !== undefined && hash !== current.hash) return fail('hash_conflict');
      const stored = storeView(args.view, current, null);
      homeViews.set(userId, stored);
      viewOwners.set(stored.id, userId);
      changed({ kind: 'home', user: userId });
      return { ok: true, view: stored };
    },
    'usergroups.users.list': (args) => {
      const group = usergroups.get(str(args.usergroup) ?? '');
      if (group === undefined) return fail('no_such_subteam');
      return { ok: true, users: [...group.members] };
    },
    'users.info': (args) => {
      const user = users.get(str(args.user) ?? '');
      if (user === undefined) return fail('user_not_found');
      // Like Slack, `locale` only when asked for with `include_locale`.
      const withLocale = str(args.include_locale) === 'true';
      return {
        ok: true,
        user: { ...userOut(user), ...(withLocale ? { locale: user.locale ?? 'en-US' } : {}) },
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
      if (ids.length > 1)
        return fail('not_implemented', { detail: 'the emulator opens DMs with one person' });
      const [user] = ids;
      const already = user !== undefined && dmChannels.has(user);
      const id = dmChannelOf(user ?? '');
      return { ok: true, no_op: already, already_open: already, channel: { id } };
    },
    'files.info': (args) => {
      const file = fileInfo(str(args.file) ?? '');
      return file === undefined ? fail('file_not_found') : { ok: true, file };
    },
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

  const authProblem = (method: string, token: string | undefined): string | undefined => {
    if (NO_AUTH_METHODS.has(method)) return undefined;
    const wanted = APP_TOKEN_METHODS.has(method) ? appToken : botToken;
    if (token === wanted) return undefined;
    if (token === appToken || token === botToken) return 'not_allowed_token_type';
    return token === undefined || token === '' ? 'not_authed' : 'invalid_auth';
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
    const auth = handler === undefined ? undefined : authProblem(method, token);
    if (injected !== undefined) answer = failureAnswer(injected);
    else if (parsed === undefined) answer = { body: fail('invalid_json') };
    else if (handler === undefined) answer = { body: fail('unknown_method', { req_method: method }) };
    else if (auth !== undefined) answer = { body: fail(auth) };
    else answer = { body: handler(args, { token }) };

    record({ method, args, at: new Date(now()), status: answer.status ?? 200, response: answer.body });
    send(res, answer);
  };

  const findOriginal = (target: ResponseTarget) => {
    const original = target.original;
    if (original === undefined) return undefined;
    if (original.ephemeral) {
      const found = ephemeralList.find(
        (e) => e.ts === original.ts && e.user === target.user && e.channel === target.channel,
      );
      return found === undefined ? undefined : ({ kind: 'ephemeral', message: found } as const);
    }
    const found = channels.get(target.channel)?.find((m) => m.ts === original.ts);
    return found === undefined ? undefined : ({ kind: 'message', message: found } as const);
  };

  /** What a post to a response URL does in the channel it belongs to. */
  const landResponse = (target: ResponseTarget, body: JsonObject): void => {
    const original = findOriginal(target);
    if (truthy(body.delete_original)) {
      if (original?.kind === 'ephemeral') {
        ephemeralList.splice(ephemeralList.indexOf(original.message), 1);
        changed({ kind: 'ephemeral', channel: target.channel, user: target.user });
      } else if (original?.kind === 'message') {
        const list = channels.get(target.channel) ?? [];
        list.splice(list.indexOf(original.message), 1);
        changed({ kind: 'message', channel: target.channel });
      }
      return;
    }
    // From an ephemeral message a response replaces it unless told not to; from others, only when told.
    const replace =
      body.replace_original === undefined ? original?.kind === 'ephemeral' : truthy(body.replace_original);
    if (replace && original !== undefined) {
      if (original.kind === 'ephemeral') {
        original.message.text = str(body.text) ?? original.message.text;
        if (body.blocks !== undefined) original.message.blocks = body.blocks;
        changed({ kind: 'ephemeral', channel: target.channel, user: target.user });
      } else {
        updateMessage(original.message, body);
      }
      return;
    }
    if (str(body.response_type) === 'in_channel') {
      botMessage(target.channel, body);
      return;
    }
    addEphemeral({
      channel: target.channel,
      user: target.user,
      text: str(body.text) ?? '',
      ...(body.blocks === undefined ? {} : { blocks: body.blocks }),
      from: 'app',
    });
  };

  const handleResponseUrl = async (req: IncomingMessage, res: ServerResponse, tag: string) => {
    const text = await readBody(req);
    const contentType = req.headers['content-type'] ?? '';
    let body = parseBody(contentType, text);
    // Some clients post `payload=<json>` form bodies to response URLs.
    if (body !== undefined && !contentType.includes('json') && typeof body.payload === 'string') {
      body = parseBody('application/json', body.payload);
    }
    const slot = responseSlots.get(tag) ?? { target: undefined, uses: 0, createdAt: now() };
    responseSlots.set(tag, slot);
    slot.uses += 1;
    let answer: Answer;
    if (body === undefined) answer = { status: 400, body: fail('invalid_payload') };
    else if (slot.uses > RESPONSE_URL_USES) answer = { status: 404, body: fail('used_url') };
    else if (now() - slot.createdAt > RESPONSE_URL_TTL_MS)
      answer = { status: 404, body: fail('expired_url') };
    else if (truthy(body.delete_original)) answer = { body: { ok: true } };
    else {
      const problem = checkMessage('response_url', body, true);
      answer = problem === undefined ? { body: { ok: true } } : { status: 400, body: problem };
    }
    if (body !== undefined && answer.status === undefined && slot.target !== undefined) {
      landResponse(slot.target, body);
    }
    const post: ResponsePost = {
      tag,
      body: body ?? { raw: text },
      at: new Date(now()),
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
    const refusal = options.refuse?.(req);
    if (refusal !== undefined) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(refusal);
      return;
    }
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
        res.end('<!DOCTYPE html><html><body>Sign in to the local vidops workspace</body></html>');
      } else if (options.extraRoutes !== undefined && (await options.extraRoutes(req, res, url))) {
        // Served by the extra routes.
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    };
    route().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`emulator failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (options.refuse?.(req) !== undefined)
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else if (path === '/link/' || path === '/link') hub.handleUpgrade(req, socket, head);
    else socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

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
          // A throwing predicate fails the wait, not the emulator's answer to the client.
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

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        retryTimers.delete(timer);
        resolve();
      }, ms);
      retryTimers.add(timer);
    });

  let closed = false;

  /** One delivery attempt over the socket, or over HTTP when no socket is open. */
  const attempt = async (
    kind: DeliveryKind,
    request: SlackRequest,
    retry: number,
    reason: string,
  ): Promise<Delivery> => {
    if (hub.connections > 0) {
      // The builders' payloads are plain JSON; read back as such, the envelope carries them as they are.
      const decoded: JsonValue = JSON.parse(JSON.stringify(request.payload ?? {}));
      const payload = isObject(decoded) ? decoded : {};
      const answer = await hub.send(kind, payload, {
        ackTimeoutMs,
        ...(kind === 'events_api' ? { retryAttempt: retry, retryReason: reason } : {}),
      });
      if (answer.acked)
        return { ok: true, via: 'socket', payload: answer.payload, ms: answer.ms, attempts: 1 };
      return {
        ok: false,
        via: 'socket',
        error: answer.reason === 'timeout' ? 'operation_timeout' : 'dispatch_failed',
        detail: `no ack over Socket Mode (${answer.reason})`,
        ms: answer.ms,
        attempts: 1,
      };
    }
    if (requestUrl === undefined) {
      return {
        ok: false,
        via: 'none',
        error: 'dispatch_failed',
        detail: 'the app is not connected (no Socket Mode connection, no request URL)',
        ms: 0,
        attempts: 1,
      };
    }
    const http = await postToApp(requestUrl, request, signingSecret, {
      ackTimeoutMs,
      ...(retry > 0 ? { retryNum: retry, retryReason: reason } : {}),
    });
    if (!http.answered) {
      return {
        ok: false,
        via: 'http',
        error: http.reason === 'http_timeout' ? 'operation_timeout' : 'dispatch_failed',
        detail: http.reason === 'http_timeout' ? `no answer within ${ackTimeoutMs} ms` : 'connection failed',
        ms: http.ms,
        attempts: 1,
      };
    }
    if (http.status !== 200) {
      return {
        ok: false,
        via: 'http',
        error: 'dispatch_failed',
        detail: `the app answered HTTP ${http.status}`,
        ms: http.ms,
        attempts: 1,
      };
    }
    return { ok: true, via: 'http', payload: http.payload, ms: http.ms, attempts: 1 };
  };

  const deliver = async (kind: DeliveryKind, request: SlackRequest): Promise<Delivery> => {
    let result = await attempt(kind, request, 0, '');
    // Slack retries Events API deliveries (up to 3 times); commands and interactions fail to the person.
    if (kind !== 'events_api') return result;
    for (let retry = 1; !result.ok && retry <= 3 && !closed; retry += 1) {
      const reason =
        result.error === 'operation_timeout'
          ? result.via === 'http'
            ? 'http_timeout'
            : 'timeout'
          : 'http_error';
      note(`retrying an event delivery (attempt ${retry + 1}): ${result.detail}`);
      await pause(eventRetryDelaysMs[retry - 1] ?? 0);
      if (closed) break;
      const next = await attempt(kind, request, retry, reason);
      result = { ...next, attempts: retry + 1 };
    }
    return result;
  };

  const emulator: Emulator = {
    apiUrl: `${baseUrl}/api/`,
    url: baseUrl,
    botToken,
    appToken,
    signingSecret,
    botUserId,
    teamId,
    calls,
    warnings,
    responsePosts,
    socketMode: {
      get connections() {
        return hub.connections;
      },
      get helloCount() {
        return hub.helloCount;
      },
      waitForConnections: (count, timeoutMs) => hub.waitForConnections(count, timeoutMs),
      requestReconnect: (reason) => hub.requestReconnect(reason),
      dropAll: () => hub.dropAll(),
    },
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
            `emulator: no matching ${method} call within ${timeoutMs} ms (${calls.length} calls in all).`,
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
      changed({ kind: 'directory' });
    },
    setUsergroup: (id, userIds, handle) => {
      usergroups.set(id, {
        id,
        handle: handle ?? usergroups.get(id)?.handle ?? id.toLowerCase(),
        members: [...userIds],
      });
    },
    setChannels: (list) => {
      for (const channel of list) channelList.set(channel.id, { ...channel });
      changed({ kind: 'directory' });
    },
    setFiles: (list) => {
      for (const file of list) files.set(file.id, { ...file });
    },
    addFile: (file) => {
      fileCounter += 1;
      const stored: EmulatorFile = { ...file, id: `F0EMU${String(fileCounter).padStart(5, '0')}` };
      files.set(stored.id, stored);
      return stored;
    },
    fileInfo,
    users: () => [...users.values()],
    user: (id) => users.get(id),
    channels: () => [...channelList.values()],
    usergroups: () => [...usergroups.values()],
    responseUrl: (tag, target) => {
      responseCounter += 1;
      const name = tag ?? `r${responseCounter}`;
      responseSlots.set(name, { target, uses: 0, createdAt: now() });
      return `${baseUrl}/response/${encodeURIComponent(name)}`;
    },
    waitForResponse: (predicate = () => true, timeoutMs = 5000) =>
      waitForEvent<ResponsePost>('response', responsePosts, predicate, timeoutMs, () => {
        const recent = responsePosts
          .slice(-10)
          .map((p) => `  ${p.tag}: ${JSON.stringify(p.body).slice(0, 200)}`);
        return [
          `emulator: no matching response_url post within ${timeoutMs} ms.`,
          recent.length > 0 ? `Most recent posts:\n${recent.join('\n')}` : 'No response_url posts at all.',
        ].join('\n');
      }),
    issueTrigger: (user) => {
      const id = `${now()}.${triggers.size + 1}.${randomBytes(16).toString('hex')}`;
      triggers.set(id, { user, issuedAt: now() });
      return id;
    },
    messages: (channel) => [...(channels.get(channel) ?? [])],
    message: (channel, ts) => channels.get(channel)?.find((m) => m.ts === ts),
    ephemerals: (user, channel) =>
      ephemeralList.filter((e) => e.user === user && (channel === undefined || e.channel === channel)),
    addEphemeral,
    postAsUser: (channel, user, text) => storeMessage(channel, { text, user, team: teamId }),
    showAckReply: (target, body) => {
      const problem = checkMessage('ack', body, true);
      if (problem !== undefined) return str(problem.error) ?? 'invalid_blocks';
      landResponse(target, body);
      return undefined;
    },
    dmChannel: dmChannelOf,
    dmsOf: (user) => {
      const id = dmChannels.get(user);
      return id === undefined ? [] : [id];
    },
    view: (id) => views.get(id),
    homeView: (userId) => homeViews.get(userId),
    modalStack: (userId) =>
      (stacks.get(userId) ?? []).map((id) => views.get(id)).filter((v): v is StoredView => v !== undefined),
    closeModals: (userId, which) => {
      const stack = stacks.get(userId) ?? [];
      const gone = which === 'all' ? stack.splice(0) : stack.splice(-1);
      for (const id of gone) closedViews.add(id);
      changed({ kind: 'view', user: userId });
      return gone.map((id) => views.get(id)).filter((v): v is StoredView => v !== undefined);
    },
    showSubmittedView: (userId, viewId, action, view) => {
      const problem = checkView(view, 'modal');
      if (problem !== undefined || !isObject(view)) {
        const errors = Array.isArray(problem?.errors) ? problem.errors.map(String) : [];
        return { ok: false, error: str(problem?.error) ?? 'invalid_arguments', problems: errors };
      }
      const stack = stacks.get(userId) ?? [];
      const current = views.get(viewId);
      if (action === 'update') {
        const stored = storeView(view, current, null);
        viewOwners.set(stored.id, userId);
        if (!stack.includes(stored.id)) stacks.set(userId, [...stack, stored.id]);
        changed({ kind: 'view', user: userId });
        return { ok: true, view: stored };
      }
      if (stack.length >= MAX_MODAL_STACK) {
        return { ok: false, error: 'push_limit_reached', problems: ['at most three views stack'] };
      }
      const stored = storeView(view, undefined, stack.at(-1) ?? null);
      viewOwners.set(stored.id, userId);
      stacks.set(userId, [...stack, stored.id]);
      changed({ kind: 'view', user: userId });
      return { ok: true, view: stored };
    },
    setRequestUrl: (url) => {
      requestUrl = url;
    },
    deliver,
    onChange: (listener) => {
      events.on('change', listener);
      return () => events.off('change', listener);
    },
    reset: () => {
      calls.length = 0;
      warnings.length = 0;
      responsePosts.length = 0;
      ephemeralList.length = 0;
      // Timestamps keep increasing across resets, so a ts is never reused by the same server.
      for (const map of [
        failures,
        users,
        usergroups,
        channelList,
        files,
        channels,
        views,
        viewOwners,
        stacks,
        homeViews,
        dmChannels,
        triggers,
        responseSlots,
      ]) {
        map.clear();
      }
      usedTriggers.clear();
      closedViews.clear();
      seedDirectory();
      changed({ kind: 'directory' });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        closed = true;
        for (const timer of retryTimers) clearTimeout(timer);
        retryTimers.clear();
        hub.close();
        events.removeAllListeners();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of the client under test would otherwise hold the server open.
        server.closeAllConnections();
      }),
  };
  hub.onConnectionChange(() => changed({ kind: 'connection' }));
  return emulator;
}
