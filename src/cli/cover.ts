import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError } from '../core/errors.js';
import type { CoverRef } from '../services/types.js';

/**
 * Cover images given on the command line (`vidops file edit … --cover <file>`). The request keeps
 * a `file:` URL and the SHA-256 of the bytes, so the approval binds the exact image: the file is
 * read again when the request runs and refused if it changed.
 * @see docs/api.md, "Endpoints" (op 8)
 */

/** Larger covers are refused before anything is stored; a cover is a thumbnail, not a video. */
export const MAX_COVER_BYTES = 10 * 1024 * 1024;

const DIGEST_PREFIX = 'sha256:';

export type ReadFile = (path: string) => Promise<Uint8Array>;

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function startsWith(data: Uint8Array, bytes: readonly number[], at = 0): boolean {
  return bytes.every((b, i) => data[at + i] === b);
}

/** The image type from the file's first bytes (the name may lie); null when it is not a known image. */
export function imageType(data: Uint8Array): string | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(data, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) {
    return 'image/webp';
  }
  return null;
}

function describeReadError(error: unknown): string {
  // Checked by shape: errors from another realm (test sandboxes) fail `instanceof Error`.
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (code === 'ENOENT') return 'there is no such file';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES') return 'it may not be read';
  return error instanceof Error ? error.message : String(error);
}

/** Reads and checks a cover image; the reference that a `file.edit` request stores. */
export async function coverFromFile(path: string, cwd: string, readFile: ReadFile): Promise<CoverRef> {
  const absolute = resolve(cwd, path);
  let data: Uint8Array;
  try {
    data = await readFile(absolute);
  } catch (error) {
    throw new InputError(`The cover image ${path} cannot be read: ${describeReadError(error)}.`);
  }
  if (data.byteLength === 0) throw new InputError(`The cover image ${path} is empty.`);
  if (data.byteLength > MAX_COVER_BYTES) {
    throw new InputError(
      `The cover image ${path} is ${(data.byteLength / 1024 / 1024).toFixed(1)} MB; at most ${MAX_COVER_BYTES / 1024 / 1024} MB is accepted.`,
    );
  }
  const contentType = imageType(data);
  if (contentType === null) throw new InputError(`${path} is not a PNG, JPEG, GIF or WebP image.`);
  return {
    slackFileId: `${DIGEST_PREFIX}${sha256(data)}`,
    filename: basename(absolute),
    contentType,
    url: pathToFileURL(absolute).href,
  };
}

/**
 * The `fetchCover` of the CLI: reads a cover given on the command line, refusing it when its bytes
 * are no longer those approved. A cover uploaded in Slack cannot be downloaded without the bot's
 * token, so such requests are approved in Slack.
 */
export function createCoverFetcher(readFile: ReadFile): (cover: CoverRef) => Promise<Uint8Array> {
  return async (cover) => {
    if (!cover.url.startsWith('file:') || !cover.slackFileId.startsWith(DIGEST_PREFIX)) {
      throw new InputError(
        'The cover image of this request was uploaded in Slack and can only be fetched there: approve it in Slack.',
      );
    }
    const path = fileURLToPath(cover.url);
    let data: Uint8Array;
    try {
      data = await readFile(path);
    } catch (error) {
      throw new InputError(
        `The cover image ${path} cannot be read here (${describeReadError(error)}): approve the request on the machine where it was made.`,
      );
    }
    if (`${DIGEST_PREFIX}${sha256(data)}` !== cover.slackFileId) {
      throw new InputError(
        `The cover image ${path} changed after the request was made, so it is not the image that was approved; ask again.`,
      );
    }
    return data;
  };
}
