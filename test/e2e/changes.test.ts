import type { ViewStateValue } from '@slack/bolt';
import type { StoredMessage } from '../../src/emulator/index.js';
import { checkboxes } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import {
  ACTIONS,
  BLOCKS,
  CALLBACKS,
  INPUT_ACTION,
  protectFieldBlock,
  protectGroupBlock,
} from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  expectAuditWitnessed,
  modalShown,
  modalStatus,
  notificationsDone,
  openModal,
  reaches,
  requestIdIn,
  submitModal,
  typed,
  until,
  upstream,
  valuesOf,
} from './change-helpers.js';

/**
 * The change commands end to end: what the agent sees when asking, and exactly what the upstream
 * receives once a lead approves.
 * @see docs/architecture.md, "Slash command grammar" and "Validation"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

beforeEach(async () => {
  await notificationsDone(h);
  h.sandbox.reset();
});

/** Puts addresses on the sandbox's whitelist directly, as if set before vidops ran. */
async function seedWhitelist(ips: string[]): Promise<void> {
  const response = await fetch(`${h.sandbox.url}/v1/storage/dns/whitelist`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', api_key: DEMO.apiKey, secret_key: DEMO.secretKey },
    body: JSON.stringify({ allowedDNS: ips }),
  });
  expect(response.status).toBe(200);
  h.sandbox.clearRequests();
}

/** A lead approves the request from its approval message and it runs. */
async function leadApproves(id: string): Promise<void> {
  const message = await approvalMessage(h, id);
  const answer = await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
  expect(String((await answer.reply()).body.text)).toMatch(/^:white_check_mark: You approved/);
  await reaches(h, id, 'succeeded');
}

/** Submits a change modal and returns the request ID its result shows. */
async function submitChange(
  view: Awaited<ReturnType<typeof openModal>>,
  values: ReturnType<typeof valuesOf>,
) {
  const since = h.slack.calls.length;
  expect(await submitModal(h, view, values)).toMatchObject({ response_action: 'update' });
  return requestIdIn(await modalStatus(h, since, view.id, /posted to/));
}

describe('whitelist', () => {
  it('an agent adds two addresses by text: the reply shows before and after, the service gets the whole list', async () => {
    await seedWhitelist(['198.51.100.1', '198.51.100.2']);
    const slash = await h.slash('whitelist add 5.160.12.7, 2A00:1::1');
    const reply = JSON.stringify((await slash.reply()).body);
    expect(reply).toContain('*Adds* (2): `5.160.12.7`, `2a00:1::1`');
    expect(reply).toContain(
      '*Whitelist after* (4): `198.51.100.1`, `198.51.100.2`, `5.160.12.7`, `2a00:1::1`',
    );
    expect(reply).toContain('Whitelist before (2): `198.51.100.1`, `198.51.100.2`');
    const id = requestIdIn(reply);
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist')).toEqual([]);

    await leadApproves(id);
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist').map((r) => r.body)).toEqual([
      { allowedDNS: ['198.51.100.1', '198.51.100.2', '5.160.12.7', '2a00:1::1'] },
    ]);
    expect(h.sandbox.state().whitelist).toEqual(['198.51.100.1', '198.51.100.2', '5.160.12.7', '2a00:1::1']);
  });

  it('an agent removes an address with the Remove button: a host name is refused on the form first', async () => {
    await seedWhitelist(['198.51.100.1', '198.51.100.2']);
    const shown = await h.slash('whitelist');
    const body = (await shown.reply()).body;
    const message: StoredMessage = {
      type: 'message',
      channel: 'C0VIDOPS',
      ts: '1.000001',
      text: String(body.text),
      blocks: body.blocks ?? [],
    };
    const since = h.slack.calls.length;
    await h.action({
      userId: USERS.agent.id,
      actionId: ACTIONS.whitelistRemove,
      value: 'remove',
      message,
      responseUrl: h.slack.responseUrl('whitelist-buttons'),
    });
    const view = await modalShown(h, since, CALLBACKS.whitelistChange);
    expect(JSON.stringify(view.blocks)).toContain('*Current whitelist* (2): `198.51.100.1`, `198.51.100.2`');

    const refused = await submitModal(h, view, {
      [BLOCKS.ips]: typed('server1.example.com'),
      [BLOCKS.reason]: typed('retired'),
    });
    expect(refused).toEqual({
      response_action: 'errors',
      errors: { [BLOCKS.ips]: '"server1.example.com" is a host name; give its IP address' },
    });
    const notThere = await submitModal(h, view, {
      [BLOCKS.ips]: typed('192.0.2.99'),
      [BLOCKS.reason]: typed('retired'),
    });
    expect(notThere).toEqual({
      response_action: 'errors',
      errors: { [BLOCKS.ips]: '192.0.2.99 is not on the whitelist; nothing to remove.' },
    });

    const id = await submitChange(view, {
      [BLOCKS.ips]: typed('198.51.100.1'),
      [BLOCKS.reason]: typed('retired server'),
    });
    await leadApproves(id);
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist').map((r) => r.body)).toEqual([
      { allowedDNS: ['198.51.100.2'] },
    ]);
  });
});

