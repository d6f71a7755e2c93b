import type { z } from 'zod';
import type { ChangeOperation } from '../../core/catalog.js';
import { InputError } from '../../core/errors.js';
import type { Actor } from '../../core/model.js';
import type { BoxAsked } from '../../core/time-box.js';
import type { Lang } from '../../i18n/index.js';
import { settledWithin } from '../../jobs/timeout.js';
import { spec as protectSet } from '../../operations/protect-set/spec.js';
import { spec as whitelistSet } from '../../operations/whitelist-set/spec.js';
import type { Prepared, PrepareInput } from '../../services/types.js';
import type { SlackRoutes } from '../../slack/routes.js';
import { stateWord } from '../../views/approval.js';
import { boldId } from '../../views/blocks.js';
import { describeError, sayIn, wordsOf } from '../../views/errors.js';
import { BLOCKS, CALLBACKS } from '../../views/ids.js';
import { truncate } from '../../views/limits.js';
import { type FieldErrors, problemLine, readViewState, type ViewState } from '../../views/modals/common.js';
import { changedSinceForm, DeleteDraftSchema, parseDeleteSubmission } from '../../views/modals/delete.js';
import {
  ProtectDraftSchema,
  type ProtectSubmission,
  parseProtectSubmission,
} from '../../views/modals/protect.js';
import { parseRejectSubmission } from '../../views/modals/reject.js';
import {
  CREATE_FORMS,
  type CreateDraft,
  CreateDraftSchema,
  type CreateOperation,
  FileDraftSchema,
  FolderDraftSchema,
  PlaylistDraftSchema,
  parseFileEditSubmission,
  parseFolderSubmission,
  parsePlaylistSubmission,
} from '../../views/modals/resources.js';
import { parseRevertSubmission, type RevertDraft, RevertDraftSchema } from '../../views/modals/time-box.js';
import { parseWhitelistSubmission, WhitelistDraftSchema } from '../../views/modals/whitelist.js';
import { type AppContext, errorViewOptions, problemText } from '../context.js';
import { ackStatus as ackView, onSubmit, type SubmissionArgs, submitter } from './clicks.js';
import { takeDraft } from './drafts.js';
import { resultSections, showResult } from './shared.js';
import { windowOf } from './time-box.js';

/**
 * Submissions of the change modals. Problems the form can show are answered in the
 * acknowledgement (`response_action: errors` on the field); otherwise the modal turns into a
 * progress view at once and, when the request is posted, into its result ("request R-… posted").
 * What a change modal was opened for is read from its draft on the server (./drafts.ts), never
 * from the form: the form only names the draft.
 * @see docs/slack.md, "Deadlines"
 */

/**
 * How long a submission waits for the services' check (which reads the upstream) before it
 * acknowledges; within it, a refusal goes back to the form as a field error.
 */
export const PREPARE_BUDGET_MS = 1500;

/** What a form asks, read; `timeBox`: its "Put back after", when it has one (null: never). */
type Parsed<T> =
  | { ok: true; value: T; reason: string; timeBox?: BoxAsked | null }
  | { ok: false; errors: FieldErrors };

/**
 * One kind of change modal: its callback_id, the shape of its draft, how to read the form against
 * the draft, how to prepare it, where a refusal is shown.
 */
interface ChangeFlow<D, T> {
  title(lang: Lang): string;
  callbackId: string;
  draft: z.ZodType<D>;
  parse(state: ViewState, draft: D, lang: Lang, ctx: AppContext): Parsed<T>;
  prepare(ctx: AppContext, actor: Actor, value: T): Promise<Prepared>;
  /** The block under which the services' refusal (InputError) is shown. */
  errorBlock: string;
}

/** Reads the form; a form that lost its context is answered in place. */
async function parseOrAnswer<T>(
  ctx: AppContext,
  args: SubmissionArgs,
  title: string,
  lang: Lang,
  parse: (state: ViewState, meta: string) => Parsed<T>,
): Promise<{ value: T; reason: string; timeBox?: BoxAsked | null } | null> {
  let parsed: Parsed<T>;
  try {
    parsed = parse(readViewState(args.view.state.values, lang), args.view.private_metadata);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    await ackView(ctx, args.ack, title, [problemLine(wordsOf(error, lang))], lang);
    return null;
  }
  if (!parsed.ok) {
    await args.ack({ response_action: 'errors', errors: parsed.errors });
    return null;
  }
  return { value: parsed.value, reason: parsed.reason, timeBox: parsed.timeBox ?? null };
}

/**
 * The whole life of a change modal's submission: the draft taken back (refused in place when it
 * is not this person's, not this form's, used or expired), the form read against it, prepared,
 * submitted. A refusal that leaves the form open (a field error) gives the draft back.
 */
