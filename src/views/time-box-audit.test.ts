import { requestWith, VIEW_NOW } from '../../test/fixtures/requests.js';
import type { AuditEvent, OperationRequest } from '../core/model.js';
import { say } from '../core/said.js';
import { newTimeBox } from '../core/time-box.js';
import { ENGLISH, langFor } from '../i18n/index.js';
import { recordedSaid } from '../i18n/said.js';
import { approvalMessage, putBackReminderMessage, requesterNotice } from './approval.js';
import { auditLine, auditTerminalLine, renderAuditPost } from './audit-post.js';
import type { SlackMessage } from './blocks.js';
import { sayIn } from './errors.js';
import { ACTIONS } from './ids.js';
import { checkBlockKitLimits } from './limits.js';
import { timeBoxLines } from './put-back.js';

/**
 * Time-boxed changes, Put back now, Extend… and Revert… as compliance reads them (audit channel,
 * `audit tail`) and as a Persian-speaking team reads them (audit channel with CHANNEL_LOCALE=fa,
 * the approval message, the requester's DM). The events are shaped exactly as
 * src/services/time-box.ts, src/services/execute.ts and src/services/revert.ts write them.
 * @see docs/time-boxed.md, docs/audit.md
 */

const PERSIAN = langFor('fa');
const SYSTEM = { id: 'system', name: 'vidops' };
const LEAD = { id: 'U0LEAD1', name: 'lena' };

// The errors the services record, word for word (src/services/{revert,time-box,execute}.ts).
// As vidops records them (src/services/revert.ts, time-box.ts, execute.ts): its own sentences.
const REVERT_NOT_SENT = recordedSaid('NotSent', say.revertStale('R-REV00001', 'R-ABC12345'));
const EXTEND_NOT_SENT = recordedSaid('NotSent', say.extendStale('R-EXT00001', 'R-ABC12345'));
const BUSY = recordedSaid('Busy', say.sendBusy(20));
const SUPERSEDED = recordedSaid('Superseded', say.putBackSuperseded());

function event(overrides: Partial<AuditEvent>): AuditEvent {
  return {
    id: '0b7c6a8e-0000-4000-8000-000000000001',
    seq: 7,
    type: 'reverting',
    at: '2026-11-21T16:05:00.000Z',
    actor: SYSTEM,
    operation: 'protect.set',
    target: 'protection settings',
    params: { changes: { preventZoom: false } },
    requestId: 'R-ABC12345',
    outcome: null,
    error: null,
    prevHash: '0'.repeat(64),
    hash: 'c2350ace1743'.padEnd(64, '0'),
    ...overrides,
  };
}

/** The detail a put-back step records (boxStep in src/services/time-box.ts). */
function box(state: string, extra: Record<string, AuditEvent['outcome']> = {}): AuditEvent['outcome'] {
  return {
    state,
    endsAt: '2026-11-21T16:05:00.000Z',
    putBack: null,
    conflicts: [],
    nextAt: null,
    lastError: null,
    ...extra,
  };
}

const both = (e: AuditEvent) => ({ en: auditTerminalLine(e), fa: auditTerminalLine(e, PERSIAN) });

function read(message: SlackMessage): string {
  return `${message.text}\n${JSON.stringify(message.blocks)}`;
}

