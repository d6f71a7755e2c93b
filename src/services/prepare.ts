import { failureOf, NotFoundError } from '../client/errors.js';
import type { Folder, Playlist, VideoClient, VideoFile, Viewer } from '../client/types.js';
import type { ChangeOperation, OperationInput, OperationParams, Preview } from '../core/catalog.js';
import { InputError } from '../core/errors.js';
import { english, type LookedUp, type Said, say } from '../core/said.js';
import { normalizeDigits } from '../core/validate/digits.js';
import { idShapeWarning } from '../core/validate/ids.js';
import { applyIpChange, ipKey } from '../core/validate/ip.js';
import { diffProtection, flattenProtection, formatProtectionValue } from '../core/validate/protection.js';

/**
 * `prepare` of each change operation: from what a person asked (typed by the edge that read it)
 * to the exact parameters that will be sent and the preview approvers see, reading the upstream
 * where the change depends on what is there. Look-ups of the read-only extras (info, lists,
 * viewer search) add information and never veto: any failure is a warning naming it, and the
 * operation's own endpoint judges. Only a 404 of an extra the service has shown to work (the
 * client learns it) means "no such record". The services' table (./catalog.ts) names these.
 * @see docs/architecture.md, "Validation" and "Approvals"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

/** What prepare may use: the API client, and whether a cover image can be fetched at execution. */
export interface PrepareIo {
  client: VideoClient;
  canFetchCover: boolean;
}

/** What an operation's prepare gives: its parameters, its preview, and soft problems met. */
export interface Drafted<O extends ChangeOperation> {
  params: OperationParams[O];
  preview: Preview<O>;
  warnings: Said[];
}

/** One operation's prepare. */
export type PrepareFn<O extends ChangeOperation> = (
  input: OperationInput[O],
  io: PrepareIo,
) => Promise<Drafted<O>>;

/** The ID's shape warning, when it does not look like the service's IDs (the edge read it already). */
function noteId(id: string, kind: 'folder' | 'file' | 'playlist', warnings: Said[]): void {
  const warning = idShapeWarning(id, kind);
  if (warning !== null && !warnings.some((w) => english(w) === english(warning))) warnings.push(warning);
}

/** The warning of a look-up that could not be done: "Could not look the file up: the service answered 404." */
function lookUpWarning(what: LookedUp, error: unknown): Said {
  return say.warnLookUp(what, failureOf(error));
}

/**
 * An optional look-up: `null` with a warning when it fails in any way; a NotFoundError (which the
 * client gives only once the route is known to work) is the person's mistake (InputError).
 */
async function lookUp<T>(
  what: LookedUp,
  run: () => Promise<T>,
  warnings: Said[],
  missing: Said,
): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof NotFoundError) throw new InputError(missing);
    warnings.push(lookUpWarning(what, error));
    return null;
  }
}

/** `{ description }` when there is one: an absent description is no member at all. */
function withDescription(description: string | undefined): { description?: string } {
  return description === undefined ? {} : { description };
}

export const prepareWhitelist: PrepareFn<'whitelist.set'> = async (input, io) => {
  const warnings: Said[] = [];
  const current = await io.client.whitelist.get();
  const change =
    input.change === 'set'
      ? applyIpChange(current, {
          remove: current.filter((ip) => !new Set(input.ips.map(ipKey)).has(ipKey(ip))),
          add: input.ips,
        })
      : applyIpChange(current, input.change === 'add' ? { add: input.ips } : { remove: input.ips });
  const { next, added, removed, unchanged } = change;
  if (added.length === 0 && removed.length === 0) {
    if (input.change === 'add') {
      throw new InputError(say.prepWhitelistHas(unchanged));
    }
    if (input.change === 'remove') {
      throw new InputError(say.prepWhitelistLacks(unchanged));
    }
    throw new InputError(say.prepWhitelistSame());
  }
  if (input.change === 'add' && unchanged.length > 0) {
    warnings.push(say.warnWhitelistHas(unchanged));
  }
  if (input.change === 'remove' && unchanged.length > 0) {
    warnings.push(say.warnWhitelistLacks(unchanged));
  }
  if (next.length === 0) {
    warnings.push(say.warnWhitelistEmpty());
  }
  return {
    params: { allowedDNS: next, expectBefore: [...current] },
    preview: { kind: 'whitelist', before: [...current], after: next, added, removed },
    warnings,
  };
};

export const prepareProtection: PrepareFn<'protect.set'> = async (input, io) => {
  const { raw: _raw, ...current } = await io.client.protection.get();
  const diff = diffProtection(current, input.changes);
  if (diff.rows.length === 0) {
    const asked = flattenProtection(input.changes);
    if (asked.length === 0) throw new InputError(say.prepNoSetting());
    const already = asked.map((row) => ({
      field: row.field,
      value: formatProtectionValue(row.field, row.value),
    }));
    throw new InputError(say.prepAlready(already));
  }
  return {
    params: { changes: diff.changed },
    preview: { kind: 'protection', rows: diff.rows },
    warnings: [],
  };
};

