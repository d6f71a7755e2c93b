import { REQUEST_T0, requestWith } from '../../test/fixtures/requests.js';
import type { ProtectionConfig } from '../client/types.js';
import type { Delegation } from '../core/delegation.js';
import type { AuditEvent, OperationRequest } from '../core/model.js';
import { PLAYER_ERROR_CODES } from '../core/player-errors.js';
import { ENGLISH, FSI, type Lang, langFor, PDI } from '../i18n/index.js';
import { auditLine, auditTerminalLine, renderAuditPost, renderCheckpointPost } from './audit-post.js';
import { explainMessage } from './everyday.js';
import { type HomeModel, homeNotAllowedView, homeView } from './home.js';
import { checkBlockKitLimits } from './limits.js';
import { playerErrorText } from './player-error-text.js';

/**
 * Golden snapshots of the audit channel's sentences (every event kind), its posts, the App Home
 * (agent, lead, delegate, unreviewed break-glass) and `explain`, in English and in Persian.
 * A reader checks the Persian once; a changed word then shows up here.
 */

const FA = langFor('fa');
const LANGS: readonly [string, Lang][] = [
  ['English', ENGLISH],
  ['Persian', FA],
];
const T0 = REQUEST_T0;
const REQ = 'R-7K2M9QXA';

function event(seq: number, overrides: Partial<AuditEvent>): AuditEvent {
  return {
    id: `e${seq}`,
    type: 'succeeded',
    at: '2026-11-21T10:30:00.000Z',
    actor: { id: 'U0AGENT1', name: 'سارا' },
    operation: 'viewer.unblock',
    target: 'viewer 09123456789',
    params: { mobileNumber: '09123456789' },
    requestId: REQ,
    outcome: null,
    error: null,
    seq,
    prevHash: String(seq - 1).padStart(64, '0'),
    hash: `${String(seq).padStart(4, '0')}abcdef${'9'.repeat(54)}`,
    ...overrides,
  };
}

const lead = { id: 'U0LEAD1', name: 'Lena' };
const system = { id: 'system', name: 'vidops' };

/** A time-boxed protection change (issue 23): asked for, put back, left alone, retried. */
const PROTECT = {
  operation: 'protect.set',
  target: 'protection settings',
  params: { changes: { preventZoom: false, opacity: 0.5 } },
} as const;
const BOX = { state: 'running', endsAt: '2026-11-21T12:30:00.000Z', putBack: 'R-PUTBACK1', conflicts: [] };

const TIME_BOXED: readonly AuditEvent[] = [
  event(29, {
    ...PROTECT,
    type: 'requested',
    outcome: {
      reason: 'customer records a demo',
      quorum: 1,
      expiresAt: '2026-11-22T10:30:00.000Z',
      preview: { kind: 'protection', rows: [{ field: 'preventZoom', before: true, after: false }] },
      timeBox: { kind: 'for', ms: 7_200_000, text: '2h' },
    },
  }),
  event(30, {
    ...PROTECT,
    type: 'requested',
    actor: system,
    requestId: 'R-PUTBACK1',
    outcome: { state: 'executing', reason: null, quorum: 0, revertOf: { id: REQ, kind: 'put-back' } },
  }),
  event(31, {
    ...PROTECT,
    type: 'reverting',
    actor: system,
    outcome: { ...BOX, goesBack: ['preventZoom', 'opacity'] },
  }),
  event(32, {
    ...PROTECT,
    type: 'reverting',
    actor: lead,
    outcome: { ...BOX, goesBack: ['preventZoom', 'opacity'] },
  }),
  event(33, {
    ...PROTECT,
    type: 'reverted',
    actor: system,
    outcome: { ...BOX, state: 'done', conflicts: [{ item: 'opacity', now: 0.45, heldBy: null }] },
  }),
  event(34, {
    ...PROTECT,
    type: 'revert-conflict',
    actor: system,
    outcome: {
      ...BOX,
      state: 'left',
      putBack: null,
      conflicts: [
        { item: 'opacity', now: 0.45, heldBy: null },
        { item: 'preventZoom', now: false, heldBy: null },
      ],
    },
  }),
  event(35, {
    ...PROTECT,
    type: 'window-changed',
    actor: lead,
    outcome: { ...BOX, extendedBy: 'R-EXTEND01', from: '2026-11-21T11:30:00.000Z' },
  }),
  event(36, {
    ...PROTECT,
    type: 'put-back-retrying',
    actor: system,
    outcome: { ...BOX, state: 'retrying', putBack: null, nextAt: '2026-11-21T12:32:00.000Z' },
    error: { name: 'ServerError', status: 503, message: 'maintenance' },
  }),
  event(37, { ...PROTECT, type: 'put-back-reminded', actor: system, outcome: { ...BOX, state: 'waiting' } }),
  event(38, {
    ...PROTECT,
    type: 'put-back-escalated',
    actor: system,
    outcome: { ...BOX, state: 'retrying' },
  }),
  event(39, {
    operation: 'whitelist.set',
    target: 'whitelist',
    params: { allowedDNS: ['1.2.3.4'], expectBefore: ['1.2.3.4', '5.6.7.8'] },
    type: 'requested',
    actor: lead,
    requestId: 'R-REVERT01',
    outcome: {
      reason: 'the partner test is over',
      quorum: 1,
      preview: {
        kind: 'whitelist',
        before: ['1.2.3.4', '5.6.7.8'],
        after: ['1.2.3.4'],
        added: [],
        removed: ['5.6.7.8'],
      },
      timeBox: { kind: 'until', at: '2026-11-28T14:30:00.000Z', text: '1405/09/07T18:00' },
      revertOf: { id: 'R-OLDWL001', kind: 'revert' },
    },
  }),
];

