import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pino from 'pino';
import type { Logger } from 'pino';
import { createVidops, type Vidops } from '../app.js';
import { type Config, FIELDS, loadConfig } from '../config.js';
import { COMMAND_HELP } from '../core/commands-help.js';
import { ConfigError } from '../core/errors.js';
import { redactError } from '../core/mask.js';
import {
  type Emulator,
  type EmulatorChannel,
  type EmulatorUser,
  type EmulatorUsergroup,
  type PlaygroundPage,
  playgroundRoutes,
  startEmulator,
} from '../emulator/index.js';
import { createLogger } from '../logger.js';
import { DEMO } from '../sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../sandbox/server.js';
import { SHORTCUT_LIST } from '../views/modals/shortcuts.js';
import { PLAYGROUND_VARIABLE, playgroundRefusal, shownUrl } from './mode.js';

/**
 * The playground: the sandbox (unless `VIDEO_API_URL` names a service), the Slack emulator with
 * its page, and the real vidops (`createVidops`, Bolt's Socket Mode receiver) connected to the
 * emulator, in one process. The Slack credentials are random per start, the data lives in a
 * temporary SQLite file removed at stop, and the people are personas the playground's LEADS and
 * AGENTS name, so one person can play a whole approval. The page acts as anyone, so it answers
 * only on loopback, only to the page opened from the address printed with its per-start token
 * (src/emulator/page-guard.ts), and only where `playgroundRefusal` allows it (not in production,
 * not on a real service, unless VIDOPS_PLAYGROUND=1), and then says so loudly.
 * @see docs/architecture.md, "Emulator and playground"
 */

/** The people of the playground workspace; the second agent and lead are such through groups. */
export const PLAYGROUND_PEOPLE = {
  agent: { id: 'U0SARA', name: 'sara', real_name: 'Sara Ahmadi', role: 'agent' },
  agent2: { id: 'U0REZA', name: 'reza', real_name: 'Reza Karimi', role: 'agent (support-agents group)' },
  lead: { id: 'U0LEILA', name: 'leila', real_name: 'Leila Moradi', role: 'lead' },
  lead2: { id: 'U0OMID', name: 'omid', real_name: 'Omid Rahimi', role: 'lead (support-leads group)' },
  outsider: { id: 'U0NIMA', name: 'nima', real_name: 'Nima Jafari', role: 'not an agent' },
} as const satisfies Record<string, EmulatorUser>;

export const PLAYGROUND_GROUPS = {
  leads: { id: 'S0LEADS', handle: 'support-leads', members: [PLAYGROUND_PEOPLE.lead2.id] },
  agents: { id: 'S0AGENTS', handle: 'support-agents', members: [PLAYGROUND_PEOPLE.agent2.id] },
} as const satisfies Record<string, EmulatorUsergroup>;

export const PLAYGROUND_CHANNELS = {
  support: { id: 'C0SUPPORT', name: 'support', purpose: 'Where agents work: type /vidops here' },
  approvals: {
    id: 'C0APPROVALS',
    name: 'vidops-approvals',
    purpose: 'Requests wait here for a lead (APPROVAL_CHANNEL)',
  },
  audit: {
    id: 'C0AUDIT',
    name: 'vidops-audit',
    purpose: 'Every audit event with its short hash (AUDIT_CHANNEL)',
  },
} as const satisfies Record<string, EmulatorChannel>;

/** Variables the playground takes from the environment; the Slack and storage ones are its own. */
const PASSED_THROUGH = [
  'VIDEO_API_URL',
  'VIDEO_API_KEY',
  'VIDEO_SECRET_KEY',
  'VIDEO_API_TIMEOUT_MS',
  'RETRY_CONVERSION_METHOD',
  'PHONE_REGION',
  'PHONE_REGIONS',
  'LOG_LEVEL',
] as const;

export interface PlaygroundOptions {
  /**
   * The environment (`.env` read already); Slack variables, DATABASE_URL and POLICY_FILE are ignored.
   * NODE_ENV=production or a VIDEO_API_URL is refused unless VIDOPS_PLAYGROUND=1.
   */
  env: Record<string, string | undefined>;
  /** Where the page is served; `PORT` (3000) by default, 0 for a free one. */
  port?: number;
  /** 127.0.0.1 by default, and loopback only (127.0.0.1, ::1, localhost): the page lets whoever opens it act as anyone. */
  host?: string;
  logger?: Logger;
  logDestination?: pino.DestinationStream;
}

