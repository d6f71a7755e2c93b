import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Delivery, Emulator, EphemeralMessage, StoredMessage, StoredView } from './emulator.js';
import { isObject } from './json.js';
import { escapeHtml, mrkdwnToHtml, type NameBook } from './mrkdwn.js';
import { createPageGuard, type PageGuard } from './page-guard.js';
import { type ClickTarget, type Person, personOf, type RawInput } from './person.js';
import { blocksToHtml, messageBodyHtml, type RenderContext } from './render.js';
import { BOT_NAME, BOT_USER_ID } from './workspace.js';

/**
 * The playground page's server side: the page itself (plain HTML, CSS and one module script,
 * served as files from src/emulator/web/), the state it draws (channels, DMs, the Home tab,
 * the open modal, rendered to HTML here), live updates as server-sent events, and the actions a
 * person takes there, done through src/emulator/person.ts as Slack would do them. Only the page
 * opened from the printed address may use them (src/emulator/page-guard.ts).
 * @see docs/architecture.md, "Emulator and playground"
 */

export interface Persona {
  id: string;
  /** "Sara, agent". */
  label: string;
}

export interface PlaygroundPageOptions {
  personas: readonly Persona[];
  /** Offered as a person types `/vidops …`. */
  commands: readonly { usage: string; summary: string }[];
  /** The channel the page opens on. */
  defaultChannel: string;
  /** One line about where the video API is (the local sandbox or a real service). */
  videoApi: string;
  /** The real video service the playground acts on (VIDOPS_PLAYGROUND=1), shown as a warning on the page. */
  realService?: string;
  /** The per-start secret the page must hold; random (32 bytes) when left out. */
  token?: string;
  /** The app's shortcuts (as its manifest declares them): message ones on each message's menu, global ones by the composer. */
  shortcuts?: readonly { name: string; type: 'message' | 'global'; callback_id: string }[];
}

// The page's files, in src/emulator/web/ (read from the sources, also when running from dist/).
const WEB_DIR = new URL('../../src/emulator/web/', import.meta.url);
const STATIC_FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};
const JSON_LIMIT_BYTES = 1024 * 1024;
const FILE_LIMIT_BYTES = 10 * 1024 * 1024;
/** An upload comes as JSON with its bytes in base64: 4 characters for every 3 bytes, and the rest. */
const FILE_JSON_LIMIT_BYTES = Math.ceil(FILE_LIMIT_BYTES / 3) * 4 + 64 * 1024;
/** On every answer of the page's routes: no token in a Referer, no framing by another page. */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};
const REFUSED_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>vidops playground · open the printed address</title></head>' +
  '<body><h1>Open the address printed at start</h1><p>This playground acts as anyone, leads included, so its page opens only from the ' +
  'address printed where it was started (<code>npm start</code>), the one ending in <code>?token=…</code>. ' +
  'After a restart, open the new address: the token changes at every start.</p></body></html>';

