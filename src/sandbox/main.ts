/**
 * `npm run sandbox`: the local emulator of the video protection API with demo data and demo keys.
 * Env: SANDBOX_PORT (4010), SANDBOX_API_KEY, SANDBOX_SECRET_KEY, SANDBOX_CONVERSION_DELAY_MS
 * (2000), SANDBOX_WHITELIST_MODE (`replace` | `append`), SANDBOX_EXTRAS (`on` | `off`: off serves
 * only the 13 documented operations, everything else 404 `{"message":"not found"}`).
 * @see docs/architecture.md, "Sandbox" and "Runtime contract"
 */
import { config as loadDotenv } from 'dotenv';
import { DEMO } from './demo-data.js';
import { startSandbox } from './server.js';

loadDotenv({ quiet: true });

function readInt(name: string, fallback: number, max: number, problems: string[]): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > max) {
    problems.push(`${name} must be a whole number from 0 to ${max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

const problems: string[] = [];
const port = readInt('SANDBOX_PORT', 4010, 65_535, problems);
const conversionDelayMs = readInt('SANDBOX_CONVERSION_DELAY_MS', 2000, 3_600_000, problems);
const modeRaw = process.env.SANDBOX_WHITELIST_MODE ?? 'replace';
if (modeRaw !== 'replace' && modeRaw !== 'append') {
  problems.push(`SANDBOX_WHITELIST_MODE must be replace or append (got "${modeRaw}")`);
}
const whitelistMode = modeRaw === 'append' ? 'append' : 'replace';
const extrasRaw = process.env.SANDBOX_EXTRAS || 'on';
if (extrasRaw !== 'on' && extrasRaw !== 'off') {
  problems.push(`SANDBOX_EXTRAS must be on or off (got "${extrasRaw}")`);
}
const extras = extrasRaw !== 'off';
const apiKey = process.env.SANDBOX_API_KEY || DEMO.apiKey;
const secretKey = process.env.SANDBOX_SECRET_KEY || DEMO.secretKey;

if (problems.length > 0) {
  console.error(`sandbox: cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}

const sandbox = await startSandbox({
  port,
  apiKey,
  secretKey,
  conversionDelayMs,
  whitelistMode,
  extras,
  // Path and status only: queries and bodies may hold mobile numbers.
  onRequest: (request, ms) =>
    console.log(`${request.method} ${request.path} -> ${request.status ?? 'reset'} (${Math.round(ms)} ms)`),
});

// The public demo keys are printed so a newcomer can copy them; keys set in the environment are
// secrets like any other and are only named.
const shown = (value: string, demo: string, variable: string) =>
  value === demo ? value : `<the value of ${variable}>`;
const apiKeyShown = shown(apiKey, DEMO.apiKey, 'SANDBOX_API_KEY');
const secretKeyShown = shown(secretKey, DEMO.secretKey, 'SANDBOX_SECRET_KEY');
console.log(`Video protection API sandbox listening on ${sandbox.url}
  api_key:    ${apiKeyShown}
  secret_key: ${secretKeyShown}
  whitelist:  ${whitelistMode} mode; retried conversions finish after ${conversionDelayMs} ms
  extras:     ${extras ? 'on (the read-only extras answer too)' : 'off (only the 13 documented operations; anything else is 404 {"message":"not found"})'}

Point vidops at it:
  VIDEO_API_URL=${sandbox.url}
  VIDEO_API_KEY=${apiKeyShown}
  VIDEO_SECRET_KEY=${secretKeyShown}

Demo IDs: folder ${DEMO.folders.lectures}, failed conversion ${DEMO.failedFileIds[0]}, \
playlist ${DEMO.playlists.gettingStarted}
Control: POST ${sandbox.url}/__sandbox/reset, GET ${sandbox.url}/__sandbox/state, \
POST|DELETE ${sandbox.url}/__sandbox/faults, GET|DELETE ${sandbox.url}/__sandbox/requests`);

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing the sandbox`);
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('sandbox: close failed', error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
