import { createHash } from 'node:crypto';
import type { AuditEvent } from '../core/model.js';
import { langFor } from '../i18n/index.js';
import {
  AUDIT_LINE_LIMITS,
  auditLine,
  auditSentence,
  auditTerminalLine,
  renderAuditPost,
} from './audit-post.js';
import { checkBlockKitLimits } from './limits.js';

function hashOf(n: number): string {
  return createHash('sha256').update(`event ${n}`).digest('hex');
}

function auditEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  const seq = overrides.seq ?? 1;
  return {
    id: `0b7c6a8e-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    type: 'succeeded',
    at: '2024-05-01T10:22:03.123Z',
    actor: { id: 'U0AGENT01', name: 'Sara Ahmadi' },
    operation: 'viewer.unblock',
    target: '09123456789',
    params: { mobile: '09123456789' },
    requestId: '5f0e3d4c-1111-4222-8333-444455556666',
    outcome: 'unblocked',
    error: null,
    prevHash: hashOf(seq - 1),
    hash: hashOf(seq),
    ...overrides,
    seq,
  };
}

function allText(post: { text: string; blocks: readonly unknown[] }): string {
  return `${post.text}\n${JSON.stringify(post.blocks)}`;
}

describe('audit channel post', () => {
  it('shows seq, time, the sentence, the request ID and the short hash', () => {
    const event = auditEvent({ seq: 42, target: 'viewer 09123456789' });
    const line = auditLine(event);
    expect(line).toBe(
      ':white_check_mark: *#42* 2024-05-01 10:22:03Z · Viewer `0912***6789` unblocked · `5f0e3d4c-1111-4222-8333-444455556666` · hash `' +
        `${event.hash.slice(0, 12)}\``,
    );
    expect(line).not.toContain('09123456789');
  });

  it('shows a failure with its error and status', () => {
    const line = auditLine(
      auditEvent({
        type: 'failed',
        outcome: null,
        error: { name: 'ServerError', message: 'upstream answered 502', status: 502 },
      }),
    );
    expect(line).toContain('Could not unblock');
    expect(line).toContain(': ServerError (502): upstream answered 502');
  });

  it.each([
    ['ASCII digits in the target', { target: '+98 912 345 6789' }, '+98 912 345 6789'],
    ['Persian digits in the target', { target: '۰۹۱۲۳۴۵۶۷۸۹' }, '۰۹۱۲۳۴۵۶۷۸۹'],
    [
      'a number inside a rejection note',
      { type: 'rejected' as const, outcome: { note: 'call the viewer on 0935 111 2233' } },
      '0935 111 2233',
    ],
    [
      'a number inside an error message',
      { error: { name: 'NotFoundError', message: 'no blocked viewer 09351112233' } },
      '09351112233',
    ],
    ['a number as the actor name', { actor: { id: 'cli:ops', name: '09121112233' } }, '09121112233'],
  ])('masks mobiles: %s', (_what, overrides, full) => {
    const post = renderAuditPost([auditEvent(overrides)]);
    const text = allText(post);
    expect(text).not.toContain(full);
    expect(text).toMatch(/\d{4}\*\*\*\d{4}/);
  });

  it('escapes mrkdwn so a name cannot mention a user or the channel', () => {
    const line = auditLine(
      auditEvent({ actor: { id: 'U0AGENT01', name: '<!channel> & <@U999>' }, type: 'approved' }),
    );
    expect(line).toContain('&lt;!channel&gt; &amp; &lt;@U999&gt;');
    expect(line).not.toContain('<!channel>');
  });

  it('cuts long descriptive text but never IDs or hashes', () => {
    const longId = `x${'a'.repeat(200)}`;
    const event = auditEvent({
      type: 'rejected',
      target: `Title of a very long file ${'word '.repeat(100)}`,
      actor: { id: 'U0AGENT01', name: 'N'.repeat(300) },
      outcome: { note: 'o'.repeat(1000) },
      requestId: longId,
    });
    const line = auditLine(event);
    expect(line).toContain(longId);
    expect(line).toContain(event.hash.slice(0, 12));
    expect(line).toContain(`${'N'.repeat(AUDIT_LINE_LIMITS.actorName - 1)}…`);
    expect(line).not.toContain('N'.repeat(AUDIT_LINE_LIMITS.actorName));
    expect(line).toContain(`${'o'.repeat(AUDIT_LINE_LIMITS.reason - 1)}…`);
    expect(line.length).toBeLessThan(1000);
  });

  it('keeps an ID-like target whole', () => {
    const fileId = '65a1b2c3d4e5f60718293a4b';
    expect(auditLine(auditEvent({ operation: 'file.delete', target: fileId }))).toContain(`\`${fileId}\``);
  });

  it('puts a batch of 20 worst-case events in one message within Block Kit limits', () => {
    const events = Array.from({ length: 20 }, (_, i) =>
      auditEvent({
        seq: 100 + i,
        type: i % 2 === 0 ? 'failed' : 'requested',
        target: `A long descriptive target ${'t'.repeat(300)}`,
        actor: { id: 'W0LEAD0001', name: 'L'.repeat(200) },
        outcome: { detail: 'd'.repeat(500) },
        error: { name: 'ValidationError', message: 'm'.repeat(500), status: 422 },
      }),
    );
    const post = renderAuditPost(events);
    expect(checkBlockKitLimits(post, 'message')).toEqual([]);
    const blocksText = JSON.stringify(post.blocks);
    for (const e of events) expect(blocksText).toContain(e.hash.slice(0, 12));
    expect(post.blocks[0]).toMatchObject({ type: 'context' });
    expect(JSON.stringify(post.blocks[0])).toContain('#100–#119');
    expect(post.blocks.length).toBeGreaterThan(2);
  });

  it('gives a text fallback naming the range and each event', () => {
    const post = renderAuditPost([
      auditEvent({ seq: 7 }),
      auditEvent({ seq: 8, type: 'approved', outcome: { approvals: 1, quorum: 1 } }),
    ]);
    expect(post.text.split('\n')[0]).toBe('vidops audit #7–#8 (2 events)');
    expect(post.text).toContain(
      '#8 Sara Ahmadi (U0AGENT01) approved 5f0e3d4c-1111-4222-8333-444455556666 (1 of 1) · hash',
    );
  });

  it('keeps the text fallback short for a large batch', () => {
    const events = Array.from({ length: 60 }, (_, i) => auditEvent({ seq: i + 1, target: 'z'.repeat(200) }));
    const post = renderAuditPost(events);
    expect(post.text.length).toBeLessThan(3100);
    expect(post.text).toMatch(/… and \d+ more$/);
  });
});

