import { tmpdir } from 'node:os';
import { runCli } from '../../src/cli/run.js';
import type { JsonValue } from '../../src/core/json.js';
import type { RecordedCall } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS, BLOCKS, CALLBACKS } from '../../src/views/ids.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  hasButtons,
  modalStatus,
  notificationsDone,
  openModal,
  reaches,
  requestIdIn,
  submitModal,
  typed,
  until,
  valuesOf,
} from './change-helpers.js';

/**
 * Text from outside that tries to ping a channel or forge a link, end to end: an outsider types a
 * mention into `/vidops retry`, an agent deletes a folder whose title (set in the sandbox) is
 * hostile and creates one with a hostile title. What the fake Slack received in the audit
 * channel, the approval channel and the requester's DMs holds no live mention or link, neither
 * in a message's `text` nor in the mrkdwn of its blocks.
 * @see docs/architecture.md, "Audit log"
 */

const HOSTILE_TITLE = 'X <!channel> <https://evil.example|Click to approve>';
const HOSTILE_REASON = 'cleanup <!here> <@U0LEAD1> <#C0VIDOPS>';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(() => h.stop());

beforeEach(async () => {
  await notificationsDone(h);
  h.sandbox.reset();
});

/** Every text Slack parses as mrkdwn in a posted or updated message: `text` and mrkdwn objects. */
function mrkdwnOf(call: RecordedCall): string[] {
  const out: string[] = [];
  if (typeof call.args.text === 'string') out.push(call.args.text);
  const walk = (value: JsonValue | undefined): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      if (value.type === 'mrkdwn' && typeof value.text === 'string') out.push(value.text);
      Object.values(value).forEach(walk);
    }
  };
  walk(call.args.blocks);
  return out;
}

/** Messages posted to or updated in `channel` (all versions, not only the last). */
function sentTo(channel: string | ((channel: string) => boolean)): RecordedCall[] {
  const matches = typeof channel === 'string' ? (c: string) => c === channel : channel;
  return [...h.slack.callsTo('chat.postMessage'), ...h.slack.callsTo('chat.update')].filter((c) =>
    matches(String(c.args.channel)),
  );
}

/** The DM channels the app opened with `userId`. */
function dmChannels(userId: string): Set<string> {
  return new Set(
    h.slack
      .callsTo('conversations.open')
      .filter((c) => c.args.users === userId)
      .map((c) => {
        const channel = c.response.channel;
        return channel !== null && typeof channel === 'object' && !Array.isArray(channel)
          ? String(channel.id)
          : '';
      }),
  );
}

/** Our own live markup: dates, and the approval channel named in replies. */
const OURS = [
  /<!date\^\d+\^\{date_short_pretty\} \{time\}\|[^<>]*>/g,
  new RegExp(`<#${CHANNELS.approvals}>`, 'g'),
];

