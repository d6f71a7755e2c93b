import type { KnownBlock, ModalView } from '@slack/types';
import { escapeWorded } from '../../core/mrkdwn.js';
import { type Lang, list, ltr, num } from '../../i18n/index.js';
import { actions, button, literalCode as code, context, divider, section } from '../blocks.js';
import { ACTIONS, BLOCKS, CALLBACKS, SHORTCUTS, shortcutPickBlock } from '../ids.js';
import { draftMetadata, modal, textInput } from './common.js';

/**
 * The modals of the shortcuts: what "Unblock viewer" and "Retry conversion" found in a customer's
 * message, one button each (one click acts); the same small forms as `explain` when nothing was
 * found; the global shortcut's menu. Every text a person reads comes from the catalog's
 * `shortcuts` area, in the reader's language. Numbers are masked (isolated in Persian) except in the picker;
 * the numbers themselves stay on the server, in the modal's draft.
 * @see docs/slack.md, "Shortcuts"
 */

/** The shortcuts as manifest.yml declares them (test/manifest.test.ts keeps the two equal). */
export const SHORTCUT_LIST = [
  {
    name: 'Unblock viewer',
    type: 'message',
    callback_id: SHORTCUTS.unblockFromMessage,
    description: 'Unblock a viewer by a mobile number written in this message',
  },
  {
    name: 'Retry conversion',
    type: 'message',
    callback_id: SHORTCUTS.retryFromMessage,
    description: 'Queue again the conversion of a file whose ID is in this message',
  },
  {
    name: 'vidops',
    type: 'global',
    callback_id: SHORTCUTS.menu,
    description: 'Unblock a viewer, retry a conversion, protection settings, the IP whitelist',
  },
] as const;

/** Service file IDs have this many letters and digits; the example is a real-shaped one. */
const FILE_ID_LENGTH = 24;
const FILE_ID_EXAMPLE = '671018d0403eba579a6f90e2';
/** Example numbers: copied as they are, Latin digits in every language. */
const MOBILE_EXAMPLE = '0912 345 6789';
const MOBILE_EXAMPLE_INTERNATIONAL = '+98 912 345 6789';
/** The product's name, the menu's title in every language. */
const MENU_TITLE = 'vidops';

/**
 * Said when "Retry conversion" found no file ID (the other such texts are plain catalog phrases,
 * `lang.t.shortcuts`): the ID's length in prose, the example as it is copied.
 */
export function noFileIdText(lang: Lang): string {
  return lang.t.shortcuts.shortcutNoFileId(num(lang, FILE_ID_LENGTH), ltr(lang, FILE_ID_EXAMPLE));
}

/** The `private_metadata` of the typed forms: where their answer goes (as `explain`'s forms). */
export interface AnswerTarget {
  responseUrl?: string;
  channelId?: string;
}

/** A modal's small text line under the title. */
function intro(text: string): KnownBlock {
  return section(escapeWorded(text));
}

/** What happened at the last click, on top of the list. */
function resultBlocks(result: readonly KnownBlock[] | undefined): KnownBlock[] {
  return result === undefined || result.length === 0 ? [] : [...result.slice(0, 20), divider()];
}

/**
 * "Unblock viewer" with numbers found: one line per number, written out in full as it will be
 * sent (the modal is private to the person, who sees the number in the message anyway, and two
 * numbers must not look alike here), with its Unblock button (the value is the number's place in
 * the draft, never the number); the numbers the mobile rule refused, with its reason (`refused`,
 * masked); the last outcome on top. Everything after the click is masked as everywhere.
 */
export function unblockPickModal(
  options: {
    numbers: readonly string[];
    refused: readonly string[];
    draftId: string;
    result?: readonly KnownBlock[];
  },
  lang: Lang,
): ModalView {
  const t = lang.t.shortcuts;
  const blocks: KnownBlock[] = [...resultBlocks(options.result), intro(t.shortcutOfferMobiles)];
  options.numbers.forEach((number, index) => {
    blocks.push({
      ...section(ltr(lang, code(number)), shortcutPickBlock(ACTIONS.shortcutUnblockPick, index)),
      accessory: button(t.shortcutUnblock, ACTIONS.shortcutUnblockPick, String(index), 'primary'),
    });
  });
  if (options.refused.length > 0)
    blocks.push(context(options.refused.map((r) => `:warning: ${escapeWorded(r)}`)));
  return modal({
    callbackId: CALLBACKS.shortcutUnblock,
    title: t.shortcutUnblockTitle,
    close: t.shortcutDone,
    privateMetadata: draftMetadata(options.draftId),
    blocks,
  });
}

