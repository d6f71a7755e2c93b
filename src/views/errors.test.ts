import {
  type ApiErrorDetails,
  AuthError,
  NetworkError,
  NotSupportedError,
  RateLimitError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../client/errors.js';
import { InputError, PolicyDeniedError } from '../core/errors.js';
import { say } from '../core/said.js';
import { describeError, describeRecordedError } from './errors.js';

const OPTIONS = { timeoutMs: 10_000, secrets: ['demo-secret-key-123', 'xoxb-not-shown'] };

function details(overrides: Partial<ApiErrorDetails> = {}): ApiErrorDetails {
  return {
    status: null,
    body: null,
    operation: 'viewer.unblock',
    method: 'POST',
    path: '/v1/analysis/user/video/anomaly',
    ...overrides,
  };
}

describe('what the agent reads when something fails', () => {
  it.each([
    [
      'the service is slow',
      new TimeoutError('The video service did not answer', details()),
      'The video service did not answer within 10 s. If this was a change, it may or may not have been applied',
    ],
    [
      'the keys are refused',
      new AuthError('answered 401', details({ status: 401 })),
      'The video service refused the keys (401); nothing was changed. Tell an operator',
    ],
    [
      'an extra is missing',
      new NotSupportedError('viewer.lookup is not supported', details({ status: 404 })),
      'That is not supported by this service.',
    ],
    [
      'the service has no endpoint that creates playlists',
      new NotSupportedError(
        'This service does not support creating playlists (POST /v1/playlist answered 404)',
        details({ status: 404, operation: 'playlist.create', method: 'POST', path: '/v1/playlist' }),
      ),
      'This service does not support creating playlists; nothing was changed.',
    ],
    [
      'the connection is reset',
      new NetworkError('socket hang up', { ...details(), code: 'ECONNRESET' }),
      'The connection to the video service failed (ECONNRESET). If this was a change, it may or may not',
    ],
    [
      'the service refuses connections',
      new NetworkError('connect refused', { ...details(), code: 'ECONNREFUSED' }),
      'could not be reached (ECONNREFUSED); nothing was changed',
    ],
    [
      'the answer is too large to read',
      new ResponseTooLargeError('larger than 1 MiB', details()),
      "The video service's answer was larger than 1 MiB; it was not read. If this was a change, it may or may not have been applied",
    ],
    ['the service fails', new ServerError('answered 503', details({ status: 503 })), 'failed (503)'],
    [
      'the service rate-limits',
      new RateLimitError('answered 429', { ...details({ status: 429 }), retryAfterSeconds: 30 }),
      'Try again in 30 s.',
    ],
    [
      'the service refuses a field',
      new ValidationError('answered 400', {
        ...details({ status: 400 }),
        issues: ['mobileNumber is invalid'],
      }),
      'refused the request (400): mobileNumber is invalid. Nothing was changed.',
    ],
    ['the policy refuses', new PolicyDeniedError('Only leads may run audit.'), 'Only leads may run audit.'],
  ])('when %s', (_when, error, text) => {
    const view = describeError(error, OPTIONS);
    expect(view.text).toContain(text);
    expect(view.expected).toBe(true);
  });

  it('bad input lists its issues', () => {
    const view = describeError(
      new InputError('The settings were not changed.', ['opacity: must be between 0 and 1']),
      OPTIONS,
    );
    expect(view.text).toBe('The settings were not changed.\n• opacity: must be between 0 and 1');
  });

  it('bad input made from a sentence does not list again an issue its sentence says', () => {
    const issue = '"10.0.0.1" is not usable';
    const view = describeError(
      new InputError(say.grammarWhitelistRefused([say.ipNotIp('10.0.0.1')]), [issue]),
      OPTIONS,
    );
    expect(view.text).toBe(
      'The whitelist was not changed:\n• "10.0.0.1" is not an IPv4 or IPv6 address\n• "10.0.0.1" is not usable',
    );
    const said = describeError(
      new InputError(say.prepFilesMissing(['F1']), [
        'File F1 does not exist; take it out of the playlist or check the ID.',
      ]),
      OPTIONS,
    );
    expect(said.text).toBe('File F1 does not exist; take it out of the playlist or check the ID.');
  });

  it('a fault of ours is an apology, flagged for the log, with nothing of the error in it', () => {
    const view = describeError(new TypeError('cannot read x of undefined (demo-secret-key-123)'), OPTIONS);
    expect(view.expected).toBe(false);
    expect(view.text).toContain('Something went wrong inside vidops');
    expect(view.text).not.toContain('demo-secret-key-123');
  });

  it('the service’s own words are shown without secrets or whole mobile numbers', () => {
    const error = new ValidationError(
      'The video service answered 422 to POST /v1/x (viewer.unblock): bad key demo-secret-key-123 for 09123456789',
      details({ status: 422 }),
    );
    const view = describeError(error, OPTIONS);
    expect(view.text).toContain('[redacted]');
    expect(view.text).toContain('0912***6789');
    expect(view.text).not.toContain('demo-secret-key-123');
    expect(view.text).not.toContain('09123456789');
  });

  it.each([
    [{ name: 'TimeoutError', message: 'x' }, 'did not answer within 10 s'],
    [{ name: 'AuthError', message: 'x', status: 403 }, 'refused the keys (403)'],
    [{ name: 'ServerError', message: 'x', status: 500 }, 'failed (500)'],
    [{ name: 'NetworkError', message: 'x' }, 'The connection to the video service failed'],
    [
      { name: 'ResponseTooLargeError', message: 'x' },
      'it was not read. If this was a change, it may or may not',
    ],
    [
      { name: 'Error', message: 'odd thing with xoxb-not-shown', status: 418 },
      'It failed (418): odd thing with [redacted]',
    ],
  ])('a request recorded as failed with %o reads "%s"', (recorded, text) => {
    expect(describeRecordedError(recorded, OPTIONS)).toContain(text);
  });
});
