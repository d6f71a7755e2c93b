import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { redactError } from '../core/mask.js';
import type { Directory, UserKind } from '../services/types.js';

/**
 * Who is who in the workspace, as the policy needs it: the user groups a user belongs to (for
 * `LEADS`/`AGENTS` entries that are groups) and a display name for messages and the audit log.
 * @see docs/architecture.md, "Approvals"; docs/slack.md, "Rate limits" (Tier 2: cache)
 */
export interface SlackDirectory extends Directory {
  /** The IDs of the watched user groups this user is a member of. */
  groupsOf(userId: string): Promise<string[]>;
  /** The user's display name; `fallback` (e.g. the command's `user_name`) when Slack cannot say. */
  nameOf(userId: string, fallback?: string): Promise<string>;
  /** The members of a user group (`S…`), from the same cache (e.g. to refresh approvers' Home tabs). */
  membersOf(group: string): Promise<string[]>;
  /** What a user ID is, asked of Slack each time (`users.info`; rare: `/vidops delegate`). */
  kindOf(userId: string): Promise<UserKind>;
}

/** Slackbot: a person to `users.info` (`is_bot: false`), yet nobody who could approve anything. */
const SLACKBOT = 'USLACKBOT';

export interface DirectoryOptions {
  /** User-group IDs (`S…`) whose members matter: those named in LEADS, AGENTS and the policy. */
  groups: readonly string[];
  /** How long a group's member list or a user's name is used before asking Slack again. */
  ttlMs?: number;
  clock?: () => Date;
  logger?: Pick<Logger, 'warn'>;
}

/** Five minutes: `usergroups.users.list` is Tier 2 (about 20 calls a minute). */
export const DIRECTORY_TTL_MS = 5 * 60_000;

interface Entry<T> {
  value: T;
  fetchedAt: number;
}

/**
 * A directory backed by Slack's Web API with a TTL cache. A group whose refresh fails keeps its
 * last known members (stale beats empty: a lead should not lose approval rights to a 429); a group
 * never fetched successfully counts as empty until Slack answers. Concurrent look-ups share one call.
 */
export function createDirectory(web: WebClient, options: DirectoryOptions): SlackDirectory {
  const ttlMs = options.ttlMs ?? DIRECTORY_TTL_MS;
  const clock = options.clock ?? (() => new Date());
  const groups = [...new Set(options.groups.filter((id) => id.startsWith('S')))];
  const members = new Map<string, Entry<ReadonlySet<string>>>();
  const names = new Map<string, Entry<string>>();
  const inFlight = new Map<string, Promise<unknown>>();

  const fresh = (entry: Entry<unknown> | undefined): boolean =>
    entry !== undefined && clock().getTime() - entry.fetchedAt < ttlMs;

  /** One call per key at a time: a burst of commands waits on the same look-up. */
  function shared<T>(key: string, load: () => Promise<T>): Promise<T> {
    const running = inFlight.get(key);
    if (running) return running as Promise<T>;
    const started = load().finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  }

  async function membersOf(group: string): Promise<ReadonlySet<string>> {
    const cached = members.get(group);
    if (fresh(cached) && cached) return cached.value;
    return shared(`group:${group}`, async () => {
      try {
        const answer = await web.usergroups.users.list({ usergroup: group });
        const value = new Set(answer.users ?? []);
        members.set(group, { value, fetchedAt: clock().getTime() });
        return value;
      } catch (error) {
        options.logger?.warn(
          { err: redactError(error), usergroup: group, stale: cached !== undefined },
          'could not read user-group members; using what is known',
        );
        return cached?.value ?? new Set<string>();
      }
    });
  }

  return {
    async groupsOf(userId) {
      const lists = await Promise.all(groups.map(async (g) => [g, await membersOf(g)] as const));
      return lists.filter(([, set]) => set.has(userId)).map(([g]) => g);
    },

    async nameOf(userId, fallback) {
      const cached = names.get(userId);
      if (fresh(cached) && cached) return cached.value;
      return shared(`user:${userId}`, async () => {
        try {
          const answer = await web.users.info({ user: userId });
          const user = answer.user;
          const name =
            nonEmpty(user?.profile?.display_name) ??
            nonEmpty(user?.real_name) ??
            nonEmpty(user?.profile?.real_name) ??
            nonEmpty(user?.name);
          if (name !== undefined) {
            names.set(userId, { value: name, fetchedAt: clock().getTime() });
            return name;
          }
        } catch (error) {
          options.logger?.warn({ err: redactError(error), user: userId }, 'could not read a user name');
        }
        return cached?.value ?? nonEmpty(fallback) ?? userId;
      });
    },

    async membersOf(group) {
      return [...(await membersOf(group))];
    },

    async kindOf(userId) {
      try {
        const { user } = await web.users.info({ user: userId });
        if (user === undefined) return 'cannot-tell';
        if (user.deleted === true) return 'unknown';
        return user.is_bot === true || userId === SLACKBOT ? 'bot' : 'person';
      } catch (error) {
        if (slackErrorOf(error) === 'user_not_found') return 'unknown';
        options.logger?.warn({ err: redactError(error), user: userId }, 'could not tell who a user is');
        return 'cannot-tell';
      }
    },
  };
}

/** The `error` of a Slack answer that was not ok (`user_not_found`), read by shape. */
function slackErrorOf(error: unknown): unknown {
  return (error as { data?: { error?: unknown } } | null)?.data?.error;
}

function nonEmpty(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
