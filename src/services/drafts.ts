import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { JsonValue } from '../core/json.js';
import { type Said, say } from '../core/said.js';
import { holds, macOf } from '../core/seal.js';
import { english } from '../i18n/said.js';
import type { ModalDraft, Store } from '../store/store.js';
import type { ServiceLogger } from './types.js';

/**
 * Drafts of the change modals: what a modal was opened for (the prepared delete and what must be
 * typed to confirm it, the folder, file or playlist edited, the protection values shown, whether
 * the whitelist form adds or removes) and who opened it, kept in the store under a random ID.
 * The modal carries only that ID. A submission takes the draft back, once, and is read against
 * it: a forged, foreign, reused or expired ID changes nothing.
 * @see docs/architecture.md, "Approvals" (typed confirmation)
 */

/** How long a change modal can stay open before its submission is refused ("open it again"). */
export const DRAFT_TTL_MS = 60 * 60_000;

export type TakenDraft<T> =
  | {
      ok: true;
      value: T;
      /** Puts the draft back, for a submission refused with the form still open (a field error). */
      giveBack(): Promise<void>;
    }
  /** `problem`: the English words; `said`: the sentence, for the reader's language. */
  | { ok: false; problem: string; said: Said };

export interface Drafts {
  /** Keeps what `userId`'s modal `kind` (its callback_id) is opened for; returns the ID for the modal. */
  open(userId: string, kind: string, payload: JsonValue): Promise<string>;
  /**
   * Takes back the draft of a submitted modal (`draftId` as the modal carried it, null when it
   * carried none): it must exist and be unexpired, have been opened by `userId`, for a modal of
   * `kind`. A draft refused for another person or another modal is put back, so the one who
   * opened it can still submit.
   */
  take<T>(
    submitted: { draftId: string | null; userId: string; kind: string },
    schema: z.ZodType<T>,
  ): Promise<TakenDraft<T>>;
}

/** 32 random bytes: the ID in the modal, never stored as such. */
function newDraftId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The store's key for a draft ID: its SHA-256, so a copy of the table does not hand out IDs
 * that could be sent back in a forged submission.
 */
function keyOf(draftId: string): string {
  return createHash('sha256').update(draftId).digest('hex');
}

/** A draft's payload as stored: the payload and its seal. */
interface SealedPayload {
  sealed: string;
  payload: JsonValue;
}

/**
 * The seal of what a draft holds, keyed by its ID, which only the modal carries: someone who
 * can write to the database cannot change what a form submits (the folder a delete names, the
 * number an unblock sends) without it failing.
 */
function sealOf(
  draftId: string,
  draft: { userId: string; kind: string; expiresAt: string },
  payload: JsonValue,
) {
  const { userId, kind } = draft;
  return macOf(draftId, { userId, kind, expires: Date.parse(draft.expiresAt), payload });
}

/** The payload of a stored draft when its seal holds; undefined otherwise. */
function unsealed(draftId: string, draft: ModalDraft): JsonValue | undefined {
  const stored = draft.payload as Partial<SealedPayload> | null;
  const payload = stored?.payload ?? null;
  return holds(stored?.sealed, sealOf(draftId, draft, payload)) ? payload : undefined;
}

export function createDrafts(deps: { store: Store; clock: () => Date; logger: ServiceLogger }): Drafts {
  const { store, clock, logger } = deps;
  return {
    async open(userId, kind, payload) {
      const id = newDraftId();
      const now = clock();
      const expiresAt = new Date(now.getTime() + DRAFT_TTL_MS).toISOString();
      const stored: SealedPayload = { sealed: sealOf(id, { userId, kind, expiresAt }, payload), payload };
      await store.putDraft({
        key: keyOf(id),
        userId,
        kind,
        payload: stored as unknown as JsonValue,
        createdAt: now.toISOString(),
        expiresAt,
      });
      return id;
    },

    async take<T>(
      submitted: { draftId: string | null; userId: string; kind: string },
      schema: z.ZodType<T>,
    ): Promise<TakenDraft<T>> {
      const refuse = (reason: string, said: Said = say.svcFormGone()): TakenDraft<T> => {
        logger.warn({ user: submitted.userId, kind: submitted.kind, reason }, 'refused a modal submission');
        return { ok: false, problem: english(said), said };
      };
      if (submitted.draftId === null) return refuse('no draft ID in the form');
      const draft = await store.takeDraft(keyOf(submitted.draftId), clock().toISOString());
      if (draft === null) return refuse('unknown, used or expired draft');
      const giveBack = (): Promise<void> => store.putDraft(draft satisfies ModalDraft);
      if (draft.userId !== submitted.userId) {
        await giveBack();
        return refuse('submitted by someone other than who opened it', say.svcFormOfOther());
      }
      if (draft.kind !== submitted.kind) {
        await giveBack();
        return refuse('draft of another kind of form');
      }
      const payload = unsealed(submitted.draftId, draft);
      if (payload === undefined) return refuse('draft changed in the database (its seal does not hold)');
      const parsed = schema.safeParse(payload);
      if (!parsed.success) return refuse('draft in a shape this build does not read');
      return { ok: true, value: parsed.data, giveBack };
    },
  };
}
