import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { FIELDS, loadConfig } from './config.js';
import { ConfigError } from './core/errors.js';

const valid = {
  SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
  SLACK_SIGNING_SECRET: 'shh',
  VIDEO_API_URL: 'http://127.0.0.1:4010',
  VIDEO_API_KEY: 'k',
  VIDEO_SECRET_KEY: 's',
  AUDIT_CHANNEL: 'C0AUDIT',
  LEADS: 'U0LEAD1, S0LEADS',
};

function problemsOf(env: Record<string, string | undefined>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('operator starts vidops', () => {
  it('gets the documented defaults from a minimal environment', () => {
    const config = loadConfig(valid);
    expect(config.port).toBe(3000);
    expect(config.approvalChannel).toBe('C0AUDIT');
    expect(config.leads).toEqual(['U0LEAD1', 'S0LEADS']);
    expect(config.agents).toBeUndefined();
    expect(config.databaseUrl).toBe('sqlite:data/vidops.db');
    expect(config.phoneRegion).toBe('IR');
    expect(config.video.timeoutMs).toBe(10_000);
    expect(config.video.retryConversionMethod).toBe('auto');
    expect(config.slack.socketMode).toBe(false);
    expect(config.logLevel).toBe('info');
    expect(config.auditSigningKeyFile).toBeUndefined();
    expect(config.auditLogName).toBe('vidops');
    expect(config.auditCheckpointEvery).toEqual({ events: 1000, ms: 60 * 60_000 });
  });

  it('switches to Socket Mode when an app token is set and then needs no signing secret', () => {
    const config = loadConfig({ ...valid, SLACK_SIGNING_SECRET: undefined, SLACK_APP_TOKEN: 'xapp-1-x' });
    expect(config.slack.socketMode).toBe(true);
  });

  it('is told every problem at once, each with its variable name', () => {
    const problems = problemsOf({
      SLACK_BOT_TOKEN: 'xoxp-user-token',
      PORT: 'eighty',
      LEADS: 'U0LEAD1,bob',
      AUDIT_CHANNEL: '#audit',
      PHONE_REGION: 'ZZ',
      DATABASE_URL: 'mysql://x',
    });
    const text = problems.join('\n');
    for (const name of [
      'SLACK_BOT_TOKEN',
      'PORT',
      'LEADS',
      'AUDIT_CHANNEL',
      'PHONE_REGION',
      'DATABASE_URL',
      'VIDEO_API_URL',
      'VIDEO_API_KEY',
      'VIDEO_SECRET_KEY',
      'SLACK_SIGNING_SECRET',
    ]) {
      expect(text).toContain(name);
    }
    expect(text).toContain('"bob"');
  });

  it('refuses an empty LEADS list', () => {
    expect(problemsOf({ ...valid, LEADS: ' , ' }).join()).toContain('LEADS needs at least one lead');
  });

  it('never echoes secret values in the problems, refused ones included', () => {
    const problems = problemsOf({
      ...valid,
      VIDEO_API_URL: 'not a url',
      VIDEO_API_KEY: 'sekret-123',
      // A user token where a bot token belongs: refused, and still not repeated.
      SLACK_BOT_TOKEN: 'xoxp-sekret-456',
      SLACK_APP_TOKEN: 'xoxe-sekret-789',
    });
    const text = problems.join('\n');
    expect(text).toContain('SLACK_BOT_TOKEN must be a bot token');
    expect(text).toContain('SLACK_APP_TOKEN must be an app-level token');
    for (const secret of ['sekret-123', 'sekret-456', 'sekret-789']) expect(text).not.toContain(secret);
  });
});

describe('a newcomer copies .env.example', () => {
  // VIDEO_API_URL ships empty (the playground starts its own sandbox); here it names one.
  const example = {
    ...parse(readFileSync(new URL('../.env.example', import.meta.url), 'utf8')),
    VIDEO_API_URL: 'http://127.0.0.1:4010',
  };
  const filled = {
    ...example,
    SLACK_BOT_TOKEN: 'xoxb-1-2-real',
    SLACK_SIGNING_SECRET: 'a-real-secret',
    AUDIT_CHANNEL: 'C0REALAUDIT',
    LEADS: 'U0REALLEAD',
  };

  it('is told at start which variables still hold the example values', () => {
    const problems = problemsOf(example);
    for (const name of ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'AUDIT_CHANNEL', 'LEADS']) {
      expect(problems).toContainEqual(
        expect.stringMatching(new RegExp(`^${name} still holds the example value from \\.env\\.example`)),
      );
    }
    expect(problems).toHaveLength(4);
  });

  it('starts once the placeholders are filled in, blank optional values meaning unset', () => {
    const config = loadConfig(filled);
    expect(config.agents).toBeUndefined();
    expect(config.approvalChannel).toBe(config.auditChannel);
    expect(config.slack.socketMode).toBe(false);
    expect(config.policyFile).toBeUndefined();
    expect(config.phoneRegions).toEqual(['IR']);
  });

  it('refuses one example lead left in a list of real ones', () => {
    expect(problemsOf({ ...filled, LEADS: 'U0REALLEAD,S0123LEADS' })).toEqual([
      'LEADS still holds the example value from .env.example (S0123LEADS); put in your own',
    ]);
  });

  it('keeps the sandbox demo keys for the local sandbox only', () => {
    expect(loadConfig({ ...filled, VIDEO_API_URL: 'http://localhost:4010' }).video.apiKey).toBe(
      'demo-api-key',
    );
    expect(problemsOf({ ...filled, VIDEO_API_URL: 'https://api.video.example' })).toEqual([
      "VIDEO_API_KEY still holds the sandbox's demo key from .env.example, but VIDEO_API_URL is not the local sandbox; put in the service's key",
      "VIDEO_SECRET_KEY still holds the sandbox's demo key from .env.example, but VIDEO_API_URL is not the local sandbox; put in the service's key",
    ]);
  });

  it('finds every variable vidops reads documented there', () => {
    expect(Object.keys(example).sort()).toEqual(Object.keys(FIELDS).sort());
  });
});

