import type { ModalView } from '@slack/types';
import {
  type CATALOG,
  CHANGE_OPERATIONS,
  type ChangeCommand,
  type ChangeOperation,
  ID_NAMES,
  isChangeOperation,
  OPERATION_SPECS,
} from '../../core/catalog.js';
import { PolicyDeniedError } from '../../core/errors.js';
import type { Command, CommandKind } from '../../core/grammar.js';
import { isLead } from '../../core/policy.js';
import { type WordsSpec, wordsInput } from '../../core/shapes.js';
import { ltr } from '../../i18n/index.js';
import { spec as fileEdit } from '../../operations/file-edit/spec.js';
import { spec as folderEdit } from '../../operations/folder-edit/spec.js';
import { spec as playlistEdit } from '../../operations/playlist-edit/spec.js';
import type { PrepareInput } from '../../services/types.js';
import { submittedMessage } from '../../views/approval.js';
import { auditListMessage } from '../../views/audit-list.js';
import { wordsOf } from '../../views/errors.js';
import { problemMessage } from '../../views/everyday.js';
import { CALLBACKS } from '../../views/ids.js';
import { problemLine } from '../../views/modals/common.js';
import {
  deleteConfirmModal,
  deleteDraft,
  deletedTitle,
  deleteTitleOf,
  storedDeleteDraft,
} from '../../views/modals/delete.js';
import {
  CREATE_FORMS,
  type CreateOperation,
  type CurrentValues,
  fileEditModal,
  folderModal,
  playlistEditModal,
} from '../../views/modals/resources.js';
import { requestsMessage } from '../../views/requests.js';
import { checkBlockKit, mergeWarnings, problemText, respondChecked, type SlashHandler } from '../context.js';
import { delegationHandlers, withBreakGlassOffer } from './break-glass.js';
import { openDraft } from './drafts.js';
import { openLoading, outcomeOf, showStatus, showView } from './shared.js';
import { protectForm } from './time-box.js';

/**
 * The `/vidops` change commands: whitelist add/remove and `protect set` from text, the modals of
 * `protect`, folder/file/playlist create and edit, the typed-confirmation modals of deletes,
 * `requests` and `audit`. Each runs after the router acknowledged and parsed the command. What a
 * modal is opened for is kept on the server as its draft (./drafts.ts); the modal names it only.
 * @see docs/architecture.md, "Slash command grammar"
 */

type Catalog = typeof CATALOG;

/** The commands whose words give all their operation needs: no form asks for anything. */
type TypedKind = {
  [O in keyof Catalog]: Catalog[O]['fields'] extends readonly []
    ? Exclude<Catalog[O]['commands'][number], { args: { kind: 'none' } }>['kind']
    : never;
}[keyof Catalog];

/**
 * A change typed as text (`whitelist add …`, `protect set …`): its words are its input, read as
 * the CLI reads them (core/shapes.ts), with the window asked for (`for 2h`, docs/time-boxed.md).
 */
function typedHandler(operation: ChangeOperation, args: WordsSpec): SlashHandler {
  return async ({ command, ctx, actor, lang, respond, warnings }) => {
    const input = { kind: operation, ...wordsInput(args, command) } as PrepareInput;
    const timeBox = 'timeBox' in command ? command.timeBox : undefined;
    ctx.ops.checkWindow(operation, timeBox);
    const prepared = await ctx.ops.prepare(actor, input);
    const result = await ctx.ops.submit(actor, prepared, { timeBox });
    const options = {
      approvalChannel: ctx.config.approvalChannel,
      warnings: mergeWarnings(warnings, prepared.warnings),
    };
    const message = submittedMessage(outcomeOf(ctx, result, lang), options, lang);
    await respondChecked(ctx, respond, withBreakGlassOffer(message, result, lang));
  };
}

/**
 * Every typed change, derived from the catalog, so a new operation whose words give its input
 * needs no handler here; the router lets the everyday and form handlers take their own first.
 */
