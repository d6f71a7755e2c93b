import { requestWith } from '../../test/fixtures/requests.js';
import type { ChangeOperation, Preview } from '../core/catalog.js';
import type { AuditEvent } from '../core/model.js';
import { ENGLISH, langFor } from '../i18n/lang.js';
import { findCommand } from './args.js';
import {
  auditTailLine,
  commandHelp,
  explainLines,
  generalHelp,
  pendingLines,
  previewLines,
  requestLine,
  unblockedLine,
  usageError,
  whitelistLines,
} from './format.js';

/**
 * Golden snapshots of what the CLI prints, in English and in Persian: a reader checks the Persian
 * once (prose in Persian, IDs Latin and isolated, Solar Hijri dates in Tehran time), and any change
 * shows in review.
 * @see docs/architecture.md, "Languages"
 */

const NOW = new Date('2026-11-21T12:00:00.000Z');

const PREVIEWS: readonly [ChangeOperation, Preview][] = [
  [
    'whitelist.set',
    {
      kind: 'whitelist',
      before: ['203.0.113.7'],
      after: ['203.0.113.7', '198.51.100.4'],
      added: ['198.51.100.4'],
      removed: [],
    },
  ],
  [
    'protect.set',
    { kind: 'protection', rows: [{ field: 'fontColor', before: '#ffff00', after: '#e74c3c' }] },
  ],
  [
    'folder.delete',
    {
      kind: 'delete',
      resource: 'folder',
      id: '6710a0000000000000000103',
      title: 'کلیپ‌های بازاریابی',
      filesCount: 3,
    },
  ],
  [
    'playlist.edit',
    {
      kind: 'edit',
      resource: 'playlist',
      id: 'p1',
      before: { title: 'دوره', files: [{ _id: 'f1', title: 'مقدمه' }] },
      after: { title: 'دوره‌ی تازه', files: [{ _id: 'f2' }, { _id: 'f1', title: 'مقدمه' }] },
    },
  ],
  ['file.retry', { kind: 'retry', id: '6710b0000000000000000203', title: 'Lecture 3', hlsStatus: 'failed' }],
  ['viewer.unblock', { kind: 'unblock', mobileNumber: '09123456789', blocked: true, actionType: 'attacker' }],
] as unknown as readonly [ChangeOperation, Preview][];

const EVENT = {
  seq: 7,
  id: '5b0c3a55-1a2b-4c3d-9e8f-000000000007',
  type: 'succeeded',
  at: '2026-11-21T10:30:00.000Z',
  actor: { id: 'system', name: 'vidops' },
  operation: 'viewer.unblock',
  target: 'viewer 09123456789',
  requestId: 'R-7K2M9QXA',
  params: { mobileNumber: '09123456789' },
  outcome: { unblocked: true },
  error: null,
  prevHash: 'a'.repeat(64),
  hash: '0123456789abcdef'.repeat(4),
} as unknown as AuditEvent;

describe.each([
  ['English', ENGLISH],
  ['Persian', langFor('fa', 'Asia/Tehran')],
])('the CLI in %s', (_name, lang) => {
  it('help, a command’s help and a usage error', () => {
    expect(generalHelp(lang)).toMatchSnapshot();
    expect(commandHelp(findCommand('audit tail'), lang)).toMatchSnapshot();
    expect(
      usageError(lang.t.cli.cliUnknownCommand('unblok') + lang.t.cli.cliDidYouMean('unblock'), null, lang),
    ).toMatchSnapshot();
  });

  it('previews of every kind', () => {
    const lines = PREVIEWS.map(([operation, preview]) => [
      operation,
      ...previewLines({ operation, preview }, lang),
    ]);
    expect(lines).toMatchSnapshot();
  });

  it('a pending request, a request line, an unblock, the whitelist, an explanation and an audit line', () => {
    const request = requestWith({
      id: 'R-7K2M9QXA',
      operation: 'folder.delete',
      target: 'folder 6710a0000000000000000103',
      reason: 'کمپین تمام شد',
    });
    expect({
      pending: pendingLines(request, 'policy', { cliApproves: true }, lang),
      request: requestLine(request, NOW, lang),
      unblocked: unblockedLine(
        { kind: 'unblock', mobileNumber: '09123456789', blocked: true, actionType: null },
        lang,
      ),
      whitelist: whitelistLines(['203.0.113.7', '198.51.100.4'], lang),
      explain: explainLines(
        { code: '9910', meaning: 'The viewer is blocked.', fix: 'Unblock them.', action: 'unblock' } as never,
        lang,
      ),
      audit: auditTailLine(EVENT, lang),
    }).toMatchSnapshot();
  });
});