class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.byteLength;
    if (size > limit) throw new RequestError(413, `larger than ${limit} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

async function readJson(req: IncomingMessage, limit = JSON_LIMIT_BYTES): Promise<JsonObject> {
  const text = (await readRaw(req, limit)).toString('utf8');
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RequestError(400, 'the body is not JSON');
  }
  if (!isObject(parsed)) throw new RequestError(400, 'the body is not a JSON object');
  return parsed;
}

function sendJson(res: ServerResponse, status: number, body: JsonValue): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function requiredText(value: JsonValue | undefined, what: string): string {
  if (typeof value !== 'string' || value === '') throw new RequestError(400, `${what} is missing`);
  return value;
}

/** What a person put into a modal, as the page sends it: strings and lists of strings only. */
function rawInput(value: JsonValue | undefined): RawInput {
  const input: RawInput = {};
  if (!isObject(value)) return input;
  for (const [blockId, actions] of Object.entries(value)) {
    if (!isObject(actions)) continue;
    const entry: Record<string, string | string[] | null> = {};
    for (const [actionId, given] of Object.entries(actions)) {
      if (typeof given === 'string' || given === null) entry[actionId] = given;
      else if (Array.isArray(given))
        entry[actionId] = given.filter((g): g is string => typeof g === 'string');
    }
    input[blockId] = entry;
  }
  return input;
}

function timeHtml(ts: string): string {
  const ms = Math.round(Number(ts) * 1000);
  const iso = Number.isFinite(ms) ? new Date(ms).toISOString() : '';
  return `<time datetime="${iso}" data-format="{time}">${iso.slice(11, 16)}</time>`;
}

export interface PlaygroundPage {
  /** To call once the emulator runs: the Host names accepted follow its address and port. */
  attach(emulator: Emulator): void;
  /** The handler to give `startEmulator({ extraRoutes })`. */
  routes(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  /** To give `startEmulator({ refuse })`: every request and upgrade with a foreign Host is refused. */
  refuse(req: IncomingMessage): string | undefined;
  /** The per-start secret the page holds; the printed address carries it as `?token=`. */
  readonly token: string;
  /** The cookie the page keeps the token in (named after the port, known once attached). */
  readonly cookieName: string;
}

type Entry = { kind: 'message'; message: StoredMessage } | { kind: 'ephemeral'; message: EphemeralMessage };

/** What the page's routes share: their options, the guard, and the emulator once attached. */
interface Page {
  readonly options: PlaygroundPageOptions;
  readonly guard: PageGuard;
  readonly personaIds: ReadonlySet<string>;
  readonly shortcuts: NonNullable<PlaygroundPageOptions['shortcuts']>;
  emulator: Emulator | undefined;
}

function running(page: Page): Emulator {
  if (page.emulator === undefined) throw new RequestError(503, 'the emulator is starting');
  return page.emulator;
}

function names(page: Page): NameBook {
  return {
    user: (id) => {
      if (id === BOT_USER_ID) return BOT_NAME;
      const user = page.emulator?.user(id);
      return user === undefined ? undefined : (user.display_name ?? user.real_name ?? user.name);
    },
    channel: (id) => page.emulator?.channels().find((c) => c.id === id)?.name,
    group: (id) => page.emulator?.usergroups().find((g) => g.id === id)?.handle,
  };
}

function renderContext(page: Page): RenderContext {
  return {
    names: names(page),
    people: (page.emulator?.users() ?? []).map((u) => ({ id: u.id, name: u.real_name ?? u.name })),
  };
}

/** The persona a request acts as; one the page does not offer is refused. */
function personaOf(page: Page, value: JsonValue | string | null | undefined): string {
  if (typeof value !== 'string' || !page.personaIds.has(value))
    throw new RequestError(400, 'unknown persona');
  return value;
}

/** Who a message shows as written by, and whether that is an app. */
function authorOf(entry: Entry, ctx: RenderContext): { name: string; app: boolean } {
  if (entry.kind === 'ephemeral') {
    const from = entry.message.from;
    if (from === 'slackbot') return { name: 'Slackbot', app: false };
    if (from === 'echo') return { name: 'You typed', app: false };
    return { name: BOT_NAME, app: true };
  }
  const user = entry.message.user;
  if (entry.message.bot_id !== undefined) return { name: BOT_NAME, app: true };
  return { name: ctx.names.user(typeof user === 'string' ? user : '') ?? 'someone', app: false };
}

/** One message as the page shows it; `withMenu`: a "More actions" button for message shortcuts. */
function messageHtml(entry: Entry, ctx: RenderContext, withMenu: boolean): string {
  const m = entry.message;
  const ephemeral = entry.kind === 'ephemeral';
  const echo = entry.kind === 'ephemeral' && entry.message.from === 'echo';
  const author = authorOf(entry, ctx);
  const body = echo
    ? `<div class="mrkdwn" dir="auto"><code dir="ltr">${escapeHtml(m.text)}</code></div>`
    : messageBodyHtml({ text: m.text, blocks: m.blocks }, ctx);
  const edited =
    entry.kind === 'message' && entry.message.edited !== undefined
      ? ' <span class="edited">(edited)</span>'
      : '';
  const classes = ['message', ephemeral ? 'ephemeral' : '', author.app ? 'from-bot' : '', echo ? 'echo' : '']
    .filter(Boolean)
    .join(' ');
  return (
    `<article class="${classes}" data-container="message" data-channel="${escapeHtml(m.channel)}" data-ts="${escapeHtml(m.ts)}"${ephemeral ? ' data-ephemeral="true"' : ''}>` +
    `<div class="avatar" aria-hidden="true">${escapeHtml((author.name[0] ?? '?').toUpperCase())}</div>` +
    `<div class="content"><header><span class="author">${escapeHtml(author.name)}</span>${author.app ? ' <span class="app-badge">APP</span>' : ''} ${timeHtml(m.ts)}${edited}` +
    (withMenu && !ephemeral
      ? ' <button type="button" class="msg-more" data-more aria-label="More actions" title="More actions">⋯</button>'
      : '') +
    '</header>' +
    `<div class="body">${body}</div>` +
    (ephemeral ? '<div class="ephemeral-note">Only visible to you</div>' : '') +
    '</div></article>'
  );
}

/** A channel or DM as `user` sees it: its messages and their ephemeral ones, oldest first. */
function conversationHtml(page: Page, em: Emulator, user: string, channel: string): string {
  const ctx = renderContext(page);
  const entries: Entry[] = [
    ...em.messages(channel).map((message) => ({ kind: 'message' as const, message })),
    ...em.ephemerals(user, channel).map((message) => ({ kind: 'ephemeral' as const, message })),
  ].sort((a, b) => Number(a.message.ts) - Number(b.message.ts));
  if (entries.length === 0) return '<p class="empty">No messages here yet.</p>';
  const withMenu = page.shortcuts.some((s) => s.type === 'message');
  return entries.map((e) => messageHtml(e, ctx, withMenu)).join('');
}

/** The modal on top of `user`'s stack, as the page draws it; null when none is open. */
function modalOf(page: Page, em: Emulator, user: string): JsonObject | null {
  const stack = em.modalStack(user);
  const top: StoredView | undefined = stack.at(-1);
  if (top === undefined) return null;
  const plain = (v: JsonValue | undefined) => (isObject(v) && typeof v.text === 'string' ? v.text : '');
  return {
    id: top.id,
    hash: top.hash,
    title: plain(top.title),
    submit: top.submit === null ? null : plain(top.submit),
    close: plain(top.close) || 'Cancel',
    depth: stack.length,
    html: blocksToHtml(top.blocks, renderContext(page)),
  };
}

function homeTab(page: Page, em: Emulator, user: string): JsonObject {
  const home = em.homeView(user);
  return {
    id: 'home',
    kind: 'home',
    title: `${BOT_NAME} · Home`,
    subtitle: 'The App Home tab',
    viewId: home?.id ?? null,
    html:
      home === undefined
        ? '<p class="empty">Opening the Home tab…</p>'
        : `<div class="home" data-container="view" data-view-id="${escapeHtml(home.id)}">${blocksToHtml(home.blocks, renderContext(page))}</div>`,
  };
}

function conversationOf(page: Page, em: Emulator, user: string, conversation: string): JsonObject {
  if (conversation === 'home') return homeTab(page, em, user);
  const known = em.channels().find((c) => c.id === conversation);
  const dm = conversation.startsWith('D');
  return {
    id: conversation,
    kind: dm ? 'dm' : 'channel',
    title: dm ? BOT_NAME : `#${known?.name ?? conversation}`,
    subtitle: dm ? `Your direct messages with ${BOT_NAME}` : (known?.purpose ?? ''),
    html: conversationHtml(page, em, user, conversation),
  };
}

