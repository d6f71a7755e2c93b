import type { JsonObject, JsonValue } from '../core/json.js';
import type { Delivery, DeliveryKind } from './emulator.js';
import { isObject, parseObject } from './json.js';
import { type SlackRequest, sign } from './payloads.js';
import type { EmulatorState } from './state.js';

/**
 * How Slack delivers what people do to the app: over a Socket Mode connection when one is open,
 * else as one signed POST to the app's request URL, given up at the ack deadline (3 seconds);
 * an Events API delivery that failed is retried (up to 3 times) with `X-Slack-Retry-Num` and
 * `X-Slack-Retry-Reason`.
 * @see docs/slack.md, "Request signing" and "Deadlines"
 */

/** What one HTTP attempt came to. */
export type HttpAttempt =
  | { answered: true; status: number; text: string; payload: JsonObject | undefined; ms: number }
  | { answered: false; reason: 'http_timeout' | 'connection_failed'; ms: number };

/**
 * The ack's body as Slack reads it: a JSON object (a `response_action`, a slash command's
 * reply), plain text (a slash command's reply), or nothing.
 */
export function ackPayload(contentType: string, text: string): JsonObject | undefined {
  if (text.trim() === '') return undefined;
  return contentType.includes('json') ? parseObject(text) : { text };
}

export async function postToApp(
  url: string,
  request: SlackRequest,
  signingSecret: string,
  options: { ackTimeoutMs: number; retryNum?: number; retryReason?: string },
): Promise<HttpAttempt> {
  const headers: Record<string, string> = { ...sign(request, signingSecret) };
  if (options.retryNum !== undefined && options.retryNum > 0) {
    headers['x-slack-retry-num'] = String(options.retryNum);
    headers['x-slack-retry-reason'] = options.retryReason ?? 'http_error';
  }
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: request.body,
      signal: AbortSignal.timeout(options.ackTimeoutMs),
    });
    const text = await response.text();
    const payload = response.ok ? ackPayload(response.headers.get('content-type') ?? '', text) : undefined;
    return { answered: true, status: response.status, text, payload, ms: performance.now() - started };
  } catch (error) {
    // Read by name: the DOMException of an aborted fetch may come from another realm (test runners).
    const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
    const timedOut = name === 'TimeoutError' || name === 'AbortError';
    return {
      answered: false,
      reason: timedOut ? 'http_timeout' : 'connection_failed',
      ms: performance.now() - started,
    };
  }
}

/** One try at delivering a request: the first (retry 0) or a retry, with the reason for it. */
interface Try {
  kind: DeliveryKind;
  request: SlackRequest;
  retry: number;
  reason: string;
}

/** One delivery attempt over an open Socket Mode connection. */
async function attemptOverSocket(
  state: EmulatorState,
  { kind, request, retry, reason }: Try,
): Promise<Delivery> {
  // The builders' payloads are plain JSON; read back as such, the envelope carries them as they are.
  const decoded: JsonValue = JSON.parse(JSON.stringify(request.payload ?? {}));
  const answer = await state.hub.send(kind, isObject(decoded) ? decoded : {}, {
    ackTimeoutMs: state.ackTimeoutMs,
    ...(kind === 'events_api' ? { retryAttempt: retry, retryReason: reason } : {}),
  });
  if (answer.acked) return { ok: true, via: 'socket', payload: answer.payload, ms: answer.ms, attempts: 1 };
  return {
    ok: false,
    via: 'socket',
    error: answer.reason === 'timeout' ? 'operation_timeout' : 'dispatch_failed',
    detail: `no ack over Socket Mode (${answer.reason})`,
    ms: answer.ms,
    attempts: 1,
  };
}

/** One delivery attempt as a signed POST to the request URL. */
async function attemptOverHttp(
  state: EmulatorState,
  url: string,
  { request, retry, reason }: Try,
): Promise<Delivery> {
  const { ackTimeoutMs } = state;
  const http = await postToApp(url, request, state.signingSecret, {
    ackTimeoutMs,
    ...(retry > 0 ? { retryNum: retry, retryReason: reason } : {}),
  });
  if (!http.answered) {
    const timedOut = http.reason === 'http_timeout';
    const detail = timedOut ? `no answer within ${ackTimeoutMs} ms` : 'connection failed';
    const error = timedOut ? 'operation_timeout' : 'dispatch_failed';
    return { ok: false, via: 'http', error, detail, ms: http.ms, attempts: 1 };
  }
  if (http.status !== 200) {
    const detail = `the app answered HTTP ${http.status}`;
    return { ok: false, via: 'http', error: 'dispatch_failed', detail, ms: http.ms, attempts: 1 };
  }
  return { ok: true, via: 'http', payload: http.payload, ms: http.ms, attempts: 1 };
}

/** One delivery attempt over the socket, or over HTTP when no socket is open. */
function attempt(state: EmulatorState, given: Try): Promise<Delivery> {
  if (state.hub.connections > 0) return attemptOverSocket(state, given);
  if (state.requestUrl !== undefined) return attemptOverHttp(state, state.requestUrl, given);
  return Promise.resolve({
    ok: false,
    via: 'none',
    error: 'dispatch_failed',
    detail: 'the app is not connected (no Socket Mode connection, no request URL)',
    ms: 0,
    attempts: 1,
  });
}

/** A pause before a retry; cut short (never resolved) by the emulator's close. */
function pause(state: EmulatorState, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ms <= 0) {
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      state.retryTimers.delete(timer);
      resolve();
    }, ms);
    state.retryTimers.add(timer);
  });
}

/** The `X-Slack-Retry-Reason` of a retry after this failure. */
function retryReason(failed: Delivery & { ok: false }): string {
  if (failed.error !== 'operation_timeout') return 'http_error';
  return failed.via === 'http' ? 'http_timeout' : 'timeout';
}

/** Delivers a request to the app as Slack would; an Events API delivery is retried up to 3 times. */
export async function deliverToApp(
  state: EmulatorState,
  kind: DeliveryKind,
  request: SlackRequest,
): Promise<Delivery> {
  let result = await attempt(state, { kind, request, retry: 0, reason: '' });
  // Commands and interactions fail to the person; only events are retried.
  if (kind !== 'events_api') return result;
  for (let retry = 1; !result.ok && retry <= 3 && !state.closed; retry += 1) {
    state.note(`retrying an event delivery (attempt ${retry + 1}): ${result.detail}`);
    const reason = retryReason(result);
    await pause(state, state.eventRetryDelaysMs[retry - 1] ?? 0);
    if (state.closed) break;
    const next = await attempt(state, { kind, request, retry, reason });
    result = { ...next, attempts: retry + 1 };
  }
  return result;
}
