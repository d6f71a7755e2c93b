import { createHasher, shortHash, verifyChain } from '../../src/core/audit-chain.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import type { OperationRequest } from '../../src/core/model.js';
import type { RecordedCall, ResponsePost, StoredMessage, StoredView } from '../../src/emulator/index.js';
import { textInput, type ViewValues } from '../../src/emulator/index.js';
import { BLOCKS, CALLBACKS, INPUT_ACTION } from '../../src/views/ids.js';
import { CHANNELS, type Harness, USERS } from './app-harness.js';

/**
 * Steps the change and approval scenarios share: open a modal with a command, fill it as Slack
 * would send it back, find the approval message, click its buttons, and check that the audit
 * channel witnessed every event of a chain that verifies.
 */

/** Polls `probe` until it gives a value, for at most `timeoutMs`. */
export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 8000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first call at or after `since` that matches. */
export function callSince(
  h: Harness,
  since: number,
  methods: readonly string[],
  predicate: (call: RecordedCall) => boolean = () => true,
): RecordedCall | undefined {
  return h.slack.calls.slice(since).find((c) => methods.includes(c.method) && predicate(c));
}

/** The view a `views.open`/`views.update` call showed, with the ID Slack gave it. */
function shownView(call: RecordedCall): { id: string; view: JsonObject } | undefined {
  const view = call.args.view;
  const answered = call.response.view;
  if (!isObject(view) || !isObject(answered) || typeof answered.id !== 'string') return undefined;
  return { id: answered.id, view };
}

/** Waits until a modal with `callbackId` is shown after call number `since`; returns it as Slack holds it. */
export async function modalShown(h: Harness, since: number, callbackId: string): Promise<StoredView> {
  const call = await until(
    () =>
      callSince(h, since, ['views.open', 'views.push', 'views.update'], (c) => {
        const shown = shownView(c);
        return shown !== undefined && shown.view.callback_id === callbackId;
      }),
    `a ${callbackId} modal`,
  );
  const shown = shownView(call);
  const stored = shown === undefined ? undefined : h.slack.view(shown.id);
  if (stored === undefined) throw new Error(`the ${callbackId} modal is not stored`);
  return stored;
}

/** Types a command as `userId` and waits for the modal it opens. */
export async function openModal(
  h: Harness,
  text: string,
  callbackId: string,
  userId: string = USERS.agent.id,
): Promise<StoredView> {
  const since = h.slack.calls.length;
  const slash = await h.slash(text, { userId });
  if (slash.status !== 200) throw new Error(`/vidops ${text} answered ${slash.status}`);
  return modalShown(h, since, callbackId);
}

/** What a status view (progress/result) of a modal says, once it says something matching. */
export async function modalStatus(
  h: Harness,
  since: number,
  viewId: string,
  pattern: RegExp,
): Promise<string> {
  const call = await until(
    () =>
      callSince(h, since, ['views.update'], (c) => {
        const view = c.args.view;
        return (
          c.args.view_id === viewId &&
          isObject(view) &&
          view.callback_id === CALLBACKS.changeStatus &&
          pattern.test(JSON.stringify(view.blocks))
        );
      }),
    `the modal to say ${pattern}`,
  );
  return JSON.stringify(call.args.view);
}

/** The state Slack sends back for a modal left as it was shown (initial values), with `changes` over it. */
export function valuesOf(view: StoredView, changes: ViewValues = {}): ViewValues {
  const values: ViewValues = {};
  const blocks = Array.isArray(view.blocks) ? view.blocks : [];
  for (const block of blocks) {
    if (!isObject(block) || block.type !== 'input' || typeof block.block_id !== 'string') continue;
    const element = block.element;
    if (!isObject(element) || typeof element.action_id !== 'string') continue;
    const type = String(element.type);
    const initial = (key: string) => (typeof element[key] === 'string' ? String(element[key]) : null);
    let value: ViewValues[string][string];
    switch (type) {
      case 'checkboxes': {
        const options = Array.isArray(element.initial_options)
          ? element.initial_options.filter(isObject)
          : [];
        value = {
          type,
          selected_options: options.map((o) => ({
            text: { type: 'plain_text', text: isObject(o.text) ? String(o.text.text) : '' },
            value: String(o.value),
          })),
        };
        break;
      }
      case 'static_select': {
        const option = isObject(element.initial_option) ? element.initial_option : null;
        value = {
          type,
          selected_option:
            option === null
              ? null
              : {
                  text: { type: 'plain_text', text: isObject(option.text) ? String(option.text.text) : '' },
                  value: String(option.value),
                },
        };
        break;
      }
      case 'file_input':
        value = { type, files: [] };
        break;
      default:
        value = { type, value: initial('initial_value') };
    }
    values[block.block_id] = { [element.action_id]: value };
  }
  for (const [blockId, entry] of Object.entries(changes)) values[blockId] = entry;
  return values;
}

/** Presses Submit on a modal as Slack would send it; the answer is the ack (e.g. `response_action`). */
export async function submitModal(
  h: Harness,
  view: StoredView,
  values: ViewValues,
  userId: string = USERS.agent.id,
) {
  const answer = await h.submit({
    userId,
    callbackId: String(view.callback_id),
    privateMetadata: String(view.private_metadata),
    values,
    viewId: view.id,
    blocks: view.blocks ?? [],
  });
  if (answer.status !== 200) throw new Error(`the submission answered ${answer.status}: ${answer.text}`);
  return answer.json;
}

