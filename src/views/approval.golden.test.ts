import { REQUEST_T0, requestWith, VIEW_NOW } from '../../test/fixtures/requests.js';
import type { OperationRequest, RequestState } from '../core/model.js';
import { say } from '../core/said.js';
import { ENGLISH, type Lang, langFor } from '../i18n/index.js';
import {
  approvalMessage,
  followUpMessage,
  previewSections,
  requesterNotice,
  type SubmitOutcome,
  settledFollowUpMessage,
  submittedMessage,
} from './approval.js';
import { breakGlassOffer, delegationLines, leadBreakGlassMessage, unreviewedLine } from './break-glass.js';
import { checkBlockKitLimits } from './limits.js';
import { breakGlassModal, flagModal } from './modals/break-glass.js';

/**
 * Golden snapshots of the approval views in English and in Persian: the approval message in
 * every state, the requester's notice and answer, the follow-up DMs, every operation's preview,
 * break-glass and delegation. A change of wording shows up in review as a snapshot diff, to be
 * read as a person would; every one of them keeps within Slack's Block Kit limits.
 */

const LANGS: readonly [string, Lang][] = [
  ['English', ENGLISH],
  ['Persian', langFor('fa')],
];

const FOLDER = '6710a0000000000000000101';

const deleteFolder = requestWith({
  id: 'R-7QK2M9XD',
  operation: 'folder.delete',
  params: { bucketId: FOLDER },
  target: `folder ${FOLDER}`,
  preview: { kind: 'delete', resource: 'folder', id: FOLDER, title: 'درس‌های ترم پاییز', filesCount: 5 },
  reason: 'ترم تمام شد',
  quorum: 2,
});

const lena = { id: 'U0LEAD1', name: 'Lena' };
const leo = { id: 'U0LEAD2', name: 'Leo' };
const LATER = '2026-11-21T12:30:00.000Z';

const STATES: readonly [string, Partial<Record<keyof OperationRequest, unknown>>][] = [
  ['pending, no approvals yet', {}],
  [
    'pending, 1 of 2 approved, escalated',
    {
      approvals: [{ by: lena, at: LATER }],
      followUp: {
        remindedAt: null,
        remindedBy: null,
        autoReminded: false,
        escalatedAt: LATER,
        escalatedTo: ['S0BACKUP', 'U0LEAD3'],
        expiryWarnedAt: null,
      },
    },
  ],
  [
    'approved',
    {
      state: 'approved',
      approvals: [
        { by: lena, at: LATER },
        { by: leo, at: LATER },
      ],
    },
  ],
  [
    'succeeded',
    {
      state: 'succeeded',
      approvals: [
        { by: lena, at: LATER },
        { by: { id: 'U0SARA', name: 'Sara' }, at: LATER, for: leo },
      ],
      updatedAt: LATER,
      result: { deleted: true },
    },
  ],
  [
    'failed',
    {
      state: 'failed',
      approvals: [
        { by: lena, at: LATER },
        { by: leo, at: LATER },
      ],
      updatedAt: LATER,
      error: { name: 'ApiError', status: 500, message: 'internal error' },
    },
  ],
  [
    'rejected',
    { state: 'rejected', decidedBy: lena, decisionNote: 'هنوز دانشجوها به آن نیاز دارند', updatedAt: LATER },
  ],
  ['cancelled', { state: 'cancelled', decidedBy: { id: 'U0AGENT1', name: 'Ana' }, updatedAt: LATER }],
  [
    'expired',
    { state: 'expired', approvals: [{ by: lena, at: LATER }], updatedAt: '2026-11-22T10:00:00.000Z' },
  ],
  [
    'unknown',
    {
      state: 'unknown',
      approvals: [
        { by: lena, at: LATER },
        { by: leo, at: LATER },
      ],
      updatedAt: LATER,
      error: { name: 'TimeoutError', message: 'no answer in 10 s' },
    },
  ],
  [
    'settled as applied',
    {
      state: 'succeeded',
      approvals: [
        { by: lena, at: LATER },
        { by: leo, at: LATER },
      ],
      decidedBy: leo,
      decisionNote: 'the folder is gone',
      updatedAt: LATER,
      result: { resolved: 'check', outcome: 'already deleted', answer: null },
    },
  ],
];

