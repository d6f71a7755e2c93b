import { createHasher } from '../core/audit-chain.js';
import type { DelegateWords } from '../core/delegation.js';
import { newEventId, newRequestId } from '../core/ids.js';
import type { Actor } from '../core/model.js';
import { buildPolicy } from '../core/policy.js';
import { say } from '../core/said.js';
import { english } from '../i18n/said.js';
import { openStore, type Store } from '../store/index.js';
import { createDelegationService, type DelegationService } from './delegation.js';
import type { Directory } from './types.js';

/**
 * Who a lead may delegate to: a person of the team (AGENTS or LEADS) whom Slack knows. A bot, an
 * outsider or a user Slack does not know is refused with its reason; nothing is stored, and the
 * attempt is audited like a refused approval.
 * @see docs/architecture.md, "Break-glass and delegation"
 */

const NOW = new Date('2025-03-01T10:00:00.000Z');
const lena: Actor = { id: 'U0LEAD1', name: 'Lena' };
const PEOPLE = {
  agent: 'U0AGENT1',
  agentByGroup: 'U0AGENT2',
  lead: 'U0LEAD2',
  outsider: 'U0OUTSIDE',
  bot: 'U0HELPBOT',
  gone: 'U0GONE',
  flaky: 'U0FLAKY',
} as const;

/** What Slack's users.info says of each. */
const KINDS: Record<string, Awaited<ReturnType<NonNullable<Directory['kindOf']>>>> = {
  [PEOPLE.agent]: 'person',
  [PEOPLE.agentByGroup]: 'person',
  [PEOPLE.lead]: 'person',
  [PEOPLE.outsider]: 'person',
  [PEOPLE.bot]: 'bot',
  [PEOPLE.flaky]: 'cannot-tell',
};

const directory: Directory = {
  groupsOf: async (id) => (id === PEOPLE.agentByGroup ? ['S0AGENTS'] : []),
  kindOf: async (id) => KINDS[id] ?? 'unknown',
};

let store: Store;

beforeEach(async () => {
  store = await openStore('sqlite::memory:', { hash: createHasher() });
});

afterEach(async () => {
  await store.close();
});

function service(dir: Directory = directory): DelegationService {
  return createDelegationService({
    store,
    policy: buildPolicy({ leads: [lena.id, PEOPLE.lead], agents: [PEOPLE.agent, 'S0AGENTS'] }),
    directory: dir,
    clock: () => NOW,
    ctx: () => ({ now: NOW, eventId: newEventId }),
    newId: newRequestId,
  });
}

function to(id: string, name: string | null = null): DelegateWords {
  return { delegate: { id, name }, until: { kind: 'duration', ms: 4 * 3_600_000, text: '4h' }, reason: null };
}

describe('a lead delegates', () => {
  test.each([
    ['an agent', PEOPLE.agent],
    ['an agent through a user group', PEOPLE.agentByGroup],
    ['another lead', PEOPLE.lead],
  ])('to %s: done', async (_who, id) => {
    expect(await service().delegate(lena, to(id))).toMatchObject({
      kind: 'delegated',
      delegation: { delegate: { id } },
    });
  });

  test.each([
    ['a bot', PEOPLE.bot, english(say.delegBot())],
    [
      'someone outside AGENTS and LEADS',
      PEOPLE.outsider,
      'otto is not on the team (AGENTS or LEADS): only someone who may use vidops can approve in your place.',
    ],
    [
      'a user Slack does not know (or deactivated)',
      PEOPLE.gone,
      `Slack knows no active member ${PEOPLE.gone} in this workspace; pick the person from Slack’s mention list.`,
    ],
    [
      'a user Slack could not tell about just now',
      PEOPLE.flaky,
      `Slack did not say who ${PEOPLE.flaky} is just now; try again in a minute.`,
    ],
  ])('to %s: refused with its reason, nothing stored, the attempt audited', async (_who, id, reason) => {
    const result = await service().delegate(lena, to(id, id === PEOPLE.outsider ? 'otto' : null));

    expect(result).toMatchObject({ kind: 'refused', reason, said: expect.anything() });
    expect(await store.listDelegations()).toEqual([]);
    expect(await store.listAudit()).toEqual([
      expect.objectContaining({
        type: 'denied',
        actor: { id: lena.id, name: lena.name },
        operation: 'delegation',
        target: id,
        outcome: expect.objectContaining({ action: 'delegate', reason }),
      }),
    ]);
  });

  test('where the directory cannot tell who someone is at all, nothing is delegated', async () => {
    const blind: Directory = { groupsOf: directory.groupsOf };

    const result = await service(blind).delegate(lena, to(PEOPLE.agent));

    expect(result).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('Slack did not say who'),
    });
    expect(await store.listDelegations()).toEqual([]);
  });
});
