import { EXAMPLE_VALUES, loadConfig } from '../config.js';
import { ConfigError } from '../core/errors.js';

/**
 * What `npm start` runs. The local playground runs when no Slack credential is given: each of the
 * three Slack variables is unset, empty, or still the example value of `.env.example`, so a
 * newcomer's fresh clone, or a copy of `.env.example` not yet filled in, opens the playground
 * instead of failing. One real Slack value is enough to run the real app (and be told what else
 * it needs).
 *
 * The playground's page acts as anyone, leads included. So it never stands in for the real app
 * by accident: with `NODE_ENV=production`, or with `VIDEO_API_URL` set (the playground starts its
 * own sandbox only when it is unset, so a set one is a service of someone's), missing Slack
 * settings are a configuration error naming them, unless `VIDOPS_PLAYGROUND=1` asks for the
 * playground on purpose. `VIDOPS_PLAYGROUND=1` never replaces a configured app.
 * @see docs/architecture.md, "Emulator and playground"
 */
export const SLACK_CREDENTIALS = ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET'] as const;

/** The variable that asks for the playground where it would otherwise be refused. */
export const PLAYGROUND_VARIABLE = 'VIDOPS_PLAYGROUND';

export type StartChoice =
  | { kind: 'app' }
  /** `realService`: the VIDEO_API_URL it acts on (asked for with VIDOPS_PLAYGROUND=1); undefined: its own sandbox. */
  | { kind: 'playground'; realService: string | undefined; production: boolean }
  | { kind: 'refused'; problems: string[] };

export function wantsPlayground(env: Record<string, string | undefined>): boolean {
  return SLACK_CREDENTIALS.every((name) => {
    const value = env[name]?.trim() ?? '';
    return value === '' || (EXAMPLE_VALUES[name] ?? []).includes(value);
  });
}

/** `VIDOPS_PLAYGROUND`: 1 asks for the playground, unset, empty or 0 does not; anything else is unknown. */
function askedFor(env: Record<string, string | undefined>): boolean | 'unknown' {
  const raw = env[PLAYGROUND_VARIABLE]?.trim() ?? '';
  if (raw === '1') return true;
  if (raw === '' || raw === '0') return false;
  return 'unknown';
}

/** A service's URL as it may be shown: without a user name or password in it. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

/** What the real app's configuration would say is missing (the Slack variables among it). */
function appProblems(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
}

/**
 * Why the playground may not start with this environment, as configuration problems (the reason,
 * then what the real app would need), or undefined when it may. Pure; `startPlayground` asks too.
 */
export function playgroundRefusal(env: Record<string, string | undefined>): string[] | undefined {
  const asked = askedFor(env);
  if (asked === 'unknown') {
    return [
      `${PLAYGROUND_VARIABLE} must be 1 (run the playground) or 0 (do not); got "${env[PLAYGROUND_VARIABLE]?.trim()}"`,
    ];
  }
  if (asked) return undefined;
  const service = shownUrl(env.VIDEO_API_URL?.trim() ?? '');
  const production = env.NODE_ENV?.trim() === 'production';
  if (service === '' && !production) return undefined;
  const where = production ? 'NODE_ENV is production' : `VIDEO_API_URL names a service (${service})`;
  return [
    `The Slack settings are missing and ${where}, so the local playground does not start in their place: its page acts as anyone, leads included${service === '' ? '' : `, on ${service}`}. ` +
      `Set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (HTTP mode) or SLACK_APP_TOKEN (Socket Mode) to run vidops, or ${PLAYGROUND_VARIABLE}=1 to run the playground on purpose.`,
    ...appProblems(env),
  ];
}

/** The real app, the playground (and on what), or a refusal with every problem named. */
export function chooseStart(env: Record<string, string | undefined>): StartChoice {
  if (!wantsPlayground(env)) return { kind: 'app' };
  const problems = playgroundRefusal(env);
  if (problems !== undefined) return { kind: 'refused', problems };
  const service = env.VIDEO_API_URL?.trim() ?? '';
  return {
    kind: 'playground',
    realService: service === '' ? undefined : shownUrl(service),
    production: env.NODE_ENV?.trim() === 'production',
  };
}
