import type { JsonObject, JsonValue } from '../core/json.js';
import { optionsOf } from './blockkit.js';
import { isObject, list } from './json.js';
import { directionOf, escapeHtml, mrkdwnToHtml, type NameBook, plainToHtml } from './mrkdwn.js';

/**
 * Block Kit as HTML for the playground page: every block and element vidops sends, drawn close
 * to how Slack draws it. Buttons and menus carry their `action_id`, `block_id` and value in
 * `data-` attributes for the page's script; a button's confirm dialog is written beside it;
 * inputs are form fields named by block and action. All text is escaped (src/emulator/mrkdwn.ts).
 * @see docs/architecture.md, "Emulator and playground"
 */

export interface RenderContext {
  names: NameBook;
  /** People to offer in a users_select. */
  people: readonly { id: string; name: string }[];
}

function str(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** A text object (plain_text or mrkdwn) as HTML. */
export function textObject(value: JsonValue | undefined, ctx: RenderContext): string {
  if (!isObject(value)) return '';
  const text = str(value.text);
  return value.type === 'mrkdwn' ? mrkdwnToHtml(text, ctx.names) : plainToHtml(text, value.emoji !== false);
}

/** Plain text of a text object, for attributes and option labels. */
function plainOf(value: JsonValue | undefined): string {
  return isObject(value) ? str(value.text) : '';
}

function attr(name: string, value: string): string {
  return ` ${name}="${escapeHtml(value)}"`;
}

/** The confirm dialog of a button or menu, written out hidden for the page to show. */
function confirmHtml(confirm: JsonValue | undefined, ctx: RenderContext): string {
  if (!isObject(confirm)) return '';
  const style = str(confirm.style);
  return (
    `<div class="confirm" hidden${attr('data-style', style)}>` +
    `<div class="confirm-title">${plainToHtml(plainOf(confirm.title))}</div>` +
    `<div class="confirm-text">${textObject(confirm.text, ctx)}</div>` +
    `<div class="confirm-yes">${escapeHtml(plainOf(confirm.confirm) || 'Yes')}</div>` +
    `<div class="confirm-no">${escapeHtml(plainOf(confirm.deny) || 'Cancel')}</div>` +
    '</div>'
  );
}

function actionAttrs(element: JsonObject, blockId: string): string {
  return attr('data-action-id', str(element.action_id)) + attr('data-block-id', blockId);
}

/** An interactive element outside an input block (a button, a menu). */
function actionElement(element: JsonValue | undefined, blockId: string, ctx: RenderContext): string {
  if (!isObject(element)) return '';
  const type = str(element.type);
  const confirm = confirmHtml(element.confirm, ctx);
  switch (type) {
    case 'button': {
      const style = str(element.style);
      const label = textObject(element.text, ctx);
      const url = str(element.url);
      if (/^https?:\/\//.test(url)) {
        return `<a class="btn${style ? ` ${escapeHtml(style)}` : ''}"${attr('href', url)} target="_blank" rel="noopener noreferrer">${label}</a>`;
      }
      return `<span class="element"><button type="button" class="btn${style ? ` ${escapeHtml(style)}` : ''}"${actionAttrs(element, blockId)}${attr('data-value', str(element.value))}>${label}</button>${confirm}</span>`;
    }
    case 'static_select':
    case 'overflow': {
      const placeholder = type === 'overflow' ? '⋯' : plainOf(element.placeholder) || 'Select an option';
      const options = optionsOf(element)
        .map((o) => `<option${attr('value', str(o.value))}>${escapeHtml(plainOf(o.text))}</option>`)
        .join('');
      return `<span class="element"><select class="menu ${type}"${actionAttrs(element, blockId)} aria-label="${escapeHtml(placeholder)}"><option value="" selected disabled>${escapeHtml(placeholder)}</option>${options}</select>${confirm}</span>`;
    }
    case 'users_select': {
      const options = ctx.people
        .map((p) => `<option${attr('value', p.id)}>${escapeHtml(p.name)}</option>`)
        .join('');
      return `<span class="element"><select class="menu users_select"${actionAttrs(element, blockId)}><option value="" selected disabled>${escapeHtml(plainOf(element.placeholder) || 'Select a person')}</option>${options}</select></span>`;
    }
    case 'image':
      return imageHtml(str(element.image_url), str(element.alt_text), 'accessory-image');
    default:
      return `<span class="unsupported">[${escapeHtml(type)} is not drawn in the playground]</span>`;
  }
}

function imageHtml(url: string, alt: string, cls: string): string {
  if (!/^https?:\/\//.test(url))
    return `<span class="${cls} missing" dir="auto">[image: ${escapeHtml(alt)}]</span>`;
  return `<img class="${cls}"${attr('src', url)}${attr('alt', alt)} loading="lazy">`;
}

/** A form field's name: radio buttons of one element share it. */
function fieldName(blockId: string, actionId: string): string {
  return `${blockId}/${actionId}`;
}

/** The form field of an input block, named by block and action, prefilled with its initial value. */
function inputElement(element: JsonValue | undefined, blockId: string, ctx: RenderContext): string {
  if (!isObject(element)) return '';
  const type = str(element.type);
  const actionId = str(element.action_id);
  const name =
    attr('name', fieldName(blockId, actionId)) +
    attr('data-kind', type) +
    attr('data-block-id', blockId) +
    attr('data-action-id', actionId);
  const placeholder = plainOf(element.placeholder);
  const ph = placeholder ? attr('placeholder', placeholder) : '';
  const id = attr('id', `field-${blockId}`);
  switch (type) {
    case 'plain_text_input': {
      const max = typeof element.max_length === 'number' ? attr('maxlength', String(element.max_length)) : '';
      const initial = str(element.initial_value);
      if (element.multiline === true) {
        return `<textarea dir="auto"${id}${name}${ph}${max} rows="3">${escapeHtml(initial)}</textarea>`;
      }
      return `<input type="text" dir="auto"${id}${name}${ph}${max}${attr('value', initial)}>`;
    }
    case 'email_text_input':
    case 'url_text_input':
      return `<input type="${type === 'email_text_input' ? 'email' : 'url'}" dir="ltr"${id}${name}${ph}${attr('value', str(element.initial_value))}>`;
    case 'number_input': {
      const step = element.is_decimal_allowed === true ? 'any' : '1';
      const min = element.min_value === undefined ? '' : attr('min', String(element.min_value));
      const max = element.max_value === undefined ? '' : attr('max', String(element.max_value));
      return `<input type="number" dir="ltr" step="${step}"${id}${name}${ph}${min}${max}${attr('value', str(element.initial_value))}>`;
    }
    case 'static_select': {
      const initial = isObject(element.initial_option) ? str(element.initial_option.value) : '';
      const options = optionsOf(element)
        .map((o) => {
          const value = str(o.value);
          return `<option${attr('value', value)}${value === initial ? ' selected' : ''}>${escapeHtml(plainOf(o.text))}</option>`;
        })
        .join('');
      return `<select${id}${name}><option value=""${initial === '' ? ' selected' : ''}>${escapeHtml(placeholder || 'Select an option')}</option>${options}</select>`;
    }
    case 'users_select': {
      const initial = str(element.initial_user);
      const options = ctx.people
        .map(
          (p) =>
            `<option${attr('value', p.id)}${p.id === initial ? ' selected' : ''}>${escapeHtml(p.name)}</option>`,
        )
        .join('');
      return `<select${id}${name}><option value="">${escapeHtml(placeholder || 'Select a person')}</option>${options}</select>`;
    }
    case 'checkboxes':
    case 'radio_buttons': {
      const initial = new Set(
        [
          ...(isObject(element.initial_option) ? [element.initial_option] : []),
          ...list(element.initial_options).filter(isObject),
        ].map((o) => str(o.value)),
      );
      const kind = type === 'checkboxes' ? 'checkbox' : 'radio';
      const items = optionsOf(element)
        .map((o) => {
          const value = str(o.value);
          const description = isObject(o.description)
            ? `<span class="option-description">${textObject(o.description, ctx)}</span>`
            : '';
          return `<label class="choice"><input type="${kind}"${name}${attr('value', value)}${initial.has(value) ? ' checked' : ''}> <span class="option-text">${textObject(o.text, ctx)}</span>${description}</label>`;
        })
        .join('');
      return `<fieldset class="choices"${id}>${items}</fieldset>`;
    }
    case 'file_input': {
      const accept = list(element.filetypes)
        .map((t) => `.${str(t)}`)
        .join(',');
      return `<div class="file-input"><input type="file"${id}${name}${accept ? attr('accept', accept) : ''}${element.max_files === 1 ? '' : ' multiple'}><ul class="uploaded"></ul></div>`;
    }
    case 'datepicker':
      return `<input type="date"${id}${name}${attr('value', str(element.initial_date))}>`;
    default:
      return `<span class="unsupported">[${escapeHtml(type)} is not drawn in the playground]</span>`;
  }
}

function sectionHtml(block: JsonObject, blockId: string, ctx: RenderContext): string {
  const text = textObject(block.text, ctx);
  const fields = list(block.fields)
    .map((f) => `<div class="field">${textObject(f, ctx)}</div>`)
    .join('');
  const accessory =
    block.accessory === undefined
      ? ''
      : `<div class="accessory">${actionElement(block.accessory, blockId, ctx)}</div>`;
  return `<div class="section-body">${text}${fields ? `<div class="fields">${fields}</div>` : ''}</div>${accessory}`;
}

function richTextHtml(block: JsonObject): string {
  const texts: string[] = [];
  const walk = (value: JsonValue | undefined): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) {
      if (typeof value.text === 'string') texts.push(value.text);
      walk(value.elements);
    }
  };
  walk(block.elements);
  return plainToHtml(texts.join(''));
}

