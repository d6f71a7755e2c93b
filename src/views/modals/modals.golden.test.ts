import type { ModalView } from '@slack/types';
import { requestWith } from '../../../test/fixtures/requests.js';
import type { ProtectionConfig } from '../../client/types.js';
import { ENGLISH, type Lang, langFor } from '../../i18n/index.js';
import type { Prepared } from '../../services/types.js';
import { BLOCKS, INPUT_ACTION, protectFieldBlock } from '../ids.js';
import { loadingModal, problemLine, readViewState, statusModal } from './common.js';
import { deleteConfirmModal, deleteDraft, parseDeleteSubmission } from './delete.js';
import { parseProtectSubmission, protectDraft, protectModal } from './protect.js';
import { parseRejectSubmission, rejectModal } from './reject.js';
import { parseResolveSubmission, resolveModal } from './resolve.js';
import {
  CREATE_FORMS,
  fileEditModal,
  folderModal,
  parseFileEditSubmission,
  parsePlaylistSubmission,
  playlistEditModal,
} from './resources.js';
import { parseWhitelistSubmission, whitelistModal } from './whitelist.js';

/**
 * Golden snapshots of every change modal and its inline errors, in English and in Persian: a
 * change of wording shows up in review as a snapshot diff, to be read as a person would.
 */

const DRAFT_ID = 'x'.repeat(43);
const LANGS: readonly [string, Lang][] = [
  ['English', ENGLISH],
  ['Persian', langFor('fa')],
];

const CURRENT: ProtectionConfig = {
  speed: 5,
  fontColor: '#ffff00',
  fontSize: 14,
  opacity: 0.6,
  displayTextOnScreen: true,
  enableBeep: false,
  beepVolume: 0.5,
  beepInterval: 30,
  player: { themeColor: '#1e88e5', offlineMode: true, securityProtection: true },
  link: { accessWithMultiIp: false, expireTime: '2h' },
  enablePlaylist: true,
  faultTolerance: 6,
};

const FOLDER = '6710a0000000000000000101';

const prepared: Prepared = {
  operation: 'folder.delete',
  params: { bucketId: FOLDER },
  target: `folder ${FOLDER}`,
  preview: { kind: 'delete', resource: 'folder', id: FOLDER, title: 'درس‌های ترم پاییز', filesCount: 5 },
  warnings: [],
} as Prepared;

const unknownDelete: Prepared = {
  ...prepared,
  preview: { kind: 'delete', resource: 'folder', id: FOLDER, title: null, filesCount: null },
} as Prepared;

const request = requestWith({
  id: 'R-7QK2M9XD',
  operation: 'whitelist.set',
  params: { allowedDNS: [], expectBefore: ['1.2.3.4'] },
  target: 'whitelist',
  preview: { kind: 'whitelist', before: ['1.2.3.4'], after: [], added: [], removed: ['1.2.3.4'] },
  reason: 'سرور قدیمی خاموش شد',
});

const text = (value: string) => ({ [INPUT_ACTION]: { type: 'plain_text_input', value } });

function modals(lang: Lang): Record<string, ModalView> {
  return {
    'create folder': CREATE_FORMS['folder.create'].modal(DRAFT_ID, lang),
    'create playlist': CREATE_FORMS['playlist.create'].modal(DRAFT_ID, lang),
    'edit folder': folderModal(
      {
        mode: 'edit',
        bucketId: FOLDER,
        current: { title: 'Lectures', description: null },
        draftId: DRAFT_ID,
      },
      lang,
    ),
    'edit folder, values unknown': folderModal(
      {
        mode: 'edit',
        bucketId: FOLDER,
        current: null,
        note: 'The service did not answer.',
        draftId: DRAFT_ID,
      },
      lang,
    ),
    'edit file': fileEditModal(
      {
        fileId: '6710b0000000000000000201',
        current: { title: 'جلسه‌ی اول', description: 'مقدمه', hlsStatus: 'done' },
        coverAllowed: true,
        draftId: DRAFT_ID,
      },
      lang,
    ),
    'edit playlist': playlistEditModal(
      {
        playlistId: '6710c0000000000000000301',
        current: {
          title: 'Getting started',
          files: [
            { _id: '6710b0000000000000000201', title: 'Lecture 1' },
            { _id: '6710b0000000000000000202' },
          ],
        },
        draftId: DRAFT_ID,
      },
      lang,
    ),
    protect: protectModal(CURRENT, DRAFT_ID, lang),
    'whitelist add': whitelistModal(
      { mode: 'add', current: ['1.2.3.4', '2a00:1::4'], draftId: DRAFT_ID },
      lang,
    ),
    'whitelist remove, list unread': whitelistModal(
      { mode: 'remove', current: null, draftId: DRAFT_ID },
      lang,
    ),
    'whitelist add, list empty': whitelistModal({ mode: 'add', current: [], draftId: DRAFT_ID }, lang),
    'delete folder': deleteConfirmModal(
      { prepared, confirm: FOLDER, title: 'درس‌های ترم پاییز', draftId: DRAFT_ID },
      lang,
    ),
    'delete folder, only the ID known': deleteConfirmModal(
      { prepared: unknownDelete, confirm: FOLDER, title: null, draftId: DRAFT_ID },
      lang,
    ),
    reject: rejectModal(request, lang),
    'mark applied': resolveModal({ ...request, state: 'unknown' }, 'applied', lang),
    'mark not applied': resolveModal({ ...request, state: 'unknown' }, 'not-applied', lang),
    loading: loadingModal(lang.t.changes.deleteFolderTitle, lang),
    status: statusModal(
      lang.t.changes.changesDeleteTitle,
      [`:hourglass_flowing_sand: ${lang.t.changes.changesPosting}`, problemLine('The service is busy.')],
      lang,
    ),
  };
}

