import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may use the playground page: the page the developer opened from the address printed at
 * start, and nothing else on the web. The page acts as anyone, leads included, so a forged post
 * from another site (CSRF), a DNS-rebinding page, or another page on this computer must not reach
 * it. Every request must name the loopback address and port the server listens on as its `Host`;
 * the page and its `/ui/…` routes need the per-start token (from the printed `?token=`, kept in an
 * HttpOnly, SameSite=Strict cookie, or sent as `X-Vidops-Token`); a state-changing request needs the
 * page's own `Origin` and an `application/json` body. Refusals are 403 with the reason.
 * @see docs/architecture.md, "Emulator and playground"
 */

/** What a browser may send without asking first; anything else is refused before it is read. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const LOOPBACK_NAMES: Readonly<Record<string, readonly string[]>> = {
  '127.0.0.1': ['127.0.0.1', 'localhost'],
  '[::1]': ['[::1]', 'localhost'],
  localhost: ['localhost', '127.0.0.1', '[::1]'],
};
export const TOKEN_HEADER = 'x-vidops-token';

export interface PageGuard {
  /** The per-start secret: 32 random bytes, base64url (43 characters). */
  readonly token: string;
  /** The cookie that keeps the token in the browser; named after the port, as cookies ignore ports. */
  readonly cookieName: string;
  /** Called once the server listens (`http://127.0.0.1:PORT`): the Host names accepted follow it. */
  bind(baseUrl: string): void;
  /** Why any request to this server is refused (a foreign `Host`), or undefined. */
  hostRefusal(req: IncomingMessage): string | undefined;
  /** Why a `/ui/…` request is refused (Host, token, Origin, body type), or undefined. */
  uiRefusal(req: IncomingMessage): string | undefined;
  /** Whether the request holds the token (header, cookie, or `?token=` when `query` is given). */
  holdsToken(req: IncomingMessage, query?: string | null): boolean;
  /** The `Set-Cookie` value that keeps the token for this page. */
  cookie(): string;
}

/** Equal in constant time: both sides are hashed first, so their lengths do not show. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The Host values that name `baseUrl`'s loopback address and port. */
export function loopbackHosts(baseUrl: string): Set<string> {
  const { hostname, port } = new URL(baseUrl);
  const names = LOOPBACK_NAMES[hostname] ?? [hostname];
  return new Set(names.map((name) => `${name}:${port}`));
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}

/** The media type of the body, without parameters, lower case; '' when none is given. */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function createPageGuard(token: string = randomBytes(32).toString('base64url')): PageGuard {
  let hosts = new Set<string>();
  let cookieName = 'vidops_playground';

  const hostRefusal = (req: IncomingMessage): string | undefined => {
    const host = req.headers.host?.toLowerCase();
    if (hosts.size === 0) return 'the playground is starting';
    if (host === undefined || !hosts.has(host))
      return `the playground answers only to ${[...hosts].join(', ')}, not to the Host "${(host ?? '').slice(0, 100)}"`;
    return undefined;
  };

  const holdsToken = (req: IncomingMessage, query?: string | null): boolean =>
    sameSecret(single(req.headers[TOKEN_HEADER]), token) ||
    sameSecret(cookieValue(req, cookieName), token) ||
    (typeof query === 'string' && sameSecret(query, token));

  /** The page's own origin is `http://` and the Host it was opened by (checked already). */
  const originRefusal = (req: IncomingMessage): string | undefined => {
    const origin = req.headers.origin;
    const own = `http://${req.headers.host?.toLowerCase() ?? ''}`;
    if (origin === undefined) {
      return SAFE_METHODS.has(req.method ?? '')
        ? undefined
        : 'a change must come with the Origin of the page';
    }
    return origin.toLowerCase() === own ? undefined : `the Origin "${origin}" is not the page's own (${own})`;
  };

  const uiRefusal = (req: IncomingMessage): string | undefined => {
    const host = hostRefusal(req);
    if (host !== undefined) return host;
    const site = single(req.headers['sec-fetch-site']);
    if (site !== undefined && site !== 'same-origin')
      return `a request from another site (${site}) is refused`;
    const origin = originRefusal(req);
    if (origin !== undefined) return origin;
    if (!holdsToken(req))
      return "the playground's token is missing or wrong: open the address printed where the playground was started";
    if (!SAFE_METHODS.has(req.method ?? '') && mediaType(req) !== 'application/json')
      return 'the body must be application/json';
    return undefined;
  };

  return {
    token,
    get cookieName() {
      return cookieName;
    },
    bind(baseUrl) {
      hosts = loopbackHosts(baseUrl);
      cookieName = `vidops_playground_${new URL(baseUrl).port}`;
    },
    hostRefusal,
    uiRefusal,
    holdsToken,
    cookie: () => `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`,
  };
}
