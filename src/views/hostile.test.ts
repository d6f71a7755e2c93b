import { REQUEST_T0, requestWith, VIEW_NOW } from '../../test/fixtures/requests.js';
import { auditTailLine, requestLine as cliRequestLine, previewLines } from '../cli/format.js';
import { ValidationError } from '../client/errors.js';
import type { ProtectionConfig } from '../client/types.js';
import { COMMAND_HELP } from '../core/commands-help.js';
import type { JsonValue } from '../core/json.js';
import type { AuditEvent, OperationRequest, RequestState } from '../core/model.js';
import { escapeMrkdwn } from '../core/mrkdwn.js';
import { PLAYER_ERROR_CODES } from '../core/player-errors.js';
import { say } from '../core/said.js';
import { ENGLISH, type Lang, langFor } from '../i18n/index.js';
import { approvalMessage, requesterNotice, submittedMessage } from './approval.js';
import { auditListMessage } from './audit-list.js';
import { renderAuditPost } from './audit-post.js';
import { describeError, describeRecordedError } from './errors.js';
import {
  helpMessage,
  parseErrorMessage,
  problemMessage,
  protectionMessage,
  retryMessage,
  unblockMessage,
  unknownCodeMessage,
  whitelistMessage,
} from './everyday.js';
import { homeView } from './home.js';
import { problemLine, statusModal } from './modals/common.js';
import { deleteConfirmModal } from './modals/delete.js';
import { rejectModal } from './modals/reject.js';
import { fileEditModal, folderModal, playlistEditModal } from './modals/resources.js';
import { whitelistModal } from './modals/whitelist.js';
import { requestsMessage } from './requests.js';

/** A draft ID of the shape vidops gives out (the modals carry only this). */
const TEST_DRAFT_ID = 'x'.repeat(43);

/**
 * Hostile text from outside (a folder title, a reason, a name, the service's error, an ID someone
 * typed) through every message builder: nothing reaches Slack's mrkdwn as a live mention, channel
 * ping, link or date, neither in a message's `text` nor in its blocks; and plain_text is left
 * as typed (Slack does not parse it, so an escape there would show `&amp;`).
 */

const MARK = 'ZQX';

/** Each hostile value carries MARK, so a builder that silently drops the field fails the test. */
const HOSTILE: readonly [string, string][] = [
  ['the channel', `${MARK} <!channel>`],
  ['here', `${MARK} <!here>`],
  ['everyone', `${MARK} <!everyone>`],
  ['a user', `${MARK} <@U123>`],
  ['a channel link', `${MARK} <#C123>`],
  ['a link with a label', `${MARK} <https://evil.example|Click to approve>`],
  ['an escaped mention', `${MARK} &lt;!channel&gt;`],
  ['backticks around a mention', `${MARK} \`<!channel>\` *bold* \`\`\`<!here>\`\`\``],
];

/** Our own markup that is meant to be live: dates and the approval channel. */
const OURS = [/<!date\^\d+\^\{date_short_pretty\} \{time\}\|[^<>]*>/g, /<#C0APPROVALS>/g];
const APPROVAL_CHANNEL = 'C0APPROVALS';

/** Every text Slack parses as mrkdwn: the message `text` and every mrkdwn text object. */
function mrkdwnTexts(payload: unknown): string[] {
  const out: string[] = [];
  if (typeof payload === 'object' && payload !== null && 'text' in payload) {
    const text = (payload as { text: unknown }).text;
    if (typeof text === 'string') out.push(text);
  }
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const obj = value as Record<string, unknown>;
      if (obj.type === 'mrkdwn' && typeof obj.text === 'string') out.push(obj.text);
      for (const [key, item] of Object.entries(obj))
        if (key !== 'text' || typeof item !== 'string') walk(item);
    }
  };
  if (typeof payload === 'object' && payload !== null) {
    for (const [key, item] of Object.entries(payload)) if (key !== 'text') walk(item);
  }
  return out;
}

/** Every plain_text text object. */
function plainTexts(payload: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const obj = value as Record<string, unknown>;
      if (obj.type === 'plain_text' && typeof obj.text === 'string') out.push(obj.text);
      Object.values(obj).forEach(walk);
    }
  };
  walk(payload);
  return out;
}

