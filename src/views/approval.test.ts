import { REQUEST_T0, requestWith, VIEW_NOW } from '../../test/fixtures/requests.js';
import type { Preview } from '../core/catalog.js';
import type { OperationRequest } from '../core/model.js';
import { say } from '../core/said.js';
import { newTimeBox } from '../core/time-box.js';
import { ENGLISH, langFor } from '../i18n/index.js';
import {
  approvalMessage,
  previewSections,
  requesterNotice,
  settledFollowUpMessage,
  slackDate,
  submittedMessage,
} from './approval.js';
import { homeView } from './home.js';
import { ACTIONS } from './ids.js';
import { checkBlockKitLimits } from './limits.js';

const T0 = REQUEST_T0;
const PERSIAN = 'دوره‌ی آموزش برنامه‌نویسی پیشرفته برای دانشجویان ۱۴۰۵';
const LONG = `${PERSIAN} `.repeat(40);

function request(overrides: Partial<OperationRequest> = {}): OperationRequest {
  return requestWith({
    id: 'R-7QK2M9XD',
    operation: 'folder.delete',
    params: { bucketId: '6710a0000000000000000101' },
    paramsHash: 'ab12cd34ef56'.padEnd(64, '0'),
    target: 'folder 6710a0000000000000000101',
    preview: {
      kind: 'delete',
      resource: 'folder',
      id: '6710a0000000000000000101',
      title: 'Lectures',
      filesCount: 5,
    },
    reason: 'The course ended; the customer asked to remove it.',
    requester: { id: 'U0AGENT1', name: 'Ana' },
    ...overrides,
  });
}

const ipv6 = (i: number) => `2001:db8:${i.toString(16)}:ffff:ffff:ffff:ffff:${(i + 1).toString(16)}`;
const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** Every preview shape the services make, at its largest. */
const PREVIEWS: [string, Partial<OperationRequest>][] = [
  [
    'whitelist with 100 IPv6 addresses before and after',
    {
      operation: 'whitelist.set',
      target: 'whitelist',
      preview: {
        kind: 'whitelist',
        before: many(100, ipv6),
        after: many(100, (i) => ipv6(i + 50)),
        added: many(50, (i) => ipv6(i + 100)),
        removed: many(50, ipv6),
      },
    },
  ],
  [
    'protection diff of every setting',
    {
      operation: 'protect.set',
      target: 'protection settings',
      preview: {
        kind: 'protection',
        rows: [
          { field: 'opacity', before: 0.6, after: 0.3 },
          { field: 'fontColor', before: '#ffff00', after: '#e74c3c' },
          { field: 'player.offlineMode', before: null, after: false },
          { field: 'link.expireTime', before: '2h', after: '1d' },
        ],
      },
    },
  ],
  [
    'folder created with a long Persian title',
    {
      operation: 'folder.create',
      target: `new folder "${LONG}"`,
      preview: { kind: 'create', resource: 'folder', after: { title: LONG, description: LONG } },
    },
  ],
  [
    'playlist edit with 100 files',
    {
      operation: 'playlist.edit',
      target: 'playlist 6710c0000000000000000301',
      preview: {
        kind: 'edit',
        resource: 'playlist',
        id: '6710c0000000000000000301',
        before: {
          title: 'Getting started',
          files: many(100, (i) => ({ _id: `6710b0${String(i).padStart(18, '0')}`, title: PERSIAN })),
        },
        after: {
          title: LONG,
          files: many(100, (i) => ({ _id: `6710b1${String(i).padStart(18, '0')}`, title: PERSIAN })),
        },
      },
    },
  ],
  [
    'file edit with a cover',
    {
      operation: 'file.edit',
      target: 'file 6710b0000000000000000201',
      preview: {
        kind: 'edit',
        resource: 'file',
        id: '6710b0000000000000000201',
        before: { title: 'Lecture 1', description: null, bucketId: null, hlsStatus: 'done' },
        after: { title: LONG, description: LONG, cover: 'cover.png' },
      },
    },
  ],
  ['folder delete', {}],
  [
    'unblock over the rate limit',
    {
      operation: 'viewer.unblock',
      target: 'viewer 09123456789',
      params: { mobileNumber: '09123456789' },
      preview: { kind: 'unblock', mobileNumber: '09123456789', blocked: true, actionType: 'attacker' },
    },
  ],
  ['a stored preview this build cannot read', { preview: null }],
];

