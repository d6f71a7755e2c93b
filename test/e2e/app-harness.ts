import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVidops, type Vidops, type VidopsDeps } from '../../src/app.js';
import { RAPID_RETRY, type RetryPolicy } from '../../src/client/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import type { AuditEvent } from '../../src/core/model.js';
import {
  type BlockActionOptions,
  blockAction,
  type DeliveryKind,
  type Emulator,
  type EmulatorUser,
  type PostSignedOptions,
  type PostSignedResult,
  postSigned,
  type ResponsePost,
  type SlackRequest,
  slashCommand,
  startEmulator,
  type ViewSubmissionOptions,
  viewSubmission,
} from '../../src/emulator/index.js';
import { DEMO, type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import type { Store } from '../../src/store/store.js';

/**
 * End-to-end harness: the sandbox, the Slack emulator and the real vidops (`createVidops`,
 * 127.0.0.1, a temp SQLite file), driven by real-shaped Slack requests: signed and posted over
 * HTTP (HTTP mode, the default), or delivered by the emulator over a Socket Mode connection
 * that vidops opened itself (`mode: 'socket'`).
 * @see docs/architecture.md, "Sandbox" and "Emulator and playground"; docs/slack.md, "Request signing"
 */

/** The people of the test workspace. `agent2` and `lead2` are such through user groups. */
export const USERS = {
  agent: { id: 'U0AGENT1', name: 'ana' },
  agent2: { id: 'U0AGENT2', name: 'ben' },
  lead: { id: 'U0LEAD1', name: 'lena' },
  lead2: { id: 'U0LEAD2', name: 'leo' },
  outsider: { id: 'U0OUTSIDE', name: 'otto' },
} as const satisfies Record<string, EmulatorUser>;

export const GROUPS = { leads: 'S0LEADS', agents: 'S0AGENTS' } as const;
export const CHANNELS = { audit: 'C0AUDIT', approvals: 'C0APPROVALS', support: 'C0VIDOPS' } as const;
export const SIGNING_SECRET = 'e2e-signing-secret-3f9a1c7b2d';

export interface HarnessOptions {
  /** How Slack reaches vidops: signed HTTP posts (default) or Socket Mode. */
  mode?: 'http' | 'socket';
  /** Variables added to (or replacing) the harness's environment; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** Contents of a POLICY_FILE (YAML or JSON) written to the temp directory. */
  policy?: string;
  sandbox?: SandboxOptions;
  /** Upstream retries; RAPID_RETRY by default so failures surface fast. */
  clientRetryPolicy?: RetryPolicy;
  /** Audit publisher pacing; brisk by default. */
  publisher?: VidopsDeps['publisher'];
  /** Throw on a Block Kit limit (default true). */
  strictBlockKit?: boolean;
  /** Bounds of the work after the ack (vidops' defaults when absent). */
  work?: { concurrency?: number; maxQueued?: number };
  /** How often vidops sweeps by itself (its default when absent); long, so that only a test's own sweeps act. */
  sweepIntervalMs?: number;
  /** Least time between two edits of batch messages (vidops' default when absent). */
  batchProgressMs?: number;
}

/** The harness's clock: real time plus an offset that tests move forward. */
export interface HarnessClock {
  now(): Date;
  advance(ms: number): void;
}

export interface SlashResult {
  /** The HTTP answer to the slash command (the ack). */
  status: number;
  text: string;
  /** Milliseconds from sending the request to receiving the ack. */
  ackMs: number;
  responseUrl: string;
  /** The first post to this command's response URL. */
  reply(timeoutMs?: number): Promise<ResponsePost>;
  /** Every post to this command's response URL so far. */
  replies(): ResponsePost[];
}

export interface Harness {
  mode: 'http' | 'socket';
  /** `http://127.0.0.1:PORT` of vidops (in Socket Mode, its probes server). */
  url: string;
  eventsUrl: string;
  slack: Emulator;
  sandbox: Sandbox;
  vidops: Vidops;
  store: Store;
  config: Config;
  clock: HarnessClock;
  /** Every log line vidops wrote, as JSON text. */
  logs: string[];
  /** `/vidops <text>` typed by a user (the agent by default). */
  slash(
    text: string,
    options?: { userId?: string; userName?: string; channelId?: string },
  ): Promise<SlashResult>;
  /** A click in a message or a view. */
  action(options: BlockActionOptions): Promise<PostSignedResult>;
  /** Submit on a modal. */
  submit(options: ViewSubmissionOptions): Promise<PostSignedResult>;
  /**
   * Any Slack request: signed now (or as `options` say) and posted in HTTP mode; in Socket Mode
   * delivered by the emulator, the answer being the ack's payload (status 200 once acked).
   */
  send(request: SlackRequest | string, options?: PostSignedOptions): Promise<PostSignedResult>;
  /** GET on vidops' own server (`/healthz`, `/metrics`…). */
  get(path: string): Promise<{ status: number; text: string }>;
  /** Polls the audit log until an event matches (bounded). */
  waitForAudit(predicate: (event: AuditEvent) => boolean, timeoutMs?: number): Promise<AuditEvent>;
  stop(): Promise<void>;
}

/** Puts the test workspace's people and user groups into the emulator (again after `slack.reset()`). */
export function seedWorkspace(slack: Emulator): void {
  slack.setUsers(Object.values(USERS));
  slack.setUsergroup(GROUPS.leads, [USERS.lead2.id]);
  slack.setUsergroup(GROUPS.agents, [USERS.agent2.id]);
}

let tagCounter = 0;

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a request is to Socket Mode, and its payload as an envelope carries it. */
function envelopeOf(request: SlackRequest | string): { kind: DeliveryKind; payload: JsonObject } {
  const body = typeof request === 'string' ? request : request.body;
  if (body.trimStart().startsWith('{')) {
    const parsed: JsonValue = JSON.parse(body);
    return { kind: 'events_api', payload: isObject(parsed) ? parsed : {} };
  }
  const form = new URLSearchParams(body);
  const interactive = form.get('payload');
  if (interactive !== null) {
    const parsed: JsonValue = JSON.parse(interactive);
    return { kind: 'interactive', payload: isObject(parsed) ? parsed : {} };
  }
  return { kind: 'slash_commands', payload: Object.fromEntries(form) };
}

/** Starts sandbox, emulator and vidops; `stop()` tears all three down. */
/**
 * Another replica (or the app restarted) on the harness's database, sandbox, Slack and clock,
 * started: `options` adds to the harness's own settings. Stop it before the harness.
 */
export async function startReplica(
  h: Harness,
  options: Pick<VidopsDeps, 'sweepIntervalMs' | 'batchProgressMs'> = {},
): Promise<{ vidops: Vidops; eventsUrl: string }> {
  const vidops = await createVidops({
    config: h.config,
    clock: h.clock.now,
    logDestination: { write: () => undefined },
    host: '127.0.0.1',
    strictBlockKit: true,
    clientRetryPolicy: RAPID_RETRY,
    publisher: { minIntervalMs: 50, backoffBaseMs: 50, backoffMaxMs: 400, idlePollMs: 100 },
    shutdownTimeoutMs: 3000,
    flushTimeoutMs: 3000,
    ...options,
  });
  const { port } = await vidops.start();
  return { vidops, eventsUrl: `http://127.0.0.1:${port}/slack/events` };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const mode = options.mode ?? 'http';
  const dir = await mkdtemp(join(tmpdir(), 'vidops-e2e-'));
  const sandbox = await startSandbox({ conversionDelayMs: 60_000, ...options.sandbox });
  const slack = await startEmulator({ signingSecret: SIGNING_SECRET });
  seedWorkspace(slack);

  const env: Record<string, string | undefined> = {
    SLACK_BOT_TOKEN: slack.botToken,
    ...(mode === 'socket' ? { SLACK_APP_TOKEN: slack.appToken } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    VIDEO_API_URL: sandbox.url,
    VIDEO_API_KEY: DEMO.apiKey,
    VIDEO_SECRET_KEY: DEMO.secretKey,
    VIDEO_API_TIMEOUT_MS: '2000',
    AUDIT_CHANNEL: CHANNELS.audit,
    APPROVAL_CHANNEL: CHANNELS.approvals,
    LEADS: `${USERS.lead.id},${GROUPS.leads}`,
    AGENTS: `${USERS.agent.id},${GROUPS.agents}`,
    DATABASE_URL: `sqlite:${join(dir, 'vidops.db')}`,
    PHONE_REGION: 'IR',
    LOG_LEVEL: 'debug',
  };
  if (options.policy !== undefined) {
    const file = join(dir, 'policy.yml');
    await writeFile(file, options.policy, 'utf8');
    env.POLICY_FILE = file;
  }
  Object.assign(env, options.env);
  const config = loadConfig(env);

  let offset = 0;
  const clock: HarnessClock = {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
  const logs: string[] = [];
  let vidops: Vidops;
  let port: number;
  try {
    vidops = await createVidops({
      config,
      clock: clock.now,
      logDestination: { write: (line: string) => logs.push(line) },
      host: '127.0.0.1',
      strictBlockKit: options.strictBlockKit ?? true,
      clientRetryPolicy: options.clientRetryPolicy ?? RAPID_RETRY,
      publisher: options.publisher ?? {
        minIntervalMs: 50,
        backoffBaseMs: 50,
        backoffMaxMs: 400,
        idlePollMs: 100,
        // A burst of changes settles in 20 ms rather than 200: every told change waited it out.
        settleMs: 20,
      },
      shutdownTimeoutMs: 3000,
      flushTimeoutMs: 3000,
      ...(options.work?.concurrency === undefined ? {} : { workConcurrency: options.work.concurrency }),
      ...(options.work?.maxQueued === undefined ? {} : { workMaxQueued: options.work.maxQueued }),
      ...(options.sweepIntervalMs === undefined ? {} : { sweepIntervalMs: options.sweepIntervalMs }),
      ...(options.batchProgressMs === undefined ? {} : { batchProgressMs: options.batchProgressMs }),
    });
    ({ port } = await vidops.start());
  } catch (error) {
    await Promise.allSettled([sandbox.close(), slack.close()]);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  const eventsUrl = `${url}/slack/events`;
  if (mode === 'http') slack.setRequestUrl(eventsUrl);
  // Signed with the harness clock, so a moved clock still passes the five-minute window.
  const signedAt = () => Math.floor(clock.now().getTime() / 1000);
  const send = async (
    request: SlackRequest | string,
    sendOptions: PostSignedOptions = {},
  ): Promise<PostSignedResult> => {
    if (mode === 'http') {
      return postSigned(eventsUrl, request, SIGNING_SECRET, { timestamp: signedAt(), ...sendOptions });
    }
    if (Object.keys(sendOptions).length > 0) {
      throw new Error('signatures, timestamps and headers are HTTP mode things: Socket Mode has none');
    }
    const { kind, payload } = envelopeOf(request);
    const delivery = await slack.deliver(kind, { body: '', contentType: 'application/json', payload });
    if (!delivery.ok) return { status: 0, text: `${delivery.error}: ${delivery.detail}`, json: undefined };
    return { status: 200, text: JSON.stringify(delivery.payload ?? {}), json: delivery.payload };
  };

  let stopped = false;
  return {
    mode,
    url,
    eventsUrl,
    slack,
    sandbox,
    vidops,
    store: vidops.store,
    config,
    clock,
    logs,
    async slash(text, slashOptions = {}) {
      tagCounter += 1;
      const tag = `slash-${tagCounter}`;
      const responseUrl = slack.responseUrl(tag);
      const userId = slashOptions.userId ?? USERS.agent.id;
      const request = slashCommand({
        text,
        userId,
        responseUrl,
        ...(slashOptions.userName === undefined ? {} : { userName: slashOptions.userName }),
        ...(slashOptions.channelId === undefined ? {} : { channelId: slashOptions.channelId }),
      });
      const started = performance.now();
      const answer = await send(request);
      const ackMs = performance.now() - started;
      return {
        status: answer.status,
        text: answer.text,
        ackMs,
        responseUrl,
        reply: (timeoutMs = 8000) => slack.waitForResponse((post) => post.tag === tag, timeoutMs),
        replies: () => slack.responsePosts.filter((post) => post.tag === tag),
      };
    },
    action: (actionOptions) => send(blockAction(actionOptions)),
    submit: (submitOptions) => send(viewSubmission(submitOptions)),
    send,
    async get(path) {
      const response = await fetch(`${url}${path}`);
      return { status: response.status, text: await response.text() };
    },
    async waitForAudit(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await vidops.store.listAudit({ last: 200 })).find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching audit event within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await vidops.stop();
      await Promise.allSettled([sandbox.close(), slack.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
