import { createHmac, randomBytes } from 'node:crypto';
import type { SlashCommand, ViewStateValue } from '@slack/bolt';
import type { JsonObject, JsonValue } from '../core/json.js';
import { findElement } from './blockkit.js';
import { isObject } from './json.js';
import { APP_ID, BOT_ID, BOT_USER_ID, TEAM_DOMAIN, TEAM_ID } from './workspace.js';

/**
 * Typed factories for the requests Slack sends the bot, shaped like the real payloads in
 * test/fixtures/slack/payloads/, and the signing that Slack applies to them. The emulator builds
 * what it delivers with them; tests build requests with them directly.
 * @see docs/slack.md, "Request signing" and "Payload shapes"
 */

export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';

/** A request body as Slack would send it; `payload` is the decoded object, for assertions. */
export interface SlackRequest<P = unknown> {
  body: string;
  contentType: typeof FORM | typeof JSON_TYPE;
  payload: P;
}

/** The legacy verification token Slack still puts in payloads; Bolt ignores it. */
const LEGACY_TOKEN = 'legacy-verification-token';
const DEFAULT_CHANNEL = { id: 'C0VIDOPS', name: 'support' };
const TEAM = { id: TEAM_ID, domain: TEAM_DOMAIN };
let sequence = 0;

/**
 * A trigger_id shaped like Slack's (`111.222.hex`), unique per call so it can be exchanged once.
 * Its first part is the time it was issued, in milliseconds: the emulator reads it to let a
 * trigger built here expire after 3 seconds like one it issued itself.
 */
export function newTriggerId(issuedAtMs: number = Date.now()): string {
  sequence += 1;
  return `${issuedAtMs}.${sequence}.${randomBytes(16).toString('hex')}`;
}

