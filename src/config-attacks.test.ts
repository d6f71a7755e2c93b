import { describe, expect, it } from '@jest/globals';
import { type Config, loadConfig } from './config.js';
import { ConfigError } from './core/errors.js';
import { parsePolicyFile } from './core/policy.js';

/**
 * What an operator types into the environment or `.env` at 3 a.m., and what an attacker with a
 * shell could leave there: blank values, values pasted with a newline, numbers out of range,
 * URLs that would send the keys in clear text. Each bad setting must be refused with its variable
 * named, or read as the docs say; never kept as something that fails later, elsewhere.
 */

const valid: Record<string, string | undefined> = {
  SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
  SLACK_SIGNING_SECRET: 'shh',
  VIDEO_API_URL: 'http://127.0.0.1:4010',
  VIDEO_API_KEY: 'k',
  VIDEO_SECRET_KEY: 's',
  AUDIT_CHANNEL: 'C0AUDIT',
  LEADS: 'U0LEAD1, S0LEADS',
};

type Outcome = { kind: 'config'; config: Config } | { kind: 'refused'; problems: readonly string[] };

function load(env: Record<string, string | undefined>): Outcome {
  try {
    return { kind: 'config', config: loadConfig(env) };
  } catch (error) {
    if (error instanceof ConfigError) return { kind: 'refused', problems: error.problems };
    throw error;
  }
}

function problemsOf(env: Record<string, string | undefined>): readonly string[] {
  const outcome = load(env);
  if (outcome.kind === 'config') throw new Error('expected a ConfigError');
  return outcome.problems;
}

describe('an operator edits the environment', () => {
  it('an operator who blanks PORT= in .env gets the documented 3000, not a random port', () => {
    // .env.example ships `PORT=3000`; emptied, it must mean unset (as every other blank optional
    // value does), not `Number('') === 0`: a random port nobody (Slack, the probes) knows.
    for (const blank of ['', ' ']) {
      const outcome = load({ ...valid, PORT: blank });
      expect(outcome).toEqual(expect.objectContaining({ kind: 'config' }));
      if (outcome.kind === 'config') expect(outcome.config.port).toBe(3000);
    }
  });

  it('an operator who sets VIDEO_API_TIMEOUT_MS past what a timer holds is told so, not given 1 ms timeouts', () => {
    // Node caps a timer over 2^31-1 ms to 1 ms (TimeoutOverflowWarning): got then fails every call
    // with "Timeout awaiting 'request' for 99999999999ms" right away.
    const problems = problemsOf({ ...valid, VIDEO_API_TIMEOUT_MS: '99999999999' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^VIDEO_API_TIMEOUT_MS /);
  });

  it('an operator whose secret was mounted with a trailing newline gets it without, or is told which variable', () => {
    // `kubectl create secret --from-file`, `echo ... > secret` and Windows editors leave "\n" or
    // "\r\n". SLACK_SIGNING_SECRET is trimmed; the token and the video keys are kept as pasted and
    // then fail every Slack or API call with "Invalid character in header content".
    for (const [name, pasted] of [
      ['SLACK_BOT_TOKEN', 'xoxb-1-2-abc\n'],
      ['SLACK_BOT_TOKEN', 'xoxb-1-2-abc\r'],
      ['VIDEO_API_KEY', 'k\r\n'],
      ['VIDEO_SECRET_KEY', 's\n'],
      ['VIDEO_API_KEY', '   '],
    ] as const) {
      const outcome = load({ ...valid, [name]: pasted });
      if (outcome.kind === 'refused') {
        expect(outcome.problems.some((p) => p.startsWith(`${name} `))).toBe(true);
        continue;
      }
      const held = {
        SLACK_BOT_TOKEN: outcome.config.slack.botToken,
        VIDEO_API_KEY: outcome.config.video.apiKey,
        VIDEO_SECRET_KEY: outcome.config.video.secretKey,
      }[name];
      expect({ name, held }).toEqual({ name, held: pasted.trim() });
      expect(held).not.toBe('');
    }
  });

  it('an operator pointing VIDEO_API_URL at plain http on another host in production is refused, naming it', () => {
    // The keys go in the api_key and secret_key headers of every call; over http:// to a remote
    // host anyone on the path reads them. Loopback (the sandbox) stays allowed.
    const problems = problemsOf({
      ...valid,
      NODE_ENV: 'production',
      VIDEO_API_URL: 'http://video.example.com',
    });
    expect(problems.some((p) => p.startsWith('VIDEO_API_URL '))).toBe(true);
  });

  it('PORT typed in Persian digits, quoted or negative is refused with PORT named', () => {
    for (const port of ['۳۰۰۰', '"3000"', '-1', '65536']) {
      expect(problemsOf({ ...valid, PORT: port })).toEqual([expect.stringMatching(/^PORT /)]);
    }
  });

  it('a DATABASE_URL of an unsupported kind is refused without repeating its password', () => {
    const problems = problemsOf({ ...valid, DATABASE_URL: 'mysql://vidops:Hunter2Secret@db/vidops' });
    expect(problems).toEqual(['DATABASE_URL must start with sqlite: or postgres://']);
    expect(problems.join('\n')).not.toContain('Hunter2Secret');
  });
});

describe('an operator writes POLICY_FILE', () => {
  function policyProblems(text: string): readonly string[] {
    try {
      parsePolicyFile(text, '/etc/vidops/policy.yml');
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    throw new Error('expected a ConfigError');
  }

  it('an operation written twice is refused, not silently the last one', () => {
    const problems = policyProblems('folder.delete: { quorum: 2 }\nfolder.delete: { quorum: 1 }\n');
    expect(problems.join('\n')).toContain('unique');
  });

  it('a billion-laughs file of aliases is refused at once', () => {
    const level = (name: string, of: string) => `${name}: &${name} [${Array(9).fill(`*${of}`).join(',')}]`;
    const text = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      level('b', 'a'),
      level('c', 'b'),
      level('d', 'c'),
      level('e', 'd'),
      level('f', 'e'),
      level('g', 'f'),
    ].join('\n');
    const started = Date.now();
    expect(policyProblems(text).join('\n')).toContain('alias');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a rate limit of 0 or per 0s is refused, naming the field', () => {
    expect(policyProblems('viewer.unblock: { rateLimit: { max: 0, per: 1h } }')).toEqual([
      expect.stringContaining('viewer.unblock.rateLimit.max'),
    ]);
    expect(policyProblems('viewer.unblock: { rateLimit: { max: 5, per: 0s } }')).toEqual([
      expect.stringContaining('viewer.unblock.rateLimit.per'),
    ]);
  });
});