/** One event of every kind the log holds, with the members each sentence reads. */
const EVERY_KIND: readonly AuditEvent[] = [
  event(1, {
    type: 'requested',
    operation: 'folder.delete',
    target: 'folder 6710c0000000000000000101',
    outcome: {
      reason: 'duplicate of the spring course',
      quorum: 1,
      expiresAt: '2026-11-22T10:30:00.000Z',
      preview: {
        kind: 'delete',
        resource: 'folder',
        id: '6710c0000000000000000101',
        title: 'دوره‌ی بهار',
        filesCount: 3,
      },
    },
  }),
  event(2, { type: 'requested', outcome: { reason: 'viewer called support', quorum: 0 } }),
  event(3, { type: 'approved', actor: lead, outcome: { approvals: 1, quorum: 2 } }),
  event(4, {
    type: 'approved',
    actor: { id: 'U0AGENT2', name: 'ben' },
    outcome: { approvals: 1, quorum: 1, for: { id: 'U0LEAD1', name: 'lena' } },
  }),
  event(5, { type: 'rejected', actor: lead, outcome: { note: 'call 09121112233 first' } }),
  event(6, { type: 'cancelled', outcome: null }),
  event(7, { type: 'expired', actor: system, outcome: { approvals: 0, quorum: 1 } }),
  event(8, { type: 'executing', actor: system, outcome: null }),
  event(9, { type: 'executing', actor: system, outcome: { resumed: true } }),
  event(10, { type: 'succeeded', outcome: 'unblocked' }),
  event(11, {
    type: 'succeeded',
    operation: 'folder.delete',
    target: 'folder 6710c0000000000000000101',
    outcome: { deletedFiles: 3 },
  }),
  event(12, {
    type: 'succeeded',
    operation: 'whitelist.set',
    target: 'whitelist',
    outcome: { allowedDNS: ['10.0.0.1', '10.0.0.2'] },
  }),
  event(13, {
    type: 'failed',
    error: { name: 'UpstreamError', status: 502, message: 'Bad gateway' },
  }),
  event(14, {
    type: 'denied',
    outcome: { action: 'approve', reason: 'you cannot approve your own request' },
  }),
  event(15, { type: 'unknown', actor: system, outcome: null }),
  event(16, { type: 'resolved', actor: lead, outcome: { how: 'applied', note: 'checked on the panel' } }),
  event(17, { type: 'reminded', actor: system, outcome: { auto: true, approvals: 1, quorum: 2 } }),
  event(18, { type: 'escalated', actor: system, outcome: { to: ['U0BOSS'], approvals: 0, quorum: 1 } }),
  event(19, {
    type: 'expiry-warned',
    actor: system,
    outcome: { expiresAt: '2026-11-21T11:30:00.000Z', approvals: 0, quorum: 1 },
  }),
  event(20, {
    type: 'break-glass',
    outcome: { reason: 'live class in 5 minutes', reviewDueAt: '2026-11-22T10:30:00.000Z' },
  }),
  event(21, { type: 'executing', actor: system, outcome: { breakGlass: true } }),
  event(22, { type: 'break-glass-reviewed', actor: lead, outcome: { verdict: 'acknowledged' } }),
  event(23, {
    type: 'break-glass-reviewed',
    actor: lead,
    outcome: { verdict: 'flagged', note: 'should have waited' },
  }),
  event(24, { type: 'break-glass-overdue', actor: system, outcome: null }),
  event(25, {
    type: 'delegated',
    actor: lead,
    operation: 'delegate',
    target: 'delegation',
    requestId: null,
    params: { delegate: { id: 'U0AGENT2', name: 'ben' }, until: '2026-11-23T10:30:00.000Z' },
    outcome: { reason: 'on leave' },
  }),
  event(26, {
    type: 'delegation-cancelled',
    actor: lead,
    operation: 'delegate',
    target: 'delegation',
    requestId: null,
    params: { delegate: { id: 'U0AGENT2', name: 'ben' }, until: '2026-11-23T10:30:00.000Z' },
  }),
  event(27, {
    type: 'delegation-expired',
    actor: system,
    operation: 'delegate',
    target: 'delegation',
    requestId: null,
    params: {
      lead: { id: 'U0LEAD1', name: 'lena' },
      delegate: { id: 'U0AGENT2', name: 'ben' },
      until: '2026-11-23T10:30:00.000Z',
    },
  }),
  event(28, {
    type: 'denied',
    actor: { id: 'U0LEAD1', name: 'U0LEAD1', via: { kind: 'cli', osUser: 'root' } } as AuditEvent['actor'],
    outcome: { action: 'review', reason: 'you broke the glass yourself' },
  }),
  ...TIME_BOXED,
];