describe('each kind of event reads as one sentence', () => {
  const folder = '6710a0000000000000000103';
  const deleteFolder = {
    operation: 'folder.delete',
    target: `folder ${folder}`,
    params: { bucketId: folder },
    requestId: 'R-9NDD344Y',
  };
  const lead = { id: 'U0LEAD1', name: 'lena' };
  const system = { id: 'system', name: 'vidops' };

  it.each<[string, Partial<AuditEvent>, string]>([
    [
      'requested',
      {
        type: 'requested',
        actor: { id: 'U0AGENT1', name: 'ana' },
        outcome: {
          state: 'pending',
          reason: 'course ended',
          quorum: 1,
          expiresAt: '2026-11-22T14:05:28.416Z',
          why: 'policy',
          paramsHash: 'ab'.repeat(32),
          preview: { kind: 'delete', resource: 'folder', id: folder, title: 'Old course', filesCount: 3 },
        },
      },
      `ana (U0AGENT1) asked to delete folder ${folder} (“Old course”, 3 files), reason: “course ended”, needs 1 lead approval, expires 2026-11-22 14:05 UTC · R-9NDD344Y`,
    ],
    [
      'requested, running at once',
      {
        type: 'requested',
        operation: 'viewer.unblock',
        target: 'viewer 09123456789',
        outcome: { state: 'executing', reason: null, quorum: 0, expiresAt: null, why: null, preview: null },
      },
      'Sara Ahmadi (U0AGENT01) asked to unblock viewer 0912***6789, no reason given, runs without approval · R-9NDD344Y',
    ],
    [
      'approved',
      { type: 'approved', actor: lead, outcome: { approvals: 1, quorum: 1 } },
      'lena (U0LEAD1) approved R-9NDD344Y (1 of 1)',
    ],
    [
      'rejected',
      { type: 'rejected', actor: lead, outcome: { note: 'keep it' } },
      'lena (U0LEAD1) rejected R-9NDD344Y: “keep it”',
    ],
    [
      'cancelled',
      { type: 'cancelled', outcome: { note: null } },
      'Sara Ahmadi (U0AGENT01) cancelled R-9NDD344Y',
    ],
    [
      'expired',
      {
        type: 'expired',
        actor: system,
        outcome: { expiresAt: '2026-11-22T14:05:28.416Z', approvals: 0, quorum: 1 },
      },
      'R-9NDD344Y expired with 0 of 1 approvals; nothing was changed',
    ],
    [
      'executing',
      { type: 'executing', actor: lead, outcome: null },
      `R-9NDD344Y started: delete folder ${folder}`,
    ],
    [
      'succeeded',
      { type: 'succeeded', actor: system, outcome: { _id: folder, deleted: true, deletedFiles: 3 } },
      `Folder ${folder} deleted (3 files) · R-9NDD344Y`,
    ],
    [
      'failed',
      {
        type: 'failed',
        actor: system,
        outcome: null,
        error: { name: 'ServerError', message: 'upstream 502', status: 502 },
      },
      `Could not delete folder ${folder}: ServerError (502): upstream 502 · R-9NDD344Y`,
    ],
    [
      'denied',
      {
        type: 'denied',
        actor: { id: 'U0OUT', name: 'U0OUT' },
        operation: 'file.retry',
        target: 'file 671018d0403eba579a6f90e2',
        requestId: null,
        outcome: { action: 'command', reason: 'may not run retry' },
      },
      'U0OUT refused: may not run retry (tried to retry the conversion of file 671018d0403eba579a6f90e2)',
    ],
    [
      'unknown',
      {
        type: 'unknown',
        actor: system,
        outcome: { note: 'vidops stopped', since: '2026-11-21T10:00:00.000Z' },
      },
      `Outcome unknown: delete folder ${folder} may or may not have been applied; check the service before asking again · R-9NDD344Y`,
    ],
  ])('%s', (_kind, overrides, said) => {
    const event = auditEvent({ ...deleteFolder, ...overrides });
    expect(auditSentence(event, 'terminal')).toBe(said);
    expect(auditLine(event)).not.toMatch(/[{}]/);
  });

  it('a settled outcome (`resolved`) reads how and the note, and shrugs at a shape it does not know', () => {
    const resolved = (outcome: AuditEvent['outcome']) =>
      auditSentence(
        auditEvent({ ...deleteFolder, type: 'resolved' as AuditEvent['type'], actor: lead, outcome }),
        'terminal',
      );
    expect(resolved({ how: 'applied', note: 'the folder is gone in the panel' })).toBe(
      'lena (U0LEAD1) settled the unknown outcome of R-9NDD344Y: applied, note: “the folder is gone in the panel”',
    );
    expect(resolved({ how: 42, note: ['x'] })).toBe(
      'lena (U0LEAD1) settled the unknown outcome of R-9NDD344Y',
    );
    expect(resolved(null)).toBe('lena (U0LEAD1) settled the unknown outcome of R-9NDD344Y');
  });

  it('an outcome it does not understand is left out, never dumped as JSON', () => {
    const event = auditEvent({
      ...deleteFolder,
      type: 'succeeded',
      outcome: { deep: { nested: ['x'.repeat(500)] } },
    });
    expect(auditLine(event)).not.toContain('nested');
    expect(auditSentence(event, 'terminal')).toBe(`Folder ${folder} deleted · R-9NDD344Y`);
  });

  it('an approval given on the command line says so, with the OS user who ran it', () => {
    const event = auditEvent({
      ...deleteFolder,
      type: 'approved',
      actor: { ...lead, via: { kind: 'cli', osUser: 'root' } },
      outcome: { approvals: 1, quorum: 1 },
    });
    expect(auditTerminalLine(event)).toContain(
      'lena (U0LEAD1) via the CLI (OS user root) approved R-9NDD344Y',
    );
    expect(auditLine(event)).toContain('via the CLI (OS user root)');
    const bare = auditEvent({
      ...deleteFolder,
      type: 'requested',
      actor: { id: 'cli:root', name: 'cli:root', via: { kind: 'cli', osUser: 'root' } },
    });
    expect(auditTerminalLine(bare)).toMatch(/^cli:root on the CLI /);
  });

  it('the terminal line is plain: not escaped, numbers masked, control characters replaced', () => {
    const event = auditEvent({
      ...deleteFolder,
      type: 'rejected',
      actor: lead,
      outcome: { note: 'no <!channel> & call 0912 765 4321 \u001b[31mred' },
    });
    expect(auditTerminalLine(event)).toBe(
      'lena (U0LEAD1) rejected R-9NDD344Y: “no <!channel> & call 0912***4321 �[31mred”',
    );
    // A control character is more than printable ASCII: the note is isolated in Slack.
    expect(auditLine(event)).toContain('“\u2068no &lt;!channel&gt; &amp; call 0912***4321 �[31mred\u2069”');
  });
});