describe.each(LANGS)('every change modal in %s', (_name, lang) => {
  it.each(Object.entries(modals(lang)))('%s', (_what, view) => {
    expect(view).toMatchSnapshot();
  });
});

describe.each(LANGS)('the inline errors a person reads in %s', (_name, lang) => {
  it('a delete typed wrong, then left empty', () => {
    const draft = deleteDraft({ prepared, confirm: FOLDER, title: 'درس‌های ترم پاییز' });
    const submit = (typed: string, reason: string) =>
      parseDeleteSubmission(
        readViewState({ [BLOCKS.confirmText]: text(typed), [BLOCKS.reason]: text(reason) }),
        draft,
        lang,
      );
    expect([submit('6710a0000000000000000102', ''), submit('', 'course ended')]).toMatchSnapshot();
  });

  it('protection values out of bounds, not a duration, nothing changed', () => {
    const base = {
      [protectFieldBlock('opacity')]: { [INPUT_ACTION]: { type: 'number_input', value: '1.5' } },
      [protectFieldBlock('beepInterval')]: { [INPUT_ACTION]: { type: 'number_input', value: '-1' } },
      [protectFieldBlock('fontSize')]: { [INPUT_ACTION]: { type: 'number_input', value: 'big' } },
      [protectFieldBlock('link.expireTime')]: text('2 hours'),
      [BLOCKS.reason]: text(''),
    };
    const bad = parseProtectSubmission(readViewState(base), protectDraft(CURRENT), lang);
    const nothing = parseProtectSubmission(
      readViewState({ [BLOCKS.reason]: text('why') }),
      protectDraft(CURRENT),
      lang,
    );
    expect([bad, nothing]).toMatchSnapshot();
  });

  it('forms missing their title, reason, files or cover', () => {
    const playlist = parsePlaylistSubmission(
      readViewState({
        [BLOCKS.title]: text(''),
        [BLOCKS.playlistFiles]: text('6710b0000000000000000201\n6710b0000000000000000201'),
        [BLOCKS.reason]: text('x'.repeat(1001)),
      }),
      { playlistId: 'P1' },
      lang,
    );
    const nothing = parsePlaylistSubmission(
      readViewState({
        [BLOCKS.title]: text(''),
        [BLOCKS.playlistFiles]: text(''),
        [BLOCKS.reason]: text(''),
      }),
      { playlistId: 'P1' },
      lang,
    );
    const folder = CREATE_FORMS['folder.create'].parse(readViewState({ [BLOCKS.title]: text('') }), lang);
    const file = parseFileEditSubmission(
      readViewState({
        [BLOCKS.title]: text('x'.repeat(251)),
        [BLOCKS.reason]: text('new artwork'),
        [BLOCKS.cover]: {
          [INPUT_ACTION]: { type: 'file_input', files: [{ id: 'F2', mimetype: 'application/pdf' }] },
        },
      }),
      { fileId: 'F1', coverAllowed: true },
      lang,
    );
    expect([playlist, nothing, folder, file]).toMatchSnapshot();
  });

  it('a whitelist change without a reason, a reject and a mark without a note', () => {
    const whitelist = parseWhitelistSubmission(
      readViewState({ [BLOCKS.ips]: text('1.2.3.4'), [BLOCKS.reason]: text('') }),
      { mode: 'add' },
      lang,
    );
    const reject = parseRejectSubmission(
      readViewState({ [BLOCKS.rejectNote]: text('') }),
      rejectModal(request, lang).private_metadata ?? '',
      lang,
    );
    const resolve = parseResolveSubmission(
      readViewState({ [BLOCKS.resolveNote]: text('') }),
      resolveModal(request, 'applied', lang).private_metadata ?? '',
      lang,
    );
    expect([whitelist, reject, resolve]).toMatchSnapshot();
    expect(() => parseRejectSubmission(readViewState({}), 'not json', lang)).toThrow(
      lang.t.changes.formContextLost,
    );
  });
});
