import { english } from '../i18n/said.js';
import { ConfigError } from './errors.js';
import { buildPolicy, checkPolicy, decide } from './policy.js';

const agent = { id: 'U0AGENT', groups: [] };
const now = new Date('2026-11-21T10:00:00.000Z');
const REPEAT = 'viewer.unblock: { repeat: { within: 30d, max: 2 } }';

describe('the repeat rule of the policy', () => {
  it('is off unless the policy sets it', () => {
    expect(buildPolicy({ leads: ['U0LEAD'] }).rules['viewer.unblock'].repeat).toBeNull();
  });

  it('an operator sets it: 30 days, at most 2', () => {
    const policy = buildPolicy({ leads: ['U0LEAD'], fileText: REPEAT });
    expect(policy.rules['viewer.unblock'].repeat).toEqual({
      within: '30d',
      withinMs: 30 * 86_400_000,
      max: 2,
    });
    expect(checkPolicy(policy)).toEqual([]);
  });

  it.each([
    [
      'on another operation',
      'file.retry: { repeat: { within: 30d, max: 2 } }',
      /file\.retry\.repeat: only viewer\.unblock/,
    ],
    ['a max of 0', 'viewer.unblock: { repeat: { within: 30d, max: 0 } }', /repeat\.max: must be at least 1/],
    [
      'a window that is not a duration',
      'viewer.unblock: { repeat: { within: month, max: 2 } }',
      /repeat\.within/,
    ],
  ])('refuses a rule %s, naming it', (_name, text, message) => {
    expect(() => buildPolicy({ leads: ['U0LEAD'], fileText: text })).toThrow(ConfigError);
    expect(() => buildPolicy({ leads: ['U0LEAD'], fileText: text })).toThrow(message);
  });

  it('the 3rd unblock in the window needs a lead, whatever else the policy says, and says why', () => {
    const policy = buildPolicy({
      leads: ['U0LEAD'],
      fileText: 'viewer.unblock: { repeat: { within: 30d, max: 2 }, rateLimit: null, quorum: 0 }',
    });
    const repeat = { viewer: '09124564567', nth: 3, max: 2, within: '30d' };
    const decision = decide(policy, {
      operation: 'viewer.unblock',
      actor: agent,
      recentCount: 0,
      now,
      repeat,
    });
    expect(decision).toMatchObject({ kind: 'approval', quorum: 1 });
    expect(decision.kind === 'approval' && decision.why && english(decision.why)).toBe(
      'the 3rd unblock of 0912***4567 in 30 days',
    );
    expect(decide(policy, { operation: 'viewer.unblock', actor: agent, recentCount: 0, now })).toEqual({
      kind: 'allow',
    });
  });
});