export interface Playground {
  /** The server: `http://127.0.0.1:3000/` (the page there needs the token). */
  url: string;
  /** The address to open, the one printed: `http://127.0.0.1:3000/?token=…`. */
  openUrl: string;
  /** The per-start secret the page must hold (32 random bytes, base64url). */
  token: string;
  /** The cookie the page keeps the token in. */
  cookieName: string;
  /** The real service it acts on (VIDOPS_PLAYGROUND=1 with VIDEO_API_URL); undefined with its own sandbox. */
  realService: string | undefined;
  emulator: Emulator;
  /** The sandbox started for it; undefined when VIDEO_API_URL names a service. */
  sandbox: Sandbox | undefined;
  vidops: Vidops;
  config: Config;
  /** Where the video API is, in words (shown on the page and in the log). */
  videoApi: string;
  logger: Logger;
  stop(): Promise<void>;
}

function portOf(env: Record<string, string | undefined>, given: number | undefined): number {
  if (given !== undefined) return given;
  const raw = env.PORT?.trim();
  if (raw === undefined || raw === '') return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError([`PORT must be a port number (got "${raw}")`]);
  }
  return port;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** The loopback address to listen on; anything else is refused (the page acts as anyone). */
function hostOf(given: string | undefined): string {
  const host = given ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    throw new ConfigError([
      `the playground listens on loopback only (127.0.0.1, ::1 or localhost), not on ${host}`,
    ]);
  }
  return host;
}

/** Says loudly, in the log, what the playground acts on when it is not the usual local one. */
function warnAboutPurpose(
  logger: Logger,
  env: Record<string, string | undefined>,
  realService: string | undefined,
) {
  if (realService !== undefined) {
    logger.warn(
      { videoApi: realService, [PLAYGROUND_VARIABLE]: '1' },
      `vidops playground acts on the real video service at ${realService} (${PLAYGROUND_VARIABLE}=1): every change approved on its page is made there, and its page acts as anyone, leads included`,
    );
  }
  if (env.NODE_ENV?.trim() === 'production') {
    logger.warn(
      { [PLAYGROUND_VARIABLE]: '1' },
      `vidops playground runs with NODE_ENV=production because ${PLAYGROUND_VARIABLE}=1 asked for it; this is not the real app`,
    );
  }
}

/** The logger given, or one at LOG_LEVEL (checked either way). */
function loggerOf(options: PlaygroundOptions): Logger {
  const level = FIELDS.LOG_LEVEL.safeParse(options.env.LOG_LEVEL?.trim() || undefined);
  if (!level.success)
    throw new ConfigError(['LOG_LEVEL must be fatal, error, warn, info, debug, trace or silent']);
  if (options.logger !== undefined) return options.logger;
  const destination = options.logDestination;
  return createLogger({ level: level.data, ...(destination === undefined ? {} : { destination }) });
}

/** Undoes what was started, the last first; a failed undo is logged and the rest still run. */
async function cleanUp(cleanups: (() => Promise<void>)[], logger: Logger): Promise<void> {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      logger.warn({ err: redactError(error) }, 'playground: could not clean up');
    }
  }
}

/** The emulator with the playground page on it, its people, groups and channels. */
async function startPage(settings: {
  host: string;
  port: number;
  videoApi: string;
  realService: string | undefined;
  logger: Logger;
}): Promise<{ emulator: Emulator; page: PlaygroundPage }> {
  const { realService, logger } = settings;
  const people = Object.values(PLAYGROUND_PEOPLE);
  const page = playgroundRoutes({
    personas: people.map((p) => ({ id: p.id, label: `${p.real_name} · ${p.role}` })),
    commands: COMMAND_HELP.map((c) => ({ usage: c.usage, summary: c.summary })),
    defaultChannel: PLAYGROUND_CHANNELS.support.id,
    videoApi: settings.videoApi,
    ...(realService === undefined ? {} : { realService }),
    shortcuts: SHORTCUT_LIST,
  });
  const emulator = await startEmulator({
    host: settings.host,
    port: settings.port,
    users: people,
    usergroups: Object.values(PLAYGROUND_GROUPS),
    channels: Object.values(PLAYGROUND_CHANNELS),
    extraRoutes: page.routes,
    refuse: page.refuse,
    onNote: (note) => logger.warn({ component: 'emulator' }, note),
  });
  page.attach(emulator);
  return { emulator, page };
}

