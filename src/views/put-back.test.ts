import { REQUEST_T0, requestWith, VIEW_NOW } from '../../test/fixtures/requests.js';
import type { OperationRequest } from '../core/model.js';
import { newTimeBox, type TimeBox } from '../core/time-box.js';
import { ENGLISH, langFor } from '../i18n/index.js';
import {
  approvalMessage,
  putBackEscalationMessage,
  putBackReminderMessage,
  requesterNotice,
  settledTimeBoxMessage,
  submittedMessage,
} from './approval.js';
import type { SlackMessage } from './blocks.js';
import { homeView } from './home.js';
import { ACTIONS } from './ids.js';
import { checkBlockKitLimits } from './limits.js';
import { requestsMessage } from './requests.js';

const PERSIAN = langFor('fa');
const HOUR = 3_600_000;
const APPLIED = '2026-11-21T10:30:00.000Z';
const ENDS = '2026-11-21T12:30:00.000Z';

function box(fields: Partial<TimeBox> = {}): TimeBox {
  return {
    ...newTimeBox({ kind: 'for', ms: 2 * HOUR, text: '2h' }),
    endsAt: ENDS,
    ...fields,
  };
}

/** Ana's `protect set preventZoom=true for 2h`, approved by Lena and applied at 10:30. */
function protection(fields: Partial<Record<keyof OperationRequest, unknown>> = {}): OperationRequest {
  return requestWith({
    id: 'R-7QK2M9XD',
    operation: 'protect.set',
    params: { changes: { preventZoom: true } },
    target: 'protection settings',
    preview: { kind: 'protection', rows: [{ field: 'preventZoom', before: false, after: true }] },
    reason: 'a viewer zooms in to read the watermark',
    state: 'succeeded',
    approvals: [{ by: { id: 'U0LEAD1', name: 'Lena' }, at: APPLIED }],
    updatedAt: APPLIED,
    timeBox: box(),
    undo: { kind: 'protection', rows: [{ field: 'preventZoom', before: false, after: true }] },
    ...fields,
  });
}

/** Everything a person reads in a message, and the action IDs of its buttons. */
function read(message: SlackMessage): string {
  return `${message.text}\n${JSON.stringify(message.blocks)}`;
}

function actionIds(message: SlackMessage): string[] {
  return message.blocks.flatMap((b) =>
    b.type === 'actions'
      ? b.elements.flatMap((e) => ('action_id' in e && e.action_id ? [e.action_id] : []))
      : [],
  );
}

function fits(message: SlackMessage): void {
  expect(checkBlockKitLimits(message, 'message')).toEqual([]);
}

