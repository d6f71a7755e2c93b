import { WebAPIRateLimitedError, WebClient } from '@slack/web-api';
import type { ChannelCheckpoint, ChannelLine } from '../core/witness.js';

/**
 * Reads the audit channel's history back for `vidops audit witness`: every event line (`#seq` and
 * its short hash) and every checkpoint note the channel shows, with who posted each message.
 * `conversations.history` pages of 200 newest first, a 429's `Retry-After` waited out (a few
 * times at most), and at most `maxPages` pages, so a huge channel cannot keep it running for ever.
 * Needs the bot scope `channels:history` (`groups:history` for a private audit channel).
 * @see docs/slack.md, "Rate limits"; docs/architecture.md, "Audit log"
 */

export interface ChannelHistory {
  lines: ChannelLine[];
  checkpoints: ChannelCheckpoint[];
  messages: number;
  /** Whether the history was read to its start (or to `oldest`); false when `maxPages` stopped it. */
  complete: boolean;
  /** The `ts` of the oldest message read, or null when there was none. */
  oldestTs: string | null;
}

export type ReadHistoryOptions = (
  | { token: string; slackApiUrl?: string | undefined }
  | { web: WebClient }
) & {
  channel: string;
  /** Only messages after this time (Slack `ts`, seconds). */
  oldest?: string | undefined;
  /** Pages of 200 messages read at most (default 100: 20,000 messages). */
  maxPages?: number;
  /** Told before each wait a 429 asked for. */
  onWait?: (seconds: number) => void;
  /** Waits (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
  /** 429s waited out at most (default 5); past them, the 429 is thrown. */
  maxWaits?: number;
};

const PAGE_SIZE = 200;
const MAX_RATE_LIMIT_WAITS = 5;
/** A `Retry-After` longer than this is not waited out: the command stops and says so. */
const MAX_WAIT_S = 120;

/**
 * An event line as the audit publisher writes it in blocks: `:emoji: *#12* … · hash `abcdef012345``;
 * in Persian (`CHANNEL_LOCALE=fa`) the word is `هش` and the seq and hash are isolated (FSI … PDI).
 */
const BLOCK_LINE = /\*#(\d+)\*[^\n]*· (?:hash|هش) \u2068?`([0-9a-f]{12})`/g;
/** The same line in the `text` fallback: `#12 … · hash abcdef012345`. */
const TEXT_LINE = /^\u2068?#(\d+)\u2069? [^\n]*· (?:hash|هش) \u2068?([0-9a-f]{12})\u2069?$/gm;
const CODE_BLOCK = /```\n?([\s\S]*?)```/g;
/**
 * A summary of a backlog, a section of its own (src/views/audit-post.ts `renderAuditSummary`):
 * `:package: *#6240* · 1,240 events #5001–#6240, all in … · hash `abcdef012345``.
 */
const SUMMARY_LINE = /^:package: \u2068?\*#(\d+)\*\u2069? · [^\n]*?\u2068?#(\d+)–#\1\u2069?[,،] [^\n]*$/;

type Message = Record<string, unknown>;

function textOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const text = (value as Record<string, unknown>).text;
  return typeof text === 'string' ? text : null;
}

/** The mrkdwn texts of a message's section and context blocks, or its `text` when it has no blocks. */
function mrkdwnOf(message: Message): { texts: string[]; fromBlocks: boolean } {
  const blocks = Array.isArray(message.blocks) ? (message.blocks as unknown[]) : [];
  const texts: string[] = [];
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null) continue;
    const b = block as Record<string, unknown>;
    const text = textOf(b.text);
    if (text !== null) texts.push(text);
    if (Array.isArray(b.elements)) {
      for (const element of b.elements) {
        const t = textOf(element);
        if (t !== null) texts.push(t);
      }
    }
  }
  if (texts.length > 0) return { texts, fromBlocks: true };
  return { texts: typeof message.text === 'string' ? [message.text] : [], fromBlocks: false };
}

