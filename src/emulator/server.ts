import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { JsonObject } from '../core/json.js';
import type { ResponsePost } from './emulator.js';
import { fail, parseObject, str, truthy } from './json.js';
import { checkMessage, landResponse } from './messages.js';
import type { EmulatorState } from './state.js';
import { type Answer, callMethod } from './web-api.js';
import { TEAM_ID } from './workspace.js';

/**
 * The emulator's HTTP server: the Web API (`/api/<method>`), response URLs (`/response/<tag>`),
 * file downloads (`/files-pri/…`), the Socket Mode upgrade (`/link/`), and the extra routes
 * given (the playground page). `refuse` is asked first about every request and upgrade.
 * @see docs/slack.md; docs/architecture.md, "Emulator and playground"
 */

/** Slack's rule for response URLs: 5 uses within 30 minutes. */
const RESPONSE_URL_USES = 5;
const RESPONSE_URL_TTL_MS = 30 * 60_000;

// Form-encoded fields that Slack reads as JSON (the SDK JSON-encodes non-scalar arguments).
const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata']);

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

/** A JSON or form body as an object; undefined when JSON was promised and not given. */
function parseBody(contentType: string, text: string): JsonObject | undefined {
  if (text.trim() === '') return {};
  return contentType.includes('application/json') ? parseObject(text) : parseForm(text);
}

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status ?? 200, {
    'content-type': 'application/json; charset=utf-8',
    ...answer.headers,
  });
  res.end(JSON.stringify(answer.body));
}

/** A Web API call: arguments from the query and the body (form or JSON), the token from either. */
async function handleApi(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  query: URLSearchParams,
) {
  const text = await readBody(req);
  const json = req.headers['content-type']?.includes('json') ?? false;
  const parsed = parseBody(req.headers['content-type'] ?? '', text);
  const { token: bodyToken, ...args }: JsonObject = { ...parseForm(query.toString()), ...(parsed ?? {}) };
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  // Slack reads a JSON body's token only from the Authorization header.
  const token = bearer ?? (json ? undefined : str(bodyToken));
  send(res, callMethod(state, { method, args, token, invalidJson: parsed === undefined }));
}

/** Slack's answer to a post to a response URL, given its body and the URL's uses so far. */
function responseAnswer(
  state: EmulatorState,
  body: JsonObject | undefined,
  slot: { uses: number; createdAt: number },
) {
  if (body === undefined) return { status: 400, body: fail('invalid_payload') };
  if (slot.uses > RESPONSE_URL_USES) return { status: 404, body: fail('used_url') };
  if (state.now() - slot.createdAt > RESPONSE_URL_TTL_MS) return { status: 404, body: fail('expired_url') };
  if (truthy(body.delete_original)) return { body: { ok: true } };
  const problem = checkMessage(state, 'response_url', body, true);
  return problem === undefined ? { body: { ok: true } } : { status: 400, body: problem };
}

async function handleResponseUrl(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  tag: string,
) {
  const text = await readBody(req);
  const contentType = req.headers['content-type'] ?? '';
  let body = parseBody(contentType, text);
  // Some clients post `payload=<json>` form bodies to response URLs.
  if (body !== undefined && !contentType.includes('json') && typeof body.payload === 'string') {
    body = parseBody('application/json', body.payload);
  }
  const slot = state.responseSlots.get(tag) ?? { target: undefined, uses: 0, createdAt: state.now() };
  state.responseSlots.set(tag, slot);
  slot.uses += 1;
  const answer: Answer = responseAnswer(state, body, slot);
  if (body !== undefined && answer.status === undefined && slot.target !== undefined) {
    landResponse(state, slot.target, body);
  }
  const at = new Date(state.now());
  const post: ResponsePost = { tag, body: body ?? { raw: text }, at, status: answer.status ?? 200 };
  state.responsePosts.push(post);
  state.events.emit('response', post);
  send(res, answer);
}

function handleDownload(state: EmulatorState, req: IncomingMessage, res: ServerResponse, fileKey: string) {
  const file = state.files.get(fileKey.slice(TEAM_ID.length + 1));
  if (req.headers.authorization !== `Bearer ${state.botToken}`) {
    // Like Slack: without the token you get redirected to a sign-in page, not a 401.
    res.writeHead(302, { location: `${state.baseUrl}/signin` });
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
}

/** Routes one request (refused by `refuse` already when it should be). */
async function route(state: EmulatorState, req: IncomingMessage, res: ServerResponse, url: URL) {
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [first, second] = parts;
  if (first === 'api' && parts.length === 2 && second !== undefined) {
    await handleApi(state, req, res, second, url.searchParams);
  } else if (first === 'response' && parts.length === 2 && second !== undefined && req.method === 'POST') {
    await handleResponseUrl(state, req, res, second);
  } else if (first === 'files-pri' && second !== undefined && req.method === 'GET') {
    handleDownload(state, req, res, second);
  } else if (first === 'signin') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><body>Sign in to the local vidops workspace</body></html>');
  } else if (state.options.extraRoutes === undefined || !(await state.options.extraRoutes(req, res, url))) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
}

function handleRequest(state: EmulatorState, req: IncomingMessage, res: ServerResponse): void {
  const refusal = state.options.refuse?.(req);
  if (refusal !== undefined) {
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(refusal);
    return;
  }
  const url = new URL(req.url ?? '/', state.baseUrl || 'http://127.0.0.1');
  route(state, req, res, url).catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`emulator failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/** A WebSocket upgrade: the Socket Mode path only, and not when `refuse` refuses it. */
function handleUpgrade(state: EmulatorState, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (state.options.refuse?.(req) !== undefined)
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  else if (path === '/link/' || path === '/link') state.hub.handleUpgrade(req, socket, head);
  else socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
}

/** Starts the server on `options.host` (127.0.0.1) and `options.port` (a free one); sets `state.baseUrl`. */
export async function listen(state: EmulatorState): Promise<Server> {
  const server = createServer((req, res) => handleRequest(state, req, res));
  server.on('upgrade', (req, socket, head) => handleUpgrade(state, req, socket, head));
  const host = state.options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(state.options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return server;
}
