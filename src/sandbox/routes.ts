import type { JsonObject } from '../core/json.js';
import { jsonObject, multipartForm, type ParsedBody } from './body.js';
import { badRequest, SandboxHttpError } from './errors.js';
import type { SandboxModel } from './state.js';
import type { Cover, FileRecord } from './types.js';
import {
  ConfigPatchSchema,
  CreateFolderSchema,
  CreatePlaylistSchema,
  DeleteFolderSchema,
  DeletePlaylistSchema,
  EditFileFieldsSchema,
  EditFolderSchema,
  EditPlaylistSchema,
  FileIdSchema,
  FileInfoQuerySchema,
  FileListQuerySchema,
  FolderInfoQuerySchema,
  FolderListQuerySchema,
  GenerateLinkSchema,
  PlaylistInfoQuerySchema,
  PlaylistListQuerySchema,
  parseInput,
  parseQuery,
  UnblockSchema,
  ViewerListQuerySchema,
  WhitelistBodySchema,
} from './validation.js';

/** What a handler sees of a request. */
export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: ParsedBody;
  /** The caller's address, `::ffff:` stripped from IPv4-mapped addresses. */
  callerIp: string;
}

/** Answers 200 with the returned value as JSON, or throws SandboxHttpError. */
export type Handler = (ctx: RouteContext) => unknown;

export interface Route {
  /** Path with `:name` segments for parameters. */
  pattern: string;
  segments: string[];
  methods: Record<string, Handler>;
}

/** A route from its pattern and a handler per method. */
export function route(pattern: string, methods: Record<string, Handler>): Route {
  return { pattern, segments: pattern.split('/').slice(1), methods };
}

/**
 * The route for `path`, or null. Literal routes win over parameter routes, so
 * `/v1/storage/bucket/file/all` is never read as the file ID `all` of op 8.
 */