const glass = requestWith({
  ...deleteFolder,
  id: 'R-9XD7QK3M',
  state: 'succeeded',
  quorum: 1,
  updatedAt: LATER,
  breakGlass: {
    by: { id: 'U0AGENT1', name: 'Ana' },
    at: REQUEST_T0,
    reason: 'کلاس ساعت ۹ شروع می‌شود',
    reviewDueAt: '2026-11-22T10:00:00.000Z',
    overdueAt: null,
    review: null,
  },
});

const reviewed = requestWith({
  ...glass,
  breakGlass: {
    ...glass.breakGlass,
    review: { by: lena, at: LATER, verdict: 'flagged', note: 'باید منتظر می‌ماند' },
  },
});

/** Every operation's preview, one request each. */
const PREVIEWS: readonly [string, Partial<Record<keyof OperationRequest, unknown>>][] = [
  [
    'whitelist.set',
    {
      operation: 'whitelist.set',
      preview: {
        kind: 'whitelist',
        before: ['1.2.3.4'],
        after: ['5.6.7.8'],
        added: ['5.6.7.8'],
        removed: ['1.2.3.4'],
      },
    },
  ],
  [
    'whitelist.set, emptied',
    {
      operation: 'whitelist.set',
      preview: { kind: 'whitelist', before: ['1.2.3.4'], after: [], added: [], removed: ['1.2.3.4'] },
    },
  ],
  [
    'protect.set',
    {
      operation: 'protect.set',
      preview: {
        kind: 'protection',
        rows: [
          { field: 'opacity', before: 0.5, after: 0.8 },
          { field: 'enableBeep', before: false, after: true },
        ],
      },
    },
  ],
  [
    'folder.create',
    {
      operation: 'folder.create',
      preview: {
        kind: 'create',
        resource: 'folder',
        after: { title: 'ترم بهار', description: 'کلاس‌های ترم بهار' },
      },
    },
  ],
  [
    'folder.edit',
    {
      operation: 'folder.edit',
      preview: {
        kind: 'edit',
        resource: 'folder',
        id: FOLDER,
        before: { title: 'ترم پاییز', description: null },
        after: { title: 'ترم پاییز ۱۴۰۵', description: 'بایگانی' },
      },
    },
  ],
  [
    'file.edit, values unread',
    {
      operation: 'file.edit',
      preview: {
        kind: 'edit',
        resource: 'file',
        id: '6710b0000000000000000201',
        before: null,
        after: { title: null, description: 'جلسه‌ی اول', cover: 'F0COVER1' },
      },
    },
  ],
  [
    'playlist.edit',
    {
      operation: 'playlist.edit',
      preview: {
        kind: 'edit',
        resource: 'playlist',
        id: '6710c0000000000000000301',
        before: { title: 'فصل ۱', files: [{ _id: '6710b0000000000000000201', title: 'جلسه‌ی ۱' }] },
        after: {
          title: null,
          files: [{ _id: '6710b0000000000000000201', title: 'جلسه‌ی ۱' }, { _id: '6710b0000000000000000202' }],
        },
      },
    },
  ],
  [
    'file.delete',
    {
      operation: 'file.delete',
      preview: {
        kind: 'delete',
        resource: 'file',
        id: '6710b0000000000000000201',
        title: 'جلسه‌ی ۱',
        bucketId: FOLDER,
      },
    },
  ],
  [
    'file.retry',
    {
      operation: 'file.retry',
      preview: { kind: 'retry', id: '6710b0000000000000000201', title: 'جلسه‌ی ۱', hlsStatus: 'failed' },
    },
  ],
  [
    'viewer.unblock',
    {
      operation: 'viewer.unblock',
      preview: { kind: 'unblock', mobileNumber: '09123456789', blocked: true, actionType: 'high' },
    },
  ],
  ['no preview (an older request)', { operation: 'folder.delete', preview: null }],
];

function withinLimits(
  payload: Parameters<typeof checkBlockKitLimits>[0],
  surface: Parameters<typeof checkBlockKitLimits>[1],
) {
  expect(checkBlockKitLimits(payload, surface)).toEqual([]);
}

