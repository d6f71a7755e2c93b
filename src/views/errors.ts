import {
  ApiError,
  MAX_ANSWER_MIB,
  NetworkError,
  NotSupportedError,
  RateLimitError,
  ValidationError,
  WhitelistConflictError,
  WhitelistMismatchError,
} from '../client/errors.js';
import { InputError, PolicyDeniedError, StateConflictError, VidopsError } from '../core/errors.js';
import { maskMobilesInText, redactTokens } from '../core/mask.js';
import type { RecordedError } from '../core/model.js';
import { truncate } from './limits.js';

/**
 * The one place where an error becomes what a person reads in Slack: thrown errors (typed client
 * errors, domain errors) and errors recorded on a failed request alike. Messages say what
 * happened, whether anything changed and who can act; they never carry keys, tokens or whole
 * mobile numbers.
 * @see docs/architecture.md, "Client of the video protection API" and "Validation"
 */

export interface ErrorViewOptions {
  /** `VIDEO_API_TIMEOUT_MS`, to say how long the service was given. */
  timeoutMs: number;
  /** Values that must never be shown (API keys, tokens); replaced wherever they appear. */
  secrets?: readonly string[];
}

/** What the person reads, and whether the error was one we expect (else it is also logged). */
export interface ErrorView {
  text: string;
  expected: boolean;
}

const MAX_SAID = 300;

/** Free text from elsewhere (the service's answer, an error message) made fit to show. */
export function scrubForSlack(text: string, secrets: readonly string[] = []): string {
  let out = redactTokens(text);
  for (const secret of secrets) {
    // Short values would blank out ordinary words; real keys are long.
    if (secret.length >= 6) out = out.split(secret).join('[redacted]');
  }
  return maskMobilesInText(out);
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
}

/** The service's own words from an ApiError message (`… answered 400 to POST /v1/x (op): said`). */
function serviceSaid(message: string): string {
  const match = /\(([a-z.]+)\): (.+)$/s.exec(message);
  return match?.[2]?.trim() ?? '';
}

const MAYBE_APPLIED =
  'If this was a change, it may or may not have been applied: check before trying again (unblocks, deletes and settings are safe to repeat).';