describe('the follow-ups of a waiting request read as sentences', () => {
  const system = { id: 'system', name: 'vidops' };
  it.each<[string, Partial<AuditEvent>, string]>([
    [
      'vidops reminds by itself',
      { type: 'reminded', actor: system, outcome: { auto: true, approvals: 1, quorum: 2 } },
      'vidops reminded the approvers of 5f0e3d4c-1111-4222-8333-444455556666 who have not decided (1 of 2 approvals)',
    ],
    [
      'the requester reminds',
      { type: 'reminded', outcome: { auto: false, approvals: 0, quorum: 1 } },
      'Sara Ahmadi (U0AGENT01) reminded the approvers of 5f0e3d4c-1111-4222-8333-444455556666 who have not decided (0 of 1 approvals)',
    ],
    [
      'the escalation names whom it went to',
      { type: 'escalated', actor: system, outcome: { to: ['S0BACKUP', 'U0BOSS'], approvals: 0, quorum: 1 } },
      '5f0e3d4c-1111-4222-8333-444455556666 was not decided in time and is offered to S0BACKUP, U0BOSS as well (0 of 1 approvals)',
    ],
    [
      'the expiry warning says when',
      {
        type: 'expiry-warned',
        actor: system,
        outcome: { expiresAt: '2024-05-01T11:22:03.123Z', approvals: 1, quorum: 2 },
      },
      '5f0e3d4c-1111-4222-8333-444455556666 expires soon (at 2024-05-01 11:22 UTC): its requester and approvers were warned (1 of 2 approvals)',
    ],
    [
      'a refused Remind',
      { type: 'denied', outcome: { action: 'remind', reason: 'not the requester' } },
      'Sara Ahmadi (U0AGENT01) refused: not the requester (tried to remind the approvers of 5f0e3d4c-1111-4222-8333-444455556666)',
    ],
  ])('%s', (_what, overrides, expected) => {
    expect(auditTerminalLine(auditEvent(overrides))).toBe(expected);
    expect(auditLine(auditEvent(overrides))).toMatch(
      /^:(alarm_clock|arrow_up|hourglass_flowing_sand|no_entry):/,
    );
  });

  it('an escalation whose outcome has no list still reads', () => {
    expect(auditTerminalLine(auditEvent({ type: 'escalated', outcome: null }))).toContain(
      'is offered to the backup approvers as well',
    );
  });
});

