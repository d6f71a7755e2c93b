import fc from 'fast-check';
import { InputError } from '../../src/core/errors.js';
import type { Actor, OperationRequest } from '../../src/core/model.js';
import type { BoxAsked } from '../../src/core/time-box.js';
import { messageOf } from '../../src/i18n/said.js';
import type { FaultRule } from '../../src/sandbox/server.js';
import type { Operations, PrepareInput } from '../../src/services/types.js';
import { ava, bob, CONFIG, type CrashPoint, HOUR, kim, lee, MINUTE, WHITELIST, type World } from './world.js';

/**
 * The model of time-boxed changes (docs/time-boxed.md): what each setting and address should be
 * now, which window holds it until when, and what is waiting for a lead. The real services run
 * each command; where the outcome may legally differ (a fault was armed, a race with the end of
 * a window), the outcome the service records picks the branch, and the model says what the
 * service must then show. After every command `check` compares the service and the store with it.
 */

export const FIELDS = ['preventZoom', 'opacity'] as const;
export const ADDRESSES = ['5.6.7.8', '9.9.9.9'] as const;
export type Item = (typeof FIELDS)[number] | (typeof ADDRESSES)[number];
export const ITEMS: readonly Item[] = [...FIELDS, ...ADDRESSES];
/** A setting's value, or whether an address is listed. */
export type Value = boolean | number;

const isAddress = (item: Item): boolean => (ADDRESSES as readonly string[]).includes(item);

/** A request waiting for the lead, as the model knows it. */
interface Asked {
  id: string;
  kind: 'change' | 'extend' | 'revert';
  item: Item;
  value: Value;
  window: BoxAsked | null;
  /** Extend and Revert: the window (its first change's ID) or the change they act on. */
  of: string | null;
  /** A whitelist change is checked against the list it was asked on (op 1's `expectBefore`). */
  listAsked: string;
  expiresAt: number;
  /** Who asked: a lead who asked an Extend does not decide it; the other lead does. */
  by: Actor;
}

/** A window in force: the one holder of its item. */
interface Window {
  /** The change, then its Extends, in order. */
  ids: string[];
  item: Item;
  set: Value;
  before: Value;
  endsAt: number;
  /** A change for good through vidops was made since: the put-back leaves the item alone. */
  overridden: boolean;
}

/** A change for good that applied: what it replaced, for its Revert. */
interface Done {
  id: string;
  item: Item;
  before: Value;
  after: Value;
  /** A Revert of it applied: another is refused when asked and not sent when approved. */
  reverted: boolean;
}

export interface Model {
  now: number;
  values: Record<Item, Value>;
  /** Items whose value is one of these until the next check reads which (an answer was lost). */
  unsure: Map<Item, Value[]>;
  pending: Asked[];
  windows: Window[];
  done: Done[];
  /** A fault is armed on the service and not yet met. */
  armed: boolean;
  /** IDs of every request the model saw recorded. */
  known: Set<string>;
  /** Windows whose put-back changed the service: one of their requests must say `reverted`. */
  putBack: string[][];
}

export type TimeBoxCommand = fc.AsyncCommand<Model, World, false>;

// --- Reading the world ------------------------------------------------------------------------

export function serviceValue(w: World, item: Item): Value {
  const state = w.sandbox.state();
  if (isAddress(item)) return state.whitelist.includes(item);
  return item === 'opacity' ? state.config.opacity : state.config.preventZoom;
}

export async function initialModel(w: World): Promise<Model> {
  const values = {} as Record<Item, Value>;
  for (const item of ITEMS) values[item] = serviceValue(w, item);
  return {
    now: w.now().getTime(),
    values,
    unsure: new Map(),
    pending: [],
    windows: [],
    done: [],
    armed: false,
    known: new Set(),
    putBack: [],
  };
}

/** The items a request in the store set (from what it recorded when it ran). */
function itemsOf(request: OperationRequest): Item[] {
  const undo = request.undo;
  const named =
    undo?.kind === 'protection'
      ? undo.rows.map((r) => r.field)
      : undo?.kind === 'whitelist'
        ? [...undo.added, ...undo.removed]
        : [];
  return ITEMS.filter((i) => named.includes(i));
}

const holds = (r: OperationRequest) =>
  r.state === 'succeeded' &&
  r.timeBox !== undefined &&
  ['waiting', 'retrying', 'running'].includes(r.timeBox.state) &&
  r.revertOf?.kind !== 'put-back';

async function all(w: World): Promise<OperationRequest[]> {
  return w.store().listRequests({ limit: 10_000 });
}