function homeRequest(id: string, overrides: Partial<OperationRequest> = {}): OperationRequest {
  return requestWith({
    id,
    operation: 'folder.delete',
    target: 'folder 6710c0000000000000000101',
    params: { bucketId: '6710c0000000000000000101' },
    preview: {
      kind: 'delete',
      resource: 'folder',
      id: '6710c0000000000000000101',
      title: 'دوره‌ی بهار',
      filesCount: 3,
    },
    requester: { id: 'U0AGENT1', name: 'سارا' },
    ...overrides,
  });
}

function delegation(overrides: Partial<Delegation> = {}): Delegation {
  return {
    id: 'd1',
    lead: { id: 'U0LEAD1', name: 'lena' },
    delegate: { id: 'U0AGENT2', name: 'ben' },
    reason: null,
    createdAt: T0,
    until: '2026-11-23T10:30:00.000Z',
    endedAt: null,
    endedBy: null,
    ending: null,
    ...overrides,
  };
}

const PROTECTION: ProtectionConfig = {
  opacity: 0.6,
  fontColor: '#ffff00',
  player: { offlineMode: true },
  link: { expireTime: '2h' },
};

const HOMES: readonly [string, HomeModel][] = [
  [
    'an agent with an open and a finished request and their own activity',
    {
      userId: 'U0AGENT1',
      isLead: false,
      overview: {
        awaitingMe: [],
        mine: [homeRequest('R-00000001'), homeRequest('R-00000002', { state: 'succeeded' })],
      },
      protection: PROTECTION,
      audit: { scope: 'mine', events: EVERY_KIND.slice(0, 2) },
      builtAt: T0,
      breakGlassOffered: new Set(['R-00000001']),
    },
  ],
  [
    'a lead with a request awaiting them, a delegation given and an unreviewed break-glass',
    {
      userId: 'U0LEAD1',
      isLead: true,
      overview: { awaitingMe: [homeRequest('R-00000003')], mine: [] },
      protection: PROTECTION,
      audit: { scope: 'all', events: EVERY_KIND.slice(18, 24) },
      builtAt: T0,
      delegations: { given: delegation(), received: [] },
      breakGlass: [
        homeRequest('R-00000004', {
          state: 'succeeded',
          breakGlass: {
            by: { id: 'U0AGENT1', name: 'سارا' },
            at: T0,
            reason: 'live class',
            reviewDueAt: '2026-11-22T10:30:00.000Z',
            overdueAt: '2026-11-22T10:31:00.000Z',
            review: null,
          },
        }),
      ],
    },
  ],
  [
    'a delegate who approves for a lead, with the settings unreadable',
    {
      userId: 'U0AGENT2',
      isLead: false,
      overview: { awaitingMe: [homeRequest('R-00000005')], mine: [] },
      protection: { error: 'The video service did not answer within 2 s.' },
      audit: { scope: 'mine', events: [] },
      builtAt: T0,
      delegations: { given: null, received: [delegation()] },
    },
  ],
];