/** One block as HTML. */
function blockHtml(block: JsonValue, ctx: RenderContext): string {
  if (!isObject(block)) return '';
  const type = str(block.type);
  const blockId = str(block.block_id);
  // A header, context or input block runs in the direction of its text (Persian labels, hints and
  // headers right to left); a section's text carries its own.
  const open = (cls: string, text?: JsonValue) => {
    const dir = text === undefined ? undefined : directionOf(plainOf(text));
    return `<div class="block ${cls}"${attr('data-block-id', blockId)}${dir === undefined ? '' : attr('dir', dir)}>`;
  };
  switch (type) {
    case 'section':
      return `${open('section')}${sectionHtml(block, blockId, ctx)}</div>`;
    case 'header':
      return `${open('header', block.text)}<h3>${textObject(block.text, ctx)}</h3></div>`;
    case 'divider':
      return `${open('divider')}<hr></div>`;
    case 'context': {
      const elements = list(block.elements)
        .map((e) =>
          isObject(e) && e.type === 'image'
            ? imageHtml(str(e.image_url), str(e.alt_text), 'context-image')
            : textObject(e, ctx),
        )
        .join('');
      return `${open(
        'context',
        list(block.elements).find((e) => isObject(e) && e.type !== 'image'),
      )}${elements}</div>`;
    }
    case 'actions': {
      const elements = list(block.elements)
        .map((e) => actionElement(e, blockId, ctx))
        .join('');
      return `${open('actions')}${elements}</div>`;
    }
    case 'image':
      return `${open('image')}${block.title === undefined ? '' : `<div class="image-title">${textObject(block.title, ctx)}</div>`}${imageHtml(str(block.image_url), str(block.alt_text), 'block-image')}</div>`;
    case 'input': {
      const optional = block.optional === true ? ' <span class="optional">(optional)</span>' : '';
      const hint = block.hint === undefined ? '' : `<div class="hint">${textObject(block.hint, ctx)}</div>`;
      return (
        `${open('input', block.label)}<label class="input-label"${attr('for', `field-${blockId}`)}>${textObject(block.label, ctx)}${optional}</label>` +
        `${inputElement(block.element, blockId, ctx)}<div class="field-error" role="alert"${attr('data-error-for', blockId)} hidden></div>${hint}</div>`
      );
    }
    case 'rich_text':
      return `${open('rich-text')}${richTextHtml(block)}</div>`;
    default:
      return `${open('unsupported')}<span class="unsupported">[a ${escapeHtml(type)} block is not drawn in the playground]</span></div>`;
  }
}

/** Blocks as HTML, in order. */
export function blocksToHtml(blocks: JsonValue | undefined, ctx: RenderContext): string {
  return list(blocks)
    .map((b) => blockHtml(b, ctx))
    .join('');
}

/** A message's body: its blocks, or its text when it has none. */
export function messageBodyHtml(
  message: { text: string; blocks?: JsonValue | undefined },
  ctx: RenderContext,
): string {
  const blocks = list(message.blocks);
  return blocks.length > 0 ? blocksToHtml(blocks, ctx) : mrkdwnToHtml(message.text, ctx.names);
}