function fail(m: Model, what: string): never {
  throw new Error(`${what}\n  model: ${describe(m)}`);
}

function describe(m: Model): string {
  const windows = m.windows.map(
    (x) =>
      `${x.item}=${String(x.set)}←${String(x.before)} by ${x.ids.join('+')} until +${(x.endsAt - m.now) / MINUTE}m${x.overridden ? ' (overridden)' : ''}`,
  );
  const pending = m.pending.map((p) => `${p.kind} ${p.id} ${p.item}=${String(p.value)}`);
  return JSON.stringify({ values: m.values, windows, pending });
}

/**
 * After every command: the service shows what the model says, the store holds exactly the
 * model's windows (one per item, each until its end) and waits on exactly its requests, every
 * request is in a legal state, and the audit chain verifies.
 */
export async function check(m: Model, w: World): Promise<void> {
  m.armed = await w.armed();
  for (const item of ITEMS) {
    const shown = serviceValue(w, item);
    const maybe = m.unsure.get(item);
    if (maybe !== undefined) {
      if (!maybe.includes(shown)) fail(m, `${item} is ${String(shown)}, expected one of ${maybe.join(', ')}`);
      m.values[item] = shown;
      m.unsure.delete(item);
    } else if (shown !== m.values[item]) {
      fail(m, `the service shows ${item}=${String(shown)}, the model ${String(m.values[item])}`);
    }
  }
  const requests = await all(w);
  const held = new Map<Item, OperationRequest>();
  for (const r of requests) {
    legal(m, r);
    if (!holds(r)) continue;
    for (const item of itemsOf(r)) {
      const other = held.get(item);
      if (other !== undefined) fail(m, `${item} is held by ${other.id} and ${r.id} at once`);
      held.set(item, r);
    }
  }
  for (const item of ITEMS) {
    const window = m.windows.find((x) => x.item === item);
    const holder = held.get(item);
    if (window === undefined && holder !== undefined)
      fail(m, `${holder.id} holds ${item}; the model has no window`);
    if (window !== undefined && holder === undefined)
      fail(m, `no request holds ${item}; the model's window does`);
    if (window === undefined || holder === undefined) continue;
    if (!window.ids.includes(holder.id))
      fail(m, `${holder.id} holds ${item}; the model says ${window.ids.join('+')}`);
    const endsAt = holder.timeBox?.endsAt ? Date.parse(holder.timeBox.endsAt) : Number.NaN;
    if (endsAt !== window.endsAt) {
      fail(
        m,
        `${item} goes back at ${holder.timeBox?.endsAt}; the model says ${new Date(window.endsAt).toISOString()}`,
      );
    }
  }
  const pending = requests.filter((r) => r.state === 'pending').map((r) => r.id);
  const expected = m.pending.map((p) => p.id);
  if (pending.sort().join() !== expected.sort().join()) {
    fail(m, `the store waits on [${pending.join(', ')}], the model on [${expected.join(', ')}]`);
  }
  if (m.putBack.length > 0) {
    const reverted = new Set(
      (await w.store().listAudit()).filter((e) => e.type === 'reverted').map((e) => e.requestId),
    );
    const silent = m.putBack.find((ids) => !ids.some((id) => reverted.has(id)));
    if (silent !== undefined) fail(m, `${silent.join('+')} was put back with no \`reverted\` event`);
    m.putBack = [];
  }
  if (!(await w.chainOk())) fail(m, 'the audit chain does not verify');
}

/** One request's state is one the design allows. */
function legal(m: Model, r: OperationRequest): void {
  const box = r.timeBox;
  const putBack = r.revertOf?.kind === 'put-back';
  if (putBack && box !== undefined) fail(m, `put-back ${r.id} has a window`);
  if (!putBack && (r.state === 'approved' || r.state === 'executing')) {
    fail(m, `${r.id} is left ${r.state} with no process running it`);
  }
  if (box === undefined) return;
  if (r.state !== 'succeeded' && !['waiting', 'cancelled'].includes(box.state)) {
    fail(m, `${r.id} is ${r.state} but its put-back is ${box.state}`);
  }
  if (r.state === 'succeeded' && box.endsAt === null) fail(m, `${r.id} applied with no end`);
  if (box.state === 'running' && box.requestId === null) fail(m, `${r.id} is being put back by no request`);
}

// --- Helpers of the commands --------------------------------------------------------------------

