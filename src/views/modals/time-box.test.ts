import { requestWith } from '../../../test/fixtures/requests.js';
import type { ProtectionConfig } from '../../client/types.js';
import type { OperationRequest } from '../../core/model.js';
import { MIN_WINDOW_MS, newTimeBox, type WindowRule } from '../../core/time-box.js';
import { ENGLISH, langFor } from '../../i18n/index.js';
import type { Prepared } from '../../services/types.js';
import { BLOCKS, CALLBACKS, INPUT_ACTION, protectFieldBlock } from '../ids.js';
import { checkBlockKitLimits } from '../limits.js';
import { readViewState } from './common.js';
import { parseProtectSubmission, protectDraft, protectModal } from './protect.js';
import {
  extendModal,
  parseExtendSubmission,
  parseRevertSubmission,
  parseWindowChoice,
  revertConfirmModal,
  windowChoice,
} from './time-box.js';
import { parseWhitelistSubmission, whitelistModal } from './whitelist.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = new Date('2026-11-21T10:00:00.000Z');
const DRAFT_ID = 'x'.repeat(43);

function rule(fields: Partial<WindowRule> = {}): WindowRule {
  return {
    operation: 'protect.set',
    title: 'Change protection settings',
    undo: 'time-box',
    requireDuration: false,
    maxMs: 7 * DAY,
    minMs: MIN_WINDOW_MS,
    ...fields,
  };
}

const DEFAULT = windowChoice(rule(), NOW, 'Asia/Tehran');

const text = (value: string | null) => ({ [INPUT_ACTION]: { type: 'plain_text_input', value } });
const select = (value: string | null) => ({
  [INPUT_ACTION]: {
    type: 'static_select',
    selected_option: value === null ? null : { text: { type: 'plain_text', text: value }, value },
  },
});

/** "Put back after" as submitted: the choice and what was typed. */
function window(choice: string | null, typed = ''): Record<string, Record<string, unknown>> {
  return { [BLOCKS.putBackAfter]: select(choice), [BLOCKS.putBackTyped]: text(typed) };
}

const CURRENT: ProtectionConfig = { opacity: 0.6, preventZoom: false };

function optionValues(view: { blocks: readonly unknown[] }): string[] {
  const block = view.blocks.find(
    (b): b is { element: { options: { value: string }[] } } =>
      typeof b === 'object' && b !== null && 'block_id' in b && b.block_id === BLOCKS.putBackAfter,
  );
  return block?.element.options.map((o) => o.value) ?? [];
}

describe('"Put back after" in the protection and whitelist modals', () => {
  it('an agent opens the protection modal: "Put back after" offers never (picked), 15 minutes to 1 day and other, and a field to type one', () => {
    const view = protectModal(CURRENT, DRAFT_ID, ENGLISH, DEFAULT.limits);
    expect(optionValues(view)).toEqual(['never', '15m', '1h', '4h', '1d', 'other']);
    const all = JSON.stringify(view.blocks);
    expect(all).toContain('"initial_option":{"text":{"type":"plain_text","text":"Never"},"value":"never"}');
    expect(all).toContain(BLOCKS.putBackTyped);
    expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
  });

  it('the policy requires a window of at most 4 hours: never and 1 day are not offered, and nothing picked is refused on the field', () => {
    const strict = windowChoice(rule({ requireDuration: true, maxMs: 4 * HOUR }), NOW, 'Asia/Tehran');
    const view = whitelistModal(
      { mode: 'add', current: [], draftId: DRAFT_ID, bounds: strict.limits },
      ENGLISH,
    );
    expect(optionValues(view)).toEqual(['15m', '1h', '4h', 'other']);
    const choice = parseWindowChoice(readViewState(window(null)), strict.limits, strict.read, ENGLISH);
    expect(choice).toEqual({
      ok: false,
      errors: { [BLOCKS.putBackAfter]: 'This change must be time-boxed: pick how long, at most 4 hours.' },
    });
  });

  it('an agent turns preventZoom on and picks 1 hour: the change is asked for one hour', () => {
    const values = {
      [protectFieldBlock('opacity')]: { [INPUT_ACTION]: { type: 'number_input', value: '0.6' } },
      'protect_group:player': {
        [INPUT_ACTION]: {
          type: 'checkboxes',
          selected_options: [{ text: { type: 'plain_text', text: 'x' }, value: 'preventZoom' }],
        },
      },
      ...window('1h'),
      [BLOCKS.reason]: text('a viewer zooms in'),
    };
    const parsed = parseProtectSubmission(readViewState(values), protectDraft(CURRENT), ENGLISH, DEFAULT);
    expect(parsed).toMatchObject({ ok: true, timeBox: { kind: 'for', ms: HOUR, text: '1h' } });
  });

  it('an agent types ۹۰m in Persian digits: it replaces the choice, an hour and a half', () => {
    const choice = parseWindowChoice(
      readViewState(window('never', '۹۰m')),
      DEFAULT.limits,
      DEFAULT.read,
      ENGLISH,
    );
    expect(choice).toEqual({ ok: true, asked: { kind: 'for', ms: 90 * MINUTE, text: '۹۰m' } });
  });

  it('an agent types a Solar Hijri end: it is kept as the instant it names in Tehran', () => {
    // 1405/09/01 is 2026-11-22; 18:00 in Tehran (UTC+3:30) is 14:30 UTC.
    const choice = parseWindowChoice(
      readViewState(window('other', '1405/09/01 18:00')),
      DEFAULT.limits,
      DEFAULT.read,
      ENGLISH,
    );
    expect(choice).toMatchObject({ ok: true, asked: { kind: 'until', at: '2026-11-22T14:30:00.000Z' } });
  });

  it('an agent picks other and types nothing, or types something unreadable, zero or too long: the field says why, and nothing is asked', () => {
    const errorOf = (choice: string, typed: string) => {
      const parsed = parseWindowChoice(
        readViewState(window(choice, typed)),
        DEFAULT.limits,
        DEFAULT.read,
        ENGLISH,
      );
      return parsed.ok ? null : (parsed.errors[BLOCKS.putBackTyped] ?? null);
    };
    expect(errorOf('other', '')).toBe('Type how long, or the end; or pick another choice above.');
    expect(errorOf('other', 'soon')).toContain('soon');
    expect(errorOf('never', '0m')).toContain('no time at all');
    expect(errorOf('never', '30d')).toContain('at most 7 days');
  });

  it('a whitelist add with a typed window that cannot be read keeps the form open with both problems under their fields', () => {
    const values = {
      [BLOCKS.ips]: text('5.6.7.8'),
      ...window('never', 'tomorrowish'),
      [BLOCKS.reason]: text(''),
    };
    const parsed = parseWhitelistSubmission(readViewState(values), { mode: 'add' }, ENGLISH, DEFAULT);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors).sort()).toEqual([BLOCKS.putBackTyped, BLOCKS.reason].sort());
  });

  it('a Persian reader reads the choices in Persian', () => {
    const view = protectModal(CURRENT, DRAFT_ID, langFor('fa'), DEFAULT.limits);
    expect(JSON.stringify(view.blocks)).toContain('برگرداندن پس از');
  });
});