describe('a compliance officer reads each put-back step in the audit channel, in English and Persian', () => {
  it('a lead presses Put back now: who, which change, what goes back and with which request', () => {
    const { en, fa } = both(
      event({
        type: 'reverting',
        actor: LEAD,
        outcome: box('running', { putBack: 'R-DEF67890', goesBack: ['preventZoom', 'opacity'] }),
      }),
    );
    expect(en).toBe(
      'lena (U0LEAD1) put back R-ABC12345 now (goes back: preventZoom, opacity), with R-DEF67890',
    );
    expect(fa).toBe(
      '⁨lena⁩ (⁨U0LEAD1⁩) همین حالا ⁨R-ABC12345⁩ را با ⁨R-DEF67890⁩ برگرداند (آنچه برمی‌گردد: ⁨preventZoom⁩، ⁨opacity⁩)',
    );
  });

  it('a put-back done in part: what was left as others changed it, and what was left to a later change', () => {
    const outcome = box('done', {
      putBack: 'R-DEF67890',
      conflicts: [
        { item: 'opacity', now: 0.45, heldBy: null },
        { item: 'preventZoom', now: null, heldBy: 'R-XYZ00001' },
      ],
    });
    const { en, fa } = both(event({ type: 'reverted', outcome }));
    expect(en).toBe(
      'R-ABC12345 was put back by R-DEF67890; left as others changed them: opacity (now 0.45); preventZoom left to R-XYZ00001, which holds it',
    );
    expect(fa).toBe(
      '⁨R-ABC12345⁩ با ⁨R-DEF67890⁩ برگردانده شد؛ آنچه دیگران از آن زمان تغییر داده‌اند دست‌نخورده ماند: ⁨opacity⁩ (اکنون ⁨0.45⁩)؛ ⁨preventZoom⁩ به ⁨R-XYZ00001⁩ سپرده شد که اکنون نگهش می‌دارد',
    );
    expect(both(event({ type: 'revert-conflict', outcome })).en).toBe(
      'R-ABC12345 was put back only in part; left as others changed them: opacity (now 0.45); preventZoom left to R-XYZ00001, which holds it',
    );
  });

  it('a whitelist put-back left alone addresses others removed or added again, each with what the list shows', () => {
    const { en, fa } = both(
      event({
        type: 'revert-conflict',
        operation: 'whitelist.set',
        target: 'whitelist',
        params: { allowedDNS: ['1.2.3.4'], expectBefore: ['1.2.3.4', '5.6.7.8'] },
        outcome: box('left', {
          conflicts: [
            { item: '5.6.7.8', now: null, heldBy: null },
            { item: '9.9.9.9', now: '9.9.9.9', heldBy: null },
          ],
        }),
      }),
    );
    expect(en).toBe(
      'R-ABC12345: nothing put back, everything changed since: 5.6.7.8 (now not listed), 9.9.9.9 (now listed)',
    );
    expect(fa).toContain('⁨5.6.7.8⁩ (اکنون بیرون از لیست)، ⁨9.9.9.9⁩ (اکنون در لیست)');
  });

  it('an Extend moves the end of the window: the change and the Extend are named, in both languages', () => {
    const { en, fa } = both(
      event({
        type: 'window-changed',
        outcome: box('waiting', { extendedBy: 'R-EXT00001', from: '2026-11-21T12:30:00.000Z' }),
      }),
    );
    expect(en).toMatch(/^R-ABC12345 now goes back at .+: extended by R-EXT00001$/);
    expect(fa).toContain('⁨R-EXT00001⁩ آن را تمدید کرد');
  });

  it('a time-boxed change records what it replaces before it is sent: what goes back at its end, in both languages', () => {
    const undo = { kind: 'protection', rows: [{ field: 'preventZoom', before: false, after: true }] };
    const { en, fa } = both(
      event({ type: 'window-changed', outcome: box('waiting', { recorded: ['preventZoom'], undo }) }),
    );
    expect(en).toBe(
      'R-ABC12345 recorded what it replaces, read just before it was sent: at its end it puts back preventZoom',
    );
    expect(fa).toContain('در پایان ⁨preventZoom⁩ را برمی‌گرداند');
  });

  it('a change for good takes a held setting over: the put-back will leave it alone, in both languages', () => {
    const { en, fa } = both(
      event({
        type: 'window-changed',
        outcome: box('waiting', { overriddenBy: 'R-GOOD0001', items: ['opacity'] }),
      }),
    );
    expect(en).toBe('R-ABC12345 will leave opacity alone when it goes back: R-GOOD0001 set opacity for good');
    expect(fa).toContain('⁨R-GOOD0001⁩');
  });

  it('an Extend recorded before one holder per setting still reads as what happened', () => {
    const { en } = both(
      event({
        type: 'revert-conflict',
        outcome: box('left', {
          handedTo: 'R-EXT00001',
          conflicts: [{ item: 'preventZoom', now: null, heldBy: 'R-EXT00001' }],
        }),
      }),
    );
    expect(en).toBe('R-ABC12345: nothing put back; preventZoom left to R-EXT00001, which holds it');
  });

  it('the reminder and the escalation read in Persian with the Solar Hijri date in Tehran time', () => {
    expect(both(event({ type: 'put-back-reminded', outcome: box('waiting') })).fa).toBe(
      '⁨R-ABC12345⁩ در ⁨۳۰ آبان ۱۴۰۵ ساعت ۱۹:۳۵⁩ برمی‌گردد: به درخواست‌دهنده‌اش یادآوری شد',
    );
    const escalated = both(
      event({
        type: 'put-back-escalated',
        outcome: box('retrying', { lastError: { name: 'ServerError', message: 'down' } }),
      }),
    );
    expect(escalated.en).toBe(
      'Putting R-ABC12345 back has failed for an hour; the leads are told; error: ServerError: down',
    );
    expect(escalated.fa).toContain('یک ساعت است که ناموفق مانده است؛ به سرپرستان خبر داده شد');
  });

  it('a put-back request given up as Superseded says it was not sent, and names itself', () => {
    const line = auditTerminalLine(
      event({
        type: 'failed',
        operation: 'whitelist.set',
        target: 'whitelist',
        requestId: 'R-PB000002',
        error: SUPERSEDED,
      }),
    );
    expect(line).toBe(
      'Could not update the whitelist: Not sent: another vidops process took this put-back over while this one was stalled. Nothing was changed by this one · R-PB000002',
    );
  });

  it('a put-back that waited 20 s for the whitelist lease says nothing was sent and when it tries again', () => {
    const line = auditTerminalLine(
      event({
        type: 'put-back-retrying',
        operation: 'whitelist.set',
        target: 'whitelist',
        outcome: box('retrying', { nextAt: '2026-11-21T16:06:00.000Z', lastError: BUSY }),
      }),
    );
    expect(line).toContain('Not sent: another change of the same list was being sent for 20 s');
    expect(line).toContain(
      'Nothing was changed by this one; it can be tried again in a minute; retrying at 2026-11-21 16:06 UTC',
    );
  });

  // Was a defect: a not-sent Revert's `failed` line is cut at 200 characters (AUDIT_LINE_LIMITS.error),
  // so "Nothing was changed" — the sentence compliance needs — never reaches the audit channel or
  // `audit tail`. src/views/audit-post.ts:60 (error: 200) applied by errorText (audit-post.ts:350).
  test('compliance reads a Revert that was not sent: the line says nothing was changed', () => {
    const line = auditTerminalLine(
      event({ type: 'failed', requestId: 'R-REV00001', error: REVERT_NOT_SENT }),
    );
    expect(line).toContain('R-REV00001 was not sent');
    expect(line).toContain('Nothing was changed');
  });

  // Holds: a not-sent Extend's sentence is short enough that "Nothing was changed" survives the cut.
  test('compliance reads an Extend that was not sent: the line says nothing was changed', () => {
    const line = auditTerminalLine(
      event({ type: 'failed', requestId: 'R-EXT00001', error: EXTEND_NOT_SENT }),
    );
    expect(line).toContain('R-EXT00001 was not sent');
    expect(line).toContain('Nothing was changed');
  });

  // Was a defect: the not-sent sentence has a Persian wording (say.revertStale, src/i18n/messages/errors.ts:403)
  // but the failure is recorded as a bare {name, message} (recordError, src/services/execute.ts:223),
  // so a Persian audit channel reads "… انجام نشد: InputError: R-… was not sent: …" in English.
  test('a Persian audit channel reads a Revert that was not sent in Persian', () => {
    const fa = auditTerminalLine(
      event({ type: 'failed', requestId: 'R-REV00001', error: REVERT_NOT_SENT }),
      PERSIAN,
    );
    expect(sayIn(PERSIAN, say.revertStale('R-REV00001', 'R-ABC12345'))).toContain('فرستاده نشد');
    expect(fa).toContain('فرستاده نشد');
    expect(fa).not.toContain('was not sent');
  });
});