const valueFor = (item: Item, choice: number, current: Value): Value => {
  if (item === 'opacity') {
    const options = [0.2, 0.4, 0.6].filter((v) => v !== current);
    return options[choice % options.length] ?? 0.2;
  }
  return !current;
};

function inputOf(item: Item, value: Value): PrepareInput {
  if (isAddress(item)) return { kind: 'whitelist.set', change: value ? 'add' : 'remove', ips: [item] };
  if (typeof value === 'number') return { kind: 'protect.set', changes: { opacity: value } };
  return { kind: 'protect.set', changes: { preventZoom: value } };
}

const listNow = (w: World) => [...w.sandbox.state().whitelist].sort().join(',');

export type WindowChoice = null | { kind: 'for'; minutes: number } | { kind: 'until'; minutes: number };

function boxOf(choice: WindowChoice, now: number): BoxAsked | null {
  if (choice === null) return null;
  if (choice.kind === 'for') return { kind: 'for', ms: choice.minutes * MINUTE, text: `${choice.minutes}m` };
  const at = new Date(now + choice.minutes * MINUTE).toISOString().slice(0, 19);
  return { kind: 'until', at: `${at}Z`, text: `${at}Z` };
}

const showWindow = (c: WindowChoice) => (c === null ? 'for good' : `${c.kind} ${c.minutes}m`);

/** The request of window `x` that holds it now in the store (the change, or an Extend of it). */
async function holderOf(w: World, x: Window): Promise<OperationRequest | null> {
  for (const id of [...x.ids].reverse()) {
    const r = await w.store().getRequest(id);
    if (r !== null && holds(r)) return r;
  }
  return null;
}

const pick = <T>(list: readonly T[], k: number): T | undefined => list[k % Math.max(1, list.length)];

/** A window put back (by its end, Put back now or a Revert): the item goes back where still as it left it. */
function windowEnded(m: Model, x: Window, by: 'put-back' | 'revert'): void {
  m.windows = m.windows.filter((y) => y !== x);
  const now = m.values[x.item];
  if (now === x.set && x.overridden) m.unsure.set(x.item, [x.set, x.before]);
  else if (now === x.set && now !== x.before) {
    m.values[x.item] = x.before;
    if (by === 'put-back') m.putBack.push(x.ids);
  }
}

/** A change applied for good (or a Revert): it wins over a window holding its item. */
function forGood(m: Model, item: Item, value: Value): void {
  m.values[item] = value;
  const holder = m.windows.find((x) => x.item === item);
  if (holder !== undefined) holder.overridden = true;
}

async function newRequests(w: World, m: Model): Promise<OperationRequest[]> {
  const fresh = (await all(w)).filter((r) => !m.known.has(r.id));
  for (const r of fresh) m.known.add(r.id);
  return fresh;
}

// --- The commands -------------------------------------------------------------------------------

/** An agent asks for a change of one setting or address, for a while or for good. */
export class Ask implements TimeBoxCommand {
  constructor(
    readonly who: Actor,
    readonly item: Item,
    readonly choice: number,
    readonly window: WindowChoice,
  ) {}
  check = () => true;
  async run(m: Model, w: World): Promise<void> {
    const value = valueFor(this.item, this.choice, m.values[this.item]);
    const box = boxOf(this.window, m.now);
    const held = m.windows.find((x) => x.item === this.item);
    let outcome: string;
    let why = '';
    try {
      const prepared = await w.replica(0).prepare(this.who, inputOf(this.item, value));
      const submitted = await w.replica(0).submit(this.who, prepared, box === null ? {} : { timeBox: box });
      outcome = submitted.kind;
      if (submitted.kind === 'pending') {
        const r = submitted.request;
        m.pending.push({
          id: r.id,
          kind: 'change',
          item: this.item,
          value,
          window: box,
          of: null,
          listAsked: listNow(w),
          expiresAt: r.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(r.expiresAt),
          by: this.who,
        });
      }
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      outcome = 'refused';
      why = messageOf(error);
    }
    const recorded = (await newRequests(w, m)).filter((r) => r.revertOf === undefined);
    if (
      box !== null &&
      held !== undefined &&
      outcome === 'refused' &&
      !held.ids.some((id) => why.includes(id))
    ) {
      fail(m, `the refusal of a second window on ${this.item} does not name its holder: ${why}`);
    }
    if (outcome !== 'pending' && recorded.length > 0) fail(m, `a refused ask recorded ${recorded[0]?.id}`);
    if (outcome === 'executed') fail(m, 'a protection or whitelist change ran without a lead');
    if (box !== null && held !== undefined && outcome !== 'refused') {
      fail(m, `a second window on ${this.item} (held by ${held.ids.join('+')}) was not refused`);
    }
    if ((box === null || held === undefined) && outcome !== 'pending' && !m.armed) {
      fail(m, `ask ${this.item}=${String(value)} ${showWindow(this.window)}: ${outcome}`);
    }
  }
  toString = () => `Ask(${this.who.name}, ${this.item}, ${this.choice}, ${showWindow(this.window)})`;
}

