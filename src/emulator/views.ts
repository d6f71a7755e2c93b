import type { JsonObject, JsonValue } from '../core/json.js';
import type { BlockKitSurface } from '../views/limits.js';
import { findSurfaceProblems } from './blockkit.js';
import type { StoredView } from './emulator.js';
import { fail, isObject, problemAnswer, str } from './json.js';
import { triggerIssuedAt } from './payloads.js';
import { changed, type EmulatorState, newHash } from './state.js';
import { APP_ID, BOT_ID, TEAM_ID } from './workspace.js';

/**
 * The views of the emulated workspace as Slack keeps them: modals stacked per person (at most
 * three), Home tabs, their hashes and external IDs, and the trigger_id a modal needs to open.
 * @see docs/slack.md; docs/architecture.md, "Emulator and playground"
 */

/** Modals stack at most three deep. */
const MAX_MODAL_STACK = 3;

export type ShownView = { ok: true; view: StoredView } | { ok: false; error: string; problems: string[] };

/** Slack's refusal of a view (not an object, or blocks it would refuse); undefined when it takes it. */
export function checkView(view: JsonValue | undefined, surface: BlockKitSurface): JsonObject | undefined {
  if (!isObject(view))
    return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] view'] } });
  const problems = findSurfaceProblems({ view }, surface);
  if (problems.length === 0) return undefined;
  return problemAnswer(
    'invalid_arguments',
    problems.map((p) => `${p.path}: ${p.message}`),
  );
}

/** Stores a view, new or replacing `previous` (same ID, new hash). */
export function storeView(
  state: EmulatorState,
  view: JsonObject,
  previous: StoredView | undefined,
  previousViewId: string | null,
): StoredView {
  state.viewCounter += 1;
  const id = previous?.id ?? `V0EMU${String(state.viewCounter).padStart(5, '0')}`;
  const stored: StoredView = {
    ...view,
    id,
    team_id: TEAM_ID,
    type: str(view.type) ?? 'modal',
    blocks: view.blocks ?? [],
    private_metadata: str(view.private_metadata) ?? '',
    callback_id: str(view.callback_id) ?? '',
    state: { values: {} },
    hash: newHash(state),
    clear_on_close: view.clear_on_close ?? false,
    notify_on_close: view.notify_on_close ?? false,
    close: view.close ?? null,
    submit: view.submit ?? null,
    previous_view_id: previous === undefined ? previousViewId : (previous.previous_view_id ?? null),
    root_view_id: previous?.root_view_id ?? id,
    app_id: APP_ID,
    external_id: str(view.external_id) ?? previous?.external_id ?? '',
    app_installed_team_id: TEAM_ID,
    bot_id: BOT_ID,
  };
  state.views.set(id, stored);
  return stored;
}

/** The open view with this external_id. */
export function findExternal(state: EmulatorState, externalId: string): StoredView | undefined {
  return [...state.views.values()].find((v) => v.external_id === externalId && !state.closedViews.has(v.id));
}

/** Why a trigger_id cannot open a view (unknown, used, expired); undefined when it can. */
function triggerProblem(state: EmulatorState, trigger: string | undefined): string | undefined {
  if (trigger === undefined || trigger === '') return 'invalid_arguments';
  const issuedAt = state.triggers.get(trigger)?.issuedAt ?? triggerIssuedAt(trigger);
  if (issuedAt === undefined) return 'invalid_trigger_id';
  // A trigger_id can be exchanged once, within 3 seconds of the interaction.
  if (state.usedTriggers.has(trigger)) return 'exchanged_trigger_id';
  if (state.now() - issuedAt > state.triggerTtlMs) return 'expired_trigger_id';
  return undefined;
}

/** `views.open` (`push` false: replaces the person's stack) and `views.push`. */
export function openView(state: EmulatorState, args: JsonObject, push: boolean): JsonObject {
  const trigger = str(args.trigger_id);
  const refused = triggerProblem(state, trigger);
  if (refused !== undefined || trigger === undefined) return fail(refused ?? 'invalid_arguments');
  const problem = checkView(args.view, 'modal');
  if (problem !== undefined || !isObject(args.view)) return problem ?? fail('invalid_arguments');
  const externalId = str(args.view.external_id);
  if (externalId !== undefined && externalId !== '' && findExternal(state, externalId) !== undefined) {
    return fail('duplicate_external_id');
  }
  const owner = state.triggers.get(trigger)?.user;
  const stack = owner === undefined ? undefined : (state.stacks.get(owner) ?? []);
  if (push && stack !== undefined && stack.length >= MAX_MODAL_STACK) return fail('push_limit_reached');
  state.usedTriggers.add(trigger);
  const stored = storeView(state, args.view, undefined, push ? (stack?.at(-1) ?? null) : null);
  if (owner !== undefined && stack !== undefined) {
    state.viewOwners.set(stored.id, owner);
    if (push) state.stacks.set(owner, [...stack, stored.id]);
    else {
      for (const id of stack) state.closedViews.add(id);
      state.stacks.set(owner, [stored.id]);
    }
    changed(state, { kind: 'view', user: owner });
  }
  return { ok: true, view: stored };
}

export function modalStack(state: EmulatorState, userId: string): StoredView[] {
  return viewsById(state, state.stacks.get(userId) ?? []);
}

function viewsById(state: EmulatorState, ids: readonly string[]): StoredView[] {
  return ids.map((id) => state.views.get(id)).filter((v): v is StoredView => v !== undefined);
}

/** Closes the top modal of a user (`all`: the whole stack); returns what was closed. */
export function closeModals(state: EmulatorState, userId: string, which: 'top' | 'all'): StoredView[] {
  const stack = state.stacks.get(userId) ?? [];
  const gone = which === 'all' ? stack.splice(0) : stack.splice(-1);
  for (const id of gone) state.closedViews.add(id);
  changed(state, { kind: 'view', user: userId });
  return viewsById(state, gone);
}

/** A `response_action` of `update` (the top view replaced) or `push`; Slack's error when refused. */
export function showSubmittedView(
  state: EmulatorState,
  userId: string,
  viewId: string,
  action: 'update' | 'push',
  view: JsonValue | undefined,
): ShownView {
  const problem = checkView(view, 'modal');
  if (problem !== undefined || !isObject(view)) {
    const errors = Array.isArray(problem?.errors) ? problem.errors.map(String) : [];
    return { ok: false, error: str(problem?.error) ?? 'invalid_arguments', problems: errors };
  }
  const stack = state.stacks.get(userId) ?? [];
  if (action === 'push' && stack.length >= MAX_MODAL_STACK) {
    return { ok: false, error: 'push_limit_reached', problems: ['at most three views stack'] };
  }
  const stored =
    action === 'update'
      ? storeView(state, view, state.views.get(viewId), null)
      : storeView(state, view, undefined, stack.at(-1) ?? null);
  state.viewOwners.set(stored.id, userId);
  if (!stack.includes(stored.id)) state.stacks.set(userId, [...stack, stored.id]);
  changed(state, { kind: 'view', user: userId });
  return { ok: true, view: stored };
}