describe('the approval message a lead reads', () => {
  it.each(PREVIEWS)('%s fits Slack while pending and after every decision', (_what, overrides) => {
    for (const state of [
      'pending',
      'succeeded',
      'failed',
      'rejected',
      'cancelled',
      'expired',
      'unknown',
    ] as const) {
      const message = approvalMessage(
        request({
          ...overrides,
          state,
          reason: LONG,
          requester: { id: 'U0AGENT1', name: LONG },
          decisionNote: LONG,
          decidedBy: { id: 'U0LEAD1', name: LONG },
          error: state === 'failed' ? { name: 'ServerError', message: LONG, status: 500 } : null,
          result: state === 'succeeded' ? { message: LONG } : null,
        }),
        VIEW_NOW,
        ENGLISH,
      );
      expect(checkBlockKitLimits(message, 'message')).toEqual([]);
      expect(message.text.length).toBeGreaterThan(10);
    }
  });

  it('shows operation, target, preview, requester, reason, expiry, request ID and short params hash', () => {
    const message = approvalMessage(request(), VIEW_NOW, ENGLISH);
    const all = JSON.stringify(message.blocks);
    expect(message.text).toBe(
      'Approval needed: Delete folder: folder 6710a0000000000000000101, requested by Ana (R-7QK2M9XD)',
    );
    expect(all).toContain('Approval needed: Delete folder');
    expect(all).toContain('`folder 6710a0000000000000000101`');
    expect(all).toContain(
      '*Deletes* folder `6710a0000000000000000101` “Lectures” and its 5 files. This cannot be undone.',
    );
    expect(all).toContain('Ana (`U0AGENT1`)');
    expect(all).toContain('The course ended; the customer asked to remove it.');
    expect(all).toContain('<!date^1795341600^{date_short_pretty} {time}|2026-11-22 10:00 UTC>');
    expect(all).toContain('R-7QK2M9XD');
    expect(all).toContain('params `ab12cd34ef56`');
  });

  it('has Approve (primary, with a confirm dialog), Reject, Cancel and Remind buttons whose values are only the request ID', () => {
    const actions = approvalMessage(request(), VIEW_NOW, ENGLISH).blocks.find((b) => b.type === 'actions');
    expect(actions).toMatchObject({
      type: 'actions',
      block_id: 'request_actions:R-7QK2M9XD',
      elements: [
        {
          action_id: ACTIONS.approve,
          style: 'primary',
          value: 'R-7QK2M9XD',
          confirm: { title: { text: 'Approve R-7QK2M9XD?' }, style: 'danger' },
        },
        { action_id: ACTIONS.reject, value: 'R-7QK2M9XD' },
        { action_id: ACTIONS.cancel, value: 'R-7QK2M9XD' },
        { action_id: ACTIONS.remind, value: 'R-7QK2M9XD', text: { text: 'Remind approvers' } },
      ],
    });
  });

  const decided: [OperationRequest['state'], Partial<OperationRequest>, string][] = [
    [
      'succeeded',
      { approvals: [{ by: { id: 'U0LEAD1', name: 'Lena' }, at: T0 }] },
      'Approved by Lena; done at',
    ],
    [
      'failed',
      {
        approvals: [{ by: { id: 'U0LEAD1', name: 'Lena' }, at: T0 }],
        error: { name: 'ServerError', message: 'upstream 500', status: 500 },
      },
      'it failed at',
    ],
    [
      'rejected',
      { decidedBy: { id: 'U0LEAD1', name: 'Lena' }, decisionNote: 'not this week' },
      'Rejected by Lena',
    ],
    ['cancelled', { decidedBy: { id: 'U0AGENT1', name: 'Ana' } }, 'Cancelled by Ana'],
    ['expired', {}, 'with 0 of 1 approvals; nothing was changed'],
  ];
  it.each(decided)(
    'once %s the buttons are gone and the message says who decided and what happened',
    (state, extra, said) => {
      const message = approvalMessage(request({ state, ...extra }), VIEW_NOW, ENGLISH);
      expect(message.blocks.some((b) => b.type === 'actions')).toBe(false);
      expect(JSON.stringify(message.blocks)).toContain(said);
    },
  );

  it('an approval given on the command line says so, with the OS user who gave it', () => {
    const message = approvalMessage(
      request({
        state: 'succeeded',
        approvals: [{ by: { id: 'U0LEAD1', name: 'U0LEAD1', via: { kind: 'cli', osUser: 'root' } }, at: T0 }],
      }),
      VIEW_NOW,
      ENGLISH,
    );
    expect(JSON.stringify(message.blocks)).toContain(
      'Approved by U0LEAD1 via the CLI (OS user root); done at',
    );
  });

  describe('when the outcome is unknown', () => {
    const lena = { id: 'U0LEAD1', name: 'Lena' };
    const lost = request({
      state: 'unknown',
      approvals: [{ by: lena, at: T0 }],
      error: { name: 'TimeoutError', message: 'The video service did not answer in time' },
    });

    it('says it may or may not have been applied, why, and who settles it', () => {
      const message = approvalMessage(lost, VIEW_NOW, ENGLISH);
      const all = JSON.stringify(message.blocks);
      expect(message.text).toContain('Delete folder: approved, outcome unknown');
      expect(all).toContain(
        'it may or may not have been applied: the service gave no clear answer (TimeoutError',
      );
      expect(all).toContain('vidops does not send it again by itself');
      expect(all).toContain('never the requester');
      expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    });

    it('a delete has Check now, Mark applied…, Mark not applied… and Send again (with a confirmation), values only the ID', () => {
      const actions = approvalMessage(lost, VIEW_NOW, ENGLISH).blocks.find((b) => b.type === 'actions');
      expect(actions).toMatchObject({
        block_id: 'request_actions:R-7QK2M9XD',
        elements: [
          { action_id: ACTIONS.resolveCheck, value: 'R-7QK2M9XD', text: { text: 'Check now' } },
          { action_id: ACTIONS.resolveApplied, value: 'R-7QK2M9XD', text: { text: 'Mark applied…' } },
          { action_id: ACTIONS.resolveNotApplied, value: 'R-7QK2M9XD', text: { text: 'Mark not applied…' } },
          {
            action_id: ACTIONS.resolveSendAgain,
            value: 'R-7QK2M9XD',
            style: 'danger',
            confirm: { title: { text: 'Send R-7QK2M9XD again?' }, style: 'danger' },
          },
        ],
      });
    });

    it('a create left unknown after a crash can only be marked by hand', () => {
      const create = request({
        state: 'unknown',
        operation: 'folder.create',
        target: 'new folder "Spring"',
        preview: { kind: 'create', resource: 'folder', after: { title: 'Spring' } },
      });
      const message = approvalMessage(create, VIEW_NOW, ENGLISH);
      const actions = message.blocks.find((b) => b.type === 'actions');
      expect(actions).toMatchObject({
        elements: [{ action_id: ACTIONS.resolveApplied }, { action_id: ACTIONS.resolveNotApplied }],
      });
      expect(JSON.stringify(message.blocks)).toContain('vidops stopped while it ran');
    });

    it('the requester is told in words that it may or may not have been applied', () => {
      const notice = requesterNotice(lost, ENGLISH);
      expect(notice?.text).toContain('may or may not have been applied');
      expect(JSON.stringify(notice?.blocks)).toContain('it may or may not have been applied');
    });

    it.each([
      [
        'checked and already deleted',
        { state: 'succeeded', result: { resolved: 'check', outcome: 'already deleted', answer: null } },
        'Delete folder: done (outcome settled by a lead)',
        'Kim checked now at',
        '*already deleted*',
      ],
      [
        'marked not applied with a note',
        {
          state: 'failed',
          decisionNote: 'still listed in the panel',
          result: {
            resolved: 'not-applied',
            outcome: 'not applied, as Kim found on the service',
            answer: null,
          },
          error: { name: 'NotApplied', message: 'not applied, as Kim found on the service' },
        },
        'Delete folder: not applied (outcome settled by a lead)',
        'Kim marked not applied at',
        'Note: still listed in the panel',
      ],
    ] as const)(
      'once settled (%s) the buttons are gone and it says who settled it, how and why',
      (_what, extra, head, how, what) => {
        const message = approvalMessage(
          { ...lost, decidedBy: { id: 'U0LEAD2', name: 'Kim' }, ...extra },
          VIEW_NOW,
          ENGLISH,
        );
        const all = JSON.stringify(message.blocks);
        expect(message.blocks.some((b) => b.type === 'actions')).toBe(false);
        expect(message.text).toContain(head);
        expect(all).toContain(how);
        expect(all).toContain(what);
        expect(all).not.toContain('Nothing else was changed');
      },
    );

    it('an edit that failed because its answer was lost does not claim nothing was changed', () => {
      const message = approvalMessage(
        request({
          state: 'failed',
          operation: 'folder.edit',
          params: { bucketId: '6710a0000000000000000101', title: 'Lectures 2' },
          preview: {
            kind: 'edit',
            resource: 'folder',
            id: '6710a0000000000000000101',
            before: { title: 'Lectures', description: null },
            after: { title: 'Lectures 2', description: null },
          },
          error: { name: 'TimeoutError', message: 'no answer' },
        }),
        VIEW_NOW,
        ENGLISH,
      );
      const all = JSON.stringify(message.blocks);
      expect(all).toContain('may or may not have been applied; asking for it again gives the same end state');
      expect(all).not.toContain('Nothing else was changed');
    });
  });

  it('never shows a whole mobile number', () => {
    const [, , , , , , unblock] = PREVIEWS;
    const message = approvalMessage(
      request({ ...unblock?.[1], reason: 'viewer 0912 345 6789 called' }),
      VIEW_NOW,
      ENGLISH,
    );
    const all = JSON.stringify(message);
    expect(all).not.toMatch(/09123456789|0912 345 6789/);
    expect(all).toContain('0912***6789');
  });

  // Issue 35, defect 11: the lead read the service's raw JSON answer, not what changed.
  it.each([
    ['English', ENGLISH, 'Folder `6710a0000000000000000101` deleted (12 files).'],
    ['Persian', langFor('fa'), 'پوشه‌ی \u2068`6710a0000000000000000101`\u2069 حذف شد (۱۲ فایل).'],
  ])(
    'once the change ran, the lead reads what changed in words, never the raw answer (%s)',
    (_l, lang, words) => {
      const message = approvalMessage(
        request({
          state: 'succeeded',
          approvals: [{ by: { id: 'U0LEAD1', name: 'Lena' }, at: T0 }],
          result: { deleted: true, deletedFiles: 12, owner: { mobile: '09123456789' } },
        }),
        VIEW_NOW,
        lang,
      );
      const all = JSON.stringify(message);
      expect(all).toContain(JSON.stringify(words).slice(1, -1));
      expect(all).not.toContain('deletedFiles');
      expect(all).not.toContain('{\\"');
      expect(all).not.toMatch(/09123456789|0912\*\*\*6789/);
    },
  );

  it.each([
    ['English', ENGLISH, 'Protection settings changed (preventZoom: on and player.offlineMode: off).'],
    [
      'Persian',
      langFor('fa'),
      'تنظیمات حفاظت تغییر کرد (\u2068preventZoom: روشن و player.offlineMode: خاموش\u2069).',
    ],
  ])('once a settings change ran, the lead reads the settings it set, in words (%s)', (_l, lang, words) => {
    const message = approvalMessage(
      request({
        operation: 'protect.set',
        params: { changes: { preventZoom: true, player: { offlineMode: false } } },
        target: 'protection settings',
        preview: {
          kind: 'protection',
          rows: [
            { field: 'preventZoom', before: false, after: true },
            { field: 'player.offlineMode', before: true, after: false },
          ],
        },
        state: 'succeeded',
        approvals: [{ by: { id: 'U0LEAD1', name: 'Lena' }, at: T0 }],
        result: { preventZoom: true, opacity: 0.6, player: { offlineMode: false } },
      }),
      VIEW_NOW,
      lang,
    );
    const all = JSON.stringify(message);
    expect(all).toContain(words);
    expect(all).not.toContain('opacity');
  });

  it('escapes mentions typed into a reason', () => {
    const all = JSON.stringify(
      approvalMessage(request({ reason: 'ping <!channel> and <@U0LEAD1>' }), VIEW_NOW, ENGLISH).blocks,
    );
    expect(all).toContain('ping &lt;!channel&gt; and &lt;@U0LEAD1&gt;');
  });
});

