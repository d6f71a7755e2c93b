import type { ProtectionConfig } from './protection.js';
import type { PutBackConflict, Undo } from './time-box.js';
import { applyIpChange, ipKey } from './validate/ip.js';
import { type ProtectionValue, readProtectionField, sameProtectionValue } from './validate/protection.js';

/**
 * Planning the undo of a done change from what it replaced, what it set, and what the service
 * shows now: only what is still as vidops left it goes back; what others changed since is left
 * alone and reported. One time-boxed change at a time holds a setting or an address, so nothing
 * is handed between windows. Pure: the reads happen before, the request after.
 * @see docs/time-boxed.md, "What goes back"
 */

export interface ProtectionPlan {
  /** The settings to send (dotted name → value); empty when nothing goes back. */
  back: { field: string; from: ProtectionValue | null; to: ProtectionValue }[];
  conflicts: PutBackConflict[];
}

type ProtectionUndo = Extract<Undo, { kind: 'protection' }>;
type WhitelistUndo = Extract<Undo, { kind: 'whitelist' }>;

function same(field: string, a: ProtectionValue | null, b: ProtectionValue | null): boolean {
  if (a === null || b === null) return a === b;
  return sameProtectionValue(field, a, b);
}

/** Puts back each setting still at the value vidops set; leaves the others, saying what they are now. */
export function planProtection(undo: ProtectionUndo, current: ProtectionConfig): ProtectionPlan {
  const plan: ProtectionPlan = { back: [], conflicts: [] };
  for (const row of undo.rows) {
    const now = readProtectionField(current, row.field) ?? null;
    if (same(row.field, now, row.after) && row.before !== null) {
      plan.back.push({ field: row.field, from: now, to: row.before });
    } else if (!same(row.field, now, row.before)) {
      // Already back at its old value is neither a conflict nor anything to send.
      plan.conflicts.push({ item: row.field, now, heldBy: null });
    }
  }
  return plan;
}

export interface WhitelistPlan {
  /** The whole list to send, or null when nothing goes back. */
  next: string[] | null;
  add: string[];
  remove: string[];
  conflicts: PutBackConflict[];
}

/**
 * Removes the addresses vidops added that are still listed, and adds back those it removed that
 * are still absent; an address others removed or added back since stays as they left it.
 */
export function planWhitelist(undo: WhitelistUndo, current: readonly string[]): WhitelistPlan {
  const listed = new Set(current.map(ipKey));
  const plan: WhitelistPlan = { next: null, add: [], remove: [], conflicts: [] };
  const consider = (ip: string, side: 'added' | 'removed') => {
    const present = listed.has(ipKey(ip));
    const asLeft = side === 'added' ? present : !present;
    if (asLeft) (side === 'added' ? plan.remove : plan.add).push(ip);
    else plan.conflicts.push({ item: ip, now: present ? ip : null, heldBy: null });
  };
  for (const ip of undo.added) consider(ip, 'added');
  for (const ip of undo.removed) consider(ip, 'removed');
  if (plan.add.length > 0 || plan.remove.length > 0) {
    plan.next = applyIpChange(current, { add: plan.add, remove: plan.remove }).next;
  }
  return plan;
}

/** What a change or its preview says it touches: protection rows, or whitelist addresses. */
export interface Touches {
  kind: string;
  rows?: readonly { field: string }[];
  added?: readonly string[];
  removed?: readonly string[];
}

/**
 * The settings or addresses a change holds while its window is in force: each protection field
 * it sets, each address it adds or removes, keyed by operation (addresses in their canonical form).
 */
export function heldItems(operation: string, change: Touches | null | undefined): string[] {
  const fields = [
    ...(change?.rows ?? []).map((row) => row.field),
    ...[...(change?.added ?? []), ...(change?.removed ?? [])].map(ipKey),
  ];
  return [...new Set(fields)].map((field) => `${operation}:${field}`);
}
