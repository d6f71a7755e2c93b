import { openIsolates, PDI } from '../core/bidi.js';
import { VidopsError } from '../core/errors.js';

/**
 * Slack's Block Kit limits, checked on everything the bot sends (in tests, and as a log warning in
 * production) so a too-long list or title is caught before Slack refuses the whole message.
 * @see docs/slack.md, "Block Kit limits"
 */
export const BLOCK_KIT_LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  viewTitle: 24,
  viewButton: 24,
  privateMetadata: 3000,
  id: 255,
  sectionText: 3000,
  sectionFields: 10,
  sectionField: 2000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  selectOptions: 100,
  choiceOptions: 10,
  optionText: 75,
  optionDescription: 75,
  optionValue: 150,
  overflowOptions: 5,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  inputLabel: 2000,
  inputHint: 2000,
  placeholder: 150,
  inputMaxLength: 3000,
  altText: 2000,
  imageTitle: 2000,
  /** Slack truncates message `text` at 40,000 characters: stay under it. */
  messageText: 40_000,
  /** Sum of all text in a message's blocks; Slack answers `msg_blocks_too_long` near 13k. */
  messageBlocksText: 12_000,
  /** Whole payload as JSON, in bytes. */
  payloadBytes: 250_000,
} as const;

/** The error code Slack answers with for a problem of this kind. */
export type BlockKitErrorCode =
  | 'invalid_blocks'
  | 'msg_too_long'
  | 'msg_blocks_too_long'
  | 'invalid_arguments';

/** Where a payload is going: a message (incl. ephemeral and response_url), a modal, or the Home tab. */
export type BlockKitSurface = 'message' | 'modal' | 'home';

/** One limit broken, with the JSON path of the offending value. */
export interface BlockKitProblem {
  path: string;
  message: string;
  code: BlockKitErrorCode;
}

/** What is sent: message `text`/`blocks`, or a `view` for modals and the Home tab. */
export interface BlockKitPayload {
  text?: string | undefined;
  blocks?: readonly unknown[] | undefined;
  view?: unknown;
}