export function matchRoute(
  routes: readonly Route[],
  path: string,
): { route: Route; params: Record<string, string> } | null {
  const parts = path.split('/').slice(1);
  let best: { route: Route; params: Record<string, string>; paramCount: number } | null = null;
  for (const candidate of routes) {
    if (candidate.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (const [i, segment] of candidate.segments.entries()) {
      const part = parts[i] ?? '';
      if (segment.startsWith(':')) {
        const value = safeDecode(part);
        if (value === null || value === '') {
          matched = false;
          break;
        }
        params[segment.slice(1)] = value;
      } else if (segment !== part) {
        matched = false;
        break;
      }
    }
    if (!matched) continue;
    const paramCount = Object.keys(params).length;
    if (best === null || paramCount < best.paramCount) best = { route: candidate, params, paramCount };
  }
  return best === null ? null : { route: best.route, params: best.params };
}

function safeDecode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** Largest cover image accepted by op 8. */
export const MAX_COVER_BYTES = 5 * 1024 * 1024;

/**
 * The 13 operations of the spec and the read-only extras, over the model.
 * @see docs/api.md, "Endpoints"
 * @see docs/api-extras.md, "Read-only endpoints"
 */
export function apiRoutes(model: SandboxModel): Route[] {
  const retry: Handler = ({ body: raw }) =>
    model.retryConversion(parseInput(FileIdSchema, jsonObject(raw)).fileId);
  return [
    route('/v1/storage/dns/whitelist', {
      GET: () => model.getWhitelist(),
      POST: ({ body: raw }) =>
        model.setWhitelist(parseInput(WhitelistBodySchema, jsonObject(raw)).allowedDNS),
    }),
    route('/v1/storage/protect/config', {
      GET: () => model.getConfig(),
      POST: ({ body: raw }) => model.updateConfig(parseInput(ConfigPatchSchema, jsonObject(raw))),
    }),
    route('/v1/storage/bucket', {
      POST: ({ body: raw }) => model.createFolder(parseInput(CreateFolderSchema, jsonObject(raw))),
      PATCH: ({ body: raw }) => model.editFolder(parseInput(EditFolderSchema, jsonObject(raw))),
      DELETE: ({ body: raw }) => model.deleteFolder(parseInput(DeleteFolderSchema, jsonObject(raw)).bucketId),
    }),
    route('/v1/storage/bucket/all', {
      GET: ({ query }) => model.listFolders(parseQuery(FolderListQuerySchema, query)),
    }),
    route('/v1/storage/bucket/info', {
      GET: ({ query }) => model.folderInfo(parseQuery(FolderInfoQuerySchema, query).bucketId),
    }),
    route('/v1/storage/bucket/file/:fileId', { POST: (ctx) => editFile(model, ctx) }),
    route('/v1/storage/bucket/file', {
      DELETE: ({ body: raw }) => model.deleteFile(parseInput(FileIdSchema, jsonObject(raw)).fileId),
    }),
    route('/v1/storage/bucket/file/all', {
      GET: ({ query }) => model.listFiles(parseQuery(FileListQuerySchema, query)),
    }),
    route('/v1/storage/bucket/file/info', {
      // basedOn picks the lookup key on the service; here both keys are the same identifier.
      GET: ({ query }) => model.fileInfo(parseQuery(FileInfoQuerySchema, query).fileId),
    }),
    // The spec shows op 10 with POST in some samples and PATCH in others: both work.
    route('/v1/storage/bucket/file/queue/retry', { POST: retry, PATCH: retry }),
    route('/v1/storage/bucket/file/generate/link', {
      POST: ({ body: raw, callerIp }) => {
        // The whitelist answers before anything else: a refused caller learns nothing more.
        model.checkLinkCaller(callerIp);
        return model.generateLink(parseInput(GenerateLinkSchema, jsonObject(raw)), callerIp);
      },
    }),
    route('/v1/playlist', {
      GET: ({ query }) => model.playlistInfo(parseQuery(PlaylistInfoQuerySchema, query).playlistId),
      POST: ({ body: raw }) => model.createPlaylist(parseInput(CreatePlaylistSchema, jsonObject(raw)).title),
      PUT: ({ body: raw }) => model.editPlaylist(parseInput(EditPlaylistSchema, jsonObject(raw))),
      DELETE: ({ body: raw }) =>
        model.deletePlaylist(parseInput(DeletePlaylistSchema, jsonObject(raw)).playlistId),
    }),
    route('/v1/playlist/all', {
      GET: ({ query }) => model.listPlaylists(parseQuery(PlaylistListQuerySchema, query)),
    }),
    route('/v1/analysis/user/video/anomaly', {
      POST: ({ body: raw }) => model.unblock(parseInput(UnblockSchema, jsonObject(raw)).mobileNumber),
    }),
    route('/v1/analysis/content/video/all', {
      GET: ({ query }) => model.listViewers(parseQuery(ViewerListQuerySchema, query)),
    }),
  ];
}

/** op 8: multipart fields `fileId`, `title`, `description`, and an optional image part `file`. */
function editFile(model: SandboxModel, { body, params }: RouteContext): FileRecord {
  const form = multipartForm(body);
  const fields: Record<string, string> = {};
  let cover: Cover | undefined;
  for (const [name, value] of form) {
    if (name in fields || (name === 'file' && cover !== undefined))
      throw badRequest(name, 'must be given once');
    if (name === 'file') {
      if (typeof value === 'string') throw badRequest('file', 'must be a file part with a filename');
      if (!value.type.startsWith('image/')) {
        throw badRequest(
          'file',
          `must be an image (got ${value.type === '' ? 'no content type' : value.type})`,
        );
      }
      if (value.size === 0) throw badRequest('file', 'must not be empty');
      if (value.size > MAX_COVER_BYTES) throw badRequest('file', `must be at most ${MAX_COVER_BYTES} bytes`);
      cover = { filename: value.name, size: value.size, contentType: value.type };
    } else if (typeof value !== 'string') {
      throw badRequest(name, 'must be a text field, not a file');
    } else {
      fields[name] = value;
    }
  }
  const input = parseInput(EditFileFieldsSchema, fields);
  const pathId = params.fileId ?? '';
  if (input.fileId !== pathId) {
    throw badRequest('fileId', `must equal the file ID in the path (${pathId})`);
  }
  return model.editFile({ ...input, cover });
}

/**
 * The 13 operations of the spec, method by path: all that a documented-endpoints-only sandbox
 * answers. Op 10 keeps both methods, since the spec shows both.
 * @see docs/api.md, "Endpoints"
 */
export const DOCUMENTED_ENDPOINTS: Readonly<Record<string, readonly string[]>> = {
  '/v1/storage/dns/whitelist': ['POST', 'GET'], // ops 1, 2
  '/v1/storage/protect/config': ['POST', 'GET'], // ops 3, 4
  '/v1/storage/bucket': ['POST', 'PATCH', 'DELETE'], // ops 5, 6, 7
  '/v1/storage/bucket/file/:fileId': ['POST'], // op 8
  '/v1/storage/bucket/file': ['DELETE'], // op 9
  '/v1/storage/bucket/file/queue/retry': ['POST', 'PATCH'], // op 10
  '/v1/playlist': ['PUT', 'DELETE'], // ops 11, 12
  '/v1/analysis/user/video/anomaly': ['POST'], // op 13
};

/** Whether `method path` is one of the documented endpoints (an ID in the path matches `:fileId`). */
export function isDocumentedCall(method: string, path: string): boolean {
  return Object.entries(DOCUMENTED_ENDPOINTS).some(
    ([pattern, methods]) =>
      methods.includes(method) && new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(path),
  );
}

/** `routes` cut down to the documented endpoints: no extras, and no other method on their paths. */
export function documentedRoutes(routes: readonly Route[]): Route[] {
  return routes.flatMap((r) => {
    const allowed = DOCUMENTED_ENDPOINTS[r.pattern] ?? [];
    const methods = Object.fromEntries(Object.entries(r.methods).filter(([m]) => allowed.includes(m)));
    return Object.keys(methods).length === 0 ? [] : [route(r.pattern, methods)];
  });
}

/**
 * The answer of a service whose error format is not documented, to anything it does not offer:
 * 404 `{"message":"not found"}`, the same for a missing route, a missing method or a stray path.
 */
export class BareNotFound extends SandboxHttpError {
  constructor() {
    super(404, 'not found');
  }

  override body(): JsonObject {
    return { message: 'not found' };
  }
}

/** 405 listing the methods the path does answer. */
export function methodNotAllowed(method: string, path: string, allowed: readonly string[]): SandboxHttpError {
  return new SandboxHttpError(
    405,
    `method ${method} not allowed on ${path}; allowed: ${allowed.join(', ')}`,
    { code: 'METHOD_NOT_ALLOWED' },
    { allow: allowed.join(', ') },
  );
}
