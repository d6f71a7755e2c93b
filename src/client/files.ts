import { z } from 'zod';
import type { JsonObject } from '../core/json.js';
import { isMissingRouteError, NotSupportedError } from './errors.js';
import type { RetryPolicy, Transport } from './http.js';
import { asRaw, idOf, isObject, recordOf, text } from './parse.js';
import {
  DescriptionSchema,
  IdSchema,
  ListQuerySchema,
  pathSegment,
  siteOf,
  TitleSchema,
  validateRequest,
} from './schemas.js';
import { type ExtraSite, readInfo, readList } from './support.js';
import type {
  Answer,
  ConversionStatus,
  CoverImage,
  ListQuery,
  MethodMemory,
  Page,
  SupportMemory,
  VideoFile,
} from './types.js';

/**
 * Files: operations 8 (multipart edit), 9 (delete), 10 (retry conversion, method ambiguous) and
 * the read-only extras `file/all` and `file/info`.
 * @see docs/api.md, "File" and the notes under "Endpoints"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

const PATH = '/v1/storage/bucket/file';
const EDIT = siteOf('file.edit');
const DELETE = siteOf('file.delete');
const RETRY = siteOf('file.retry');
const RETRY_PATH = RETRY.path;
const LIST: ExtraSite = { operation: 'file.list', method: 'GET', path: `${PATH}/all` };
const INFO: ExtraSite = { operation: 'file.info', method: 'GET', path: `${PATH}/info` };

const HLS_STATUSES = ['waiting', 'done', 'failed'] as const satisfies readonly ConversionStatus[];

export const CoverImageSchema = z.strictObject({
  data: z
    .instanceof(Uint8Array, { message: 'must be the image bytes' })
    .refine((d) => d.byteLength > 0, 'must not be empty'),
  filename: z.string().regex(/^[^/\\]+$/, 'must be a file name without folders'),
  contentType: z.string().regex(/^image\/[\w.+-]+$/, 'must be an image type (image/png, image/jpeg…)'),
});

export const FileEditSchema = z.strictObject({
  fileId: IdSchema,
  title: TitleSchema,
  description: DescriptionSchema.optional(),
  cover: CoverImageSchema.optional(),
});

export const FileIdSchema = z.strictObject({ fileId: IdSchema });

export const FileListQuerySchema = ListQuerySchema.extend({
  bucketId: IdSchema.optional(),
  hlsStatus: z.enum(HLS_STATUSES, { message: 'must be waiting, done or failed' }).optional(),
  listOfId: z.array(IdSchema).min(1, 'must name at least one file').optional(),
});

/** The retry-conversion method setting: fixed, or learned from the service. */
export type RetryConversionMethod = 'auto' | 'POST' | 'PATCH';

function isStatus(value: string | null): value is ConversionStatus {
  return value !== null && (HLS_STATUSES as readonly string[]).includes(value);
}

/** A file record; `fallbackId` stands in when the answer carries no ID. */
export function parseFile(record: JsonObject, fallbackId = ''): VideoFile {
  const bucket = record.bucket;
  const status = text(record, 'hlsStatus');
  return {
    id: idOf(record, 'fileId') ?? fallbackId,
    title: text(record, 'title', 'name'),
    description: text(record, 'description'),
    bucketId:
      text(record, 'bucketId') ??
      (isObject(bucket) ? idOf(bucket) : typeof bucket === 'string' ? bucket : null),
    hlsStatus: isStatus(status) ? status : null,
    raw: record,
  };
}

/** Everything the files resource needs besides the transport. */
export interface FilesOptions {
  retry: RetryPolicy;
  retryConversionMethod: RetryConversionMethod;
  methodMemory: MethodMemory;
  /** What the client learned of the extras `file/all` and `file/info`. */
  support: SupportMemory;
}