function expectNothingLive(payload: unknown, hostile: string): void {
  const texts = mrkdwnTexts(payload);
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    const rest = OURS.reduce((t, ours) => t.replace(ours, ''), text);
    // No `<` at all is left once our own dates and channel are taken out: no `<!`, `<@`, `<#`, `<http`.
    expect({ text, live: /<[!@#h]/.test(rest), angle: rest.includes('<') }).toEqual({
      text,
      live: false,
      angle: false,
    });
    // Text that arrived escaped is escaped once more (`&amp;lt;`): never shown, or read, as `<`.
    if (hostile.includes('&lt;')) expect(text).not.toContain('&lt;!');
  }
  const all = texts.join('\n');
  expect(all).toContain(MARK);
  if (hostile.includes('&lt;')) expect(all).toContain('&amp;lt;!channel&amp;gt;');
  // Entities in plain_text would be shown as typed: only ever those the hostile text brought.
  if (!hostile.includes('&'))
    for (const text of plainTexts(payload)) expect(text).not.toMatch(/&(amp|lt|gt);/);
}

const T0 = REQUEST_T0;

function request(h: string, overrides: Partial<OperationRequest> = {}): OperationRequest {
  return requestWith({
    id: 'R-7K2M9QXA',
    operation: 'folder.create',
    params: { title: h },
    paramsHash: 'c'.repeat(64),
    target: `new folder "${h}"`,
    preview: { kind: 'create', resource: 'folder', after: { title: h, description: h } },
    reason: h,
    requester: { id: 'U0AGENT1', name: h },
    ...overrides,
  });
}

/** The request in each state, with the hostile text wherever that state shows outside data. */
function requestIn(state: RequestState, h: string): OperationRequest {
  const lead = { id: 'U0LEAD1', name: h };
  const approvals = [{ by: lead, at: T0 }];
  switch (state) {
    case 'pending':
      return request(h);
    case 'succeeded':
      return request(h, { state, approvals, result: { _id: 'f1', title: h } });
    case 'failed':
      return request(h, { state, approvals, error: { name: 'ValidationError', message: h, status: 400 } });
    case 'rejected':
    case 'cancelled':
      return request(h, { state, decidedBy: lead, decisionNote: h });
    default:
      return request(h, { state, approvals });
  }
}

/** A delete of a folder whose title is hostile, as the preview shows it. */
function deleteRequest(h: string): OperationRequest {
  const id = h.replace(/\s+/g, '');
  return request(h, {
    operation: 'folder.delete',
    params: { bucketId: id },
    target: `folder ${id}`,
    preview: { kind: 'delete', resource: 'folder', id, title: h, filesCount: 3 },
  });
}

function event(h: string, seq: number, overrides: Partial<AuditEvent> = {}): AuditEvent {
  const id = h.replace(/\s+/g, '');
  return {
    id: `e${seq}`,
    type: 'requested',
    at: T0,
    actor: { id: 'U0AGENT1', name: h },
    operation: 'folder.delete',
    target: `folder ${id}`,
    params: { bucketId: id },
    requestId: 'R-7K2M9QXA',
    outcome: {
      state: 'pending',
      reason: h,
      quorum: 1,
      expiresAt: T0,
      why: h,
      paramsHash: 'c'.repeat(64),
      preview: { kind: 'delete', resource: 'folder', id, title: h, filesCount: 3 },
    },
    error: null,
    seq,
    prevHash: '0'.repeat(64),
    hash: `${String(seq).padStart(12, '0')}${'d'.repeat(52)}`,
    ...overrides,
  };
}

