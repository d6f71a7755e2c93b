import { english } from '../i18n/said.js';
import {
  actorLabel,
  actorRecord,
  callerOf,
  cancelRefusal,
  cliActor,
  identityRefusal,
  isCaller,
  isSameRequester,
  maybeSamePerson,
  viaPhrase,
} from './actor.js';
import { createHasher } from './audit-chain.js';
import { canonicalJson } from './json.js';
import type { Actor, AuditEvent } from './model.js';

const slackLead: Actor = { id: 'U0LEAD1', name: 'Lena' };
const rootAsAgent = cliActor('root', { id: 'U0AGENT1', name: undefined });
const rootAsLead = cliActor('root', { id: 'U0LEAD1', name: 'Lena' });
const bobAsAgent = cliActor('bob', { id: 'U0AGENT1' });

describe('who acted, as recorded', () => {
  it('a Slack actor is recorded exactly as before the CLI marking existed, so old chains verify', () => {
    const withStray = { ...slackLead, groups: ['S0LEADS'] } as Actor;
    expect(canonicalJson(actorRecord(withStray))).toBe('{"id":"U0LEAD1","name":"Lena"}');
    const event: Omit<AuditEvent, 'hash'> = {
      id: 'e1',
      type: 'approved',
      at: '2026-11-21T10:00:00.000Z',
      actor: actorRecord(slackLead),
      operation: 'folder.delete',
      target: 'folder b1',
      params: { bucketId: 'b1' },
      requestId: 'R-1',
      outcome: null,
      error: null,
      seq: 1,
      prevHash: '0'.repeat(64),
    };
    const before = { ...event, actor: { id: 'U0LEAD1', name: 'Lena' } };
    expect(createHasher()(event)).toBe(createHasher()(before));
  });

  it('someone acting comes with their groups from the edge; what is recorded of them has none', () => {
    const lead = callerOf(slackLead, ['S0LEADS']);
    expect(lead).toEqual({ id: 'U0LEAD1', name: 'Lena', groups: ['S0LEADS'] });
    expect(isCaller(lead)).toBe(true);
    expect(isCaller(slackLead)).toBe(false);
    expect(actorRecord(lead)).toEqual(slackLead);
    const fromCli = callerOf(rootAsLead, []);
    expect(isCaller(fromCli)).toBe(true);
    expect(actorRecord(fromCli)).toEqual(rootAsLead);
  });

  it('a CLI actor records the CLI and the OS user, with or without --as', () => {
    expect(cliActor('root')).toEqual({
      id: 'cli:root',
      name: 'cli:root',
      via: { kind: 'cli', osUser: 'root' },
    });
    expect(rootAsAgent).toEqual({ id: 'U0AGENT1', name: 'U0AGENT1', via: { kind: 'cli', osUser: 'root' } });
    expect(actorRecord(rootAsLead)).toEqual(rootAsLead);
  });

  it('is labelled for people with the OS user when it came from the CLI', () => {
    expect(actorLabel(slackLead)).toBe('Lena');
    expect(actorLabel(rootAsAgent)).toBe('U0AGENT1 via cli:root');
    expect(actorLabel(cliActor('root'))).toBe('cli:root');
    expect(viaPhrase(slackLead)).toBeNull();
    expect(viaPhrase(rootAsLead)).toBe('via the CLI (OS user root)');
  });
});

describe('the same person, by either identity', () => {
  it.each([
    ['the same Slack user in Slack and on the CLI', slackLead, rootAsLead, true],
    ['one OS user claiming two Slack users', rootAsAgent, rootAsLead, true],
    ['two OS users claiming two Slack users', bobAsAgent, rootAsLead, false],
    ['a Slack user and a CLI user claiming another', slackLead, rootAsAgent, false],
  ])('%s: %s', (_what, a, b, same) => {
    expect(maybeSamePerson(a, b)).toBe(same);
    expect(maybeSamePerson(b, a)).toBe(same);
  });

  it.each([
    ['the same OS user and Slack user', rootAsAgent, cliActor('root', { id: 'U0AGENT1' }), true],
    ['another OS user claiming the same Slack user', rootAsAgent, bobAsAgent, false],
    ['the Slack user themself, in Slack', rootAsAgent, { id: 'U0AGENT1', name: 'Ana' }, true],
    ['the same OS user as someone else', rootAsAgent, rootAsLead, false],
  ])('the requester for a cancel: %s', (_what, requester, actor, same) => {
    expect(isSameRequester(requester, actor)).toBe(same);
  });
});

describe('one identity rule for every command line action', () => {
  const slackAgent: Actor = { id: 'U0AGENT1', name: 'Ana' };
  const leeAsLead = cliActor('lee', { id: 'U0LEAD1' });

  it.each([
    ['a lead in Slack, whatever the policy', slackAgent, slackLead, false, null],
    ['a lead on the CLI while the policy does not trust --as', slackAgent, leeAsLead, false, 'cli-off'],
    ['a lead on the CLI where the policy trusts --as', slackAgent, leeAsLead, true, null],
    ['the requester in Slack', slackAgent, { id: 'U0AGENT1', name: 'Ana' }, true, 'own'],
    ['the requester claiming their own ID on the CLI', rootAsAgent, bobAsAgent, true, 'own'],
    ['the OS user who asked, claiming to be a lead', rootAsAgent, rootAsLead, true, 'os-user'],
    ['the OS user who asked, while --as is not trusted', rootAsAgent, rootAsLead, false, 'cli-off'],
  ] as const)('deciding on another’s request: %s', (_what, requester, actor, trusted, refusal) => {
    expect(identityRefusal(trusted, requester, actor)).toBe(refusal);
  });

  const asked = (requester: Actor) => ({ id: 'R-7K2M9QXA', requester });
  const said = (s: ReturnType<typeof cancelRefusal>) => (s === null ? null : english(s));

  it.each([
    ['the Slack requester in Slack', slackAgent, { id: 'U0AGENT1', name: 'Ana' }, false, null],
    [
      'the OS user who asked on the CLI, --as not trusted',
      rootAsAgent,
      cliActor('root', { id: 'U0AGENT1' }),
      false,
      null,
    ],
    ['the CLI requester in Slack', rootAsAgent, { id: 'U0AGENT1', name: 'Ana' }, false, null],
    ['the Slack requester claimed on the CLI, --as trusted', slackAgent, bobAsAgent, true, null],
    [
      'the Slack requester claimed on the CLI, --as not trusted',
      slackAgent,
      bobAsAgent,
      false,
      'Request R-7K2M9QXA was asked for in Slack by Ana: cancel it in Slack',
    ],
    [
      'another OS user claiming the CLI requester',
      rootAsAgent,
      bobAsAgent,
      true,
      'Only U0AGENT1 via cli:root',
    ],
  ] as const)('cancelling: %s', (_what, requester, actor, trusted, refusal) => {
    const words = said(cancelRefusal(trusted, asked(requester), actor));
    if (refusal === null) expect(words).toBeNull();
    else expect(words).toContain(refusal);
  });
});
