import { requestWith } from '../../../test/fixtures/requests.js';
import type { ProtectionConfig } from '../../client/types.js';
import type { OperationRequest } from '../../core/model.js';
import { say } from '../../core/said.js';
import { PROTECTION_FIELDS } from '../../core/validate/protection.js';
import { ENGLISH, FSI, langFor, ltr, PDI } from '../../i18n/index.js';
import type { Prepared } from '../../services/types.js';
import { BLOCKS, CALLBACKS, INPUT_ACTION, protectFieldBlock, protectGroupBlock } from '../ids.js';
import { checkBlockKitLimits } from '../limits.js';
import { draftIdOf, draftMetadata, loadingModal, readViewState, statusModal } from './common.js';
import { DeleteDraftSchema, deleteConfirmModal, deleteDraft, parseDeleteSubmission } from './delete.js';
import { parseProtectSubmission, protectDraft, protectModal } from './protect.js';
import { parseRejectSubmission, rejectModal } from './reject.js';
import { resolveModal } from './resolve.js';
import {
  CREATE_FORMS,
  fileEditModal,
  folderModal,
  parseFileEditSubmission,
  parseFolderSubmission,
  parsePlaylistLines,
  parsePlaylistSubmission,
  playlistCreateModal,
  playlistEditModal,
} from './resources.js';
import { parseWhitelistSubmission, whitelistModal } from './whitelist.js';

/** A draft ID as the change handlers make them (43 base64url characters). */
const DRAFT_ID = 'x'.repeat(43);

const PERSIAN = 'عنوان بسیار طولانی به زبان فارسی برای آزمون محدودیت‌ها ۱۲۳۴۵';
const LONG = PERSIAN.repeat(60);

const text = (value: string | null) => ({ [INPUT_ACTION]: { type: 'plain_text_input', value } });
const number = (value: string | null) => ({ [INPUT_ACTION]: { type: 'number_input', value } });
const select = (value: string | null) => ({
  [INPUT_ACTION]: {
    type: 'static_select',
    selected_option: value === null ? null : { text: { type: 'plain_text', text: value }, value },
  },
});
const checks = (values: string[]) => ({
  [INPUT_ACTION]: {
    type: 'checkboxes',
    selected_options: values.map((value) => ({ text: { type: 'plain_text', text: value }, value })),
  },
});

const CURRENT: ProtectionConfig = {
  speed: 5,
  fontColor: '#ffff00',
  fontSize: 14,
  opacity: 0.6,
  sendProtectionAlert: false,
  faultTolerance: 6,
  preventZoom: false,
  ipValidation: false,
  fixWatermark: false,
  displayTextOnScreen: true,
  enableBeep: false,
  beepVolume: 0.5,
  beepInterval: 30,
  player: { themeColor: '#1e88e5', offlineMode: true, securityProtection: true },
  link: { accessWithMultiIp: false, expireTime: '2h' },
  enableActiveSession: false,
  regenerateLink: true,
  relatedPlaylist: false,
  enablePlaylist: true,
};

/** The state Slack sends back for the protect modal left as it was shown. */
function untouchedProtect(): Record<string, Record<string, unknown>> {
  return {
    [protectGroupBlock('watermark')]: checks(['displayTextOnScreen']),
    [protectGroupBlock('beep')]: checks([]),
    [protectGroupBlock('link')]: checks(['regenerateLink']),
    [protectGroupBlock('player')]: checks(['player.offlineMode', 'player.securityProtection']),
    [protectGroupBlock('session')]: checks([]),
    [protectGroupBlock('playlist')]: checks(['enablePlaylist']),
    [protectGroupBlock('security')]: checks([]),
    [protectFieldBlock('speed')]: number('5'),
    [protectFieldBlock('fontColor')]: select('#ffff00'),
    [protectFieldBlock('fontSize')]: number('14'),
    [protectFieldBlock('opacity')]: number('0.6'),
    [protectFieldBlock('beepVolume')]: number('0.5'),
    [protectFieldBlock('beepInterval')]: number('30'),
    [protectFieldBlock('link.expireTime')]: text('2h'),
    [protectFieldBlock('player.themeColor')]: text('#1e88e5'),
    [protectFieldBlock('faultTolerance')]: number('6'),
    [BLOCKS.reason]: text('Customer reported screen recording'),
  };
}

