import { sandboxClient } from '../../test/sandbox-client.js';
import { type Sandbox, startSandbox } from '../sandbox/server.js';
import { ValidationError, type VideoClientHandle } from './index.js';
import { pathSegment } from './schemas.js';

/**
 * No ID can change the route a call goes to: `.` and `..` (and any ID made only of dots) are
 * refused before anything is sent, also by the part that builds URL paths.
 * @see docs/api.md, "Endpoints"
 */

let sandbox: Sandbox;
let client: VideoClientHandle;

beforeAll(async () => {
  sandbox = await startSandbox();
  client = sandboxClient(sandbox.url);
});

afterAll(async () => {
  client.close();
  await sandbox.close();
});

beforeEach(() => sandbox.reset());

async function refusal(call: Promise<unknown>): Promise<ValidationError> {
  const error = await call.then(
    () => new Error('expected the call to be refused'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('an ID made only of dots never reaches the service', () => {
  it.each(['..', '.', '...'])('a file edit of "%s" is refused and sends nothing', async (fileId) => {
    const error = await refusal(client.files.edit({ fileId, title: 'x' }));
    expect(error.fields).toEqual(['fileId']);
    expect(error.message).toContain('must not be made only of dots');
    expect(sandbox.requests()).toEqual([]);
  });

  it.each([
    ['a file delete', () => client.files.delete({ fileId: '..' })],
    ['a file look-up', () => client.files.info('.')],
    ['a folder delete', () => client.folders.delete({ bucketId: '..' })],
    ['a folder edit', () => client.folders.edit({ bucketId: '.', title: 'x' })],
    ['a playlist delete', () => client.playlists.delete({ playlistId: '..' })],
    ['a conversion retry', () => client.files.retryConversion({ fileId: '..' })],
  ])('%s with a dots-only ID is refused and sends nothing', async (_what, call) => {
    await refusal(call());
    expect(sandbox.requests()).toEqual([]);
  });

  it('a real ID with dots inside still works as a path segment', () => {
    expect(pathSegment('a.b', { operation: 'file.edit', method: 'POST', path: '/x' }, 'fileId')).toBe('a.b');
    expect(pathSegment('%2e%2e', { operation: 'file.edit', method: 'POST', path: '/x' }, 'fileId')).toBe(
      '%252e%252e',
    );
  });

  it.each(['', '.', '..', '....'])('the path builder itself refuses "%s"', (value) => {
    expect(() =>
      pathSegment(value, { operation: 'file.edit', method: 'POST', path: '/x' }, 'fileId'),
    ).toThrow(ValidationError);
  });
});

describe('an ID is one rule everywhere: the client refuses what the catalog refuses', () => {
  it.each([
    ['a control character', 'a\u0007b'],
    ['a line break', 'a\nb'],
    ['a space', 'a b'],
    ['a slash', 'a/b'],
  ])('a folder delete with %s in its ID is refused and sends nothing', async (_what, bucketId) => {
    const error = await refusal(client.folders.delete({ bucketId }));
    expect(error.fields).toEqual(['bucketId']);
    expect(error.message).toContain('must have no spaces, slashes or control characters');
    expect(sandbox.requests()).toEqual([]);
  });
});
