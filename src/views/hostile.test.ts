import { REQUEST_T0, requestWith, VIEW_NOW } from '../../test/fixtures/requests.js';
import { ValidationError } from '../client/errors.js';
import type { ProtectionConfig } from '../client/types.js';
import { COMMAND_HELP } from '../core/commands-help.js';
import type { JsonValue } from '../core/json.js';
import type { AuditEvent, OperationRequest, RequestState } from '../core/model.js';
import { escapeMrkdwn } from '../core/mrkdwn.js';
import { PLAYER_ERROR_CODES } from '../core/player-errors.js';
import { say } from '../core/said.js';
import { ENGLISH } from '../i18n/index.js';
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

type Builder = (h: string) => unknown;

const BUILDERS: readonly [string, Builder][] = [
  [
    'the approval message of a pending request',
    (h) => approvalMessage(requestIn('pending', h), VIEW_NOW, ENGLISH),
  ],
  [
    'the approval message of a folder delete with a hostile title',
    (h) => approvalMessage(deleteRequest(h), VIEW_NOW, ENGLISH),
  ],
  ...(['succeeded', 'failed', 'rejected', 'cancelled', 'expired', 'unknown'] as const).map(
    (state): [string, Builder] => [
      `the approval message updated to ${state}`,
      (h) => approvalMessage(requestIn(state, h), VIEW_NOW, ENGLISH),
    ],
  ),
  ...(['pending', 'succeeded', 'failed', 'rejected', 'expired', 'unknown'] as const).map(
    (state): [string, Builder] => [
      `the requester's DM when ${state}`,
      (h) => {
        const r = requestIn(state, h);
        // A pending request is only told about once it has an approval.
        return requesterNotice(
          state === 'pending' ? { ...r, approvals: [{ by: { id: 'U0LEAD1', name: h }, at: T0 }] } : r,
          ENGLISH,
        );
      },
    ],
  ),
  ['an audit channel post of one event', (h) => renderAuditPost([event(h, 1)])],
  ['an audit channel post of a batch of every kind', (h) => renderAuditPost(eventsOfEveryKind(h))],
  ['`/vidops audit`', (h) => auditListMessage(eventsOfEveryKind(h), 20, ENGLISH)],
  [
    'the answer to an unblock that failed',
    (h) =>
      unblockMessage({
        lang: ENGLISH,
        masked: '0912***6789',
        viewer: { actionType: h, blocked: true },
        warnings: [say.idShape('folder', h)],
        outcome: { kind: 'failed', requestId: 'R-7K2M9QXA', error: h },
      }),
  ],
  [
    'the answer to an unblock that was refused',
    (h) =>
      unblockMessage({
        lang: ENGLISH,
        masked: '0912***6789',
        viewer: { actionType: null, blocked: null },
        warnings: [],
        outcome: { kind: 'denied', reason: h },
      }),
  ],
  [
    'the answer to an unblock that ended oddly',
    (h) =>
      unblockMessage({
        lang: ENGLISH,
        masked: '0912***6789',
        viewer: { actionType: null, blocked: null },
        warnings: [],
        outcome: { kind: 'other', requestId: 'R-7K2M9QXA', state: h },
      }),
  ],
  [
    'the answer to a retry of a file with a hostile title and a typed ID',
    (h) =>
      retryMessage({
        lang: ENGLISH,
        fileId: h.replace(/\s+/g, ''),
        title: h,
        status: h,
        warnings: [say.idShape('folder', h)],
        outcome: { kind: 'succeeded', requestId: 'R-7K2M9QXA', answer: { message: h } },
      }),
  ],
  [
    'the answer to a retry that failed',
    (h) =>
      retryMessage({
        lang: ENGLISH,
        fileId: '671018d0403eba579a6f90e2',
        title: null,
        status: null,
        warnings: [],
        outcome: { kind: 'failed', requestId: 'R-7K2M9QXA', error: h },
      }),
  ],
  [
    'the answer to a retry waiting for approval',
    (h) =>
      retryMessage({
        lang: ENGLISH,
        fileId: '671018d0403eba579a6f90e2',
        title: h,
        status: null,
        warnings: [],
        outcome: { kind: 'pending', requestId: 'R-7K2M9QXA', why: h, approvalChannel: APPROVAL_CHANNEL },
      }),
  ],
  ['the whitelist with hostile entries', (h) => whitelistMessage([h, '203.0.113.7'], ENGLISH)],
  [
    'the protection settings with a hostile watermark and extras',
    (h) =>
      protectionMessage(
        { ...PROTECTION, text: h } as ProtectionConfig,
        { [h]: h, extra: h } as Record<string, JsonValue>,
        ENGLISH,
      ),
  ],
  ['`explain` of a code nobody knows', (h) => unknownCodeMessage(h, PLAYER_ERROR_CODES, ENGLISH)],
  [
    'a command that could not be read',
    (h) => parseErrorMessage(`Unknown command "${h}".`, '/vidops unblock <mobile>', ENGLISH),
  ],
  [
    "the service's error, as the errors view words it",
    (h) =>
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
          { timeoutMs: 10_000 },
        ).text,
      ),
  ],
  [
    'a recorded error, as the errors view words it',
    (h) =>
      problemMessage(
        describeRecordedError({ name: 'Error', message: h, status: 418 }, { timeoutMs: 10_000 }),
      ),
  ],
  [
    'a change refused by the policy',
    (h) => submittedMessage({ kind: 'denied', reason: h }, { approvalChannel: APPROVAL_CHANNEL }, ENGLISH),
  ],
  [
    'a change posted for approval',
    (h) =>
      submittedMessage(
        { kind: 'pending', request: deleteRequest(h), why: h },
        { approvalChannel: APPROVAL_CHANNEL, warnings: [say.idShape('folder', h)] },
        ENGLISH,
      ),
  ],
  [
    'a change that ran and failed',
    (h) =>
      submittedMessage(
        { kind: 'executed', request: requestIn('failed', h), errorText: h },
        { approvalChannel: APPROVAL_CHANNEL },
        ENGLISH,
      ),
  ],
  ['a modal status line about a problem', (h) => ({ view: statusModal('Create folder', [problemLine(h)]) })],
  ['the reject modal', (h) => ({ view: rejectModal(deleteRequest(h)) })],
  [
    'the folder edit modal of a hostile folder',
    (h) => ({
      view: folderModal(
        {
          mode: 'edit',
          bucketId: h.replace(/\s+/g, ''),
          current: { title: h, description: h },
          note: h,
          draftId: TEST_DRAFT_ID,
        },
        ENGLISH,
      ),
    }),
  ],
  [
    'the file edit modal of a hostile file',
    (h) => ({
      view: fileEditModal(
        {
          fileId: h.replace(/\s+/g, ''),
          current: { title: h, description: h, hlsStatus: h },
          coverAllowed: false,
          draftId: TEST_DRAFT_ID,
        },
        ENGLISH,
      ),
    }),
  ],
  [
    'the playlist edit modal of a hostile playlist',
    (h) => ({
      view: playlistEditModal(
        {
          playlistId: h.replace(/\s+/g, ''),
          current: { title: h, files: [{ _id: 'f1', title: h }] },
          draftId: TEST_DRAFT_ID,
        },
        ENGLISH,
      ),
    }),
  ],
  [
    'the delete confirmation of a hostile folder',
    (h) => {
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
          ENGLISH,
        ),
      };
    },
  ],
  [
    'the whitelist modal',
    (h) => ({ view: whitelistModal({ mode: 'remove', current: [h], draftId: TEST_DRAFT_ID }) }),
  ],
  [
    'App Home',
    (h) => ({
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
        ENGLISH,
      ),
    }),
  ],
  [
    'the requests list',
    (h) =>
      requestsMessage(
        { awaitingMe: [deleteRequest(h)], mine: [requestIn('pending', h), requestIn('failed', h)] },
        { isLead: true },
        ENGLISH,
      ),
  ],
];

describe.each(HOSTILE)('hostile text (%s) reaches no message as a live mention or link', (_what, hostile) => {
  it.each(BUILDERS)('%s', (_builder, build) => {
    expectNothingLive(build(hostile), hostile);
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
