import { createHash } from 'node:crypto';
import type { AuditEvent } from '../core/model.js';
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
