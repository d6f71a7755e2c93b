import { performance } from 'node:perf_hooks';
import type { RespondArguments, SlashCommand } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { type Caller, callerOf } from '../core/actor.js';
import type { Command } from '../core/grammar.js';
import { redactError } from '../core/mask.js';
import type { Policy } from '../core/policy.js';
import type { Said } from '../core/said.js';
import type { Lang, Languages } from '../i18n/lang.js';
import { english } from '../i18n/said.js';
import { settledWithin } from '../jobs/timeout.js';
import type { Drafts } from '../services/drafts.js';
import type { Reads } from '../services/reads.js';
import type { Operations } from '../services/types.js';
import type { SlackDirectory } from '../slack/directory.js';
import type { VidopsMetrics } from '../slack/metrics.js';
import type { Respond } from '../slack/response-url.js';
import { describeError, type ErrorViewOptions } from '../views/errors.js';
import { assertBlockKitLimits, type BlockKitPayload, type BlockKitSurface } from '../views/limits.js';

/**
 * What the Slack code needs to tell people things (messages, Home tabs), built by the composition
 * root before the operations: the notifier, which the operations call, is built from it, so here
 * `ops` is the services' reads only. Neither context holds the video client or the store:
 * handlers reach both through the services.
 * @see docs/architecture.md, "Composition root"
 */
export interface SlackContext {
  config: Config;
  ops: Reads;
  policy: Policy;
  directory: SlackDirectory;
  /** Web API client for calls made while a person waits (short retries, 429 handed back). */
  web: WebClient;
  logger: Logger;
  clock: () => Date;
  /** Who reads which language (a person's choice, their Slack locale, `DEFAULT_LOCALE`). */
  languages: Languages;
  /**
   * When true, a message or view breaking a Block Kit limit throws before it is sent (tests);
   * when false the problem is logged as a warning and the payload sent anyway (production).
   */
  strictBlockKit: boolean;
}

/**
 * Everything a Slack handler may use, built once by the composition root (`src/app.ts`).
 * Handlers get it as an argument: no module singletons, so tests build their own.
 * @see docs/architecture.md, "Architecture" (commands/ are thin adapters)
 */
export interface AppContext extends SlackContext {
  ops: Operations;
  /** The change modals' drafts (what a modal was opened for, kept on the server). */
  drafts: Drafts;
  metrics: VidopsMetrics;
  /** Where the work after an acknowledgement runs: bounded, so a burst cannot exhaust memory. */
  work: WorkQueue;
  /** A `respond` for a `response_url` (slash commands answer through it; ../slack/response-url.ts). */
  respondTo: (responseUrl: string) => Respond;
  /** The person behind each request in hand, by the request's body: the gate and the handler share one. */
  people: WeakMap<object, Person>;
}

/**
 * One `/vidops` subcommand, run after the request was acknowledged and the text parsed.
 * `client` is Bolt's client for this request; `actor` is who typed it (Slack user ID, display
 * name, user groups) and `lang` the language they read, both worked out once by the router.
 * @see docs/architecture.md, "Slash command grammar" and "Each request's context once"
 */
export type SlashHandler = (args: {
  command: Command;
  /** Soft problems the parser noticed (e.g. an ID that is not 24 hex digits). */
  warnings: Said[];
  body: SlashCommand;
  respond: Respond;
  client: WebClient;
  actor: Caller;
  lang: Lang;
  ctx: AppContext;
}) => Promise<void>;

/**
 * Checks a payload against Slack's Block Kit limits before it is sent: throws in strict mode,
 * otherwise logs a warning and lets it through (Slack may still take it; a lost answer is worse).
 * @see docs/slack.md, "Block Kit limits"
 */
