import http from 'node:http';
import https from 'node:https';
import type { RespondArguments } from '@slack/bolt';
import { RespondError } from './bolt.js';

/**
 * Answers through a request's `response_url` over keep-alive connections. Bolt's own `respond`
 * posts with the global `fetch`, which costs twice what a plain `node:http` POST does (about
 * 0.5 ms of CPU against 0.23 ms per post, measured with a CPU profile of the slack benchmark); every
 * slash command answers this way, so the command router uses this one. Same contract as Bolt's:
 * a string is `{ text }`, the message goes as JSON, any status but 2xx throws a `RespondError`.
 * @see docs/slack.md, "Deadlines"
 */
/** Bolt's `RespondFn` as vidops uses it: what the post answered is never read. */
export type Respond = (message: string | RespondArguments) => Promise<unknown>;

export interface ResponseUrlPoster {
  /** A `respond` bound to one `response_url`. */
  respondTo(responseUrl: string): Respond;
  /** Frees the keep-alive sockets. */
  close(): void;
}

/** How long one post may take before it fails; Slack answers these in well under a second. */
const DEFAULT_TIMEOUT_MS = 10_000;

export function createResponseUrlPoster(options: { timeoutMs?: number } = {}): ResponseUrlPoster {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };

  const post = (responseUrl: string, body: string): Promise<void> =>
    new Promise((resolve, reject) => {
      let url: URL;
      try {
        url = new URL(responseUrl);
      } catch {
        reject(new RespondError('Failed to respond to the response_url: it is not a URL', 0));
        return;
      }
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:') {
        reject(new RespondError(`Failed to respond to the response_url: ${url.protocol} is not HTTP`, 0));
        return;
      }
      const request = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          agent: secure ? agents.https : agents.http,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          // The answer says nothing we use; it is read to the end so the socket can be reused.
          response.resume();
          response.on('error', reject);
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            if (status >= 200 && status < 300) resolve();
            else {
              reject(
                new RespondError(
                  `Failed to respond to the response_url: ${status} ${response.statusMessage ?? ''}`.trimEnd(),
                  status,
                ),
              );
            }
          });
        },
      );
      request.setTimeout(timeoutMs, () =>
        request.destroy(new Error(`response_url did not answer within ${timeoutMs} ms`)),
      );
      request.on('error', reject);
      request.end(body);
    });

  return {
    respondTo(responseUrl) {
      return async (message) => {
        await post(responseUrl, JSON.stringify(typeof message === 'string' ? { text: message } : message));
      };
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