describe('Extend… and Revert…', () => {
  const inForce: OperationRequest = requestWith({
    id: 'R-7QK2M9XD',
    operation: 'protect.set',
    params: { changes: { preventZoom: true } },
    target: 'protection settings',
    preview: { kind: 'protection', rows: [{ field: 'preventZoom', before: false, after: true }] },
    state: 'succeeded',
    timeBox: { ...newTimeBox({ kind: 'for', ms: 2 * HOUR, text: '2h' }), endsAt: '2026-11-21T12:00:00.000Z' },
  });

  it('an agent extends a change: the form has no "never", and asks for a window and a reason', () => {
    const view = extendModal(inForce, DEFAULT.limits, ENGLISH);
    expect(view.callback_id).toBe(CALLBACKS.extend);
    expect(optionValues(view)).not.toContain('never');
    expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
    const meta = String(view.private_metadata);
    const missing = parseExtendSubmission(
      readViewState({ ...window(null), [BLOCKS.reason]: text('') }),
      meta,
      DEFAULT.limits,
      DEFAULT.read,
      ENGLISH,
    );
    expect(missing.ok).toBe(false);
    const asked = parseExtendSubmission(
      readViewState({ ...window('4h'), [BLOCKS.reason]: text('the exam runs late') }),
      meta,
      DEFAULT.limits,
      DEFAULT.read,
      ENGLISH,
    );
    expect(asked).toEqual({
      ok: true,
      requestId: 'R-7QK2M9XD',
      asked: { kind: 'for', ms: 4 * HOUR, text: '4h' },
      reason: 'the exam runs late',
    });
  });

  it('an agent reverts a folder edit: the modal shows the inverse and whose change it reverts, and asks for a reason', () => {
    const prepared: Prepared = {
      operation: 'folder.edit',
      params: { bucketId: '6710a0000000000000000101', title: 'Lectures' },
      target: 'folder 6710a0000000000000000101',
      preview: {
        kind: 'edit',
        resource: 'folder',
        id: '6710a0000000000000000101',
        before: { title: 'Lectures 2026', description: null },
        after: { title: 'Lectures', description: null },
      },
      warnings: [],
      revertOf: { id: 'R-EDIT0001', kind: 'revert' },
    };
    const view = revertConfirmModal({ prepared, draftId: DRAFT_ID }, ENGLISH);
    const all = JSON.stringify(view.blocks);
    expect(all).toContain('*R-EDIT0001*');
    expect(all).toContain('Lectures 2026');
    expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
    const draft = { prepared };
    expect(parseRevertSubmission(readViewState({ [BLOCKS.reason]: text('') }), draft, ENGLISH).ok).toBe(
      false,
    );
    expect(
      parseRevertSubmission(readViewState({ [BLOCKS.reason]: text('wrong title') }), draft, ENGLISH),
    ).toEqual({
      ok: true,
      prepared,
      reason: 'wrong title',
    });
  });
});
