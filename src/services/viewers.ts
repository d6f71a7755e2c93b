import { type BatchPreview, previewBatch } from '../core/batch.js';
import { bulkMaxOf, type Policy } from '../core/policy.js';
import type { NumberList } from '../core/validate/phone-list.js';
import {
  countsAsUnblock,
  type RepeatNeed,
  repeatNeed,
  repeatSince,
  type ViewerUnblock,
} from '../core/viewer-history.js';
import { REPEAT_READ_LIMIT, type Store } from '../store/store.js';

/** The window a history counts in when the policy sets no repeat rule: 30 days. */
export const HISTORY_WINDOW = { within: '30d', withinMs: 30 * 86_400_000 } as const;

/** At most this many unblocks are listed in a history, newest first. */
export const HISTORY_SHOWN = 20;

/**
 * What `/vidops viewer <number>` and the History button show: the viewer's newest unblocks, how
 * many of them count in the window, when the log begins (older unblocks are not known), and
 * what the repeat rule would say of the next unblock.
 * @see docs/commands.md, "A viewer's history"
 */
export interface ViewerHistory {
  viewer: string;
  unblocks: ViewerUnblock[];
  /** Unblocks asked in the window that count (not refused, withdrawn or failed). */
  inWindow: number;
  window: { within: string; withinMs: number };
  /** When the audit log's first event was written; null for an empty log. */
  logSince: string | null;
  /** Whether the log began after the window's start: what came before is not known. */
  logYounger: boolean;
  /** What the repeat rule would say of one more unblock now; null when it is off or within it. */
  next: RepeatNeed | null;
}

/** A viewer's history, by the number as the unblock normalises it (`params.mobileNumber`). */
export async function viewerHistory(
  deps: { store: Store; policy: Policy; clock: () => Date },
  viewer: string,
): Promise<ViewerHistory> {
  const now = deps.clock();
  const rule = deps.policy.rules['viewer.unblock'].repeat;
  const window = rule ?? HISTORY_WINDOW;
  const since = repeatSince({ ...window, max: 0 }, now);
  const [unblocks, windowed, first] = await Promise.all([
    deps.store.viewerUnblocks({ viewer, limit: HISTORY_SHOWN }),
    deps.store.viewerUnblocks({ viewer, limit: REPEAT_READ_LIMIT, since }),
    deps.store.listAudit({ limit: 1 }),
  ]);
  const logSince = first[0]?.at ?? null;
  return {
    viewer,
    unblocks,
    inWindow: windowed.filter(countsAsUnblock).length,
    window: { within: window.within, withinMs: window.withinMs },
    logSince,
    logYounger: logSince === null || logSince > since,
    next: repeatNeed(rule, viewer, windowed),
  };
}

type HistoryDeps = { store: Store; policy: Policy; clock: () => Date };

/** Each viewer's unblocks in the repeat rule's window (none when it is off), read through the index. */
async function windowsOf(
  deps: HistoryDeps,
  viewers: readonly string[],
): Promise<Map<string, ViewerUnblock[]>> {
  const rule = deps.policy.rules['viewer.unblock'].repeat;
  if (rule === null) return new Map();
  const since = repeatSince(rule, deps.clock());
  const read = (viewer: string) => deps.store.viewerUnblocks({ viewer, limit: REPEAT_READ_LIMIT, since });
  return new Map(await Promise.all(viewers.map(async (v) => [v, await read(v)] as const)));
}

/**
 * The numbers the repeat rule holds for a lead (`viewer.unblock`'s `repeat`, as for a single
 * unblock), in the order given. Read without locks: what is shown before asking; the request
 * is decided on a count taken under the viewers' locks.
 */
export async function repeatViewers(deps: HistoryDeps, viewers: readonly string[]): Promise<string[]> {
  const rule = deps.policy.rules['viewer.unblock'].repeat;
  const earlier = await windowsOf(deps, viewers);
  return viewers.filter((v) => repeatNeed(rule, v, earlier.get(v) ?? []) !== null);
}

/**
 * What a person confirms before a batch is asked for: a pasted list (read by the edge with
 * `parseNumberList`) with its repeat viewers marked and whether the batch waits for a lead.
 * @see docs/approvals.md, "Many numbers at once"
 */
export async function batchPreview(deps: HistoryDeps, list: NumberList): Promise<BatchPreview> {
  const earlier = await windowsOf(
    deps,
    list.numbers.map((n) => n.param),
  );
  const rule = deps.policy.rules['viewer.unblock'].repeat;
  return previewBatch(list, rule, bulkMaxOf(deps.policy), (v) => earlier.get(v) ?? []);
}
