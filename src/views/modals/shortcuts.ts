import type { KnownBlock, ModalView } from '@slack/types';
import { escapeMrkdwn } from '../../core/mrkdwn.js';
import { actions, button, literalCode as code, context, divider, section } from '../blocks.js';
import { ACTIONS, BLOCKS, CALLBACKS, SHORTCUTS, shortcutPickBlock } from '../ids.js';
import { draftMetadata, modal, textInput } from './common.js';

/**
 * The modals of the shortcuts: what "Unblock viewer" and "Retry conversion" found in a customer's
 * message, one button each (one click acts); the same small forms as `explain` when nothing was
 * found; the global shortcut's menu. Every text a person reads here is in this file. Numbers are
 * shown masked; the numbers themselves stay on the server, in the modal's draft.
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

/** Said in a modal that found nothing to offer, or when an offered item can no longer be used. */
export const SHORTCUT_TEXT = {
  noMobile: 'No mobile number was found in this message. Type the viewer’s number instead.',
  noUsableMobile: 'No number in this message can be unblocked here:',
  noFileId:
    'No file ID was found in this message (the service’s IDs are 24 letters and digits, e.g. 671018d0403eba579a6f90e2). Type the ID instead.',
  menuUnblock: 'Type the viewer’s mobile number as they gave it.',
  menuRetry: 'Type the ID of the file whose conversion failed.',
  offerMobiles: 'Numbers in this message. One click unblocks, with the usual checks and approvals.',
  offerFiles: 'File IDs in this message. One click queues the conversion again.',
  unknownPick: 'That choice is not in this form any more. Nothing was done; run the shortcut again.',
} as const;

/** The `private_metadata` of the typed forms: where their answer goes (as `explain`'s forms). */
export interface AnswerTarget {
  responseUrl?: string;
  channelId?: string;
}

/** A modal's small text line under the title. */
function intro(text: string): KnownBlock {
  return section(escapeMrkdwn(text));
}

/** What happened at the last click, on top of the list. */
function resultBlocks(result: readonly KnownBlock[] | undefined): KnownBlock[] {
  return result === undefined || result.length === 0 ? [] : [...result.slice(0, 20), divider()];
}

/**
 * "Unblock viewer" with numbers found: one line per number, masked, with its Unblock button
 * (the value is the number's place in the draft, never the number); the numbers the mobile rule
 * refused, with its reason (`refused`, already masked); the last outcome on top.
 */
export function unblockPickModal(options: {
  masked: readonly string[];
  refused: readonly string[];
  draftId: string;
  result?: readonly KnownBlock[];
}): ModalView {
  const blocks: KnownBlock[] = [...resultBlocks(options.result), intro(SHORTCUT_TEXT.offerMobiles)];
  options.masked.forEach((masked, index) => {
    blocks.push({
      ...section(code(masked), shortcutPickBlock(ACTIONS.shortcutUnblockPick, index)),
      accessory: button('Unblock', ACTIONS.shortcutUnblockPick, String(index), 'primary'),
    });
  });
  if (options.refused.length > 0)
    blocks.push(context(options.refused.map((r) => `:warning: ${escapeMrkdwn(r)}`)));
  return modal({
    callbackId: CALLBACKS.shortcutUnblock,
    title: 'Unblock viewer',
    close: 'Done',
    privateMetadata: draftMetadata(options.draftId),
    blocks,
  });
}

/**
 * The form of the viewer's number: opened when a message holds no usable number, and from the
 * menu. Its submission is `explain 9910`'s form's (same callback, same block): the same checks
 * and the same unblock; the answer goes to `target` (the message's channel, else a DM).
 */
export function unblockTypeModal(options: {
  text: string;
  refused?: readonly string[];
  target: AnswerTarget;
}): ModalView {
  const blocks: KnownBlock[] = [intro(options.text)];
  const refused = options.refused ?? [];
  if (refused.length > 0) blocks.push(context(refused.map((r) => `:warning: ${escapeMrkdwn(r)}`)));
  blocks.push(
    textInput({
      blockId: BLOCKS.mobile,
      label: 'Viewer’s mobile number',
      maxLength: 40,
      placeholder: '0912 345 6789',
      hint: 'As the viewer gave it: 0912 345 6789, +98 912 345 6789 or with Persian digits.',
    }),
  );
  return modal({
    callbackId: CALLBACKS.unblock,
    title: 'Unblock viewer',
    submit: 'Unblock',
    privateMetadata: JSON.stringify(options.target),
    blocks,
  });
}

/** "Retry conversion" with file IDs found: one line per ID with its Retry button (the value is the ID). */
export function retryPickModal(options: {
  fileIds: readonly string[];
  result?: readonly KnownBlock[];
}): ModalView {
  const blocks: KnownBlock[] = [...resultBlocks(options.result), intro(SHORTCUT_TEXT.offerFiles)];
  options.fileIds.forEach((fileId, index) => {
    blocks.push({
      ...section(code(fileId), shortcutPickBlock(ACTIONS.shortcutRetryPick, index)),
      accessory: button('Retry', ACTIONS.shortcutRetryPick, fileId, 'primary'),
    });
  });
  return modal({ callbackId: CALLBACKS.shortcutRetry, title: 'Retry conversion', close: 'Done', blocks });
}

/** The form of a file ID, as `explain 9101`'s (same callback and block, same checks). */
export function retryTypeModal(options: { text: string; target: AnswerTarget }): ModalView {
  return modal({
    callbackId: CALLBACKS.retry,
    title: 'Retry conversion',
    submit: 'Retry',
    privateMetadata: JSON.stringify(options.target),
    blocks: [
      intro(options.text),
      textInput({
        blockId: BLOCKS.fileId,
        label: 'File ID',
        maxLength: 100,
        placeholder: '671018d0403eba579a6f90e2',
        hint: 'Only a file whose conversion failed is queued again.',
      }),
    ],
  });
}

/** While a click is being carried out. */
export function workingModal(title: string, text: string): ModalView {
  return modal({
    callbackId: CALLBACKS.changeStatus,
    title,
    close: 'Close',
    blocks: [section(`:hourglass_flowing_sand: ${escapeMrkdwn(text)}`)],
  });
}

/** The global shortcut's menu: each button opens the form of one action, in place. */
export function menuModal(): ModalView {
  return modal({
    callbackId: CALLBACKS.menu,
    title: 'vidops',
    close: 'Close',
    blocks: [
      intro('What do you want to do? Changes go through the same checks and approvals as /vidops.'),
      actions([
        button('Unblock a viewer', ACTIONS.menuUnblock, 'unblock', 'primary'),
        button('Retry a conversion', ACTIONS.menuRetry, 'retry'),
      ]),
      actions([
        button('Protection settings', ACTIONS.menuProtect, 'protect'),
        button('Add to whitelist', ACTIONS.menuWhitelistAdd, 'add'),
        button('Remove from whitelist', ACTIONS.menuWhitelistRemove, 'remove'),
      ]),
      context(['The same as `/vidops unblock`, `/vidops retry`, `/vidops protect` and `/vidops whitelist`.']),
    ],
  });
}