/** vidops' configuration: the emulator's Slack, the sandbox (or the service given), a temporary database. */
function playgroundConfig(
  env: Record<string, string | undefined>,
  emulator: Emulator,
  sandbox: Sandbox | undefined,
  dir: string,
): Config {
  const passed: Record<string, string | undefined> = {};
  for (const name of PASSED_THROUGH) passed[name] = env[name];
  return loadConfig({
    ...passed,
    SLACK_BOT_TOKEN: emulator.botToken,
    SLACK_APP_TOKEN: emulator.appToken,
    SLACK_API_URL: emulator.apiUrl,
    // vidops' own probes (/healthz, /metrics) go on a free port: the page has PORT.
    PORT: '0',
    ...(sandbox === undefined
      ? {}
      : { VIDEO_API_URL: sandbox.url, VIDEO_API_KEY: DEMO.apiKey, VIDEO_SECRET_KEY: DEMO.secretKey }),
    AUDIT_CHANNEL: PLAYGROUND_CHANNELS.audit.id,
    APPROVAL_CHANNEL: PLAYGROUND_CHANNELS.approvals.id,
    LEADS: `${PLAYGROUND_PEOPLE.lead.id},${PLAYGROUND_GROUPS.leads.id}`,
    AGENTS: `${PLAYGROUND_PEOPLE.agent.id},${PLAYGROUND_GROUPS.agents.id}`,
    DATABASE_URL: `sqlite:${join(dir, 'playground.db')}`,
  });
}

function videoApiOf(realService: string | undefined): string {
  return realService === undefined
    ? 'The video API is the local sandbox with demo data.'
    : `The video API is the REAL service at ${realService} (VIDEO_API_URL, ${PLAYGROUND_VARIABLE}=1): approved changes are made there.`;
}

/** Starts the sandbox (when needed), the emulator and vidops; `stop()` ends all three. */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const { env } = options;
  const refused = playgroundRefusal(env);
  if (refused !== undefined) throw new ConfigError(refused);
  const port = portOf(env, options.port);
  const host = hostOf(options.host);
  const logger = loggerOf(options);
  const given = env.VIDEO_API_URL?.trim() || undefined;
  const realService = given === undefined ? undefined : shownUrl(given);
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const sandbox = given ? undefined : await startSandbox();
    if (sandbox !== undefined) cleanups.push(() => sandbox.close());
    const videoApi = videoApiOf(realService);
    warnAboutPurpose(logger, env, realService);
    const { emulator, page } = await startPage({ host, port, videoApi, realService, logger });
    cleanups.push(() => emulator.close());
    const dir = await mkdtemp(join(tmpdir(), 'vidops-playground-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const config = playgroundConfig(env, emulator, sandbox, dir);
    const vidops = await createVidops({ config, logger, host: '127.0.0.1' });
    const { port: probes } = await vidops.start();
    cleanups.push(() => vidops.stop());
    const url = `${emulator.url}/`;
    // The token stays out of the log: only the person at the terminal is given it.
    logger.info(
      { url, probes, mode: 'socket', database: 'temporary sqlite' },
      `vidops playground: a local Slack emulator, not Slack, at ${url}; open the address printed with its token`,
    );
    let stopping: Promise<void> | null = null;
    return {
      url,
      openUrl: `${url}?token=${page.token}`,
      token: page.token,
      cookieName: page.cookieName,
      realService,
      emulator,
      sandbox,
      vidops,
      config,
      videoApi,
      logger,
      stop() {
        stopping ??= cleanUp(cleanups, logger);
        return stopping;
      },
    };
  } catch (error) {
    await cleanUp(cleanups, logger);
    throw error;
  }
}
