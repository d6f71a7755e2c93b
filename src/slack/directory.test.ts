import { WebClient } from '@slack/web-api';
import { type Emulator as FakeSlack, startEmulator as startFakeSlack } from '../emulator/index.js';
import { createDirectory, type SlackDirectory } from './directory.js';

let fake: FakeSlack;
let web: WebClient;
let now: number;
const warnings: object[] = [];

function directory(): SlackDirectory {
  return createDirectory(web, {
    groups: ['S0LEADS', 'S0AGENTS', 'U0NOTAGROUP'],
    ttlMs: 60_000,
    clock: () => new Date(now),
    logger: { warn: (obj: object) => warnings.push(obj) },
  });
}

beforeAll(async () => {
  fake = await startFakeSlack();
  web = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
});

beforeEach(() => {
  fake.reset();
  warnings.length = 0;
  now = Date.parse('2026-11-21T10:00:00Z');
  fake.setUsergroup('S0LEADS', ['U0LEAD2']);
  fake.setUsergroup('S0AGENTS', ['U0AGENT2', 'U0LEAD2']);
  fake.setUsers([{ id: 'U0LEAD2', name: 'leo', display_name: 'Leo (lead)' }]);
});

afterAll(() => fake.close());

describe('user groups of a person', () => {
  it('a lead in two watched groups is found in both; someone in none gets none', async () => {
    const dir = directory();
    expect(await dir.groupsOf('U0LEAD2')).toEqual(['S0LEADS', 'S0AGENTS']);
    expect(await dir.groupsOf('U0OTHER')).toEqual([]);
    // User IDs in the list are not groups: Slack is asked about the two groups only.
    expect(fake.callsTo('usergroups.users.list').map((c) => c.args.usergroup)).toEqual([
      'S0LEADS',
      'S0AGENTS',
    ]);
  });

  it('the members of an approvers group come from the cache the policy checks filled', async () => {
    const dir = directory();
    await dir.groupsOf('U0LEAD2');
    expect(await dir.membersOf('S0AGENTS')).toEqual(['U0AGENT2', 'U0LEAD2']);
    expect(fake.callsTo('usergroups.users.list')).toHaveLength(2);
  });

  it('members are cached for the TTL and read again after it', async () => {
    const dir = directory();
    await dir.groupsOf('U0AGENT2');
    fake.setUsergroup('S0AGENTS', ['U0NEWAGENT']);
    now += 59_000;
    expect(await dir.groupsOf('U0NEWAGENT')).toEqual([]);
    expect(fake.callsTo('usergroups.users.list')).toHaveLength(2);
    now += 2_000;
    expect(await dir.groupsOf('U0NEWAGENT')).toEqual(['S0AGENTS']);
    expect(fake.callsTo('usergroups.users.list')).toHaveLength(4);
  });

  it('when Slack fails, the last known members are used and the failure is logged', async () => {
    const dir = directory();
    await dir.groupsOf('U0LEAD2');
    now += 120_000;
    fake.failNext('usergroups.users.list', { error: 'ratelimited' }, 2);
    expect(await dir.groupsOf('U0LEAD2')).toEqual(['S0LEADS', 'S0AGENTS']);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ usergroup: 'S0LEADS', stale: true });
  });

  it('a burst of look-ups shares one call per group', async () => {
    const dir = directory();
    await Promise.all([dir.groupsOf('U0LEAD2'), dir.groupsOf('U0AGENT2'), dir.groupsOf('U0X')]);
    expect(fake.callsTo('usergroups.users.list')).toHaveLength(2);
  });
});

describe('names', () => {
  it('the display name comes from users.info, once per TTL', async () => {
    const dir = directory();
    expect(await dir.nameOf('U0LEAD2', 'leo')).toBe('Leo (lead)');
    expect(await dir.nameOf('U0LEAD2', 'leo')).toBe('Leo (lead)');
    expect(fake.callsTo('users.info')).toHaveLength(1);
  });

  it('an unknown user falls back to the name the command carried, then to the ID', async () => {
    const dir = directory();
    expect(await dir.nameOf('U0GHOST', 'ghost')).toBe('ghost');
    expect(await dir.nameOf('U0GHOST2')).toBe('U0GHOST2');
    expect(warnings).toHaveLength(2);
  });
});

describe('what a user ID is, for who may be handed a lead’s approvals', () => {
  it('a person, a bot, Slackbot, a deactivated account, no such user, and Slack not answering', async () => {
    fake.setUsers([
      { id: 'U0HELPBOT', name: 'helpbot', is_bot: true },
      { id: 'U0LEFT', name: 'left', deleted: true },
      { id: 'USLACKBOT', name: 'slackbot' },
    ]);
    const dir = directory();
    expect(await dir.kindOf('U0LEAD2')).toBe('person');
    expect(await dir.kindOf('U0HELPBOT')).toBe('bot');
    expect(await dir.kindOf('USLACKBOT')).toBe('bot');
    expect(await dir.kindOf('U0LEFT')).toBe('unknown');
    expect(await dir.kindOf('U0NOBODY')).toBe('unknown');
    fake.failNext('users.info', { status: 500 });
    expect(await dir.kindOf('U0LEAD2')).toBe('cannot-tell');
    expect(warnings).toHaveLength(1);
  });
});
