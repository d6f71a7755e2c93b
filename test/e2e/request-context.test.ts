import { ACTIONS } from '../../src/views/ids.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  callSince,
  click,
  notificationsDone,
  requestIdIn,
  stored,
  until,
} from './change-helpers.js';

/**
 * Each request's context once: who acts, with which user groups, in which language is worked out
 * once where the request comes in (the gate and the handler share it) and handed down typed; no
 * handler or service asks Slack's directory or the language store again for the same person.
 * @see docs/architecture.md, "Each request's context once"
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

/** A look-up of a person's groups or language, and whether a Home tab refresh (the notifier's own work) made it. */
interface LookUp {
  what: 'groups' | 'language';
  user: string;
  home: boolean;
}

/**
 * Counts the look-ups made from now on; `stop()` puts the directory and the languages back. A
 * Home tab refreshed after a change is the notifier's own request (its own context), told apart
 * by its stack.
 */
function countLookUps(): { made: LookUp[]; stop(): void } {
  const { directory, languages } = h.vidops.context;
  const groupsOf = directory.groupsOf;
  const languageOf = languages.of;
  const made: LookUp[] = [];
  const home = () => (new Error().stack ?? '').includes('publishHome');
  directory.groupsOf = (user) => {
    made.push({ what: 'groups', user, home: home() });
    return groupsOf.call(directory, user);
  };
  languages.of = (user) => {
    made.push({ what: 'language', user, home: home() });
    return languageOf.call(languages, user);
  };
  return {
    made,
    stop() {
      directory.groupsOf = groupsOf;
      languages.of = languageOf;
    },
  };
}

/** How many look-ups of each kind the request itself made for `user`. */
function madeFor(made: readonly LookUp[], user: string): { groups: number; language: number } {
  const own = made.filter((m) => m.user === user && !m.home);
  return {
    groups: own.filter((m) => m.what === 'groups').length,
    language: own.filter((m) => m.what === 'language').length,
  };
}

describe('an agent unblocks a viewer', () => {
  it.each([
    ['named in AGENTS', USERS.agent.id],
    ['an agent through a user group (the gate reads the groups)', USERS.agent2.id],
  ])('%s: their groups and their language are looked up once', async (_who, userId) => {
    const counting = countLookUps();
    try {
      const slash = await h.slash('unblock 0912 123 4567', { userId });
      const reply = await slash.reply();
      expect(JSON.stringify(reply.body)).toContain('unblocked');
      expect(madeFor(counting.made, userId)).toEqual({ groups: 1, language: 1 });
    } finally {
      counting.stop();
    }
  });

  it('the request and its audit events record who acted, never their groups', async () => {
    const slash = await h.slash('unblock 0912 123 4567', { userId: USERS.agent2.id });
    const id = requestIdIn(JSON.stringify((await slash.reply()).body));
    const request = await stored(h, id);
    expect(request.requester).toEqual({ id: USERS.agent2.id, name: USERS.agent2.name });
    const events = (await h.store.listAudit({ last: 50 })).filter((e) => e.requestId === id);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(Object.keys(event.actor).sort()).toEqual(['id', 'name']);
  });
});

describe('a lead approves a request with one click', () => {
  it.each([
    ['named in LEADS', USERS.lead.id],
    ['a lead through a user group', USERS.lead2.id],
  ])('%s: their groups and their language are looked up once', async (_who, leadId) => {
    const asked = await h.slash(`whitelist add 5.160.12.${leadId === USERS.lead.id ? '21' : '22'}`);
    const id = requestIdIn(JSON.stringify((await asked.reply()).body));
    const message = await approvalMessage(h, id);
    await notificationsDone(h);
    const counting = countLookUps();
    try {
      const approve = await click(h, { userId: leadId, actionId: ACTIONS.approve, requestId: id, message });
      expect((await approve.reply()).body).toMatchObject({ text: expect.stringContaining('You approved') });
      expect(madeFor(counting.made, leadId)).toEqual({ groups: 1, language: 1 });
    } finally {
      counting.stop();
    }
    const request = await stored(h, id);
    expect(request.approvals.map((a) => Object.keys(a.by).sort())).toEqual([['id', 'name']]);
  });
});

describe('an agent refreshes their Home tab', () => {
  it('their groups and their language are looked up once, for the tab and the requests on it', async () => {
    const since = h.slack.calls.length;
    const counting = countLookUps();
    try {
      await h.action({
        userId: USERS.agent2.id,
        actionId: ACTIONS.homeRefresh,
        value: 'refresh',
        view: { id: 'V0HOME', type: 'home' },
      });
      await until(
        () => callSince(h, since, ['views.publish'], (c) => c.args.user_id === USERS.agent2.id),
        'the Home tab published',
      );
      const own = counting.made.filter((m) => m.user === USERS.agent2.id);
      expect(own.map((m) => m.what).sort()).toEqual(['groups', 'language']);
    } finally {
      counting.stop();
    }
  });
});