/** What the page draws for `user` in `conversation` (a channel, a DM, or `home`). */
function stateOf(page: Page, user: string, conversation: string): JsonObject {
  const em = running(page);
  const current = conversationOf(page, em, user, conversation);
  return {
    user,
    conversation: current,
    channels: em.channels().map((c) => ({ id: c.id, name: c.name, purpose: c.purpose ?? '' })),
    dms: em.dmsOf(user).map((id) => ({ id, name: BOT_NAME })),
    modal: modalOf(page, em, user),
    connected: em.socketMode.connections > 0,
  };
}

async function serveStatic(res: ServerResponse, name: string): Promise<void> {
  const type = Object.hasOwn(STATIC_FILES, name) ? STATIC_FILES[name] : undefined;
  if (type === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
    return;
  }
  const body = await readFile(new URL(name, WEB_DIR));
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' });
  res.end(body);
}

/** Live updates: every change a viewer would see, as server-sent events. */
function streamChanges(page: Page, req: IncomingMessage, res: ServerResponse): void {
  const em = running(page);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  res.write(': the local vidops workspace\n\n');
  const unsubscribe = em.onChange((change) => {
    res.write(`event: change\ndata: ${JSON.stringify(change)}\n\n`);
  });
  const keepAlive = setInterval(() => res.write(': still here\n\n'), 15_000);
  keepAlive.unref();
  req.on('close', () => {
    clearInterval(keepAlive);
    unsubscribe();
  });
}