/** One event of every kind, each carrying the hostile text where its line shows outside data. */
function eventsOfEveryKind(h: string): AuditEvent[] {
  const id = h.replace(/\s+/g, '');
  return [
    event(h, 1),
    event(h, 2, { type: 'approved', outcome: { approvals: 1, quorum: 1 } }),
    event(h, 3, { type: 'rejected', outcome: { note: h } }),
    event(h, 4, { type: 'cancelled', outcome: { note: h } }),
    event(h, 5, { type: 'expired', outcome: { expiresAt: T0, approvals: 0, quorum: 1 } }),
    event(h, 6, { type: 'executing', outcome: null }),
    event(h, 7, { type: 'succeeded', outcome: { _id: id, deleted: true, deletedFiles: 3, note: h } }),
    event(h, 8, { type: 'failed', outcome: null, error: { name: 'ServerError', message: h, status: 502 } }),
    event(h, 9, {
      type: 'denied',
      operation: 'file.retry',
      target: `file ${id}`,
      requestId: null,
      outcome: { action: 'command', reason: h },
    }),
    event(h, 10, { type: 'unknown', outcome: { note: h, since: T0 } }),
    event(h, 11, { type: 'resolved' as AuditEvent['type'], outcome: { how: h, note: h } }),
    event(h, 12, {
      type: 'succeeded',
      operation: 'folder.create',
      target: `new folder "${h}"`,
      params: { title: h },
    }),
  ];
}

const PROTECTION: ProtectionConfig = { opacity: 0.5, fontColor: '#ffff00' };

type Builder = (h: string, lang: Lang) => unknown;

