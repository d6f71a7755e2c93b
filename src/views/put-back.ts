import type { Button } from '@slack/types';
import { OPERATION_SPECS } from '../core/catalog.js';
import type { OperationRequest } from '../core/model.js';
import { awaitsPutBack, type PutBackState, type TimeBox } from '../core/time-box.js';
import type { Lang } from '../i18n/index.js';
import { boldId, button, plain, plainText } from './blocks.js';
import { shownError } from './errors.js';
import { ACTIONS, BLOCKS } from './ids.js';
import { BLOCK_KIT_LIMITS, truncate } from './limits.js';
import { goesBackText, notRevertibleText, putBackText } from './time-box.js';

/**
 * A change that undoes itself on the request views (issue 23): its window and put-back as a
 * line of the approval message, the requester's answer and notice, `/vidops requests` and the
 * App Home (the words are src/views/time-box.ts'); its buttons (Put back now, Extend…) while it
 * is in force; Revert… on a done reversible change, and why a change has none. Pure: the clock
 * reading comes in as `now`.
 * @see docs/time-boxed.md
 */

/** A request with a time box whose end is set: the change applied. */
export type BoxedRequest = OperationRequest & { timeBox: TimeBox & { endsAt: string } };

/**
 * Whether the change is in force and waits to be put back: applied, its end set, and neither
 * being put back now nor put back already. Only then are Put back now and Extend… offered.
 */
export function boxInForce(request: OperationRequest): request is BoxedRequest {
  const box = request.timeBox;
  return (
    request.state === 'succeeded' && box !== undefined && box.endsAt !== null && awaitsPutBack(box.state)
  );
}

const ICONS: Readonly<Record<PutBackState, string>> = {
  waiting: ':hourglass:',
  running: ':arrows_counterclockwise:',
  retrying: ':warning:',
  done: ':leftwards_arrow_with_hook:',
  left: ':information_source:',
  cancelled: '',
};

/**
 * Where the put-back of a change stands, as the lines of a section: none for a change that was
 * not time-boxed or never applied; else its window before it applies, then when it goes back, or
 * that it is being put back (by which request), failing and retrying (with the last error), put
 * back, or left, with what was left alone.
 */
export function timeBoxLines(request: OperationRequest, now: Date, lang: Lang): string[] {
  const box = request.timeBox;
  if (box === undefined) return [];
  // Not applied, and never will be: nothing goes back.
  if (box.endsAt === null && !['pending', 'approved', 'executing'].includes(request.state)) return [];
  const text = putBackText(lang, request, now);
  if (text === null) return [];
  const t = lang.t.approvals;
  const by = box.requestId !== null && box.state !== 'waiting' ? boldId(lang, box.requestId) : '';
  const error =
    box.state === 'retrying' && box.lastError !== null ? shownError(lang, box.lastError, 300) : '';
  return [t.apprBoxLine(ICONS[box.state], text, by, error)];
}

/**
 * The requester's answer right after a time-boxed change applied: when it goes back, and how
 * long that is from now (`goes back at 16:05, in 2 hours`); null for anything else.
 */
export function inForceUntilLine(request: OperationRequest, now: Date, lang: Lang): string | null {
  if (!boxInForce(request) || request.timeBox.state !== 'waiting') return null;
  return lang.t.approvals.apprBoxLine(ICONS.waiting, goesBackText(lang, request.timeBox.endsAt, now), '', '');
}

/**
 * An applied Extend holds nothing of its own (its box is closed): the window it lengthened goes
 * back at the end the Extend set, which its result names. Null for anything else.
 */
export function extendedUntilLine(request: OperationRequest, now: Date, lang: Lang): string | null {
  const result = request.result;
  if (request.timeBox?.extends === undefined || request.state !== 'succeeded') return null;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  const endsAt = result.endsAt;
  if (typeof endsAt !== 'string') return null;
  return lang.t.approvals.apprBoxLine(ICONS.waiting, goesBackText(lang, endsAt, now), '', '');
}

/** On a request made to undo another: whose change it puts back, or reverts; null otherwise. */
export function revertOfLine(request: OperationRequest, lang: Lang): string | null {
  const of = request.revertOf;
  if (of === undefined) return null;
  const t = lang.t.approvals;
  return of.kind === 'put-back' ? t.apprPutsBack(boldId(lang, of.id)) : t.apprReverts(boldId(lang, of.id));
}

/**
 * Put back now (with a confirmation) while the change is in force, and Extend… while it waits for
 * its end (not while a failed put-back is retried); values carry only the ID.
 */
export function timeBoxButtons(request: OperationRequest, lang: Lang, what: string): Button[] {
  if (!boxInForce(request)) return [];
  const t = lang.t.approvals;
  const extend =
    request.timeBox.state === 'waiting' ? [button(t.apprExtend, ACTIONS.extend, request.id)] : [];
  return [
    {
      ...button(t.apprPutBackNow, ACTIONS.putBackNow, request.id),
      confirm: {
        title: plainText(truncate(t.apprPutBackNowTitle(request.id), BLOCK_KIT_LIMITS.confirmTitle)),
        text: plainText(truncate(t.apprPutBackNowText(what), BLOCK_KIT_LIMITS.confirmText)),
        confirm: plainText(t.apprPutBackNow),
        deny: plainText(t.apprNotNow),
      },
    },
    ...extend,
  ];
}

/** The block ID of a change's undo buttons (Put back now, Extend…, Revert…); unique where a view lists several. */
export function timeBoxActionsBlock(requestId: string): string {
  return `${BLOCKS.timeBoxActions}:${requestId}`;
}

/** The block ID of a done change's Revert… on the App Home. */
export function revertActionsBlock(requestId: string): string {
  return `${BLOCKS.revertActions}:${requestId}`;
}

/**
 * Whether a done change offers Revert…: its operation has an inverse, it applied, it is no
 * put-back of vidops' own, and it is not time-boxed (that one offers Put back now instead).
 */
export function revertible(request: OperationRequest): boolean {
  return (
    request.state === 'succeeded' &&
    OPERATION_SPECS[request.operation].undo !== 'none' &&
    request.revertOf?.kind !== 'put-back' &&
    request.timeBox === undefined
  );
}

/** Revert… on a done reversible change, else none. */
export function revertButtons(request: OperationRequest, lang: Lang): Button[] {
  return revertible(request) ? [button(lang.t.approvals.apprRevert, ACTIONS.revert, request.id)] : [];
}

/**
 * Where a done change that has no inverse is shown with its actions: why it cannot be reverted
 * (a delete, a create, an unblock, a conversion retry); null for any other request.
 */
export function cannotRevertLine(request: OperationRequest, lang: Lang): string | null {
  return request.state === 'succeeded' ? notRevertibleText(lang, request.operation) : null;
}

/** A short `what` for confirmations: `Change protection settings: protection.` */
export function confirmWhat(request: OperationRequest, title: string): string {
  return `${title}: ${plain(request.target, 120)}.`;
}
