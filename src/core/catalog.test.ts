import { langFor } from '../i18n/lang.js';
import { messageOf, sayWith } from '../i18n/said.js';
import {
  OPERATION_SPECS,
  type OperationParams,
  operationTarget,
  operationTitle,
  parseParams,
  READ_OPERATION_TITLES,
  readRequest,
} from './catalog.js';
import { InputError, VidopsError } from './errors.js';
import { CHANGE_OPERATIONS, type ChangeOperation, READ_OPERATIONS } from './operations.js';
import { MOBILE_PARAM_RULE } from './validate/phone.js';

const OID = '671018d0403eba579a6f90e2';

/** Valid stored parameters for each operation, exactly as execution sends them. */
const VALID: { [O in ChangeOperation]: OperationParams[O] } = {
  'whitelist.set': { allowedDNS: ['203.0.113.10', '2001:db8::1'], expectBefore: ['203.0.113.10'] },
  'protect.set': { changes: { opacity: 0.5, player: { offlineMode: true } } },
  'folder.create': { title: 'Lectures', description: 'Spring term' },
  'folder.edit': { bucketId: OID, title: 'Lectures 2' },
  'folder.delete': { bucketId: OID },
  'file.edit': {
    fileId: OID,
    title: 'Intro',
    cover: {
      slackFileId: 'F0123',
      filename: 'cover.png',
      contentType: 'image/png',
      url: 'https://files.slack.com/files-pri/T1-F0123/cover.png',
    },
  },
  'file.delete': { fileId: OID },
  'file.retry': { fileId: OID },
  'playlist.create': { title: 'Onboarding' },
  'playlist.edit': { playlistId: OID, files: [{ _id: OID, title: 'Intro' }] },
  'playlist.delete': { playlistId: OID },
  'viewer.unblock': { mobileNumber: '09123456789' },
  'viewer.unblock-many': { mobileNumbers: ['09123456789', '09351112222'] },
};

describe('operations catalog', () => {
  it.each([
    ['whitelist.set', 'Update whitelist', 1, 'sensitive', 'resume', 'whitelist'],
    ['protect.set', 'Change protection settings', 3, 'sensitive', 'resume', 'protection settings'],
    ['folder.create', 'Create folder', 5, 'reversible', 'never', 'new folder "Lectures"'],
    ['folder.edit', 'Edit folder', 6, 'reversible', 'resume', `folder ${OID}`],
    ['folder.delete', 'Delete folder', 7, 'irreversible', 'lead', `folder ${OID}`],
    ['file.edit', 'Edit file', 8, 'reversible', 'resume', `file ${OID}`],
    ['file.delete', 'Delete file', 9, 'irreversible', 'lead', `file ${OID}`],
    ['file.retry', 'Retry conversion', 10, 'reversible', 'never', `file ${OID}`],
    ['playlist.create', 'Create playlist', null, 'reversible', 'never', 'new playlist "Onboarding"'],
    ['playlist.edit', 'Edit playlist', 11, 'reversible', 'resume', `playlist ${OID}`],
    ['playlist.delete', 'Delete playlist', 12, 'irreversible', 'lead', `playlist ${OID}`],
    ['viewer.unblock', 'Unblock viewer', 13, 'reversible', 'resume', 'viewer 09123456789'],
    ['viewer.unblock-many', 'Unblock viewers', null, 'reversible', 'resume', '2 viewers'],
  ] as const)(
    '%s: "%s", spec op %p, %s, repeat %s, target %s',
    (name, title, specOp, risk, repeat, target) => {
      const spec = OPERATION_SPECS[name];
      expect({
        name: spec.name,
        title: spec.title,
        specOp: spec.endpoint.specOp,
        risk: spec.risk,
        repeat: spec.endpoint.repeat,
      }).toEqual({
        name,
        title,
        specOp,
        risk,
        repeat,
      });
      expect(operationTarget(name, VALID[name])).toBe(target);
    },
  );

  it('covers every change operation and titles every read operation', () => {
    expect(Object.keys(OPERATION_SPECS).sort()).toEqual([...CHANGE_OPERATIONS].sort());
    expect(Object.keys(READ_OPERATION_TITLES).sort()).toEqual([...READ_OPERATIONS].sort());
    expect(operationTitle('whitelist.get')).toBe('Show whitelist');
    expect(operationTitle('viewer.unblock')).toBe('Unblock viewer');
  });

  it.each(CHANGE_OPERATIONS)('%s: stored parameters parse back unchanged', (operation) => {
    expect(parseParams(operation, VALID[operation])).toEqual(VALID[operation]);
  });
});