/** Socket errors raised before any byte reached the service. */
const NEVER_CONNECTED: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** By class name, so errors recorded on a request (name, message, status) read the same as thrown ones. */
function byName(
  error: { name: string; message: string; status?: number | null | undefined },
  options: ErrorViewOptions,
): ErrorView | null {
  const status = error.status ?? null;
  const said = truncate(scrubForSlack(serviceSaid(error.message), options.secrets), MAX_SAID);
  const saidPart = said === '' ? '' : `: “${said}”`;
  switch (error.name) {
    case 'TimeoutError':
      return {
        // A request that timed out may still have been applied by the service: never claim otherwise.
        text: `The video service did not answer within ${seconds(options.timeoutMs)}. ${MAYBE_APPLIED}`,
        expected: true,
      };
    case 'ResponseTooLargeError':
      return {
        // Cut off after the request was sent: as after a timeout, nobody knows if it was applied.
        text: `The video service's answer was larger than ${MAX_ANSWER_MIB} MiB; it was not read. ${MAYBE_APPLIED}`,
        expected: true,
      };
    case 'NetworkError':
      return {
        text: `The connection to the video service failed. ${MAYBE_APPLIED} If it keeps failing, tell an operator.`,
        expected: true,
      };
    case 'AuthError':
      return {
        text: `The video service refused the keys (${status ?? 401}); nothing was changed. Tell an operator: VIDEO_API_KEY or VIDEO_SECRET_KEY needs fixing.`,
        expected: true,
      };
    case 'ServerError':
      return {
        text: `The video service failed (${status ?? 500}) and did not confirm the change. Try again in a minute.`,
        expected: true,
      };
    case 'RateLimitError':
      return {
        text: 'The video service says too many requests (429); nothing was changed. Wait a minute and try again.',
        expected: true,
      };
    case 'NotSupportedError': {
      // An operation that is an extra names what the service lacks: "creating playlists".
      const what = /^This service does not support ([^(]+?)\s*(\(|$)/.exec(error.message)?.[1];
      return {
        text:
          what === undefined
            ? 'That is not supported by this service.'
            : `This service does not support ${what}; nothing was changed.`,
        expected: true,
      };
    }
    case 'NotFoundError':
      return {
        text: `The video service does not know that ID (${status ?? 404})${saidPart}.`,
        expected: true,
      };
    case 'ValidationError':
      return {
        text: `The video service refused the request (${status ?? 400})${saidPart}. Nothing was changed.`,
        expected: true,
      };
    case 'WhitelistConflictError':
      return {
        text: 'The whitelist changed since this request was made, so nothing was posted. Look at the whitelist again and ask anew.',
        expected: true,
      };
    case 'WhitelistMismatchError':
      return {
        text: 'The video service did not end up with the intended whitelist (it may append instead of replace). Look at the whitelist now and tell an operator.',
        expected: true,
      };
    case 'ApiError':
      return {
        text: `The video service answered ${status ?? 'unexpectedly'}${saidPart}; the change was not confirmed.`,
        expected: true,
      };
    default:
      return null;
  }
}

/**
 * What the person reads for a thrown error. Domain errors (bad input, policy, state) show their
 * own message, written for people; client errors are mapped by class; anything else is a fault
 * of ours: a plain apology, and `expected: false` so the caller logs it.
 */
export function describeError(error: unknown, options: ErrorViewOptions): ErrorView {
  if (error instanceof InputError) {
    const issues = error.issues.filter((issue) => !error.message.includes(issue));
    const text =
      issues.length === 0 ? error.message : `${error.message}\n${issues.map((i) => `• ${i}`).join('\n')}`;
    return { text: scrubForSlack(text, options.secrets), expected: true };
  }
  if (error instanceof PolicyDeniedError || error instanceof StateConflictError) {
    return { text: scrubForSlack(error.message, options.secrets), expected: true };
  }
  if (error instanceof RateLimitError && error.retryAfterSeconds !== null) {
    return {
      text: `The video service says too many requests (429); nothing was changed. Try again in ${error.retryAfterSeconds} s.`,
      expected: true,
    };
  }
  if (error instanceof NetworkError && error.code !== null) {
    // Only a connection that was never made proves the service saw nothing.
    const neverConnected = NEVER_CONNECTED.has(error.code);
    return {
      text: neverConnected
        ? `The video service could not be reached (${error.code}); nothing was changed. Try again in a minute; if it keeps failing, tell an operator.`
        : `The connection to the video service failed (${error.code}). ${MAYBE_APPLIED} If it keeps failing, tell an operator.`,
      expected: true,
    };
  }
  if (error instanceof ValidationError && error.issues.length > 0) {
    const issues = error.issues.map((i) => truncate(scrubForSlack(i, options.secrets), MAX_SAID));
    return {
      text: `The video service refused the request (${error.status ?? 400}): ${issues.join('; ')}. Nothing was changed.`,
      expected: true,
    };
  }
  if (
    error instanceof ApiError ||
    error instanceof NotSupportedError ||
    error instanceof WhitelistConflictError ||
    error instanceof WhitelistMismatchError
  ) {
    const view = byName({ name: error.name, message: error.message, status: error.status }, options);
    if (view) return view;
  }
  if (error instanceof VidopsError) {
    return { text: scrubForSlack(error.message, options.secrets), expected: false };
  }
  return {
    text: 'Something went wrong inside vidops; the error was logged. Check the result before trying again.',
    expected: false,
  };
}

/** What the person reads for the error recorded on a failed request. */
export function describeRecordedError(error: RecordedError, options: ErrorViewOptions): string {
  const view = byName(error, options);
  if (view) return view.text;
  if (error.name === 'InputError' || error.name === 'PolicyDeniedError') {
    return scrubForSlack(error.message, options.secrets);
  }
  const status = error.status === undefined ? '' : ` (${error.status})`;
  return `It failed${status}: ${truncate(scrubForSlack(error.message, options.secrets), MAX_SAID)}`;
}