describe('the put-back of a time-boxed change, as compliance reads it', () => {
  const system = { id: 'system', name: 'vidops' };
  const lead = { id: 'U0LEAD1', name: 'lena' };
  const change = {
    operation: 'protect.set',
    target: 'protection settings',
    params: { changes: { preventZoom: false, opacity: 0.5, player: { offlineMode: true } } },
    requestId: 'R-ABC12345',
  };
  const whitelist = {
    operation: 'whitelist.set',
    target: 'whitelist',
    params: { allowedDNS: ['1.2.3.4', '5.6.7.8'], expectBefore: ['1.2.3.4', '9.9.9.9'] },
    requestId: 'R-WL000001',
  };
  const box = (state: string, extra: Record<string, AuditEvent['outcome']> = {}) => ({
    state,
    endsAt: '2026-11-21T16:05:00.000Z',
    putBack: null,
    conflicts: [],
    ...extra,
  });
  const line = (overrides: Partial<AuditEvent>) => auditTerminalLine(auditEvent({ ...change, ...overrides }));
  // What a `reverting` event of `change` says goes back, as the sweep writes it.
  const ALL = ['preventZoom', 'opacity', 'player.offlineMode'];

  it.each<[string, Partial<AuditEvent>, string]>([
    [
      'vidops puts a change back by itself, naming what goes back and the request that does it',
      { type: 'reverting', actor: system, outcome: box('running', { putBack: 'R-DEF67890', goesBack: ALL }) },
      'vidops is putting back R-ABC12345 (goes back: preventZoom, opacity, player.offlineMode) with R-DEF67890',
    ],
    [
      'what goes back is what the put-back plans, without what someone changed since',
      {
        type: 'reverting',
        actor: system,
        outcome: box('running', {
          putBack: 'R-DEF67890',
          goesBack: ['preventZoom', 'player.offlineMode'],
          conflicts: [{ item: 'opacity', now: 0.45, heldBy: null }],
        }),
      },
      'vidops is putting back R-ABC12345 (goes back: preventZoom, player.offlineMode) with R-DEF67890',
    ],
    [
      'a lead presses Put back now',
      { type: 'reverting', actor: lead, outcome: box('running', { putBack: 'R-DEF67890', goesBack: ALL }) },
      'lena (U0LEAD1) put back R-ABC12345 now (goes back: preventZoom, opacity, player.offlineMode), with R-DEF67890',
    ],
    [
      'a change put back in full',
      { type: 'reverted', actor: system, outcome: box('done', { putBack: 'R-DEF67890' }) },
      'R-ABC12345 was put back by R-DEF67890',
    ],
    [
      'a change put back, leaving what others changed since with what the service shows now',
      {
        type: 'reverted',
        actor: system,
        outcome: box('done', {
          putBack: 'R-DEF67890',
          conflicts: [
            { item: 'opacity', now: 0.45, heldBy: null },
            { item: 'player.offlineMode', now: null, heldBy: null },
          ],
        }),
      },
      'R-ABC12345 was put back by R-DEF67890; left as others changed them: opacity (now 0.45), player.offlineMode (now not set)',
    ],
    [
      'the conflict event of a change put back in part',
      {
        type: 'revert-conflict',
        actor: system,
        outcome: box('done', {
          putBack: 'R-DEF67890',
          conflicts: [{ item: 'preventZoom', now: true, heldBy: null }],
        }),
      },
      'R-ABC12345 was put back only in part; left as others changed them: preventZoom (now on)',
    ],
    [
      'nothing put back: everything changed since',
      {
        type: 'revert-conflict',
        actor: system,
        outcome: box('left', {
          conflicts: [
            { item: 'preventZoom', now: true, heldBy: null },
            { item: 'opacity', now: 0.45, heldBy: null },
          ],
        }),
      },
      'R-ABC12345: nothing put back, everything changed since: preventZoom (now on), opacity (now 0.45)',
    ],
    [
      'nothing put back: a setting is left to the later change that holds it',
      {
        type: 'revert-conflict',
        actor: system,
        outcome: box('left', {
          conflicts: [
            { item: 'opacity', now: 0.45, heldBy: null },
            { item: 'preventZoom', now: false, heldBy: 'R-XYZ00001' },
          ],
        }),
      },
      'R-ABC12345: nothing put back; left as others changed them: opacity (now 0.45); preventZoom left to R-XYZ00001, which holds it',
    ],
    [
      'nothing put back: everything was back as before already',
      { type: 'revert-conflict', actor: system, outcome: box('left') },
      'R-ABC12345: nothing put back, everything was already as before',
    ],
    [
      'a lead presses Put back now on a change whose old values were never read: nothing put back, and who asked',
      { type: 'revert-conflict', actor: lead, outcome: box('left', { undo: 'unknown' }) },
      'R-ABC12345: nothing put back, the values it replaced are not known (lena (U0LEAD1) asked to put it back now)',
    ],
    [
      'an Extend recorded before one holder per setting',
      {
        type: 'revert-conflict',
        actor: system,
        outcome: box('left', {
          handedTo: 'R-EXT00001',
          conflicts: [
            { item: 'preventZoom', now: null, heldBy: 'R-EXT00001' },
            { item: 'opacity', now: null, heldBy: 'R-EXT00001' },
          ],
        }),
      },
      'R-ABC12345: nothing put back; preventZoom, opacity left to R-EXT00001, which holds them',
    ],
    [
      'a failed attempt names the error and when the next one is',
      {
        type: 'put-back-retrying',
        actor: system,
        outcome: box('retrying', { nextAt: '2026-11-21T16:07:00.000Z' }),
        error: { name: 'ServerError', status: 503, message: 'maintenance' },
      },
      'Putting R-ABC12345 back failed: ServerError (503): maintenance; retrying at 2026-11-21 16:07 UTC',
    ],
    [
      'a failed attempt whose error is kept in the outcome',
      {
        type: 'put-back-retrying',
        actor: system,
        outcome: box('retrying', {
          nextAt: '2026-11-21T16:07:00.000Z',
          lastError: { name: 'TimeoutError', message: 'no answer within 10 s' },
        }),
      },
      'Putting R-ABC12345 back failed: TimeoutError: no answer within 10 s; retrying at 2026-11-21 16:07 UTC',
    ],
    [
      'a failed attempt with neither error nor next time still reads',
      { type: 'put-back-retrying', actor: system, outcome: box('retrying') },
      'Putting R-ABC12345 back failed; vidops will retry',
    ],
    [
      'the requester reminded of the end',
      { type: 'put-back-reminded', actor: system, outcome: box('waiting') },
      'R-ABC12345 goes back at 2026-11-21 16:05 UTC: its requester was reminded',
    ],
    [
      'the leads told of a put-back failing for an hour',
      {
        type: 'put-back-escalated',
        actor: system,
        outcome: box('retrying', { lastError: { name: 'ServerError', message: 'down' } }),
      },
      'Putting R-ABC12345 back has failed for an hour; the leads are told; error: ServerError: down',
    ],
  ])('%s', (_what, overrides, expected) => {
    expect(line(overrides)).toBe(expected);
  });

  it('a whitelist put-back names the addresses that go back and the ones left as others left them', () => {
    expect(
      auditTerminalLine(
        auditEvent({
          ...whitelist,
          type: 'reverting',
          actor: system,
          outcome: box('running', { putBack: 'R-DEF67890', goesBack: ['5.6.7.8', '9.9.9.9'] }),
        }),
      ),
    ).toBe('vidops is putting back R-WL000001 (goes back: 5.6.7.8, 9.9.9.9) with R-DEF67890');
    expect(
      auditTerminalLine(
        auditEvent({
          ...whitelist,
          type: 'revert-conflict',
          actor: system,
          outcome: box('left', {
            conflicts: [
              { item: '5.6.7.8', now: null, heldBy: null },
              { item: '9.9.9.9', now: '9.9.9.9', heldBy: null },
            ],
          }),
        }),
      ),
    ).toBe(
      'R-WL000001: nothing put back, everything changed since: 5.6.7.8 (now not listed), 9.9.9.9 (now listed)',
    );
  });

  it('a long list of addresses is counted, not spelled out', () => {
    const ips = Array.from({ length: 25 }, (_, i) => `10.0.0.${i + 1}`);
    const said = auditTerminalLine(
      auditEvent({
        ...whitelist,
        type: 'revert-conflict',
        actor: system,
        outcome: box('left', { conflicts: ips.map((item) => ({ item, now: null, heldBy: null })) }),
      }),
    );
    expect(said).toContain('10.0.0.10 (now not listed) and 15 more');
    expect(said).not.toContain('10.0.0.11');
  });

  it('in Slack the request IDs are code and each kind has its emoji', () => {
    const emoji: [AuditEvent['type'], string][] = [
      ['reverting', ':rewind:'],
      ['reverted', ':back:'],
      ['revert-conflict', ':warning:'],
      ['put-back-retrying', ':repeat:'],
      ['put-back-reminded', ':bell:'],
      ['put-back-escalated', ':sos:'],
    ];
    for (const [type, mark] of emoji) {
      const shown = auditLine(
        auditEvent({ ...change, type, actor: system, outcome: box('running', { putBack: 'R-DEF67890' }) }),
      );
      expect(shown.startsWith(`${mark} *#1*`)).toBe(true);
      expect(shown).toContain('`R-ABC12345`');
      expect(shown).not.toMatch(/[{}]/);
      expect(shown).not.toContain(type);
    }
  });

  it('hostile text in what a put-back left alone is escaped, isolated, masked and cannot break the line', () => {
    const event = auditEvent({
      ...change,
      type: 'revert-conflict',
      actor: system,
      outcome: box('left', {
        conflicts: [
          { item: 'x`<!channel>`\u202e\n*y*', now: '<@U999> call 09121234567 \u001b[31m', heldBy: null },
          { item: 'opacity', now: 'a\u2066b', heldBy: '<!here>`R-1' },
        ],
      }),
    });
    const slack = auditLine(event);
    expect(slack).not.toContain('<!channel>');
    expect(slack).not.toContain('<@U999>');
    expect(slack).not.toContain('<!here>');
    expect(slack).not.toContain('09121234567');
    for (const control of ['\u202e', '\u2066', '\n', '\u001b']) expect(slack).not.toContain(control);
    // The backticks in an item cannot end its code span early; the item is isolated (it held a
    // bidi control), and so is the value (a control character).
    expect(slack).toContain(
      '\u2068`xˋ&lt;!channel&gt;ˋ *y*`\u2069 (now \u2068&lt;@U999&gt; call 0912***4567 �[31m\u2069)',
    );
    expect(slack).toContain('`opacity` left to `&lt;!here&gt;ˋR-1`, which holds it');
    const terminal = auditTerminalLine(event);
    expect(terminal).toBe(
      'R-ABC12345: nothing put back; left as others changed them: x`<!channel>` *y* (now <@U999> call 0912***4567 �[31m); opacity left to <!here>`R-1, which holds it',
    );
  });

  it('an outcome it does not know still reads as a sentence, never as JSON', () => {
    for (const type of ['reverting', 'reverted', 'revert-conflict', 'put-back-retrying'] as const) {
      const said = auditLine(
        auditEvent({ ...change, type, actor: system, outcome: { conflicts: [{ x: 1 }, 7] } }),
      );
      expect(said).not.toMatch(/[{}]|conflicts/);
      expect(said).toContain('R-ABC12345');
    }
    expect(line({ type: 'revert-conflict', actor: system, outcome: null })).toBe(
      'R-ABC12345: nothing put back, everything was already as before',
    );
  });
});