describe('previews', () => {
  it('of a stored request this build cannot read say so, never as JSON', () => {
    const all = JSON.stringify(approvalMessage(request({ preview: null }), VIEW_NOW, ENGLISH).blocks);
    expect(all).toContain('Preview not available: this request was made by an earlier version of vidops.');
    expect(all).not.toContain('{\\"');
  });

  it('drop lines past the budget and say how many', () => {
    const preview: Preview<'playlist.edit'> = {
      kind: 'edit',
      resource: 'playlist',
      id: 'P1',
      before: null,
      after: { title: null, files: many(100, (i) => ({ _id: `F${i}`, title: PERSIAN })) },
    };
    const sections = previewSections({ operation: 'playlist.edit', preview }, ENGLISH, 1000);
    const text = sections.join('\n');
    expect(text.length).toBeLessThan(1100);
    expect(text).toMatch(/_… and \d+ more lines not shown\._$/);
  });
});

describe('the requester is told', () => {
  it.each([
    ['succeeded', 'was approved and is done'],
    ['failed', 'was approved but failed'],
    ['rejected', 'was rejected'],
    ['expired', 'expired'],
    ['unknown', 'may or may not have been applied; its outcome is unknown'],
  ] as const)('when their request %s', (state, said) => {
    const notice = requesterNotice(request({ state }), ENGLISH);
    expect(notice?.text).toBe(
      `Your request R-7QK2M9XD (Delete folder: folder 6710a0000000000000000101) ${said}.`,
    );
    expect(checkBlockKitLimits(notice ?? {}, 'message')).toEqual([]);
  });

  it.each(['pending', 'executing', 'cancelled'] as const)('but not while it is %s without news', (state) => {
    expect(requesterNotice(request({ state }), ENGLISH)).toBeNull();
  });
});

