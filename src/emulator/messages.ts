import type { JsonObject } from '../core/json.js';
import { findSurfaceProblems } from './blockkit.js';
import type { EphemeralMessage, ResponseTarget, StoredMessage } from './emulator.js';
import { fail, problemAnswer, str, truthy } from './json.js';
import { changed, type EmulatorState, nextTs } from './state.js';
import { APP_ID, BOT_ID, BOT_USER_ID, TEAM_ID } from './workspace.js';

/**
 * The messages of the emulated workspace: Slack's checks of what a message shows, messages in
 * channels and ephemeral ones, and what a post to a response URL (or a reply in an ack) does to
 * them.
 * @see docs/slack.md; docs/architecture.md, "Emulator and playground"
 */

/** Checks what a message would show; returns an error answer, or undefined when Slack takes it. */
export function checkMessage(
  state: EmulatorState,
  where: string,
  args: JsonObject,
  needsContent: boolean,
): JsonObject | undefined {
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
    state.warnings.push(`${where} to ${str(args.channel) ?? '?'}: blocks without a \`text\` fallback`);
  }
  return undefined;
}

/** A message as the Web API answers it: without the channel it is stored under. */
export function messageOut(m: StoredMessage): JsonObject {
  const { channel: _channel, ...message } = m;
  return message;
}

export function storeMessage(state: EmulatorState, channel: string, fields: JsonObject): StoredMessage {
  const message: StoredMessage = { type: 'message', channel, ts: nextTs(state), text: '', ...fields };
  const list = state.channels.get(channel) ?? [];
  list.push(message);
  state.channels.set(channel, list);
  changed(state, { kind: 'message', channel });
  return message;
}

/** A message the bot posts, from `chat.postMessage`'s arguments or a response URL's body. */
export function botMessage(state: EmulatorState, channel: string, args: JsonObject): StoredMessage {
  const fields: JsonObject = {
    text: str(args.text) ?? '',
    user: BOT_USER_ID,
    bot_id: BOT_ID,
    app_id: APP_ID,
    team: TEAM_ID,
  };
  if (args.blocks !== undefined) fields.blocks = args.blocks;
  if (args.attachments !== undefined) fields.attachments = args.attachments;
  const threadTs = str(args.thread_ts);
  if (threadTs !== undefined) fields.thread_ts = threadTs;
  return storeMessage(state, channel, fields);
}

export function addEphemeral(state: EmulatorState, message: Omit<EphemeralMessage, 'ts'>): EphemeralMessage {
  const stored: EphemeralMessage = { ...message, ts: nextTs(state) };
  state.ephemerals.push(stored);
  changed(state, { kind: 'ephemeral', channel: stored.channel, user: stored.user });
  return stored;
}

/** An ephemeral message from the app: text and blocks of `args`. */
export function appEphemeral(state: EmulatorState, channel: string, user: string, args: JsonObject) {
  return addEphemeral(state, {
    channel,
    user,
    text: str(args.text) ?? '',
    ...(args.blocks === undefined ? {} : { blocks: args.blocks }),
    from: 'app',
  });
}

export function updateMessage(state: EmulatorState, message: StoredMessage, args: JsonObject): void {
  if (args.text !== undefined) message.text = str(args.text) ?? '';
  // Slack keeps the previous blocks when `blocks` is left out; `[]` removes them.
  if (args.blocks !== undefined) message.blocks = args.blocks;
  if (args.attachments !== undefined) message.attachments = args.attachments;
  message.edited = { user: BOT_USER_ID, ts: nextTs(state) };
  changed(state, { kind: 'message', channel: message.channel });
}

type Original =
  | { kind: 'ephemeral'; message: EphemeralMessage }
  | { kind: 'message'; message: StoredMessage }
  | undefined;

/** The message an interaction came from, if it is still there. */
function findOriginal(state: EmulatorState, target: ResponseTarget): Original {
  const original = target.original;
  if (original === undefined) return undefined;
  if (original.ephemeral) {
    const found = state.ephemerals.find(
      (e) => e.ts === original.ts && e.user === target.user && e.channel === target.channel,
    );
    return found === undefined ? undefined : { kind: 'ephemeral', message: found };
  }
  const found = state.channels.get(target.channel)?.find((m) => m.ts === original.ts);
  return found === undefined ? undefined : { kind: 'message', message: found };
}

function deleteOriginal(state: EmulatorState, target: ResponseTarget, original: Original): void {
  if (original?.kind === 'ephemeral') {
    state.ephemerals.splice(state.ephemerals.indexOf(original.message), 1);
    changed(state, { kind: 'ephemeral', channel: target.channel, user: target.user });
  } else if (original?.kind === 'message') {
    const list = state.channels.get(target.channel) ?? [];
    list.splice(list.indexOf(original.message), 1);
    changed(state, { kind: 'message', channel: target.channel });
  }
}

function replaceOriginal(
  state: EmulatorState,
  target: ResponseTarget,
  original: NonNullable<Original>,
  body: JsonObject,
): void {
  if (original.kind === 'ephemeral') {
    original.message.text = str(body.text) ?? original.message.text;
    if (body.blocks !== undefined) original.message.blocks = body.blocks;
    changed(state, { kind: 'ephemeral', channel: target.channel, user: target.user });
  } else {
    updateMessage(state, original.message, body);
  }
}

/** What a post to a response URL does in the channel it belongs to. */
export function landResponse(state: EmulatorState, target: ResponseTarget, body: JsonObject): void {
  const original = findOriginal(state, target);
  if (truthy(body.delete_original)) {
    deleteOriginal(state, target, original);
    return;
  }
  // From an ephemeral message a response replaces it unless told not to; from others, only when told.
  const replace =
    body.replace_original === undefined ? original?.kind === 'ephemeral' : truthy(body.replace_original);
  if (replace && original !== undefined) replaceOriginal(state, target, original, body);
  else if (str(body.response_type) === 'in_channel') botMessage(state, target.channel, body);
  else appEphemeral(state, target.channel, target.user, body);
}

/** A reply given in an ack, shown where a response URL post would land; Slack's error when refused. */
export function showAckReply(
  state: EmulatorState,
  target: ResponseTarget,
  body: JsonObject,
): string | undefined {
  const problem = checkMessage(state, 'ack', body, true);
  if (problem !== undefined) return str(problem.error) ?? 'invalid_blocks';
  landResponse(state, target, body);
  return undefined;
}