describe('a time-boxed request and a request that undoes another, as compliance reads them', () => {
  const asked = (outcome: Record<string, AuditEvent['outcome']>, actor = { id: 'U0AGENT1', name: 'ana' }) =>
    auditTerminalLine(
      auditEvent({
        type: 'requested',
        actor,
        operation: 'protect.set',
        target: 'protection settings',
        params: { changes: { preventZoom: false } },
        requestId: 'R-ABC12345',
        outcome: {
          state: 'pending',
          reason: 'customer demo',
          quorum: 1,
          expiresAt: null,
          why: 'policy',
          preview: { kind: 'protection', rows: [{ field: 'preventZoom', before: true, after: false }] },
          ...outcome,
        },
      }),
    );

  it('an agent asks for preventZoom off for 2 hours', () => {
    expect(asked({ timeBox: { kind: 'for', ms: 7_200_000, text: '2h' } })).toBe(
      'ana (U0AGENT1) asked to change the protection settings (preventZoom) for 2 hours, reason: “customer demo”, needs 1 lead approval · R-ABC12345',
    );
  });

  it('an agent asks for an hour and a half: the window is exact, not rounded', () => {
    expect(asked({ timeBox: { kind: 'for', ms: 5_400_000, text: '1h30m' } })).toContain(
      '(preventZoom) for 1 hour and 30 minutes,',
    );
  });

  it('an agent asks until an end: the end as the log shows dates', () => {
    expect(
      asked({ timeBox: { kind: 'until', at: '2026-11-28T14:30:00.000Z', text: '1405/09/07T18:00' } }),
    ).toContain('(preventZoom) until 2026-11-28 14:30 UTC,');
  });

  it('a window it cannot read shows what was typed, cleaned', () => {
    expect(asked({ timeBox: { kind: 'until', at: 'soon', text: 'soon\u202e<!channel>' } })).toContain(
      '(preventZoom) until soon<!channel>,',
    );
    expect(asked({ timeBox: { kind: 'weird' } })).toContain('(preventZoom), reason:');
  });

  it('vidops asks for the put-back of a change, and names it', () => {
    expect(
      asked(
        { state: 'executing', reason: null, quorum: 0, revertOf: { id: 'R-OLD00001', kind: 'put-back' } },
        { id: 'system', name: 'vidops' },
      ),
    ).toBe(
      'vidops asked to change the protection settings (preventZoom) (puts back R-OLD00001), no reason given, runs without approval · R-ABC12345',
    );
  });

  it('a lead asks to revert a change, and it names the change', () => {
    expect(
      asked(
        { reason: 'wrong customer', revertOf: { id: 'R-OLD00001', kind: 'revert' } },
        { id: 'U0LEAD1', name: 'lena' },
      ),
    ).toBe(
      'lena (U0LEAD1) asked to change the protection settings (preventZoom) (reverts R-OLD00001), reason: “wrong customer”, needs 1 lead approval · R-ABC12345',
    );
  });
});