describe('a follow-up DM once its request no longer waits', () => {
  it.each([
    ['succeeded', ':white_check_mark: done'],
    ['rejected', ':no_entry_sign: rejected'],
    ['expired', ':hourglass: expired'],
    ['cancelled', ':leftwards_arrow_with_hook: cancelled'],
  ] as const)('when %s it says so and how it ended, with no buttons left', (state, label) => {
    const message = settledFollowUpMessage(
      request({
        state,
        approvals: [{ by: { id: 'U0LEAD1', name: 'Lena' }, at: T0 }],
        decidedBy: { id: 'U0LEAD2', name: 'Leo' },
      }),
      ENGLISH,
    );
    const blocks = JSON.stringify(message.blocks);
    expect(message.text).toBe(
      `R-7QK2M9XD (Delete folder: folder 6710a0000000000000000101) no longer waits for you: ${label.replace(/^:[a-z_]+: /, '')}.`,
    );
    expect(blocks).toContain(`no longer waits for you: ${label}.`);
    expect(blocks).not.toContain('"actions"');
    expect(blocks).not.toContain(ACTIONS.approve);
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
  });

  it('while its outcome is unknown it says the request waits to be settled, not that it is over', () => {
    const message = settledFollowUpMessage(request({ state: 'unknown' }), ENGLISH);
    expect(message.text).toBe(
      'R-7QK2M9XD (Delete folder: folder 6710a0000000000000000101) waits to be settled: outcome unknown.',
    );
    expect(JSON.stringify(message.blocks)).not.toContain('no longer waits');
  });

  it('reads in Persian, and an unblock names the viewer masked', () => {
    const message = settledFollowUpMessage(
      request({
        state: 'succeeded',
        operation: 'viewer.unblock',
        params: { mobileNumber: '09123456789' },
        target: 'viewer 09123456789',
        preview: { kind: 'unblock', mobileNumber: '09123456789', blocked: true, actionType: null },
      }),
      langFor('fa'),
    );
    const all = `${message.text}\n${JSON.stringify(message.blocks)}`;
    expect(all).toContain('دیگر منتظر شما نیست');
    expect(all).toContain('انجام شد');
    expect(all).toContain('0912***6789');
    expect(all).not.toContain('09123456789');
  });
});

