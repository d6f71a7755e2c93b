import type { JsonValue } from '../../src/core/json.js';
import { FSI, PDI } from '../../src/i18n/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  callSince,
  modalStatus,
  notificationsDone,
  openModal,
  readable,
  requestIdIn,
  stored,
  submitModal,
  typed,
  valuesOf,
} from './change-helpers.js';

/**
 * A Persian-speaking agent asks for a folder delete end to end: the real app over signed HTTP,
 * the fake Slack and the sandbox; the agent chose Persian with `/vidops lang fa` first. What
 * is checked is what the change modals and their handlers say; the approval message and the
 * previews (the approval views) are translated on their own.
 * @see docs/architecture.md, "Languages"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // Slack has no Persian interface, so a Persian reader chooses Persian once, as people do.
  const chosen = await h.slash('lang fa', { userId: USERS.agent.id });
  expect(chosen.status).toBe(200);
  expect((await chosen.reply()).status).toBe(200);
});

afterAll(async () => {
  await h.stop();
});

beforeEach(async () => {
  await notificationsDone(h);
  h.sandbox.reset();
});

/** Every `text` a person reads in a view's blocks. */
function texts(blocks: JsonValue | undefined): string {
  return readable({ tag: 'view', body: { blocks: blocks ?? null }, at: new Date(), status: 200 });
}

const isolated = (token: string) => `${FSI}${token}${PDI}`;

describe('a Persian-speaking agent asks to delete a folder', () => {
  it('reads the form in Persian, is told in Persian that the typed ID does not match, then sends it for approval', async () => {
    const folder = DEMO.folders.lectures;
    const since = h.slack.calls.length;
    const view = await openModal(h, `folder delete ${folder}`, CALLBACKS.deleteConfirm);

    // The form opened at once with a Persian loading view, then showed the confirmation.
    const loading = callSince(h, since, ['views.open']);
    expect(JSON.stringify(loading?.args.view)).toContain('در حال خواندن مقدارهای فعلی…');
    expect(view.title).toMatchObject({ text: 'حذف پوشه' });
    expect(view.submit).toMatchObject({ text: 'درخواست حذف' });
    expect(view.close).toMatchObject({ text: 'انصراف' });
    const shown = texts(view.blocks);
    expect(shown).toContain('*این کار برگشت‌پذیر نیست.*');
    expect(shown).toContain('برای تأیید، شناسه را تایپ کنید');
    expect(shown).toContain(
      `برای تأیید، ${isolated(folder)} یا عنوان دقیق «${isolated('Course lectures')}» را تایپ کنید.`,
    );
    expect(shown).toContain('دلیل');

    // The other folder's ID is refused on the form, in Persian, and nothing is asked for.
    const wrong = await submitModal(
      h,
      view,
      valuesOf(view, {
        [BLOCKS.confirmText]: typed(DEMO.folders.podcasts),
        [BLOCKS.reason]: typed('ترم تمام شد'),
      }),
    );
    expect(wrong).toEqual({
      response_action: 'errors',
      errors: {
        [BLOCKS.confirmText]: `«${isolated(DEMO.folders.podcasts)}» مطابقت ندارد. برای تأیید، ${isolated(folder)} یا عنوان دقیق را تایپ کنید.`,
      },
    });
    expect(await h.store.listRequests({ requesterId: USERS.agent.id })).toEqual([]);

    // The right ID, typed in Persian digits: the form turns into its Persian progress view.
    const persianDigits = folder.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)] ?? d);
    const before = h.slack.calls.length;
    const right = await submitModal(
      h,
      view,
      valuesOf(view, {
        [BLOCKS.confirmText]: typed(persianDigits),
        [BLOCKS.reason]: typed('ترم تمام شد'),
      }),
    );
    expect(right).toMatchObject({ response_action: 'update', view: { title: { text: 'حذف' } } });
    expect(JSON.stringify(right)).toContain('در حال ثبت درخواست شما…');
    const id = requestIdIn(await modalStatus(h, before, view.id, /R-[0-9A-Z]{8}/));

    // The request waits for a lead, with the reason as typed, and its approval message is out.
    const request = await stored(h, id);
    expect(request).toMatchObject({
      state: 'pending',
      operation: 'folder.delete',
      params: { bucketId: folder },
      reason: 'ترم تمام شد',
      requester: { id: USERS.agent.id },
    });
    await approvalMessage(h, id);
  });

  it('reads their open request in Persian', async () => {
    const reply = await (await h.slash('requests')).reply();
    expect(readable(reply)).toContain('*درخواست‌های باز شما* (');
    expect(readable(reply)).toMatch(/مهلت تا [۰-۹]+ /);
  });
});
