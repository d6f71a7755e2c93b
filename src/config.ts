import { isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';
import { ConfigError } from './core/errors.js';
import { DEFAULT_TIME_ZONE, isTimeZone, LOCALES, type Locale } from './i18n/locale.js';

const optionalText = z
  .string()
  .transform((s) => s.trim())
  .optional()
  .transform((s) => (s === '' || s === undefined ? undefined : s));

const SLACK_PRINCIPAL = /^[UWS][A-Z0-9]{2,}$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

function idList(what: string) {
  return z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== ''),
    )
    .superRefine((ids, ctx) => {
      for (const id of ids) {
        if (!SLACK_PRINCIPAL.test(id)) {
          ctx.addIssue({
            code: 'custom',
            message: `"${id}" is not a Slack user ID (U…/W…) or user-group ID (S…) in ${what}`,
          });
        }
      }
    });
}

/**
 * `AUDIT_LOG_NAME`: the deployment's name in its checkpoints' origin, `vidops/<name>`. Stricter
 * than the signed-note format needs (no space, no `+`): the origin is also shown in Slack and
 * in file names, where plain letters, digits, `.`, `_` and `-` need no escaping.
 * @see docs/audit-checkpoints.md, "Keys"
 */
const LOG_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const DEFAULT_AUDIT_LOG_NAME = 'vidops';
/** A checkpoint after every 1000 events or 60 minutes, whichever comes first. */
export const DEFAULT_CHECKPOINT_EVERY = '1000,60m';

/** When the bot signs a checkpoint: after this many events, or this long, whichever comes first. */
export interface CheckpointEvery {
  /** Null: not by count. */
  events: number | null;
  /** Null: not by time. */
  ms: number | null;
}

const EVERY_MAX_EVENTS = 10_000_000;
const EVERY_MAX_MINUTES = 7 * 24 * 60;

/**
 * Reads `AUDIT_CHECKPOINT_EVERY`: a number of events (`1000`), a time in minutes or hours
 * (`60m`, `2h`), or both separated by a comma (`1000,60m`). Returns what is wrong as a sentence.
 */
export function parseCheckpointEvery(text: string): CheckpointEvery | string {
  const every: CheckpointEvery = { events: null, ms: null };
  const parts = text.split(',').map((p) => p.trim().toLowerCase());
  const wrong = `must be a number of events (1000), minutes or hours (60m, 2h), or both (1000,60m), not "${text}"`;
  if (parts.length > 2) return wrong;
  for (const part of parts) {
    const m = /^(\d{1,9})(m|h)?$/.exec(part);
    if (m === null) return wrong;
    const n = Number(m[1]);
    if (m[2] === undefined) {
      if (every.events !== null || n < 1 || n > EVERY_MAX_EVENTS) return wrong;
      every.events = n;
    } else {
      const minutes = m[2] === 'h' ? n * 60 : n;
      if (every.ms !== null || minutes < 1 || minutes > EVERY_MAX_MINUTES) return wrong;
      every.ms = minutes * 60_000;
    }
  }
  return every;
}

/** `DEFAULT_LOCALE`, `CHANNEL_LOCALE`: `en` or `fa`; English when unset. */
const localeField = optionalText.pipe(
  z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(LOCALES, { message: `must be one of ${LOCALES.join(', ')}` }))
    .default('en'),
);

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

