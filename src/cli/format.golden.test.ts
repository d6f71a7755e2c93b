import { requestWith } from '../../test/fixtures/requests.js';
import { CHANGE_OPERATIONS, type ChangeOperation, type Preview } from '../core/catalog.js';
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

/** One preview per operation: a mapped type, so an operation without its row does not compile. */
const PREVIEWS: { [O in ChangeOperation]: Preview<O> } = {
  'whitelist.set': {
    kind: 'whitelist',
    before: ['203.0.113.7'],
    after: ['203.0.113.7', '198.51.100.4'],
    added: ['198.51.100.4'],
    removed: [],
  },
  'protect.set': { kind: 'protection', rows: [{ field: 'fontColor', before: '#ffff00', after: '#e74c3c' }] },
  'folder.create': {
    kind: 'create',
    resource: 'folder',
    after: { title: 'ترم بهار', description: 'کلاس‌ها' },
  },
  'folder.edit': {
    kind: 'edit',
    resource: 'folder',
    id: '6710a0000000000000000101',
    before: { title: 'ترم پاییز', description: null },
    after: { title: 'ترم پاییز ۱۴۰۵', description: 'بایگانی' },
  },
  'folder.delete': {
    kind: 'delete',
    resource: 'folder',
    id: '6710a0000000000000000103',
    title: 'کلیپ‌های بازاریابی',
    filesCount: 3,
  },
  'file.edit': {
    kind: 'edit',
    resource: 'file',
    id: '6710b0000000000000000201',
    before: null,
    after: { title: 'جلسه‌ی ۱', description: 'جلسه‌ی اول', cover: 'F0COVER1' },
  },
  'file.delete': {
    kind: 'delete',
    resource: 'file',
    id: '6710b0000000000000000201',
    title: 'جلسه‌ی ۱',
    bucketId: '6710a0000000000000000101',
  },
  'file.retry': {
    kind: 'retry',
    resource: 'file',
    id: '6710b0000000000000000203',
    title: 'Lecture 3',
    hlsStatus: 'failed',
  },
  'playlist.create': { kind: 'create', resource: 'playlist', after: { title: 'Onboarding' } },
  'playlist.edit': {
    kind: 'edit',
    resource: 'playlist',
    id: 'p1',
    before: { title: 'دوره', files: [{ _id: 'f1', title: 'مقدمه' }] },
    after: { title: 'دوره‌ی تازه', files: [{ _id: 'f2' }, { _id: 'f1', title: 'مقدمه' }] },
  },
  'playlist.delete': {
    kind: 'delete',
    resource: 'playlist',
    id: '6710c0000000000000000302',
    title: 'فصل ۲',
    filesCount: 4,
  },
  'viewer.unblock': { kind: 'unblock', mobileNumber: '09123456789', blocked: true, actionType: 'attacker' },
  'viewer.unblock-many': { kind: 'unblock-many', count: 38, repeats: ['09121234567'] },
};

/** An operation's row of PREVIEWS, with its type. */
function previewOf<O extends ChangeOperation>(operation: O): { operation: O; preview: Preview<O> } {
  return { operation, preview: PREVIEWS[operation] };
}

const EVENT: AuditEvent = {
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
};

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
    const lines = CHANGE_OPERATIONS.map((operation) => [
      operation,
      ...previewLines(previewOf(operation), lang),
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
      pending: pendingLines(request, null, { cliApproves: true }, lang),
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
