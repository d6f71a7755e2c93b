import {
  ApiError,
  type ApiErrorDetails,
  AuthError,
  NetworkError,
  NotFoundError,
  NotSupportedError,
  RateLimitError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  ValidationError,
  WhitelistConflictError,
  WhitelistMismatchError,
} from '../client/errors.js';
import { InputError, PolicyDeniedError, StateConflictError, VidopsError } from '../core/errors.js';
import { say } from '../core/said.js';
import { ENGLISH, langFor } from '../i18n/index.js';
import { describeError, describeRecordedError } from './errors.js';

/**
 * Golden snapshots of what a person reads for each kind of error, in English and Persian.
 * @see docs/architecture.md, "Languages"
 */

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

const SAID = 'The video service answered 404 to POST /v1/x (viewer.unblock): no such viewer';

const ERRORS: readonly [string, unknown][] = [
  ['a timeout', new TimeoutError('no answer', details())],
  ['an answer too large', new ResponseTooLargeError('too large', details())],
  ['keys refused', new AuthError('401', details({ status: 401 }))],
  ['the service failing', new ServerError('503', details({ status: 503 }))],
  ['too many requests', new RateLimitError('429', { ...details({ status: 429 }), retryAfterSeconds: null })],
  [
    'too many requests, with a wait',
    new RateLimitError('429', { ...details({ status: 429 }), retryAfterSeconds: 30 }),
  ],
  ['a connection never made', new NetworkError('refused', { ...details(), code: 'ECONNREFUSED' })],
  ['a connection cut', new NetworkError('reset', { ...details(), code: 'ECONNRESET' })],
  ['an unnamed network failure', new NetworkError('failed', { ...details(), code: null })],
  [
    'an extra not supported',
    new NotSupportedError('This service does not support creating playlists (POST)', details()),
  ],
  ['something not supported', new NotSupportedError('file.info is not supported', details())],
  ['an unknown ID', new NotFoundError(SAID, details({ status: 404 }))],
  [
    'a refusal with issues',
    new ValidationError('400', { ...details({ status: 400 }), issues: ['mobileNumber is invalid'] }),
  ],
  ['a refusal without issues', new ValidationError(SAID, details({ status: 422 }))],
  [
    'a whitelist that changed',
    new WhitelistConflictError('changed', { ...details(), expected: [], actual: [] }),
  ],
  [
    'a whitelist not as intended',
    new WhitelistMismatchError('mismatch', { ...details(), intended: [], actual: [] }),
  ],
  [
    'any other answer',
    new ApiError('The video service answered 418 to GET /v1/x (op): teapot', details({ status: 418 })),
  ],
  ['bad input, as a sentence', new InputError(say.prepWhitelistHas(['203.0.113.7', '2a00:1::4']))],
  [
    'bad input, with issues',
    new InputError(say.prepFilesMissing(['6710b0000000000000000203']), [
      'file 6710b0000000000000000203 does not exist',
    ]),
  ],
  ['bad input, in English only', new InputError('The form lost its context; open it again.')],
  [
    'a refusal of the policy',
    new PolicyDeniedError('You asked for this change, so someone else has to approve it.'),
  ],
  ['a state conflict', new StateConflictError('Request R-7K2M9QXA was already decided.')],
  ['a fault of ours', new VidopsError('internal')],
  ['anything else', new Error('boom')],
];

describe.each([
  ['English', ENGLISH],
  ['Persian', langFor('fa')],
])('what a person reads in %s', (_, lang) => {
  it.each(ERRORS)('for %s', (__, error) => {
    expect(describeError(error, { timeoutMs: 10_000, lang })).toMatchSnapshot();
  });

  it('for errors recorded on failed requests', () => {
    const options = { timeoutMs: 10_000, lang };
    expect(describeRecordedError({ name: 'TimeoutError', message: 'no answer' }, options)).toMatchSnapshot();
    expect(
      describeRecordedError({ name: 'NotFoundError', message: SAID, status: 404 }, options),
    ).toMatchSnapshot();
    expect(
      describeRecordedError({ name: 'Weird', message: 'it broke', status: 500 }, options),
    ).toMatchSnapshot();
  });
});
