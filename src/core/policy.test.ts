import { english } from '../i18n/said.js';
import { CHANGE_OPERATIONS, OPERATION_SPECS } from './catalog.js';
import { periodEnglish } from './english.js';
import { ConfigError } from './errors.js';
import type { OperationRequest } from './model.js';
import {
  buildPolicy,
  checkPolicy,
  DEFAULT_RULES,
  decide,
  isLead,
  mayApprove,
  mayRun,
  needsConfirmation,
  type PolicyOperation,
  parseDuration,
  windowRule,
} from './policy.js';
import type { Said } from './said.js';

/** A refusal as a person reads it: its sentence in English as `reason`, beside the sentence. */
function worded<T extends object>(result: T): T | (T & { reason: string }) {
  return 'said' in result ? { ...result, reason: english(result.said as Said) } : result;
}

const LEADS = ['U0LEAD1', 'U0LEAD2'];
const NOW = new Date('2025-03-01T10:00:00.000Z');

const agent = { id: 'U0AGENT', groups: [] };
const lead = { id: 'U0LEAD1', groups: [] };
const groupLead = { id: 'U0GROUPY', groups: ['S0LEADS'] };

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

function pendingRequest(overrides: Partial<OperationRequest> = {}): OperationRequest {
  return {
    id: 'R-0000AAAA',
    operation: 'folder.delete',
    params: { bucketId: 'b1' },
    paramsHash: 'h',
    target: 'folder b1',
    preview: null,
    reason: null,
    requester: { id: 'U0AGENT', name: 'Ava' },
    state: 'pending',
    quorum: 1,
    approvals: [],
    decidedBy: null,
    decisionNote: null,
    createdAt: NOW.toISOString(),
    expiresAt: '2025-03-02T10:00:00.000Z',
    updatedAt: NOW.toISOString(),
    result: null,
    error: null,
    slack: null,
    version: 1,
    ...overrides,
  } as OperationRequest;
}

describe('default policy (the design table)', () => {
  const policy = buildPolicy({ leads: LEADS });

  test.each<[PolicyOperation, 'allow' | 'approval', boolean]>([
    ['viewer.unblock', 'allow', false],
    ['file.retry', 'allow', false],
    ['whitelist.set', 'approval', false],
    ['protect.set', 'approval', false],
    ['folder.create', 'approval', false],
    ['folder.edit', 'approval', false],
    ['file.edit', 'approval', false],
    ['playlist.edit', 'approval', false],
    ['folder.delete', 'approval', true],
    ['file.delete', 'approval', true],
    ['playlist.delete', 'approval', true],
  ])('an agent asking for %s gets %s (typed confirmation: %s)', (operation, kind, confirm) => {
    const decision = decide(policy, { operation, actor: agent, recentCount: 0, now: NOW });
    expect(decision.kind).toBe(kind);
    if (decision.kind === 'approval') {
      expect(decision).toEqual({
        kind: 'approval',
        quorum: 1,
        approvers: LEADS,
        expiresAt: '2025-03-02T10:00:00.000Z',
        why: null,
      });
    }
    if (operation !== 'audit') expect(needsConfirmation(policy, operation)).toBe(confirm);
  });

  test.each([
    [0, 'allow'],
    [29, 'allow'],
    [30, 'approval'],
    [45, 'approval'],
  ])('an agent with %i unblocks in the last hour: the next one is %s', (recentCount, kind) => {
    const decision = decide(policy, { operation: 'viewer.unblock', actor: agent, recentCount, now: NOW });
    expect(decision.kind).toBe(kind);
    if (decision.kind === 'approval')
      expect(decision.why && english(decision.why)).toBe('over the rate limit of 30 per hour');
  });

  test('audit is for leads only, directly or by user group', () => {
    const withGroups = buildPolicy({ leads: ['U0LEAD1', 'S0LEADS'] });
    expect(mayRun(withGroups, 'audit', agent)).toBe(false);
    expect(mayRun(withGroups, 'audit', lead)).toBe(true);
    expect(mayRun(withGroups, 'audit', groupLead)).toBe(true);
    expect(
      worded(decide(withGroups, { operation: 'audit', actor: agent, recentCount: 0, now: NOW })),
    ).toEqual({
      kind: 'deny',
      reason: 'Only leads may run audit.',
      said: { key: 'polOnlyLeads', params: ['audit', null] },
    });
  });

  test('DEFAULT_RULES keeps expiry at 24h for every operation', () => {
    expect(new Set(Object.values(DEFAULT_RULES).map((r) => r.expiresIn))).toEqual(new Set(['24h']));
  });
});

