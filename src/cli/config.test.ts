import { loadCliConfig } from '../config.js';
import { ConfigError } from '../core/errors.js';

const FULL = {
  VIDEO_API_URL: 'http://127.0.0.1:4010',
  VIDEO_API_KEY: 'k',
  VIDEO_SECRET_KEY: 's',
  LEADS: 'U0LEAD1, S0LEADS',
};

function problems(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('CLI configuration', () => {
  test('the full CLI needs the API and LEADS but none of the Slack variables', () => {
    const config = loadCliConfig(FULL);
    expect(config).toEqual({
      databaseUrl: 'sqlite:data/vidops.db',
      auditHmacKey: undefined,
      auditSigningKeyFile: undefined,
      auditLogName: 'vidops',
      leads: ['U0LEAD1', 'S0LEADS'],
      agents: undefined,
      policyFile: undefined,
      timeZone: 'Asia/Tehran',
      video: {
        url: 'http://127.0.0.1:4010',
        apiKey: 'k',
        secretKey: 's',
        timeoutMs: 10_000,
        retryConversionMethod: 'auto',
      },
      phoneRegion: 'IR',
      phoneRegions: ['IR'],
    });
  });

  test('the CLI too refuses the example values of .env.example', () => {
    expect(problems(() => loadCliConfig({ ...FULL, LEADS: 'U0123LEAD' }))).toEqual([
      'LEADS still holds the example value from .env.example (U0123LEAD); put in your own',
    ]);
  });

  test('every missing or wrong variable is listed at once', () => {
    expect(problems(() => loadCliConfig({ PHONE_REGION: 'XX', LEADS: 'bob' }))).toEqual([
      'LEADS "bob" is not a Slack user ID (U…/W…) or user-group ID (S…) in LEADS',
      'VIDEO_API_URL is required',
      'VIDEO_API_KEY is required',
      'VIDEO_SECRET_KEY is required',
      'PHONE_REGION must be a two-letter region code that libphonenumber knows',
    ]);
  });

  test('the store scope needs nothing but reads LEADS and the HMAC key when set', () => {
    expect(loadCliConfig({}, 'store')).toEqual({
      databaseUrl: 'sqlite:data/vidops.db',
      auditHmacKey: undefined,
      auditSigningKeyFile: undefined,
      auditLogName: 'vidops',
      leads: undefined,
      agents: undefined,
      policyFile: undefined,
      timeZone: 'Asia/Tehran',
    });
    expect(
      loadCliConfig({ LEADS: ' ', AUDIT_HMAC_KEY: 'key', DATABASE_URL: 'sqlite:a.db' }, 'store'),
    ).toMatchObject({
      databaseUrl: 'sqlite:a.db',
      auditHmacKey: 'key',
      leads: undefined,
    });
    expect(problems(() => loadCliConfig({ DATABASE_URL: 'mysql://x' }, 'store'))).toEqual([
      'DATABASE_URL must start with sqlite: or postgres://',
    ]);
  });
  it('DISPLAY_TIME_ZONE is read by the CLI too, and a zone Node does not know is refused', () => {
    expect(loadCliConfig({ DISPLAY_TIME_ZONE: 'UTC' }, 'store').timeZone).toBe('UTC');
    expect(() => loadCliConfig({ DISPLAY_TIME_ZONE: 'Mars/Olympus' }, 'store')).toThrow(/DISPLAY_TIME_ZONE/);
  });
});