describe('the protect modal', () => {
  const view = protectModal(CURRENT, DRAFT_ID, ENGLISH);

  it('fits Slack and groups the settings, colours by name, numbers with bounds', () => {
    expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
    const all = JSON.stringify(view.blocks);
    expect(all).toContain('yellow (#ffff00)');
    const opacity = view.blocks.find((b) => 'block_id' in b && b.block_id === protectFieldBlock('opacity'));
    expect(opacity).toMatchObject({
      element: {
        type: 'number_input',
        is_decimal_allowed: true,
        min_value: '0',
        max_value: '1',
        initial_value: '0.6',
      },
    });
    const size = view.blocks.find((b) => 'block_id' in b && b.block_id === protectFieldBlock('fontSize'));
    expect(size).toMatchObject({
      element: { type: 'number_input', is_decimal_allowed: false, min_value: '0' },
    });
    const expiry = view.blocks.find(
      (b) => 'block_id' in b && b.block_id === protectFieldBlock('link.expireTime'),
    );
    expect(JSON.stringify(expiry)).toContain('s, m (minutes), h, d, w, M (months), y');
    const player = view.blocks.find((b) => 'block_id' in b && b.block_id === protectGroupBlock('player'));
    expect(player).toMatchObject({
      element: {
        type: 'checkboxes',
        initial_options: [{ value: 'player.offlineMode' }, { value: 'player.securityProtection' }],
      },
    });
  });

  it('an agent who changes opacity and unticks offline mode sends only those two', () => {
    const values = untouchedProtect();
    values[protectFieldBlock('opacity')] = number('0.3');
    values[protectGroupBlock('player')] = checks(['player.securityProtection']);
    const parsed = parseProtectSubmission(readViewState(values), protectDraft(CURRENT), ENGLISH);
    expect(parsed).toEqual({
      ok: true,
      changes: { opacity: 0.3, player: { offlineMode: false } },
      rows: [
        { field: 'opacity', before: 0.6, after: 0.3 },
        { field: 'player.offlineMode', before: true, after: false },
      ],
      reason: 'Customer reported screen recording',
      timeBox: null,
    });
  });

  it('an agent who changes nothing is told on the form', () => {
    const parsed = parseProtectSubmission(readViewState(untouchedProtect()), protectDraft(CURRENT), ENGLISH);
    expect(parsed).toEqual({
      ok: false,
      errors: { [BLOCKS.reason]: 'You have not changed any setting: change one, or close the form.' },
    });
  });

  it.each([
    ['opacity', number('1.5'), 'Must be between 0 and 1.'],
    ['beepInterval', number('-1'), 'Must be 0 or more.'],
    [
      'link.expireTime',
      text('2 hours'),
      '"2 hours" is not a duration: a number and a unit (s m h d w M y), e.g. 2h, 1d, 1M.',
    ],
  ])('an invalid %s is shown under its field', (field, value, message) => {
    const values = untouchedProtect();
    values[protectFieldBlock(field)] = value;
    const parsed = parseProtectSubmission(readViewState(values), protectDraft(CURRENT), ENGLISH);
    expect(parsed).toEqual({ ok: false, errors: { [protectFieldBlock(field)]: message } });
  });

  it('reads Persian digits and the colour picked by hex', () => {
    const values = untouchedProtect();
    values[protectFieldBlock('fontSize')] = number('۱۸');
    values[protectFieldBlock('fontColor')] = select('#e74c3c');
    const parsed = parseProtectSubmission(readViewState(values), protectDraft(CURRENT), ENGLISH);
    expect(parsed).toMatchObject({ ok: true, changes: { fontSize: 18, fontColor: '#e74c3c' } });
  });
});