/** When a trigger made by {@link newTriggerId} was issued; undefined for any other shape. */
export function triggerIssuedAt(triggerId: string): number | undefined {
  const match = /^(\d{13})\.\d+\.[0-9a-f]{8,}$/.exec(triggerId);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function nowTs(): string {
  sequence += 1;
  return `${Math.floor(Date.now() / 1000)}.${String(sequence).padStart(6, '0')}`;
}

function interactive<P>(payload: P): SlackRequest<P> {
  // Interactive payloads arrive form-encoded as `payload=<url-encoded JSON>`.
  return {
    body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    contentType: FORM,
    payload,
  };
}

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

/** A payload's `channel`: the default channel's name is known, another's is made up. */
function channelOf(id: string, name: string | undefined) {
  return { id, name: name ?? (id === DEFAULT_CHANNEL.id ? DEFAULT_CHANNEL.name : 'channel') };
}

export interface SlashCommandOptions {
  text: string;
  userId: string;
  userName?: string;
  responseUrl: string;
  triggerId?: string;
  channelId?: string;
  channelName?: string;
  command?: string;
  teamId?: string;
}

/** `/vidops <text>` typed by `userId`: the form-encoded body Slack posts. */
export function slashCommand(options: SlashCommandOptions): SlackRequest<SlashCommand> {
  const payload = {
    token: LEGACY_TOKEN,
    team_id: options.teamId ?? TEAM_ID,
    team_domain: TEAM_DOMAIN,
    channel_id: options.channelId ?? DEFAULT_CHANNEL.id,
    channel_name: options.channelName ?? DEFAULT_CHANNEL.name,
    user_id: options.userId,
    user_name: options.userName ?? options.userId.toLowerCase(),
    command: options.command ?? '/vidops',
    text: options.text,
    api_app_id: APP_ID,
    is_enterprise_install: 'false',
    response_url: options.responseUrl,
    trigger_id: options.triggerId ?? newTriggerId(),
  } satisfies SlashCommand;
  return { body: new URLSearchParams(payload).toString(), contentType: FORM, payload };
}

/** A message as the bot posted it (e.g. `fake.message(channel, ts)`), for actions on it. */
export interface MessageLike {
  ts: string;
  channel?: string;
  text?: string;
  blocks?: JsonValue;
}

/** A view as Slack holds it (e.g. the `view` returned by the fake's views.open). */
export interface ViewLike {
  id: string;
  type?: string;
  blocks?: JsonValue;
  private_metadata?: string;
  callback_id?: string;
  hash?: string;
  external_id?: string;
  title?: JsonValue;
  state?: JsonValue;
}

export interface BlockActionOptions {
  userId: string;
  userName?: string;
  actionId: string;
  /** Button value, or the value of the option picked in a select, radio group or overflow. */
  value: string;
  /** Found from the blocks when left out. */
  blockId?: string;
  message?: MessageLike;
  view?: ViewLike;
  responseUrl?: string;
  triggerId?: string;
  channelId?: string;
  channelName?: string;
  /** The message clicked is an ephemeral one (only its user sees it). */
  isEphemeral?: boolean;
  /** What the view's inputs hold at the click, for a click inside a view. */
  state?: ViewValues | JsonObject;
}

/** The action entry Slack sends for a click on a button, or a pick in a select/radio/overflow. */
function actionEntry(
  options: BlockActionOptions,
  found: { blockId: string; element: JsonObject } | undefined,
) {
  const element = found?.element;
  const type = typeof element?.type === 'string' ? element.type : 'button';
  const base = {
    action_id: options.actionId,
    block_id: options.blockId ?? found?.blockId ?? 'actions',
    type,
    action_ts: nowTs(),
  };
  if (type === 'button') {
    return {
      ...base,
      text: isObject(element?.text) ? element.text : plain(options.value),
      value: options.value,
    };
  }
  const choices = Array.isArray(element?.options) ? element.options : [];
  const picked = choices.find((o) => isObject(o) && o.value === options.value);
  const selected = isObject(picked) ? picked : { text: plain(options.value), value: options.value };
  return { ...base, selected_option: selected };
}

/** The `view` object of an interactive payload, with Slack's defaults for what the view leaves out. */
function viewOutput(view: ViewLike): JsonObject {
  return {
    id: view.id,
    team_id: TEAM_ID,
    type: view.type ?? 'modal',
    blocks: Array.isArray(view.blocks) ? view.blocks : [],
    private_metadata: view.private_metadata ?? '',
    callback_id: view.callback_id ?? '',
    state: isObject(view.state) ? view.state : { values: {} },
    hash: view.hash ?? `${Math.floor(Date.now() / 1000)}.${randomBytes(4).toString('hex')}`,
    title: isObject(view.title) ? view.title : plain('vidops'),
    clear_on_close: false,
    notify_on_close: false,
    close: null,
    submit: null,
    previous_view_id: null,
    root_view_id: view.id,
    app_id: APP_ID,
    external_id: view.external_id ?? '',
    app_installed_team_id: TEAM_ID,
    bot_id: BOT_ID,
  };
}

/** A click on a button (or a pick in a select) in a message or a view: the `block_actions` payload. */
export function blockAction(options: BlockActionOptions): SlackRequest<JsonObject> {
  const found = findElement(options.view?.blocks ?? options.message?.blocks, options.actionId);
  const payload: JsonObject = {
    type: 'block_actions',
    user: userOf(options),
    api_app_id: APP_ID,
    token: LEGACY_TOKEN,
    trigger_id: options.triggerId ?? newTriggerId(),
    team: TEAM,
    enterprise: null,
    is_enterprise_install: false,
    actions: [actionEntry(options, found)],
  };
  if (options.view !== undefined) {
    // Round-tripped through JSON: Bolt's state types allow `undefined`, which JSON leaves out.
    const values: JsonValue = JSON.parse(JSON.stringify(options.state ?? {}));
    payload.container = { type: 'view', view_id: options.view.id };
    payload.view = { ...viewOutput(options.view), state: { values } };
    payload.state = { values };
  } else {
    const channelId = options.channelId ?? options.message?.channel ?? DEFAULT_CHANNEL.id;
    const ts = options.message?.ts ?? nowTs();
    payload.container = {
      type: 'message',
      message_ts: ts,
      channel_id: channelId,
      is_ephemeral: options.isEphemeral ?? false,
    };
    payload.channel = channelOf(channelId, options.channelName);
    payload.message = {
      type: 'message',
      user: BOT_USER_ID,
      bot_id: BOT_ID,
      ts,
      text: options.message?.text ?? '',
      blocks: options.message?.blocks ?? [],
    };
    payload.state = { values: {} };
  }
  if (options.responseUrl !== undefined) payload.response_url = options.responseUrl;
  return interactive(payload);
}

/** State values of a view, by block_id then action_id. */
export type ViewValues = Record<string, Record<string, ViewStateValue>>;

/** What a person typed into a plain_text_input (`null` when left empty). */
export function textInput(value: string | null): ViewStateValue {
  return { type: 'plain_text_input', value };
}

/** The options ticked in a checkboxes element. */
export function checkboxes(values: readonly string[]): ViewStateValue {
  return { type: 'checkboxes', selected_options: values.map((value) => ({ text: plain(value), value })) };
}

function userOf(options: { userId: string; userName?: string }) {
  const name = options.userName ?? options.userId.toLowerCase();
  return { id: options.userId, username: name, name, team_id: TEAM_ID };
}

export interface ViewSubmissionOptions {
  userId: string;
  userName?: string;
  callbackId: string;
  privateMetadata: string;
  /** By block_id then action_id, as Slack sends them (a {@link ViewValues} or its JSON). */
  values: ViewValues | JsonObject;
  viewId?: string;
  /** The view's blocks as the bot built them, when a handler reads them back. */
  blocks?: JsonValue;
  hash?: string;
  triggerId?: string;
  title?: JsonValue;
  externalId?: string;
  /** The views under this one in the stack, when it was pushed. */
  previousViewId?: string | null;
  rootViewId?: string;
}

/** A person presses Submit on a modal: the `view_submission` payload. */
export function viewSubmission(options: ViewSubmissionOptions) {
  const view = viewOutput({
    id: options.viewId ?? 'V0SUBMIT',
    type: 'modal',
    blocks: options.blocks ?? [],
    private_metadata: options.privateMetadata,
    callback_id: options.callbackId,
    ...(options.hash === undefined ? {} : { hash: options.hash }),
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.externalId === undefined ? {} : { external_id: options.externalId }),
  });
  if (options.previousViewId !== undefined) view.previous_view_id = options.previousViewId;
  if (options.rootViewId !== undefined) view.root_view_id = options.rootViewId;
  const payload = {
    type: 'view_submission',
    team: TEAM,
    user: userOf(options),
    api_app_id: APP_ID,
    token: LEGACY_TOKEN,
    trigger_id: options.triggerId ?? newTriggerId(),
    view: { ...view, state: { values: options.values }, submit: plain('Submit'), close: plain('Cancel') },
    response_urls: [],
    is_enterprise_install: false,
  };
  return interactive(payload);
}

