import { z } from 'zod';
import { jsonObject, type ParsedBody } from './body.js';
import { DEMO } from './demo-data.js';
import { SandboxHttpError } from './errors.js';
import { type Handler, matchRoute, route } from './routes.js';
import { SandboxModel } from './state.js';
import { id, parseInput } from './validation.js';

/**
 * A new endpoint is one entry of routes.ts: its body schema written beside it, its change made
 * through the model's look-ups. Shown with a hypothetical file move, the recipe's example.
 */
function moveRoute(model: SandboxModel) {
  const MoveSchema = z.strictObject({ fileId: id, bucketId: id });
  const move: Handler = ({ body }) => {
    const { fileId, bucketId } = parseInput(MoveSchema, jsonObject(body));
    const file = model.findFile(fileId);
    file.bucketId = model.findFolder(bucketId)._id;
    return structuredClone(file);
  };
  return route('/v1/file/move', { POST: move });
}

function setUp() {
  const model = new SandboxModel({ conversionDelayMs: 1000, whitelistMode: 'replace', demoData: true });
  const routes = [moveRoute(model)];
  const post = (value: Record<string, string>) => {
    const found = matchRoute(routes, '/v1/file/move');
    const handler = found?.route.methods.POST;
    if (handler === undefined) throw new Error('the route is not matched');
    const body: ParsedBody = { kind: 'json', value };
    return handler({
      params: found?.params ?? {},
      query: new URLSearchParams(),
      body,
      callerIp: '127.0.0.1',
    });
  };
  const folderOf = (fileId: string) => model.snapshot().files.find((f) => f._id === fileId)?.bucketId;
  return { post, folderOf };
}

function refusal(action: () => unknown): SandboxHttpError {
  try {
    action();
  } catch (error) {
    if (error instanceof SandboxHttpError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const { lecture3 } = DEMO.files;
const { lectures, marketing } = DEMO.folders;

describe('an engineer adds an endpoint to the sandbox as one route', () => {
  it('the change made through the look-ups is kept, and the answer is a copy', () => {
    const { post, folderOf } = setUp();
    expect(folderOf(lecture3)).toBe(lectures);
    const answer = post({ fileId: lecture3, bucketId: marketing });
    expect(answer).toMatchObject({ _id: lecture3, bucketId: marketing });
    expect(folderOf(lecture3)).toBe(marketing);
  });

  it('a body its schema refuses is a 400 and changes nothing', () => {
    const { post, folderOf } = setUp();
    expect(refusal(() => post({ fileId: lecture3 })).status).toBe(400);
    expect(folderOf(lecture3)).toBe(lectures);
  });

  it('an unknown folder is the spec 404 and the file stays where it was', () => {
    const { post, folderOf } = setUp();
    expect(refusal(() => post({ fileId: lecture3, bucketId: '6710a0000000000000000999' })).status).toBe(404);
    expect(folderOf(lecture3)).toBe(lectures);
  });
});