describe('the whitelist modal', () => {
  it('fits Slack with 100 addresses in the current list', () => {
    const current = Array.from(
      { length: 100 },
      (_, i) => `2001:db8:${i.toString(16)}::ffff:${i.toString(16)}`,
    );
    for (const mode of ['add', 'remove'] as const) {
      const view = whitelistModal({ mode, current, draftId: DRAFT_ID });
      expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
      expect(view.callback_id).toBe(CALLBACKS.whitelistChange);
    }
  });

  it('reads addresses one per line or with commas, Persian digits included', () => {
    const values = {
      [BLOCKS.ips]: text('۱.۲.۳.۴\n5.6.7.8, 2A00:1::1'),
      [BLOCKS.reason]: text('new server'),
    };
    expect(parseWhitelistSubmission(readViewState(values), { mode: 'add' }, ENGLISH)).toEqual({
      ok: true,
      mode: 'add',
      ips: ['1.2.3.4', '5.6.7.8', '2a00:1::1'],
      reason: 'new server',
      timeBox: null,
    });
  });

  it('shows a host name and a missing reason under their fields', () => {
    const values = { [BLOCKS.ips]: text('example.com'), [BLOCKS.reason]: text('') };
    expect(parseWhitelistSubmission(readViewState(values), { mode: 'remove' }, ENGLISH)).toEqual({
      ok: false,
      errors: {
        [BLOCKS.ips]: '"example.com" is a host name; give its IP address',
        [BLOCKS.reason]: 'Give a reason: the lead who decides reads it.',
      },
    });
  });

  it('a Persian agent who types a private address reads why in Persian, not in English', () => {
    const values = { [BLOCKS.ips]: text('10.0.0.1'), [BLOCKS.reason]: text('سرور تازه') };
    const read = parseWhitelistSubmission(readViewState(values), { mode: 'add' }, langFor('fa'));
    const error = read.ok ? '' : (read.errors[BLOCKS.ips] ?? '');
    expect(error).toContain('نشانی خصوصی');
    expect(error).not.toContain('private address');
  });
});

function preparedDelete(overrides: Partial<Prepared> = {}): Prepared {
  return {
    operation: 'folder.delete',
    params: { bucketId: '6710a0000000000000000101' },
    target: 'folder 6710a0000000000000000101',
    preview: {
      kind: 'delete',
      resource: 'folder',
      id: '6710a0000000000000000101',
      title: 'Lectures',
      filesCount: 5,
    },
    warnings: [say.warnFolderFiles('6710a0000000000000000101', 'Lectures', 5)],
    ...overrides,
  } as Prepared;
}

describe('the typed confirmation of a delete', () => {
  const opened = { prepared: preparedDelete(), confirm: '6710a0000000000000000101', title: 'Lectures' };
  const view = deleteConfirmModal({ ...opened, draftId: DRAFT_ID }, ENGLISH);
  const submit = (typed: string, reason = 'course ended') =>
    parseDeleteSubmission(
      readViewState({ [BLOCKS.confirmText]: text(typed), [BLOCKS.reason]: text(reason) }),
      deleteDraft(opened),
      ENGLISH,
    );

  it('shows what is deleted, how many files go with it, and that it cannot be undone', () => {
    const all = JSON.stringify(view.blocks);
    expect(all).toContain('“Lectures” and its 5 files. This cannot be undone.');
    expect(all).toContain('Type the ID to confirm');
    expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
  });

  it('refuses the wrong ID under the confirmation field', () => {
    expect(submit('6710a0000000000000000102')).toEqual({
      ok: false,
      errors: {
        [BLOCKS.confirmText]:
          '“6710a0000000000000000102” does not match. Type 6710a0000000000000000101 or the exact title to confirm.',
      },
    });
  });

  it.each([
    ['the ID', '6710a0000000000000000101'],
    [
      'the ID in Persian digits and backticks',
      `\`${'6710a0000000000000000101'.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)] ?? d)}\``,
    ],
    ['the exact title', 'Lectures'],
  ])('accepts %s', (_what, typed) => {
    const parsed = submit(typed);
    expect(parsed).toMatchObject({
      ok: true,
      reason: 'course ended',
      prepared: { operation: 'folder.delete' },
    });
    if (parsed.ok) expect(parsed.prepared.params).toEqual({ bucketId: '6710a0000000000000000101' });
  });

  it('reads its draft back typed, and refuses a draft whose parameters were altered in the store', () => {
    const stored = JSON.parse(JSON.stringify(deleteDraft(opened)));
    expect(DeleteDraftSchema.parse(stored).prepared).toMatchObject({
      operation: 'folder.delete',
      params: { bucketId: '6710a0000000000000000101' },
      preview: { kind: 'delete', title: 'Lectures', filesCount: 5 },
    });
    stored.prepared.params = { bucketId: '../6710a0000000000000000102' };
    expect(DeleteDraftSchema.safeParse(stored).success).toBe(false);
  });

  it('fits Slack with a long Persian title', () => {
    const big = deleteConfirmModal(
      {
        prepared: preparedDelete({
          preview: { kind: 'delete', resource: 'folder', id: 'X', title: LONG, filesCount: 100 },
          warnings: [say.idShape('folder', LONG), say.idShape('folder', LONG)],
        }),
        confirm: 'X',
        title: LONG,
        draftId: DRAFT_ID,
      },
      ENGLISH,
    );
    expect(checkBlockKitLimits({ view: big }, 'modal')).toEqual([]);
    // A title nobody could type exactly is not offered; the ID still is.
    expect(JSON.stringify(big.blocks)).toContain('Type X to confirm.');
  });
});

