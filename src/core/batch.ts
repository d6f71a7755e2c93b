import type { RecordedError } from './model.js';
import type { ListedNumber, NumberList, RefusedEntry } from './validate/phone-list.js';
import { type RepeatNeed, type RepeatRule, repeatNeed, type ViewerUnblock } from './viewer-history.js';

/**
 * A batch of unblocks (`viewer.unblock-many`): one request, and each number its own step. A step
 * is recorded `sending` before its number is sent and moved, compare-and-set, to how the send
 * ended; a step found `sending` by a run that did not send it (its process stopped, its answer
 * was lost) becomes `unknown` and is never sent again. Pure: no I/O.
 * @see docs/approvals.md, "Many numbers at once"
 */

export const STEP_STATES = ['sending', 'done', 'failed', 'unknown'] as const;
export type StepState = (typeof STEP_STATES)[number];
/** How a step ends. */
export type StepEnd = Exclude<StepState, 'sending'>;

/** One number of a batch: its place in the list, the number as sent, and how far it went. */
export interface BatchStep {
  requestId: string;
  index: number;
  mobileNumber: string;
  state: StepState;
  error: RecordedError | null;
  updatedAt: string;
}

/** How many steps are in each state, and how many numbers the batch has. */
export interface BatchCounts {
  total: number;
  done: number;
  failed: number;
  unknown: number;
  sending: number;
}

export function countSteps(total: number, steps: readonly Pick<BatchStep, 'state'>[]): BatchCounts {
  const counts: BatchCounts = { total, done: 0, failed: 0, unknown: 0, sending: 0 };
  for (const step of steps) counts[step.state] += 1;
  return counts;
}

/** The numbers of a batch whose step ended `failed`, in list order: what "Retry the failed" asks for again. */
export function failedNumbers(steps: readonly BatchStep[]): string[] {
  return [...steps]
    .filter((s) => s.state === 'failed')
    .sort((a, b) => a.index - b.index)
    .map((s) => s.mobileNumber);
}

/** Why a whole batch waits for one lead's approval: its size, or repeat viewers inside it. */
export type BatchLead = { kind: 'size'; size: number; max: number } | { kind: 'repeats'; count: number };

/**
 * Whether a batch of `size` numbers, `repeats` of them repeat viewers, waits for a lead: over
 * `maxWithoutApproval`, or any repeat viewer inside it. Null: the size and the repeats ask nothing.
 */
export function batchLead(
  maxWithoutApproval: number,
  batch: { size: number; repeats: number },
): BatchLead | null {
  if (batch.size > maxWithoutApproval) return { kind: 'size', size: batch.size, max: maxWithoutApproval };
  return batch.repeats > 0 ? { kind: 'repeats', count: batch.repeats } : null;
}

/** A number of a pasted list, and why the repeat rule holds it for a lead (null: it does not). */
export interface PreviewedNumber extends ListedNumber {
  repeat: RepeatNeed | null;
}

/**
 * What a person confirms before a batch is asked for: each number once (duplicates merged,
 * repeat viewers marked), each line refused with its reason, and whether the batch waits for a
 * lead. Built by {@link previewBatch}; the Slack edge and the CLI render the same one.
 */
export interface BatchPreview {
  numbers: PreviewedNumber[];
  refused: RefusedEntry[];
  duplicates: number;
  /** How many of `numbers` are repeat viewers. */
  repeats: number;
  lead: BatchLead | null;
}

/**
 * The preview of a pasted list read by `parseNumberList`: `earlier(viewer)` is what the viewer
 * history holds of that number in the repeat rule's window (newest first), the same count a
 * single unblock is judged by. Pure.
 * @see docs/approvals.md, "Many numbers at once"
 */
export function previewBatch(
  list: NumberList,
  rule: RepeatRule | null,
  maxWithoutApproval: number,
  earlier: (viewer: string) => readonly Pick<ViewerUnblock, 'outcome'>[],
): BatchPreview {
  const numbers = list.numbers.map((n) => ({ ...n, repeat: repeatNeed(rule, n.param, earlier(n.param)) }));
  const repeats = numbers.filter((n) => n.repeat !== null).length;
  const lead = numbers.length === 0 ? null : batchLead(maxWithoutApproval, { size: numbers.length, repeats });
  return { numbers, refused: list.refused, duplicates: list.duplicates, repeats, lead };
}