const BUILDERS: readonly [string, Builder][] = [
  [
    'the approval message of a pending request',
    (h, lang) => approvalMessage(requestIn('pending', h), VIEW_NOW, lang),
  ],
  [
    'the approval message of a folder delete with a hostile title',
    (h, lang) => approvalMessage(deleteRequest(h), VIEW_NOW, lang),
  ],
  ...(['succeeded', 'failed', 'rejected', 'cancelled', 'expired', 'unknown'] as const).map(
    (state): [string, Builder] => [
      `the approval message updated to ${state}`,
      (h, lang) => approvalMessage(requestIn(state, h), VIEW_NOW, lang),
    ],
  ),
  ...(['pending', 'succeeded', 'failed', 'rejected', 'expired', 'unknown'] as const).map(
    (state): [string, Builder] => [
      `the requester's DM when ${state}`,
      (h, lang) => {
        const r = requestIn(state, h);
        // A pending request is only told about once it has an approval.
        return requesterNotice(
          state === 'pending' ? { ...r, approvals: [{ by: { id: 'U0LEAD1', name: h }, at: T0 }] } : r,
          lang,
        );
      },
    ],
  ),
  ['an audit channel post of one event', (h, lang) => renderAuditPost([event(h, 1)], lang)],
  [
    'an audit channel post of a batch of every kind',
    (h, lang) => renderAuditPost(eventsOfEveryKind(h), lang),
  ],
  ['`/vidops audit`', (h, lang) => auditListMessage(eventsOfEveryKind(h), 20, lang)],
  [
    'the answer to an unblock that failed',
    (h, lang) =>
      unblockMessage({
        lang,
        masked: '0912***6789',
        viewer: { actionType: h, blocked: true },
        warnings: [say.idShape('folder', h)],
        outcome: { kind: 'failed', requestId: 'R-7K2M9QXA', error: h },
      }),
  ],
  [
    'the answer to an unblock that was refused',
    (h, lang) =>
      unblockMessage({
        lang,
        masked: '0912***6789',
        viewer: { actionType: null, blocked: null },
        warnings: [],
        outcome: { kind: 'denied', reason: h },
      }),
  ],
  [
    'the answer to an unblock that ended oddly',
    (h, lang) =>
      unblockMessage({
        lang,
        masked: '0912***6789',
        viewer: { actionType: null, blocked: null },
        warnings: [],
        outcome: { kind: 'other', requestId: 'R-7K2M9QXA', state: h },
      }),
  ],
  [
    'the answer to a retry of a file with a hostile title and a typed ID',
    (h, lang) =>
      retryMessage({
        lang,
        fileId: h.replace(/\s+/g, ''),
        title: h,
        status: h,
        warnings: [say.idShape('folder', h)],
        outcome: { kind: 'succeeded', requestId: 'R-7K2M9QXA', answer: { message: h } },
      }),
  ],
  [
    'the answer to a retry that failed',
    (h, lang) =>
      retryMessage({
        lang,
        fileId: '671018d0403eba579a6f90e2',
        title: null,
        status: null,
        warnings: [],
        outcome: { kind: 'failed', requestId: 'R-7K2M9QXA', error: h },
      }),
  ],
  [
    'the answer to a retry waiting for approval',
    (h, lang) =>
      retryMessage({
        lang,
        fileId: '671018d0403eba579a6f90e2',
        title: h,
        status: null,
        warnings: [],
        outcome: {
          kind: 'pending',
          requestId: 'R-7K2M9QXA',
          why: say.whyRateLimit(3, h),
          approvalChannel: APPROVAL_CHANNEL,
        },
      }),
  ],
  ['the whitelist with hostile entries', (h, lang) => whitelistMessage([h, '203.0.113.7'], lang)],
  [
    'the protection settings with a hostile watermark and extras',
    (h, lang) =>
      protectionMessage(
        { ...PROTECTION, text: h } as ProtectionConfig,
        { [h]: h, extra: h } as Record<string, JsonValue>,
        lang,
      ),
  ],
  ['`explain` of a code nobody knows', (h, lang) => unknownCodeMessage(h, PLAYER_ERROR_CODES, lang)],
  [
    'a command that could not be read',
    (h, lang) => parseErrorMessage(`Unknown command "${h}".`, '/vidops unblock <mobile>', lang),
  ],
  [
    "the service's error, as the errors view words it",
    (h, lang) =>
      problemMessage(
        describeError(
          new ValidationError(`The video service answered 400 to POST /v1/x (folder.create): ${h}`, {
            status: 400,
            body: { message: h },
            operation: 'folder.create',
            method: 'POST',
            path: '/v1/storage/bucket',
            issues: [h],
          }),
          { timeoutMs: 10_000, lang },
        ).text,
      ),
  ],
  [
    'a recorded error, as the errors view words it',
    (h, lang) =>
      problemMessage(
        describeRecordedError({ name: 'Error', message: h, status: 418 }, { timeoutMs: 10_000, lang }),
      ),
  ],
  [
    'a change refused by the policy',
    (h, lang) => submittedMessage({ kind: 'denied', reason: h }, { approvalChannel: APPROVAL_CHANNEL }, lang),
  ],
  [
    'a change posted for approval',
    (h, lang) =>
      submittedMessage(
        { kind: 'pending', request: deleteRequest(h), why: say.whyRateLimit(3, h) },
        { approvalChannel: APPROVAL_CHANNEL, warnings: [say.idShape('folder', h)] },
        lang,
      ),
  ],
  [
    'a change that ran and failed',
    (h, lang) =>
      submittedMessage(
        { kind: 'executed', request: requestIn('failed', h), errorText: h },
        { approvalChannel: APPROVAL_CHANNEL },
        lang,
      ),
  ],
  [
    'a modal status line about a problem',
    (h, lang) => ({ view: statusModal('Create folder', [problemLine(h)], lang) }),
  ],
  ['the reject modal', (h, lang) => ({ view: rejectModal(deleteRequest(h), lang) })],
  [
    'the folder edit modal of a hostile folder',
    (h, lang) => ({
      view: folderModal(
        {
          mode: 'edit',
          bucketId: h.replace(/\s+/g, ''),
          current: { title: h, description: h },
          note: h,
          draftId: TEST_DRAFT_ID,
        },
        lang,
      ),
    }),
  ],
  [
    'the file edit modal of a hostile file',
    (h, lang) => ({
      view: fileEditModal(
        {
          fileId: h.replace(/\s+/g, ''),
          current: { title: h, description: h, hlsStatus: h },
          coverAllowed: false,
          draftId: TEST_DRAFT_ID,
        },
        lang,
      ),
    }),
  ],
  [
    'the playlist edit modal of a hostile playlist',
    (h, lang) => ({
      view: playlistEditModal(
        {
          playlistId: h.replace(/\s+/g, ''),
          current: { title: h, files: [{ _id: 'f1', title: h }] },
          draftId: TEST_DRAFT_ID,
        },
        lang,
      ),
    }),
  ],
  [
    'the delete confirmation of a hostile folder',
    (h, lang) => {
      const r = deleteRequest(h);
      return {
        view: deleteConfirmModal(
          {
            prepared: {
              operation: 'folder.delete',
              params: { bucketId: r.target.slice('folder '.length) },
              target: r.target,
              preview: {
                kind: 'delete',
                resource: 'folder',
                id: r.target.slice('folder '.length),
                title: h,
                filesCount: 3,
              },
              warnings: [say.idShape('folder', h)],
            },
            confirm: h.replace(/\s+/g, ''),
            title: h,
            draftId: TEST_DRAFT_ID,
          },
          lang,
        ),
      };
    },
  ],
  [
    'the whitelist modal',
    (h, lang) => ({ view: whitelistModal({ mode: 'remove', current: [h], draftId: TEST_DRAFT_ID }, lang) }),
  ],
  [
    'App Home',
    (h, lang) => ({
      view: homeView(
        {
          userId: 'U0LEAD1',
          isLead: true,
          overview: {
            awaitingMe: [requestIn('pending', h)],
            mine: [requestIn('rejected', h), requestIn('pending', h)],
          },
          protection: { error: h },
          audit: { scope: 'all', events: eventsOfEveryKind(h) },
          notice: h,
          builtAt: T0,
        },
        lang,
      ),
    }),
  ],
  [
    'the requests list',
    (h, lang) =>
      requestsMessage(
        { awaitingMe: [deleteRequest(h)], mine: [requestIn('pending', h), requestIn('failed', h)] },
        { isLead: true },
        lang,
      ),
  ],
];