/** One schema per variable, shared by the bot (`loadConfig`) and the CLI (`loadCliConfig`). */
export const FIELDS = {
  // Trimmed: a secret mounted from a file often ends in a newline, which no HTTP header may carry.
  SLACK_BOT_TOKEN: z
    .string({ message: 'is required' })
    .trim()
    .regex(/^xoxb-/, 'must be a bot token (xoxb-…)'),
  SLACK_APP_TOKEN: optionalText.pipe(
    z
      .string()
      .regex(/^xapp-/, 'must be an app-level token (xapp-…)')
      .optional(),
  ),
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_API_URL: optionalText.pipe(httpUrl.optional()),
  // Blank is unset (3000); only digits, so `0x10` or `1e3` is not read as a port.
  PORT: optionalText
    .pipe(
      z
        .string()
        .regex(/^\d{1,5}$/, 'must be a port number (0 to 65535)')
        .optional(),
    )
    .transform((s) => (s === undefined ? 3000 : Number(s)))
    .pipe(z.number().max(65535, 'must be a port number (0 to 65535)')),
  VIDEO_API_URL: z.string({ message: 'is required' }).pipe(httpUrl),
  VIDEO_API_KEY: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  VIDEO_SECRET_KEY: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  // At most ten minutes: past 2^31 - 1 ms Node's timers fire at once, and every call would time out.
  VIDEO_API_TIMEOUT_MS: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int()
    .positive()
    .max(600_000, 'must be at most 600000 (ten minutes)')
    .default(10_000),
  RETRY_CONVERSION_METHOD: z.enum(['auto', 'POST', 'PATCH']).default('auto'),
  AUDIT_CHANNEL: z.string({ message: 'is required' }).regex(CHANNEL_ID, 'must be a channel ID (C…/G…)'),
  APPROVAL_CHANNEL: optionalText.pipe(
    z.string().regex(CHANNEL_ID, 'must be a channel ID (C…/G…)').optional(),
  ),
  LEADS: z
    .string({ message: 'is required' })
    .pipe(idList('LEADS'))
    .refine((ids) => ids.length > 0, 'needs at least one lead'),
  AGENTS: optionalText.pipe(idList('AGENTS').optional()),
  DATABASE_URL: z
    .string()
    .default('sqlite:data/vidops.db')
    .refine(
      (s) => /^sqlite:/.test(s) || /^postgres(ql)?:\/\//.test(s),
      'must start with sqlite: or postgres://',
    ),
  PHONE_REGION: z
    .string()
    .default('IR')
    .transform((s) => s.trim().toUpperCase())
    .refine((s) => isSupportedCountry(s), 'must be a two-letter region code that libphonenumber knows'),
  PHONE_REGIONS: optionalText.pipe(
    z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((x) => x.trim().toUpperCase())
          .filter((x) => x !== ''),
      )
      .superRefine((codes, ctx) => {
        for (const code of codes) {
          if (!isSupportedCountry(code)) {
            ctx.addIssue({
              code: 'custom',
              message: `"${code}" is not a two-letter region code that libphonenumber knows`,
            });
          }
        }
      })
      .optional(),
  ),
  POLICY_FILE: optionalText,
  AUDIT_HMAC_KEY: optionalText,
  AUDIT_SIGNING_KEY_FILE: optionalText,
  AUDIT_CHECKPOINT_STATE_FILE: optionalText,
  AUDIT_LOG_NAME: optionalText.pipe(
    z
      .string()
      .regex(
        LOG_NAME_PATTERN,
        'must be letters, digits, ".", "_" or "-" (no spaces, no "+"), at most 64 characters',
      )
      .default(DEFAULT_AUDIT_LOG_NAME),
  ),
  AUDIT_CHECKPOINT_EVERY: optionalText.pipe(
    z
      .string()
      .default(DEFAULT_CHECKPOINT_EVERY)
      .transform((text, ctx) => {
        const every = parseCheckpointEvery(text);
        if (typeof every === 'string') {
          ctx.addIssue({ code: 'custom', message: every });
          return z.NEVER;
        }
        return every;
      }),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEFAULT_LOCALE: localeField,
  CHANNEL_LOCALE: localeField,
  DISPLAY_TIME_ZONE: optionalText.pipe(
    z
      .string()
      .default(DEFAULT_TIME_ZONE)
      .refine(isTimeZone, 'must be an IANA time zone such as Asia/Tehran or UTC'),
  ),
};

const EnvSchema = z.object(FIELDS);

/**
 * The example values `.env.example` ships with. Left in place they would only fail later and
 * obscurely (`fetch failed`, `invalid_auth`, a channel that does not exist), so they are refused
 * at start with the variable named. The sandbox's demo keys are real values for the local
 * sandbox: refused only when `VIDEO_API_URL` points elsewhere.
 */
