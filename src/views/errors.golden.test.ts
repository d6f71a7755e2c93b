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
import { type Said, type StateFacts, say } from '../core/said.js';
import { ENGLISH, langFor } from '../i18n/index.js';
import { describeError, describeRecordedError, sayIn } from './errors.js';

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

const APPROVED_AND_RUN: StateFacts = {
  state: 'succeeded',
  approvals: 1,
  quorum: 1,
  approvers: ['Lena'],
  at: '10:02 UTC',
  by: null,
  expiredAt: '10:02 UTC',
  error: null,
};

/** The policy's, the state machine's and the services' refusals, and the look-up warnings. */
const SENTENCES: readonly [string, Said][] = [
  ['approving one’s own request', say.polOwnRequest()],
  ['approving twice', say.polApprovedAlready()],
  ['not an approver', say.polNotApprover(true, 'folder.delete', 'Delete folder')],
  ['not an agent', say.polNotAgent()],
  ['only leads run audit', say.polOnlyLeads('audit', null)],
  ['approvals from the CLI off', say.polCliOff()],
  ['a request decided already', say.reqCannot('R-7K2M9QXA', 'approved', APPROVED_AND_RUN)],
  [
    'a request that failed',
    say.reqCannot('R-7K2M9QXA', 'rejected', {
      ...APPROVED_AND_RUN,
      state: 'failed',
      by: 'Lena',
      error: 'not applied',
    }),
  ],
  ['a request expired', say.reqExpiredAt('R-7K2M9QXA', 'approved', '2026-11-20 10:02 UTC')],
  ['cancelling another’s request', say.reqOnlyRequesterCancels('Ana', 'R-7K2M9QXA')],
  ['reminding about another’s request', say.remindOnlyRequester('Ana', 'R-7K2M9QXA')],
  ['reminding where reminders are off', say.remindOff('folder delete')],
  ['reminding too soon', say.remindTooSoon('R-7K2M9QXA', '14:05 UTC', '16:05 UTC', '2h')],
  ['a delegate counted twice', say.reqCountsAlready('Lena', 'R-7K2M9QXA')],
  ['break-glass off', say.glassNotOn('folder.delete', 'Delete folder')],
  ['break-glass over its limit', say.glassRateLimited(3, '24h')],
  ['break-glass reviewed already', say.glassReviewed('R-7K2M9QXA', 'Lena', 'flagged')],
  ['delegating while one is in force', say.delegAlready('Dara', '2026-11-21 18:00 UTC')],
  ['delegating to oneself', say.delegSelf()],
  ['rejecting one’s own request', say.svcOwnReject()],
  ['no such request', say.svcNoRequest('R-NOTHERE')],
  [
    'sending a request again that may run twice',
    say.svcCannotSendAgain('R-7K2M9QXA', 'file.retry', 'Retry conversion'),
  ],
  ['a look-up that cannot tell', say.resolveNotProof('folder 6710a0000000000000000101')],
  ['settled: still there', say.outcomeStillThere('folder 6710a0000000000000000101', 'Lena')],
  ['a form opened by someone else', say.svcFormOfOther()],
  ['warning: not listed as blocked', say.warnNotBlocked()],
  ['warning: no viewing record', say.warnNoViewingRecord()],
  ['warning: a look-up failed', say.warnLookUp('file', { kind: 'answered', status: 404 })],
  ['warning: a look-up timed out', say.warnLookUp('viewer', { kind: 'timeout' })],
  ['warning: files of a folder', say.warnFolderFiles('6710a0000000000000000101', 'Lectures', 12)],
  ['warning: an ID of another shape', say.idShape('file', 'legacy-17')],
  ['warning: whitelist empty', say.warnWhitelistEmpty()],
];

describe.each([
  ['English', ENGLISH],
  ['Persian', langFor('fa')],
])('refusals and warnings in %s', (_, lang) => {
  it.each(SENTENCES)('for %s', (__, said) => {
    expect(sayIn(lang, said)).toMatchSnapshot();
  });

  it('as a refusal of the policy, it reads the same through describeError', () => {
    const error = new PolicyDeniedError(say.polOwnRequest());
    expect(describeError(error, { timeoutMs: 10_000, lang }).text).toBe(sayIn(lang, say.polOwnRequest()));
  });
});