describe('protection settings', () => {
  it('an agent changes opacity and unticks offline mode in the modal: only those two fields are sent', async () => {
    const view = await openModal(h, 'protect', CALLBACKS.protect);
    const untouched = await submitModal(
      h,
      view,
      valuesOf(view, { [BLOCKS.reason]: typed('tighter watermark') }),
    );
    expect(untouched).toEqual({
      response_action: 'errors',
      errors: { [BLOCKS.reason]: 'You have not changed any setting: change one, or close the form.' },
    });

    const values = valuesOf(view, {
      [protectFieldBlock('opacity')]: { [INPUT_ACTION]: { type: 'number_input', value: '0.3' } },
      [protectGroupBlock('player')]: { [INPUT_ACTION]: checkboxes(['player.securityProtection']) },
      [BLOCKS.reason]: typed('tighter watermark'),
    });
    const since = h.slack.calls.length;
    expect(await submitModal(h, view, values)).toMatchObject({ response_action: 'update' });
    const result = await modalStatus(h, since, view.id, /posted to/);
    expect(result).toContain('Text opacity (`opacity`): 0.6 → *0.3*');
    expect(result).toContain('Block offline mode (`player.offlineMode`): on → *off*');

    await leadApproves(requestIdIn(result));
    expect(upstream(h, 'POST', '/v1/storage/protect/config').map((r) => r.body)).toEqual([
      { opacity: 0.3, player: { offlineMode: false } },
    ]);
  });

  it('an agent changes the colour by name and the beep volume by text', async () => {
    const slash = await h.slash('protect set fontColor=red beepVolume=۰٫۲');
    const reply = JSON.stringify((await slash.reply()).body);
    expect(reply).toContain('Text colour (`fontColor`): yellow (#ffff00) → *red (#e74c3c)*');
    await leadApproves(requestIdIn(reply));
    expect(upstream(h, 'POST', '/v1/storage/protect/config').map((r) => r.body)).toEqual([
      { fontColor: '#e74c3c', beepVolume: 0.2 },
    ]);
  });
});

describe('folders, files and playlists', () => {
  it('an agent creates a folder with a Persian title', async () => {
    const view = await openModal(h, 'folder create', CALLBACKS.folderCreate);
    const id = await submitChange(
      view,
      valuesOf(view, {
        [BLOCKS.title]: typed('وبینارهای ۱۴۰۵'),
        [BLOCKS.description]: typed('Recorded webinars'),
        [BLOCKS.reason]: typed('marketing asked'),
      }),
    );
    await leadApproves(id);
    expect(upstream(h, 'POST', '/v1/storage/bucket').map((r) => r.body)).toEqual([
      { title: 'وبینارهای ۱۴۰۵', description: 'Recorded webinars' },
    ]);
  });

  it('an agent edits a file and uploads a cover: the service receives the image after approval', async () => {
    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
    h.slack.setFiles([{ id: 'F0COVER', name: 'cover.png', mimetype: 'image/png', content: png }]);
    const fileId = DEMO.files.lecture2;
    const view = await openModal(h, `file edit ${fileId}`, CALLBACKS.fileEdit);
    expect(valuesOf(view)[BLOCKS.title]?.[INPUT_ACTION]?.value).toBe('Lecture 2: Foundations');
    const url = `${h.slack.url}/files-pri/T0VIDOPS-F0COVER/cover.png`;
    const cover: ViewStateValue = {
      type: 'file_input',
      files: [
        {
          id: 'F0COVER',
          created: 1_700_000_000,
          timestamp: 1_700_000_000,
          name: 'cover.png',
          title: 'cover.png',
          filetype: 'png',
          mimetype: 'image/png',
          permalink: `${url}?permalink`,
          url_private: url,
          url_private_download: `${url}?download=1`,
          user: USERS.agent.id,
          user_team: 'T0VIDOPS',
        },
      ],
    };
    const id = await submitChange(
      view,
      valuesOf(view, {
        [BLOCKS.title]: typed('Lecture 2: Foundations (updated)'),
        [BLOCKS.cover]: { [INPUT_ACTION]: cover },
        [BLOCKS.reason]: typed('new artwork'),
      }),
    );
    await leadApproves(id);
    expect(upstream(h, 'POST', `/v1/storage/bucket/file/${fileId}`).map((r) => r.body)).toEqual([
      {
        fields: { fileId, title: 'Lecture 2: Foundations (updated)' },
        files: [{ field: 'file', filename: 'cover.png', size: png.byteLength, contentType: 'image/png' }],
      },
    ]);
  });

  it('an agent reorders a playlist in its modal', async () => {
    const playlistId = DEMO.playlists.gettingStarted;
    const view = await openModal(h, `playlist edit ${playlistId}`, CALLBACKS.playlistEdit);
    const lines = String(valuesOf(view)[BLOCKS.playlistFiles]?.[INPUT_ACTION]?.value).split('\n');
    expect(lines).toEqual([
      `${DEMO.files.lecture1} | Lecture 1: Introduction`,
      `${DEMO.files.lecture2} | Lecture 2: Foundations`,
      `${DEMO.files.teaser} | Product teaser`,
    ]);
    const id = await submitChange(
      view,
      valuesOf(view, {
        [BLOCKS.playlistFiles]: typed([lines[2], lines[0], `${DEMO.files.lecture5}`].join('\n')),
        [BLOCKS.reason]: typed('teaser first'),
      }),
    );
    await leadApproves(id);
    expect(upstream(h, 'PUT', '/v1/playlist').map((r) => r.body)).toEqual([
      {
        playlistId,
        title: 'Getting started',
        files: [
          { _id: DEMO.files.teaser, title: 'Product teaser' },
          { _id: DEMO.files.lecture1, title: 'Lecture 1: Introduction' },
          { _id: DEMO.files.lecture5 },
        ],
      },
    ]);
  });

  it('an agent asks to delete a playlist by typing its exact title', async () => {
    const playlistId = DEMO.playlists.podcastHighlights;
    const view = await openModal(h, `playlist delete ${playlistId}`, CALLBACKS.deleteConfirm);
    const id = await submitChange(
      view,
      valuesOf(view, {
        [BLOCKS.confirmText]: typed('Podcast highlights'),
        [BLOCKS.reason]: typed('season over'),
      }),
    );
    await leadApproves(id);
    expect(upstream(h, 'DELETE', '/v1/playlist').map((r) => r.body)).toEqual([{ playlistId }]);
  });

  it('editing a folder that does not exist says so in the modal, once the service has shown a folder', async () => {
    // Folder info has answered 200 once, so its 404 now means "no such folder" (not "no such route").
    await openModal(h, `folder edit ${DEMO.folders.lectures}`, CALLBACKS.folderEdit);
    const since = h.slack.calls.length;
    await h.slash('folder edit 6710a0000000000000000999');
    const said = await modalStatus(
      h,
      since,
      await until(() => {
        const open = h.slack.calls.slice(since).find((c) => c.method === 'views.open');
        const answered = open?.response.view;
        return typeof answered === 'object' && answered !== null && !Array.isArray(answered)
          ? String(answered.id)
          : undefined;
      }, 'the loading modal'),
      /no folder/,
    );
    expect(said).toContain('There is no folder 6710a0000000000000000999 on the service.');
  });
});

