import { REQUEST_T0, requestWith } from '../../test/fixtures/requests.js';
import type { AuditEvent, OperationRequest } from '../core/model.js';
import { ENGLISH } from '../i18n/index.js';
import { type HomeModel, homeNotAllowedView, homeView } from './home.js';
import { ACTIONS } from './ids.js';
import { checkBlockKitLimits } from './limits.js';

const T0 = REQUEST_T0;
const PERSIAN = 'فهرست پخش آموزش‌های مقدماتی با عنوانی بسیار طولانی ۱۴۰۵';

function request(id: string, overrides: Partial<OperationRequest> = {}): OperationRequest {
  return requestWith({
    id,
    operation: 'playlist.edit',
    params: { playlistId: '6710c0000000000000000301', title: PERSIAN },
    paramsHash: 'c'.repeat(64),
    target: 'playlist 6710c0000000000000000301',
    preview: {
      kind: 'edit',
      resource: 'playlist',
      id: '6710c0000000000000000301',
      before: { title: PERSIAN, files: [] },
      after: {
        title: PERSIAN.repeat(30),
        files: Array.from({ length: 100 }, (_, i) => ({ _id: `F${i}`, title: PERSIAN })),
      },
    },
    reason: PERSIAN.repeat(30),
    requester: { id: 'U0AGENT1', name: PERSIAN },
    ...overrides,
  });
}

function event(seq: number): AuditEvent {
  return {
    id: `e${seq}`,
    type: 'requested',
    at: T0,
    actor: { id: 'U0AGENT1', name: PERSIAN },
    operation: 'viewer.unblock',
    target: 'viewer 09123456789',
    params: { mobileNumber: '09123456789' },
    requestId: `R-${String(seq).padStart(8, '0')}`,
    outcome: { reason: PERSIAN.repeat(10) },
    error: null,
    seq,
    prevHash: '0'.repeat(64),
    hash: 'd'.repeat(64),
  };
}

const ids = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `R-${prefix}${String(i).padStart(7, '0')}`);

function model(overrides: Partial<HomeModel> = {}): HomeModel {
  return {
    userId: 'U0LEAD1',
    isLead: true,
    overview: {
      awaitingMe: ids('A', 100).map((id) => request(id)),
      mine: [
        ...ids('M', 100).map((id) => request(id, { requester: { id: 'U0LEAD1', name: 'Lena' } })),
        ...ids('F', 10).map((id) => request(id, { state: 'rejected', decisionNote: PERSIAN })),
      ],
    },
    protection: {
      opacity: 0.6,
      fontColor: '#ffff00',
      player: { offlineMode: true },
      link: { expireTime: '2h' },
    },
    audit: { scope: 'all', events: Array.from({ length: 100 }, (_, i) => event(i + 1)) },
    notice: `Request R-A0000001 cannot be approved: ${PERSIAN.repeat(40)}`,
    builtAt: T0,
    ...overrides,
  };
}

describe('App Home', () => {
  it('a lead with 100 requests awaiting them, 100 open ones and 100 audit events gets a tab within the limits', () => {
    const view = homeView(model(), ENGLISH);
    expect(checkBlockKitLimits({ view }, 'home')).toEqual([]);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const all = JSON.stringify(view.blocks);
    expect(all).toContain('Awaiting your approval (100)');
    expect(all).toContain('… and 85 more requests awaiting you');
    expect(all).toContain('… and 85 more open requests');
    expect(all).toContain('Recent audit events');
    expect(all).toContain('*#100*');
    expect(all).not.toContain('*#90*');
    expect(all).toContain('0912***6789');
    expect(all).not.toContain('09123456789');
    expect(all).toContain(ACTIONS.homeRefresh);
  });

  it('an agent sees their requests with Cancel, the settings and their own activity, and nothing to approve', () => {
    const view = homeView(
      model({
        userId: 'U0AGENT1',
        isLead: false,
        overview: { awaitingMe: [], mine: [request('R-00000001')] },
        audit: { scope: 'mine', events: [event(1)] },
        notice: null,
      }),
      ENGLISH,
    );
    const all = JSON.stringify(view.blocks);
    expect(checkBlockKitLimits({ view }, 'home')).toEqual([]);
    expect(all).not.toContain('Awaiting your approval');
    expect(all).not.toContain(ACTIONS.approve);
    expect(all).toContain(ACTIONS.cancel);
    expect(all).toContain('Your recent activity');
    expect(all).toContain('Text colour: yellow (#ffff00)');
    expect(all).toContain('Link expiry: 2h');
  });

  it('someone outside AGENTS gets a tab that shows no data', () => {
    const view = homeNotAllowedView(ENGLISH);
    expect(checkBlockKitLimits({ view }, 'home')).toEqual([]);
    expect(view.blocks).toHaveLength(2);
  });

  it('says when the settings could not be read', () => {
    const view = homeView(
      model({ protection: { error: 'The video service did not answer within 2 s.' } }),
      ENGLISH,
    );
    expect(JSON.stringify(view.blocks)).toContain(
      'The settings could not be read: The video service did not answer within 2 s.',
    );
  });
});