describe.each(HOSTILE)('hostile text (%s) reaches no message as a live mention or link', (_what, hostile) => {
  it.each(BUILDERS)('%s', (_builder, build) => {
    expectNothingLive(build(hostile, ENGLISH), hostile);
  });
});

describe('the usage lines of `/vidops help` are text, not links', () => {
  it('`<mobile>` in the fallback text is escaped like in the blocks', () => {
    const message = helpMessage(COMMAND_HELP, { isLead: true }, ENGLISH);
    expect(message.text).toContain('&lt;mobile&gt;');
    expect(message.text).not.toContain('<mobile>');
  });
});

describe('plain_text is shown as typed, never escaped', () => {
  const h = `${MARK} <!channel> & <@U123>`;

  it('the Approve confirmation quotes the target as typed', () => {
    const plain = plainTexts(approvalMessage(requestIn('pending', h), VIEW_NOW, ENGLISH));
    expect(plain.some((t) => t.includes('<!channel> & <@U123>'))).toBe(true);
  });

  it('a modal keeps the current title as typed in its input', () => {
    const view = folderModal(
      {
        mode: 'edit',
        bucketId: 'f1',
        current: { title: h, description: null },
        draftId: TEST_DRAFT_ID,
      },
      ENGLISH,
    );
    expect(JSON.stringify(view)).toContain(`"initial_value":${JSON.stringify(h)}`);
    expect(plainTexts(view).join('\n')).not.toMatch(/&(amp|lt|gt);/);
  });

  it('the one escape turns `&` first, so an entity typed as text stays text', () => {
    expect(escapeMrkdwn('&lt;!channel&gt; <!here> a & b')).toBe(
      '&amp;lt;!channel&amp;gt; &lt;!here&gt; a &amp; b',
    );
  });
});

// --- Bidi controls: text from outside cannot reorder what approvers read ---------------

const FSI = '\u2068';
const PDI = '\u2069';
const PERSIAN = langFor('fa');

/**
 * Bidi controls a reason, a title, a name or the service's answer may carry: overrides,
 * embeddings, isolates (one never closed, one closing nothing) and marks. Each keeps MARK.
 */
const BIDI_HOSTILE: readonly [string, string][] = [
  ['a right-to-left override', `${MARK} abc\u202Edef`],
  ['isolates', `${MARK} \u2066new\u2069 \u2067R-1\u2069 \u2068open`],
  ['a closing isolate alone', `${MARK} shut\u2069 R-1`],
  ['embeddings and their pop', `${MARK} \u202Ba\u202Cb \u202Ac\u202C \u202Dd`],
  ['the marks', `${MARK} a\u200Eb\u200Fc\u061Cd`],
];