/** No `<!`, `<@`, `<#` or `<http` outside our own markup, in any message; returns all the mrkdwn. */
function expectNoLiveMarkup(calls: readonly RecordedCall[]): string {
  expect(calls.length).toBeGreaterThan(0);
  const texts = calls.flatMap(mrkdwnOf);
  for (const text of texts) {
    const rest = OURS.reduce((t, ours) => t.replace(ours, ''), text);
    expect({ text, live: rest.match(/<(!|@|#|http)[^>]*>?/g) ?? [] }).toEqual({ text, live: [] });
  }
  return texts.join('\n');
}

async function auditPosted(): Promise<void> {
  await until(
    async () => ((await h.store.outboxDepth()) === 0 ? true : undefined),
    'the audit outbox to drain',
  );
}

describe('nothing forged reaches a channel', () => {
  it('an outsider types `/vidops retry <!channel>`: the refusal is audited, and the audit channel shows it as text', async () => {
    // Slack sends what was typed as `<!channel>` escaped; vidops reads it back as `<!channel>`.
    const sent = await h.slash('retry &lt;!channel&gt;', { userId: USERS.outsider.id });
    await sent.reply();
    const denied = await h.waitForAudit((e) => e.type === 'denied' && e.actor.id === USERS.outsider.id);
    expect(denied.target).toBe('file <!channel>');
    await auditPosted();

    const posted = expectNoLiveMarkup(sentTo(CHANNELS.audit));
    expect(posted).toContain('file `&lt;!channel&gt;`');
    expect(posted).toContain('(U0OUTSIDE) refused: not one of the agents allowed to use vidops');
  });

  it('a folder titled with a mention and a forged link is deleted: approval message, DM and audit channel show it as text', async () => {
    const folder = DEMO.folders.lectures;
    const renamed = await fetch(`${h.sandbox.url}/v1/storage/bucket`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', api_key: DEMO.apiKey, secret_key: DEMO.secretKey },
      body: JSON.stringify({ bucketId: folder, title: HOSTILE_TITLE }),
    });
    expect(renamed.status).toBe(200);

    const view = await openModal(h, `folder delete ${folder}`, CALLBACKS.deleteConfirm);
    const since = h.slack.calls.length;
    await submitModal(
      h,
      view,
      valuesOf(view, { [BLOCKS.confirmText]: typed(folder), [BLOCKS.reason]: typed(HOSTILE_REASON) }),
    );
    const id = requestIdIn(await modalStatus(h, since, view.id, /posted to/));
    const message = await approvalMessage(h, id);
    const approve = await click(h, {
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      requestId: id,
      message,
    });
    await approve.reply();
    await reaches(h, id, 'succeeded');
    await approvalMessage(h, id, (m) => !hasButtons(m));
    await until(
      () => (sentTo((c) => dmChannels(USERS.agent.id).has(c)).length > 0 ? true : undefined),
      'a DM',
    );
    await auditPosted();

    const approvals = expectNoLiveMarkup(sentTo(CHANNELS.approvals));
    expect(approvals).toContain('X &lt;!channel&gt; &lt;https://evil.example|Click to approve&gt;');
    expect(approvals).toContain('cleanup &lt;!here&gt; &lt;@U0LEAD1&gt; &lt;#C0VIDOPS&gt;');
    expectNoLiveMarkup(sentTo((c) => dmChannels(USERS.agent.id).has(c)));
    const audit = expectNoLiveMarkup(sentTo(CHANNELS.audit));
    expect(audit).toContain(
      `delete folder \`${folder}\` (“X &lt;!channel&gt; &lt;https://evil.example|Click to approve&gt;”`,
    );
    expect(audit).toContain(`Folder \`${folder}\` deleted`);
  });

  it('a folder is created with a hostile title: the approval text, the DM and the audit channel keep it text', async () => {
    const view = await openModal(h, 'folder create', CALLBACKS.folderCreate);
    const since = h.slack.calls.length;
    await submitModal(
      h,
      view,
      valuesOf(view, {
        [BLOCKS.title]: typed(HOSTILE_TITLE),
        [BLOCKS.description]: typed('<!everyone> see <http://evil.example>'),
        [BLOCKS.reason]: typed(HOSTILE_REASON),
      }),
    );
    const id = requestIdIn(await modalStatus(h, since, view.id, /posted to/));
    const message = await approvalMessage(h, id);
    // The fallback text names the target, and the target of a new folder is its title.
    expect(message.text).toContain(
      'new folder "X &lt;!channel&gt; &lt;https://evil.example|Click to approve&gt;"',
    );
    const approve = await click(h, {
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      requestId: id,
      message,
    });
    await approve.reply();
    await reaches(h, id, 'succeeded');
    const dm = await until(() => {
      const dms = sentTo((c) => dmChannels(USERS.agent.id).has(c)).filter((c) =>
        String(c.args.text).includes(id),
      );
      return dms.length > 0 ? dms : undefined;
    }, 'the DM about the new folder');
    await auditPosted();

    expectNoLiveMarkup(sentTo(CHANNELS.approvals));
    expect(expectNoLiveMarkup(dm)).toContain('X &lt;!channel&gt;');
    const audit = expectNoLiveMarkup(sentTo(CHANNELS.audit));
    expect(audit).toContain(
      'Folder “X &lt;!channel&gt; &lt;https://evil.example|Click to approve&gt;” created',
    );
  });
});

// --- Bidi controls (issue 20) ---------------------------------------------------------------------

const FSI = '\u2068';
const PDI = '\u2069';
/** A reason with a right-to-left override, and a title with isolates (one never closed). */
const BIDI_REASON = 'abc\u202Edef R-00000000';
const BIDI_TITLE = 'Course \u2066one\u2069 \u2067two';
/** Every bidi control vidops never writes itself: overrides, embeddings, LRI, RLI, the marks. */
const FOREIGN_CONTROL = /[\u202A-\u202E\u2066\u2067\u200E\u200F\u061C]/;

/** No foreign bidi control, and every FSI closed by its PDI within the same text. */
function expectOwnIsolatesOnly(texts: readonly string[]): void {
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    let depth = 0;
    let negative = false;
    for (const ch of text) {
      if (ch === FSI) depth += 1;
      else if (ch === PDI) depth -= 1;
      if (depth < 0) negative = true;
    }
    expect({ text, foreign: FOREIGN_CONTROL.test(text), balanced: depth === 0 && !negative }).toEqual({
      text,
      foreign: false,
      balanced: true,
    });
  }
}

/** Every text Slack shows of a posted or updated message: `text`, mrkdwn and plain_text objects. */
function shownOf(call: RecordedCall): string[] {
  const out: string[] = [];
  if (typeof call.args.text === 'string') out.push(call.args.text);
  const walk = (value: JsonValue | undefined): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      if ((value.type === 'mrkdwn' || value.type === 'plain_text') && typeof value.text === 'string')
        out.push(value.text);
      Object.values(value).forEach(walk);
    }
  };
  walk(call.args.blocks);
  return out;
}