/** A lead approves the `k`-th waiting request, on replica `replica`. */
export class Approve implements TimeBoxCommand {
  constructor(
    readonly k: number,
    readonly replica: 0 | 1,
  ) {}
  check = (m: Readonly<Model>) => m.pending.length > 0;
  async run(m: Model, w: World): Promise<void> {
    const asked = pick(m.pending, this.k);
    if (asked === undefined) return;
    const armed = m.armed;
    const { mustNot, may } = judge(m, w, asked);
    await w.replica(this.replica).approve(asked.id, deciderOf(asked));
    await newRequests(w, m);
    const after = await w.store().getRequest(asked.id);
    if (after === null) fail(m, `${asked.id} is gone`);
    if (after.state === 'pending') {
      if (m.now < asked.expiresAt) fail(m, `the approval of ${asked.id} left it pending`);
      return;
    }
    m.pending = m.pending.filter((p) => p !== asked);
    const applied = after.state === 'succeeded';
    if (applied && mustNot !== null) fail(m, `${asked.kind} ${asked.id} applied though ${mustNot}`);
    if (!applied && mustNot === null && !may && !armed && after.state !== 'expired') {
      fail(
        m,
        `${asked.kind} ${asked.id} ${asked.item}=${String(asked.value)} ended ${after.state}: ${after.error?.message ?? ''}`,
      );
    }
    if (after.state === 'unknown') {
      m.unsure.set(asked.item, [m.values[asked.item], asked.value]);
      return;
    }
    if (applied) applyApproved(m, asked, after);
  }
  toString = () => `Approve(${this.k}, replica ${this.replica})`;
}

const deciderOf = (asked: Asked): Actor => (asked.by.id === lee.id ? kim : lee);

/** Why the model forbids `asked` to apply now (or null), and whether not applying is allowed too. */
function judge(m: Model, w: World, asked: Asked): { mustNot: string | null; may: boolean } {
  const now = m.now;
  if (now >= asked.expiresAt) return { mustNot: 'it expired', may: true };
  const held = m.windows.find((x) => x.item === asked.item);
  if (asked.kind === 'change') {
    if (asked.window !== null && held !== undefined)
      return { mustNot: `${held.ids.join('+')} holds ${asked.item}`, may: true };
    if (asked.window?.kind === 'until' && Date.parse(asked.window.at) <= now) {
      return { mustNot: 'its end passed while it waited', may: true };
    }
    const tight = asked.window?.kind === 'until' && Date.parse(asked.window.at) - now < MINUTE;
    const moved = isAddress(asked.item) && listNow(w) !== asked.listAsked;
    return { mustNot: null, may: tight || moved || m.values[asked.item] === asked.value };
  }
  const window = m.windows.find((x) => x.ids[0] === asked.of);
  if (asked.kind === 'extend') {
    if (window === undefined) return { mustNot: 'the window it extends ended', may: true };
    // An Extend sends nothing: changed since or not, the put-back at its end leaves what others set.
    const changed = m.values[window.item] !== window.set;
    return { mustNot: null, may: window.overridden || window.endsAt <= now || changed };
  }
  // A Revert: of a window (ends it), or of a change for good.
  const done = m.done.find((d) => d.id === asked.of && !d.reverted);
  if (window === undefined && done === undefined)
    return { mustNot: 'what it reverts was put back or reverted', may: true };
  const setBy = window?.set ?? done?.after;
  if (m.values[asked.item] !== setBy) return { mustNot: `${asked.item} was changed since`, may: true };
  // A whitelist Revert sends the list it was planned on: one that moved since refuses it.
  const moved = isAddress(asked.item) && listNow(w) !== asked.listAsked;
  return { mustNot: null, may: window?.overridden === true || moved };
}

