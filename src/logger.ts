import pino from 'pino';
import { maskMobilesInText } from './core/mask.js';

const CENSOR = '[redacted]';

/**
 * Keys whose values are censored at any depth, compared without case: the Slack and service
 * credentials under every name they travel by (config fields, env names, HTTP headers).
 * @see docs/architecture.md, "Who uses it" (Operator: secrets never logged)
 */
const SECRET_KEY_NAMES = new Set(
  [
    'token',
    'botToken',
    'appToken',
    'signingSecret',
    'apiKey',
    'secretKey',
    'api_key',
    'secret_key',
    'authorization',
    'cookie',
    'password',
    'auditHmacKey',
    'SLACK_BOT_TOKEN',
    'SLACK_APP_TOKEN',
    'SLACK_SIGNING_SECRET',
    'VIDEO_API_KEY',
    'VIDEO_SECRET_KEY',
    'AUDIT_HMAC_KEY',
  ].map((key) => key.toLowerCase()),
);

/** What {@link createLogger} needs; `destination` is a stream for tests, stdout otherwise. */
export interface LoggerOptions {
  level: pino.LevelWithSilent;
  destination?: pino.DestinationStream | undefined;
}

/** What JSON writes through its own `toJSON` (Date, Buffer, URL): logged as it is. */
function writesItself(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/**
 * A copy of a log record that is safe to write: mobile numbers masked in every string and values
 * of secret-named keys censored, however deep. Plain objects, arrays and other class instances
 * are copied as the plain objects JSON would write of them, errors with their class kept (so pino
 * still serialises them as errors); what writes itself (`toJSON`: Date, Buffer, URL) is left
 * alone. The input is never changed. This is the only censoring: pino's path redaction, which
 * copied each record again, is not used.
 * @see docs/architecture.md, "Audit log" (numbers masked in Slack posts and logs)
 */
export function scrubForLog<T>(value: T): T {
  // Strings stay strings and objects keep their keys: the copy has the shape of the input.
  return scrub(value, new WeakMap()) as T;
}

/**
 * Plain objects {@link scrubForLog} made (with everything in them): pino hands the object of a
 * line, which `logMethod` scrubbed already, to `formatters.log`; it is not copied twice.
 */
const SCRUBBED = new WeakSet<object>();

function scrubOnce<T extends object>(value: T): T {
  return SCRUBBED.has(value) ? value : scrubForLog(value);
}

function scrub(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return maskMobilesInText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (value instanceof Error) return scrubError(value, seen);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(scrub(item, seen));
    return out;
  }
  if (SCRUBBED.has(value) || writesItself(value)) return value;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  SCRUBBED.add(out);
  for (const [key, item] of entriesOf(value)) {
    out[key] = SECRET_KEY_NAMES.has(key.toLowerCase()) && item != null ? CENSOR : scrub(item, seen);
  }
  return out;
}

/** The members JSON would write; an object whose getter throws is logged as unreadable, not thrown. */
function entriesOf(value: object): [string, unknown][] {
  try {
    return Object.entries(value);
  } catch {
    return [['unreadable', true]];
  }
}

function scrubError(error: Error, seen: WeakMap<object, unknown>): Error {
  const copy: Error = Object.create(Object.getPrototypeOf(error));
  seen.set(error, copy);
  for (const key of Object.getOwnPropertyNames(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    if (descriptor === undefined) continue;
    if ('value' in descriptor) {
      descriptor.value =
        SECRET_KEY_NAMES.has(key.toLowerCase()) && descriptor.value != null
          ? CENSOR
          : scrub(descriptor.value, seen);
    }
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}

/**
 * The process logger: JSON lines; secrets censored as `[redacted]`; mobile numbers masked in the
 * message, in format arguments, in child bindings and in every string field, however deep.
 * @see docs/architecture.md, "Audit log" and "Runtime contract" (`LOG_LEVEL`)
 */
export function createLogger(options: LoggerOptions): pino.Logger {
  const pinoOptions: pino.LoggerOptions = {
    level: options.level,
    formatters: {
      log: (object) => scrubOnce(object),
      bindings: (bindings) => scrubOnce(bindings),
    },
    hooks: {
      // The message and format arguments never pass through `formatters.log`.
      logMethod(args, method) {
        return method.apply(this, scrubForLog(args));
      },
    },
  };
  const logger =
    options.destination === undefined ? pino(pinoOptions) : pino(pinoOptions, options.destination);
  // pino skips `formatters.bindings` for children; children inherit this method from the root.
  const pinoChild = logger.child;
  logger.child = function child<L extends string = never>(
    this: pino.Logger,
    bindings: pino.Bindings,
    childOptions?: pino.ChildLoggerOptions<L>,
  ): pino.Logger<L> {
    return pinoChild.call<pino.Logger, [pino.Bindings, pino.ChildLoggerOptions<L>?], pino.Logger<L>>(
      this,
      scrubForLog(bindings),
      childOptions,
    );
  };
  return logger;
}
