import { createHash } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { GENESIS_HASH } from '../core/audit-chain.js';
import { checkpointOrigin, signCheckpoint } from '../core/checkpoint.js';
import type { AuditEvent } from '../core/model.js';
import { generateSignerKey } from '../core/signed-note.js';
import { type ChannelLine, compareWithChannel, type WitnessInput } from '../core/witness.js';
import { startEmulator } from '../emulator/index.js';
import { langFor } from '../i18n/index.js';
import { renderAuditPost, renderCheckpointPost } from '../views/audit-post.js';
import { checkBlockKitLimits } from '../views/limits.js';
import { readChannelHistory, readMessage } from './witness.js';

const BOT = { userId: 'U0VIDOPSBOT', botId: 'B0VIDOPS' };
const key = generateSignerKey(checkpointOrigin('tehran-1'));

function hashOf(n: number): string {
  return n === 0 ? GENESIS_HASH : createHash('sha256').update(`event ${n}`).digest('hex');
}

function event(seq: number): AuditEvent {
  return {
    seq,
    id: `ev-${seq}`,
    type: 'succeeded',
    at: new Date(Date.UTC(2026, 10, 21, 10, seq)).toISOString(),
    actor: { id: 'U0AGENT01', name: 'Sara <b> & "co"' },
    operation: 'viewer.unblock',
    target: 'viewer 09123456789',
    params: {},
    requestId: `R-${seq}`,
    outcome: null,
    error: null,
    prevHash: hashOf(seq - 1),
    hash: hashOf(seq),
  };
}

function checkpointNote(size: number): string {
  return signCheckpoint({ origin: key.name, size, head: hashOf(size), time: '2026-11-21T11:00:00Z' }, [key]);
}

/** A message as conversations.history gives it back for a post of the bot. */
function asPosted(post: { text: string; blocks: unknown[] }, ts: string, author = BOT.userId) {
  return {
    type: 'message',
    ts,
    text: post.text,
    blocks: post.blocks,
    user: author,
    bot_id: author === BOT.userId ? BOT.botId : undefined,
  };
}