/** A file put into a modal: JSON `{ user, name, mimetype, content }`, the content in base64. */
async function upload(page: Page, em: Emulator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req, FILE_JSON_LIMIT_BYTES);
  const user = personaOf(page, body.user);
  const name = (typeof body.name === 'string' && body.name !== '' ? body.name : 'upload').slice(0, 200);
  const mimetype =
    typeof body.mimetype === 'string' && body.mimetype !== '' ? body.mimetype : 'application/octet-stream';
  if (typeof body.content !== 'string') throw new RequestError(400, 'content (base64) is missing');
  const content = Buffer.from(body.content, 'base64');
  if (content.byteLength > FILE_LIMIT_BYTES)
    throw new RequestError(413, `larger than ${FILE_LIMIT_BYTES} bytes`);
  const file = em.addFile({ name, mimetype, content: new Uint8Array(content), title: name, user });
  sendJson(res, 200, { ok: true, id: file.id, name: file.name });
}

/** The answer to an action delivered to the app: ok, or the error Slack would show. */
function deliveredAnswer(
  result: { ok: true; delivery: Delivery } | { ok: false; error: string },
): JsonObject {
  if (!result.ok) return { ok: false, error: result.error };
  return result.delivery.ok ? { ok: true } : { ok: false, error: result.delivery.error };
}

/** What the person asked for in one action of the page. */
interface Act {
  page: Page;
  em: Emulator;
  user: string;
  person: Person;
  body: JsonObject;
}

/** The page's actions (`POST /ui/<name>`), each done through the person as Slack would do it. */
const ACTIONS: Readonly<Record<string, (act: Act) => Promise<JsonObject>>> = {
  command: async ({ person, body }) => {
    const text = requiredText(body.text, 'text').replace(/^\/vidops\s*/, '');
    const { delivery } = await person.command(text, { channel: requiredText(body.channel, 'channel') });
    return { ok: delivery.ok, ...(delivery.ok ? {} : { error: delivery.error }) };
  },
  message: async ({ em, user, body }) => {
    em.postAsUser(requiredText(body.channel, 'channel'), user, requiredText(body.text, 'text'));
    return { ok: true };
  },
  action: async ({ person, body }) => deliveredAnswer(await person.click(clickTarget(body))),
  submit: async ({ page, person, body }) => {
    const result = await person.submit(requiredText(body.viewId, 'viewId'), rawInput(body.input));
    if (result.outcome === 'invalid' || result.outcome === 'errors') {
      const errors: JsonObject = {};
      for (const [blockId, message] of Object.entries(result.errors)) {
        errors[blockId] = mrkdwnToHtml(message, names(page));
      }
      return { ok: false, outcome: result.outcome, errors };
    }
    if (result.outcome === 'failed') return { ok: false, outcome: 'failed', error: result.error };
    return { ok: true, outcome: result.outcome };
  },
  close: async ({ person, body }) => {
    await person.close(requiredText(body.viewId, 'viewId'));
    return { ok: true };
  },
  shortcut: async ({ page, person, body }) => {
    const callbackId = requiredText(body.callbackId, 'callbackId');
    const shortcut = page.shortcuts.find((s) => s.callback_id === callbackId);
    if (shortcut === undefined) throw new RequestError(400, 'the app has no such shortcut');
    if (shortcut.type !== 'message') return deliveredAnswer(await person.globalShortcut(callbackId));
    const channel = requiredText(body.channel, 'channel');
    const ts = requiredText(body.ts, 'ts');
    return deliveredAnswer(await person.messageShortcut({ callbackId, channel, ts }));
  },
  home: async ({ person }) => {
    const delivery = await person.openHome();
    return { ok: delivery.ok, ...(delivery.ok ? {} : { error: delivery.error }) };
  },
};

/** A click as the page sends it: the button or menu, where it is, and what the view holds. */
function clickTarget(body: JsonObject): ClickTarget {
  return {
    actionId: requiredText(body.actionId, 'actionId'),
    ...(typeof body.blockId === 'string' ? { blockId: body.blockId } : {}),
    ...(typeof body.channel === 'string' ? { channel: body.channel } : {}),
    ...(typeof body.ts === 'string' ? { ts: body.ts } : {}),
    ...(body.ephemeral === true ? { ephemeral: true } : {}),
    ...(typeof body.viewId === 'string' ? { viewId: body.viewId } : {}),
    ...(typeof body.selected === 'string' ? { selected: body.selected } : {}),
    ...(isObject(body.input) ? { input: rawInput(body.input) } : {}),
  };
}

