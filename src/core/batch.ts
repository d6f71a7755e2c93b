import type { RecordedError } from './model.js';

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