export interface ViewClosedOptions {
  userId: string;
  userName?: string;
  callbackId: string;
  privateMetadata?: string;
  viewId?: string;
  isCleared?: boolean;
}

/** A person closes a modal that asked for `notify_on_close`: the `view_closed` payload. */
export function viewClosed(options: ViewClosedOptions) {
  const view = viewOutput({
    id: options.viewId ?? 'V0CLOSED',
    private_metadata: options.privateMetadata ?? '',
    callback_id: options.callbackId,
  });
  const payload = {
    type: 'view_closed',
    team: TEAM,
    user: userOf(options),
    api_app_id: APP_ID,
    token: LEGACY_TOKEN,
    view: { ...view, notify_on_close: true, close: plain('Cancel') },
    is_cleared: options.isCleared ?? false,
    is_enterprise_install: false,
  };
  return interactive(payload);
}

export interface MessageShortcutOptions {
  userId: string;
  userName?: string;
  /** The shortcut's `callback_id`, as the manifest declares it. */
  callbackId: string;
  /** The message it was run on, as Slack holds it (its text already escaped: `&amp;`, `&lt;`, `&gt;`). */
  message: { ts: string; text: string; user?: string; blocks?: JsonValue };
  channelId?: string;
  channelName?: string;
  responseUrl: string;
  triggerId?: string;
}

/**
 * A person runs a message shortcut from a message's "More actions" menu: the `message_action`
 * payload (test/fixtures/slack/payloads/message_action.json).
 */
export function messageAction(options: MessageShortcutOptions): SlackRequest<JsonObject> {
  const channelId = options.channelId ?? DEFAULT_CHANNEL.id;
  const { message } = options;
  const payload: JsonObject = {
    type: 'message_action',
    token: LEGACY_TOKEN,
    action_ts: nowTs(),
    team: TEAM,
    user: userOf(options),
    channel: channelOf(channelId, options.channelName),
    is_enterprise_install: false,
    enterprise: null,
    callback_id: options.callbackId,
    trigger_id: options.triggerId ?? newTriggerId(),
    response_url: options.responseUrl,
    message_ts: message.ts,
    message: {
      type: 'message',
      user: message.user ?? options.userId,
      ts: message.ts,
      text: message.text,
      team: TEAM_ID,
      ...(message.blocks === undefined ? {} : { blocks: message.blocks }),
    },
  };
  return interactive(payload);
}