export const prepareFolderCreate: PrepareFn<'folder.create'> = async (input) => {
  const params = { title: input.title, ...withDescription(input.description) };
  return { params, preview: { kind: 'create', resource: 'folder', after: params }, warnings: [] };
};

function folderView(folder: Folder | null) {
  return folder === null ? null : { title: folder.title, description: folder.description };
}

export const prepareFolderEdit: PrepareFn<'folder.edit'> = async (input, io) => {
  const warnings: Said[] = [];
  const { bucketId } = input;
  noteId(bucketId, 'folder', warnings);
  const folder = await lookUp(
    'folder',
    () => io.client.folders.info(bucketId),
    warnings,
    say.prepNotThere('folder', bucketId),
  );
  const params = { bucketId, title: input.title, ...withDescription(input.description) };
  if (folder && folder.title === params.title && (folder.description || undefined) === params.description) {
    throw new InputError(say.prepFolderSame(bucketId));
  }
  return {
    params,
    preview: {
      kind: 'edit',
      resource: 'folder',
      id: bucketId,
      before: folderView(folder),
      after: { title: params.title, description: params.description ?? null },
    },
    warnings,
  };
};

export const prepareFolderDelete: PrepareFn<'folder.delete'> = async (input, io) => {
  const warnings: Said[] = [];
  const { bucketId } = input;
  noteId(bucketId, 'folder', warnings);
  const folder = await lookUp(
    'folder',
    () => io.client.folders.info(bucketId),
    warnings,
    say.prepNotThere('folder', bucketId),
  );
  let filesCount = folder?.filesCount ?? null;
  if (folder && filesCount === null) filesCount = await countFiles(io.client, bucketId, warnings);
  if (filesCount !== null && filesCount > 0) {
    warnings.push(say.warnFolderFiles(bucketId, folder?.title || null, filesCount));
  }
  return {
    params: { bucketId },
    preview: { kind: 'delete', resource: 'folder', id: bucketId, title: folder?.title ?? null, filesCount },
    warnings,
  };
};

/** How many files a folder holds, when its info does not say; null (and a warning) when the list fails too. */
async function countFiles(client: VideoClient, bucketId: string, warnings: Said[]): Promise<number | null> {
  try {
    const page = await client.files.list({ bucketId, limit: 1 });
    return page.total;
  } catch (error) {
    warnings.push(say.warnCountFiles(bucketId, failureOf(error)));
    return null;
  }
}

function fileView(file: VideoFile | null) {
  return file === null
    ? null
    : {
        title: file.title,
        description: file.description,
        bucketId: file.bucketId,
        hlsStatus: file.hlsStatus,
      };
}

/** The file an edit, delete or retry acts on, when it can be looked up. */
async function lookUpFile(io: PrepareIo, fileId: string, warnings: Said[]): Promise<VideoFile | null> {
  noteId(fileId, 'file', warnings);
  return lookUp('file', () => io.client.files.info(fileId), warnings, say.prepNotThere('file', fileId));
}

export const prepareFileEdit: PrepareFn<'file.edit'> = async (input, io) => {
  const warnings: Said[] = [];
  const { fileId, cover } = input;
  if (cover && !io.canFetchCover) {
    throw new InputError(say.prepNoCover());
  }
  const file = await lookUpFile(io, fileId, warnings);
  const params = {
    fileId,
    title: input.title,
    ...withDescription(input.description),
    ...(cover ? { cover: { ...cover } } : {}),
  };
  return {
    params,
    preview: {
      kind: 'edit',
      resource: 'file',
      id: fileId,
      before: fileView(file),
      after: {
        title: params.title,
        description: params.description ?? null,
        cover: params.cover?.filename ?? null,
      },
    },
    warnings,
  };
};

export const prepareFileRetry: PrepareFn<'file.retry'> = async (input, io) => {
  const warnings: Said[] = [];
  const { fileId } = input;
  const file = await lookUpFile(io, fileId, warnings);
  if (file?.hlsStatus === 'done') {
    throw new InputError(say.prepConverted(fileId, file.title || null));
  }
  if (file?.hlsStatus === 'waiting') {
    throw new InputError(say.prepQueued(fileId, file.title || null));
  }
  return {
    params: { fileId },
    preview: {
      kind: 'retry',
      resource: 'file',
      id: fileId,
      title: file?.title ?? null,
      hlsStatus: file?.hlsStatus ?? null,
    },
    warnings,
  };
};

