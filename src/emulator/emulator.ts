import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { JsonObject, JsonValue } from '../core/json.js';
import { deliverToApp } from './delivery.js';
import { addEphemeral, showAckReply, storeMessage } from './messages.js';
import type { SlackRequest } from './payloads.js';
import { listen } from './server.js';
import type { EnvelopeType } from './socket-mode.js';
import {
  addFile,
  changed,
  createState,
  dmChannelOf,
  type EmulatorState,
  fileInfo,
  issueTrigger,
  resetState,
  responseUrl,
} from './state.js';
import { closeModals, modalStack, showSubmittedView } from './views.js';
import {
  BOT_USER_ID,
  type EmulatorChannel,
  type EmulatorUser,
  type EmulatorUsergroup,
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
  /** The bot token's scopes from now on (all of the manifest's by default). */
  setScopes(scopes: readonly string[]): void;
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

/** Resolves with the first item (already there or arriving as `event`) that matches; rejects on timeout. */
function waitForEvent<T>(
  state: EmulatorState,
  event: 'call' | 'response',
  existing: readonly T[],
  matches: (item: T) => boolean,
  timeoutMs: number,
  describeTimeout: () => string,
): Promise<T> {
  const found = existing.find(matches);
  if (found !== undefined) return Promise.resolve(found);
  const { events } = state;
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

function summarize(call: RecordedCall): string {
  const args = JSON.stringify(call.args);
  const shown = args.length > 200 ? `${args.slice(0, 199)}…` : args;
  return `  ${call.at.toISOString()} ${call.method} → ${call.response.ok === true ? 'ok' : String(call.response.error)} ${shown}`;
}

function waitForCall(
  state: EmulatorState,
  method: string,
  predicate: (call: RecordedCall) => boolean,
  timeoutMs: number,
): Promise<RecordedCall> {
  const { calls } = state;
  const matches = (c: RecordedCall) => c.method === method && predicate(c);
  return waitForEvent(state, 'call', calls, matches, timeoutMs, () => {
    const recent = calls.slice(-10).map(summarize);
    return [
      `emulator: no matching ${method} call within ${timeoutMs} ms (${calls.length} calls in all).`,
      recent.length > 0 ? `Most recent calls:\n${recent.join('\n')}` : 'No calls at all.',
    ].join('\n');
  });
}

function waitForResponse(
  state: EmulatorState,
  predicate: (post: ResponsePost) => boolean,
  timeoutMs: number,
): Promise<ResponsePost> {
  const posts = state.responsePosts;
  return waitForEvent(state, 'response', posts, predicate, timeoutMs, () => {
    const recent = posts.slice(-10).map((p) => `  ${p.tag}: ${JSON.stringify(p.body).slice(0, 200)}`);
    return [
      `emulator: no matching response_url post within ${timeoutMs} ms.`,
      recent.length > 0 ? `Most recent posts:\n${recent.join('\n')}` : 'No response_url posts at all.',
    ].join('\n');
  });
}

/** What was done to the emulator, and failures to inject. */
function recordsOf(state: EmulatorState) {
  return {
    calls: state.calls,
    warnings: state.warnings,
    responsePosts: state.responsePosts,
    callsTo: (method) => state.calls.filter((c) => c.method === method),
    waitFor: (method, predicate = () => true, timeoutMs = 5000) =>
      waitForCall(state, method, predicate, timeoutMs),
    waitForResponse: (predicate = () => true, timeoutMs = 5000) =>
      waitForResponse(state, predicate, timeoutMs),
    failNext: (method, failure, times = 1) => {
      const queue = state.failures.get(method) ?? [];
      queue.push({ failure, remaining: times });
      state.failures.set(method, queue);
    },
  } satisfies Partial<Emulator>;
}

/** The people, groups, channels and files of the workspace. */
function directoryOf(state: EmulatorState) {
  return {
    setUsers: (list) => {
      for (const user of list) state.users.set(user.id, { ...user });
      changed(state, { kind: 'directory' });
    },
    setUsergroup: (id, userIds, handle) => {
      const known = state.usergroups.get(id)?.handle;
      state.usergroups.set(id, { id, handle: handle ?? known ?? id.toLowerCase(), members: [...userIds] });
    },
    setChannels: (list) => {
      for (const channel of list) state.channelList.set(channel.id, { ...channel });
      changed(state, { kind: 'directory' });
    },
    setScopes: (scopes) => {
      state.scopes = [...scopes];
    },
    setFiles: (list) => {
      for (const file of list) state.files.set(file.id, { ...file });
    },
    addFile: (file) => addFile(state, file),
    fileInfo: (id) => fileInfo(state, id),
    users: () => [...state.users.values()],
    user: (id) => state.users.get(id),
    channels: () => [...state.channelList.values()],
    usergroups: () => [...state.usergroups.values()],
    dmChannel: (user) => dmChannelOf(state, user),
    dmsOf: (user) => {
      const id = state.dmChannels.get(user);
      return id === undefined ? [] : [id];
    },
  } satisfies Partial<Emulator>;
}

/** Messages, ephemeral ones, and the response URLs and triggers an interaction comes with. */
function conversationsOf(state: EmulatorState) {
  return {
    responseUrl: (tag, target) => responseUrl(state, tag, target),
    issueTrigger: (user) => issueTrigger(state, user),
    messages: (channel) => [...(state.channels.get(channel) ?? [])],
    message: (channel, ts) => state.channels.get(channel)?.find((m) => m.ts === ts),
    ephemerals: (user, channel) =>
      state.ephemerals.filter((e) => e.user === user && (channel === undefined || e.channel === channel)),
    addEphemeral: (message) => addEphemeral(state, message),
    postAsUser: (channel, user, text) => storeMessage(state, channel, { text, user, team: TEAM_ID }),
    showAckReply: (target, body) => showAckReply(state, target, body),
  } satisfies Partial<Emulator>;
}

/** Modals and Home tabs. */
function viewsOf(state: EmulatorState) {
  return {
    view: (id) => state.views.get(id),
    homeView: (userId) => state.homeViews.get(userId),
    modalStack: (userId) => modalStack(state, userId),
    closeModals: (userId, which) => closeModals(state, userId, which),
    showSubmittedView: (userId, viewId, action, view) =>
      showSubmittedView(state, userId, viewId, action, view),
  } satisfies Partial<Emulator>;
}

/** How requests reach the app: Socket Mode, the request URL, and the viewers told of changes. */
function deliveryOf(state: EmulatorState) {
  const { hub } = state;
  return {
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
    setRequestUrl: (url) => {
      state.requestUrl = url;
    },
    deliver: (kind, request) => deliverToApp(state, kind, request),
    onChange: (listener) => {
      state.events.on('change', listener);
      return () => state.events.off('change', listener);
    },
  } satisfies Partial<Emulator>;
}

function close(state: EmulatorState, server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    state.closed = true;
    for (const timer of state.retryTimers) clearTimeout(timer);
    state.retryTimers.clear();
    state.hub.close();
    state.events.removeAllListeners();
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive sockets of the client under test would otherwise hold the server open.
    server.closeAllConnections();
  });
}

/**
 * Starts the emulator on 127.0.0.1 (or `host`) and a free port (or `port`).
 * @see docs/slack.md for the behaviour it imitates (limits, deadlines, 429 with Retry-After)
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const state = createState(options);
  const server = await listen(state);
  state.hub.onConnectionChange(() => changed(state, { kind: 'connection' }));
  return {
    apiUrl: `${state.baseUrl}/api/`,
    url: state.baseUrl,
    botToken: state.botToken,
    appToken: state.appToken,
    signingSecret: state.signingSecret,
    botUserId: BOT_USER_ID,
    teamId: TEAM_ID,
    ...recordsOf(state),
    ...directoryOf(state),
    ...conversationsOf(state),
    ...viewsOf(state),
    ...deliveryOf(state),
    reset: () => resetState(state),
    close: () => close(state, server),
  };
}