describe('the witness reads back what the audit publisher posted', () => {
  it('every event line of a batch, with its seq and short hash, from the blocks', () => {
    const events = [1, 2, 3].map(event);
    const read = readMessage(asPosted(renderAuditPost(events), '1700000000.000100'), BOT);
    expect(read.lines).toEqual(
      events.map((e) => ({
        seq: e.seq,
        short: e.hash.slice(0, 12),
        ts: '1700000000.000100',
        byBot: true,
        author: BOT.userId,
      })),
    );
    expect(read.checkpoints).toEqual([]);
  });

  it('a message without blocks is read from its text fallback', () => {
    const post = renderAuditPost([event(7)]);
    const read = readMessage({ ts: '1.2', text: post.text, user: BOT.userId }, BOT);
    expect(read.lines.map((l) => [l.seq, l.short])).toEqual([[7, hashOf(7).slice(0, 12)]]);
  });

  it('a Persian post (CHANNEL_LOCALE=fa) is read from its blocks and from its text fallback alike', () => {
    const fa = langFor('fa');
    const events = [4, 5].map(event);
    const post = renderAuditPost(events, fa);
    const expected = events.map((e) => [e.seq, e.hash.slice(0, 12)]);
    expect(readMessage(asPosted(post, '1.4'), BOT).lines.map((l) => [l.seq, l.short])).toEqual(expected);
    const text = readMessage({ ts: '1.5', text: post.text, user: BOT.userId }, BOT);
    expect(text.lines.map((l) => [l.seq, l.short])).toEqual(expected);
    const note = checkpointNote(5);
    const checkpoint = readMessage(
      asPosted(renderCheckpointPost({ size: 5, head: hashOf(5), note }, fa), '1.6'),
      BOT,
    );
    expect(checkpoint.checkpoints.map((c) => c.note)).toEqual([note]);
    expect(checkpoint.lines).toEqual([]);
  });

  it('a checkpoint post holds its signed note exactly, within Block Kit limits', () => {
    const note = checkpointNote(67);
    const post = renderCheckpointPost({ size: 67, head: hashOf(67), note });
    expect(checkBlockKitLimits(post, 'message')).toEqual([]);
    expect(post.text).not.toMatch(/^#\d+ /m);
    const read = readMessage(asPosted(post, '1.3'), BOT);
    expect(read.lines).toEqual([]);
    expect(read.checkpoints.map((c) => c.note)).toEqual([note]);
  });

  it("someone else's message is read, and marked as not the bot's", () => {
    const post = renderAuditPost([event(9)]);
    const read = readMessage(asPosted(post, '1.4', 'U0MALLORY'), BOT);
    expect(read.lines[0]).toMatchObject({ seq: 9, byBot: false, author: 'U0MALLORY' });
  });
});

describe('the witness compares the channel with the database', () => {
  const events = [1, 2, 3, 4, 5].map(event);
  const line = (seq: number, overrides: Partial<ChannelLine> = {}): ChannelLine => ({
    seq,
    short: hashOf(seq).slice(0, 12),
    ts: `17000000${seq}.000100`,
    byBot: true,
    author: BOT.userId,
    ...overrides,
  });
  const base: WitnessInput = {
    events,
    lines: events.map((e) => line(e.seq)),
    checkpoints: [{ note: checkpointNote(5), ts: '1.9', byBot: true, author: BOT.userId }],
    stored: [{ size: 5, note: checkpointNote(5), postedAt: '2026-11-21T11:00:01.000Z' }],
    undelivered: new Set(),
    readFrom: null,
  };

  it('an untouched channel agrees with the database', async () => {
    const report = await compareWithChannel(base);
    expect(report).toMatchObject({
      compared: 5,
      notYetPosted: 0,
      notCompared: 0,
      checkpointsMatched: 1,
      findings: [],
    });
  });

  it('a deleted message and a forged one are both named', async () => {
    const report = await compareWithChannel({
      ...base,
      lines: [
        ...base.lines.filter((l) => l.seq !== 3),
        line(4, { short: 'deadbeef0000', ts: '1.5' }),
        line(6, { short: 'cafebabe0000', ts: '1.6' }),
      ],
    });
    expect(report.findings).toEqual([
      { kind: 'missing-from-channel', seq: 3, short: hashOf(3).slice(0, 12) },
      {
        kind: 'not-in-database',
        seq: 4,
        short: 'deadbeef0000',
        ts: '1.5',
        databaseShort: hashOf(4).slice(0, 12),
      },
      { kind: 'not-in-database', seq: 6, short: 'cafebabe0000', ts: '1.6', databaseShort: null },
    ]);
  });

  it('events cut from the end of the database, and their checkpoint with them, show as what the channel alone has', async () => {
    const report = await compareWithChannel({ ...base, events: events.slice(0, 3), stored: [] });
    expect(report.findings.map((f) => [f.kind, 'seq' in f ? f.seq : 'size' in f ? f.size : null])).toEqual([
      ['not-in-database', 4],
      ['not-in-database', 5],
      ['checkpoint-differs', 5],
    ]);
  });

  it('lines posted by a person are never taken as witness, only shown', async () => {
    const report = await compareWithChannel({
      ...base,
      lines: [...base.lines, line(2, { short: 'deadbeef0000', byBot: false, author: 'U0MALLORY' })],
    });
    expect(report.findings).toEqual([]);
    expect(report.othersLines.map((l) => l.author)).toEqual(['U0MALLORY']);
  });

  it('events still in the outbox and events older than what was read are not missing', async () => {
    const report = await compareWithChannel({
      ...base,
      lines: base.lines.filter((l) => l.seq === 3 || l.seq === 4),
      undelivered: new Set([5]),
      readFrom: Date.parse(event(3).at),
    });
    expect(report).toMatchObject({ compared: 2, notYetPosted: 1, notCompared: 2, findings: [] });
  });

  it('a checkpoint edited in the database, one deleted from the channel, and one only the channel has', async () => {
    const other = generateSignerKey(key.name);
    const forged = signCheckpoint(
      { origin: key.name, size: 5, head: hashOf(5), time: '2026-11-21T11:00:00Z' },
      [other],
    );
    const report = await compareWithChannel({
      ...base,
      checkpoints: [{ note: checkpointNote(3), ts: '1.7', byBot: true, author: BOT.userId }],
      stored: [
        { size: 5, note: forged, postedAt: '2026-11-21T11:00:01.000Z' },
        { size: 4, note: checkpointNote(4), postedAt: null },
      ],
    });
    expect(report.findings).toEqual([
      { kind: 'checkpoint-differs', size: 3, ts: '1.7', databaseHas: 'none' },
      { kind: 'checkpoint-missing-from-channel', size: 5 },
    ]);
    expect(report.checkpointsNotYetPosted).toBe(1);
    const differs = await compareWithChannel({
      ...base,
      stored: [{ ...base.stored[0], size: 5, note: forged, postedAt: null }],
    });
    expect(differs.findings).toEqual([
      { kind: 'checkpoint-differs', size: 5, ts: '1.9', databaseHas: 'other' },
    ]);
  });
});

describe('the witness reads a long channel history', () => {
  it('pages through it newest first, waits out a 429, and stops at its bound saying so', async () => {
    const fake = await startEmulator();
    try {
      const web = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl });
      for (let seq = 1; seq <= 450; seq += 1) {
        const post = renderAuditPost([event(seq)]);
        await web.chat.postMessage({ channel: 'C0AUDIT', text: post.text, blocks: post.blocks });
      }
      const waits: number[] = [];
      fake.failNext('conversations.history', { status: 429, retryAfter: 2 });
      const options = {
        token: fake.botToken,
        channel: 'C0AUDIT',
        slackApiUrl: fake.apiUrl,
        onWait: (s: number) => waits.push(s),
        sleep: async () => undefined,
      };
      const all = await readChannelHistory(options);
      expect(waits).toEqual([2]);
      expect(all).toMatchObject({ messages: 450, complete: true });
      expect(all.lines.map((l) => l.seq).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 450 }, (_, i) => i + 1),
      );
      expect(fake.callsTo('conversations.history').map((c) => c.status)).toEqual([429, 200, 200, 200]);

      const bounded = await readChannelHistory({ ...options, maxPages: 2 });
      expect(bounded).toMatchObject({ messages: 400, complete: false });
      expect(Math.min(...bounded.lines.map((l) => l.seq))).toBe(51);
      const oldest = fake.messages('C0AUDIT')[50]?.ts;
      expect(bounded.oldestTs).toBe(oldest);
    } finally {
      await fake.close();
    }
  });
});