describe('each number of a batch reads as its own sentence in audit tail', () => {
  const step = (state: string, error: AuditEvent['error'] = null) =>
    auditEvent({
      type: 'step',
      operation: 'viewer.unblock-many',
      target: 'viewer 09121234567',
      params: { mobileNumber: '09121234567', index: 2 },
      requestId: 'R-9NDD344Y',
      outcome: { state },
      error,
    });

  it('a number done, failed or with its answer lost, masked, with its place in the list', () => {
    expect(auditSentence(step('done'), 'terminal')).toBe(
      'Number 3 of R-9NDD344Y: viewer 0912***4567 unblocked',
    );
    const failed = step('failed', { name: 'ValidationError', message: 'not blocked', status: 422 });
    expect(auditSentence(failed, 'terminal')).toBe(
      'Number 3 of R-9NDD344Y: could not unblock viewer 0912***4567; error: ValidationError (422): not blocked',
    );
    expect(auditSentence(step('unknown'), 'terminal')).toContain(
      'whether viewer 0912***4567 was unblocked is not known',
    );
  });

  it('a compliance officer reads it in Persian, with Persian digits', () => {
    expect(auditSentence(step('done'), 'terminal', 1, langFor('fa'))).toContain('شماره‌ی ۳ از');
  });
});
