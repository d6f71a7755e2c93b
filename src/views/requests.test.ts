import { requestWith } from '../../test/fixtures/requests.js';
import type { OperationRequest } from '../core/model.js';
import { ENGLISH, langFor } from '../i18n/index.js';
import type { RequestsOverview } from '../services/types.js';
import { ACTIONS } from './ids.js';
import { checkBlockKitLimits } from './limits.js';
import { requestsMessage } from './requests.js';

const PERSIAN = 'پوشه‌ی درس‌های ترم پاییز با عنوان بسیار طولانی ۱۴۰۵';

function request(i: number, overrides: Partial<OperationRequest> = {}): OperationRequest {
  const id = `R-${String(i).padStart(8, '0')}`;
  return requestWith({
    id,
    operation: 'folder.create',
    params: { title: PERSIAN },
    paramsHash: 'f'.repeat(64),
    target: `new folder "${PERSIAN.repeat(5)}"`,
    preview: {
      kind: 'create',
      resource: 'folder',
      after: { title: PERSIAN.repeat(20), description: PERSIAN.repeat(20) },
    },
    reason: PERSIAN.repeat(20),
    requester: { id: 'U0AGENT2', name: PERSIAN },
    quorum: 2,
    ...overrides,
  });
}

const many = (n: number, overrides: Partial<OperationRequest> = {}) =>
  Array.from({ length: n }, (_, i) => request(i, overrides));

function texts(message: { blocks: unknown[] }): string {
  return JSON.stringify(message.blocks);
}

describe('/vidops requests', () => {
  it('a lead with 100 requests awaiting them and 100 of their own gets a message within Slack limits', () => {
    const overview: RequestsOverview = {
      awaitingMe: many(100),
      mine: [
        ...many(100, { requester: { id: 'U0LEAD1', name: 'Lena' } }),
        ...many(10, { state: 'succeeded' }),
      ],
    };
    const message = requestsMessage(overview, { isLead: true }, ENGLISH);
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    expect(texts(message)).toContain('*Awaiting your approval* (100)');
    expect(texts(message)).toMatch(/… and \d+ more requests awaiting you not shown/);
    expect(texts(message)).toMatch(/… and \d+ more open requests not shown/);
    expect(message.text).toBe('100 requests awaiting your approval; you have 100 open.');
  });

  it('an agent sees their open requests with Cancel and their finished ones, and no approval list', () => {
    const overview: RequestsOverview = {
      awaitingMe: [],
      mine: [request(1), request(2, { state: 'succeeded', quorum: 1 })],
    };
    const message = requestsMessage(overview, { isLead: false }, ENGLISH);
    const all = texts(message);
    expect(all).not.toContain('Awaiting your approval');
    expect(all).toContain('*Your open requests* (1)');
    expect(all).toContain('*Recently finished*');
    const cancel = message.blocks.find(
      (b) => b.type === 'section' && 'accessory' in b && b.accessory !== undefined,
    );
    expect(cancel).toMatchObject({ accessory: { action_id: ACTIONS.cancel, value: 'R-00000001' } });
    expect(all).not.toContain(ACTIONS.approve);
  });

  it('a lead with nothing to decide is told so', () => {
    const message = requestsMessage({ awaitingMe: [], mine: [] }, { isLead: true }, ENGLISH);
    expect(texts(message)).toContain('Nothing is waiting for you.');
    expect(texts(message)).toContain('You have no open requests.');
  });

  it('the requests awaiting a lead carry Approve and Reject, never Cancel', () => {
    const message = requestsMessage({ awaitingMe: [request(7)], mine: [] }, { isLead: true }, ENGLISH);
    const actions = message.blocks.find((b) => b.type === 'actions');
    expect(actions).toMatchObject({
      block_id: 'request_actions:R-00000007',
      elements: [
        { action_id: ACTIONS.approve, value: 'R-00000007' },
        { action_id: ACTIONS.reject, value: 'R-00000007' },
      ],
    });
    expect(JSON.stringify(actions)).not.toContain(ACTIONS.cancel);
  });

  it('a delegate sees Approve on what they approve in a lead’s place, and no Reject, which is not theirs', () => {
    const overview: RequestsOverview = {
      awaitingMe: [request(7), request(8)],
      mine: [],
      inPlace: ['R-00000008'],
    };
    const actions = requestsMessage(overview, { isLead: false }, ENGLISH).blocks.filter(
      (b) => b.type === 'actions',
    );
    expect(actions).toMatchObject([
      { elements: [{ action_id: ACTIONS.approve }, { action_id: ACTIONS.reject }] },
      {
        block_id: 'request_actions:R-00000008',
        elements: [{ action_id: ACTIONS.approve, value: 'R-00000008' }],
      },
    ]);
    expect(JSON.stringify(actions[1])).not.toContain(ACTIONS.reject);
  });

  it('a Persian-reading lead with 100 requests awaiting them and 100 of their own gets a message within Slack limits', () => {
    const fa = langFor('fa');
    const overview: RequestsOverview = {
      awaitingMe: many(100),
      mine: [
        ...many(100, { requester: { id: 'U0LEAD1', name: 'Lena' } }),
        ...many(10, { state: 'succeeded' }),
      ],
    };
    const message = requestsMessage(overview, { isLead: true }, fa);
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    expect(texts(message)).toContain('*در انتظار تأیید شما* (۱۰۰)');
    expect(texts(message)).toMatch(/… و [۰-۹]+ درخواست دیگر در انتظار شما/);
    expect(texts(message)).toContain('مهلت تا ۱ آذر ۱۴۰۵');
    expect(texts(message)).not.toContain('<!date^');
    expect(message.text).toBe('۱۰۰ درخواست در انتظار تأیید شماست؛ ۱۰۰ درخواست باز دارید.');
  });
});