describe('who may use the bot (AGENTS)', () => {
  const policy = buildPolicy({ leads: ['U0LEAD1'], agents: ['U0AGENT', 'S0SUPPORT'] });

  test.each([
    ['a listed agent', true, { id: 'U0AGENT', groups: [] }],
    ['a member of a listed group', true, { id: 'U0NEWBIE', groups: ['S0SUPPORT'] }],
    ['a lead not listed among agents', true, { id: 'U0LEAD1', groups: [] }],
    ['someone else', false, { id: 'U0STRANGER', groups: ['S0SALES'] }],
  ])('%s may run unblock: %s', (_who, allowed, actor) => {
    expect(mayRun(policy, 'viewer.unblock', actor)).toBe(allowed);
    const decision = decide(policy, { operation: 'viewer.unblock', actor, recentCount: 0, now: NOW });
    expect(decision.kind).toBe(allowed ? 'allow' : 'deny');
  });

  test('isLead knows leads by user ID and by user group', () => {
    const p = buildPolicy({ leads: ['U0LEAD1', 'S0LEADS'] });
    expect(isLead(p, lead)).toBe(true);
    expect(isLead(p, groupLead)).toBe(true);
    expect(isLead(p, agent)).toBe(false);
  });
});

describe('POLICY_FILE', () => {
  test('YAML overrides are merged over the defaults', () => {
    const policy = buildPolicy({
      leads: ['U0LEAD1', 'U0LEAD2', 'U0LEAD3'],
      fileName: 'policy.yaml',
      fileText: [
        'folder.delete:',
        '  quorum: 2',
        '  expiresIn: 4h',
        'viewer.unblock:',
        '  rateLimit: { max: 5, per: 30m }',
        'file.retry:',
        '  approval: true',
        '  approvers: [U0LEAD3]',
        'audit:',
        '  allowed: [U0COMPLY]',
      ].join('\n'),
    });
    expect(policy.rules['folder.delete']).toMatchObject({
      quorum: 2,
      expiresIn: '4h',
      expiresInMs: 4 * 3600_000,
    });
    expect(policy.rules['folder.delete'].confirm).toBe(true);
    expect(policy.rules['viewer.unblock'].rateLimit).toEqual({ max: 5, per: '30m', perMs: 1_800_000 });
    expect(policy.rules['file.retry'].approvers).toEqual(['U0LEAD3']);
    expect(mayRun(policy, 'audit', { id: 'U0COMPLY', groups: [] })).toBe(true);
    expect(mayRun(policy, 'audit', lead)).toBe(false);
    const over = decide(policy, { operation: 'viewer.unblock', actor: agent, recentCount: 5, now: NOW });
    expect(over.kind === 'approval' && over.why && english(over.why)).toBe(
      'over the rate limit of 5 per 30 minutes',
    );
    expect(checkPolicy(policy)).toEqual([]);
  });

  test('JSON works too, and rateLimit null switches the limit off', () => {
    const policy = buildPolicy({
      leads: LEADS,
      fileName: 'policy.json',
      fileText: '{"viewer.unblock": {"rateLimit": null}}',
    });
    expect(policy.rules['viewer.unblock'].rateLimit).toBeNull();
    expect(
      decide(policy, { operation: 'viewer.unblock', actor: agent, recentCount: 500, now: NOW }).kind,
    ).toBe('allow');
  });

  test('an empty file keeps the defaults', () => {
    const policy = buildPolicy({ leads: LEADS, fileText: '', fileName: 'empty.yaml' });
    expect(policy.rules['folder.delete'].quorum).toBe(1);
  });

  test.each([
    ['folder.destroy: { quorum: 1 }', 'POLICY_FILE p.yaml folder.destroy: unknown operation'],
    ['folder.delete: { quorom: 2 }', 'POLICY_FILE p.yaml folder.delete.quorom: unknown field'],
    ['audit: { approval: true }', 'POLICY_FILE p.yaml audit.approval: unknown field'],
    ['folder.delete: { quorum: 1.5 }', 'POLICY_FILE p.yaml folder.delete.quorum: must be a whole number'],
    [
      'folder.delete: { expiresIn: 1 day }',
      'POLICY_FILE p.yaml folder.delete.expiresIn: must be a positive whole number followed by s, m, h or d (e.g. 30s, 15m, 4h, 2d)',
    ],
    [
      'folder.delete: { expiresIn: 0h }',
      'POLICY_FILE p.yaml folder.delete.expiresIn: must be a positive whole number',
    ],
    [
      'folder.delete: { allowed: everyone }',
      "POLICY_FILE p.yaml folder.delete.allowed: must be 'agents', 'leads'",
    ],
    [
      'folder.delete: { approvers: [lee] }',
      'POLICY_FILE p.yaml folder.delete.approvers.0: must be a Slack user ID',
    ],
    [
      'viewer.unblock: { rateLimit: { max: 0, per: 1h } }',
      'POLICY_FILE p.yaml viewer.unblock.rateLimit.max: must be at least 1',
    ],
    ['folder.delete: [1, 2', 'POLICY_FILE p.yaml is not valid YAML or JSON'],
    ['- just a list', 'POLICY_FILE p.yaml (top level)'],
  ])('%s is refused with its path', (fileText, expected) => {
    const error = configError(() => buildPolicy({ leads: LEADS, fileText, fileName: 'p.yaml' }));
    expect(error.problems.join('\n')).toContain(expected);
  });

  test('every problem of a file is listed at once', () => {
    const error = configError(() =>
      buildPolicy({
        leads: LEADS,
        fileName: 'p.yaml',
        fileText: 'folder.delete: { quorum: -1, confirm: maybe }',
      }),
    );
    expect(error.problems).toHaveLength(2);
  });
});

