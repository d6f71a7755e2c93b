import type { JsonObject, JsonValue } from '../core/json.js';
import { findElement, inputBlockIds, optionsOf } from './blockkit.js';
import type { Delivery, Emulator, StoredMessage, StoredView } from './emulator.js';
import { isObject, list } from './json.js';
import {
  appHomeOpened,
  blockAction,
  globalShortcut,
  messageAction,
  slackEscapeText,
  slashCommand,
  viewClosed,
  viewSubmission,
} from './payloads.js';

/**
 * What one person does in the emulated workspace, done the way Slack does it: a slash command
 * with a fresh trigger_id and response_url; a click on a button or a pick in a menu; a modal
 * filled in and submitted (the client's own checks first: required fields, lengths, numbers),
 * its `response_action` applied; a modal closed; the App Home opened; a message shortcut run on
 * a message, a global shortcut run from the shortcuts menu. The playground page and
 * the tests act through it.
 * @see docs/architecture.md, "Emulator and playground"; docs/slack.md, "Deadlines"
 */

/** What a person put into a modal, by block_id then action_id: text, a picked value, or several. */
export type RawInput = Record<string, Record<string, string | readonly string[] | null>>;

export interface CommandResult {
  delivery: Delivery;
  responseUrl: string;
  triggerId: string;
}

export interface ClickTarget {
  /** A message in a channel (or an ephemeral one, with `ephemeral`). */
  channel?: string;
  ts?: string;
  ephemeral?: boolean;
  /** A modal or the Home tab. */
  viewId?: string;
  actionId: string;
  blockId?: string;
  /** The option picked in a menu; a button sends its own value. */
  selected?: string;
  /** What the view's inputs hold at the click (inside a modal). */
  input?: RawInput;
}

export type ClickResult = { ok: true; delivery: Delivery } | { ok: false; error: string };

/** A message shortcut run on a message in a channel. */
export interface MessageShortcutTarget {
  channel: string;
  ts: string;
  /** The shortcut's `callback_id`. */
  callbackId: string;
}

/** How a shortcut went: delivered (with its response URL, for a message shortcut) or not. */
export type ShortcutResult =
  | { ok: true; delivery: Delivery; triggerId: string; responseUrl?: string }
  | { ok: false; error: string };

export type SubmitResult =
  /** Slack's client refused the form before sending it (a required field left empty…). */
  | { outcome: 'invalid'; errors: Record<string, string> }
  | { outcome: 'errors'; errors: Record<string, string>; delivery: Delivery }
  | { outcome: 'closed' | 'cleared' | 'updated' | 'pushed'; delivery: Delivery; view?: StoredView }
  /** The app did not answer in time, answered badly, or the view it sent was refused. */
  | { outcome: 'failed'; error: string; delivery?: Delivery };

export interface Person {
  readonly id: string;
  command(text: string, options: { channel: string }): Promise<CommandResult>;
  click(target: ClickTarget): Promise<ClickResult>;
  submit(viewId: string, input: RawInput): Promise<SubmitResult>;
  close(viewId: string): Promise<Delivery | undefined>;
  openHome(): Promise<Delivery>;
  /** Runs a message shortcut from the "More actions" menu of a message. */
  messageShortcut(target: MessageShortcutTarget): Promise<ShortcutResult>;
  /** Runs a global shortcut from the shortcuts menu. */
  globalShortcut(callbackId: string): Promise<ShortcutResult>;
}

function picked(element: JsonObject, value: string): JsonObject | null {
  return optionsOf(element).find((o) => o.value === value) ?? null;
}

function asList(value: string | readonly string[] | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  return typeof value === 'string' ? (value === '' ? [] : [value]) : [...value];
}

function asText(value: string | readonly string[] | null | undefined): string {
  return typeof value === 'string' ? value : (value?.[0] ?? '');
}

/** The state Slack sends for what was put into a view's input blocks. */
export function stateValues(emulator: Emulator, view: JsonObject, input: RawInput): JsonObject {
  const values: JsonObject = {};
  for (const block of list(view.blocks)) {
    if (!isObject(block) || block.type !== 'input' || typeof block.block_id !== 'string') continue;
    const element = block.element;
    if (!isObject(element) || typeof element.action_id !== 'string') continue;
    const given = input[block.block_id]?.[element.action_id];
    values[block.block_id] = { [element.action_id]: elementState(emulator, element, given) };
  }
  return values;
}

/** Where the state of an element that holds one text keeps it; any other holds it in `value`. */
const ONE_TEXT_KEYS: Readonly<Record<string, string>> = {
  users_select: 'selected_user',
  datepicker: 'selected_date',
};