async function runChange<D, T>(ctx: AppContext, flow: ChangeFlow<D, T>, args: SubmissionArgs): Promise<void> {
  const person = submitter(ctx, args);
  const lang = await person.lang();
  const title = flow.title(lang);
  const draft = await takeDraft(
    ctx,
    { privateMetadata: args.view.private_metadata, userId: args.body.user.id, kind: flow.callbackId },
    flow.draft,
  );
  if (!draft.ok) {
    await ackView(ctx, args.ack, title, [`:x: ${sayIn(lang, draft.said)}`], lang);
    return;
  }
  const parsed = await parseOrAnswer(ctx, args, title, lang, (state) =>
    flow.parse(state, draft.value, lang, ctx),
  );
  if (parsed === null) {
    await draft.giveBack();
    return;
  }
  const who = person.who();
  const preparing = who.then(({ actor }) => flow.prepare(ctx, actor, parsed.value));
  const early = await settledWithin(preparing, PREPARE_BUDGET_MS);
  if (early.kind === 'error') {
    if (early.error instanceof InputError) {
      const text = describeError(early.error, errorViewOptions(ctx)).text;
      await draft.giveBack();
      await args.ack({ response_action: 'errors', errors: { [flow.errorBlock]: truncate(text, 1900) } });
      return;
    }
    await ackView(ctx, args.ack, title, [problemLine(problemText(ctx, early.error, title))], lang);
    return;
  }
  await ackView(ctx, args.ack, title, [`:hourglass_flowing_sand: ${lang.t.changes.changesPosting}`], lang);
  await showResult(ctx, args, title, lang, async () => {
    const prepared = early.kind === 'ok' ? early.value : await preparing;
    const { actor } = await who;
    const result = await ctx.ops.submit(actor, prepared, { reason: parsed.reason, timeBox: parsed.timeBox });
    return resultSections(ctx, result, prepared, lang);
  });
}

/** Adapts a parser that returns `input` to the flow's `value`. */
function withInput<D, I>(
  parse: (
    state: ViewState,
    draft: D,
    lang: Lang,
  ) => { ok: true; input: I; reason: string } | { ok: false; errors: FieldErrors },
): (state: ViewState, draft: D, lang: Lang) => Parsed<I> {
  return (state, draft, lang) => {
    const parsed = parse(state, draft, lang);
    return parsed.ok ? { ok: true, value: parsed.input, reason: parsed.reason } : parsed;
  };
}

/** Prepares what a create or edit form read. */
const prepareInput = (ctx: AppContext, actor: Actor, input: PrepareInput) => ctx.ops.prepare(actor, input);

/** "Put back after" as the policy bounds it, when the form shows it (a form opened without it asks none). */
function askedWindow(ctx: AppContext, state: ViewState, operation: ChangeOperation) {
  return state.has(BLOCKS.putBackAfter) ? windowOf(ctx, operation) : undefined;
}

const whitelistFlow: ChangeFlow<
  z.infer<typeof WhitelistDraftSchema>,
  { mode: 'add' | 'remove'; ips: string[] }
> = {
  title: (lang) => lang.t.changes.changesWhitelistTitle,
  callbackId: CALLBACKS.whitelistChange,
  draft: WhitelistDraftSchema,
  parse: (state, draft, lang, ctx) => {
    const parsed = parseWhitelistSubmission(state, draft, lang, askedWindow(ctx, state, whitelistSet.name));
    return parsed.ok
      ? {
          ok: true,
          value: { mode: parsed.mode, ips: parsed.ips },
          reason: parsed.reason,
          timeBox: parsed.timeBox,
        }
      : parsed;
  },
  prepare: (ctx, actor, value) =>
    ctx.ops.prepare(actor, { kind: whitelistSet.name, change: value.mode, ips: value.ips }),
  errorBlock: BLOCKS.ips,
};

const protectFlow: ChangeFlow<
  z.infer<typeof ProtectDraftSchema>,
  Extract<ProtectSubmission, { ok: true }>
> = {
  title: (lang) => lang.t.changes.protectFormTitle,
  callbackId: CALLBACKS.protect,
  draft: ProtectDraftSchema,
  parse: (state, draft, lang, ctx) => {
    const parsed = parseProtectSubmission(state, draft, lang, askedWindow(ctx, state, protectSet.name));
    return parsed.ok ? { ok: true, value: parsed, reason: parsed.reason, timeBox: parsed.timeBox } : parsed;
  },
  prepare: (ctx, actor, value) => ctx.ops.prepare(actor, { kind: protectSet.name, changes: value.changes }),
  errorBlock: BLOCKS.reason,
};

const folderEditFlow: ChangeFlow<z.infer<typeof FolderDraftSchema>, PrepareInput> = {
  title: (lang) => lang.t.changes.folderEditTitle,
  callbackId: CALLBACKS.folderEdit,
  draft: FolderDraftSchema,
  parse: withInput(parseFolderSubmission),
  prepare: prepareInput,
  errorBlock: BLOCKS.title,
};

/** A form that creates a record (`CREATE_FORMS`): its draft says only that it creates. */
function createFlow(operation: CreateOperation): ChangeFlow<CreateDraft, PrepareInput> {
  const form = CREATE_FORMS[operation];
  return {
    title: (lang) => form.title(lang),
    callbackId: form.callbackId,
    draft: CreateDraftSchema,
    parse: withInput<CreateDraft, PrepareInput>((state, _draft, lang) => form.parse(state, lang)),
    prepare: prepareInput,
    errorBlock: BLOCKS.title,
  };
}