export function checkBlockKit(
  ctx: Pick<SlackContext, 'strictBlockKit' | 'logger'>,
  payload: BlockKitPayload,
  surface: BlockKitSurface,
): void {
  try {
    assertBlockKitLimits(payload, surface);
  } catch (error) {
    if (ctx.strictBlockKit) throw error;
    ctx.logger.warn(
      { problems: error instanceof Error ? error.message : String(error), surface },
      'a Slack payload breaks Block Kit limits',
    );
  }
}

/** What the views need to keep secrets out of messages, say how long the service was given, and in which language. */
export function errorViewOptions(ctx: Pick<SlackContext, 'config'>, lang?: Lang): ErrorViewOptions {
  return {
    ...(lang === undefined ? {} : { lang }),
    timeoutMs: ctx.config.video.timeoutMs,
    secrets: [
      ctx.config.video.apiKey,
      ctx.config.video.secretKey,
      ctx.config.slack.botToken,
      ...(ctx.config.slack.signingSecret ? [ctx.config.slack.signingSecret] : []),
      ...(ctx.config.slack.appToken ? [ctx.config.slack.appToken] : []),
    ],
  };
}

/** The words a person reads for an error (in `lang`, English when not given); unexpected ones are logged as well. */
export function problemText(
  ctx: Pick<SlackContext, 'config' | 'logger'>,
  error: unknown,
  what: string,
  lang?: Lang,
): string {
  const view = describeError(error, errorViewOptions(ctx, lang));
  if (!view.expected) ctx.logger.error({ err: error }, `${what} failed`);
  return view.text;
}

/** The parser's warnings, then those the services added that the parser had not already said. */
export function mergeWarnings(parsed: readonly Said[], prepared: readonly Said[]): Said[] {
  const said = new Set(parsed.map(english));
  return [...parsed, ...prepared.filter((w) => !said.has(english(w)))];
}

/** A message for `respond()` (ephemeral unless said otherwise), limit-checked. */
export async function respondChecked(
  ctx: Pick<SlackContext, 'strictBlockKit' | 'logger'>,
  respond: Respond,
  message: RespondArguments & { text: string },
): Promise<void> {
  checkBlockKit(ctx, message, 'message');
  await respond({ response_type: 'ephemeral', ...message });
}

/**
 * Who acts in one request, worked out once where it comes in and handed down: the person as the
 * services know them, with the watched user groups they belong to (a `Caller`, whose groups the
 * services use instead of asking Slack again), and the language they read.
 * @see docs/architecture.md, "Each request's context once"
 */
export interface Who {
  actor: Caller;
  lang: Lang;
}

/**
 * The person behind one request, each part looked up at most once, when first asked: the gate
 * may need their groups before the acknowledgement, a form its language, the work after it all.
 */
export interface Person {
  readonly id: string;
  groups(): Promise<readonly string[]>;
  lang(): Promise<Lang>;
  who(): Promise<Who>;
}

/** The person behind `request` (its body, as Bolt hands it to the gate and to the handler): one per request. */
export function personOf(
  ctx: Pick<AppContext, 'directory' | 'languages' | 'people'>,
  request: object,
  user: { id: string; name?: string | undefined },
): Person {
  const known = ctx.people.get(request);
  if (known !== undefined && known.id === user.id) return known;
  const person = lookUpPerson(ctx, user.id, user.name);
  ctx.people.set(request, person);
  return person;
}

/**
 * A person looked up for one piece of work of its own (a Home tab built for them): ID, display
 * name (`fallbackName`, e.g. the command's `user_name`, when Slack cannot say), user groups and
 * language, each asked of Slack and the store once.
 */
export function lookUpPerson(
  ctx: Pick<SlackContext, 'directory' | 'languages'>,
  id: string,
  fallbackName?: string,
): Person {
  let groups: Promise<readonly string[]> | undefined;
  let lang: Promise<Lang> | undefined;
  let who: Promise<Who> | undefined;
  const person: Person = {
    id,
    groups() {
      groups ??= ctx.directory.groupsOf(id);
      return groups;
    },
    lang() {
      lang ??= ctx.languages.of(id);
      return lang;
    },
    who() {
      who ??= Promise.all([ctx.directory.nameOf(id, fallbackName), person.groups(), person.lang()]).then(
        ([name, found, read]) => ({ actor: callerOf({ id, name }, found), lang: read }),
      );
      return who;
    },
  };
  return person;
}