describe('checkPolicy: rules that could never be approved', () => {
  test.each<[string, { leads: string[]; agents?: string[]; fileText?: string }, string[]]>([
    ['the default policy with two leads', { leads: LEADS }, []],
    ['one lead and open agents', { leads: ['U0LEAD1'] }, []],
    [
      'quorum larger than the leads',
      { leads: LEADS, fileText: 'folder.delete: { quorum: 3 }' },
      ['folder.delete needs approval from 3 distinct approvers, but only 2 can approve (U0LEAD1, U0LEAD2)'],
    ],
    [
      'quorum larger than the leads, but a group among them',
      { leads: ['U0LEAD1', 'S0LEADS'], fileText: 'folder.delete: { quorum: 3 }' },
      [],
    ],
    [
      'quorum 0 with approval on',
      { leads: LEADS, fileText: 'protect.set: { quorum: 0 }' },
      ['protect.set needs approval but its quorum is 0; it must be at least 1'],
    ],
    ['quorum 0 with approval off', { leads: LEADS, fileText: 'file.retry: { quorum: 0 }' }, []],
    [
      'quorum 0 on the rate-limited unblock',
      { leads: LEADS, fileText: 'viewer.unblock: { quorum: 0 }' },
      ['viewer.unblock needs approval over its rate limit but its quorum is 0; it must be at least 1'],
    ],
  ])('%s', (_name, input, problems) => {
    expect(checkPolicy(buildPolicy(input))).toEqual(problems);
  });

  test('a lone lead who is also the only possible requester is refused for every approval rule', () => {
    const problems = checkPolicy(buildPolicy({ leads: ['U0LEAD1'], agents: ['U0LEAD1'] }));
    // One problem for every operation that can need an approval: always, or over its rate limit.
    const approving = CHANGE_OPERATIONS.filter((o) => {
      const { approval, rateLimit } = OPERATION_SPECS[o].policy;
      return approval || rateLimit !== null;
    });
    expect(problems).toHaveLength(approving.length);
    expect(problems[0]).toBe(
      'whitelist.set needs approval, but U0LEAD1 is both the only approver and the only one who may ask for it; nobody else could ever approve',
    );
  });

  test('leads-only requests with quorum 2 and two leads can never be approved', () => {
    const problems = checkPolicy(
      buildPolicy({ leads: LEADS, fileText: 'folder.delete: { allowed: leads, quorum: 2 }' }),
    );
    expect(problems).toEqual([
      'folder.delete needs approval from 2 approvers other than the requester, but a request by U0LEAD1, U0LEAD2 could never gather them (approvers: U0LEAD1, U0LEAD2)',
    ]);
  });
});