describe('parameters that must never reach the API', () => {
  it.each([
    [
      'whitelist.set',
      { allowedDNS: ['example.com'], expectBefore: [] },
      'allowedDNS.0: must be an IPv4 or IPv6 address',
    ],
    [
      'whitelist.set',
      { allowedDNS: ['10.0.0.0/8'], expectBefore: [] },
      'allowedDNS.0: must be an IPv4 or IPv6 address',
    ],
    [
      'whitelist.set',
      { allowedDNS: ['2001:db8::1', '2001:DB8::1'], expectBefore: [] },
      'allowedDNS: must not list an address twice',
    ],
    [
      'whitelist.set',
      { allowedDNS: ['1.1.1.1'] },
      'expectBefore: Invalid input: expected array, received undefined',
    ],
    ['protect.set', { changes: {} }, 'changes: must change at least one setting'],
    ['protect.set', { changes: { opacity: 3 } }, 'changes.opacity: must be between 0 and 1'],
    [
      'protect.set',
      { changes: { link: { expireTime: 'soon' } } },
      'changes.link.expireTime: must be a number and a unit (s m h d w M y), e.g. 2h',
    ],
    ['folder.create', { title: '' }, 'title: must not be empty'],
    ['folder.create', { title: '   ' }, 'title: must not be blank'],
    ['folder.create', { title: 'x', owner: 'me' }, 'Unrecognized key: "owner"'],
    [
      'folder.edit',
      { bucketId: 'a b', title: 'x' },
      'bucketId: must have no spaces, slashes or control characters',
    ],
    ['file.delete', { fileId: '..' }, 'fileId: must not be made only of dots'],
    ['file.edit', { fileId: '.', title: 'x' }, 'fileId: must not be made only of dots'],
    ['folder.delete', { bucketId: '...' }, 'bucketId: must not be made only of dots'],
    ['playlist.edit', { playlistId: '..', title: 'x' }, 'playlistId: must not be made only of dots'],
    ['folder.delete', { bucketId: '' }, 'bucketId: must not be empty'],
    [
      'file.edit',
      { fileId: 'a/b', title: 'x' },
      'fileId: must have no spaces, slashes or control characters',
    ],
    [
      'file.edit',
      {
        fileId: OID,
        title: 'x',
        cover: {
          slackFileId: 'F1',
          filename: 'a.pdf',
          contentType: 'application/pdf',
          url: 'https://x.test/a',
        },
      },
      'cover.contentType: must be an image type',
    ],
    ['file.delete', {}, 'fileId: Invalid input: expected string, received undefined'],
    ['file.retry', { fileId: OID, force: true }, 'Unrecognized key: "force"'],
    ['playlist.edit', { playlistId: OID }, 'must change the title or the files'],
    [
      'playlist.edit',
      { playlistId: OID, files: [{ title: 'x' }] },
      'files.0._id: Invalid input: expected string, received undefined',
    ],
    [
      'playlist.delete',
      { playlistId: 'p/1' },
      'playlistId: must have no spaces, slashes or control characters',
    ],
    ['viewer.unblock', { mobileNumber: '+98 912 345 6789' }, `mobileNumber: ${MOBILE_PARAM_RULE}`],
    ['viewer.unblock', { mobileNumber: '091' }, `mobileNumber: ${MOBILE_PARAM_RULE}`],
  ] as const)('%s refuses %j', (operation, params, issue) => {
    let caught: unknown;
    try {
      parseParams(operation, params);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect(caught instanceof InputError ? caught.issues : []).toContain(issue);
  });

  it('names the operation in the error message, in English and Persian', () => {
    const error = thrown(() => parseParams('viewer.unblock', null));
    expect(messageOf(error)).toContain('The parameters of "Unblock viewer" are not valid');
    const persian =
      error instanceof VidopsError && error.said !== null ? sayWith(langFor('fa').t.errors, error.said) : '';
    expect(persian).toContain('پارامترهای «رفع مسدودی بیننده» معتبر نیستند');
  });
});

describe('a stored request read back', () => {
  const fields = {
    id: 'R-7K2M9QXA',
    paramsHash: 'a'.repeat(64),
    target: 'folder 6710a0000000000000000101',
    reason: null,
    requester: { id: 'U0AGENT1', name: 'Ava' },
    state: 'pending' as const,
    quorum: 1,
    approvals: [],
    decidedBy: null,
    decisionNote: null,
    createdAt: '2025-01-05T06:00:00.000Z',
    expiresAt: null,
    updatedAt: '2025-01-05T06:00:00.000Z',
    result: null,
    error: null,
    slack: null,
    version: 1,
  };
  const preview = { kind: 'delete', resource: 'folder', id: OID, title: 'Lectures', filesCount: 3 };

  it('has its parameters and preview typed, parsed once here', () => {
    const request = readRequest({
      ...fields,
      operation: 'folder.delete',
      params: { bucketId: OID },
      preview,
    });
    expect(request).toMatchObject({ operation: 'folder.delete', params: { bucketId: OID }, preview });
  });

  it('shows "preview not available" for a preview of an older shape: it reads as null', () => {
    const old = { title: 'Lectures', files: 3 };
    const request = readRequest({
      ...fields,
      operation: 'folder.delete',
      params: { bucketId: OID },
      preview: old,
    });
    expect(request.preview).toBeNull();
  });

  it('refuses parameters altered in the store, naming the request', () => {
    const error = thrown(() =>
      readRequest({ ...fields, operation: 'folder.delete', params: { bucketId: `../${OID}` }, preview }),
    );
    expect(messageOf(error)).toContain(
      'Request R-7K2M9QXA holds parameters that are not valid for "Delete folder"',
    );
  });

  it('refuses an operation this build does not know', () => {
    expect(
      messageOf(
        thrown(() => readRequest({ ...fields, operation: 'folder.rename', params: {}, preview: null })),
      ),
    ).toBe('Request R-7K2M9QXA is for "folder.rename", an operation this build does not know.');
  });
});

/** The error `run` throws (a test fails when it throws none). */
function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected an error');
}
