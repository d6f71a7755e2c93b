import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { JsonObject } from '../core/json.js';
import { BOT_SCOPES } from '../slack/scopes.js';
import type {
  EmulatorChange,
  EmulatorFile,
  EmulatorOptions,
  EphemeralMessage,
  InjectedFailure,
  RecordedCall,
  ResponsePost,
  ResponseTarget,
  StoredMessage,
  StoredView,
} from './emulator.js';
import { SocketModeHub } from './socket-mode.js';
import {
  BOT_USER_ID,
  type EmulatorChannel,
  type EmulatorUser,
  type EmulatorUsergroup,
  randomCredentials,
  TEAM_ID,
} from './workspace.js';

/**
 * Everything one emulator holds, in one object the other parts of it are given: its settings,
 * what it recorded, the workspace's directory, messages and views, and its counters. The
 * functions here keep the workspace: timestamps, DM channels, files, triggers, response URLs.
 * @see docs/architecture.md, "Emulator and playground"
 */

/** A response URL: where its posts land, how often it was used, when it was made. */
export interface ResponseSlot {
  target: ResponseTarget | undefined;
  uses: number;
  createdAt: number;
}

/** Everything one emulator holds; see {@link createState}. */
export type EmulatorState = ReturnType<typeof createState>;

export function createState(options: EmulatorOptions) {
  const random = randomCredentials();
  const note = options.onNote ?? (() => {});
  /** `change`, `call` and `response` events. */
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const state = {
    options,
    botToken: options.botToken ?? random.botToken,
    appToken: options.appToken ?? random.appToken,
    signingSecret: options.signingSecret ?? random.signingSecret,
    now: options.now ?? Date.now,
    ackTimeoutMs: options.ackTimeoutMs ?? 3000,
    triggerTtlMs: options.triggerTtlMs ?? 3000,
    eventRetryDelaysMs: options.eventRetryDelaysMs ?? [0, 60_000, 300_000],
    note,
    events,
    hub: new SocketModeHub({
      onNote: note,
      ...(options.socketPingIntervalMs === undefined ? {} : { pingIntervalMs: options.socketPingIntervalMs }),
    }),
    /** What the bot token was granted: sent in every answer's `x-oauth-scopes`, as Slack does. */
    scopes: [...BOT_SCOPES] as string[],
    calls: [] as RecordedCall[],
    warnings: [] as string[],
    responsePosts: [] as ResponsePost[],
    failures: new Map<string, { failure: InjectedFailure; remaining: number }[]>(),
    users: new Map<string, EmulatorUser>(),
    usergroups: new Map<string, EmulatorUsergroup>(),
    channelList: new Map<string, EmulatorChannel>(),
    files: new Map<string, EmulatorFile>(),
    /** Messages by channel, oldest first. */
    channels: new Map<string, StoredMessage[]>(),
    ephemerals: [] as EphemeralMessage[],
    views: new Map<string, StoredView>(),
    /** Who a modal or Home tab belongs to, by view ID. */
    viewOwners: new Map<string, string>(),
    closedViews: new Set<string>(),
    /** The modals open for each person, the root first. */
    stacks: new Map<string, string[]>(),
    homeViews: new Map<string, StoredView>(),
    triggers: new Map<string, { user: string | undefined; issuedAt: number }>(),
    usedTriggers: new Set<string>(),
    dmChannels: new Map<string, string>(),
    responseSlots: new Map<string, ResponseSlot>(),
    retryTimers: new Set<NodeJS.Timeout>(),
    requestUrl: undefined as string | undefined,
    viewCounter: 0,
    fileCounter: 0,
    responseCounter: 0,
    lastMicros: 0,
    /** `http://HOST:PORT`, known once the server listens. */
    baseUrl: '',
    closed: false,
  };
  seedDirectory(state);
  return state;
}

/** The people, groups and channels the options name. */
function seedDirectory(state: EmulatorState): void {
  const { options } = state;
  for (const user of options.users ?? []) state.users.set(user.id, { ...user });
  for (const group of options.usergroups ?? [])
    state.usergroups.set(group.id, { ...group, members: [...group.members] });
  for (const channel of options.channels ?? []) state.channelList.set(channel.id, { ...channel });
}

