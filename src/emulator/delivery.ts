import type { JsonObject, JsonValue } from '../core/json.js';
import { type SlackRequest, sign } from './payloads.js';

/**
 * Slack's side of HTTP mode: one signed POST to the app's request URL, given up at the ack
 * deadline (3 seconds), with `X-Slack-Retry-Num` and `X-Slack-Retry-Reason` on a retry.
 * @see docs/slack.md, "Request signing" and "Deadlines"
 */

/** What one HTTP attempt came to. */
export type HttpAttempt =
  | { answered: true; status: number; text: string; payload: JsonObject | undefined; ms: number }
  | { answered: false; reason: 'http_timeout' | 'connection_failed'; ms: number };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The ack's body as Slack reads it: a JSON object (a `response_action`, a slash command's
 * reply), plain text (a slash command's reply), or nothing.
 */
export function ackPayload(contentType: string, text: string): JsonObject | undefined {
  if (text.trim() === '') return undefined;
  if (contentType.includes('json')) {
    try {
      const parsed: JsonValue = JSON.parse(text);
      return isObject(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return { text };
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
