import { requestWith } from '../../test/fixtures/requests.js';
import type { AuditEvent } from '../core/model.js';
import { ENGLISH, type Lang, langFor } from '../i18n/index.js';
import { auditListMessage } from './audit-list.js';
import { requestsMessage } from './requests.js';

/**
 * Golden snapshots of `/vidops requests` and `/vidops audit` in English and in Persian: a change
 * of wording shows up in review as a snapshot diff, to be read as a person would.
 */

const LANGS: readonly [string, Lang][] = [
  ['English', ENGLISH],
  ['Persian', langFor('fa')],
];

const awaiting = requestWith({
  id: 'R-7QK2M9XD',
  operation: 'folder.delete',
  params: { bucketId: '6710a0000000000000000101' },
  target: 'folder 6710a0000000000000000101',
  preview: {
    kind: 'delete',
    resource: 'folder',
    id: '6710a0000000000000000101',
    title: 'درس‌های ترم پاییز',
    filesCount: 5,
  },
  reason: 'ترم تمام شد',
  requester: { id: 'U0AGENT2', name: 'Ben' },
});

const open = requestWith({
  id: 'R-3M9XD7QK',
  operation: 'whitelist.set',
  params: { allowedDNS: ['1.2.3.4'], expectBefore: [] },
  target: 'whitelist',
  preview: { kind: 'whitelist', before: [], after: ['1.2.3.4'], added: ['1.2.3.4'], removed: [] },
  requester: { id: 'U0LEAD1', name: 'Lena' },
});

const finished = requestWith({
  ...open,
  id: 'R-9XD7QK3M',
  state: 'succeeded',
  approvals: [{ by: { id: 'U0LEAD2', name: 'Leo' }, at: '2026-11-21T11:00:00.000Z' }],
  updatedAt: '2026-11-21T11:00:00.000Z',
});

function event(seq: number): AuditEvent {
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
  };
}

describe.each(LANGS)('/vidops requests in %s', (_name, lang) => {
  it('a lead with one request awaiting them, one open and one finished', () => {
    expect(
      requestsMessage({ awaitingMe: [awaiting], mine: [open, finished] }, { isLead: true }, lang),
    ).toMatchSnapshot();
  });

  it('an agent with nothing open', () => {
    expect(requestsMessage({ awaitingMe: [], mine: [] }, { isLead: false }, lang)).toMatchSnapshot();
  });
});

describe.each(LANGS)('/vidops audit in %s', (_name, lang) => {
  it('a lead asks for 10 events of a log that holds 2', () => {
    expect(auditListMessage([event(1), event(2)], 10, lang)).toMatchSnapshot();
  });

  it('a lead reads an empty log', () => {
    expect(auditListMessage([], 10, lang)).toMatchSnapshot();
  });
});