function unescapeMrkdwn(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The event lines and checkpoint notes of one message. */
export function readMessage(
  message: Message,
  bot: { userId: string; botId: string | null },
): { lines: ChannelLine[]; checkpoints: ChannelCheckpoint[] } {
  const ts = typeof message.ts === 'string' ? message.ts : '';
  const user = typeof message.user === 'string' ? message.user : null;
  const botId = typeof message.bot_id === 'string' ? message.bot_id : null;
  const byBot = user === bot.userId || (bot.botId !== null && botId === bot.botId);
  const author = user ?? botId ?? 'unknown';
  const { texts, fromBlocks } = mrkdwnOf(message);
  const lines: ChannelLine[] = [];
  const checkpoints: ChannelCheckpoint[] = [];
  for (const text of texts) {
    const summary = fromBlocks ? SUMMARY_LINE.exec(text) : null;
    for (const m of text.matchAll(fromBlocks ? BLOCK_LINE : TEXT_LINE)) {
      const line = { seq: Number(m[1]), short: m[2] ?? '', ts, byBot, author };
      lines.push(summary === null ? line : { ...line, covers: Number(summary[2]) });
    }
    for (const m of text.matchAll(CODE_BLOCK)) {
      const note = unescapeMrkdwn(m[1] ?? '');
      if (note.includes('\n\n\u2014 ')) {
        checkpoints.push({ note: note.endsWith('\n') ? note : `${note}\n`, ts, byBot, author });
      }
    }
  }
  return { lines, checkpoints };
}

/** The bot's own user and bot IDs, to tell its posts from others'. */
async function whoAmI(web: WebClient): Promise<{ userId: string; botId: string | null }> {
  const auth = await web.auth.test();
  if (typeof auth.user_id !== 'string') throw new Error('auth.test named no user');
  return { userId: auth.user_id, botId: typeof auth.bot_id === 'string' ? auth.bot_id : null };
}

/** Reads the channel's history as {@link ReadHistoryOptions} say. Slack errors are thrown as they come. */
export async function readChannelHistory(options: ReadHistoryOptions): Promise<ChannelHistory> {
  const web =
    'web' in options
      ? options.web
      : new WebClient(options.token, {
          rejectRateLimitedCalls: true,
          retryConfig: { retries: 0 },
          timeout: 20_000,
          ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
        });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxPages = options.maxPages ?? 100;
  const bot = await whoAmI(web);
  const history: ChannelHistory = {
    lines: [],
    checkpoints: [],
    messages: 0,
    complete: false,
    oldestTs: null,
  };
  let cursor: string | undefined;
  let waits = 0;
  for (let page = 0; page < maxPages; ) {
    let answer: Awaited<ReturnType<WebClient['conversations']['history']>>;
    try {
      answer = await web.conversations.history({
        channel: options.channel,
        limit: PAGE_SIZE,
        ...(cursor === undefined ? {} : { cursor }),
        ...(options.oldest === undefined ? {} : { oldest: options.oldest }),
      });
    } catch (error) {
      if (!(error instanceof WebAPIRateLimitedError)) throw error;
      waits += 1;
      if (waits > (options.maxWaits ?? MAX_RATE_LIMIT_WAITS) || error.retryAfter > MAX_WAIT_S) throw error;
      options.onWait?.(error.retryAfter);
      await sleep(error.retryAfter * 1000);
      continue;
    }
    page += 1;
    for (const message of answer.messages ?? []) {
      const read = readMessage(message as Message, bot);
      history.lines.push(...read.lines);
      history.checkpoints.push(...read.checkpoints);
      history.messages += 1;
      if (typeof message.ts === 'string') {
        if (history.oldestTs === null || Number(message.ts) < Number(history.oldestTs)) {
          history.oldestTs = message.ts;
        }
      }
    }
    const next = answer.response_metadata?.next_cursor;
    if (answer.has_more !== true || next === undefined || next === '') {
      history.complete = true;
      break;
    }
    cursor = next;
  }
  return history;
}
