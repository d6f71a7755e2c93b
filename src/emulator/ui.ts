import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Emulator, EphemeralMessage, StoredMessage, StoredView } from './emulator.js';
import { escapeHtml, mrkdwnToHtml, type NameBook } from './mrkdwn.js';
import { createPageGuard } from './page-guard.js';
import { type ClickTarget, personOf, type RawInput } from './person.js';
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

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

function text(value: JsonValue | undefined, what: string): string {
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

type Entry = { kind: 'message'; message: StoredMessage } | { kind: 'ephemeral'; message: EphemeralMessage };

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

/**
 * Serves the playground page and its actions on the emulator's server, to the page opened from
 * the printed address only (src/emulator/page-guard.ts).
 */
export function playgroundRoutes(options: PlaygroundPageOptions): PlaygroundPage {
  let emulator: Emulator | undefined;
  const guard = createPageGuard(options.token);
  const personaIds = new Set(options.personas.map((p) => p.id));
  const shortcuts = options.shortcuts ?? [];
  const messageShortcuts = shortcuts.some((s) => s.type === 'message');

  const names = (): NameBook => ({
    user: (id) => {
      if (id === BOT_USER_ID) return BOT_NAME;
      const user = emulator?.user(id);
      return user === undefined ? undefined : (user.display_name ?? user.real_name ?? user.name);
    },
    channel: (id) => emulator?.channels().find((c) => c.id === id)?.name,
    group: (id) => emulator?.usergroups().find((g) => g.id === id)?.handle,
  });

  const context = (): RenderContext => ({
    names: names(),
    people: (emulator?.users() ?? []).map((u) => ({ id: u.id, name: u.real_name ?? u.name })),
  });

  const personaOf = (value: JsonValue | string | null | undefined): string => {
    if (typeof value !== 'string' || !personaIds.has(value)) throw new RequestError(400, 'unknown persona');
    return value;
  };

  /** Who a message shows as written by, and whether that is an app. */
  const authorOf = (entry: Entry, ctx: RenderContext): { name: string; app: boolean } => {
    if (entry.kind === 'ephemeral') {
      const from = entry.message.from;
      if (from === 'slackbot') return { name: 'Slackbot', app: false };
      if (from === 'echo') return { name: 'You typed', app: false };
      return { name: BOT_NAME, app: true };
    }
    const user = entry.message.user;
    if (entry.message.bot_id !== undefined) return { name: BOT_NAME, app: true };
    return { name: ctx.names.user(typeof user === 'string' ? user : '') ?? 'someone', app: false };
  };

  const messageHtml = (entry: Entry, ctx: RenderContext): string => {
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
    const classes = [
      'message',
      ephemeral ? 'ephemeral' : '',
      author.app ? 'from-bot' : '',
      echo ? 'echo' : '',
    ]
      .filter(Boolean)
      .join(' ');
    return (
      `<article class="${classes}" data-container="message" data-channel="${escapeHtml(m.channel)}" data-ts="${escapeHtml(m.ts)}"${ephemeral ? ' data-ephemeral="true"' : ''}>` +
      `<div class="avatar" aria-hidden="true">${escapeHtml((author.name[0] ?? '?').toUpperCase())}</div>` +
      `<div class="content"><header><span class="author">${escapeHtml(author.name)}</span>${author.app ? ' <span class="app-badge">APP</span>' : ''} ${timeHtml(m.ts)}${edited}` +
      (messageShortcuts && !ephemeral
        ? ' <button type="button" class="msg-more" data-more aria-label="More actions" title="More actions">⋯</button>'
        : '') +
      '</header>' +
      `<div class="body">${body}</div>` +
      (ephemeral ? '<div class="ephemeral-note">Only visible to you</div>' : '') +
      '</div></article>'
    );
  };

  const conversationHtml = (user: string, channel: string): string => {
    const em = emulator;
    if (em === undefined) return '';
    const ctx = context();
    const entries: Entry[] = [
      ...em.messages(channel).map((message) => ({ kind: 'message' as const, message })),
      ...em.ephemerals(user, channel).map((message) => ({ kind: 'ephemeral' as const, message })),
    ].sort((a, b) => Number(a.message.ts) - Number(b.message.ts));
    if (entries.length === 0) return '<p class="empty">No messages here yet.</p>';
    return entries.map((e) => messageHtml(e, ctx)).join('');
  };

  const modalOf = (user: string): JsonObject | null => {
    const stack = emulator?.modalStack(user) ?? [];
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
      html: blocksToHtml(top.blocks, context()),
    };
  };

  const state = (user: string, conversation: string): JsonObject => {
    const em = emulator;
    if (em === undefined) throw new RequestError(503, 'the emulator is starting');
    const channels = em.channels();
    const dms = em.dmsOf(user);
    let current: JsonObject;
    if (conversation === 'home') {
      const home = em.homeView(user);
      current = {
        id: 'home',
        kind: 'home',
        title: `${BOT_NAME} · Home`,
        subtitle: 'The App Home tab',
        viewId: home?.id ?? null,
        html:
          home === undefined
            ? '<p class="empty">Opening the Home tab…</p>'
            : `<div class="home" data-container="view" data-view-id="${escapeHtml(home.id)}">${blocksToHtml(home.blocks, context())}</div>`,
      };
    } else {
      const known = channels.find((c) => c.id === conversation);
      current = {
        id: conversation,
        kind: conversation.startsWith('D') ? 'dm' : 'channel',
        title: conversation.startsWith('D') ? BOT_NAME : `#${known?.name ?? conversation}`,
        subtitle: conversation.startsWith('D')
          ? `Your direct messages with ${BOT_NAME}`
          : (known?.purpose ?? ''),
        html: conversationHtml(user, conversation),
      };
    }
    return {
      user,
      conversation: current,
      channels: channels.map((c) => ({ id: c.id, name: c.name, purpose: c.purpose ?? '' })),
      dms: dms.map((id) => ({ id, name: BOT_NAME })),
      modal: modalOf(user),
      connected: em.socketMode.connections > 0,
    };
  };

  const serveStatic = async (res: ServerResponse, name: string): Promise<void> => {
    const type = STATIC_FILES[name];
    if (type === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const body = await readFile(new URL(name, WEB_DIR));
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' });
    res.end(body);
  };

  const events = (req: IncomingMessage, res: ServerResponse): void => {
    const em = emulator;
    if (em === undefined) throw new RequestError(503, 'the emulator is starting');
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
  };

  /** A file put into a modal: JSON `{ user, name, mimetype, content }`, the content in base64. */
  const upload = async (em: Emulator, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readJson(req, FILE_JSON_LIMIT_BYTES);
    const user = personaOf(body.user);
    const name = (typeof body.name === 'string' && body.name !== '' ? body.name : 'upload').slice(0, 200);
    const mimetype =
      typeof body.mimetype === 'string' && body.mimetype !== '' ? body.mimetype : 'application/octet-stream';
    if (typeof body.content !== 'string') throw new RequestError(400, 'content (base64) is missing');
    const content = Buffer.from(body.content, 'base64');
    if (content.byteLength > FILE_LIMIT_BYTES)
      throw new RequestError(413, `larger than ${FILE_LIMIT_BYTES} bytes`);
    const file = em.addFile({ name, mimetype, content: new Uint8Array(content), title: name, user });
    sendJson(res, 200, { ok: true, id: file.id, name: file.name });
  };

  const act = async (path: string, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const em = emulator;
    if (em === undefined) throw new RequestError(503, 'the emulator is starting');
    if (path === 'files') {
      await upload(em, req, res);
      return;
    }
    const body = await readJson(req);
    const user = personaOf(body.user);
    const person = personOf(em, user);
    switch (path) {
      case 'command': {
        const result = await person.command(text(body.text, 'text').replace(/^\/vidops\s*/, ''), {
          channel: text(body.channel, 'channel'),
        });
        sendJson(res, 200, {
          ok: result.delivery.ok,
          ...(result.delivery.ok ? {} : { error: result.delivery.error }),
        });
        return;
      }
      case 'message':
        em.postAsUser(text(body.channel, 'channel'), user, text(body.text, 'text'));
        sendJson(res, 200, { ok: true });
        return;
      case 'action': {
        const target: ClickTarget = {
          actionId: text(body.actionId, 'actionId'),
          ...(typeof body.blockId === 'string' ? { blockId: body.blockId } : {}),
          ...(typeof body.channel === 'string' ? { channel: body.channel } : {}),
          ...(typeof body.ts === 'string' ? { ts: body.ts } : {}),
          ...(body.ephemeral === true ? { ephemeral: true } : {}),
          ...(typeof body.viewId === 'string' ? { viewId: body.viewId } : {}),
          ...(typeof body.selected === 'string' ? { selected: body.selected } : {}),
          ...(isObject(body.input) ? { input: rawInput(body.input) } : {}),
        };
        const result = await person.click(target);
        if (!result.ok) sendJson(res, 200, { ok: false, error: result.error });
        else if (!result.delivery.ok) sendJson(res, 200, { ok: false, error: result.delivery.error });
        else sendJson(res, 200, { ok: true });
        return;
      }
      case 'submit': {
        const result = await person.submit(text(body.viewId, 'viewId'), rawInput(body.input));
        if (result.outcome === 'invalid' || result.outcome === 'errors') {
          const errors: JsonObject = {};
          for (const [blockId, message] of Object.entries(result.errors)) {
            errors[blockId] = mrkdwnToHtml(message, names());
          }
          sendJson(res, 200, { ok: false, outcome: result.outcome, errors });
        } else if (result.outcome === 'failed') {
          sendJson(res, 200, { ok: false, outcome: 'failed', error: result.error });
        } else {
          sendJson(res, 200, { ok: true, outcome: result.outcome });
        }
        return;
      }
      case 'close':
        await person.close(text(body.viewId, 'viewId'));
        sendJson(res, 200, { ok: true });
        return;
      case 'shortcut': {
        const callbackId = text(body.callbackId, 'callbackId');
        const shortcut = shortcuts.find((s) => s.callback_id === callbackId);
        if (shortcut === undefined) throw new RequestError(400, 'the app has no such shortcut');
        const result =
          shortcut.type === 'message'
            ? await person.messageShortcut({
                callbackId,
                channel: text(body.channel, 'channel'),
                ts: text(body.ts, 'ts'),
              })
            : await person.globalShortcut(callbackId);
        if (!result.ok) sendJson(res, 200, { ok: false, error: result.error });
        else if (!result.delivery.ok) sendJson(res, 200, { ok: false, error: result.delivery.error });
        else sendJson(res, 200, { ok: true });
        return;
      }
      case 'home': {
        const delivery = await person.openHome();
        sendJson(res, 200, { ok: delivery.ok, ...(delivery.ok ? {} : { error: delivery.error }) });
        return;
      }
      default:
        throw new RequestError(404, 'no such action');
    }
  };

  const workspace = (): JsonObject => ({
    personas: options.personas.map((p) => ({ id: p.id, label: p.label })),
    commands: options.commands.map((c) => ({ usage: c.usage, summary: c.summary })),
    defaultChannel: options.defaultChannel,
    videoApi: options.videoApi,
    realService: options.realService ?? null,
    bot: BOT_NAME,
    shortcuts: shortcuts.map((s) => ({ name: s.name, type: s.type, callbackId: s.callback_id })),
  });

  /** The page itself, to whoever holds the token (the printed `?token=` or the cookie it leaves). */
  const servePage = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (!guard.holdsToken(req, url.searchParams.get('token'))) {
      res.writeHead(403, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(REFUSED_PAGE);
      return;
    }
    res.setHeader('set-cookie', guard.cookie());
    await serveStatic(res, 'index.html');
  };

  /** The `/ui/…` routes: the guard first, whatever the method; false for a route that is not one. */
  const serveUi = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    parts: string[],
  ): Promise<boolean> => {
    const refusal = guard.uiRefusal(req);
    if (refusal !== undefined) {
      sendJson(res, 403, { ok: false, error: refusal });
      return true;
    }
    if (req.method === 'GET' && url.pathname === '/ui/workspace') {
      sendJson(res, 200, workspace());
    } else if (req.method === 'GET' && url.pathname === '/ui/state') {
      const user = personaOf(url.searchParams.get('user'));
      sendJson(res, 200, state(user, url.searchParams.get('conversation') ?? options.defaultChannel));
    } else if (req.method === 'GET' && url.pathname === '/ui/events') {
      events(req, res);
    } else if (req.method === 'POST' && parts.length === 2 && parts[1] !== undefined) {
      await act(parts[1], req, res);
    } else {
      return false;
    }
    return true;
  };

  const routes = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    const parts = url.pathname.split('/').filter(Boolean);
    for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    try {
      const host = guard.hostRefusal(req);
      if (host !== undefined) {
        sendJson(res, 403, { ok: false, error: host });
      } else if (req.method === 'GET' && parts.length === 0) {
        await servePage(req, res, url);
      } else if (
        req.method === 'GET' &&
        parts[0] === 'static' &&
        parts.length === 2 &&
        parts[1] !== undefined
      ) {
        await serveStatic(res, parts[1]);
      } else if (parts[0] === 'ui') {
        return await serveUi(req, res, url, parts);
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
  };

  return {
    attach: (em) => {
      emulator = em;
      guard.bind(em.url);
    },
    routes,
    refuse: guard.hostRefusal,
    token: guard.token,
    get cookieName() {
      return guard.cookieName;
    },
  };
}