function applyApproved(m: Model, asked: Asked, after: OperationRequest): void {
  if (asked.kind === 'change' && asked.window === null) {
    m.done.push({
      id: asked.id,
      item: asked.item,
      before: m.values[asked.item],
      after: asked.value,
      reverted: false,
    });
    forGood(m, asked.item, asked.value);
    return;
  }
  if (asked.kind === 'change' && asked.window !== null) {
    const endsAt = asked.window.kind === 'for' ? m.now + asked.window.ms : Date.parse(asked.window.at);
    m.windows.push({
      ids: [asked.id],
      item: asked.item,
      set: asked.value,
      before: m.values[asked.item],
      endsAt,
      overridden: false,
    });
    m.values[asked.item] = asked.value;
    return;
  }
  const window = m.windows.find((x) => x.ids[0] === asked.of);
  if (asked.kind === 'extend' && window !== undefined && asked.window?.kind === 'for') {
    window.ids.push(after.id);
    // An Extend lengthens a window, never shortens it.
    window.endsAt = Math.max(window.endsAt, m.now + asked.window.ms);
    return;
  }
  if (asked.kind === 'revert' && window !== undefined) {
    windowEnded(m, window, 'revert');
    return;
  }
  const done = m.done.find((d) => d.id === asked.of);
  if (asked.kind === 'revert' && done !== undefined) {
    done.reverted = true;
    forGood(m, asked.item, done.before);
  }
}

/** A lead rejects the `k`-th waiting request. */
export class Reject implements TimeBoxCommand {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.pending.length > 0;
  async run(m: Model, w: World): Promise<void> {
    const asked = pick(m.pending, this.k);
    if (asked === undefined) return;
    const result = await w.replica(0).reject(asked.id, deciderOf(asked), 'not now');
    if (result.kind !== 'rejected' && m.now < asked.expiresAt)
      fail(m, `reject of ${asked.id}: ${result.kind}`);
    const after = await w.store().getRequest(asked.id);
    if (after?.state !== 'pending') m.pending = m.pending.filter((p) => p !== asked);
  }
  toString = () => `Reject(${this.k})`;
}