describe('Block Kit limits with long lists, in both languages', () => {
  const ips = Array.from(
    { length: 50 },
    (_, i) => `2001:db8:85a3:1234:5678:8a2e:370:${(i + 1).toString(16)}`,
  );
  const whitelist = {
    operation: 'whitelist.set',
    target: 'whitelist',
    params: { allowedDNS: [], expectBefore: ips },
  };

  it.each([
    ['English', ENGLISH, ' and 40 more'],
    ['Persian', PERSIAN, ' و ۴۰ مورد دیگر'],
  ])(
    'a put-back of 50 addresses and 50 conflicts in one audit post fits (%s), naming ten and counting the rest',
    (_n, lang, more) => {
      const events = [
        event({
          seq: 1,
          ...whitelist,
          type: 'reverting',
          outcome: box('running', { putBack: 'R-DEF67890', goesBack: ips }),
        }),
        event({
          seq: 2,
          ...whitelist,
          type: 'revert-conflict',
          outcome: box('left', { conflicts: ips.map((item) => ({ item, now: item, heldBy: null })) }),
        }),
      ];
      const post = renderAuditPost(events, lang);
      expect(checkBlockKitLimits(post, 'message')).toEqual([]);
      expect(auditLine(events[0] as AuditEvent, 1, lang)).toContain(more);
      expect(auditLine(events[1] as AuditEvent, 1, lang)).toContain(more);
      expect(JSON.stringify(post.blocks)).not.toContain(ips[10]);
    },
  );

  it.each([
    ['English', ENGLISH],
    ['Persian', PERSIAN],
  ])(
    'the reminder DM of a 50-address whitelist change keeps its request ID and its buttons (%s)',
    (_n, lang) => {
      const change = requestWith({
        id: 'R-WL50ADDR',
        operation: 'whitelist.set',
        params: { allowedDNS: ips, expectBefore: [] },
        target: 'whitelist',
        preview: { kind: 'whitelist', before: [], after: ips, added: ips, removed: [] },
        state: 'succeeded',
        updatedAt: '2026-11-21T10:30:00.000Z',
        timeBox: {
          ...newTimeBox({ kind: 'for', ms: 7_200_000, text: '2h' }),
          endsAt: '2026-11-21T12:30:00.000Z',
        },
        undo: { kind: 'whitelist', added: ips, removed: [] },
      });
      const message = putBackReminderMessage(change, new Date('2026-11-21T12:20:00.000Z'), lang);
      expect(checkBlockKitLimits(message, 'message')).toEqual([]);
      expect(JSON.stringify(message.blocks[0])).toContain('R-WL50ADDR');
      expect(JSON.stringify(message.blocks)).toContain(`"action_id":"${ACTIONS.putBackNow}"`);
      expect(JSON.stringify(message.blocks)).toContain(`"action_id":"${ACTIONS.extend}"`);
    },
  );
});

