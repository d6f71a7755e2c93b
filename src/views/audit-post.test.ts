import { createHash } from 'node:crypto';
import type { AuditEvent } from '../core/model.js';
import { AUDIT_LINE_LIMITS, auditLine, renderAuditPost } from './audit-post.js';
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
  it('shows time, actor, operation, masked target, type, outcome, request ID and short hash', () => {
    const event = auditEvent({ seq: 42 });
    const line = auditLine(event);
    expect(line).toContain('*#42*');
    expect(line).toContain('2024-05-01 10:22:03Z');
    expect(line).toContain('*succeeded*');
    expect(line).toContain('`viewer.unblock`');
    expect(line).toContain('`0912***6789`');
    expect(line).toContain('by Sara Ahmadi (`U0AGENT01`)');
    expect(line).toContain('req `5f0e3d4c-1111-4222-8333-444455556666`');
    expect(line).toContain('outcome: unblocked');
    expect(line).toContain(`hash \`${event.hash.slice(0, 12)}\``);
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
    expect(line).toContain('*failed*');
    expect(line).toContain('error: ServerError (502): upstream answered 502');
    expect(line).not.toContain('outcome:');
  });

  it.each([
    ['ASCII digits in the target', { target: '+98 912 345 6789' }, '+98 912 345 6789'],
    ['Persian digits in the target', { target: '۰۹۱۲۳۴۵۶۷۸۹' }, '۰۹۱۲۳۴۵۶۷۸۹'],
    ['a number inside the outcome', { outcome: { message: 'viewer 09123456789 unblocked' } }, '09123456789'],
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
    const line = auditLine(auditEvent({ actor: { id: 'U0AGENT01', name: '<!channel> & <@U999>' } }));
    expect(line).toContain('&lt;!channel&gt; &amp; &lt;@U999&gt;');
    expect(line).not.toContain('<!channel>');
  });

  it('cuts long descriptive text but never IDs or hashes', () => {
    const longId = `x${'a'.repeat(200)}`;
    const event = auditEvent({
      target: `Title of a very long file ${'word '.repeat(100)}`,
      actor: { id: 'U0AGENT01', name: 'N'.repeat(300) },
      outcome: 'o'.repeat(1000),
      requestId: longId,
    });
    const line = auditLine(event);
    expect(line).toContain(longId);
    expect(line).toContain(event.hash.slice(0, 12));
    expect(line).toContain(`${'N'.repeat(AUDIT_LINE_LIMITS.actorName - 1)}…`);
    expect(line).not.toContain('N'.repeat(AUDIT_LINE_LIMITS.actorName));
    expect(line).toContain(`${'o'.repeat(AUDIT_LINE_LIMITS.outcome - 1)}…`);
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
    const post = renderAuditPost([auditEvent({ seq: 7 }), auditEvent({ seq: 8, type: 'approved' })]);
    expect(post.text.split('\n')[0]).toBe('vidops audit #7–#8 (2 events)');
    expect(post.text).toContain('#8 approved viewer.unblock 0912***6789 · by Sara Ahmadi (U0AGENT01) · hash');
  });

  it('keeps the text fallback short for a large batch', () => {
    const events = Array.from({ length: 60 }, (_, i) => auditEvent({ seq: i + 1, target: 'z'.repeat(200) }));
    const post = renderAuditPost(events);
    expect(post.text.length).toBeLessThan(3100);
    expect(post.text).toMatch(/… and \d+ more$/);
  });
});
