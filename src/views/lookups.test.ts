import { say } from '../core/said.js';
import { ENGLISH } from '../i18n/index.js';
import type { Prepared } from '../services/types.js';
import { unblockMessage } from './everyday.js';
import { BLOCKS, INPUT_ACTION } from './ids.js';
import { checkBlockKitLimits } from './limits.js';
import { readViewState } from './modals/common.js';
import { deleteConfirmModal, deleteDraft, parseDeleteSubmission } from './modals/delete.js';

/** A draft ID of the shape vidops gives out (the modals carry only this). */
const TEST_DRAFT_ID = 'x'.repeat(43);

/**
 * What people read when a look-up told vidops something, or nothing: the unblock headline is
 * true to what the viewer look-up said, and a delete whose look-up failed shows and asks for the ID.
 * @see docs/architecture.md, "Client of the video protection API"
 */

describe('the headline of a sent unblock', () => {
  const sent = (blocked: boolean | null) =>
    unblockMessage({
      lang: ENGLISH,
      masked: '0912***6789',
      viewer: { actionType: null, blocked },
      warnings: blocked === null ? [say.warnLookUp('viewer', { kind: 'answered', status: 404 })] : [],
      outcome: { kind: 'succeeded', requestId: 'R-ABCDEFGH', answer: { ok: true } },
    });

  it.each<[string, boolean | null, string, string]>([
    [
      'a viewer the look-up listed as blocked can watch again',
      true,
      ':white_check_mark: Viewer `0912***6789` is unblocked; they can watch again.',
      'Viewer 0912***6789 is unblocked; they can watch again. Request R-ABCDEFGH.',
    ],
    [
      'a viewer the look-up listed as not blocked was not blocked',
      false,
      ':white_check_mark: Viewer `0912***6789` was not blocked; the unblock was sent anyway.',
      'Viewer 0912***6789 was not blocked; the unblock was sent anyway. Request R-ABCDEFGH.',
    ],
    [
      'a viewer nobody could look up: unknown',
      null,
      ':white_check_mark: The unblock of viewer `0912***6789` was sent; whether they were blocked is unknown.',
      'The unblock of viewer 0912***6789 was sent; whether they were blocked is unknown. Request R-ABCDEFGH.',
    ],
  ])('%s', (_name, blocked, headline, text) => {
    const message = sent(blocked);
    expect(message.text).toBe(text);
    expect(message.blocks[0]).toMatchObject({ text: { text: headline } });
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
  });

  it('says why it is unknown: the warning of the failed look-up is in the reply', () => {
    expect(JSON.stringify(sent(null).blocks)).toContain(
      'Could not look the viewer up: the service answered 404.',
    );
  });
});

describe('the typed confirmation of a delete whose look-up failed', () => {
  const folderId = '6710a0000000000000000101';
  const prepared: Prepared = {
    operation: 'folder.delete',
    params: { bucketId: folderId },
    target: `folder ${folderId}`,
    preview: { kind: 'delete', resource: 'folder', id: folderId, title: null, filesCount: null },
    warnings: [say.warnLookUp('folder', { kind: 'answered', status: 404 })],
  };
  const view = deleteConfirmModal(
    { prepared, confirm: folderId, title: null, draftId: TEST_DRAFT_ID },
    ENGLISH,
  );
  const draft = deleteDraft({ prepared, confirm: folderId, title: null });
  const shown = JSON.stringify(view.blocks);
  const submit = (typed: string) =>
    parseDeleteSubmission(
      readViewState({
        [BLOCKS.confirmText]: { [INPUT_ACTION]: { type: 'plain_text_input', value: typed } },
        [BLOCKS.reason]: { [INPUT_ACTION]: { type: 'plain_text_input', value: 'owner asked' } },
      }),
      draft,
      ENGLISH,
    );

  it('shows the ID, says only the ID is known, and the failed look-up', () => {
    expect(shown).toContain(`*Deletes* folder \`${folderId}\`. This cannot be undone.`);
    expect(shown).toContain(
      'Only the ID is known: the service did not show its title or contents. Check the ID.',
    );
    expect(shown).toContain(':warning: Could not look the folder up: the service answered 404.');
    expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
  });

  it('asks for the ID, and takes nothing else', () => {
    expect(shown).toContain(`Type ${folderId} to confirm.`);
    expect(shown).not.toContain('exact title');
    expect(submit(folderId)).toMatchObject({ ok: true, prepared: { params: { bucketId: folderId } } });
    expect(submit('Lectures')).toEqual({
      ok: false,
      errors: { [BLOCKS.confirmText]: `“Lectures” does not match. Type ${folderId} to confirm.` },
    });
  });

  it('says nothing of the kind when the title is known', () => {
    const known = deleteConfirmModal(
      {
        prepared: {
          ...prepared,
          preview: { kind: 'delete', resource: 'folder', id: folderId, title: 'Lectures', filesCount: null },
          warnings: [],
        },
        confirm: folderId,
        title: 'Lectures',
        draftId: TEST_DRAFT_ID,
      },
      ENGLISH,
    );
    expect(JSON.stringify(known.blocks)).not.toContain('Only the ID is known');
  });
});