/** A text field of a modal as Slack sends it back, filled with `value`. */
export function typed(value: string): ViewValues[string] {
  return { [INPUT_ACTION]: textInput(value) };
}

/** Everything a person reads in a reply: the fallback text and every text in the blocks. */
export function readable(post: ResponsePost): string {
  const texts: string[] = [];
  const walk = (value: JsonValue | undefined): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'text' && typeof item === 'string') texts.push(item);
        else walk(item);
      }
    }
  };
  walk(post.body);
  return texts.join('\n');
}

/** The request ID a text mentions. */
export function requestIdIn(text: string): string {
  const id = /R-[0-9A-HJKMNP-TV-Z]{8}/.exec(text)?.[0];
  if (id === undefined) throw new Error(`no request ID in: ${text.slice(0, 300)}`);
  return id;
}

/** The approval message of a request in the approval channel, once it satisfies `ready`. */
export async function approvalMessage(
  h: Harness,
  requestId: string,
  ready: (message: StoredMessage) => boolean = () => true,
): Promise<StoredMessage> {
  return until(
    () =>
      h.slack
        .messages(CHANNELS.approvals)
        .find((m) => JSON.stringify(m.blocks ?? []).includes(requestId) && ready(m)),
    `the approval message of ${requestId}`,
  );
}

/**
 * True while the message still has buttons that decide or settle the request; the undo buttons
 * of a done change (Put back now, Extend…, Revert…: docs/time-boxed.md) do not count.
 */
export function hasButtons(message: StoredMessage): boolean {
  const blocks = Array.isArray(message.blocks) ? message.blocks : [];
  return blocks.some(
    (b) =>
      isObject(b) &&
      b.type === 'actions' &&
      !String(b.block_id ?? '').startsWith(`${BLOCKS.timeBoxActions}:`),
  );
}

let clickCounter = 0;

/** A click on a button of a message; `reply()` is the ephemeral answer sent to its response URL. */
export async function click(
  h: Harness,
  options: { userId: string; actionId: string; requestId: string; message: StoredMessage },
): Promise<{ status: number; reply(): Promise<ResponsePost> }> {
  clickCounter += 1;
  const tag = `click-${clickCounter}`;
  const answer = await h.action({
    userId: options.userId,
    actionId: options.actionId,
    value: options.requestId,
    message: options.message,
    responseUrl: h.slack.responseUrl(tag),
  });
  return {
    status: answer.status,
    reply: () => h.slack.waitForResponse((p) => p.tag === tag, 8000),
  };
}

/**
 * Waits until the notification worker has done every job: the approval messages, DMs and Home tabs
 * of earlier changes (each with its protection read) are all out, so a test that resets the sandbox
 * or Slack, or counts what they received, starts from a quiet state.
 */
export async function notificationsDone(h: Harness): Promise<void> {
  await until(
    async () => ((await h.store.notificationDepth()) === 0 ? true : undefined),
    'the notifications of earlier changes to be done',
  );
}

/** The request as the store holds it now. */
export async function stored(h: Harness, requestId: string): Promise<OperationRequest> {
  const request = await h.store.getRequest(requestId);
  if (request === null) throw new Error(`no request ${requestId} in the store`);
  return request;
}

/** Waits until the request reaches `state`. */
export async function reaches(
  h: Harness,
  requestId: string,
  state: OperationRequest['state'],
): Promise<OperationRequest> {
  return until(async () => {
    const request = await h.store.getRequest(requestId);
    return request?.state === state ? request : undefined;
  }, `${requestId} to be ${state}`);
}

/** Direct messages the app sent a user (through conversations.open + chat.postMessage). */
export function directMessages(h: Harness, userId: string): string[] {
  const channels = dmChannelsOf(h, userId);
  return h.slack
    .callsTo('chat.postMessage')
    .filter((c) => channels.has(String(c.args.channel)))
    .map((c) => `${String(c.args.text)}\n${JSON.stringify(c.args.blocks ?? [])}`);
}

/** The DM channels vidops opened with `userId`. */
function dmChannelsOf(h: Harness, userId: string): Set<string> {
  return new Set(
    h.slack
      .callsTo('conversations.open')
      .filter((c) => c.args.users === userId && isObject(c.response.channel))
      .map((c) => (isObject(c.response.channel) ? String(c.response.channel.id) : '')),
  );
}

/** The DMs `userId` got from vidops as they read now (after any `chat.update`), text then blocks. */
export function directMessagesNow(h: Harness, userId: string): string[] {
  return [...dmChannelsOf(h, userId)].flatMap((channel) =>
    h.slack.messages(channel).map((m) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`),
  );
}

/**
 * Every event of the store's chain verifies, and each one's short hash is in the audit channel:
 * the channel witnessed every step.
 */
export async function expectAuditWitnessed(h: Harness): Promise<void> {
  const result = await verifyChain(h.store.iterateAudit(), createHasher(h.config.auditHmacKey));
  if (!result.ok) throw new Error(`the audit chain does not verify: ${result.reason}`);
  const events = await h.store.listAudit();
  await until(() => {
    const posted = h.slack
      .messages(CHANNELS.audit)
      .map((m) => `${m.text}${JSON.stringify(m.blocks ?? [])}`)
      .join('\n');
    return events.every((e) => posted.includes(shortHash(e.hash))) ? true : undefined;
  }, 'every audit event in the audit channel');
}

/** The `/v1` requests the sandbox received with this method and path. */
export function upstream(h: Harness, method: string, path: string) {
  return h.sandbox.requests().filter((r) => r.method === method && r.path === path);
}
