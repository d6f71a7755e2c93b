import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { normalizeRequestId } from '../../core/ids.js';
import type { OperationRequest } from '../../core/model.js';
import { ENGLISH, type Lang } from '../../i18n/index.js';
import type { Prepared, SubmitResult } from '../../services/types.js';
import { type SubmitOutcome, submittedSections } from '../../views/approval.js';
import { describeRecordedError } from '../../views/errors.js';
import { loadingModal, problemLine, statusModal } from '../../views/modals/common.js';
import { type AppContext, checkBlockKit, errorViewOptions, problemText } from '../context.js';
import { breakGlassHint } from './break-glass.js';

/**
 * What the change handlers share: opening a modal at once and filling it later, turning errors
 * and submit results into what people read, and reading request IDs from button values.
 * @see docs/slack.md, "Deadlines"
 */

/** A submit result as the views show it. */
export function outcomeOf(ctx: AppContext, result: SubmitResult, lang: Lang = ENGLISH): SubmitOutcome {
  if (result.kind !== 'executed') return result;
  const error = result.request.error;
  return {
    kind: 'executed',
    request: result.request,
    errorText: error === null ? null : describeRecordedError(error, { ...errorViewOptions(ctx), lang }),
  };
}

/** Why a request failed, as people read it; the service's refusal when no error was recorded. */
export function failureText(ctx: AppContext, request: OperationRequest, lang: Lang): string {
  return request.error
    ? describeRecordedError(request.error, { ...errorViewOptions(ctx), lang })
    : lang.t.approvals.apprSubmitServiceRefused;
}

/** The sections that answer a submitted change. */
export function resultSections(
  ctx: AppContext,
  result: SubmitResult,
  prepared: Prepared,
  lang: Lang,
): string[] {
  return [
    ...submittedSections(
      outcomeOf(ctx, result, lang),
      { approvalChannel: ctx.config.approvalChannel, warnings: prepared.warnings },
      lang,
    ),
    ...breakGlassHint(result, lang),
  ];
}

/**
 * Opens a loading modal with the trigger (valid 3 s, so before anything slow) and returns its
 * view ID for {@link showView}; null when there is no trigger or Slack refused it. `lang` is the
 * reader's (English where a caller does not pass it yet).
 */
export async function openLoading(
  ctx: AppContext,
  client: WebClient,
  triggerId: string | undefined,
  title: string,
  lang: Lang = ENGLISH,
): Promise<string | null> {
  if (!triggerId) return null;
  const view = loadingModal(title, lang);
  checkBlockKit(ctx, { view }, 'modal');
  const opened = await client.views.open({ trigger_id: triggerId, view });
  return opened.view?.id ?? null;
}

/** Replaces what an open modal shows. */
export async function showView(
  ctx: AppContext,
  client: WebClient,
  viewId: string,
  view: ModalView,
): Promise<void> {
  checkBlockKit(ctx, { view }, 'modal');
  await client.views.update({ view_id: viewId, view });
}

/**
 * Shows a status (result or problem) in an open modal; failures are logged, not thrown. `lang`
 * is the reader's (English where a caller does not pass it yet).
 */
export async function showStatus(
  ctx: AppContext,
  client: WebClient,
  viewId: string,
  title: string,
  lines: readonly string[],
  lang: Lang = ENGLISH,
): Promise<void> {
  try {
    await showView(ctx, client, viewId, statusModal(title, lines, lang));
  } catch (error) {
    ctx.logger.error({ err: error, viewId }, 'could not show a result in a modal');
  }
}

/** Shows in the modal the lines `work` returns, or what went wrong when it throws. */
export async function showResult(
  ctx: AppContext,
  args: { client: WebClient; view: { id: string } },
  title: string,
  lang: Lang,
  work: () => Promise<string[]>,
): Promise<void> {
  let lines: string[];
  try {
    lines = await work();
  } catch (error) {
    lines = [problemLine(problemText(ctx, error, title))];
  }
  await showStatus(ctx, args.client, args.view.id, title, lines, lang);
}

/** A request ID as buttons carry it (the value is only the ID; anything else is refused). */
export const RequestIdSchema = z.string().transform((raw, issue) => {
  const id = normalizeRequestId(raw);
  if (id === null) {
    issue.addIssue({ code: 'custom', message: 'not a request ID' });
    return z.NEVER;
  }
  return id;
});

/** Reads a button value as a request ID; null when it is not one. */
export function requestIdOf(value: unknown): string | null {
  const parsed = RequestIdSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