describe('operator sets up signed audit checkpoints', () => {
  it.each([
    ['500', { events: 500, ms: null }],
    ['15m', { events: null, ms: 15 * 60_000 }],
    ['2h', { events: null, ms: 2 * 60 * 60_000 }],
    ['1000, 60m', { events: 1000, ms: 60 * 60_000 }],
    ['30M,250', { events: 250, ms: 30 * 60_000 }],
  ])('AUDIT_CHECKPOINT_EVERY=%s reads as a count, a time or both', (text, every) => {
    expect(loadConfig({ ...valid, AUDIT_CHECKPOINT_EVERY: text }).auditCheckpointEvery).toEqual(every);
  });

  it.each(['0', 'often', '10s', '5,6', '1m,2h', '1000,60m,3', '-5'])(
    'AUDIT_CHECKPOINT_EVERY=%s is refused, saying what it takes',
    (text) => {
      expect(problemsOf({ ...valid, AUDIT_CHECKPOINT_EVERY: text })).toEqual([
        `AUDIT_CHECKPOINT_EVERY must be a number of events (1000), minutes or hours (60m, 2h), or both (1000,60m), not "${text}"`,
      ]);
    },
  );

  it('names the log after AUDIT_LOG_NAME, refusing spaces and "+", and reads the key file path', () => {
    const config = loadConfig({
      ...valid,
      AUDIT_LOG_NAME: 'tehran-1',
      AUDIT_SIGNING_KEY_FILE: ' /etc/vidops/audit.key ',
    });
    expect(config.auditLogName).toBe('tehran-1');
    expect(config.auditSigningKeyFile).toBe('/etc/vidops/audit.key');
    for (const name of ['tehran 1', 'tehran+1', 'vidops/x', 'a'.repeat(65)]) {
      expect(problemsOf({ ...valid, AUDIT_LOG_NAME: name }).join()).toContain(
        'AUDIT_LOG_NAME must be letters, digits',
      );
    }
  });
});

describe('operator lists the countries whose mobiles are accepted', () => {
  it('accepts PHONE_REGION alone by default, and more with PHONE_REGIONS', () => {
    expect(loadConfig(valid).phoneRegions).toEqual(['IR']);
    expect(loadConfig({ ...valid, PHONE_REGIONS: ' af, ph ,ir' }).phoneRegions).toEqual(['IR', 'AF', 'PH']);
  });

  it('is told which listed region is unknown', () => {
    expect(problemsOf({ ...valid, PHONE_REGIONS: 'AF,XX' }).join()).toContain(
      'PHONE_REGIONS "XX" is not a two-letter region code',
    );
  });
});
