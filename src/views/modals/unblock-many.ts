import type { ModalView } from '@slack/types';
import type { Lang } from '../../i18n/index.js';
import { BLOCKS, CALLBACKS } from '../ids.js';
import { modal, textInput } from './common.js';

/** Slack's most for a text input: about 200 numbers; a longer list goes through the CLI. */
const BOX_MAX = 3000;

/**
 * The Unblock many form (the global shortcut's menu, the help's button): one multiline box for a
 * ticket export or a spreadsheet column. Its submit shows the list as read, with Confirm; nothing
 * is sent from here. `privateMetadata`: where the preview goes (as `explain`'s forms).
 * @see docs/commands.md, "Many numbers at once"
 */
export function unblockManyModal(privateMetadata: string, lang: Lang): ModalView {
  const t = lang.t.batch;
  const input = textInput({
    blockId: BLOCKS.mobileList,
    label: t.batchManyLabel,
    hint: t.batchManyHint,
    multiline: true,
    placeholder: '0912 345 6789\n+98 935 111 2222',
    maxLength: BOX_MAX,
    examples: true,
  });
  return modal({
    callbackId: CALLBACKS.unblockMany,
    title: t.batchManyTitle,
    submit: t.batchManySubmit,
    close: lang.t.changes.formCancel,
    privateMetadata,
    blocks: [input],
  });
}
