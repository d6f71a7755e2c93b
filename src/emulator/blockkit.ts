import type { JsonObject, JsonValue } from '../core/json.js';
import { type BlockKitProblem, type BlockKitSurface, findBlockKitProblems } from '../views/limits.js';
import { isObject, list } from './json.js';

/**
 * What the emulator checks before it takes a message or a view, as Slack does: every limit of
 * src/views/limits.ts, and the structural rules Slack enforces per surface: which blocks a
 * surface shows, which elements each block holds, the fields an element cannot go without, and
 * initial options that must be among the options. A payload that breaks one is refused with the
 * error Slack gives (`invalid_blocks` for messages, `invalid_arguments` for views).
 * @see docs/slack.md, "Block Kit limits"; docs/architecture.md, "Emulator and playground"
 */

const MESSAGE_BLOCKS = new Set([
  'section',
  'header',
  'divider',
  'context',
  'actions',
  'image',
  'input',
  'rich_text',
  'file',
  'video',
]);
/** The `file` block (remote files) exists in messages only. */
const VIEW_BLOCKS = new Set([...MESSAGE_BLOCKS].filter((type) => type !== 'file'));

const SELECTS = [
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
];

/** Interactive elements an actions block or a section's accessory may hold. */
const ACTION_ELEMENTS = new Set([
  'button',
  'checkboxes',
  'datepicker',
  'datetimepicker',
  'overflow',
  'radio_buttons',
  'timepicker',
  'workflow_button',
  ...SELECTS,
]);
const ACCESSORY_ELEMENTS = new Set([...ACTION_ELEMENTS, 'image']);
/** Elements only an input block holds. */
const INPUT_ELEMENTS = new Set([
  'plain_text_input',
  'number_input',
  'email_text_input',
  'url_text_input',
  'rich_text_input',
  'file_input',
  'checkboxes',
  'radio_buttons',
  'datepicker',
  'datetimepicker',
  'timepicker',
  ...SELECTS,
]);

type Add = (path: string, message: string) => void;

/** The options an element offers, its option groups' included. */
export function optionsOf(element: JsonObject): JsonObject[] {
  const direct = list(element.options).filter(isObject);
  const grouped = list(element.option_groups)
    .filter(isObject)
    .flatMap((group) => list(group.options).filter(isObject));
  return [...direct, ...grouped];
}

function sameOption(a: JsonObject, b: JsonObject): boolean {
  const text = (o: JsonObject) => (isObject(o.text) ? o.text.text : undefined);
  return a.value === b.value && text(a) === text(b);
}

/** Slack refuses an initial option that is not exactly one of the element's options. */
function checkInitialOptions(path: string, element: JsonObject, add: Add): void {
  if (element.type === 'external_select' || element.type === 'multi_external_select') return;
  const options = optionsOf(element);
  const initial = [
    ...(isObject(element.initial_option) ? [['initial_option', element.initial_option] as const] : []),
    ...list(element.initial_options)
      .filter(isObject)
      .map((o, i) => [`initial_options[${i}]`, o] as const),
  ];
  for (const [where, option] of initial) {
    if (!options.some((o) => sameOption(o, option))) {
      add(`${path}.${where}`, 'must be exactly one of the options (same text and value)');
    }
  }
}

function checkElement(path: string, element: JsonValue | undefined, allowed: Set<string>, add: Add): void {
  if (!isObject(element) || typeof element.type !== 'string') return; // limits.ts reports it
  const type = element.type;
  if (!allowed.has(type)) {
    add(`${path}.type`, `"${type}" is not allowed here`);
    return;
  }
  if (
    type === 'button' &&
    element.style !== undefined &&
    !['primary', 'danger'].includes(String(element.style))
  ) {
    add(`${path}.style`, 'must be "primary" or "danger"');
  }
  if (type === 'number_input' && typeof element.is_decimal_allowed !== 'boolean') {
    add(`${path}.is_decimal_allowed`, 'is required');
  }
  if (type === 'file_input' && element.max_files !== undefined) {
    const max = element.max_files;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 10) {
      add(`${path}.max_files`, 'must be 1 to 10');
    }
  }
  if (['static_select', 'multi_static_select', 'checkboxes', 'radio_buttons'].includes(type)) {
    checkInitialOptions(path, element, add);
  }
}