describe('folder, file and playlist forms', () => {
  it('a playlist is created from its title, which the form requires', () => {
    const form = CREATE_FORMS['playlist.create'];
    const view = form.modal(DRAFT_ID, ENGLISH);
    expect(view).toMatchObject({
      callback_id: CALLBACKS.playlistCreate,
      private_metadata: draftMetadata(DRAFT_ID),
    });
    const state = (title: string) =>
      readViewState({ [BLOCKS.title]: text(title), [BLOCKS.reason]: text('new hires') });
    expect(form.parse(state(` ${PERSIAN} `), ENGLISH)).toEqual({
      ok: true,
      input: { kind: 'playlist.create', title: PERSIAN },
      reason: 'new hires',
    });
    expect(form.parse(state(''), ENGLISH)).toEqual({
      ok: false,
      errors: { [BLOCKS.title]: 'Give a title.' },
    });
  });

  it.each([
    ['create folder', folderModal({ mode: 'create', draftId: DRAFT_ID }, ENGLISH)],
    ['create playlist', playlistCreateModal(DRAFT_ID, ENGLISH)],
    [
      'edit folder',
      folderModal(
        {
          mode: 'edit',
          bucketId: 'B1',
          current: { title: LONG, description: LONG },
          draftId: DRAFT_ID,
        },
        ENGLISH,
      ),
    ],
    [
      'edit folder unknown',
      folderModal(
        { mode: 'edit', bucketId: 'B1', current: null, note: 'not supported.', draftId: DRAFT_ID },
        ENGLISH,
      ),
    ],
    [
      'edit file',
      fileEditModal(
        {
          fileId: 'F1',
          current: { title: LONG, description: LONG, hlsStatus: 'done' },
          coverAllowed: true,
          draftId: DRAFT_ID,
        },
        ENGLISH,
      ),
    ],
    [
      'edit playlist with 100 files',
      playlistEditModal(
        {
          playlistId: 'P1',
          current: {
            title: LONG,
            files: Array.from({ length: 100 }, (_, i) => ({
              _id: `6710b0${String(i).padStart(18, '0')}`,
              title: PERSIAN,
            })),
          },
          draftId: DRAFT_ID,
        },
        ENGLISH,
      ),
    ],
  ])('%s fits Slack', (_what, view) => {
    expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
  });

  it('a folder needs a title', () => {
    const values = {
      [BLOCKS.title]: text('  '),
      [BLOCKS.description]: text(null),
      [BLOCKS.reason]: text('why'),
    };
    expect(parseFolderSubmission(readViewState(values), { mode: 'create' }, ENGLISH)).toEqual({
      ok: false,
      errors: { [BLOCKS.title]: 'Give a title.' },
    });
  });

  it('a file edit takes the uploaded cover from the view state', () => {
    const draft = { fileId: 'F1', coverAllowed: true };
    const values = {
      [BLOCKS.title]: text('Lecture 1'),
      [BLOCKS.description]: text(''),
      [BLOCKS.reason]: text('new artwork'),
      [BLOCKS.cover]: {
        [INPUT_ACTION]: {
          type: 'file_input',
          files: [
            {
              id: 'F0COVER',
              name: 'cover.png',
              mimetype: 'image/png',
              url_private: 'https://files.slack.com/x/cover.png',
            },
          ],
        },
      },
    };
    expect(parseFileEditSubmission(readViewState(values), draft, ENGLISH)).toEqual({
      ok: true,
      reason: 'new artwork',
      input: {
        kind: 'file.edit',
        fileId: 'F1',
        title: 'Lecture 1',
        cover: {
          slackFileId: 'F0COVER',
          filename: 'cover.png',
          contentType: 'image/png',
          url: 'https://files.slack.com/x/cover.png',
        },
      },
    });
    const pdf = {
      ...values,
      [BLOCKS.cover]: {
        [INPUT_ACTION]: { type: 'file_input', files: [{ id: 'F2', mimetype: 'application/pdf' }] },
      },
    };
    expect(parseFileEditSubmission(readViewState(pdf), draft, ENGLISH)).toEqual({
      ok: false,
      errors: { [BLOCKS.cover]: 'The cover must be an image (PNG, JPEG, GIF or WebP).' },
    });
  });

  it('reads playlist lines `id | title` in order, naming the line of each problem', () => {
    expect(parsePlaylistLines('F1 | Intro\n\n  F2  \nF3|  Outro ', ENGLISH)).toEqual({
      ok: true,
      files: [{ _id: 'F1', title: 'Intro' }, { _id: 'F2' }, { _id: 'F3', title: 'Outro' }],
    });
    expect(parsePlaylistLines('F1\nbad id | x\nF1', ENGLISH)).toEqual({
      ok: false,
      problems: [
        'line 2: the file ID "bad id" has spaces inside; give one ID',
        'line 3: file F1 is listed twice',
      ],
    });
  });

  it('a Persian agent who lists a file ID with a space reads why in Persian, not in English', () => {
    const read = parsePlaylistLines('bad id | x', langFor('fa'));
    const problem = read.ok ? '' : (read.problems[0] ?? '');
    expect(problem).toContain('فاصله دارد');
    expect(problem).not.toContain('has spaces inside');
  });

  it('a playlist edit needs a title or files', () => {
    const values = {
      [BLOCKS.title]: text(''),
      [BLOCKS.playlistFiles]: text('  '),
      [BLOCKS.reason]: text('why'),
    };
    expect(parsePlaylistSubmission(readViewState(values), { playlistId: 'P1' }, ENGLISH)).toEqual({
      ok: false,
      errors: { [BLOCKS.title]: 'Give a new title, the list of files, or both.' },
    });
  });
});