export function createFilesResource(transport: Transport, options: FilesOptions) {
  const { retry } = options;
  const extras = { transport, memory: options.support, retry };

  async function retryWith(method: 'POST' | 'PATCH', fileId: string): Promise<Answer> {
    // A repeat could queue the conversion twice; op 10 is never retried.
    const body = await transport.request({ ...RETRY, method, json: { fileId }, retry });
    return { raw: asRaw(body) };
  }

  return {
    /** op 8, multipart/form-data */
    async edit(input: {
      fileId: string;
      title: string;
      description?: string;
      cover?: CoverImage;
    }): Promise<VideoFile> {
      const valid = validateRequest(FileEditSchema, input, EDIT);
      const path = `${PATH}/${pathSegment(valid.fileId, EDIT, 'fileId')}`;
      // A fresh form per attempt: a retried upload must not reuse a consumed body.
      const form = (): FormData => {
        const f = new FormData();
        f.append('fileId', valid.fileId);
        f.append('title', valid.title);
        if (valid.description !== undefined) f.append('description', valid.description);
        if (valid.cover) {
          const blob = new Blob([new Uint8Array(valid.cover.data)], { type: valid.cover.contentType });
          f.append('file', blob, valid.cover.filename);
        }
        return f;
      };
      const body = await transport.request({ ...EDIT, path, form, retry });
      return parseFile(recordOf(body), valid.fileId);
    },
    /** op 9 */
    async delete(input: { fileId: string }): Promise<Answer> {
      const json = validateRequest(FileIdSchema, input, DELETE);
      // Repeated only when it never reached the service: a repeat after a lost answer reads 404.
      const body = await transport.request({ ...DELETE, json, retry });
      return { raw: asRaw(body) };
    },
    /** op 10 (never retried; method auto-detected) */
    async retryConversion(input: { fileId: string }): Promise<Answer> {
      const site = { ...RETRY, method: options.retryConversionMethod === 'PATCH' ? 'PATCH' : RETRY.method };
      const { fileId } = validateRequest(FileIdSchema, input, site);
      if (options.retryConversionMethod !== 'auto') return retryWith(options.retryConversionMethod, fileId);
      const remembered = await options.methodMemory.get();
      const first: 'POST' | 'PATCH' = remembered ?? 'POST';
      try {
        const answer = await retryWith(first, fileId);
        if (remembered !== first) await options.methodMemory.set(first);
        return answer;
      } catch (error) {
        // Only a missing route (404 ROUTE_NOT_FOUND or non-JSON, 405) means "wrong method".
        if (!isMissingRouteError(error)) throw error;
        const second: 'POST' | 'PATCH' = first === 'POST' ? 'PATCH' : 'POST';
        try {
          const answer = await retryWith(second, fileId);
          await options.methodMemory.set(second);
          return answer;
        } catch (again) {
          if (!isMissingRouteError(again)) throw again;
          throw new NotSupportedError(
            `file.retry is not supported by this service (${first} and ${second} ${RETRY_PATH} both refused)`,
            {
              operation: 'file.retry',
              method: second,
              path: RETRY_PATH,
              status: again.status,
              body: again.body,
            },
          );
        }
      }
    },
    /** extra: GET /v1/storage/bucket/file/all */
    async list(
      query: ListQuery & { bucketId?: string; hlsStatus?: ConversionStatus; listOfId?: string[] } = {},
    ): Promise<Page<VideoFile>> {
      const q = validateRequest(FileListQuerySchema, query, LIST);
      return readList(extras, LIST, { ...q, listOfId: q.listOfId?.join(',') }, 'a list of files', parseFile);
    },
    /** extra: GET /v1/storage/bucket/file/info */
    async info(fileId: string): Promise<VideoFile> {
      const { fileId: id } = validateRequest(FileIdSchema, { fileId }, INFO);
      return readInfo(extras, INFO, 'fileId', id, 'a file', parseFile);
    },
  };
}

/** A MethodMemory that lives as long as the client (when the store does not provide one). */
export function inProcessMethodMemory(): MethodMemory {
  let method: 'POST' | 'PATCH' | null = null;
  return {
    async get() {
      return method;
    },
    async set(value) {
      method = value;
    },
  };
}