/** Every bidi control but FSI and PDI, the only ones vidops writes itself. */
const FOREIGN_CONTROL = /[\u202A-\u202E\u2066\u2067\u200E\u200F\u061C]/;

/** The marks `Intl` writes in Persian (after the list comma, before a minus sign): ours, not outside text. */
const INTL_MARKS = /\u060C\u200F|\u200E\u2212/g;

/** Every string a person is shown: the message `text`, every text object, the modal's title. */
function shownTexts(payload: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      // What a person types into, and what only vidops reads back, is not shown as text.
      if (
        !['initial_value', 'value', 'private_metadata', 'action_id', 'block_id', 'callback_id'].includes(key)
      )
        out.push(value);
    } else if (Array.isArray(value)) for (const item of value) walk(item, key);
    else if (typeof value === 'object' && value !== null)
      for (const [k, item] of Object.entries(value)) walk(item, k);
  };
  walk(payload, '');
  return out;
}

/** Where isolates do not pair up inside one text: a PDI closing nothing, or an FSI left open. */
function unbalanced(text: string): string | null {
  let depth = 0;
  for (const ch of text) {
    if (ch === FSI) depth += 1;
    else if (ch === PDI) depth -= 1;
    if (depth < 0) return 'a PDI that closes nothing';
  }
  return depth === 0 ? null : `${depth} FSI left open`;
}

function expectNoForeignBidi(payload: unknown, lang: Lang, mark: string | null = MARK): void {
  const texts = shownTexts(payload);
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    const rest = lang.locale === 'fa' ? text.replace(INTL_MARKS, '') : text;
    expect({ text, foreign: FOREIGN_CONTROL.exec(rest)?.[0] ?? null, unbalanced: unbalanced(text) }).toEqual({
      text,
      foreign: null,
      unbalanced: null,
    });
  }
  if (mark !== null) expect(texts.join('\n')).toContain(mark);
}

describe.each([
  ['English', ENGLISH],
  ['Persian', PERSIAN],
])('in %s', (_language, lang) => {
  describe.each(BIDI_HOSTILE)('text with %s reaches no message with its bidi controls', (_what, hostile) => {
    it.each(BUILDERS)('%s', (_builder, build) => {
      expectNoForeignBidi(build(hostile, lang), lang);
    });
  });
});

describe('a request with a right-to-left override in its reason and isolates in its title', () => {
  const reason = 'abc\u202Edef';
  const title = 'Course \u2066one\u2069 \u2067two';
  const created = requestWith({
    id: 'R-7K2M9QXA',
    operation: 'folder.create',
    params: { title },
    target: `new folder "${title}"`,
    preview: { kind: 'create', resource: 'folder', after: { title, description: title } },
    reason,
  });

  it.each([
    ['English', ENGLISH],
    ['Persian', PERSIAN],
  ])('the approval message (%s) shows the letters without the controls', (_language, lang) => {
    const message = approvalMessage(created, VIEW_NOW, lang);
    expectNoForeignBidi(message, lang, 'abcdef');
    const all = shownTexts(message).join('\n');
    expect(all).toContain('abcdef');
    expect(all).toContain('Course one two');
  });

  it('the audit channel shows the letters without the controls', () => {
    const posted = renderAuditPost([
      event(reason, 1, {
        target: `new folder "${title}"`,
        operation: 'folder.create',
        params: { title },
        outcome: { state: 'pending', reason, quorum: 1, expiresAt: T0 },
      }),
    ]);
    expectNoForeignBidi(posted, ENGLISH, 'abcdef');
    expect(shownTexts(posted).join('\n')).toContain('abcdef');
  });
});

