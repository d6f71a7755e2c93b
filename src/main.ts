import type { Logger } from 'pino';
import { createVidops, type Vidops } from './app.js';
import { type Config, loadConfig } from './config.js';
import { ConfigError } from './core/errors.js';
import { redactError } from './core/mask.js';
import { createLogger } from './logger.js';
import { chooseStart, PLAYGROUND_VARIABLE } from './playground/mode.js';
// A type only: the playground (emulator and sandbox) is loaded with `import()` when chosen.
import type { Playground } from './playground/start.js';
import { loadEnv } from './trusted-file.js';

/**
 * `npm start`: reads `.env` when present, validates the environment, starts vidops and stops it
 * gracefully on SIGTERM/SIGINT. A configuration problem is one clear message and exit code 1.
 * With no Slack credentials it starts the local playground instead: the sandbox, the Slack
 * emulator with its page, and vidops connected to it, and prints the page's address with its
 * per-start token. Not in production nor on a real service (VIDEO_API_URL), where missing Slack
 * settings are a configuration error, unless VIDOPS_PLAYGROUND=1 asks for it (see
 * src/playground/mode.ts).
 * @see docs/architecture.md, "Runtime contract" and "Emulator and playground"
 */

/** `PORT` as the operator set it, for a message about it. */
const portSetting = (): string => process.env.PORT?.trim() || '3000';

function fail(error: unknown): never {
  if ((error as { code?: unknown } | null)?.code === 'EADDRINUSE') {
    process.stderr.write(
      `The port ${portSetting()} is taken; set PORT to a free one (PORT=3001 npm start).\n`,
    );
    process.exit(1);
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    const { name, message } = redactError(error);
    process.stderr.write(`vidops could not start: ${name}: ${message}\n`);
  }
  process.exit(1);
}

function databaseKind(config: Config): string {
  return config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

/** Runs `stop` on SIGTERM/SIGINT (a second signal: exits at once), then exits. */
function stopOnSignals(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    // A second signal while stopping means "now": the operator gave up waiting.
    if (stopping) {
      logger.warn({ signal }, 'stopping at once');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'stopping');
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: redactError(error) }, 'stop failed');
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a listener must stay in place, or a loader that relays signals (tsx in
  // `npm run dev`) takes the process down before the stop finishes.
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

/** What the terminal is told loudly when the playground was asked for where it is refused by default. */
function playgroundWarnings(started: Playground): string[] {
  const lines: string[] = [];
  if (started.realService !== undefined) {
    lines.push(
      `  WARNING: this playground acts on the real video service at ${started.realService} (${PLAYGROUND_VARIABLE}=1).`,
      '  Its page acts as anyone, leads included: every change approved there is made on that service.',
    );
  }
  if (process.env.NODE_ENV?.trim() === 'production') {
    lines.push(
      `  WARNING: NODE_ENV is production; the playground runs only because ${PLAYGROUND_VARIABLE}=1 asked for it.`,
    );
  }
  return lines;
}

/**
 * The playground: no Slack workspace needed; the page's URL is printed for the person at the
 * terminal. Its code (the emulator and the sandbox) is loaded here only, never on a production start.
 */
async function playground(): Promise<void> {
  let started: Playground;
  try {
    const { startPlayground } = await import('./playground/start.js');
    started = await startPlayground({ env: process.env });
  } catch (error) {
    fail(error);
  }
  process.stdout.write(
    [
      '',
      `  vidops playground: open ${started.openUrl}`,
      '  The address holds a secret made for this start: only a browser that opened it can use the page.',
      ...playgroundWarnings(started),
      '  This is a local Slack emulator on this computer, not Slack: nothing reaches a Slack workspace.',
      `  ${started.videoApi} The data lives in a temporary database until you stop (Ctrl+C).`,
      '  To run vidops in your Slack workspace, set SLACK_BOT_TOKEN and the rest (README, "Create the Slack app").',
      '',
      '',
    ].join('\n'),
  );
  stopOnSignals(started.logger, () => started.stop());
}

async function main(): Promise<void> {
  try {
    Object.assign(process.env, await loadEnv(process.env, process.cwd()));
  } catch (error) {
    fail(error);
  }
  const choice = chooseStart(process.env);
  if (choice.kind === 'refused') fail(new ConfigError(choice.problems));
  if (choice.kind === 'playground') {
    await playground();
    return;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    fail(error);
  }
  const logger = createLogger({ level: config.logLevel });

  let vidops: Vidops;
  let port: number;
  try {
    vidops = await createVidops({ config, logger });
    ({ port } = await vidops.start());
  } catch (error) {
    fail(error);
  }
  logger.info(
    {
      mode: config.slack.socketMode ? 'socket' : 'http',
      port,
      database: databaseKind(config),
      auditChannel: config.auditChannel,
      approvalChannel: config.approvalChannel,
    },
    config.slack.socketMode
      ? `vidops started in Socket Mode (probes on port ${port}), ${databaseKind(config)} store`
      : `vidops started on HTTP port ${port}, ${databaseKind(config)} store`,
  );
  stopOnSignals(logger, () => vidops.stop());
}

await main();