function checkBlocks(path: string, blocks: JsonValue[], surface: BlockKitSurface, add: Add): void {
  const allowedBlocks = surface === 'message' ? MESSAGE_BLOCKS : VIEW_BLOCKS;
  blocks.forEach((block, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(block) || typeof block.type !== 'string') return; // limits.ts reports it
    if (!allowedBlocks.has(block.type)) {
      add(`${at}.type`, `"${block.type}" blocks are not allowed in a ${surface}`);
      return;
    }
    switch (block.type) {
      case 'section':
        if (block.accessory !== undefined)
          checkElement(`${at}.accessory`, block.accessory, ACCESSORY_ELEMENTS, add);
        break;
      case 'actions':
        list(block.elements).forEach((element, j) => {
          checkElement(`${at}.elements[${j}]`, element, ACTION_ELEMENTS, add);
        });
        break;
      case 'context':
        list(block.elements).forEach((element, j) => {
          if (isObject(element) && !['image', 'plain_text', 'mrkdwn'].includes(String(element.type))) {
            add(`${at}.elements[${j}].type`, 'must be image, plain_text or mrkdwn');
          }
        });
        break;
      case 'input': {
        checkElement(`${at}.element`, block.element, INPUT_ELEMENTS, add);
        const element = block.element;
        // File uploads are collected in modals only.
        if (isObject(element) && element.type === 'file_input' && surface !== 'modal') {
          add(`${at}.element.type`, 'file_input is available in modals only');
        }
        break;
      }
      default:
        break;
    }
  });
}

/**
 * Every problem Slack would find in what is sent to `surface`: the limits first, then the
 * structure. `payload` is a message (`text`, `blocks`) or `{ view }`.
 */
export function findSurfaceProblems(
  payload: { text?: string | undefined; blocks?: JsonValue | undefined; view?: JsonValue | undefined },
  surface: BlockKitSurface,
): BlockKitProblem[] {
  const code = surface === 'message' ? 'invalid_blocks' : 'invalid_arguments';
  const problems: BlockKitProblem[] = [
    ...findBlockKitProblems(
      {
        text: payload.text,
        blocks: Array.isArray(payload.blocks) ? payload.blocks : undefined,
        view: payload.view,
      },
      surface,
    ),
  ];
  const add: Add = (path, message) => problems.push({ path, message, code });
  if (surface === 'message') {
    checkBlocks('blocks', list(payload.blocks), surface, add);
  } else if (isObject(payload.view)) {
    checkBlocks('view.blocks', list(payload.view.blocks), surface, add);
  }
  return problems;
}

/** Input blocks of a view by block_id: where `response_action: errors` may put its messages. */
export function inputBlockIds(view: JsonObject): Set<string> {
  return new Set(
    list(view.blocks)
      .filter(isObject)
      .filter((b) => b.type === 'input' && typeof b.block_id === 'string')
      .map((b) => String(b.block_id)),
  );
}

/** The element with this action_id (in the block with this block_id, when given). */
export function findElement(
  blocks: JsonValue | undefined,
  actionId: string,
  blockId?: string,
): { blockId: string; block: JsonObject; element: JsonObject } | undefined {
  for (const block of list(blocks)) {
    if (!isObject(block)) continue;
    const id = typeof block.block_id === 'string' ? block.block_id : '';
    if (blockId !== undefined && id !== blockId) continue;
    const candidates = [...list(block.elements), block.accessory, block.element];
    for (const element of candidates) {
      if (isObject(element) && element.action_id === actionId) return { blockId: id, block, element };
    }
  }
  return undefined;
}
