import type { App, BlockAction, GlobalShortcut, MessageShortcut } from '@slack/bolt';
import type { KnownBlock, ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { extractFileIds, extractMobiles } from '../core/extract.js';
import { parseResourceId } from '../core/validate/ids.js';
import { isMobileParam } from '../core/validate/phone.js';
import { ENGLISH, type Lang, ltr } from '../i18n/index.js';
import type { SlackRoutes } from '../slack/routes.js';
import { sayIn } from '../views/errors.js';
import { type Message, problemMessage, refusalText } from '../views/everyday.js';
import { ACTIONS, CALLBACKS, SHORTCUTS } from '../views/ids.js';
import { problemLine, statusModal } from '../views/modals/common.js';
import {
  type AnswerTarget,
  menuModal,
  noFileIdText,
  retryPickModal,
  retryTypeModal,
  unblockPickModal,
  unblockTypeModal,
  workingModal,
} from '../views/modals/shortcuts.js';
import { unblockManyModal } from '../views/modals/unblock-many.js';
import { openDraft, takeDraft } from './changes/drafts.js';
import { protectForm, whitelistForm } from './changes/time-box.js';
import { type AppContext, checkBlockKit, type Person, personOf, problemText } from './context.js';
import { retryReply, unblockReply } from './everyday.js';

/**
 * The shortcuts: "Unblock viewer" and "Retry conversion" on a customer's message, and the global
 * menu. They find what the message holds with the existing rules (core/extract.ts), offer it in a
 * modal where one click acts, and act through the same services as `/vidops unblock` and
 * `/vidops retry` (policy, approvals, rate limits, audit). Who may use them was checked by the
 * gate (./gate.ts) before anything here runs; typed forms are `explain`'s (./everyday.ts).
 * @see docs/slack.md, "Shortcuts"
 */

/** What the "Unblock viewer" modal keeps on the server: the numbers found, as they are sent. */
const UnblockDraftSchema = z.strictObject({
  mobiles: z.array(z.strictObject({ param: z.string().refine(isMobileParam), masked: z.string() })).max(20),
  refused: z.array(z.string()).max(20),
});
type UnblockDraft = z.infer<typeof UnblockDraftSchema>;

/** What a click in a view carries that these handlers read. */
const ViewClickSchema = z.looseObject({
  user: z.looseObject({ id: z.string(), name: z.string().optional() }),
  view: z.looseObject({ id: z.string(), hash: z.string(), private_metadata: z.string().optional() }),
  actions: z.array(z.looseObject({ value: z.string().optional() })).min(1),
});
type ViewClick = z.infer<typeof ViewClickSchema>;

function slackError(error: unknown): string | undefined {
  const data = typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined;
  const code = typeof data === 'object' && data !== null ? (data as { error?: unknown }).error : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Replaces the view clicked, only if it still is what was clicked (its hash): a second click on
 * a view already changed by the first does nothing. True when it was replaced.
 */
async function replaceClicked(ctx: AppContext, client: WebClient, click: ViewClick, view: ModalView) {
  checkBlockKit(ctx, { view }, 'modal');
  try {
    await client.views.update({ view_id: click.view.id, hash: click.view.hash, view });
    return true;
  } catch (error) {
    if (slackError(error) === 'hash_conflict') return false;
    throw error;
  }
}

/** Replaces the view clicked with `problem` under `title`, as {@link replaceClicked}. */
function replaceWithProblem(
  ctx: AppContext,
  client: WebClient,
  click: ViewClick,
  title: string,
  problem: string,
  lang: Lang,
): Promise<boolean> {
  return replaceClicked(ctx, client, click, statusModal(title, [problemLine(problem)], lang));
}

/** Replaces an open view (after the work), whatever it shows now; a closed one is logged. */
async function show(ctx: AppContext, client: WebClient, viewId: string, view: ModalView): Promise<void> {
  checkBlockKit(ctx, { view }, 'modal');
  try {
    await client.views.update({ view_id: viewId, view });
  } catch (error) {
    ctx.logger.warn({ err: error, viewId }, 'could not show the outcome in the shortcut’s modal');
  }
}

async function open(ctx: AppContext, client: WebClient, triggerId: string, view: ModalView): Promise<void> {
  checkBlockKit(ctx, { view }, 'modal');
  await client.views.open({ trigger_id: triggerId, view });
}

/** Runs a change and turns a failure into what the person reads, as `explain`'s forms do. */
async function outcome(ctx: AppContext, lang: Lang, run: () => Promise<Message>): Promise<KnownBlock[]> {
  try {
    return (await run()).blocks;
  } catch (error) {
    return problemMessage(problemText(ctx, error, 'a shortcut', lang)).blocks;
  }
}

function answerTarget(shortcut: MessageShortcut): AnswerTarget {
  return { responseUrl: shortcut.response_url, channelId: shortcut.channel.id };
}

async function unblockFromMessage(ctx: AppContext, shortcut: MessageShortcut, client: WebClient) {
  const lang = await personOf(ctx, shortcut, shortcut.user).lang();
  const region = ctx.config.phoneRegion;
  const { found, refused } = extractMobiles(shortcut.message.text ?? '', region, {
    regions: ctx.config.phoneRegions,
  });
  // In the reader's language, a valid number in what was read masked.
  const reasons = refused.map((r) => `${refusalText(r.said, region, lang)}.`);
  if (found.length === 0) {
    const t = lang.t.shortcuts;
    const text = reasons.length > 0 ? t.shortcutNoUsableMobile : t.shortcutNoMobile;
    await open(
      ctx,
      client,
      shortcut.trigger_id,
      unblockTypeModal({ text, refused: reasons, target: answerTarget(shortcut) }, lang),
    );
    return;
  }
  const draft: UnblockDraft = {
    mobiles: found.map(({ param, masked }) => ({ param, masked })),
    refused: reasons,
  };
  const draftId = await openDraft(ctx, shortcut.user.id, CALLBACKS.shortcutUnblock, draft);
  await open(
    ctx,
    client,
    shortcut.trigger_id,
    unblockPickModal({ numbers: draft.mobiles.map((m) => m.param), refused: reasons, draftId }, lang),
  );
}

async function retryFromMessage(ctx: AppContext, shortcut: MessageShortcut, client: WebClient) {
  const lang = await personOf(ctx, shortcut, shortcut.user).lang();
  const fileIds = extractFileIds(shortcut.message.text ?? '');
  const view =
    fileIds.length === 0
      ? retryTypeModal({ text: noFileIdText(lang), target: answerTarget(shortcut) }, lang)
      : retryPickModal({ fileIds }, lang);
  await open(ctx, client, shortcut.trigger_id, view);
}

/** One click on a number: the draft taken back (only by who opened it), the unblock, the list again. */
async function pickMobile(
  ctx: AppContext,
  click: ViewClick,
  client: WebClient,
  person: Person,
): Promise<void> {
  const lang = await person.lang();
  const t = lang.t.shortcuts;
  const taken = await takeDraft(
    ctx,
    {
      privateMetadata: click.view.private_metadata ?? '',
      userId: click.user.id,
      kind: CALLBACKS.shortcutUnblock,
    },
    UnblockDraftSchema,
  );
  if (!taken.ok) {
    await replaceWithProblem(ctx, client, click, t.shortcutUnblockTitle, sayIn(lang, taken.said), lang);
    return;
  }
  const draft = taken.value;
  // Only a place a button of the list carries ("0", "1", …): Number() also reads "", " 1", "0x1"
  // and "1e0" as places.
  const value = click.actions[0]?.value ?? '';
  const mobile = /^(0|[1-9]\d*)$/.test(value) ? draft.mobiles[Number(value)] : undefined;
  if (mobile === undefined) {
    await taken.giveBack();
    await replaceWithProblem(ctx, client, click, t.shortcutUnblockTitle, t.shortcutUnknownPick, lang);
    return;
  }
  if (
    !(await replaceClicked(
      ctx,
      client,
      click,
      workingModal(t.shortcutUnblockTitle, t.shortcutUnblocking(ltr(lang, mobile.masked)), lang),
    ))
  ) {
    await taken.giveBack();
    return;
  }
  const viewId = click.view.id;
  ctx.work.push('unblock shortcut', async () => {
    const who = await person.who();
    const result = await outcome(ctx, lang, () => unblockReply(ctx, who, mobile));
    const draftId = await openDraft(ctx, person.id, CALLBACKS.shortcutUnblock, draft);
    const numbers = draft.mobiles.map((m) => m.param);
    await show(
      ctx,
      client,
      viewId,
      unblockPickModal({ numbers, refused: draft.refused, draftId, result }, lang),
    );
  });
}

/** One click on a file ID: read as `/vidops retry` reads it, retried, the list again. */
async function pickFile(ctx: AppContext, click: ViewClick, client: WebClient, person: Person): Promise<void> {
  const lang = await person.lang();
  const t = lang.t.shortcuts;
  const id = parseResourceId(click.actions[0]?.value ?? '', 'file');
  // The IDs listed are read back from the view clicked, so the list stays as the message gave it;
  // a click retries only one of them, never a value no button of the list carried.
  const listed = listedFileIds(click);
  if (!id.ok || !listed.includes(id.id)) {
    await replaceWithProblem(ctx, client, click, t.shortcutRetryTitle, t.shortcutUnknownPick, lang);
    return;
  }
  if (
    !(await replaceClicked(
      ctx,
      client,
      click,
      workingModal(t.shortcutRetryTitle, t.shortcutRetrying(ltr(lang, id.id)), lang),
    ))
  )
    return;
  const viewId = click.view.id;
  ctx.work.push('retry shortcut', async () => {
    const who = await person.who();
    const warnings = id.warning === null ? [] : [id.warning];
    const result = await outcome(ctx, lang, () => retryReply(ctx, who, id.id, warnings));
    await show(ctx, client, viewId, retryPickModal({ fileIds: listed, result }, lang));
  });
}

/** The file IDs of the Retry buttons in the view clicked, each read again by the ID rule. */
function listedFileIds(click: ViewClick): string[] {
  const blocks = (click.view as { blocks?: unknown }).blocks;
  const ids: string[] = [];
  for (const block of Array.isArray(blocks) ? blocks : []) {
    const accessory = (block as { accessory?: { action_id?: unknown; value?: unknown } }).accessory;
    if (accessory?.action_id !== ACTIONS.shortcutRetryPick || typeof accessory.value !== 'string') continue;
    const id = parseResourceId(accessory.value, 'file');
    if (id.ok && !ids.includes(id.id)) ids.push(id.id);
  }
  return ids.slice(0, 20);
}

/**
 * A menu button: the form it opens replaces the menu; a form that needs a read shows a wait first.
 * The wait, a problem and the form are in the language of who clicked.
 */
async function fromMenu(
  ctx: AppContext,
  click: ViewClick,
  client: WebClient,
  person: Person,
  title: (lang: Lang) => string,
  build: (lang: Lang) => Promise<ModalView>,
): Promise<void> {
  const lang = await person.lang();
  const shown = title(lang);
  const reading = workingModal(shown, lang.t.shortcuts.shortcutReading, lang);
  if (!(await replaceClicked(ctx, client, click, reading))) return;
  try {
    await show(ctx, client, click.view.id, await build(lang));
  } catch (error) {
    const problem = problemLine(problemText(ctx, error, title(ENGLISH), lang));
    await show(ctx, client, click.view.id, statusModal(shown, [problem], lang));
  }
}

/**
 * A message shortcut whose form was not opened (Slack refused the trigger, it expired): the person
 * is told where they ran it, through the shortcut's response_url, instead of waiting for nothing.
 */
async function toldIfNotOpened(ctx: AppContext, shortcut: MessageShortcut, run: () => Promise<void>) {
  try {
    await run();
  } catch (error) {
    ctx.logger.warn({ err: error, shortcut: shortcut.callback_id }, 'a shortcut’s form was not opened');
    const lang = await personOf(ctx, shortcut, shortcut.user).lang();
    await ctx
      .respondTo(shortcut.response_url)({
        response_type: 'ephemeral',
        text: lang.t.shortcuts.shortcutNotOpened,
      })
      .catch((failed: unknown) => ctx.logger.warn({ err: failed }, 'could not tell the shortcut’s user'));
  }
}

/** Registers the three shortcuts, the buttons of their modals and of the menu. */
export function registerShortcuts(app: App, routes: SlackRoutes, ctx: AppContext): void {
  app.shortcut<MessageShortcut>(
    { type: 'message_action', callback_id: SHORTCUTS.unblockFromMessage },
    async ({ ack, shortcut, client }) => {
      await ack();
      await toldIfNotOpened(ctx, shortcut, () => unblockFromMessage(ctx, shortcut, client));
    },
  );
  app.shortcut<MessageShortcut>(
    { type: 'message_action', callback_id: SHORTCUTS.retryFromMessage },
    async ({ ack, shortcut, client }) => {
      await ack();
      await toldIfNotOpened(ctx, shortcut, () => retryFromMessage(ctx, shortcut, client));
    },
  );
  app.shortcut<GlobalShortcut>(
    { type: 'shortcut', callback_id: SHORTCUTS.menu },
    async ({ ack, shortcut, client }) => {
      await ack();
      const lang = await personOf(ctx, shortcut, shortcut.user).lang();
      await open(ctx, client, shortcut.trigger_id, menuModal(lang));
    },
  );

  const onViewClick = (
    actionId: string,
    run: (click: ViewClick, client: WebClient, person: Person) => Promise<void>,
  ) => {
    routes.action(actionId, async ({ ack, body, client }) => {
      await ack();
      const click = ViewClickSchema.safeParse(body satisfies BlockAction);
      if (!click.success) {
        ctx.logger.warn({ actionId }, 'a shortcut button clicked outside its modal; ignored');
        return;
      }
      await run(click.data, client, personOf(ctx, body, click.data.user));
    });
  };
  onViewClick(ACTIONS.shortcutUnblockPick, (click, client, person) => pickMobile(ctx, click, client, person));
  onViewClick(ACTIONS.shortcutRetryPick, (click, client, person) => pickFile(ctx, click, client, person));
  onViewClick(ACTIONS.menuUnblock, async (click, client, person) => {
    const lang = await person.lang();
    const text = lang.t.shortcuts.shortcutMenuUnblockIntro;
    await replaceClicked(ctx, client, click, unblockTypeModal({ text, target: {} }, lang));
  });
  onViewClick(ACTIONS.menuUnblockMany, async (click, client, person) => {
    await replaceClicked(ctx, client, click, unblockManyModal('{}', await person.lang()));
  });
  onViewClick(ACTIONS.menuRetry, async (click, client, person) => {
    const lang = await person.lang();
    const text = lang.t.shortcuts.shortcutMenuRetryIntro;
    await replaceClicked(ctx, client, click, retryTypeModal({ text, target: {} }, lang));
  });
  onViewClick(ACTIONS.menuProtect, (click, client, person) =>
    fromMenu(
      ctx,
      click,
      client,
      person,
      (lang) => lang.t.shortcuts.shortcutMenuProtect,
      (lang) => protectForm(ctx, person.id, lang),
    ),
  );
  for (const [actionId, mode] of [
    [ACTIONS.menuWhitelistAdd, 'add'],
    [ACTIONS.menuWhitelistRemove, 'remove'],
  ] as const) {
    onViewClick(actionId, (click, client, person) =>
      fromMenu(
        ctx,
        click,
        client,
        person,
        (lang) =>
          mode === 'add'
            ? lang.t.shortcuts.shortcutMenuWhitelistAdd
            : lang.t.shortcuts.shortcutMenuWhitelistRemove,
        (lang) => whitelistForm(ctx, click.user.id, mode, lang),
      ),
    );
  }
}