/** The state of one input element, from what was put into it (null when left empty). */
function elementState(
  emulator: Emulator,
  element: JsonObject,
  given: string | readonly string[] | null | undefined,
): JsonObject {
  const type = String(element.type);
  if (type === 'checkboxes' || type === 'multi_static_select') {
    const options = asList(given).map((v) => picked(element, v));
    return { type, selected_options: options.filter((o): o is JsonObject => o !== null) };
  }
  if (type === 'file_input') {
    const files = asList(given).map((id) => emulator.fileInfo(id));
    return { type, files: files.filter((f): f is JsonObject => f !== undefined) };
  }
  const text = asText(given);
  if (type === 'static_select' || type === 'radio_buttons') {
    return { type, selected_option: text === '' ? null : picked(element, text) };
  }
  return { type, [ONE_TEXT_KEYS[type] ?? 'value']: text === '' ? null : text };
}

/** What Slack's own client refuses before anything is sent, by block_id. */
export function clientProblems(view: JsonObject, input: RawInput): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const block of list(view.blocks)) {
    if (!isObject(block) || block.type !== 'input' || typeof block.block_id !== 'string') continue;
    const element = block.element;
    if (!isObject(element) || typeof element.action_id !== 'string') continue;
    const given = input[block.block_id]?.[element.action_id];
    const empty = asList(given).every((v) => v.trim() === '');
    if (empty) {
      if (block.optional !== true) errors[block.block_id] = 'Please complete this required field.';
      continue;
    }
    const text = asText(given);
    if (element.type === 'plain_text_input') {
      const max = typeof element.max_length === 'number' ? element.max_length : 3000;
      const min = typeof element.min_length === 'number' ? element.min_length : 0;
      if (text.length > max) errors[block.block_id] = `Keep this to ${max} characters or fewer.`;
      else if (text.length < min) errors[block.block_id] = `Write at least ${min} characters.`;
    }
    if (element.type === 'number_input') {
      const decimal = element.is_decimal_allowed === true;
      const number = Number(text.trim());
      if (!(decimal ? /^-?\d+(\.\d+)?$/ : /^-?\d+$/).test(text.trim())) {
        errors[block.block_id] = decimal ? 'Enter a number.' : 'Enter a whole number.';
      } else if (element.min_value !== undefined && number < Number(element.min_value)) {
        errors[block.block_id] = `Enter a number of at least ${String(element.min_value)}.`;
      } else if (element.max_value !== undefined && number > Number(element.max_value)) {
        errors[block.block_id] = `Enter a number of at most ${String(element.max_value)}.`;
      }
    }
    if (element.type === 'file_input') {
      const max = typeof element.max_files === 'number' ? element.max_files : 10;
      if (asList(given).length > max)
        errors[block.block_id] = `Upload at most ${max} file${max === 1 ? '' : 's'}.`;
    }
  }
  return errors;
}

/** The person acting, in the workspace they act in. */
interface Actor {
  emulator: Emulator;
  userId: string;
}

function userName({ emulator, userId }: Actor): string {
  return emulator.user(userId)?.name ?? userId.toLowerCase();
}

function channelName(emulator: Emulator, channel: string): string {
  if (channel.startsWith('D')) return 'directmessage';
  return emulator.channels().find((c) => c.id === channel)?.name ?? 'channel';
}

/** Slackbot's notice to the person that a command failed, in Slack's words. */
function commandFailed({ emulator, userId }: Actor, channel: string, command: string, error: string): void {
  const text = `${command} failed with the error "${error}"`;
  emulator.addEphemeral({ channel, user: userId, text, from: 'slackbot' });
}

/** `/vidops <text>` typed in `channel`: echoed, delivered, and its failure or ack reply shown. */
async function command(actor: Actor, text: string, channel: string): Promise<CommandResult> {
  const { emulator, userId } = actor;
  const name = '/vidops';
  emulator.addEphemeral({ channel, user: userId, text: `${name} ${text}`.trim(), from: 'echo' });
  const responseUrl = emulator.responseUrl(undefined, { channel, user: userId });
  const triggerId = emulator.issueTrigger(userId);
  const request = slashCommand({
    text,
    userId,
    userName: userName(actor),
    responseUrl,
    triggerId,
    channelId: channel,
    channelName: channelName(emulator, channel),
  });
  const delivery = await emulator.deliver('slash_commands', request);
  if (!delivery.ok) {
    commandFailed(actor, channel, name, delivery.error);
  } else if (delivery.payload?.text !== undefined || delivery.payload?.blocks !== undefined) {
    // A reply in the ack itself: shown where a response URL post would be.
    const refused = emulator.showAckReply({ channel, user: userId }, delivery.payload);
    if (refused !== undefined) commandFailed(actor, channel, name, refused);
  }
  return { delivery, responseUrl, triggerId };
}