const fileFlow: ChangeFlow<z.infer<typeof FileDraftSchema>, PrepareInput> = {
  title: (lang) => lang.t.changes.fileEditTitle,
  callbackId: CALLBACKS.fileEdit,
  draft: FileDraftSchema,
  parse: withInput(parseFileEditSubmission),
  prepare: prepareInput,
  errorBlock: BLOCKS.title,
};

const playlistFlow: ChangeFlow<z.infer<typeof PlaylistDraftSchema>, PrepareInput> = {
  title: (lang) => lang.t.changes.playlistEditTitle,
  callbackId: CALLBACKS.playlistEdit,
  draft: PlaylistDraftSchema,
  parse: withInput(parsePlaylistSubmission),
  prepare: prepareInput,
  errorBlock: BLOCKS.playlistFiles,
};

/**
 * A delete was prepared when the modal opened and kept on the server; the typed confirmation is
 * checked here against the server's copy, and the server's prepared request is what is submitted.
 */
const deleteFlow: ChangeFlow<z.infer<typeof DeleteDraftSchema>, Prepared> = {
  title: (lang) => lang.t.changes.changesDeleteTitle,
  callbackId: CALLBACKS.deleteConfirm,
  draft: DeleteDraftSchema,
  parse: (state, draft, lang) => {
    const parsed = parseDeleteSubmission(state, draft, lang);
    return parsed.ok ? { ok: true, value: parsed.prepared, reason: parsed.reason } : parsed;
  },
  // The record is looked up again: what was typed confirms what the form showed, up to an hour
  // ago, and a lead must not be asked to delete it under a title it no longer has.
  prepare: async (ctx, actor, prepared) => {
    const now = await ctx.ops.prepare(actor, {
      kind: prepared.operation,
      ...prepared.params,
    } as PrepareInput);
    const changed = changedSinceForm(prepared, now);
    if (changed !== null) throw new InputError(changed);
    return prepared;
  },
  errorBlock: BLOCKS.confirmText,
};

/** Revert…: the inverse was prepared when the modal opened and kept on the server; it is what is asked. */
const revertFlow: ChangeFlow<RevertDraft, Prepared> = {
  title: (lang) => lang.t.approvals.actRevertTitle,
  callbackId: CALLBACKS.revertConfirm,
  draft: RevertDraftSchema,
  parse: (state, draft, lang) => {
    const parsed = parseRevertSubmission(state, draft, lang);
    return parsed.ok ? { ok: true, value: parsed.prepared, reason: parsed.reason } : parsed;
  },
  prepare: async (_ctx, _actor, prepared) => prepared,
  errorBlock: BLOCKS.reason,
};

/** A lead's reason for rejecting: the form closes into the result. */
async function runReject(ctx: AppContext, args: SubmissionArgs): Promise<void> {
  const person = submitter(ctx, args);
  const lang = await person.lang();
  const t = lang.t.changes;
  const title = t.rejectFormResultTitle;
  const parsed = await parseOrAnswer(ctx, args, title, lang, (state, meta) => {
    const result = parseRejectSubmission(state, meta, lang);
    return result.ok
      ? { ok: true, value: { requestId: result.requestId, note: result.note }, reason: result.note }
      : result;
  });
  if (parsed === null) return;
  await ackView(ctx, args.ack, title, [`:hourglass_flowing_sand: ${t.rejectFormRejecting}`], lang);
  await showResult(ctx, args, title, lang, async () => {
    const { actor } = await person.who();
    const result = await ctx.ops.reject(parsed.value.requestId, actor, parsed.value.note);
    return result.kind === 'rejected'
      ? [`:no_entry_sign: ${t.rejectFormDone(boldId(lang, result.request.id))}`]
      : result.kind === 'refused'
        ? [problemLine(problemText(ctx, new InputError(result.said ?? result.reason), title), ':no_entry:')]
        : [
            t.rejectFormNowState(
              boldId(lang, result.request.id),
              result.request.state,
              stateWord(result.request.state, lang),
            ),
          ];
  });
}

/** Registers the submissions of every change modal and of the reject modal. */
export function registerChangeSubmissions(routes: SlackRoutes, ctx: AppContext): void {
  const on = <D, T>(flow: ChangeFlow<D, T>) => {
    onSubmit(routes, flow.callbackId, (args) => runChange(ctx, flow, args));
  };
  on(whitelistFlow);
  on(protectFlow);
  for (const operation of Object.keys(CREATE_FORMS) as CreateOperation[]) on(createFlow(operation));
  on(folderEditFlow);
  on(fileFlow);
  on(playlistFlow);
  on(deleteFlow);
  on(revertFlow);
  onSubmit(routes, CALLBACKS.rejectReason, (args) => runReject(ctx, args));
}
