import { ACTIONS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import { approvalMessage, readable, requestIdIn, until } from './change-helpers.js';

/**
 * Each viewer's history and the guard on repeat unblocks, end to end: the real app over signed
 * HTTP and Socket Mode, the Slack emulator, and the sandbox serving only the documented
 * endpoints (the service has no history; vidops keeps it from its own audit log).
 * @see docs/commands.md, "A viewer's history"; docs/approvals.md, "Repeat unblocks"
 */

const POLICY = 'viewer.unblock: { repeat: { within: 30d, max: 2 } }\n';
const NUMBER = '09124564567';
const MASKED = '0912***4567';

describe.each(['http', 'socket'] as const)("a viewer's history over %s", (mode) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ mode, policy: POLICY, sandbox: { extras: false } });
  });
  afterEach(async () => {
    await h.stop();
  });

  /** `/vidops <text>` by `userId`, and what they read. */
  async function typed(text: string, userId: string = USERS.agent.id): Promise<string> {
    const sent = await h.slash(text, { userId });
    return readable(await sent.reply());
  }

  it('two agents unblock a viewer twice; the 3rd unblock waits for a lead, with the history in the approval message', async () => {
    expect(await typed(`unblock ${NUMBER}`)).toMatch(/unblocked|can watch/i);
    expect(await typed(`unblock +98 912 456 4567`, USERS.agent2.id)).toMatch(/unblocked|can watch/i);

    const third = await typed('unblock 0098-912-456-4567');

    expect(third).toContain(`needs approval (the 3rd unblock of ${MASKED} in 30 days)`);
    expect(third).toContain('*A lead must approve:* this is the 3rd unblock of `0912***4567` in 30 days.');
    expect(third).not.toContain(NUMBER);
    const id = requestIdIn(third);
    const approval = JSON.stringify((await approvalMessage(h, id)).blocks);
    expect(approval).toContain('this is the 3rd unblock of `0912***4567` in 30 days');
    expect(approval).toMatch(/asked by ben/);
    expect(approval).toMatch(/asked by ana/);
    expect(approval).not.toContain(NUMBER);
    expect((await h.store.getRequest(id))?.state).toBe('pending');
  });

  it('an agent asks for the history: newest first, who asked, the count in 30 days, from vidops’ own log', async () => {
    await typed(`unblock ${NUMBER}`);
    await typed(`unblock ${NUMBER}`, USERS.agent2.id);

    const history = await typed('viewer ۰۹۱۲ ۴۵۶ ۴۵۶۷');

    expect(history).toContain(`What vidops did for viewer`);
    expect(history).toContain(MASKED);
    expect(history).not.toContain(NUMBER);
    expect(history).toContain('vidops’ own audit log');
    expect(history).toContain('2 unblocks in the last 30 days');
    expect(history).toContain('The next unblock would be the 3rd in 30 days');
    expect(history.indexOf('asked by ben')).toBeLessThan(history.indexOf('asked by ana'));
  });

  it('the History button on an unblock reply shows the viewer’s history', async () => {
    const sent = await h.slash(`unblock ${NUMBER}`, { userId: USERS.agent.id });
    const reply = await sent.reply();
    const id = requestIdIn(readable(reply));
    const tag = `history-${mode}`;

    await h.action({
      userId: USERS.agent2.id,
      actionId: ACTIONS.viewerHistory,
      value: id,
      responseUrl: h.slack.responseUrl(tag),
    });
    const shown = readable(await h.slack.waitForResponse((p) => p.tag === tag, 8000));

    expect(shown).toContain('1 unblock in the last 30 days');
    expect(shown).toContain('asked by ana');
    expect(shown).not.toContain(NUMBER);
  });

  it('two agents race on the 2nd unblock: one runs, the other waits for a lead as the 3rd', async () => {
    await typed(`unblock ${NUMBER}`);

    const both = await Promise.all([typed(`unblock ${NUMBER}`), typed(`unblock ${NUMBER}`, USERS.agent2.id)]);

    expect(both.filter((text) => text.includes('the 3rd unblock of'))).toHaveLength(1);
    await until(
      async () => ((await h.store.listRequests({ states: ['pending'] })).length === 1 ? true : undefined),
      'one unblock waiting for a lead',
    );
  });

  it('a Persian reader reads the history in Persian, dates in the Solar Hijri calendar', async () => {
    await typed('lang fa');
    await typed(`unblock ${NUMBER}`);

    const history = await typed(`viewer ${NUMBER}`);

    expect(history).toContain('آنچه vidops برای بیننده‌ی');
    expect(history).toContain('۱ رفع مسدودی در ۳۰ روز گذشته');
    expect(history).toMatch(/۱۴۰[۵-۶]/);
    expect(history).not.toContain(NUMBER);
  });
});