describe('mayApprove', () => {
  const policy = buildPolicy({ leads: ['U0LEAD1', 'S0LEADS'] });

  test.each([
    ['a lead approves an agent request', lead, {}, { ok: true }],
    ['a lead by user group approves', groupLead, {}, { ok: true }],
    [
      'the requester approves their own',
      lead,
      { requester: { id: 'U0LEAD1', name: 'Lee' } },
      { ok: false, code: 'requester' },
    ],
    ['an agent who is not a lead', { id: 'U0OTHER', groups: [] }, {}, { ok: false, code: 'not-approver' }],
    [
      'a lead who already approved',
      lead,
      { quorum: 2, approvals: [{ by: { id: 'U0LEAD1', name: 'Lee' }, at: NOW.toISOString() }] },
      { ok: false, code: 'already-approved' },
    ],
  ])('%s', (_name, actor, overrides, expected) => {
    expect(mayApprove(policy, pendingRequest(overrides), actor)).toMatchObject(expected);
  });

  test('the refusal for a non-lead says who can approve', () => {
    expect(worded(mayApprove(policy, pendingRequest(), { id: 'U0OTHER', groups: [] }))).toEqual({
      ok: false,
      code: 'not-approver',
      reason: 'Only leads can approve "Delete folder" requests.',
      said: { key: 'polNotApprover', params: [true, 'folder.delete', 'Delete folder'] },
    });
  });
});

describe('approvals from the command line', () => {
  const cli = (id: string, osUser: string) => ({ id, groups: [], via: { kind: 'cli' as const, osUser } });
  const on = buildPolicy({ leads: ['U0LEAD1', 'U0LEAD2'], fileText: 'cli: { approve: true }' });

  test('are off unless the policy file turns them on', () => {
    const off = buildPolicy({ leads: ['U0LEAD1'] });
    expect(off.cli).toEqual({ approve: false });
    expect(worded(mayApprove(off, pendingRequest(), cli('U0LEAD1', 'lee')))).toMatchObject({
      ok: false,
      code: 'cli-off',
      reason: expect.stringContaining('cli: { approve: true }'),
    });
    // A lead in Slack is not affected.
    expect(mayApprove(off, pendingRequest(), lead)).toEqual({ ok: true });
    expect(mayApprove(on, pendingRequest(), cli('U0LEAD1', 'lee'))).toEqual({ ok: true });
  });

  test('the OS user who asked as an agent cannot approve as a lead', () => {
    const asked = pendingRequest({
      requester: { id: 'U0AGENT', name: 'Ava', via: { kind: 'cli', osUser: 'root' } },
    });
    expect(worded(mayApprove(on, asked, cli('U0LEAD1', 'root')))).toEqual({
      ok: false,
      code: 'requester',
      reason: 'OS user root asked for this change (as U0AGENT), so someone else has to approve it.',
      said: { key: 'polOsUserAsked', params: ['root', 'U0AGENT'] },
    });
    expect(mayApprove(on, asked, cli('U0LEAD1', 'lee'))).toEqual({ ok: true });
    expect(mayApprove(on, asked, lead)).toEqual({ ok: true });
  });

  test('one OS user counts once toward a quorum, whichever leads it names', () => {
    const once = pendingRequest({
      quorum: 2,
      approvals: [
        { by: { id: 'U0LEAD1', name: 'Lee', via: { kind: 'cli', osUser: 'lee' } }, at: NOW.toISOString() },
      ],
    });
    expect(mayApprove(on, once, cli('U0LEAD2', 'lee'))).toMatchObject({
      ok: false,
      code: 'already-approved',
    });
    expect(mayApprove(on, once, cli('U0LEAD2', 'leo'))).toEqual({ ok: true });
  });

  test('a policy file with something else under cli is refused, naming the known fields', () => {
    expect(
      configError(() => buildPolicy({ leads: LEADS, fileText: 'cli: { reject: true }' })).problems,
    ).toEqual(['POLICY_FILE POLICY_FILE cli.reject: unknown field (known fields: approve)']);
  });
});