/** Forgets calls, messages, views, users, files and injected failures; the directory is seeded again. */
export function resetState(state: EmulatorState): void {
  state.calls.length = 0;
  state.scopes = [...BOT_SCOPES];
  state.warnings.length = 0;
  state.responsePosts.length = 0;
  state.ephemerals.length = 0;
  // Timestamps keep increasing across resets, so a ts is never reused by the same server.
  for (const map of [
    state.failures,
    state.users,
    state.usergroups,
    state.channelList,
    state.files,
    state.channels,
    state.views,
    state.viewOwners,
    state.stacks,
    state.homeViews,
    state.dmChannels,
    state.triggers,
    state.responseSlots,
  ]) {
    map.clear();
  }
  state.usedTriggers.clear();
  state.closedViews.clear();
  seedDirectory(state);
  changed(state, { kind: 'directory' });
}

export function changed(state: EmulatorState, change: EmulatorChange): void {
  state.events.emit('change', change);
}

/** A ts unique and increasing across the workspace: microseconds of the clock, never repeated. */
export function nextTs(state: EmulatorState): string {
  const micros = Math.max(state.now() * 1000, state.lastMicros + 1);
  state.lastMicros = micros;
  return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
}

export function newHash(state: EmulatorState): string {
  return `${Math.floor(state.now() / 1000)}.${randomBytes(4).toString('hex')}`;
}

/** The bot's DM channel with a user, opened (and told to viewers) if needed. */
export function dmChannelOf(state: EmulatorState, user: string): string {
  let id = state.dmChannels.get(user);
  if (id === undefined) {
    id = `D${user.slice(1)}`;
    state.dmChannels.set(user, id);
    changed(state, { kind: 'directory', user });
  }
  return id;
}

/** Slack accepts a user ID as the channel of chat.postMessage: the bot's DM with them. */
export function channelFor(state: EmulatorState, channel: string): string {
  return /^[UW][A-Z0-9]+$/.test(channel) ? dmChannelOf(state, channel) : channel;
}

/** `files.info`'s description of a file, its `url_private` included. */
export function fileInfo(state: EmulatorState, id: string): JsonObject | undefined {
  const file = state.files.get(id);
  if (file === undefined) return undefined;
  const url = `${state.baseUrl}/files-pri/${TEAM_ID}-${file.id}/${encodeURIComponent(file.name)}`;
  const size = typeof file.content === 'string' ? Buffer.byteLength(file.content) : file.content.byteLength;
  return {
    id: file.id,
    name: file.name,
    title: file.title ?? file.name,
    mimetype: file.mimetype,
    filetype: file.name.split('.').pop() ?? '',
    size,
    user: file.user ?? BOT_USER_ID,
    url_private: url,
    url_private_download: `${url}?download=1`,
  };
}

export function addFile(state: EmulatorState, file: Omit<EmulatorFile, 'id'>): EmulatorFile {
  state.fileCounter += 1;
  const stored: EmulatorFile = { ...file, id: `F0EMU${String(state.fileCounter).padStart(5, '0')}` };
  state.files.set(stored.id, stored);
  return stored;
}

/** A person as `users.info` describes them (without `locale`). */
export function userOut(user: EmulatorUser): JsonObject {
  const realName = user.real_name ?? user.name;
  const displayName = user.display_name ?? user.name;
  return {
    id: user.id,
    team_id: TEAM_ID,
    name: user.name,
    real_name: realName,
    deleted: user.deleted ?? false,
    is_bot: user.is_bot ?? false,
    tz: 'Asia/Tehran',
    profile: { display_name: displayName, real_name: realName, team: TEAM_ID },
  };
}

/** A trigger_id good for one `views.open`/`views.push` within the trigger TTL, for this user. */
export function issueTrigger(state: EmulatorState, user: string): string {
  const id = `${state.now()}.${state.triggers.size + 1}.${randomBytes(16).toString('hex')}`;
  state.triggers.set(id, { user, issuedAt: state.now() });
  return id;
}

/** A response URL on this server; posts to it are recorded under `tag` and land at `target`. */
export function responseUrl(state: EmulatorState, tag?: string, target?: ResponseTarget): string {
  state.responseCounter += 1;
  const name = tag ?? `r${state.responseCounter}`;
  state.responseSlots.set(name, { target, uses: 0, createdAt: state.now() });
  return `${state.baseUrl}/response/${encodeURIComponent(name)}`;
}