describe('the answer to a submitted change', () => {
  it('says where the request waits, with the preview', () => {
    const message = submittedMessage(
      { kind: 'pending', request: request(), why: null },
      { approvalChannel: 'C0APPROVALS', warnings: [say.idShape('folder', 'x')] },
      ENGLISH,
    );
    const all = JSON.stringify(message.blocks);
    expect(message.text).toBe('Request R-7QK2M9XD posted for approval.');
    expect(all).toContain('Request *R-7QK2M9XD* posted to <#C0APPROVALS> for approval');
    expect(all).toContain('This cannot be undone.');
    expect(all).toContain(':warning: folder ID x is not 24 hex digits');
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
  });

  it('says why the policy refused it', () => {
    const message = submittedMessage(
      { kind: 'denied', reason: 'Only leads may run audit.' },
      { approvalChannel: 'C1' },
      ENGLISH,
    );
    expect(JSON.stringify(message.blocks)).toContain('Nothing was asked: Only leads may run audit.');
  });
});

describe('dates', () => {
  it('are formatted by Slack in the reader’s zone, with UTC as the fallback', () => {
    expect(slackDate('2026-11-21T10:00:00.000Z')).toBe(
      '<!date^1795255200^{date_short_pretty} {time}|2026-11-21 10:00 UTC>',
    );
    expect(slackDate('not a date')).toBe('not a date');
  });
});