describe('what a change modal carries back and forth', () => {
  it.each([
    ['protect', protectModal(CURRENT, DRAFT_ID, ENGLISH)],
    ['whitelist', whitelistModal({ mode: 'add', current: [], draftId: DRAFT_ID })],
    [
      'delete',
      deleteConfirmModal(
        { prepared: preparedDelete(), confirm: 'X', title: null, draftId: DRAFT_ID },
        ENGLISH,
      ),
    ],
    ['create folder', folderModal({ mode: 'create', draftId: DRAFT_ID }, ENGLISH)],
    ['edit folder', folderModal({ mode: 'edit', bucketId: 'B1', current: null, draftId: DRAFT_ID }, ENGLISH)],
    [
      'edit file',
      fileEditModal({ fileId: 'F1', current: null, coverAllowed: true, draftId: DRAFT_ID }, ENGLISH),
    ],
    ['edit playlist', playlistEditModal({ playlistId: 'P1', current: null, draftId: DRAFT_ID }, ENGLISH)],
  ])('the %s modal carries only its draft ID: nothing it was opened for', (_what, view) => {
    expect(view.private_metadata).toBe(draftMetadata(DRAFT_ID));
    expect(draftIdOf(view.private_metadata ?? '')).toBe(DRAFT_ID);
  });

  it.each([
    ['an old-style payload', JSON.stringify({ fileId: '..', coverAllowed: true })],
    ['a short ID', JSON.stringify({ draft: 'abc' })],
    ['an ID with more beside it', JSON.stringify({ draft: DRAFT_ID, bucketId: 'B2' })],
    ['not JSON', 'draft'],
  ])('%s names no draft', (_what, metadata) => {
    expect(draftIdOf(metadata)).toBeNull();
  });
});