describe('outside text in an English line is isolated, so it cannot reorder what follows it', () => {
  const title = 'دوره ۱۲';
  const reason = 'حذف شود 3';
  const deleting = request(title, {
    operation: 'folder.delete',
    params: { bucketId: '6710a1b2c3d4e5f6a7b8c9d0' },
    target: 'folder 6710a1b2c3d4e5f6a7b8c9d0',
    preview: { kind: 'delete', resource: 'folder', id: '6710a1b2c3d4e5f6a7b8c9d0', title, filesCount: 3 },
    reason,
    requester: { id: 'U0AGENT1', name: 'علی' },
  });

  it('the approval message isolates the title, the reason and the name of who asked', () => {
    const all = shownTexts(approvalMessage(deleting, VIEW_NOW, ENGLISH)).join('\n');
    expect(all).toContain(`“${FSI}${title}${PDI}”`);
    expect(all).toContain(`${FSI}${reason}${PDI}`);
    expect(all).toContain(`${FSI}علی${PDI}`);
  });

  it('the approval message of a new folder isolates its target, the title inside it', () => {
    const created = request(title, { reason: null });
    const message = approvalMessage(created, VIEW_NOW, ENGLISH);
    expect(shownTexts(message).join('\n')).toContain(`${FSI}\`new folder "${title}"\`${PDI}`);
    expect(message.text).toContain(`${FSI}new folder "${title}"${PDI}`);
  });

  it('a title and a name in plain ASCII stay as they are: they cannot move anything in an English line', () => {
    const plainAscii = request('Course lectures', {
      reason: 'ticket 42',
      requester: { id: 'U0AGENT1', name: 'ana' },
    });
    const all = shownTexts(approvalMessage(plainAscii, VIEW_NOW, ENGLISH)).join('\n');
    expect(all).toContain('“Course lectures”');
    expect(all).toContain('*Reason:* ticket 42');
    expect(all).not.toContain(FSI);
  });

  it('a title whose only non-ASCII character was an override is isolated all the same', () => {
    const all = shownTexts(approvalMessage(request('abc\u202Edef'), VIEW_NOW, ENGLISH)).join('\n');
    expect(all).toContain(`“${FSI}abcdef${PDI}”`);
  });

  it('the audit channel isolates the title and the reason', () => {
    const all = shownTexts(
      renderAuditPost([event(title, 1, { outcome: { reason, preview: deleting.preview } })]),
    ).join('\n');
    expect(all).toContain(`“${FSI}${title}${PDI}”`);
    expect(all).toContain(`${FSI}${reason}${PDI}`);
  });
});

describe('the terminal honours bidi controls too: the CLI prints none from outside text', () => {
  /** Every bidi control, FSI and PDI included: the English CLI writes no isolates of its own. */
  const ANY_CONTROL = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

  it.each(BIDI_HOSTILE)('`vidops audit tail` of every kind of event with %s', (_what, hostile) => {
    const lines = eventsOfEveryKind(hostile).map((e) => auditTailLine(e, ENGLISH));
    for (const line of lines) {
      expect({ line, control: ANY_CONTROL.exec(line)?.[0] ?? null }).toEqual({ line, control: null });
    }
    expect(lines.join('\n')).toContain(MARK);
    for (const e of eventsOfEveryKind(hostile)) {
      const persian = auditTailLine(e, PERSIAN);
      expect({
        persian,
        foreign: FOREIGN_CONTROL.exec(persian)?.[0] ?? null,
        unbalanced: unbalanced(persian),
      }).toEqual({ persian, foreign: null, unbalanced: null });
    }
  });

  it.each(BIDI_HOSTILE)('`vidops requests` and the preview of a request with %s', (_what, hostile) => {
    for (const r of [requestIn('pending', hostile), deleteRequest(hostile), requestIn('failed', hostile)]) {
      for (const line of [cliRequestLine(r, VIEW_NOW, ENGLISH), ...previewLines(r, ENGLISH)]) {
        expect({ line, control: ANY_CONTROL.exec(line)?.[0] ?? null }).toEqual({ line, control: null });
      }
      for (const line of [cliRequestLine(r, VIEW_NOW, PERSIAN), ...previewLines(r, PERSIAN)]) {
        expect({
          line,
          foreign: FOREIGN_CONTROL.exec(line)?.[0] ?? null,
          unbalanced: unbalanced(line),
        }).toEqual({
          line,
          foreign: null,
          unbalanced: null,
        });
      }
    }
  });

  it('`vidops audit tail` shows a reason with an override as its letters', () => {
    const line = auditTailLine(event('abc\u202Edef', 1), ENGLISH);
    expect(line).toContain('“abcdef”');
  });
});