/** Raised by {@link assertBlockKitLimits}; `problems` holds one line per broken limit. */
export class BlockKitLimitError extends VidopsError {
  constructor(readonly problems: readonly string[]) {
    super(`Block Kit limits exceeded:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects problems while walking one payload; `code` is what Slack would answer for a block problem. */
class Walker {
  readonly problems: BlockKitProblem[] = [];
  private readonly blockIds = new Set<string>();

  constructor(private readonly code: BlockKitErrorCode) {}

  add(path: string, message: string, code: BlockKitErrorCode = this.code): void {
    this.problems.push({ path, message, code });
  }

  /** A string no longer than `max` (and at least `min` when given). */
  string(path: string, value: unknown, max: number, min = 0): void {
    if (value === undefined || value === null) return;
    if (typeof value !== 'string') {
      this.add(path, 'must be a string');
      return;
    }
    if (value.length > max) this.add(path, `${value.length} chars > ${max}`);
    else if (value.length < min) this.add(path, `${value.length} chars < ${min}`);
  }

  /** A text object `{type, text}`; `plain` when Slack accepts only plain_text there. */
  text(
    path: string,
    value: unknown,
    opts: { max: number; min?: number; required?: boolean; plain?: boolean },
  ): void {
    if (value === undefined || value === null) {
      if (opts.required) this.add(path, 'is required');
      return;
    }
    if (!isObj(value) || typeof value.text !== 'string') {
      this.add(path, 'must be a text object with a string `text`');
      return;
    }
    if (value.type !== 'plain_text' && value.type !== 'mrkdwn') {
      this.add(`${path}.type`, 'must be plain_text or mrkdwn');
    } else if (opts.plain && value.type !== 'plain_text') {
      this.add(`${path}.type`, 'must be plain_text');
    }
    this.string(`${path}.text`, value.text, opts.max, opts.min ?? (opts.required ? 1 : 0));
  }

  /** An array of at most `max` items; returns its items (empty when it is not an array). */
  list(path: string, value: unknown, max: number, required = false): readonly unknown[] {
    if (value === undefined || value === null) {
      if (required) this.add(path, 'is required');
      return [];
    }
    if (!Array.isArray(value)) {
      this.add(path, 'must be an array');
      return [];
    }
    if (value.length > max) this.add(path, `${value.length} items > ${max}`);
    return value;
  }

  blocks(path: string, blocks: readonly unknown[]): void {
    blocks.forEach((block, i) => {
      this.block(`${path}[${i}]`, block);
    });
  }

  private block(path: string, block: unknown): void {
    if (!isObj(block) || typeof block.type !== 'string') {
      this.add(path, 'must be a block object with a `type`');
      return;
    }
    if (block.block_id !== undefined) {
      this.string(`${path}.block_id`, block.block_id, BLOCK_KIT_LIMITS.id, 1);
      if (typeof block.block_id === 'string') {
        if (this.blockIds.has(block.block_id)) this.add(`${path}.block_id`, `duplicate "${block.block_id}"`);
        this.blockIds.add(block.block_id);
      }
    }
    const actionIds = new Set<string>();
    const element = (elPath: string, el: unknown): void => {
      this.element(elPath, el);
      if (isObj(el) && typeof el.action_id === 'string') {
        if (actionIds.has(el.action_id))
          this.add(`${elPath}.action_id`, `duplicate "${el.action_id}" in block`);
        actionIds.add(el.action_id);
      }
    };
    switch (block.type) {
      case 'section': {
        if (block.text === undefined && block.fields === undefined) {
          this.add(path, 'section needs `text` or `fields`');
        }
        this.text(`${path}.text`, block.text, { max: BLOCK_KIT_LIMITS.sectionText, min: 1 });
        this.list(`${path}.fields`, block.fields, BLOCK_KIT_LIMITS.sectionFields).forEach((field, i) => {
          this.text(`${path}.fields[${i}]`, field, { max: BLOCK_KIT_LIMITS.sectionField, required: true });
        });
        if (block.accessory !== undefined) element(`${path}.accessory`, block.accessory);
        break;
      }
      case 'header':
        this.text(`${path}.text`, block.text, {
          max: BLOCK_KIT_LIMITS.headerText,
          required: true,
          plain: true,
        });
        break;
      case 'context':
        this.list(`${path}.elements`, block.elements, BLOCK_KIT_LIMITS.contextElements, true).forEach(
          (el, i) => {
            const elPath = `${path}.elements[${i}]`;
            if (isObj(el) && (el.type === 'plain_text' || el.type === 'mrkdwn')) {
              this.text(elPath, el, { max: BLOCK_KIT_LIMITS.sectionText, required: true });
            } else {
              element(elPath, el);
            }
          },
        );
        break;
      case 'actions':
        this.list(`${path}.elements`, block.elements, BLOCK_KIT_LIMITS.actionsElements, true).forEach(
          (el, i) => {
            element(`${path}.elements[${i}]`, el);
          },
        );
        break;
      case 'input':
        this.text(`${path}.label`, block.label, {
          max: BLOCK_KIT_LIMITS.inputLabel,
          required: true,
          plain: true,
        });
        this.text(`${path}.hint`, block.hint, { max: BLOCK_KIT_LIMITS.inputHint, plain: true });
        if (block.element === undefined) this.add(`${path}.element`, 'is required');
        else element(`${path}.element`, block.element);
        break;
      case 'image':
        this.string(`${path}.alt_text`, block.alt_text, BLOCK_KIT_LIMITS.altText, 1);
        if (block.alt_text === undefined) this.add(`${path}.alt_text`, 'is required');
        this.text(`${path}.title`, block.title, { max: BLOCK_KIT_LIMITS.imageTitle, plain: true });
        break;
      default:
        // divider, rich_text, file, video…: only the block_id limit applies.
        break;
    }
  }

  private element(path: string, el: unknown): void {
    if (!isObj(el) || typeof el.type !== 'string') {
      this.add(path, 'must be an element object with a `type`');
      return;
    }
    this.string(`${path}.action_id`, el.action_id, BLOCK_KIT_LIMITS.id, 1);
    this.text(`${path}.placeholder`, el.placeholder, { max: BLOCK_KIT_LIMITS.placeholder, plain: true });
    if (el.confirm !== undefined) this.confirm(`${path}.confirm`, el.confirm);
    switch (el.type) {
      case 'button':
        this.text(`${path}.text`, el.text, { max: BLOCK_KIT_LIMITS.buttonText, required: true, plain: true });
        this.string(`${path}.value`, el.value, BLOCK_KIT_LIMITS.buttonValue);
        this.string(`${path}.url`, el.url, BLOCK_KIT_LIMITS.buttonUrl);
        break;
      case 'static_select':
      case 'multi_static_select': {
        if (el.options === undefined && el.option_groups === undefined) {
          this.add(path, 'needs `options` or `option_groups`');
        }
        this.options(`${path}.options`, el.options, BLOCK_KIT_LIMITS.selectOptions, true);
        this.list(`${path}.option_groups`, el.option_groups, BLOCK_KIT_LIMITS.selectOptions).forEach(
          (group, i) => {
            const groupPath = `${path}.option_groups[${i}]`;
            if (!isObj(group)) {
              this.add(groupPath, 'must be an option group object');
              return;
            }
            this.text(`${groupPath}.label`, group.label, {
              max: BLOCK_KIT_LIMITS.optionText,
              required: true,
              plain: true,
            });
            this.options(`${groupPath}.options`, group.options, BLOCK_KIT_LIMITS.selectOptions, true);
          },
        );
        this.initialOptions(path, el, true);
        break;
      }
      case 'external_select':
      case 'multi_external_select':
        this.initialOptions(path, el, true);
        break;
      case 'overflow':
        this.options(`${path}.options`, el.options, BLOCK_KIT_LIMITS.overflowOptions, true, true);
        break;
      case 'checkboxes':
      case 'radio_buttons':
        this.options(`${path}.options`, el.options, BLOCK_KIT_LIMITS.choiceOptions, false, true);
        this.initialOptions(path, el, false);
        break;
      case 'plain_text_input': {
        const max = el.max_length;
        const min = el.min_length;
        if (max !== undefined && !(Number.isInteger(max) && Number(max) >= 1 && Number(max) <= 3000)) {
          this.add(
            `${path}.max_length`,
            `${String(max)} is not within 1..${BLOCK_KIT_LIMITS.inputMaxLength}`,
          );
        }
        if (min !== undefined && !(Number.isInteger(min) && Number(min) >= 0 && Number(min) <= 3000)) {
          this.add(
            `${path}.min_length`,
            `${String(min)} is not within 0..${BLOCK_KIT_LIMITS.inputMaxLength}`,
          );
        }
        if (typeof min === 'number' && typeof max === 'number' && min > max) {
          this.add(`${path}.min_length`, `${min} > max_length ${max}`);
        }
        break;
      }
      case 'image':
        this.string(`${path}.alt_text`, el.alt_text, BLOCK_KIT_LIMITS.altText, 1);
        if (el.alt_text === undefined) this.add(`${path}.alt_text`, 'is required');
        break;
      default:
        break;
    }
  }

  private initialOptions(path: string, el: Obj, plain: boolean): void {
    if (el.initial_option !== undefined) this.option(`${path}.initial_option`, el.initial_option, plain);
    if (el.initial_options !== undefined) {
      this.list(`${path}.initial_options`, el.initial_options, BLOCK_KIT_LIMITS.selectOptions).forEach(
        (o, i) => {
          this.option(`${path}.initial_options[${i}]`, o, plain);
        },
      );
    }
  }

  /** Options of a select (plain_text only) or of checkboxes/radio buttons/overflow. */
  private options(path: string, value: unknown, max: number, plain: boolean, required = false): void {
    this.list(path, value, max, required).forEach((option, i) => {
      this.option(`${path}[${i}]`, option, plain);
    });
  }

  private option(path: string, option: unknown, plain: boolean): void {
    if (!isObj(option)) {
      this.add(path, 'must be an option object');
      return;
    }
    this.text(`${path}.text`, option.text, { max: BLOCK_KIT_LIMITS.optionText, required: true, plain });
    this.text(`${path}.description`, option.description, { max: BLOCK_KIT_LIMITS.optionDescription, plain });
    this.string(`${path}.value`, option.value, BLOCK_KIT_LIMITS.optionValue);
  }

  private confirm(path: string, confirm: unknown): void {
    if (!isObj(confirm)) {
      this.add(path, 'must be a confirmation dialog object');
      return;
    }
    this.text(`${path}.title`, confirm.title, {
      max: BLOCK_KIT_LIMITS.confirmTitle,
      required: true,
      plain: true,
    });
    this.text(`${path}.text`, confirm.text, { max: BLOCK_KIT_LIMITS.confirmText, required: true });
    this.text(`${path}.confirm`, confirm.confirm, {
      max: BLOCK_KIT_LIMITS.confirmButton,
      required: true,
      plain: true,
    });
    this.text(`${path}.deny`, confirm.deny, {
      max: BLOCK_KIT_LIMITS.confirmButton,
      required: true,
      plain: true,
    });
  }
}

/** Characters of every `text` string inside the blocks: what Slack sums for `msg_blocks_too_long`. */
function totalText(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + totalText(item), 0);
  if (!isObj(value)) return 0;
  let sum = 0;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'text' && typeof v === 'string') sum += v.length;
    else sum += totalText(v);
  }
  return sum;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

function checkMessage(payload: BlockKitPayload, walker: Walker): void {
  if (payload.text !== undefined) {
    if (typeof payload.text !== 'string') walker.add('text', 'must be a string');
    else if (payload.text.length >= BLOCK_KIT_LIMITS.messageText) {
      walker.add(
        'text',
        `${payload.text.length} chars, must be under ${BLOCK_KIT_LIMITS.messageText}`,
        'msg_too_long',
      );
    }
  }
  if (payload.blocks === undefined) return;
  const blocks = walker.list('blocks', payload.blocks, BLOCK_KIT_LIMITS.messageBlocks);
  walker.blocks('blocks', blocks);
  const total = totalText(blocks);
  if (total > BLOCK_KIT_LIMITS.messageBlocksText) {
    walker.add(
      'blocks',
      `${total} chars of text in total > ${BLOCK_KIT_LIMITS.messageBlocksText}`,
      'msg_blocks_too_long',
    );
  }
  const bytes = jsonBytes({ text: payload.text, blocks });
  if (bytes >= BLOCK_KIT_LIMITS.payloadBytes) {
    walker.add(
      'blocks',
      `payload is ${bytes} bytes of JSON, must be under ${BLOCK_KIT_LIMITS.payloadBytes}`,
      'msg_too_long',
    );
  }
}

function checkView(view: unknown, surface: 'modal' | 'home', walker: Walker): void {
  if (!isObj(view)) {
    walker.add('view', 'must be a view object');
    return;
  }
  if (view.type !== surface)
    walker.add('view.type', `must be "${surface}", got ${JSON.stringify(view.type)}`);
  const blocks = walker.list('view.blocks', view.blocks, BLOCK_KIT_LIMITS.viewBlocks, true);
  walker.blocks('view.blocks', blocks);
  const limit = BLOCK_KIT_LIMITS.viewTitle;
  walker.text('view.title', view.title, { max: limit, required: surface === 'modal', plain: true });
  walker.text('view.submit', view.submit, { max: BLOCK_KIT_LIMITS.viewButton, plain: true });
  walker.text('view.close', view.close, { max: BLOCK_KIT_LIMITS.viewButton, plain: true });
  if (surface === 'modal' && view.submit == null && blocks.some((b) => isObj(b) && b.type === 'input')) {
    walker.add('view.submit', 'is required when the modal has input blocks');
  }
  walker.string('view.private_metadata', view.private_metadata, BLOCK_KIT_LIMITS.privateMetadata);
  walker.string('view.callback_id', view.callback_id, BLOCK_KIT_LIMITS.id);
  walker.string('view.external_id', view.external_id, BLOCK_KIT_LIMITS.id);
  const bytes = jsonBytes(view);
  if (bytes >= BLOCK_KIT_LIMITS.payloadBytes) {
    walker.add('view', `view is ${bytes} bytes of JSON, must be under ${BLOCK_KIT_LIMITS.payloadBytes}`);
  }
}

/**
 * Every Block Kit limit the payload breaks, each with its path and the error code Slack would give.
 * Accepts unknown JSON (it walks what is there), so it also checks payloads from other sources.
 * @see docs/slack.md, "Block Kit limits"
 */
export function findBlockKitProblems(payload: BlockKitPayload, surface: BlockKitSurface): BlockKitProblem[] {
  const walker = new Walker(surface === 'message' ? 'invalid_blocks' : 'invalid_arguments');
  if (surface === 'message') checkMessage(payload, walker);
  else checkView(payload.view, surface, walker);
  return walker.problems;
}

/**
 * Problems as lines such as `blocks[3].text.text: 3105 chars > 3000`; empty when all is within limits.
 * @see docs/slack.md, "Block Kit limits"
 */
export function checkBlockKitLimits(payload: BlockKitPayload, surface: BlockKitSurface): string[] {
  return findBlockKitProblems(payload, surface).map((p) => `${p.path}: ${p.message}`);
}

/** Throws {@link BlockKitLimitError} listing every broken limit. */
export function assertBlockKitLimits(payload: BlockKitPayload, surface: BlockKitSurface): void {
  const problems = checkBlockKitLimits(payload, surface);
  if (problems.length > 0) throw new BlockKitLimitError(problems);
}

/**
 * Shortens display text to at most `max` characters (JS string length, as Slack counts), ending
 * with '…' when cut. Never splits a surrogate pair, and closes (PDI) an isolate the cut left open,
 * so the text after it keeps its order. Meant for display text, never for IDs.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let head = text.slice(0, cutBefore(text, max - 1));
  // An isolate cut open would take in what follows: close it, within `max` all the same.
  let open = openIsolates(head);
  while (open > 0 && head.length + open > max - 1) {
    head = head.slice(0, cutBefore(head, head.length - 1));
    open = openIsolates(head);
  }
  return `${head}${PDI.repeat(open)}…`;
}

/** Where to cut `text` at or before `end` so that no emoji is left in halves. */
function cutBefore(text: string, end: number): number {
  const last = text.charCodeAt(end - 1);
  // A high surrogate at the cut would leave half an emoji behind.
  return end > 0 && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}