describe.each(LANGS)('the audit channel in %s', (_name, lang) => {
  it.each(EVERY_KIND.map((e) => [`#${e.seq} ${e.type}`, e] as const))('%s', (_what, e) => {
    expect({ slack: auditLine(e, 1, lang), terminal: auditTerminalLine(e, lang) }).toMatchSnapshot();
  });

  it('a post of every kind and a checkpoint', () => {
    const post = renderAuditPost(EVERY_KIND, lang);
    expect(post).toMatchSnapshot();
    expect(checkBlockKitLimits(post, 'message')).toEqual([]);
    expect(
      renderCheckpointPost({ size: 28, head: 'f'.repeat(64), note: 'vidops/test\n28\nabc=\n' }, lang),
    ).toMatchSnapshot();
  });

  it('numbers stay masked and the seq and hash stay Latin', () => {
    const all = JSON.stringify(renderAuditPost(EVERY_KIND, lang));
    expect(all).not.toContain('09123456789');
    expect(all).not.toContain('09121112233');
    expect(all).toContain('0001abcdef99');
  });
});

describe.each(LANGS)('the App Home in %s', (_name, lang) => {
  it.each(HOMES)('%s', (_what, model) => {
    const view = homeView(model, lang);
    expect(checkBlockKitLimits({ view }, 'home')).toEqual([]);
    expect(view).toMatchSnapshot();
  });

  it('someone outside AGENTS', () => {
    expect(homeNotAllowedView(lang)).toMatchSnapshot();
  });
});

describe.each(LANGS)('explain in %s', (_name, lang) => {
  it.each(PLAYER_ERROR_CODES.map((e) => [e.codes, e] as const))('%s', (_codes, entry) => {
    const message = explainMessage(
      { code: String(entry.from), meaning: entry.meaning, fix: entry.fix, action: entry.action },
      lang,
    );
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    expect(message).toMatchSnapshot();
  });
});

describe('the catalog of player errors', () => {
  it('says in English exactly what the core table says, and has Persian for every code', () => {
    for (const entry of PLAYER_ERROR_CODES) {
      const english = ENGLISH.t.player;
      const key = `playerError${entry.from}` as const;
      expect(english[`${key}Meaning` as keyof typeof english]).toBe(entry.meaning);
      expect(english[`${key}Fix` as keyof typeof english]).toBe(entry.fix);
      const persian = playerErrorText(entry, FA);
      expect(persian.meaning).not.toBe(entry.meaning);
      expect(persian.fix).not.toBe(entry.fix);
    }
  });
});

describe('Persian audit sentences', () => {
  it('say what a put-back did and left alone, with IDs isolated and values and dates as Persian readers read them', () => {
    const [asked, , putting, now, back, left, handed, retrying, reminded] = TIME_BOXED.map((e) =>
      auditTerminalLine(e, FA),
    );
    expect(asked).toContain(`به مدت ${FSI}۲ ساعت${PDI}`);
    expect(putting).toBe(
      `vidops دارد ${FSI}${REQ}${PDI} را با ${FSI}R-PUTBACK1${PDI} برمی‌گرداند (آنچه برمی‌گردد: ${FSI}preventZoom${PDI}، ${FSI}opacity${PDI})`,
    );
    expect(now).toContain(`همین حالا ${FSI}${REQ}${PDI} را با ${FSI}R-PUTBACK1${PDI} برگرداند`);
    expect(back).toContain(`${FSI}opacity${PDI} (اکنون ${FSI}0.45${PDI})`);
    expect(left).toContain(`${FSI}preventZoom${PDI} (اکنون ${FSI}خاموش${PDI})`);
    expect(handed).toContain(`${FSI}R-EXTEND01${PDI} آن را تمدید کرد`);
    expect(retrying).toContain('دوباره تلاش می‌شود');
    for (const said of [retrying, reminded]) {
      expect(said).toContain('۱۴۰۵');
      expect(said).not.toContain('2026-11-21');
    }
  });

  it('mark break-glass visibly, isolate IDs and write Solar Hijri dates', () => {
    const said = auditTerminalLine(EVERY_KIND[19] as AuditEvent, FA);
    expect(said).toContain('🚨');
    expect(said).toContain(`${FSI}BREAK-GLASS${PDI}`);
    expect(said).toContain(`${FSI}${REQ}${PDI}`);
    expect(said).toContain('۱۴۰۵');
    expect(said).not.toContain('2026-11-22');
  });
});