describe.each(LANGS)('the approval views in %s', (_name, lang) => {
  it.each(STATES)('the approval message, %s', (_state, fields) => {
    const message = approvalMessage(requestWith({ ...deleteFolder, ...fields }), VIEW_NOW, lang);
    withinLimits(message, 'message');
    expect(message).toMatchSnapshot();
  });

  it.each(STATES)('the requester notice, %s', (_state, fields) => {
    const notice = requesterNotice(requestWith({ ...deleteFolder, ...fields }), lang);
    if (notice !== null) withinLimits(notice, 'message');
    expect(notice).toMatchSnapshot();
  });

  it.each([
    ['reminder', 'approver'],
    ['escalation', 'approver'],
    ['warning', 'approver'],
    ['warning', 'requester'],
  ] as const)('the follow-up DM: %s to the %s', (notice, to) => {
    const request = requestWith({
      ...deleteFolder,
      approvals: [{ by: lena, at: LATER }],
      followUp: {
        remindedAt: LATER,
        remindedBy: { id: 'U0AGENT1', name: 'Ana' },
        autoReminded: false,
        escalatedAt: null,
        escalatedTo: [],
        expiryWarnedAt: null,
      },
    });
    const message = followUpMessage(request, notice, to, new Date('2026-11-22T07:00:00.000Z'), lang);
    withinLimits(message, 'message');
    expect(message).toMatchSnapshot();
  });

  it.each(STATES.filter(([state]) => !state.startsWith('pending')))(
    'the follow-up DM once the request no longer waits, %s',
    (_state, fields) => {
      const message = settledFollowUpMessage(requestWith({ ...deleteFolder, ...fields }), lang);
      withinLimits(message, 'message');
      expect(message).toMatchSnapshot();
    },
  );

  it.each(PREVIEWS)('the preview of %s', (_operation, fields) => {
    expect(previewSections(requestWith(fields) as OperationRequest, lang)).toMatchSnapshot();
  });

  it('the requester answer: waiting for approval, done, failed, refused', () => {
    const outcomes: SubmitOutcome[] = [
      { kind: 'pending', request: deleteFolder, why: null },
      { kind: 'executed', request: requestWith({ ...deleteFolder, state: 'succeeded' }), errorText: null },
      { kind: 'executed', request: requestWith({ ...deleteFolder, state: 'failed' }), errorText: null },
      { kind: 'denied', reason: 'Only leads can approve "Delete folder" requests.' },
    ];
    for (const outcome of outcomes) {
      const message = submittedMessage(
        outcome,
        { approvalChannel: 'C0APPROVALS', warnings: [say.warnWhitelistEmpty()] },
        lang,
      );
      withinLimits(message, 'message');
      expect(message).toMatchSnapshot();
    }
  });

  it('break-glass: the approval message, the leads DM and reminder, the offer, the review lines', () => {
    for (const request of [glass, reviewed]) {
      const message = approvalMessage(request, VIEW_NOW, lang);
      withinLimits(message, 'message');
      expect(message).toMatchSnapshot();
    }
    for (const reminder of [false, true]) {
      const dm = leadBreakGlassMessage(glass, reminder, lang);
      withinLimits(dm, 'message');
      expect(dm).toMatchSnapshot();
    }
    expect(breakGlassOffer(deleteFolder.id, lang)).toMatchSnapshot();
    expect(
      unreviewedLine(
        { ...glass, breakGlass: { ...glass.breakGlass, overdueAt: LATER } } as OperationRequest,
        lang,
      ),
    ).toMatchSnapshot();
  });

  it('break-glass: the modal and the lead Flag modal', () => {
    const modal = breakGlassModal(deleteFolder, '24h', lang);
    withinLimits({ view: modal }, 'modal');
    expect(modal).toMatchSnapshot();
    const flag = flagModal(glass, lang);
    withinLimits({ view: flag }, 'modal');
    expect(flag).toMatchSnapshot();
  });

  it('delegation: the App Home lines', () => {
    const delegation = {
      id: 'D1',
      lead: lena,
      delegate: { id: 'U0SARA', name: 'Sara' },
      reason: null,
      createdAt: REQUEST_T0,
      until: '2026-11-23T18:00:00.000Z',
      endedAt: null,
      endedBy: null,
      ending: null,
    };
    expect(delegationLines({ given: delegation, received: [delegation] }, lang)).toMatchSnapshot();
  });

  it('states that say nothing to the requester', () => {
    for (const state of ['approved', 'executing', 'cancelled'] as RequestState[]) {
      expect(requesterNotice(requestWith({ ...deleteFolder, state }), lang)).toBeNull();
    }
  });
});
