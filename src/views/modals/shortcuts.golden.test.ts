import type { KnownBlock, ModalView } from '@slack/types';
import { ENGLISH, FSI, type Lang, langFor, ltr, PDI } from '../../i18n/index.js';
import { section } from '../blocks.js';
import { BLOCK_KIT_LIMITS, findBlockKitProblems } from '../limits.js';
import {
  menuModal,
  noFileIdText,
  retryPickModal,
  retryTypeModal,
  unblockPickModal,
  unblockTypeModal,
  workingModal,
} from './shortcuts.js';

/**
 * Golden snapshots of the shortcuts' modals in English and Persian (a change of wording shows up
 * in review as a snapshot diff, to be read as a person would), and Slack's limits on them in both
 * languages, the longest lists included.
 */

const DRAFT_ID = 'x'.repeat(43);
const LANGS: readonly [string, Lang][] = [
  ['English', ENGLISH],
  ['Persian', langFor('fa')],
];
const FILE_ID = '671018d0403eba579a6f90e2';
const REFUSED = '+63 917***4567 is a mobile number in the Philippines (PH), not Iran (IR).';
const RESULT: KnownBlock[] = [
  section(':white_check_mark: Viewer `0912***6789` is unblocked; they can watch again.'),
];

function modals(lang: Lang): Record<string, ModalView> {
  const t = lang.t.shortcuts;
  return {
    'unblock: numbers found': unblockPickModal(
      { numbers: ['09123456789', '09351231122'], refused: [REFUSED], draftId: DRAFT_ID },
      lang,
    ),
    'unblock: after a click': unblockPickModal(
      { numbers: ['09123456789'], refused: [], draftId: DRAFT_ID, result: RESULT },
      lang,
    ),
    'unblock: no number found': unblockTypeModal({ text: t.shortcutNoMobile, target: {} }, lang),
    'unblock: no usable number': unblockTypeModal(
      { text: t.shortcutNoUsableMobile, refused: [REFUSED], target: { channelId: 'C0VIDOPS' } },
      lang,
    ),
    'unblock: from the menu': unblockTypeModal({ text: t.shortcutMenuUnblockIntro, target: {} }, lang),
    'unblock: working': workingModal(
      t.shortcutUnblockTitle,
      t.shortcutUnblocking(ltr(lang, '0912***6789')),
      lang,
    ),
    'retry: IDs found': retryPickModal({ fileIds: [FILE_ID, '6710a0000000000000000101'] }, lang),
    'retry: no ID found': retryTypeModal({ text: noFileIdText(lang), target: {} }, lang),
    'retry: from the menu': retryTypeModal({ text: t.shortcutMenuRetryIntro, target: {} }, lang),
    'retry: working': workingModal(t.shortcutRetryTitle, t.shortcutRetrying(ltr(lang, FILE_ID)), lang),
    'menu: reading': workingModal(t.shortcutMenuProtect, t.shortcutReading, lang),
    menu: menuModal(lang),
  };
}

/** The same modals at their longest: twenty numbers, twenty refusals, twenty result blocks. */
function longest(lang: Lang): Record<string, ModalView> {
  const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
  const result = many(25, (i) => section(`:x: ${'خطای سرویس '.repeat(20)} ${i}`));
  return {
    unblock: unblockPickModal(
      {
        numbers: many(20, (i) => `09${String(i).padStart(2, '0')}1236789`),
        refused: many(20, () => REFUSED),
        draftId: DRAFT_ID,
        result,
      },
      lang,
    ),
    retry: retryPickModal(
      { fileIds: many(20, (i) => `${FILE_ID.slice(0, 22)}${i}`.padEnd(24, '0')), result },
      lang,
    ),
    typed: unblockTypeModal(
      { text: lang.t.shortcuts.shortcutNoUsableMobile, refused: many(20, () => REFUSED), target: {} },
      lang,
    ),
  };
}

describe.each(LANGS)('the shortcuts’ modals in %s', (_name, lang) => {
  it('read as they always did (golden)', () => {
    expect(modals(lang)).toMatchSnapshot();
  });

  it('keep Slack’s limits, at their longest too', () => {
    const problems = Object.entries({ ...modals(lang), ...longest(lang) }).flatMap(([name, view]) =>
      findBlockKitProblems({ view }, 'modal').map((p) => `${name}: ${p.path} ${p.message}`),
    );
    expect(problems).toEqual([]);
  });

  it('fit every title and button of a modal in 24 characters without cutting it', () => {
    const t = lang.t.shortcuts;
    const short = [
      t.shortcutUnblockTitle,
      t.shortcutRetryTitle,
      t.shortcutMenuProtect,
      t.shortcutMenuWhitelistAdd,
      t.shortcutMenuWhitelistRemove,
      t.shortcutUnblock,
      t.shortcutRetry,
      t.shortcutDone,
      t.shortcutClose,
      t.shortcutCancel,
    ];
    expect(short.filter((text) => text.length > BLOCK_KIT_LIMITS.viewTitle)).toEqual([]);
    for (const view of Object.values(modals(lang))) {
      for (const text of [view.title.text, view.close?.text, view.submit?.text]) {
        if (text !== undefined) expect(text.endsWith('…')).toBe(false);
      }
    }
  });
});

describe('a Persian reader of the shortcuts’ modals', () => {
  const fa = langFor('fa');

  it('reads the numbers found and file IDs with Latin digits, each isolated', () => {
    const unblock = JSON.stringify(
      unblockPickModal({ numbers: ['09123456789'], refused: [], draftId: DRAFT_ID }, fa).blocks,
    );
    expect(unblock).toContain(`${FSI}\`09123456789\`${PDI}`);
    const retry = JSON.stringify(retryPickModal({ fileIds: [FILE_ID] }, fa).blocks);
    expect(retry).toContain(`${FSI}\`${FILE_ID}\`${PDI}`);
    expect(noFileIdText(fa)).toContain(`${FSI}${FILE_ID}${PDI}`);
    expect(noFileIdText(fa)).toContain('۲۴');
  });

  it('reads the menu’s commands as isolated code spans, listed the Persian way', () => {
    const menu = JSON.stringify(menuModal(fa).blocks);
    for (const command of ['unblock', 'retry', 'protect', 'whitelist']) {
      expect(menu).toContain(`${FSI}\`/vidops ${command}\`${PDI}`);
    }
    expect(menu).toContain(`${PDI}، و ${FSI}\`/vidops whitelist\``);
    expect(menu).toContain(`تأییدهای ${FSI}/vidops${PDI} می‌گذرند`);
  });

  it('while an English reader reads no isolates at all, and the words of before', () => {
    const all = JSON.stringify(modals(ENGLISH));
    expect(all).not.toContain(FSI);
    expect(all).not.toContain(PDI);
    expect(noFileIdText(ENGLISH)).toBe(
      'No file ID was found in this message (the service’s IDs are 24 letters and digits, e.g. 671018d0403eba579a6f90e2). Type the ID instead.',
    );
    const menu = JSON.stringify(menuModal(ENGLISH).blocks);
    expect(menu).toContain(
      'What do you want to do? Changes go through the same checks and approvals as /vidops.',
    );
    expect(menu).toContain(
      'The same as `/vidops unblock`, `/vidops retry`, `/vidops protect` and `/vidops whitelist`.',
    );
  });
});
