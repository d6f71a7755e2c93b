import type { AuditEvent } from '../core/model.js';
import { ENGLISH, langFor } from '../i18n/index.js';
import { auditListMessage } from './audit-list.js';
import { checkBlockKitLimits } from './limits.js';

const PERSIAN = 'شرح بسیار طولانی رویداد با متن فارسی و شماره‌ی ۰۹۱۲۳۴۵۶۷۸۹';

function event(seq: number, overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    type: 'succeeded',
    at: '2026-11-21T10:00:00.000Z',
    actor: { id: 'U0AGENT1', name: 'Ana' },
    operation: 'viewer.unblock',
    target: 'viewer 09123456789',
    params: { mobileNumber: '09123456789' },
    requestId: 'R-7QK2M9XD',
    outcome: { message: 'unblocked' },
    error: null,
    seq,
    prevHash: 'a'.repeat(64),
    hash: `${String(seq).padStart(12, '0')}${'b'.repeat(52)}`,
    ...overrides,
  };
}

describe('/vidops audit for a lead', () => {
  it('shows the events oldest first with masked numbers and short hashes', () => {
    const message = auditListMessage([event(1), event(2)], 10, ENGLISH);
    const all = JSON.stringify(message.blocks);
    expect(all).toContain('0912***6789');
    expect(all).not.toContain('09123456789');
    expect(all).toContain('hash `000000000001`');
    expect(all.indexOf('*#1*')).toBeLessThan(all.indexOf('*#2*'));
    expect(all).toContain('the log holds only 2 events');
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
  });

  it('100 long Persian events fit one message; what is left out is said', () => {
    const events = Array.from({ length: 100 }, (_, i) =>
      event(i + 1, {
        actor: { id: 'U0AGENT1', name: PERSIAN },
        target: `new folder "${PERSIAN.repeat(4)}"`,
        outcome: { note: PERSIAN.repeat(10) },
        error: { name: 'ServerError', message: PERSIAN.repeat(5), status: 500 },
      }),
    );
    const message = auditListMessage(events, 100, ENGLISH);
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    const all = JSON.stringify(message.blocks);
    expect(all).toContain('*#100*');
    expect(all).not.toMatch(/۰۹۱۲۳۴۵۶۷۸۹/);
    // This much text cannot fit: the newest are kept, and the note counts the rest.
    const left = Number(/(\d+) older events? did not fit/.exec(all)?.[1] ?? '0');
    const shown = Number(/last (\d+) events/.exec(all)?.[1] ?? '0');
    expect(left).toBeGreaterThan(0);
    expect(shown + left).toBe(100);
    expect(all).toContain('`npx vidops audit export` gives the whole log');
  });

  it('an empty log says so', () => {
    expect(auditListMessage([], 10, ENGLISH).text).toBe('The audit log is empty.');
  });

  it('100 long Persian events fit one message for a Persian-reading lead; the notes are in Persian', () => {
    const events = Array.from({ length: 100 }, (_, i) =>
      event(i + 1, {
        actor: { id: 'U0AGENT1', name: PERSIAN },
        target: `new folder "${PERSIAN.repeat(4)}"`,
        outcome: { note: PERSIAN.repeat(10) },
        error: { name: 'ServerError', message: PERSIAN.repeat(5), status: 500 },
      }),
    );
    const message = auditListMessage(events, 200, langFor('fa'));
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    const all = JSON.stringify(message.blocks);
    expect(all).toMatch(/[۰-۹]+ رویداد قدیمی‌تر در یک پیام جا نشد/);
    expect(all).toContain('لاگ فقط ۱۰۰ رویداد دارد');
    expect(all).toContain('\u2068`npx vidops audit export`\u2069 کل لاگ را می‌دهد');
  });
});