// Issue 35, defect 11: a Persian reader read English `off`/`on`, and in a right-to-left line
// `off → on` was drawn as `on → off` (each value isolated, the arrow between them not).
describe('a settings change read in Persian', () => {
  const FARSI = langFor('fa');
  const FSI = '\u2068';
  const PDI = '\u2069';
  const change = request({
    id: 'R-7QK2M9XD',
    operation: 'protect.set',
    params: { changes: { preventZoom: true } },
    target: 'protection settings',
    preview: { kind: 'protection', rows: [{ field: 'preventZoom', before: false, after: true }] },
    state: 'succeeded',
    timeBox: {
      ...newTimeBox({ kind: 'for', ms: 7_200_000, text: '2h' }),
      endsAt: '2026-11-21T14:30:00.000Z',
    },
  });
  const where: [string, () => unknown][] = [
    ['the approval message', () => approvalMessage(change, VIEW_NOW, FARSI)],
    [
      'the reply to the requester',
      () =>
        submittedMessage(
          { kind: 'executed', request: change, errorText: null },
          { approvalChannel: 'C0APPROVALS' },
          FARSI,
        ),
    ],
    [
      "App Home's changes in force",
      () =>
        homeView(
          {
            userId: 'U0AGENT1',
            isLead: false,
            overview: { awaitingMe: [], mine: [] },
            protection: { preventZoom: true },
            audit: { scope: 'mine', events: [] },
            builtAt: VIEW_NOW.toISOString(),
            timeBoxes: [change],
          },
          FARSI,
        ),
    ],
  ];

  it.each(where)(
    '%s says off and on in Persian, before → after isolated as one left-to-right piece',
    (_w, build) => {
      const all = JSON.stringify(build());
      expect(all).toContain(`${FSI}${FSI}خاموش${PDI} → ${FSI}*روشن*${PDI}${PDI}`);
      expect(all).not.toMatch(/\boff\b|\bon\b/);
    },
  );
});

describe('a batch of unblocks run by break-glass, as a lead reviews it', () => {
  const batch = (repeats: string[]) =>
    requestWith({
      id: 'R-7QK2M9XE',
      operation: 'viewer.unblock-many',
      params: { mobileNumbers: ['09124564567', '09351112222'] },
      target: '2 viewers',
      preview: { kind: 'unblock-many', count: 2, repeats },
      state: 'succeeded',
      quorum: 1,
      breakGlass: {
        by: { id: 'U0AGENT1', name: 'Ana' },
        at: T0,
        reason: 'a classroom locked out before an exam',
        reviewDueAt: '2026-11-22T10:00:00.000Z',
        overdueAt: null,
        review: null,
      },
    });

  it.each([
    ['en', 'run by break-glass without the lead it needed: 1 repeat viewer in this batch'],
    ['fa', 'با شکستن شیشه و بی تأییدی که لازم داشت اجرا شد: ۱ بیننده‌ی تکراری در این دسته'],
  ] as const)('its repeat viewers are flagged, and listed masked (%s)', (locale, flag) => {
    const shown = JSON.stringify(approvalMessage(batch(['09124564567']), VIEW_NOW, langFor(locale)).blocks);
    expect(shown).toContain(flag);
    expect(shown).toContain('0912***4567');
    expect(shown).not.toContain('09124564567');
  });

  it('a batch with no repeat viewer carries no flag', () => {
    expect(JSON.stringify(approvalMessage(batch([]), VIEW_NOW, ENGLISH).blocks)).not.toContain(
      'Repeat viewers',
    );
  });
});
