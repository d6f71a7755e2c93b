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
import { neutraliseBidi, stripBidiControls } from '../core/bidi.js';
import { InputError, PolicyDeniedError, StateConflictError, VidopsError } from '../core/errors.js';
import { maskMobilesInText, redactTokens } from '../core/mask.js';
import type { RecordedError } from '../core/model.js';
import type { Said } from '../core/said.js';
import { ENGLISH, type Lang, num } from '../i18n/index.js';
import { saidFromJson, sayWith } from '../i18n/said.js';
import { isolated, safeWorded } from './blocks.js';
import { truncate } from './limits.js';

/**
 * The one place where an error becomes what a person reads in Slack: thrown errors (typed client
 * errors, domain errors) and errors recorded on a failed request alike. Messages say what
 * happened, whether anything changed and who can act; they never carry keys, tokens or whole
 * mobile numbers. They are said in the reader's language (`lang`, English when not given); an
 * error made from a sentence (`said`) is worded in that language, any other shows its message.
 * @see docs/architecture.md, "Client of the video protection API" and "Validation"
 * @see docs/architecture.md, "Languages"
 */

export interface ErrorViewOptions {
  /** `VIDEO_API_TIMEOUT_MS`, to say how long the service was given. */
  timeoutMs: number;
  /** Values that must never be shown (API keys, tokens); replaced wherever they appear. */
  secrets?: readonly string[];
  /** The reader's language; English when not given. */
  lang?: Lang;
}

/**
 * A sentence of the core (`say.…`) in the reader's language. Its parameters are what people typed
 * or the service sent: they lose their bidi controls before they are worded (the sentence keeps
 * its own isolates).
 */
export function sayIn(lang: Lang, said: Said): string {
  return sayWith(lang.t.errors, withoutBidi(said));
}

type Param = Said['params'][number];

function paramWithoutBidi(param: Param): Param {
  if (typeof param === 'string') return stripBidiControls(param);
  if (Array.isArray(param)) return param.map((p: Param) => paramWithoutBidi(p)) as Param;
  if (typeof param === 'object' && param !== null && 'key' in param && 'params' in param) {
    return withoutBidi(param);
  }
  return param;
}

function withoutBidi(said: Said): Said {
  return { key: said.key, params: said.params.map((p: Param) => paramWithoutBidi(p)) } as Said;
}

/**
 * A service's refusal in the reader's language: its sentence when it has one, else its English
 * words (which carry what was typed: their bidi controls are dropped).
 */
export function reasonIn(lang: Lang, refusal: { reason: string; said?: Said | undefined }): string {
  return refusal.said === undefined ? stripBidiControls(refusal.reason) : sayIn(lang, refusal.said);
}

/**
 * A recorded error that is vidops' own sentence (`said`), in the reader's language; null for any
 * other error, and for a sentence this build does not know (the English `message` is then shown).
 */
export function recordedWords(error: RecordedError, lang: Lang): string | null {
  const said = error.said === undefined ? null : saidFromJson(error.said);
  return said === null ? null : sayIn(lang, said);
}

/**
 * A recorded error as a sentence of a message: vidops' own sentence in the reader's language, else
 * `Name (status): message`, outside text, isolated and cut at `max`.
 */
export function shownError(lang: Lang, error: RecordedError, max: number): string {
  const words = recordedWords(error, lang);
  if (words !== null) return safeWorded(words, max);
  const status = error.status === undefined ? '' : ` (${error.status})`;
  return isolated(lang, `${error.name}${status}: ${error.message}`, max);
}

/** The words of an error made from a sentence, else its English message (without bidi controls). */
export function wordsOf(error: VidopsError, lang: Lang): string {
  return error.said === null ? stripBidiControls(error.message) : sayIn(lang, error.said);
}

/** What the person reads, and whether the error was one we expect (else it is also logged). */
export interface ErrorView {
  text: string;
  expected: boolean;
}

const MAX_SAID = 300;

/**
 * Free text from elsewhere (the service's answer, an error message) made fit to show: bidi
 * controls dropped, tokens and secrets redacted, mobile numbers masked.
 */
export function scrubForSlack(text: string, secrets: readonly string[] = []): string {
  return scrubWorded(stripBidiControls(text), secrets);
}

/** A sentence vidops worded, outside words in it: the same, but its own isolates kept (paired). */
function scrubWorded(text: string, secrets: readonly string[] = []): string {
  let out = redactTokens(neutraliseBidi(text));
  for (const secret of secrets) {
    // Short values would blank out ordinary words; real keys are long.
    if (secret.length >= 6) out = out.split(secret).join('[redacted]');
  }
  return maskMobilesInText(out);
}