export interface GlobalShortcutOptions {
  userId: string;
  userName?: string;
  callbackId: string;
  triggerId?: string;
}

/**
 * A person runs a global shortcut (the composer's shortcuts menu, or search): the `shortcut`
 * payload (test/fixtures/slack/payloads/shortcut.json). It names no channel and has no response URL.
 */
export function globalShortcut(options: GlobalShortcutOptions): SlackRequest<JsonObject> {
  const { name: _name, ...user } = userOf(options);
  const payload: JsonObject = {
    type: 'shortcut',
    token: LEGACY_TOKEN,
    action_ts: nowTs(),
    team: TEAM,
    user,
    is_enterprise_install: false,
    enterprise: null,
    callback_id: options.callbackId,
    trigger_id: options.triggerId ?? newTriggerId(),
  };
  return interactive(payload);
}

/** Text as Slack stores what a person typed: `&`, `<` and `>` escaped. */
export function slackEscapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface AppHomeOpenedOptions {
  userId: string;
  tab?: 'home' | 'messages';
  /** Set it to send the same delivery twice (Slack retries). */
  eventId?: string;
  channel?: string;
}

/** A person opens the bot's App Home: an Events API `event_callback` (JSON). */
export function appHomeOpened(options: AppHomeOpenedOptions): SlackRequest<JsonObject> {
  sequence += 1;
  const eventTs = nowTs();
  const payload: JsonObject = {
    token: LEGACY_TOKEN,
    team_id: TEAM_ID,
    api_app_id: APP_ID,
    event: {
      type: 'app_home_opened',
      user: options.userId,
      channel: options.channel ?? `D0${options.userId.slice(1)}`,
      tab: options.tab ?? 'home',
      event_ts: eventTs,
    },
    type: 'event_callback',
    event_id: options.eventId ?? `Ev0FAKE${String(sequence).padStart(6, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: TEAM_ID,
        user_id: BOT_USER_ID,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
  return { body: JSON.stringify(payload), contentType: JSON_TYPE, payload };
}

/** Slack's check of a new Events API request URL. */
export function urlVerification(challenge: string): SlackRequest<JsonObject> {
  const payload: JsonObject = { token: LEGACY_TOKEN, challenge, type: 'url_verification' };
  return { body: JSON.stringify(payload), contentType: JSON_TYPE, payload };
}

/** The headers Slack adds to a request it sends. */
export interface SignedHeaders {
  'x-slack-signature': string;
  'x-slack-request-timestamp': string;
  'content-type': string;
}

function bodyOf(request: SlackRequest | string): { body: string; contentType: string } {
  if (typeof request !== 'string') return request;
  return { body: request, contentType: request.trimStart().startsWith('{') ? JSON_TYPE : FORM };
}

/**
 * Signs a body as Slack does: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}` with the signing
 * secret. `timestamp` is in seconds, now by default.
 * @see docs/slack.md, "Request signing"
 */
export function sign(
  request: SlackRequest | string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): SignedHeaders {
  const { body, contentType } = bodyOf(request);
  const digest = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return {
    'x-slack-signature': `v0=${digest}`,
    'x-slack-request-timestamp': String(timestamp),
    'content-type': contentType,
  };
}

export interface PostSignedOptions {
  /** Seconds; sign as if sent at this time (e.g. six minutes ago). */
  timestamp?: number;
  /** Send this signature instead of the right one. */
  signature?: string;
  /** Extra or replacing headers (e.g. `x-slack-retry-num`). */
  headers?: Record<string, string>;
}

export interface PostSignedResult {
  status: number;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json: JsonValue | undefined;
}

/** Posts a signed request to the bot, as Slack would. */
export async function postSigned(
  url: string,
  request: SlackRequest | string,
  secret: string,
  options: PostSignedOptions = {},
): Promise<PostSignedResult> {
  const { body } = bodyOf(request);
  const headers: Record<string, string> = { ...sign(request, secret, options.timestamp), ...options.headers };
  if (options.signature !== undefined) headers['x-slack-signature'] = options.signature;
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  let json: JsonValue | undefined;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}