/** The message a click targets (an ephemeral one only its person sees, with `ephemeral`). */
function messageAt(
  { emulator, userId }: Actor,
  target: ClickTarget,
): StoredMessage | { ts: string; channel: string; text: string; blocks?: JsonValue } | undefined {
  if (target.channel === undefined || target.ts === undefined) return undefined;
  if (!target.ephemeral) return emulator.message(target.channel, target.ts);
  const found = emulator.ephemerals(userId, target.channel).find((e) => e.ts === target.ts);
  if (found === undefined) return undefined;
  const { ts, channel, text, blocks } = found;
  return { ts, channel, text, ...(blocks === undefined ? {} : { blocks }) };
}

/** What every click sends: who, on which element, and its value (the option picked, or the button's own). */
function clicked(actor: Actor, target: ClickTarget, found: { blockId: string; element: JsonObject }) {
  const value = target.selected ?? (typeof found.element.value === 'string' ? found.element.value : '');
  const { userId } = actor;
  return { userId, userName: userName(actor), actionId: target.actionId, blockId: found.blockId, value };
}

/** A click on a button or a pick in a menu of a modal or the Home tab. */
async function clickInView(actor: Actor, target: ClickTarget, viewId: string): Promise<ClickResult> {
  const { emulator, userId } = actor;
  const triggerId = emulator.issueTrigger(userId);
  const view = emulator.view(viewId);
  if (view === undefined) return { ok: false, error: 'that view is gone' };
  const found = findElement(view.blocks, target.actionId, target.blockId);
  if (found === undefined) return { ok: false, error: 'no such button or menu in the view' };
  const request = blockAction({
    ...clicked(actor, target, found),
    triggerId,
    view: {
      id: view.id,
      type: view.type,
      blocks: view.blocks ?? [],
      private_metadata: String(view.private_metadata ?? ''),
      callback_id: String(view.callback_id ?? ''),
      hash: view.hash,
      external_id: view.external_id,
      ...(view.title === undefined ? {} : { title: view.title }),
    },
    state: stateValues(emulator, view, target.input ?? {}),
  });
  return { ok: true, delivery: await emulator.deliver('interactive', request) };
}

/** A click on a button or a pick in a menu of a message, with a response URL for its reply. */
async function clickInMessage(actor: Actor, target: ClickTarget): Promise<ClickResult> {
  const { emulator, userId } = actor;
  const triggerId = emulator.issueTrigger(userId);
  const message = messageAt(actor, target);
  if (message === undefined || target.channel === undefined)
    return { ok: false, error: 'that message is gone' };
  const found = findElement(message.blocks, target.actionId, target.blockId);
  if (found === undefined) return { ok: false, error: 'no such button or menu in the message' };
  const ephemeral = target.ephemeral ?? false;
  const responseUrl = emulator.responseUrl(undefined, {
    channel: target.channel,
    user: userId,
    original: { ts: message.ts, ephemeral },
  });
  const { ts, text, blocks } = message;
  const request = blockAction({
    ...clicked(actor, target, found),
    message: { ts, channel: target.channel, text, ...(blocks === undefined ? {} : { blocks }) },
    responseUrl,
    triggerId,
    channelId: target.channel,
    channelName: channelName(emulator, target.channel),
    isEphemeral: ephemeral,
  });
  return { ok: true, delivery: await emulator.deliver('interactive', request) };
}

/** The `view_submission` Slack sends for what was put into `view`. */
function submission(actor: Actor, view: StoredView, input: RawInput) {
  const { emulator, userId } = actor;
  return viewSubmission({
    userId,
    userName: userName(actor),
    callbackId: String(view.callback_id ?? ''),
    privateMetadata: String(view.private_metadata ?? ''),
    values: stateValues(emulator, view, input),
    viewId: view.id,
    blocks: view.blocks ?? [],
    hash: view.hash,
    triggerId: emulator.issueTrigger(userId),
    ...(view.title === undefined ? {} : { title: view.title }),
    externalId: view.external_id,
    previousViewId: typeof view.previous_view_id === 'string' ? view.previous_view_id : null,
    rootViewId: typeof view.root_view_id === 'string' ? view.root_view_id : view.id,
  });
}

/** `response_action: errors`, by block_id; failed when one names a block that is not an input. */
function submitErrors(view: StoredView, given: JsonObject, delivery: Delivery): SubmitResult {
  const inputs = inputBlockIds(view);
  const errors: Record<string, string> = {};
  for (const [blockId, message] of Object.entries(given)) {
    if (!inputs.has(blockId)) {
      const error = `response_action errors names "${blockId}", which is not an input block of the view`;
      return { outcome: 'failed', error, delivery };
    }
    errors[blockId] = String(message);
  }
  return { outcome: 'errors', errors, delivery };
}