export const typedHandlers = Object.fromEntries(
  Object.values(OPERATION_SPECS).flatMap(({ name, fields, commands }) =>
    fields.length > 0
      ? []
      : commands.filter((c) => c.args.kind !== 'none').map((c) => [c.kind, typedHandler(name, c.args)]),
  ),
) as Record<TypedKind, SlashHandler>;

/**
 * Opens a modal whose content needs a read: a loading view at once (the trigger lives 3 s), then
 * the real view, or the problem in its place. Without a trigger (never from Slack) it answers.
 */
async function modalAfterRead(
  { ctx, client, body, respond, lang }: Parameters<SlashHandler>[0],
  title: string,
  build: () => Promise<ModalView>,
): Promise<void> {
  const viewId = await openLoading(ctx, client, body.trigger_id, title, lang);
  if (viewId === null) {
    await respondChecked(ctx, respond, problemMessage(lang.t.changes.changesFormNotOpened));
    return;
  }
  try {
    await showView(ctx, client, viewId, await build());
  } catch (error) {
    await showStatus(
      ctx,
      client,
      viewId,
      title,
      [problemLine(problemText(ctx, error, `opening ${title}`))],
      lang,
    );
  }
}

function values(record: { title: string | null; description: string | null }): CurrentValues {
  return { title: record.title, description: record.description };
}

/** The note a look-up of the current values came with, if any, as a field of the form. */
function noteOf(current: { note?: string | undefined }): { note?: string } {
  return current.note === undefined ? {} : { note: current.note };
}

const protectModalHandler: SlashHandler = async (args) => {
  const { ctx, actor, lang } = args;
  await modalAfterRead(args, lang.t.changes.protectFormTitle, async () => {
    return protectForm(ctx, actor.id, lang);
  });
};

/** `folder create`, `playlist create`: the form opens straight away (the draft is one local write). */
function createForm(operation: CreateOperation): SlashHandler {
  return async ({ ctx, client, body, actor, lang }) => {
    const form = CREATE_FORMS[operation];
    const draftId = await openDraft(ctx, actor.id, form.callbackId, { mode: 'create' });
    const view = form.modal(draftId, lang);
    checkBlockKit(ctx, { view }, 'modal');
    await client.views.open({ trigger_id: body.trigger_id, view });
  };
}

const folderEditHandler: SlashHandler = async (args) => {
  const { command, ctx, actor, lang } = args;
  if (command.kind !== folderEdit.name) return;
  const { bucketId } = command;
  await modalAfterRead(args, lang.t.changes.folderEditTitle, async () => {
    const current = await ctx.ops.currentFolder(bucketId);
    const draftId = await openDraft(ctx, actor.id, CALLBACKS.folderEdit, { mode: 'edit', bucketId });
    const shown = current.value === null ? null : values(current.value);
    return folderModal({ mode: 'edit', bucketId, draftId, current: shown, ...noteOf(current) }, lang);
  });
};

const fileEditHandler: SlashHandler = async (args) => {
  const { command, ctx, actor, lang } = args;
  if (command.kind !== fileEdit.name) return;
  const { fileId } = command;
  await modalAfterRead(args, lang.t.changes.fileEditTitle, async () => {
    const current = await ctx.ops.currentFile(fileId);
    const draftId = await openDraft(ctx, actor.id, CALLBACKS.fileEdit, { fileId, coverAllowed: true });
    const shown =
      current.value === null ? null : { ...values(current.value), hlsStatus: current.value.hlsStatus };
    return fileEditModal({ fileId, draftId, current: shown, coverAllowed: true, ...noteOf(current) }, lang);
  });
};

const playlistEditHandler: SlashHandler = async (args) => {
  const { command, ctx, actor, lang } = args;
  if (command.kind !== playlistEdit.name) return;
  const { playlistId } = command;
  await modalAfterRead(args, lang.t.changes.playlistEditTitle, async () => {
    const current = await ctx.ops.currentPlaylist(playlistId);
    const draftId = await openDraft(ctx, actor.id, CALLBACKS.playlistEdit, { playlistId });
    const shown = current.value === null ? null : { title: current.value.title, files: current.value.files };
    return playlistEditModal({ playlistId, draftId, current: shown, ...noteOf(current) }, lang);
  });
};