/** The requester or a lead asks to extend the `k`-th window in force. */
export class Extend implements TimeBoxCommand {
  constructor(
    readonly k: number,
    readonly minutes: number,
    readonly byLead: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.windows.length > 0;
  async run(m: Model, w: World): Promise<void> {
    const window = pick(m.windows, this.k);
    if (window === undefined) return;
    const holder = await holderOf(w, window);
    if (holder === null) fail(m, `no request holds ${window.item}`);
    const by = this.byLead ? lee : holder.requester;
    const asked: BoxAsked = { kind: 'for', ms: this.minutes * MINUTE, text: `${this.minutes}m` };
    const result = await w.replica(0).extend(holder.id, by, asked);
    await newRequests(w, m);
    if (result.kind === 'pending') {
      const r = result.request;
      m.pending.push({
        id: r.id,
        kind: 'extend',
        item: window.item,
        value: window.set,
        window: asked,
        of: window.ids[0] ?? null,
        listAsked: listNow(w),
        expiresAt: r.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(r.expiresAt),
        by,
      });
      return;
    }
    const inForce = holder.timeBox?.state === 'waiting' && m.values[window.item] === window.set;
    if (inForce && !m.armed) fail(m, `extend of ${holder.id}: ${result.kind}`);
  }
  toString = () => `Extend(${this.k}, ${this.minutes}m, by ${this.byLead ? 'a lead' : 'the requester'})`;
}

/** A lead presses Put back now on the `k`-th window in force. */
export class PutBackNow implements TimeBoxCommand {
  constructor(
    readonly k: number,
    readonly replica: 0 | 1,
  ) {}
  check = (m: Readonly<Model>) => m.windows.length > 0;
  async run(m: Model, w: World): Promise<void> {
    const window = pick(m.windows, this.k);
    if (window === undefined) return;
    const holder = await holderOf(w, window);
    if (holder === null) fail(m, `no request holds ${window.item}`);
    const armed = m.armed;
    const result = await w.replica(this.replica).putBackNow(holder.id, lee);
    await newRequests(w, m);
    if (await ended(w, window)) windowEnded(m, window, 'put-back');
    else if (result.kind === 'refused' ? holder.timeBox?.state !== 'running' : !armed) {
      fail(m, `Put back now on ${holder.id} (${holder.timeBox?.state}): ${result.kind}, still in force`);
    }
  }
  toString = () => `PutBackNow(${this.k}, replica ${this.replica})`;
}

async function ended(w: World, x: Window): Promise<boolean> {
  return (await holderOf(w, x)) === null;
}

/**
 * The requester asks to revert the `k`-th window (any of its requests) or change for good, one
 * reverted already included: refused while another Revert of it waits or once one applied.
 */
export class Revert implements TimeBoxCommand {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.windows.length + m.done.length > 0;
  async run(m: Model, w: World): Promise<void> {
    const targets = [
      ...m.windows.flatMap((x) =>
        x.ids.map((id) => ({ id, of: x.ids[0] ?? id, item: x.item, back: x.before, set: x.set })),
      ),
      ...m.done.map((d) => ({ id: d.id, of: d.id, item: d.item, back: d.before, set: d.after })),
    ];
    const target = pick(targets, this.k);
    if (target === undefined) return;
    const change = await w.store().getRequest(target.id);
    if (change === null) fail(m, `${target.id} is gone`);
    const reverted = m.done.some((d) => d.id === target.id && d.reverted);
    const twice = m.pending.find((p) => p.kind === 'revert' && p.of === target.of && m.now < p.expiresAt);
    let result: string;
    try {
      const prepared = await w.replica(0).prepareRevert(target.id, change.requester);
      const submitted = await w.replica(0).submit(change.requester, prepared, {});
      result = submitted.kind;
      if (submitted.kind === 'pending') {
        m.pending.push({
          id: submitted.request.id,
          kind: 'revert',
          item: target.item,
          value: target.back,
          window: null,
          of: target.of,
          listAsked: listNow(w),
          expiresAt:
            submitted.request.expiresAt === null
              ? Number.POSITIVE_INFINITY
              : Date.parse(submitted.request.expiresAt),
          by: change.requester,
        });
      }
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      result = 'refused';
    }
    const recorded = (await newRequests(w, m)).filter((r) => r.revertOf?.kind !== 'put-back');
    if (result !== 'pending' && recorded.length > 0) fail(m, `a refused Revert recorded ${recorded[0]?.id}`);
    const overridden = m.windows.some((x) => x.item === target.item && x.overridden);
    // An Extend moved only an end: it has no Revert of its own (the change's ends the whole window).
    const extension = target.id !== target.of;
    if (extension && result !== 'refused') fail(m, `the Revert of Extend ${target.id} was ${result}`);
    if (reverted && result !== 'refused') fail(m, `a second Revert of ${target.id}, reverted, was ${result}`);
    if (twice !== undefined && result !== 'refused')
      fail(m, `a Revert of ${target.id} was ${result} while ${twice.id} waits`);
    // A change that set what was already there has nothing to revert.
    const noop = target.back === target.set;
    if (
      result !== 'pending' &&
      m.values[target.item] === target.set &&
      !overridden &&
      !extension &&
      !noop &&
      !reverted &&
      twice === undefined &&
      !m.armed
    ) {
      fail(m, `the Revert of ${target.id} was ${result}`);
    }
  }
  toString = () => `Revert(${this.k})`;
}

/** Someone changes the service outside vidops (its own console). */
export class ServiceSets implements TimeBoxCommand {
  constructor(
    readonly item: Item,
    readonly choice: number,
  ) {}
  check = (m: Readonly<Model>) => !m.armed;
  async run(m: Model, w: World): Promise<void> {
    const value = valueFor(this.item, this.choice, m.values[this.item]);
    if (isAddress(this.item)) {
      const list = w.sandbox.state().whitelist.filter((a) => a !== this.item);
      await w.serviceSets(WHITELIST, { allowedDNS: value ? [...list, this.item] : list });
    } else {
      await w.serviceSets(CONFIG, { [this.item]: value });
    }
    m.values[this.item] = value;
  }
  toString = () => `ServiceSets(${this.item}, ${this.choice})`;
}

/** Time passes. */
export class Advance implements TimeBoxCommand {
  constructor(readonly minutes: number) {}
  check = () => true;
  async run(m: Model, w: World): Promise<void> {
    w.advance(this.minutes * MINUTE);
    m.now = w.now().getTime();
  }
  toString = () => `Advance(${this.minutes}m)`;
}

/** The sweep of replica `replica` runs: expiries, interrupted requests, put-backs due. */
export class Sweep implements TimeBoxCommand {
  constructor(readonly replica: 0 | 1) {}
  check = () => true;
  async run(m: Model, w: World): Promise<void> {
    await sweepOn(m, w, w.replica(this.replica));
  }
  toString = () => `Sweep(replica ${this.replica})`;
}

async function sweepOn(m: Model, w: World, ops: Operations): Promise<void> {
  const armed = m.armed;
  const due = await dueNow(m, w);
  await sweep(ops);
  await afterSweep(m, w, due, armed);
}

const sweep = async (ops: Operations) => {
  await ops.expireDue();
  await ops.resumeInterrupted();
  await ops.sweepTimeBoxes();
};

/** The windows a sweep now must put back (unless the service fails it). */
async function dueNow(m: Model, w: World): Promise<Window[]> {
  const due: Window[] = [];
  for (const x of m.windows) {
    const box = (await holderOf(w, x))?.timeBox;
    // A sweep that tells a lead of a put-back failing for an hour tries it again at the next sweep.
    const escalates =
      box?.failingSince != null && !box.leadTold && Date.parse(box.failingSince) + HOUR <= m.now;
    const retry =
      box?.state === 'retrying' && box.nextAt !== null && Date.parse(box.nextAt) <= m.now && !escalates;
    if ((box?.state === 'waiting' && x.endsAt <= m.now) || retry) due.push(x);
  }
  return due;
}

/**
 * After a sweep: the windows it ended leave the model; one due and still in force is a defect
 * unless `mayStay` (a fault was armed, or the process died in the middle).
 */
async function afterSweep(m: Model, w: World, due: readonly Window[], mayStay: boolean): Promise<void> {
  await newRequests(w, m);
  for (const x of [...m.windows]) {
    if (await ended(w, x)) {
      if (x.endsAt > m.now && !due.includes(x)) fail(m, `${x.ids.join('+')} was put back before its end`);
      windowEnded(m, x, 'put-back');
    } else if (due.includes(x) && !mayStay) {
      fail(m, `${x.ids.join('+')} (${x.item}) was due and is still in force`);
    }
  }
  const states = new Map((await all(w)).map((r) => [r.id, r.state]));
  m.pending = m.pending.filter((p) => states.get(p.id) === 'pending');
}

/**
 * A lead approves an Extend of a window at its end while the other replica's sweep puts the
 * window back: one of the two wins, never both.
 */
export class ExtendAtTheEnd implements TimeBoxCommand {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.pending.some((p) => p.kind === 'extend');
  async run(m: Model, w: World): Promise<void> {
    const extensions = m.pending.filter((p) => p.kind === 'extend');
    const asked = pick(extensions, this.k);
    const window = m.windows.find((x) => x.ids[0] === asked?.of);
    if (asked === undefined) return;
    if (window === undefined || m.now >= asked.expiresAt || m.values[window.item] !== window.set) {
      await new Approve(m.pending.indexOf(asked), 0).run(m, w);
      return;
    }
    const armed = m.armed;
    w.advance(Math.max(0, window.endsAt - m.now));
    m.now = w.now().getTime();
    const due = await dueNow(m, w);
    await Promise.all([w.replica(0).approve(asked.id, deciderOf(asked)), sweep(w.replica(1))]);
    const after = await w.store().getRequest(asked.id);
    const applied = after?.state === 'succeeded';
    const putBack = await ended(w, window);
    if (applied && putBack) fail(m, `Extend ${asked.id} applied and its window was put back`);
    if (after?.state !== 'pending') m.pending = m.pending.filter((p) => p !== asked);
    if (applied && after !== null) applyApproved(m, asked, after);
    await afterSweep(
      m,
      w,
      due.filter((x) => x !== window),
      armed,
    );
  }
  toString = () => `ExtendAtTheEnd(${this.k})`;
}

/** A process sweeps and dies at a put-back's first write; replica 0 starts again. */
export class CrashInSweep implements TimeBoxCommand {
  constructor(readonly at: CrashPoint) {}
  check = () => true;
  async run(m: Model, w: World): Promise<void> {
    const dying = await w.dying(this.at);
    const due = await dueNow(m, w);
    await dying.sweepTimeBoxes().catch(() => undefined);
    await w.restart(0);
    // What it recorded before it died stays: a window with nothing left to send was ended (`left`).
    await afterSweep(m, w, due, true);
  }
  toString = () => `CrashInSweep(${this.at})`;
}

/** Replica `replica` stops and starts again. */
export class Restart implements TimeBoxCommand {
  constructor(readonly replica: 0 | 1) {}
  check = () => true;
  async run(_m: Model, w: World): Promise<void> {
    await w.restart(this.replica);
  }
  toString = () => `Restart(replica ${this.replica})`;
}

export type FaultKind = 'error 500' | 'connection reset' | 'answer lost';

/** The service fails the next POST to `path`: an error, a reset before it acts, or a lost answer. */
export class Fault implements TimeBoxCommand {
  constructor(
    readonly path: typeof CONFIG | typeof WHITELIST,
    readonly kind: FaultKind,
  ) {}
  check = () => true;
  async run(m: Model, w: World): Promise<void> {
    const rule: FaultRule =
      this.kind === 'error 500'
        ? { path: this.path, method: 'POST', status: 500 }
        : this.kind === 'connection reset'
          ? { path: this.path, method: 'POST', reset: true }
          : { path: this.path, method: 'POST', resetAfter: true };
    w.fault(rule);
    m.armed = true;
  }
  toString = () => `Fault(${this.path === CONFIG ? 'config' : 'whitelist'}, ${this.kind})`;
}

/**
 * After the commands: time runs on past every end, and the sweep runs until nothing is due. No
 * window may be left in force, nothing half-done, and the service as the model says.
 */
export async function drain(m: Model, w: World): Promise<void> {
  await w.restart(0);
  w.sandbox.clearFaults();
  m.armed = false;
  for (let i = 0; i < 4; i += 1) {
    await new Advance(8 * 60).run(m, w);
    await sweepOn(m, w, w.replica(i % 2 === 0 ? 0 : 1));
    await check(m, w);
  }
  if (m.windows.length > 0) fail(m, 'windows still in force long after their end');
}

// --- Generating commands -------------------------------------------------------------------------

const item = fc.constantFrom(...ITEMS);
const small = fc.nat({ max: 7 });
const windowChoice: fc.Arbitrary<WindowChoice> = fc.oneof(
  fc.constant(null),
  fc.record({ kind: fc.constant('for' as const), minutes: fc.constantFrom(30, 60, 120) }),
  fc.record({ kind: fc.constant('until' as const), minutes: fc.constantFrom(20, 90) }),
);
const replica = fc.constantFrom<0 | 1>(0, 1);

export const timeBoxCommands: fc.Arbitrary<TimeBoxCommand>[] = [
  fc
    .tuple(fc.constantFrom(ava, bob), item, small, windowChoice)
    .map(([who, i, c, x]) => new Ask(who, i, c, x)),
  fc
    .tuple(fc.constantFrom(ava, bob), item, small, windowChoice)
    .map(([who, i, c, x]) => new Ask(who, i, c, x)),
  fc.tuple(small, replica).map(([k, r]) => new Approve(k, r)),
  fc.tuple(small, replica).map(([k, r]) => new Approve(k, r)),
  small.map((k) => new Reject(k)),
  fc.tuple(small, fc.constantFrom(30, 120), fc.boolean()).map(([k, min, lead]) => new Extend(k, min, lead)),
  fc.tuple(small, replica).map(([k, r]) => new PutBackNow(k, r)),
  small.map((k) => new ExtendAtTheEnd(k)),
  small.map((k) => new Revert(k)),
  fc.tuple(item, small).map(([i, c]) => new ServiceSets(i, c)),
  fc.constantFrom(5, 25, 60, 100).map((min) => new Advance(min)),
  fc.constantFrom(5, 25, 60, 100).map((min) => new Advance(min)),
  replica.map((r) => new Sweep(r)),
  replica.map((r) => new Sweep(r)),
  fc
    .constantFrom<CrashPoint>('before-put-back-create', 'after-put-back-create')
    .map((at) => new CrashInSweep(at)),
  replica.map((r) => new Restart(r)),
  fc
    .tuple(
      fc.constantFrom<typeof CONFIG | typeof WHITELIST>(CONFIG, WHITELIST),
      fc.constantFrom<FaultKind>('error 500', 'connection reset', 'answer lost'),
    )
    .map(([p, k]) => new Fault(p, k)),
];

/** A command followed by the model's checks. */
class Checked implements TimeBoxCommand {
  constructor(readonly inner: TimeBoxCommand) {}
  check = (m: Readonly<Model>) => this.inner.check(m);
  async run(m: Model, w: World): Promise<void> {
    await this.inner.run(m, w);
    await check(m, w);
  }
  toString = () => this.inner.toString();
}

/** The commands, each checked after it runs. */
export const checkedCommands = timeBoxCommands.map((a) => a.map((c): TimeBoxCommand => new Checked(c)));

/** Runs `commands` from a fresh model (for the example tests), checking after each, then drains. */
export async function replay(w: World, commands: readonly TimeBoxCommand[]): Promise<Model> {
  const m = await initialModel(w);
  for (const c of commands) {
    if (!c.check(m)) continue;
    await c.run(m, w);
    await check(m, w);
  }
  await drain(m, w);
  return m;
}