function seconds(lang: Lang, ms: number): string {
  const s = ms / 1000;
  return lang.t.errors.errSeconds(num(lang, Number.isInteger(s) ? String(s) : s.toFixed(1)));
}

/** The service's own words from an ApiError message (`… answered 400 to POST /v1/x (op): said`). */
function serviceSaid(message: string): string {
  const match = /\(([a-z.]+)\): (.+)$/s.exec(message);
  return match?.[2]?.trim() ?? '';
}

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
  const lang = options.lang ?? ENGLISH;
  const t = lang.t.errors;
  const status = error.status ?? null;
  const code = (fallback: number) => num(lang, status ?? fallback);
  const said = truncate(scrubForSlack(serviceSaid(error.message), options.secrets), MAX_SAID);
  const expected = (text: string): ErrorView => ({ text, expected: true });
  switch (error.name) {
    case 'TimeoutError':
      // A request that timed out may still have been applied by the service: never claim otherwise.
      return expected(t.errTimeout(seconds(lang, options.timeoutMs)));
    case 'ResponseTooLargeError':
      // Cut off after the request was sent: as after a timeout, nobody knows if it was applied.
      return expected(t.errTooLarge(num(lang, MAX_ANSWER_MIB)));
    case 'NetworkError':
      return expected(t.errNetwork());
    case 'AuthError':
      return expected(t.errAuth(code(401)));
    case 'ServerError':
      return expected(t.errServer(code(500)));
    case 'RateLimitError':
      return expected(t.errRateLimited());
    case 'NotSupportedError': {
      // An operation that is an extra names what the service lacks: "creating playlists".
      const what = /^This service does not support ([^(]+?)\s*(\(|$)/.exec(error.message)?.[1];
      return expected(what === undefined ? t.errNotSupported() : t.errNotSupportedWhat(what));
    }
    case 'NotFoundError':
      return expected(t.errNotFound(code(404), said));
    case 'ValidationError':
      return expected(t.errRefused(code(400), said));
    case 'WhitelistConflictError':
      return expected(t.errWhitelistConflict());
    case 'WhitelistMismatchError':
      return expected(t.errWhitelistMismatch());
    case 'ApiError':
      return expected(t.errAnswered(status === null ? null : num(lang, status), said));
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
  const lang = options.lang ?? ENGLISH;
  const t = lang.t.errors;
  if (error instanceof InputError) {
    // Issues are English lines; a sentence worded in another language says them already.
    const issuesApart = error.said === null || lang.locale === 'en';
    const said = wordsOf(error, lang);
    const issues = issuesApart ? error.issues.filter((issue) => !said.includes(issue)) : [];
    const lines = issues.map((i) => `• ${stripBidiControls(i)}`);
    const text = issues.length === 0 ? said : `${said}\n${lines.join('\n')}`;
    return { text: scrubWorded(text, options.secrets), expected: true };
  }
  if (error instanceof PolicyDeniedError || error instanceof StateConflictError) {
    return { text: scrubWorded(wordsOf(error, lang), options.secrets), expected: true };
  }
  if (error instanceof RateLimitError && error.retryAfterSeconds !== null) {
    const wait = t.errSeconds(num(lang, error.retryAfterSeconds));
    return { text: t.errRateLimitedFor(wait), expected: true };
  }
  if (error instanceof NetworkError && error.code !== null) {
    // Only a connection that was never made proves the service saw nothing.
    const neverConnected = NEVER_CONNECTED.has(error.code);
    return {
      text: neverConnected ? t.errUnreachable(error.code) : t.errConnectionFailed(error.code),
      expected: true,
    };
  }
  if (error instanceof ValidationError && error.issues.length > 0) {
    const issues = error.issues.map((i) => truncate(scrubForSlack(i, options.secrets), MAX_SAID));
    return { text: t.errRefusedIssues(num(lang, error.status ?? 400), issues.join('; ')), expected: true };
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
    return { text: scrubWorded(wordsOf(error, lang), options.secrets), expected: false };
  }
  return { text: t.errOurs(), expected: false };
}

/** What the person reads for the error recorded on a failed request. */
export function describeRecordedError(error: RecordedError, options: ErrorViewOptions): string {
  // vidops' own sentence (a change not sent, and why): in the reader's language, as it is.
  const words = recordedWords(error, options.lang ?? ENGLISH);
  if (words !== null) return words;
  const view = byName(error, options);
  if (view) return view.text;
  if (error.name === 'InputError' || error.name === 'PolicyDeniedError') {
    return scrubForSlack(error.message, options.secrets);
  }
  const lang = options.lang ?? ENGLISH;
  const status = error.status === undefined || error.status === null ? null : num(lang, error.status);
  return lang.t.errors.errItFailed(status, truncate(scrubForSlack(error.message, options.secrets), MAX_SAID));
}