describe('durations', () => {
  test.each([
    ['30m', 1_800_000, '30 minutes'],
    ['1h', 3_600_000, 'hour'],
    ['24h', 86_400_000, '24 hours'],
    ['7d', 604_800_000, '7 days'],
    ['30s', 30_000, '30 seconds'],
    ['15m', 900_000, '15 minutes'],
    ['4h', 14_400_000, '4 hours'],
    ['2d', 172_800_000, '2 days'],
  ])('%s is %i ms, "per %s"', (text, ms, period) => {
    expect(parseDuration(text)).toBe(ms);
    expect(periodEnglish(text)).toBe(period);
  });

  test.each(['', 'h', '1.5h', '2 hours', '-1h', '3y', '5w', '1w', '4H', 'm15'])(
    '%j is not a duration',
    (text) => {
      expect(parseDuration(text)).toBeNull();
    },
  );
});

describe('follow-ups in the policy', () => {
  it('every operation reminds after 2h and warns 1h before expiry; none escalates until escalateTo names backups', () => {
    const policy = buildPolicy({ leads: LEADS });
    expect(policy.rules['folder.delete'].followUp).toEqual({
      remindAfter: '2h',
      remindAfterMs: 7_200_000,
      escalateTo: [],
      escalateAfter: '4h',
      escalateAfterMs: 14_400_000,
      warnBeforeExpiry: '1h',
      warnBeforeExpiryMs: 3_600_000,
    });
  });

  it('a policy file sets them per operation, and turns one off with off or null', () => {
    const policy = buildPolicy({
      leads: LEADS,
      fileText:
        'folder.delete: { remindAfter: 30s, escalateAfter: 15m, escalateTo: [S0BACKUP, U0BOSS], warnBeforeExpiry: off }\nfile.delete: { remindAfter: null }',
    });
    expect(policy.rules['folder.delete'].followUp).toMatchObject({
      remindAfterMs: 30_000,
      escalateAfterMs: 900_000,
      escalateTo: ['S0BACKUP', 'U0BOSS'],
      warnBeforeExpiry: null,
      warnBeforeExpiryMs: null,
    });
    expect(policy.rules['file.delete'].followUp.remindAfterMs).toBeNull();
    expect(checkPolicy(policy)).toEqual([]);
  });

  it.each([
    [
      'folder.delete: { remindAfter: 5w }',
      'folder.delete.remindAfter: must be a positive whole number followed by s, m, h or d (e.g. 30s, 15m, 4h, 2d), or off',
    ],
    [
      'folder.delete: { warnBeforeExpiry: -1h }',
      'folder.delete.warnBeforeExpiry: must be a positive whole number',
    ],
    ['folder.delete: { escalateAfter: h }', 'folder.delete.escalateAfter: must be a positive whole number'],
    ['folder.delete: { escalateTo: [boss] }', 'folder.delete.escalateTo.0: must be a Slack user ID'],
    [
      'folder.delete: { rateLimit: { max: 3, per: 1w } }',
      'folder.delete.rateLimit.per: must be a positive whole number',
    ],
  ])('%s is refused, naming the field', (fileText, expected) => {
    const error = configError(() => buildPolicy({ leads: LEADS, fileText, fileName: 'p.yaml' }));
    expect(error.problems.join('\n')).toContain(`POLICY_FILE p.yaml ${expected}`);
  });

  it('escalation that could never happen stops the start', () => {
    const late = buildPolicy({
      leads: LEADS,
      fileText: 'folder.delete: { escalateTo: [S0BACKUP], escalateAfter: 2d }',
    });
    expect(checkPolicy(late)).toEqual([
      'folder.delete escalates after 2d, but its requests expire after 24h; escalateAfter must be shorter',
    ]);
    const off = buildPolicy({
      leads: LEADS,
      fileText: 'folder.delete: { escalateTo: [S0BACKUP], escalateAfter: off }',
    });
    expect(checkPolicy(off)).toEqual([
      'folder.delete names backup approvers in escalateTo but escalateAfter is off; say after how long',
    ]);
  });

  it('a backup approver may approve only once the request was escalated to them', () => {
    const policy = buildPolicy({ leads: LEADS });
    const backup = { id: 'U0BACKUP', groups: ['S0BACKUP'] };
    expect(mayApprove(policy, pendingRequest(), backup)).toMatchObject({ ok: false, code: 'not-approver' });
    const escalated = pendingRequest({
      followUp: {
        remindedAt: null,
        remindedBy: null,
        autoReminded: false,
        escalatedAt: '2025-03-01T12:00:00.000Z',
        escalatedTo: ['S0BACKUP'],
        expiryWarnedAt: null,
      },
    });
    expect(mayApprove(policy, escalated, backup)).toEqual({ ok: true });
    expect(mayApprove(policy, escalated, { id: 'U0OTHER', groups: [] })).toMatchObject({
      ok: false,
      code: 'not-approver',
    });
  });
});

