import { ACTIONS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  notificationsDone,
  reaches,
  readable,
  requestIdIn,
  upstream,
} from './change-helpers.js';

/**
 * A time-boxed change read in Persian, end to end over signed HTTP: the window typed in Persian
 * digits, the approval message saying when it goes back and then that it went back, in Persian,
 * with the clock moved rather than slept.
 * @see docs/time-boxed.md
 */

const HOUR = 3_600_000;
const CONFIG_PATH = '/v1/storage/protect/config';

describe('a Persian-speaking agent and lead turn preventZoom on for two hours', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { CHANNEL_LOCALE: 'fa' } });
    for (const userId of [USERS.agent.id, USERS.lead.id]) {
      const chosen = await h.slash('lang fa', { userId });
      await chosen.reply();
    }
  });

  afterAll(async () => {
    await h.stop();
  });

  it('the window typed in Persian digits is read, and every line about it is in Persian', async () => {
    const asked = readable(
      await (await h.slash('protect set preventZoom=true for ۲h', { userId: USERS.agent.id })).reply(),
    );
    const id = requestIdIn(asked);
    expect(asked).toContain('به مدت ۲ ساعت');

    const message = await approvalMessage(h, id);
    const answer = await click(h, {
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      requestId: id,
      message,
    });
    await answer.reply();
    await reaches(h, id, 'succeeded');
    await notificationsDone(h);
    const inForce = await approvalMessage(h, id, (m) => JSON.stringify(m.blocks ?? []).includes('برمی‌گردد'));
    expect(JSON.stringify(inForce.blocks)).toContain('۲ ساعت');

    h.clock.advance(2 * HOUR);
    await h.vidops.ops.sweepTimeBoxes();
    await notificationsDone(h);
    expect(h.sandbox.state().config.preventZoom).toBe(false);
    expect(upstream(h, 'POST', CONFIG_PATH)).toHaveLength(2);
    const done = await approvalMessage(h, id, (m) => JSON.stringify(m.blocks ?? []).includes('برگردانده شد'));
    expect(JSON.stringify(done.blocks)).not.toContain('goes back');
  });
});
