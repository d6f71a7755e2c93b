import { EXAMPLE_VALUES } from '../config.js';

/**
 * Whether `npm start` runs the local playground: when no Slack credential is given. Each of the
 * three Slack variables is unset, empty, or still the example value of `.env.example`, so a
 * newcomer's fresh clone, or a copy of `.env.example` not yet filled in, opens the playground
 * instead of failing. One real Slack value is enough to run the real app (and be told what else
 * it needs).
 * @see docs/architecture.md, "Emulator and playground"
 */
export const SLACK_CREDENTIALS = ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET'] as const;

export function wantsPlayground(env: Record<string, string | undefined>): boolean {
  return SLACK_CREDENTIALS.every((name) => {
    const value = env[name]?.trim() ?? '';
    return value === '' || (EXAMPLE_VALUES[name] ?? []).includes(value);
  });
}