describe('time-boxed changes in the policy', () => {
  const DAY = 86_400_000;

  test('by default a change may be asked for up to 7 days, and need not be', () => {
    const policy = buildPolicy({ leads: LEADS });
    expect(policy.rules['protect.set']).toMatchObject({
      maxDuration: '7d',
      maxDurationMs: 7 * DAY,
      requireDuration: false,
    });
    expect(windowRule(policy, 'whitelist.set')).toEqual({
      operation: 'whitelist.set',
      title: 'Update whitelist',
      undo: 'time-box',
      requireDuration: false,
      maxMs: 7 * DAY,
      minMs: 60_000,
    });
  });

  test('an operator bounds protection changes to 4 hours and requires a window', () => {
    const policy = buildPolicy({
      leads: LEADS,
      fileName: 'p.yaml',
      fileText: 'protect.set: { maxDuration: 4h, requireDuration: true }',
    });
    expect(windowRule(policy, 'protect.set')).toMatchObject({ requireDuration: true, maxMs: 4 * 3_600_000 });
    expect(windowRule(policy, 'whitelist.set')).toMatchObject({ requireDuration: false, maxMs: 7 * DAY });
    expect(checkPolicy(policy)).toEqual([]);
  });

  test('an operation that cannot go back by itself is never required to', () => {
    expect(windowRule(buildPolicy({ leads: LEADS }), 'folder.edit')).toMatchObject({
      undo: 'revert',
      requireDuration: false,
    });
  });

  test.each([
    [
      'folder.delete: { requireDuration: true }',
      'POLICY_FILE p.yaml folder.delete.requireDuration: "Delete folder" cannot be asked for a while; only whitelist.set, protect.set can',
    ],
    [
      'file.edit: { maxDuration: 2h }',
      'POLICY_FILE p.yaml file.edit.maxDuration: "Edit file" cannot be asked for a while; only whitelist.set, protect.set can',
    ],
    [
      'protect.set: { maxDuration: 30s }',
      'POLICY_FILE p.yaml protect.set.maxDuration: must be at least 1m, the shortest window',
    ],
    [
      'protect.set: { maxDuration: 1w }',
      'POLICY_FILE p.yaml protect.set.maxDuration: must be a positive whole number followed by s, m, h or d (e.g. 30s, 15m, 4h, 2d)',
    ],
    [
      'whitelist.set: { requireDuration: yes please }',
      'POLICY_FILE p.yaml whitelist.set.requireDuration: must be true or false',
    ],
  ])('%s stops the start: %s', (fileText, problem) => {
    const error = configError(() => buildPolicy({ leads: LEADS, fileText, fileName: 'p.yaml' }));
    expect(error.problems).toEqual([problem]);
  });
});