/**
 * The form of the viewer's number: opened when a message holds no usable number, and from the
 * menu. Its submission is `explain 9910`'s form's (same callback, same block): the same checks
 * and the same unblock; the answer goes to `target` (the message's channel, else a DM).
 */
export function unblockTypeModal(
  options: {
    text: string;
    refused?: readonly string[];
    target: AnswerTarget;
  },
  lang: Lang,
): ModalView {
  const t = lang.t.shortcuts;
  const blocks: KnownBlock[] = [intro(options.text)];
  const refused = options.refused ?? [];
  if (refused.length > 0) blocks.push(context(refused.map((r) => `:warning: ${escapeWorded(r)}`)));
  blocks.push(
    textInput({
      blockId: BLOCKS.mobile,
      label: lang.t.everyday.unblockModalLabel,
      maxLength: 40,
      placeholder: MOBILE_EXAMPLE,
      hint: t.shortcutMobileHint(ltr(lang, MOBILE_EXAMPLE), ltr(lang, MOBILE_EXAMPLE_INTERNATIONAL)),
    }),
  );
  return modal({
    callbackId: CALLBACKS.unblock,
    title: t.shortcutUnblockTitle,
    submit: t.shortcutUnblock,
    close: t.shortcutCancel,
    privateMetadata: JSON.stringify(options.target),
    blocks,
  });
}

/** "Retry conversion" with file IDs found: one line per ID with its Retry button (the value is the ID). */
export function retryPickModal(
  options: {
    fileIds: readonly string[];
    result?: readonly KnownBlock[];
  },
  lang: Lang,
): ModalView {
  const t = lang.t.shortcuts;
  const blocks: KnownBlock[] = [...resultBlocks(options.result), intro(t.shortcutOfferFiles)];
  options.fileIds.forEach((fileId, index) => {
    blocks.push({
      ...section(ltr(lang, code(fileId)), shortcutPickBlock(ACTIONS.shortcutRetryPick, index)),
      accessory: button(t.shortcutRetry, ACTIONS.shortcutRetryPick, fileId, 'primary'),
    });
  });
  return modal({
    callbackId: CALLBACKS.shortcutRetry,
    title: t.shortcutRetryTitle,
    close: t.shortcutDone,
    blocks,
  });
}

/** The form of a file ID, as `explain 9101`'s (same callback and block, same checks). */
export function retryTypeModal(options: { text: string; target: AnswerTarget }, lang: Lang): ModalView {
  const t = lang.t.shortcuts;
  return modal({
    callbackId: CALLBACKS.retry,
    title: t.shortcutRetryTitle,
    submit: t.shortcutRetry,
    close: t.shortcutCancel,
    privateMetadata: JSON.stringify(options.target),
    blocks: [
      intro(options.text),
      textInput({
        blockId: BLOCKS.fileId,
        label: lang.t.everyday.retryModalLabel,
        maxLength: 100,
        placeholder: FILE_ID_EXAMPLE,
        hint: t.shortcutFileIdHint,
      }),
    ],
  });
}

/** While a click is being carried out. */
export function workingModal(title: string, text: string, lang: Lang): ModalView {
  return modal({
    callbackId: CALLBACKS.changeStatus,
    title,
    close: lang.t.shortcuts.shortcutClose,
    blocks: [section(`:hourglass_flowing_sand: ${escapeWorded(text)}`)],
  });
}

/** The global shortcut's menu: each button opens the form of one action, in place. */
export function menuModal(lang: Lang): ModalView {
  const t = lang.t.shortcuts;
  const commands = ['/vidops unblock', '/vidops retry', '/vidops protect', '/vidops whitelist'];
  return modal({
    callbackId: CALLBACKS.menu,
    title: MENU_TITLE,
    close: t.shortcutClose,
    blocks: [
      intro(t.shortcutMenuIntro(ltr(lang, '/vidops'))),
      actions([
        button(t.shortcutMenuUnblock, ACTIONS.menuUnblock, 'unblock', 'primary'),
        button(lang.t.batch.batchManyOpen, ACTIONS.menuUnblockMany, 'unblock-many'),
        button(t.shortcutMenuRetry, ACTIONS.menuRetry, 'retry'),
      ]),
      actions([
        button(t.shortcutMenuProtect, ACTIONS.menuProtect, 'protect'),
        button(t.shortcutMenuWhitelistAdd, ACTIONS.menuWhitelistAdd, 'add'),
        button(t.shortcutMenuWhitelistRemove, ACTIONS.menuWhitelistRemove, 'remove'),
      ]),
      context([
        t.shortcutMenuSameAs(
          list(
            lang,
            commands.map((command) => ltr(lang, `\`${command}\``)),
          ),
        ),
      ]),
    ],
  });
}