export const EXAMPLE_VALUES: Readonly<Record<string, readonly string[]>> = {
  SLACK_BOT_TOKEN: ['xoxb-your-bot-token'],
  SLACK_APP_TOKEN: ['xapp-your-app-token'],
  SLACK_SIGNING_SECRET: ['your-signing-secret'],
  AUDIT_CHANNEL: ['C0123AUDIT'],
  APPROVAL_CHANNEL: ['C0123APPROVALS'],
  LEADS: ['U0123LEAD', 'S0123LEADS'],
  AGENTS: ['U0123AGENT', 'S0123AGENTS'],
};

/** The sandbox's demo keys, as `.env.example` and the sandbox ship them. */
export const SANDBOX_DEMO_KEYS: Readonly<Record<string, string>> = {
  VIDEO_API_KEY: 'demo-api-key',
  VIDEO_SECRET_KEY: 'demo-secret-key',
};

function isLoopback(url: string | undefined): boolean {
  if (url === undefined) return false;
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/**
 * Problems with values still as `.env.example` has them, for the variables in `names`. The
 * values themselves are example text, so naming them is no leak; secrets are never repeated.
 */
export function examplePlaceholders(
  env: Record<string, string | undefined>,
  names: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const name of names) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    const examples = EXAMPLE_VALUES[name];
    if (examples !== undefined) {
      const items = raw.split(',').map((x) => x.trim());
      const left = items.filter((x) => examples.includes(x));
      if (left.length > 0) {
        problems.push(
          `${name} still holds the example value from .env.example (${left.join(', ')}); put in your own`,
        );
      }
    }
    const demo = SANDBOX_DEMO_KEYS[name];
    if (demo !== undefined && raw === demo && !isLoopback(env.VIDEO_API_URL)) {
      problems.push(
        `${name} still holds the sandbox's demo key from .env.example, but VIDEO_API_URL is not the local sandbox; put in the service's key`,
      );
    }
  }
  return problems;
}

export type Env = z.infer<typeof EnvSchema>;

/** `PHONE_REGION` first, then those of `PHONE_REGIONS` not already listed. */
function phoneRegions(home: string, listed: readonly string[] | undefined): string[] {
  return [...new Set([home, ...(listed ?? [])])];
}