/** `POST /ui/<name>`: an upload, or an action as a persona of the page. */
async function act(page: Page, name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const em = running(page);
  if (name === 'files') {
    await upload(page, em, req, res);
    return;
  }
  const body = await readJson(req);
  const user = personaOf(page, body.user);
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (action === undefined) throw new RequestError(404, 'no such action');
  sendJson(res, 200, await action({ page, em, user, person: personOf(em, user), body }));
}

/** What the page needs to know once: personas, commands, shortcuts, where the video API is. */
function workspaceOf(options: PlaygroundPageOptions): JsonObject {
  return {
    personas: options.personas.map((p) => ({ id: p.id, label: p.label })),
    commands: options.commands.map((c) => ({ usage: c.usage, summary: c.summary })),
    defaultChannel: options.defaultChannel,
    videoApi: options.videoApi,
    realService: options.realService ?? null,
    bot: BOT_NAME,
    shortcuts: (options.shortcuts ?? []).map((s) => ({
      name: s.name,
      type: s.type,
      callbackId: s.callback_id,
    })),
  };
}

/** The page itself, to whoever holds the token (the printed `?token=` or the cookie it leaves). */
async function servePage(page: Page, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (!page.guard.holdsToken(req, url.searchParams.get('token'))) {
    res.writeHead(403, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(REFUSED_PAGE);
    return;
  }
  res.setHeader('set-cookie', page.guard.cookie());
  await serveStatic(res, 'index.html');
}

/** The `/ui/…` routes: the guard first, whatever the method; false for a route that is not one. */
async function serveUi(
  page: Page,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  parts: string[],
): Promise<boolean> {
  const refusal = page.guard.uiRefusal(req);
  if (refusal !== undefined) {
    sendJson(res, 403, { ok: false, error: refusal });
    return true;
  }
  if (req.method === 'GET' && url.pathname === '/ui/workspace') {
    sendJson(res, 200, workspaceOf(page.options));
  } else if (req.method === 'GET' && url.pathname === '/ui/state') {
    const user = personaOf(page, url.searchParams.get('user'));
    const conversation = url.searchParams.get('conversation') ?? page.options.defaultChannel;
    sendJson(res, 200, stateOf(page, user, conversation));
  } else if (req.method === 'GET' && url.pathname === '/ui/events') {
    streamChanges(page, req, res);
  } else if (req.method === 'POST' && parts.length === 2 && parts[1] !== undefined) {
    await act(page, parts[1], req, res);
  } else {
    return false;
  }
  return true;
}

/** Every route of the page: the Host check first, then the page, its files and its `/ui/…` routes. */
async function routes(page: Page, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  const parts = url.pathname.split('/').filter(Boolean);
  for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
  try {
    const host = page.guard.hostRefusal(req);
    if (host !== undefined) {
      sendJson(res, 403, { ok: false, error: host });
    } else if (req.method === 'GET' && parts.length === 0) {
      await servePage(page, req, res, url);
    } else if (
      req.method === 'GET' &&
      parts[0] === 'static' &&
      parts.length === 2 &&
      parts[1] !== undefined
    ) {
      await serveStatic(res, parts[1]);
    } else if (parts[0] === 'ui') {
      return await serveUi(page, req, res, url, parts);
    } else {
      return false;
    }
  } catch (error) {
    const status = error instanceof RequestError ? error.status : 500;
    if (!res.headersSent)
      sendJson(res, status, { ok: false, error: error instanceof Error ? error.message : String(error) });
    else res.end();
  }
  return true;
}

/**
 * Serves the playground page and its actions on the emulator's server, to the page opened from
 * the printed address only (src/emulator/page-guard.ts).
 */
export function playgroundRoutes(options: PlaygroundPageOptions): PlaygroundPage {
  const guard = createPageGuard(options.token);
  const page: Page = {
    options,
    guard,
    personaIds: new Set(options.personas.map((p) => p.id)),
    shortcuts: options.shortcuts ?? [],
    emulator: undefined,
  };
  return {
    attach: (em) => {
      page.emulator = em;
      guard.bind(em.url);
    },
    routes: (req, res, url) => routes(page, req, res, url),
    refuse: guard.hostRefusal,
    token: guard.token,
    get cookieName() {
      return guard.cookieName;
    },
  };
}
