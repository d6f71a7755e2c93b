import type { ProtectionConfig } from './protection.js';
import type { PutBackConflict, Undo } from './time-box.js';
import { applyIpChange, ipKey } from './validate/ip.js';
import { type ProtectionValue, readProtectionField, sameProtectionValue } from './validate/protection.js';

/**
 * Planning the undo of a done change from what it replaced, what it set, and what the service
 * shows now: only what is still as vidops left it goes back; what others changed since is left
 * alone and reported. A later time-boxed change that holds an item now (its value is the one it
 * set) keeps it: the first leaves the item to it, and hands over the value to go back to.
 * Pure: the reads happen before, the request after.
 * @see docs/time-boxed.md, "What goes back"
 */

/** Another time-boxed change in force on the same thing, which may hold some of its items now. */
export interface Holder {
  id: string;
  undo: Undo;
}

/**
 * An item a holder keeps. A protection field: the value it must now go back to (the first's
 * before). An address (`before` null): one the first added and the holder removed since, or the
 * reverse; the holder's end leaves it as it is, which is as it was before the first.
 */
export interface HandOver {
  holderId: string;
  field: string;
  before: ProtectionValue | null;
}

export interface ProtectionPlan {
  /** The settings to send (dotted name → value); empty when nothing goes back. */
  back: { field: string; from: ProtectionValue | null; to: ProtectionValue }[];
  conflicts: PutBackConflict[];
  handOvers: HandOver[];
}

type ProtectionUndo = Extract<Undo, { kind: 'protection' }>;
type WhitelistUndo = Extract<Undo, { kind: 'whitelist' }>;

function same(field: string, a: ProtectionValue | null, b: ProtectionValue | null): boolean {
  if (a === null || b === null) return a === b;
  return sameProtectionValue(field, a, b);
}

/** Which holder, if any, set `field` to the value it has now. */
function protectionHolder(field: string, now: ProtectionValue | null, holders: readonly Holder[]) {
  return holders.find(
    (h) =>
      h.undo.kind === 'protection' && h.undo.rows.some((r) => r.field === field && same(field, r.after, now)),
  );
}

/** Whether `holder` replaced `after` in `field`: its own value before was this one's after. */
function replacedAfter(holder: Holder, field: string, after: ProtectionValue | null): boolean {
  return (
    holder.undo.kind === 'protection' &&
    holder.undo.rows.some((r) => r.field === field && same(field, r.before, after))
  );
}

/** Puts back each setting still at the value vidops set; leaves the others, saying who holds them. */
export function planProtection(
  undo: ProtectionUndo,
  current: ProtectionConfig,
  holders: readonly Holder[] = [],
): ProtectionPlan {
  const plan: ProtectionPlan = { back: [], conflicts: [], handOvers: [] };
  for (const row of undo.rows) {
    const now = readProtectionField(current, row.field) ?? null;
    const holder = protectionHolder(row.field, now, holders);
    if (holder !== undefined) {
      plan.conflicts.push({ item: row.field, now, heldBy: holder.id });
      // Handed over only to a holder that replaced this change's value (applied after it): one
      // applied before it goes back to what it replaced itself, which this one's `before` is not.
      if (replacedAfter(holder, row.field, row.after)) {
        plan.handOvers.push({ holderId: holder.id, field: row.field, before: row.before });
      }
    } else if (same(row.field, now, row.after) && row.before !== null) {
      plan.back.push({ field: row.field, from: now, to: row.before });
    } else if (!same(row.field, now, row.before)) {
      // Already back at its old value is neither a conflict nor anything to send.
      plan.conflicts.push({ item: row.field, now, heldBy: null });
    }
  }
  return plan;
}

/** The holder's undo with the handed-over values to go back to (addresses: to leave alone). */
export function handedOver(undo: Undo, handOvers: readonly HandOver[]): Undo {
  if (undo.kind === 'whitelist') {
    const given = new Set(handOvers.map((h) => ipKey(h.field)));
    const kept = (ips: readonly string[]) => ips.filter((ip) => !given.has(ipKey(ip)));
    return { ...undo, added: kept(undo.added), removed: kept(undo.removed) };
  }
  if (undo.kind !== 'protection') return undo;
  return {
    ...undo,
    rows: undo.rows.map((row) => {
      const given = handOvers.find((h) => h.field === row.field);
      return given === undefined ? row : { ...row, before: given.before };
    }),
  };
}

export interface WhitelistPlan {
  /** The whole list to send, or null when nothing goes back. */
  next: string[] | null;
  add: string[];
  remove: string[];
  conflicts: PutBackConflict[];
  handOvers: HandOver[];
}

function whitelistHolder(ip: string, side: 'added' | 'removed', holders: readonly Holder[]) {
  return holders.find((h) => h.undo.kind === 'whitelist' && h.undo[side].some((a) => ipKey(a) === ipKey(ip)));
}

/**
 * Removes the addresses vidops added that are still listed, and adds back those it removed that
 * are still absent; an address others removed or added back since stays as they left it.
 */
export function planWhitelist(
  undo: WhitelistUndo,
  current: readonly string[],
  holders: readonly Holder[] = [],
): WhitelistPlan {
  const listed = new Set(current.map(ipKey));
  const plan: WhitelistPlan = { next: null, add: [], remove: [], conflicts: [], handOvers: [] };
  const consider = (ip: string, side: 'added' | 'removed') => {
    const present = listed.has(ipKey(ip));
    const asLeft = side === 'added' ? present : !present;
    // As left: a later change that did the same holds it. Not as left: a later change that did the
    // opposite holds it, and at its end leaves it as it was before this one.
    const holder = whitelistHolder(ip, asLeft ? side : side === 'added' ? 'removed' : 'added', holders);
    const now = present ? ip : null;
    if (holder !== undefined) {
      plan.conflicts.push({ item: ip, now, heldBy: holder.id });
      if (!asLeft) plan.handOvers.push({ holderId: holder.id, field: ip, before: null });
    } else if (!asLeft) plan.conflicts.push({ item: ip, now, heldBy: null });
    else (side === 'added' ? plan.remove : plan.add).push(ip);
  };
  for (const ip of undo.added) consider(ip, 'added');
  for (const ip of undo.removed) consider(ip, 'removed');
  if (plan.add.length > 0 || plan.remove.length > 0) {
    plan.next = applyIpChange(current, { add: plan.add, remove: plan.remove }).next;
  }
  return plan;
}