/** `vidops <args>` on the harness's own database, as an operator runs it beside the app. */
async function cli(args: string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: { DATABASE_URL: h.config.databaseUrl, LEADS: USERS.lead.id, AGENTS: USERS.agent.id },
    cwd: tmpdir(),
    osUser: 'lee',
  });
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return stdout;
}

describe('text that cannot reorder what approvers read', () => {
  it('a folder is asked for with an override in its reason and isolates in its title: Slack and the CLI show the letters, never the controls', async () => {
    const view = await openModal(h, 'folder create', CALLBACKS.folderCreate);
    const since = h.slack.calls.length;
    await submitModal(
      h,
      view,
      valuesOf(view, {
        [BLOCKS.title]: typed(BIDI_TITLE),
        [BLOCKS.description]: typed(`see \u202Ethe hash`),
        [BLOCKS.reason]: typed(BIDI_REASON),
      }),
    );
    const id = requestIdIn(await modalStatus(h, since, view.id, /posted to/));
    await approvalMessage(h, id);
    await auditPosted();

    const approvals = sentTo(CHANNELS.approvals).filter((c) => JSON.stringify(c.args).includes(id));
    const shown = approvals.flatMap(shownOf);
    expectOwnIsolatesOnly(shown);
    const all = shown.join('\n');
    expect(all).toContain('abcdef R-00000000');
    expect(all).toContain('Course one two');
    // The title is isolated in the English message, so it cannot carry the ID after it along.
    expect(all).toContain(`“${FSI}Course one two${PDI}”`);

    const audit = sentTo(CHANNELS.audit).flatMap(shownOf);
    expectOwnIsolatesOnly(audit);
    expect(audit.join('\n')).toContain('abcdef R-00000000');

    // The terminal honours bidi controls too: the English CLI prints none at all.
    const tail = await cli(['audit', 'tail', '-n', '20']);
    expect(tail).toContain('abcdef R-00000000');
    expect(tail).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
    const requests = await cli(['requests', '--all']);
    expect(requests).toContain(id);
    expect(requests).toContain('Course one two');
    expect(requests).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
  });
});
