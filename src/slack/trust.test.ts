import type { AllMiddlewareArgs, AnyMiddlewareArgs } from '@slack/bolt';
import { socketModeGuard } from './app.js';
import { type Installation, installationProblem, replayKey, teamOf } from './receiver.js';

/**
 * Where a request comes from, and whether it was seen before, checked before any handler: the
 * pure checks of the HTTP receiver and the Socket Mode middleware. The HTTP paths are exercised
 * end to end in test/e2e/trust.test.ts.
 */

const WORKSPACE: Installation = { teamId: 'T0VIDOPS', enterpriseId: null, enterpriseInstall: false };
const GRID_WORKSPACE: Installation = { teamId: 'T0VIDOPS', enterpriseId: 'E0ORG', enterpriseInstall: false };
const ORG_WIDE: Installation = { teamId: 'T0VIDOPS', enterpriseId: 'E0ORG', enterpriseInstall: true };

const command = (team: string, enterprise?: string) => ({
  command: '/vidops',
  text: 'help',
  user_id: 'U1',
  team_id: team,
  ...(enterprise === undefined ? {} : { enterprise_id: enterprise }),
});
const click = (team: string, enterprise: string | null = null) => ({
  type: 'block_actions',
  user: { id: 'U1', team_id: team },
  team: { id: team, domain: 'x' },
  enterprise: enterprise === null ? null : { id: enterprise },
  actions: [],
});
const submission = (installedTeam: string, userTeam: string) => ({
  type: 'view_submission',
  user: { id: 'U1', team_id: userTeam },
  team: { id: userTeam },
  view: { app_installed_team_id: installedTeam, callback_id: 'c' },
});
const event = (team: string, enterprise: string | null = null) => ({
  type: 'event_callback',
  event_id: 'Ev1',
  team_id: 'T0SHARED',
  authorizations: [{ team_id: team, enterprise_id: enterprise, is_bot: true }],
  event: { type: 'app_home_opened', user: 'U1' },
});

describe('a request is for this installation only', () => {
  it.each([
    ['a command', command('T0VIDOPS')],
    ['a click', click('T0VIDOPS')],
    [
      'a submission in a view this workspace installed, by a guest of another',
      submission('T0VIDOPS', 'T0GUEST'),
    ],
    ['an event authorised for this workspace (from a shared channel)', event('T0VIDOPS')],
  ])('%s from the workspace passes', (_what, body) => {
    expect(installationProblem(body, WORKSPACE)).toBeNull();
  });

  it.each([
    ['a command', command('T0OTHER'), 'team T0OTHER is not T0VIDOPS'],
    ['a click', click('T0OTHER'), 'team T0OTHER is not T0VIDOPS'],
    ['a submission', submission('T0OTHER', 'T0VIDOPS'), 'team T0OTHER is not T0VIDOPS'],
    ['an event', event('T0OTHER'), 'team T0OTHER is not T0VIDOPS'],
    [
      'a request naming no team',
      { type: 'block_actions', user: { id: 'U1' } },
      'team (none) is not T0VIDOPS',
    ],
    [
      'a command from the same team ID in a Grid organisation',
      command('T0VIDOPS', 'E0ORG'),
      'organisation E0ORG is not (none)',
    ],
  ])('%s from elsewhere is refused', (_what, body, reason) => {
    expect(installationProblem(body, WORKSPACE)).toBe(reason);
  });

  it('in a Grid workspace the organisation must match too', () => {
    expect(installationProblem(command('T0VIDOPS', 'E0ORG'), GRID_WORKSPACE)).toBeNull();
    expect(installationProblem(click('T0VIDOPS', 'E0ORG'), GRID_WORKSPACE)).toBeNull();
    expect(installationProblem(click('T0VIDOPS', 'E0OTHER'), GRID_WORKSPACE)).toBe(
      'organisation E0OTHER is not E0ORG',
    );
  });

  it('an org-wide install takes every workspace of its organisation and no other', () => {
    expect(installationProblem(click('T0SISTER', 'E0ORG'), ORG_WIDE)).toBeNull();
    expect(installationProblem(event('T0SISTER', 'E0ORG'), ORG_WIDE)).toBeNull();
    expect(installationProblem(click('T0SISTER', 'E0OTHER'), ORG_WIDE)).toBe(
      'organisation E0OTHER is not E0ORG',
    );
    expect(installationProblem(click('T0SISTER'), ORG_WIDE)).toBe('organisation (none) is not E0ORG');
  });

  it('reads the team where Bolt does', () => {
    expect(teamOf(event('T0A', 'E0B'))).toEqual({ teamId: 'T0A', enterpriseId: 'E0B' });
    expect(teamOf({ type: 'event_callback', team_id: 'T0C' })).toEqual({ teamId: 'T0C', enterpriseId: null });
    expect(teamOf({ type: 'block_actions', user: { id: 'U1', team_id: 'T0D' } })).toEqual({
      teamId: 'T0D',
      enterpriseId: null,
    });
  });
});

