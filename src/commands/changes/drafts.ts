import type { z } from 'zod';
import type { JsonValue } from '../../core/json.js';
import type { TakenDraft } from '../../services/drafts.js';
import { draftIdOf } from '../../views/modals/common.js';
import type { AppContext } from '../context.js';

/**
 * The change modals' drafts as the handlers use them: the modal carries the draft's ID in its
 * `private_metadata`; the rules (random IDs, hashed keys, who and which form may take one back,
 * expiry) are the drafts service's (src/services/drafts.ts).
 * @see docs/architecture.md, "Approvals" (typed confirmation)
 */

/** Keeps what `userId`'s modal `kind` (its callback_id) is opened for; returns the ID for the modal. */
export function openDraft(
  ctx: AppContext,
  userId: string,
  kind: string,
  payload: JsonValue,
): Promise<string> {
  return ctx.drafts.open(userId, kind, payload);
}

/** Takes back the draft named by a submitted modal's `private_metadata` (see `Drafts.take`). */
export function takeDraft<T>(
  ctx: AppContext,
  submitted: { privateMetadata: string; userId: string; kind: string },
  schema: z.ZodType<T>,
): Promise<TakenDraft<T>> {
  const { privateMetadata, ...who } = submitted;
  return ctx.drafts.take({ draftId: draftIdOf(privateMetadata), ...who }, schema);
}