describe('a time-boxed change on its approval message', () => {
  it('an agent asks for preventZoom on for 2 hours: while it waits for a lead, the message says how long, from when it is applied', () => {
    const pending = protection({
      state: 'pending',
      approvals: [],
      updatedAt: REQUEST_T0,
      timeBox: box({ endsAt: null }),
    });
    const message = approvalMessage(pending, VIEW_NOW, ENGLISH);
    expect(read(message)).toContain(':hourglass: *Time-boxed:* for 2 hours (until about');
    expect(actionIds(message)).toEqual([ACTIONS.approve, ACTIONS.reject, ACTIONS.cancel, ACTIONS.remind]);
    fits(message);
  });

  it('a lead approves it: the message says when it goes back and offers Put back now (confirmed) and Extend…', () => {
    const message = approvalMessage(protection(), VIEW_NOW, ENGLISH);
    expect(read(message)).toContain('*Time-boxed:* goes back at');
    expect(read(message)).toContain('in 2 hours');
    expect(actionIds(message)).toEqual([ACTIONS.putBackNow, ACTIONS.extend]);
    expect(JSON.stringify(message.blocks)).toContain('Put R-7QK2M9XD back now?');
    fits(message);
  });

  it('vidops is putting it back: the buttons are gone and the message names the put-back request', () => {
    const message = approvalMessage(
      protection({ timeBox: box({ state: 'running', requestId: 'R-PB000001' }) }),
      VIEW_NOW,
      ENGLISH,
    );
    expect(read(message)).toContain('putting back… (request *R-PB000001*)');
    expect(actionIds(message)).toEqual([]);
  });

  it('the service is down at the end: the message says putting back failed, retrying, with the last error, and keeps Put back now', () => {
    const message = approvalMessage(
      protection({
        timeBox: box({
          state: 'retrying',
          requestId: 'R-PB000001',
          attempts: 2,
          nextAt: '2026-11-21T12:34:00.000Z',
          failingSince: ENDS,
          lastError: { name: 'NetworkError', message: 'connect ECONNREFUSED' },
        }),
      }),
      VIEW_NOW,
      ENGLISH,
    );
    expect(read(message)).toContain('putting back failed, retrying at');
    expect(read(message)).toContain('Last error: NetworkError: connect ECONNREFUSED');
    expect(actionIds(message)).toEqual([ACTIONS.putBackNow]);
  });

  it('someone else changed preventZoom meanwhile: the message says it was put back, and what was left alone and why', () => {
    const message = approvalMessage(
      protection({
        updatedAt: ENDS,
        timeBox: box({
          state: 'done',
          requestId: 'R-PB000001',
          conflicts: [{ item: 'preventZoom', now: false, heldBy: null }],
        }),
      }),
      VIEW_NOW,
      ENGLISH,
    );
    expect(read(message)).toContain('put back at');
    expect(read(message)).toContain('`preventZoom` left as `off`: changed since by someone else');
    expect(actionIds(message)).toEqual([]);
  });

  it('a done folder edit offers Revert…; a done folder delete offers none and says why', () => {
    const edit = requestWith({
      id: 'R-EDIT0001',
      operation: 'folder.edit',
      params: { bucketId: '6710a0000000000000000101', title: 'New' },
      target: 'folder 6710a0000000000000000101',
      preview: null,
      state: 'succeeded',
    });
    expect(actionIds(approvalMessage(edit, VIEW_NOW, ENGLISH))).toEqual([ACTIONS.revert]);
    const deleted = requestWith({
      id: 'R-DEL00001',
      operation: 'folder.delete',
      params: { bucketId: '6710a0000000000000000101' },
      target: 'folder 6710a0000000000000000101',
      preview: null,
      state: 'succeeded',
    });
    const message = approvalMessage(deleted, VIEW_NOW, ENGLISH);
    expect(actionIds(message)).toEqual([]);
    expect(read(message)).toContain('Deletes and creates cannot be reverted');
  });

  it('a Revert of a folder edit says whose change it reverts', () => {
    const revert = requestWith({
      id: 'R-REV00001',
      operation: 'folder.edit',
      params: { bucketId: '6710a0000000000000000101', title: 'Old' },
      target: 'folder 6710a0000000000000000101',
      preview: null,
      revertOf: { id: 'R-EDIT0001', kind: 'revert' },
    });
    expect(read(approvalMessage(revert, VIEW_NOW, ENGLISH))).toContain('*Reverts* *R-EDIT0001*');
  });

  it('a Persian reader reads the window, the put-back and the buttons in Persian', () => {
    const message = approvalMessage(protection(), VIEW_NOW, PERSIAN);
    expect(read(message)).toContain('*موقت:*');
    expect(read(message)).toContain('همین حالا برگردان');
    expect(read(message)).toContain('تمدید…');
    fits(message);
  });
});