export const prepareFileDelete: PrepareFn<'file.delete'> = async (input, io) => {
  const warnings: Said[] = [];
  const { fileId } = input;
  const file = await lookUpFile(io, fileId, warnings);
  return {
    params: { fileId },
    preview: {
      kind: 'delete',
      resource: 'file',
      id: fileId,
      title: file?.title ?? null,
      bucketId: file?.bucketId ?? null,
    },
    warnings,
  };
};

/** Entries as the preview shows them: a title only when there is one. */
function entries(files: readonly { _id: string; title?: string | undefined }[]) {
  return files.map((f) => (f.title === undefined ? { _id: f._id } : { _id: f._id, title: f.title }));
}

/** The playlist an edit or delete acts on, when it can be looked up. */
async function lookUpPlaylist(io: PrepareIo, playlistId: string, warnings: Said[]): Promise<Playlist | null> {
  noteId(playlistId, 'playlist', warnings);
  return lookUp(
    'playlist',
    () => io.client.playlists.info(playlistId),
    warnings,
    say.prepNotThere('playlist', playlistId),
  );
}

export const preparePlaylistEdit: PrepareFn<'playlist.edit'> = async (input, io) => {
  const warnings: Said[] = [];
  const { playlistId, title } = input;
  const playlist = await lookUpPlaylist(io, playlistId, warnings);
  const files = input.files === undefined ? undefined : entries(input.files);
  if (title === undefined && files === undefined) {
    throw new InputError(say.prepPlaylistNothing());
  }
  for (const file of files ?? []) noteId(file._id, 'file', warnings);
  if (files !== undefined) await checkFilesExist(io.client, files, warnings);
  return {
    params: {
      playlistId,
      ...(title === undefined ? {} : { title }),
      ...(files === undefined ? {} : { files }),
    },
    preview: {
      kind: 'edit',
      resource: 'playlist',
      id: playlistId,
      before: playlist === null ? null : { title: playlist.title, files: entries(playlist.files) },
      after: { title: title ?? null, files: files ?? null },
    },
    warnings,
  };
};

export const preparePlaylistDelete: PrepareFn<'playlist.delete'> = async (input, io) => {
  const warnings: Said[] = [];
  const { playlistId } = input;
  const playlist = await lookUpPlaylist(io, playlistId, warnings);
  return {
    params: { playlistId },
    preview: {
      kind: 'delete',
      resource: 'playlist',
      id: playlistId,
      title: playlist?.title ?? null,
      filesCount: playlist ? playlist.files.length : null,
    },
    warnings,
  };
};

/**
 * Before a playlist edit: each listed file is looked up, one after the other. Files the service
 * says do not exist (possible only once file info is known to work) refuse the edit, all named;
 * the first look-up that fails otherwise stops the check with a warning, and the edit goes on.
 */
async function checkFilesExist(
  client: VideoClient,
  files: readonly { _id: string }[],
  warnings: Said[],
): Promise<void> {
  const ids = [...new Set(files.map((f) => f._id))];
  const missing: string[] = [];
  for (const [index, id] of ids.entries()) {
    try {
      await client.files.info(id);
    } catch (error) {
      if (error instanceof NotFoundError) {
        missing.push(id);
        continue;
      }
      const unchecked = ids.slice(index);
      warnings.push(
        say.warnFilesUnchecked(unchecked.length === ids.length ? null : unchecked, failureOf(error)),
      );
      break;
    }
  }
  if (missing.length > 0) {
    throw new InputError(
      say.prepFilesMissing(missing),
      missing.map((id) => `file ${id} does not exist`),
    );
  }
}

export const prepareUnblock: PrepareFn<'viewer.unblock'> = async (input, io) => {
  const warnings: Said[] = [];
  const { mobileNumber } = input;
  let viewer: Viewer | null = null;
  let looked = false;
  // The look-up is a courtesy: unblocking never depends on it, so any failure is only a warning
  // (even a 404 of a learned route: a search finds nobody, it names no record).
  try {
    const page = await io.client.viewers.lookup([mobileNumber]);
    looked = true;
    viewer = page.items.find((v) => sameNumber(v.mobileNumber, mobileNumber)) ?? null;
  } catch (error) {
    warnings.push(lookUpWarning('viewer', error));
  }
  if (looked && viewer === null) warnings.push(say.warnNoViewingRecord());
  if (viewer?.blocked === false) warnings.push(say.warnNotBlocked());
  return {
    params: { mobileNumber },
    preview: {
      kind: 'unblock',
      mobileNumber,
      blocked: viewer?.blocked ?? null,
      actionType: viewer?.actionType ?? null,
    },
    warnings,
  };
};

/** Compares the last ten digits, so `+98912…`, `0098912…` and `0912…` are one number. */
function sameNumber(a: string, b: string): boolean {
  const tail = (s: string) => normalizeDigits(s).replace(/\D/g, '').slice(-10);
  return tail(a) !== '' && tail(a) === tail(b);
}