describe('the reject modal', () => {
  const request: OperationRequest = {
    id: 'R-7QK2M9XD',
    operation: 'whitelist.set',
    params: { allowedDNS: [], expectBefore: [] },
    paramsHash: '0'.repeat(64),
    target: 'whitelist',
    preview: { kind: 'whitelist', before: ['1.2.3.4'], after: [], added: [], removed: ['1.2.3.4'] },
    reason: LONG,
    requester: { id: 'U0AGENT1', name: LONG },
    state: 'pending',
    quorum: 1,
    approvals: [],
    decidedBy: null,
    decisionNote: null,
    createdAt: '2026-11-21T10:00:00.000Z',
    expiresAt: null,
    updatedAt: '2026-11-21T10:00:00.000Z',
    result: null,
    error: null,
    slack: null,
    version: 1,
  };

  it('fits Slack and asks why', () => {
    const view = rejectModal(request);
    expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
    expect(view.title.text).toBe('Reject R-7QK2M9XD');
    expect(
      parseRejectSubmission(
        readViewState({ [BLOCKS.rejectNote]: text('') }),
        view.private_metadata ?? '',
        ENGLISH,
      ),
    ).toEqual({
      ok: false,
      errors: { [BLOCKS.rejectNote]: 'Say why: the requester reads it.' },
    });
    expect(
      parseRejectSubmission(
        readViewState({ [BLOCKS.rejectNote]: text(' wrong server ') }),
        view.private_metadata ?? '',
        ENGLISH,
      ),
    ).toEqual({ ok: true, requestId: 'R-7QK2M9XD', note: 'wrong server' });
  });
});

describe('status views', () => {
  it('loading and result views fit Slack with long Persian text', () => {
    expect(checkBlockKitLimits({ view: loadingModal(LONG, ENGLISH) }, 'modal')).toEqual([]);
    expect(
      checkBlockKitLimits(
        {
          view: statusModal(
            LONG,
            Array.from({ length: 30 }, () => LONG),
          ),
        },
        'modal',
      ),
    ).toEqual([]);
  });

  it('a form whose metadata was lost is refused plainly', () => {
    expect(() => parseRejectSubmission(readViewState({}), 'not json', ENGLISH)).toThrow(
      'The form lost its context; open it again.',
    );
  });
});