describe('requests and audit', () => {
  it('an agent sees their open request with Cancel; a lead sees it awaiting them with Approve and Reject', async () => {
    const asked = await h.slash('whitelist add 5.160.12.50', { userId: USERS.agent2.id });
    const id = requestIdIn(JSON.stringify((await asked.reply()).body));

    const mine = await h.slash('requests', { userId: USERS.agent2.id });
    const agentView = (await mine.reply()).body;
    expect(JSON.stringify(agentView)).toContain('*Your open requests* (1)');
    expect(agentView.blocks).toContainEqual(
      expect.objectContaining({
        accessory: expect.objectContaining({ action_id: ACTIONS.cancel, value: id }),
      }),
    );
    expect(JSON.stringify(agentView)).not.toContain('Awaiting your approval');

    const lead = await h.slash('requests', { userId: USERS.lead2.id });
    const leadView = JSON.stringify((await lead.reply()).body);
    expect(leadView).toContain('*Awaiting your approval*');
    expect(leadView).toContain(`"action_id":"${ACTIONS.approve}"`);
    expect(leadView).toContain(`"value":"${id}"`);

    // Approving from the `requests` list works like the approval message.
    const blocks = JSON.parse(leadView).blocks;
    const approved = await h.action({
      userId: USERS.lead2.id,
      actionId: ACTIONS.approve,
      value: id,
      message: { ts: '1.000002', channel: 'C0VIDOPS', text: 'requests', blocks },
      responseUrl: h.slack.responseUrl('from-list'),
    });
    expect(approved.status).toBe(200);
    await reaches(h, id, 'succeeded');
    expect(upstream(h, 'POST', '/v1/storage/dns/whitelist').map((r) => r.body)).toEqual([
      { allowedDNS: ['5.160.12.50'] },
    ]);
  });

  it('a lead reads the last audit events; an agent is refused politely and the refusal is audited', async () => {
    const lead = await h.slash('audit 5', { userId: USERS.lead.id });
    const leadReply = (await lead.reply()).body;
    expect(String(leadReply.text)).toMatch(/^Audit log: last 5 events #\d+–#\d+$/);

    const agent = await h.slash('audit', { userId: USERS.agent.id });
    expect(String((await agent.reply()).body.text)).toBe(
      'Only leads may run audit. Ask a lead to run `/vidops audit`; compliance can export the whole log with `npx vidops audit export`.',
    );
    await h.waitForAudit(
      (e) => e.type === 'denied' && e.operation === 'audit' && e.actor.id === USERS.agent.id,
    );
  });

  it('every change above is in the audit channel and the chain verifies', async () => {
    await expectAuditWitnessed(h);
    const errors = h.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });
});