describe('what the requester of a time-boxed change reads', () => {
  it('an agent’s change runs at once: the answer says until when, in how long, with Put back now and Extend…', () => {
    const direct = protection({ quorum: 0, approvals: [] });
    const message = submittedMessage(
      { kind: 'executed', request: direct, errorText: null },
      { approvalChannel: 'C0APPROVALS' },
      ENGLISH,
    );
    expect(read(message)).toContain('goes back at');
    expect(read(message)).toContain('in 2 hours');
    expect(actionIds(message)).toEqual([ACTIONS.putBackNow, ACTIONS.extend]);
  });

  it('a lead approves it: the requester’s DM says it is done and when it goes back, with the two buttons; a direct one gets no DM', () => {
    const notice = requesterNotice(protection(), ENGLISH);
    expect(notice).not.toBeNull();
    expect(read(notice as SlackMessage)).toContain('was approved and is done');
    expect(read(notice as SlackMessage)).toContain('goes back at');
    expect(actionIds(notice as SlackMessage)).toEqual([ACTIONS.putBackNow, ACTIONS.extend]);
    expect(requesterNotice(protection({ quorum: 0, approvals: [] }), ENGLISH)).toBeNull();
  });

  it('it is put back: the requester is told so, with what was left alone, and no buttons', () => {
    const done = protection({
      updatedAt: ENDS,
      timeBox: box({
        state: 'done',
        requestId: 'R-PB000001',
        conflicts: [{ item: 'preventZoom', now: false, heldBy: null }],
      }),
    });
    const notice = requesterNotice(done, ENGLISH) as SlackMessage;
    expect(read(notice)).toContain('was put back, as asked');
    expect(read(notice)).toContain('changed since by someone else');
    expect(actionIds(notice)).toEqual([]);
  });

  it('ten minutes before the end the requester is reminded: preventZoom goes back to off in 10 minutes: extend?', () => {
    const soon = new Date(Date.parse(ENDS) - 10 * 60_000);
    const message = putBackReminderMessage(
      protection({ timeBox: box({ remindedAt: soon.toISOString() }) }),
      soon,
      ENGLISH,
    );
    expect(read(message)).toContain('`preventZoom` goes back to `off` in 10 minutes: extend?');
    expect(actionIds(message)).toEqual([ACTIONS.putBackNow, ACTIONS.extend]);
    fits(message);
  });

  it('a whitelist address added for 30 minutes: the reminder says it leaves the whitelist', () => {
    const soon = new Date(Date.parse(ENDS) - 10 * 60_000);
    const added = protection({
      operation: 'whitelist.set',
      target: 'whitelist',
      params: { ips: ['1.2.3.4', '5.6.7.8'] },
      preview: {
        kind: 'whitelist',
        before: ['1.2.3.4'],
        after: ['1.2.3.4', '5.6.7.8'],
        added: ['5.6.7.8'],
        removed: [],
      },
      undo: { kind: 'whitelist', before: ['1.2.3.4'], added: ['5.6.7.8'], removed: [] },
    });
    expect(read(putBackReminderMessage(added, soon, ENGLISH))).toContain(
      '`5.6.7.8` leaves the whitelist in 10 minutes: extend?',
    );
  });

  it('putting back has failed for an hour: the leads’ DM says since when and the last error; once put back, the DMs lose their buttons', () => {
    const failing = protection({
      timeBox: box({
        state: 'retrying',
        failingSince: ENDS,
        leadTold: true,
        lastError: { name: 'HttpError', message: 'the service answered 503' },
      }),
    });
    const escalation = putBackEscalationMessage(failing, ENGLISH);
    expect(read(escalation)).toContain('has failed since');
    expect(read(escalation)).toContain('HttpError: the service answered 503');
    expect(actionIds(escalation)).toEqual([ACTIONS.putBackNow]);
    const settled = settledTimeBoxMessage(protection({ timeBox: box({ state: 'done' }) }), ENGLISH);
    expect(read(settled)).toContain('no longer waits to be put back');
    expect(actionIds(settled)).toEqual([]);
  });
});

describe('/vidops requests', () => {
  it('an agent lists their requests: the one waiting says its window, the one in force when it goes back', () => {
    const pending = protection({
      id: 'R-PEND0001',
      state: 'pending',
      approvals: [],
      updatedAt: REQUEST_T0,
      timeBox: box({ endsAt: null }),
    });
    const message = requestsMessage(
      { mine: [pending, protection()], awaitingMe: [] },
      { isLead: false, now: VIEW_NOW },
      ENGLISH,
    );
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('*Time-boxed:* for 2 hours (until about');
    expect(text).toContain('*Time-boxed:* goes back at');
  });
});

describe('the App Home', () => {
  const base = {
    userId: 'U0AGENT1',
    isLead: false,
    overview: { mine: [], awaitingMe: [] },
    protection: { error: 'not read' },
    audit: { scope: 'mine' as const, events: [] },
    builtAt: VIEW_NOW.toISOString(),
  };

  it('an agent opens the App Home: the time-boxed changes in force are listed with their end and the two buttons', () => {
    const view = homeView({ ...base, timeBoxes: [protection()] }, ENGLISH);
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Time-boxed changes in force (1)');
    expect(text).toContain('goes back at');
    expect(text).toContain(ACTIONS.putBackNow);
    expect(text).toContain(ACTIONS.extend);
    expect(checkBlockKitLimits({ view }, 'home')).toEqual([]);
  });

  it('with none in force, the section says so, in Persian too', () => {
    expect(JSON.stringify(homeView({ ...base, timeBoxes: [] }, ENGLISH).blocks)).toContain(
      'No time-boxed change is in force.',
    );
    expect(JSON.stringify(homeView({ ...base, timeBoxes: [] }, PERSIAN).blocks)).toContain(
      'هیچ تغییر موقتی برقرار نیست',
    );
  });

  it('an agent’s done folder edit is offered for Revert… on the App Home', () => {
    const edit = requestWith({
      id: 'R-EDIT0001',
      operation: 'folder.edit',
      params: { bucketId: '6710a0000000000000000101', title: 'New' },
      target: 'folder 6710a0000000000000000101',
      preview: null,
      state: 'succeeded',
    });
    const text = JSON.stringify(
      homeView({ ...base, overview: { mine: [edit], awaitingMe: [] } }, ENGLISH).blocks,
    );
    expect(text).toContain('Done changes you can revert');
    expect(text).toContain(ACTIONS.revert);
  });
});