describe('a replay key names one signed request', () => {
  it('the same signature gives the same key; another signature another key', () => {
    expect(replayKey('v0=aa')).toBe(replayKey('v0=aa'));
    expect(replayKey('v0=aa')).not.toBe(replayKey('v0=ab'));
    expect(replayKey('v0=aa')).toMatch(/^request:[0-9a-f]{64}$/);
  });
});

describe('Socket Mode envelopes are checked before any handler', () => {
  function setup(installation: Installation | null = WORKSPACE) {
    const keys = new Set<string>();
    const logged: string[] = [];
    const guard = socketModeGuard({
      installation: () => installation,
      seen: async (key) => {
        if (keys.has(key)) return false;
        keys.add(key);
        return true;
      },
      forget: async (key) => {
        keys.delete(key);
      },
      logger: {
        info: (_o: object, m?: string) => logged.push(m ?? ''),
        warn: (_o: object, m?: string) => logged.push(m ?? ''),
      },
    });
    const run = async (body: object, envelopeId?: string) => {
      let handled = false;
      let acked = 0;
      const args = {
        body,
        context: envelopeId === undefined ? {} : { envelopeId },
        ack: async () => {
          acked += 1;
        },
        next: async () => {
          handled = true;
        },
      };
      // The guard reads body, context, ack and next only; the rest of Bolt's arguments are not needed.
      await guard(args as unknown as AnyMiddlewareArgs & AllMiddlewareArgs);
      return { handled, acked };
    };
    return { run, logged };
  }

  it('a redelivered envelope is acknowledged and runs nothing the second time', async () => {
    const { run, logged } = setup();
    expect(await run(command('T0VIDOPS'), 'env-1')).toEqual({ handled: true, acked: 0 });
    expect(await run(command('T0VIDOPS'), 'env-1')).toEqual({ handled: false, acked: 1 });
    expect(await run(command('T0VIDOPS'), 'env-2')).toEqual({ handled: true, acked: 0 });
    expect(logged).toContain('redelivered Socket Mode envelope ignored');
  });

  it('an event delivered again in a new envelope is recognised by its event ID', async () => {
    const { run } = setup();
    expect((await run(event('T0VIDOPS'), 'env-a')).handled).toBe(true);
    expect((await run(event('T0VIDOPS'), 'env-b')).handled).toBe(false);
  });

  it('an envelope from another workspace is acknowledged, logged and runs nothing', async () => {
    const { run, logged } = setup();
    expect(await run(click('T0OTHER'), 'env-x')).toEqual({ handled: false, acked: 1 });
    expect(logged).toEqual(['refused a Slack request from another workspace']);
  });

  it('nothing runs before the installation is known', async () => {
    const { run } = setup(null);
    expect(await run(command('T0VIDOPS'), 'env-y')).toEqual({ handled: false, acked: 1 });
  });
});