/**
 * The work that follows an acknowledgement (upstream calls, store, Slack answers), run with bounded
 * concurrency. Holding only a closure per queued command, not the HTTP request, keeps a burst
 * cheap; past `maxQueued` the router answers "busy" in the ack itself instead of queueing more.
 * @see docs/slack.md, "Deadlines" (ack within 3 s, answer through response_url later)
 */
export interface WorkQueue {
  /** True when a new command should be turned away rather than queued. */
  isFull(): boolean;
  /** Records a command turned away because the queue was full (metrics, a throttled warning). */
  turnedAway(label: string): void;
  /** Queues `job`; it starts as soon as fewer than `concurrency` jobs run. Failures are logged. */
  push(label: string, job: () => Promise<void>): void;
  /** Jobs running and waiting. */
  size(): { running: number; queued: number };
  /** Stops taking jobs and waits (at most `timeoutMs`) for those queued and running; false on timeout. */
  drain(timeoutMs: number): Promise<boolean>;
}

export interface WorkQueueOptions {
  concurrency: number;
  maxQueued: number;
  logger: Pick<Logger, 'error' | 'warn'>;
  /** Called when a job fails (metrics); the error is logged, redacted, either way. */
  onFailure?: (label: string) => void;
  /** Called for each command turned away (metrics). */
  onTurnedAway?: (label: string) => void;
}

/** At most one "turned away" warning per this many milliseconds: a flood must not flood the log. */
const TURNED_AWAY_LOG_MS = 10_000;

/** A FIFO queue with at most `concurrency` jobs in flight. */
export function createWorkQueue(options: WorkQueueOptions): WorkQueue {
  const waiting: { label: string; job: () => Promise<void> }[] = [];
  let running = 0;
  let closed = false;
  const idle: (() => void)[] = [];
  let turnedAway = 0;
  let lastWarning = Number.NEGATIVE_INFINITY;

  const settleIdle = () => {
    if (running === 0 && waiting.length === 0) for (const resolve of idle.splice(0)) resolve();
  };

  const start = (label: string, job: () => Promise<void>) => {
    running += 1;
    // A job never throws into the queue: its failure is the person's message and a log line.
    void job()
      .catch((error: unknown) => {
        options.onFailure?.(label);
        options.logger.error({ err: redactError(error), job: label }, 'work after an acknowledgement failed');
      })
      .finally(() => {
        running -= 1;
        const next = waiting.shift();
        if (next) start(next.label, next.job);
        else settleIdle();
      });
  };

  return {
    isFull: () => closed || waiting.length >= options.maxQueued,
    turnedAway(label) {
      turnedAway += 1;
      options.onTurnedAway?.(label);
      const now = performance.now();
      if (now - lastWarning >= TURNED_AWAY_LOG_MS) {
        lastWarning = now;
        options.logger.warn(
          { turnedAway, running, queued: waiting.length },
          'busy: commands turned away since start (queue full)',
        );
      }
    },
    push(label, job) {
      if (closed) {
        options.logger.warn({ job: label }, 'work arrived while stopping; not run');
        return;
      }
      if (running < options.concurrency) start(label, job);
      else waiting.push({ label, job });
    },
    size: () => ({ running, queued: waiting.length }),
    async drain(timeoutMs) {
      closed = true;
      if (running === 0 && waiting.length === 0) return true;
      const done = new Promise<void>((resolve) => idle.push(() => resolve()));
      return (await settledWithin(done, timeoutMs)).kind === 'ok';
    },
  };
}
