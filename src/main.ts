import { existsSync } from 'node:fs';
import { config as loadDotenv } from 'dotenv';
import { createVidops, type Vidops } from './app.js';
import { type Config, loadConfig } from './config.js';
import { ConfigError } from './core/errors.js';
import { redactError } from './core/mask.js';
import { createLogger } from './logger.js';

/**
 * `npm start`: reads `.env` when present, validates the environment, starts vidops and stops it
 * gracefully on SIGTERM/SIGINT. A configuration problem is one clear message and exit code 1.
 * @see docs/architecture.md, "Runtime contract"
 */

function fail(error: unknown): never {
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

async function main(): Promise<void> {
  if (existsSync('.env')) loadDotenv({ path: '.env', quiet: true });
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

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    // A second signal while stopping means "now": the operator gave up waiting.
    if (stopping) {
      logger.warn({ signal }, 'stopping at once');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'stopping');
    vidops.stop().then(
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

await main();