describe('the change modals in Persian, which is longer', () => {
  const fa = langFor('fa');
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => `2001:db8:${i.toString(16)}::ffff:${i.toString(16)}`);
  const request = requestWith({
    id: 'R-7QK2M9XD',
    operation: 'whitelist.set',
    params: { allowedDNS: [], expectBefore: [] },
    target: 'whitelist',
    preview: { kind: 'whitelist', before: many(100), after: [], added: [], removed: many(100) },
    reason: LONG,
    requester: { id: 'U0AGENT1', name: LONG },
  });

  it.each([
    ['English', ENGLISH],
    ['Persian', fa],
  ])('every modal fits Slack with long Persian values, read in %s', (_name, lang) => {
    const views = [
      protectModal(CURRENT, DRAFT_ID, lang),
      whitelistModal({ mode: 'add', current: many(100), draftId: DRAFT_ID }, lang),
      whitelistModal({ mode: 'remove', current: null, draftId: DRAFT_ID }, lang),
      deleteConfirmModal(
        {
          prepared: preparedDelete({
            preview: { kind: 'delete', resource: 'folder', id: 'X', title: LONG, filesCount: 100 },
            warnings: [say.idShape('folder', LONG), say.idShape('folder', LONG)],
          }),
          confirm: 'X',
          title: LONG,
          draftId: DRAFT_ID,
        },
        lang,
      ),
      folderModal({ mode: 'create', draftId: DRAFT_ID }, lang),
      folderModal(
        {
          mode: 'edit',
          bucketId: 'B1',
          current: { title: LONG, description: LONG },
          note: LONG,
          draftId: DRAFT_ID,
        },
        lang,
      ),
      fileEditModal(
        {
          fileId: 'F1',
          current: { title: LONG, description: LONG, hlsStatus: LONG },
          coverAllowed: true,
          note: LONG,
          draftId: DRAFT_ID,
        },
        lang,
      ),
      playlistEditModal(
        {
          playlistId: 'P1',
          current: {
            title: LONG,
            files: Array.from({ length: 100 }, (_, i) => ({
              _id: `6710b0${String(i).padStart(18, '0')}`,
              title: PERSIAN,
            })),
          },
          note: LONG,
          draftId: DRAFT_ID,
        },
        lang,
      ),
      playlistCreateModal(DRAFT_ID, lang),
      rejectModal(request, lang),
      resolveModal({ ...request, state: 'unknown' }, 'applied', lang),
      resolveModal({ ...request, state: 'unknown' }, 'not-applied', lang),
      loadingModal(LONG, lang),
      statusModal(
        LONG,
        Array.from({ length: 30 }, () => LONG),
        lang,
      ),
    ];
    for (const view of views) expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
  });

  it('no modal title or button is cut to fit Slack’s 24 characters', () => {
    const t = fa.t.changes;
    const texts = [
      t.folderCreateTitle,
      t.folderEditTitle,
      t.fileEditTitle,
      t.playlistCreateTitle,
      t.playlistEditTitle,
      t.protectFormTitle,
      t.whitelistFormAddTitle,
      t.whitelistFormRemoveTitle,
      t.deleteFolderTitle,
      t.deleteFileTitle,
      t.deletePlaylistTitle,
      t.rejectFormTitle(ltr(fa, 'R-7QK2M9XD')),
      t.rejectFormResultTitle,
      t.resolveFormApplied,
      t.resolveFormNotApplied,
      t.changesWhitelistTitle,
      t.changesDeleteTitle,
      t.formAskApproval,
      t.deleteFormSubmit,
      t.rejectFormSubmit,
      t.formCancel,
      t.formClose,
    ];
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(24);
    const view = rejectModal(request, fa);
    expect(view.title.text).toBe(`رد درخواست ${FSI}R-7QK2M9XD${PDI}`);
    expect(view.close?.text).toBe('انصراف');
  });

  it('every protection setting’s Persian name, help and colour is shown whole, not cut', () => {
    const all = JSON.stringify(protectModal(CURRENT, DRAFT_ID, fa).blocks);
    for (const field of PROTECTION_FIELDS) {
      const t = fa.t.changes;
      const label = t.protectFormFieldLabel(field.field, field.label);
      expect(all).toContain(
        field.type === 'boolean' ? `"${label}"` : `"${label} (\u2068${field.field}\u2069)"`,
      );
      if (field.type === 'boolean') {
        // Option descriptions hold 75 characters: the Persian help is written to fit whole.
        expect(all).toContain(JSON.stringify(t.protectFormFieldHelp(field.field, field.help)));
      }
    }
    expect(all).toContain('زرد (\u2068#ffff00\u2069)');
    expect(all).toContain('میزان کدری متن (\u2068opacity\u2069)');
  });

  it('a Persian reader is asked to type the ID itself, and told in Persian when it does not match', () => {
    const opened = { prepared: preparedDelete(), confirm: '6710a0000000000000000101', title: 'Lectures' };
    const view = deleteConfirmModal({ ...opened, draftId: DRAFT_ID }, fa);
    const confirm = view.blocks.find((b) => 'block_id' in b && b.block_id === BLOCKS.confirmText);
    expect(confirm).toMatchObject({
      label: { text: 'برای تأیید، شناسه را تایپ کنید' },
      element: { placeholder: { text: '6710a0000000000000000101' } },
    });
    const parsed = parseDeleteSubmission(
      readViewState({
        [BLOCKS.confirmText]: text('6710a0000000000000000102'),
        [BLOCKS.reason]: text('پایان ترم'),
      }),
      deleteDraft(opened),
      fa,
    );
    expect(parsed).toEqual({
      ok: false,
      errors: {
        [BLOCKS.confirmText]: `«${FSI}6710a0000000000000000102${PDI}» مطابقت ندارد. برای تأیید، ${FSI}6710a0000000000000000101${PDI} یا عنوان دقیق را تایپ کنید.`,
      },
    });
    // The typed word is the ID as it is, whatever the reader's language.
    expect(
      parseDeleteSubmission(
        readViewState({
          [BLOCKS.confirmText]: text('۶۷۱۰a0000000000000000101'),
          [BLOCKS.reason]: text('پایان ترم'),
        }),
        deleteDraft(opened),
        fa,
      ),
    ).toMatchObject({ ok: true, reason: 'پایان ترم' });
  });
});