describe('the approval message and the requester’s DM of a Revert that was not sent', () => {
  function notSentRevert(): OperationRequest {
    return requestWith({
      id: 'R-REV00001',
      operation: 'protect.set',
      params: { changes: { preventZoom: false } },
      target: 'protection settings',
      preview: { kind: 'protection', rows: [{ field: 'preventZoom', before: true, after: false }] },
      state: 'failed',
      approvals: [{ by: { id: 'U0LEAD1', name: 'Lena' }, at: '2026-11-21T10:30:00.000Z' }],
      updatedAt: '2026-11-21T10:30:00.000Z',
      revertOf: { id: 'R-ABC12345', kind: 'revert' },
      error: REVERT_NOT_SENT,
    });
  }

  it('the English approval message says it was not sent and why, and offers no button', () => {
    const message = approvalMessage(notSentRevert(), VIEW_NOW, ENGLISH);
    const all = read(message);
    expect(all).toContain('R-REV00001 was not sent');
    expect(all).toContain('ask for a new Revert of R-ABC12345');
    expect(all).not.toContain('Its answer was lost');
    expect(all).not.toContain('"type":"actions"');
  });

  // Was a defect: the requester's notification (its `text`, what a phone shows) and its first line say
  // "was approved but failed", the approval message's header "approved, but it failed": a Revert that
  // was never sent reads as sent and failed. src/views/approval.ts:701 (requesterNotice, t.apprTellFailed)
  // and the failed header; they do not look at a not-sent failure.
  test('the requester’s notification says the Revert was not sent, not that it failed', () => {
    const notice = requesterNotice(notSentRevert(), ENGLISH);
    expect(notice?.text).toContain('not sent');
    expect(notice?.text).not.toContain('failed');
  });

  // Was a defect: in Persian the reason is the English sentence (recordError keeps no `said`),
  // though say.revertStale has a Persian wording (src/i18n/messages/errors.ts:403).
  test('a Persian requester reads why the Revert was not sent in Persian', () => {
    const notice = requesterNotice(notSentRevert(), PERSIAN);
    const all = read(notice as SlackMessage);
    expect(all).toContain('فرستاده نشد');
    expect(all).not.toContain('was not sent');
  });

  // Was a defect: App Home and the approval message of a change whose put-back is retried show
  // the Busy error in English to a Persian reader (timeBoxLines, src/views/put-back.ts).
  test('a Persian agent reads on App Home why the put-back is retried, in Persian', () => {
    const change = requestWith({
      id: 'R-ABC12345',
      operation: 'protect.set',
      params: { changes: { preventZoom: true } },
      target: 'protection settings',
      preview: { kind: 'protection', rows: [{ field: 'preventZoom', before: false, after: true }] },
      state: 'succeeded',
      updatedAt: '2026-11-21T10:30:00.000Z',
      timeBox: {
        ...newTimeBox({ kind: 'for', ms: 7_200_000, text: '2h' }),
        endsAt: '2026-11-21T12:30:00.000Z',
        state: 'retrying',
        nextAt: '2026-11-21T12:31:00.000Z',
        lastError: BUSY,
      },
      undo: { kind: 'protection', rows: [{ field: 'preventZoom', before: false, after: true }] },
    });
    const lines = timeBoxLines(change, new Date('2026-11-21T12:30:30.000Z'), PERSIAN).join('\n');
    expect(lines).not.toBe('');
    expect(lines).not.toContain('another change of the same list');
  });
});
