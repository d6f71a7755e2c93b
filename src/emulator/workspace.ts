import { randomBytes } from 'node:crypto';

/**
 * The workspace the emulator plays: its IDs, and the people, user groups and channels it knows.
 * The IDs have Slack's shapes (`T…`, `A…`, `U…`, `B…`, `C…`, `D…`, `S…`) so vidops' own checks
 * of them apply unchanged.
 * @see docs/architecture.md, "Emulator and playground"
 */

export const TEAM_ID = 'T0VIDOPS';
export const TEAM_DOMAIN = 'vidops-local';
export const APP_ID = 'A0VIDOPS';
export const BOT_USER_ID = 'U0VIDOPSBOT';
export const BOT_ID = 'B0VIDOPS';
export const BOT_NAME = 'vidops';

/** A person of the workspace, as `users.info` describes them. */
export interface EmulatorUser {
  id: string;
  name: string;
  real_name?: string;
  display_name?: string;
  /** What the playground's persona switch says about them ("agent", "lead", …). */
  role?: string;
  /** Their Slack locale (`fa-IR`), given by `users.info` with `include_locale`; Slack's `en-US` when unset. */
  locale?: string;
  /** A bot user (another app's), as `users.info` says with `is_bot`. */
  is_bot?: boolean;
  /** A deactivated account, as `users.info` says with `deleted`. */
  deleted?: boolean;
}

/** A channel the workspace has; messages may also go to channels it does not list. */
export interface EmulatorChannel {
  id: string;
  name: string;
  /** One line under the channel name in the playground. */
  purpose?: string;
  /** Whether the bot is in it (`is_member` of `conversations.info`); default true. */
  botIsMember?: boolean;
}

/** A user group (`S…`) and its members, as `usergroups.users.list` answers. */
export interface EmulatorUsergroup {
  id: string;
  handle: string;
  members: readonly string[];
}

/** Random credentials of one emulator: nothing in them is a real Slack secret. */
export interface EmulatorCredentials {
  botToken: string;
  appToken: string;
  signingSecret: string;
}

/** Fresh credentials, random per call, with Slack's prefixes (`xoxb-`, `xapp-`). */
export function randomCredentials(): EmulatorCredentials {
  const hex = (n: number) => randomBytes(n).toString('hex');
  return {
    botToken: `xoxb-${hex(4)}-${hex(6)}-${hex(12)}`,
    appToken: `xapp-1-${APP_ID}-${hex(6)}-${hex(16)}`,
    signingSecret: hex(16),
  };
}