/** The delete commands (`folder delete <id>`…): each is named after its operation. */
type DeleteKind = Extract<ChangeCommand['kind'], `${string}.delete`>;

/** A delete's input from its command (the operation and the one ID its words give); null for any other command. */
function deleteInput(command: Command): PrepareInput | null {
  if (!isChangeOperation(command.kind)) return null;
  const spec = OPERATION_SPECS[command.kind];
  const args = spec.commands[0]?.args;
  if (spec.risk !== 'irreversible' || args?.kind !== 'id') return null;
  const id = ID_NAMES[args.resource];
  return { kind: command.kind, [id]: (command as Readonly<Record<string, unknown>>)[id] } as PrepareInput;
}

/** Folder, file and playlist deletes: the typed-confirmation modal, built from the prepared request. */
const deleteHandler: SlashHandler = async (args) => {
  const { command, ctx, actor, lang } = args;
  const input = deleteInput(command);
  if (input === null) return;
  await modalAfterRead(args, deleteTitleOf(input.kind, lang), async () => {
    const prepared = await ctx.ops.prepare(actor, input);
    const shownTitle = deletedTitle(prepared);
    const confirm = ctx.ops.confirmationFor(input);
    // The prepared request and what must be typed stay here; the modal carries the draft's ID.
    const draft = deleteDraft({ prepared, confirm, title: shownTitle });
    const draftId = await openDraft(ctx, actor.id, CALLBACKS.deleteConfirm, storedDeleteDraft(draft));
    return deleteConfirmModal({ prepared, confirm, title: shownTitle, draftId }, lang);
  });
};

/** Every delete's command, handled by `deleteHandler` (the catalog says which operations delete). */
const deleteHandlers = Object.fromEntries(
  CHANGE_OPERATIONS.filter((op) => OPERATION_SPECS[op].risk === 'irreversible').map((op) => [
    op,
    deleteHandler,
  ]),
) as Record<DeleteKind, SlashHandler>;

/** Every create command (`folder create`, `playlist create`), handled by its form (views/modals/resources.ts). */
const createHandlers = Object.fromEntries(
  (Object.keys(CREATE_FORMS) as CreateOperation[]).map((op) => [op, createForm(op)]),
) as Record<CreateOperation, SlashHandler>;

const requests: SlashHandler = async ({ ctx, actor, lang, respond }) => {
  const overview = await ctx.ops.listRequests(actor);
  await respondChecked(
    ctx,
    respond,
    requestsMessage(overview, { isLead: isLead(ctx.policy, actor), now: ctx.clock() }, lang),
  );
};

const audit: SlashHandler = async ({ command, ctx, actor, lang, respond }) => {
  if (command.kind !== 'audit') return;
  try {
    const events = await ctx.ops.recentAudit(actor, command.n);
    await respondChecked(ctx, respond, auditListMessage(events, command.n, lang));
  } catch (error) {
    if (!(error instanceof PolicyDeniedError)) throw error;
    // The services recorded the refusal; the person gets a polite word and where to go instead.
    await respondChecked(
      ctx,
      respond,
      problemMessage(
        `${wordsOf(error, lang)} ${lang.t.changes.changesAuditAskLead(ltr(lang, '`/vidops audit`'), ltr(lang, '`npx vidops audit export`'))}`,
        ':lock:',
      ),
    );
  }
};

/** The change commands by kind; the router merges them with the everyday ones. */
export const changeHandlers = {
  'protect.modal': protectModalHandler,
  [folderEdit.name]: folderEditHandler,
  [fileEdit.name]: fileEditHandler,
  [playlistEdit.name]: playlistEditHandler,
  ...createHandlers,
  requests,
  audit,
  ...deleteHandlers,
  ...delegationHandlers,
} satisfies Partial<Record<CommandKind, SlashHandler>>;