/** What the app's answer to a submission does: its `response_action` applied. */
function applyResponseAction(
  { emulator, userId }: Actor,
  view: StoredView,
  delivery: Delivery & { ok: true },
): SubmitResult {
  const payload = delivery.payload ?? {};
  const action = payload.response_action;
  if (action === undefined) {
    emulator.closeModals(userId, 'top');
    return { outcome: 'closed', delivery };
  }
  if (action === 'clear') {
    emulator.closeModals(userId, 'all');
    return { outcome: 'cleared', delivery };
  }
  if (action === 'errors' && isObject(payload.errors)) return submitErrors(view, payload.errors, delivery);
  if (action === 'update' || action === 'push') {
    const shown = emulator.showSubmittedView(userId, view.id, action, payload.view);
    if (!shown.ok)
      return { outcome: 'failed', error: `${shown.error}: ${shown.problems.join('; ')}`, delivery };
    return { outcome: action === 'update' ? 'updated' : 'pushed', delivery, view: shown.view };
  }
  return { outcome: 'failed', error: `unknown response_action ${JSON.stringify(action)}`, delivery };
}

/** A modal submitted: the client's own checks first, then the app's answer applied. */
async function submit(actor: Actor, viewId: string, input: RawInput): Promise<SubmitResult> {
  const view = actor.emulator.modalStack(actor.userId).find((v) => v.id === viewId);
  if (view === undefined) return { outcome: 'failed', error: 'that modal is not open' };
  const problems = clientProblems(view, input);
  if (Object.keys(problems).length > 0) return { outcome: 'invalid', errors: problems };
  const delivery = await actor.emulator.deliver('interactive', submission(actor, view, input));
  if (!delivery.ok)
    return { outcome: 'failed', error: `We had some trouble connecting (${delivery.error}).`, delivery };
  return applyResponseAction(actor, view, delivery);
}

/** The top modal closed; the app is told when the view asked for it (`notify_on_close`). */
async function close(actor: Actor, viewId: string): Promise<Delivery | undefined> {
  const { emulator, userId } = actor;
  const view = emulator.modalStack(userId).find((v) => v.id === viewId);
  if (view === undefined) return undefined;
  emulator.closeModals(userId, 'top');
  if (view.notify_on_close !== true) return undefined;
  const request = viewClosed({
    userId,
    userName: userName(actor),
    callbackId: String(view.callback_id ?? ''),
    privateMetadata: String(view.private_metadata ?? ''),
    viewId: view.id,
  });
  return emulator.deliver('interactive', request);
}

async function runMessageShortcut(actor: Actor, target: MessageShortcutTarget): Promise<ShortcutResult> {
  const { emulator, userId } = actor;
  const message = emulator.message(target.channel, target.ts);
  if (message === undefined) return { ok: false, error: 'that message is gone' };
  const author = typeof message.user === 'string' ? message.user : undefined;
  // Slack keeps what a person typed escaped; the bot's own messages were sent escaped already.
  const text = message.bot_id === undefined ? slackEscapeText(message.text) : message.text;
  const triggerId = emulator.issueTrigger(userId);
  const responseUrl = emulator.responseUrl(undefined, { channel: target.channel, user: userId });
  const request = messageAction({
    userId,
    userName: userName(actor),
    callbackId: target.callbackId,
    message: {
      ts: message.ts,
      text,
      ...(author === undefined ? {} : { user: author }),
      ...(message.blocks === undefined ? {} : { blocks: message.blocks }),
    },
    channelId: target.channel,
    channelName: channelName(emulator, target.channel),
    responseUrl,
    triggerId,
  });
  const delivery = await emulator.deliver('interactive', request);
  return { ok: true, delivery, triggerId, responseUrl };
}

async function runGlobalShortcut(actor: Actor, callbackId: string): Promise<ShortcutResult> {
  const { emulator, userId } = actor;
  const triggerId = emulator.issueTrigger(userId);
  const request = globalShortcut({ userId, userName: userName(actor), callbackId, triggerId });
  return { ok: true, delivery: await emulator.deliver('interactive', request), triggerId };
}

/** The person `userId` of the emulated workspace. */
export function personOf(emulator: Emulator, userId: string): Person {
  const actor: Actor = { emulator, userId };
  return {
    id: userId,
    command: (text, { channel }) => command(actor, text, channel),
    click: (target) =>
      target.viewId === undefined ? clickInMessage(actor, target) : clickInView(actor, target, target.viewId),
    submit: (viewId, input) => submit(actor, viewId, input),
    close: (viewId) => close(actor, viewId),
    openHome: () =>
      emulator.deliver('events_api', appHomeOpened({ userId, channel: emulator.dmChannel(userId) })),
    messageShortcut: (target) => runMessageShortcut(actor, target),
    globalShortcut: (callbackId) => runGlobalShortcut(actor, callbackId),
  };
}