function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`);
}

/** Runtime configuration, derived from the environment once at start. */
export interface Config {
  slack: {
    botToken: string;
    appToken: string | undefined;
    signingSecret: string | undefined;
    apiUrl: string | undefined;
    socketMode: boolean;
  };
  port: number;
  video: {
    url: string;
    apiKey: string;
    secretKey: string;
    timeoutMs: number;
    retryConversionMethod: 'auto' | 'POST' | 'PATCH';
  };
  auditChannel: string;
  approvalChannel: string;
  leads: string[];
  /** Undefined means everyone in the workspace may use the bot. */
  agents: string[] | undefined;
  databaseUrl: string;
  phoneRegion: string;
  /** Regions whose mobiles are accepted: `PHONE_REGION` first, then the others of `PHONE_REGIONS`. */
  phoneRegions: string[];
  policyFile: string | undefined;
  auditHmacKey: string | undefined;
  /** The private key that signs audit checkpoints; none are signed when unset. */
  auditSigningKeyFile: string | undefined;
  /** Where the key remembers its last checkpoint; beside the key (`<key>.last`) when unset. */
  auditCheckpointStateFile: string | undefined;
  /** `AUDIT_LOG_NAME`: the checkpoints' origin is `vidops/<name>`. */
  auditLogName: string;
  auditCheckpointEvery: CheckpointEvery;
  logLevel: Env['LOG_LEVEL'];
  /** Who reads which language: `DEFAULT_LOCALE`, `CHANNEL_LOCALE`, `DISPLAY_TIME_ZONE`. */
  languages: {
    defaultLocale: Locale;
    channelLocale: Locale;
    timeZone: string;
  };
}

/**
 * Parses the environment. Throws one ConfigError that lists every problem with its variable name,
 * so an operator fixes them all in one go.
 */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * In production (NODE_ENV=production), an `http:` URL to another host for a variable whose calls
 * carry a secret (the API keys, the bot token): anyone on the path would read it. This host's own
 * services (loopback) may use http.
 */
function plainHttpProblems(env: Record<string, string | undefined>, names: readonly string[]): string[] {
  if (env.NODE_ENV?.trim() !== 'production') return [];
  return names.flatMap((name) => {
    const value = env[name]?.trim() ?? '';
    if (!URL.canParse(value)) return [];
    const url = new URL(value);
    return url.protocol === 'http:' && !LOOPBACK.test(url.hostname)
      ? [`${name} must be an https URL in production: over http its secrets would cross the network in clear`]
      : [];
  });
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : problemsOf(parsed.error)),
    ...examplePlaceholders(env, Object.keys(FIELDS)),
  ];
  // Checked apart from the schema so that it is reported together with every other problem.
  if (!env.SLACK_APP_TOKEN?.trim() && !env.SLACK_SIGNING_SECRET?.trim()) {
    problems.push('SLACK_SIGNING_SECRET is required in HTTP mode (when SLACK_APP_TOKEN is not set)');
  }
  problems.push(...plainHttpProblems(env, ['VIDEO_API_URL', 'SLACK_API_URL']));
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  return {
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      appToken: e.SLACK_APP_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      apiUrl: e.SLACK_API_URL,
      socketMode: e.SLACK_APP_TOKEN !== undefined,
    },
    port: e.PORT,
    video: videoConfig(e),
    auditChannel: e.AUDIT_CHANNEL,
    approvalChannel: e.APPROVAL_CHANNEL ?? e.AUDIT_CHANNEL,
    leads: e.LEADS,
    agents: e.AGENTS,
    databaseUrl: e.DATABASE_URL,
    phoneRegion: e.PHONE_REGION,
    phoneRegions: phoneRegions(e.PHONE_REGION, e.PHONE_REGIONS),
    policyFile: e.POLICY_FILE,
    auditHmacKey: e.AUDIT_HMAC_KEY,
    auditSigningKeyFile: e.AUDIT_SIGNING_KEY_FILE,
    auditCheckpointStateFile: e.AUDIT_CHECKPOINT_STATE_FILE,
    auditLogName: e.AUDIT_LOG_NAME,
    auditCheckpointEvery: e.AUDIT_CHECKPOINT_EVERY,
    logLevel: e.LOG_LEVEL,
    languages: {
      defaultLocale: e.DEFAULT_LOCALE,
      channelLocale: e.CHANNEL_LOCALE,
      timeZone: e.DISPLAY_TIME_ZONE,
    },
  };
}

/**
 * What the CLI's audit and request-listing commands need: the store, and the policy when `LEADS`
 * happens to be set (to say which requests await the caller).
 */
export interface CliStoreConfig
  extends Pick<
      Config,
      'databaseUrl' | 'auditHmacKey' | 'auditSigningKeyFile' | 'auditCheckpointStateFile' | 'auditLogName'
    >,
    Pick<Config, 'agents' | 'policyFile'> {
  /** Undefined when `LEADS` is not set. */
  leads: string[] | undefined;
  /** `DISPLAY_TIME_ZONE`: the dates the CLI prints in Persian are in this zone. */
  timeZone: string;
}

/** What the CLI's change and read commands need: no Slack variables. */
export interface CliConfig extends CliStoreConfig, Pick<Config, 'video' | 'phoneRegion' | 'phoneRegions'> {
  leads: string[];
}

/** What every CLI command reads; the audit and request-listing commands read only this. */
const CLI_STORE_FIELDS = {
  DATABASE_URL: FIELDS.DATABASE_URL,
  AUDIT_HMAC_KEY: FIELDS.AUDIT_HMAC_KEY,
  AUDIT_SIGNING_KEY_FILE: FIELDS.AUDIT_SIGNING_KEY_FILE,
  AUDIT_CHECKPOINT_STATE_FILE: FIELDS.AUDIT_CHECKPOINT_STATE_FILE,
  AUDIT_LOG_NAME: FIELDS.AUDIT_LOG_NAME,
  AGENTS: FIELDS.AGENTS,
  POLICY_FILE: FIELDS.POLICY_FILE,
  DISPLAY_TIME_ZONE: FIELDS.DISPLAY_TIME_ZONE,
};

const CliStoreEnvSchema = z.object({
  ...CLI_STORE_FIELDS,
  LEADS: optionalText.pipe(FIELDS.LEADS.optional()),
});

const CliEnvSchema = z.object({
  ...CLI_STORE_FIELDS,
  LEADS: FIELDS.LEADS,
  VIDEO_API_URL: FIELDS.VIDEO_API_URL,
  VIDEO_API_KEY: FIELDS.VIDEO_API_KEY,
  VIDEO_SECRET_KEY: FIELDS.VIDEO_SECRET_KEY,
  VIDEO_API_TIMEOUT_MS: FIELDS.VIDEO_API_TIMEOUT_MS,
  RETRY_CONVERSION_METHOD: FIELDS.RETRY_CONVERSION_METHOD,
  PHONE_REGION: FIELDS.PHONE_REGION,
  PHONE_REGIONS: FIELDS.PHONE_REGIONS,
});

/** The environment parsed against `schema`, or one ConfigError listing every problem. */
function parseEnv<S extends z.ZodObject>(schema: S, env: Record<string, string | undefined>): z.output<S> {
  const parsed = schema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : problemsOf(parsed.error)),
    ...examplePlaceholders(env, Object.keys(schema.shape)),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  return parsed.data;
}

/** The video protection API's settings, read alike by the app and the CLI. */
function videoConfig(e: z.output<typeof CliEnvSchema>): Config['video'] {
  return {
    url: e.VIDEO_API_URL,
    apiKey: e.VIDEO_API_KEY,
    secretKey: e.VIDEO_SECRET_KEY,
    timeoutMs: e.VIDEO_API_TIMEOUT_MS,
    retryConversionMethod: e.RETRY_CONVERSION_METHOD,
  };
}

/** The part of the CLI's configuration every command has. */
function cliStoreConfig(e: z.output<typeof CliStoreEnvSchema>): CliStoreConfig {
  return {
    databaseUrl: e.DATABASE_URL,
    auditHmacKey: e.AUDIT_HMAC_KEY,
    auditSigningKeyFile: e.AUDIT_SIGNING_KEY_FILE,
    auditCheckpointStateFile: e.AUDIT_CHECKPOINT_STATE_FILE,
    auditLogName: e.AUDIT_LOG_NAME,
    leads: e.LEADS,
    agents: e.AGENTS,
    policyFile: e.POLICY_FILE,
    timeZone: e.DISPLAY_TIME_ZONE,
  };
}

/**
 * The subset of the environment the `vidops` CLI reads, with the same rules as `loadConfig`:
 * `store` for the audit and request-listing commands, `full` (default) for everything else.
 * Throws one ConfigError listing every problem.
 * @see docs/architecture.md, "Runtime contract"
 */
export function loadCliConfig(env: Record<string, string | undefined>, scope: 'store'): CliStoreConfig;
export function loadCliConfig(env: Record<string, string | undefined>, scope?: 'full'): CliConfig;
export function loadCliConfig(
  env: Record<string, string | undefined>,
  scope: 'store' | 'full' = 'full',
): CliStoreConfig | CliConfig {
  if (scope === 'store') return cliStoreConfig(parseEnv(CliStoreEnvSchema, env));
  const e = parseEnv(CliEnvSchema, env);
  const clear = plainHttpProblems(env, ['VIDEO_API_URL']);
  if (clear.length > 0) throw new ConfigError(clear);
  return {
    ...cliStoreConfig(e),
    leads: e.LEADS,
    video: videoConfig(e),
    phoneRegion: e.PHONE_REGION,
    phoneRegions: phoneRegions(e.PHONE_REGION, e.PHONE_REGIONS),
  };
}
