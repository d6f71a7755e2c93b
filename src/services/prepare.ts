import { failureInWords, NotFoundError } from '../client/errors.js';
import type { Folder, Playlist, VideoClient, VideoFile, Viewer } from '../client/types.js';
import { OPERATION_SPECS, type OperationParams, type OperationSpec, parseParams } from '../core/catalog.js';
import { InputError } from '../core/errors.js';
import type { JsonValue } from '../core/json.js';
import type { ChangeOperation } from '../core/operations.js';
import { normalizeDigits } from '../core/validate/digits.js';
import { parseResourceId, type ResourceKind } from '../core/validate/ids.js';
import { applyIpChange, ipKey, parseIpList } from '../core/validate/ip.js';
import { diffProtection, flattenProtection, formatProtectionValue } from '../core/validate/protection.js';
import { toJson, toJsonObject } from './json.js';
import type { CoverRef, Prepared, PrepareInput } from './types.js';

/**
 * `prepare`: turns what a person asked into the exact parameters that will be sent, the target
 * and the preview approvers see, reading the upstream where the change depends on what is there.
 * Look-ups of the read-only extras (info, lists, viewer search) add information and never veto:
 * any failure is a warning naming it, and the operation's own endpoint judges. Only a 404 of an
 * extra the service has shown to work (the client learns it) means "no such record".
 * @see docs/architecture.md, "Validation" and "Approvals"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

interface Context {
  client: VideoClient;
  canFetchCover: boolean;
}

function listText(items: readonly string[]): string {
  return items.join(', ');
}

function isAre(items: readonly unknown[]): string {
  return items.length === 1 ? 'is' : 'are';
}

/** The text fields of a modal, trimmed; an empty description is no description. */
function clean(text: string): string {
  return text.trim();
}

function optionalText(text: string | undefined): { description?: string } {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? {} : { description: trimmed };
}

function resourceId(raw: string, kind: ResourceKind, warnings: string[]): string {
  const parsed = parseResourceId(raw, kind);
  if (!parsed.ok) throw new InputError(`Cannot use that ${kind} ID: ${parsed.reason}.`, [parsed.reason]);
  if (parsed.warning) warnings.push(parsed.warning);
  return parsed.id;
}

/** The warning of a look-up that could not be done: "Could not look the file up: the service answered 404." */
function lookUpWarning(what: string, error: unknown): string {
  return `Could not look the ${what} up: ${failureInWords(error)}.`;
}

/**
 * An optional look-up: `null` with a warning when it fails in any way; a NotFoundError (which the
 * client gives only once the route is known to work) is the person's mistake (InputError).
 */
async function lookUp<T>(
  what: string,
  run: () => Promise<T>,
  warnings: string[],
  missing: string,
): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof NotFoundError) throw new InputError(missing);
    warnings.push(lookUpWarning(what, error));
    return null;
  }
}

/** The answer of every prepare: the params as stored, and the target the catalog derives from them. */
function prepared<O extends ChangeOperation>(
  operation: O,
  params: OperationParams[O],
  preview: JsonValue,
  warnings: string[],
): Prepared {
  const spec: OperationSpec<O> = OPERATION_SPECS[operation];
  return { operation, params: toJsonObject(params), target: spec.target(params), preview, warnings };
}

function quoted(title: string | null | undefined): string {
  return title ? ` ("${title}")` : '';
}

async function prepareWhitelist(
  ctx: Context,
  input: Extract<PrepareInput, { kind: 'whitelist.add' | 'whitelist.remove' | 'whitelist.set' }>,
): Promise<Prepared> {
  const warnings: string[] = [];
  if (input.kind !== 'whitelist.set' && input.ips.length === 0) {
    throw new InputError('Give at least one IP address.');
  }
  const ips = parseIpList(input.ips, input.kind === 'whitelist.remove' ? 'remove' : 'add');
  if (!ips.ok) throw new InputError(`Cannot use these addresses: ${ips.problems.join('; ')}.`, ips.problems);
  const current = await ctx.client.whitelist.get();
  let change: ReturnType<typeof applyIpChange>;
  if (input.kind === 'whitelist.set') {
    const wanted = new Set(input.ips.map(ipKey));
    change = applyIpChange(current, {
      remove: current.filter((ip) => !wanted.has(ipKey(ip))),
      add: input.ips,
    });
  } else {
    change = applyIpChange(
      current,
      input.kind === 'whitelist.add' ? { add: input.ips } : { remove: input.ips },
    );
  }
  const { next, added, removed, unchanged } = change;
  if (added.length === 0 && removed.length === 0) {
    if (input.kind === 'whitelist.add') {
      throw new InputError(
        `${listText(unchanged)} ${isAre(unchanged)} already on the whitelist; nothing to add.`,
      );
    }
    if (input.kind === 'whitelist.remove') {
      throw new InputError(
        `${listText(unchanged)} ${isAre(unchanged)} not on the whitelist; nothing to remove.`,
      );
    }
    throw new InputError('The whitelist already holds exactly these addresses; nothing would change.');
  }
  if (input.kind === 'whitelist.add' && unchanged.length > 0) {
    warnings.push(`${listText(unchanged)} ${isAre(unchanged)} already on the whitelist.`);
  }
  if (input.kind === 'whitelist.remove' && unchanged.length > 0) {
    warnings.push(`${listText(unchanged)} ${isAre(unchanged)} not on the whitelist.`);
  }
  if (next.length === 0) {
    warnings.push('The whitelist will be empty: while ipValidation is on, no server can create links.');
  }
  const params = parseParams('whitelist.set', { allowedDNS: next, expectBefore: [...current] });
  return prepared(
    'whitelist.set',
    params,
    { kind: 'whitelist', before: [...current], after: next, added, removed },
    warnings,
  );
}

async function prepareProtection(
  ctx: Context,
  input: Extract<PrepareInput, { kind: 'protect.set' }>,
): Promise<Prepared> {
  const { raw: _raw, ...current } = await ctx.client.protection.get();
  const diff = diffProtection(current, input.changes);
  if (diff.rows.length === 0) {
    const asked = flattenProtection(input.changes);
    if (asked.length === 0) throw new InputError('No setting to change was given.');
    const already = asked.map(
      (row) => `${row.field} is already ${formatProtectionValue(row.field, row.value)}`,
    );
    throw new InputError(`Nothing would change: ${already.join(', ')}.`);
  }
  const params = parseParams('protect.set', { changes: diff.changed });
  return prepared('protect.set', params, { kind: 'protection', rows: toJson(diff.rows) }, []);
}

function folderView(folder: Folder | null): JsonValue {
  return folder === null ? null : { title: folder.title, description: folder.description };
}

async function prepareFolder(
  ctx: Context,
  input: Extract<PrepareInput, { kind: 'folder.create' | 'folder.edit' | 'folder.delete' }>,
): Promise<Prepared> {
  const warnings: string[] = [];
  if (input.kind === 'folder.create') {
    const params = parseParams('folder.create', {
      title: clean(input.title),
      ...optionalText(input.description),
    });
    return prepared(
      'folder.create',
      params,
      { kind: 'create', resource: 'folder', after: toJson(params) },
      warnings,
    );
  }
  const bucketId = resourceId(input.bucketId, 'folder', warnings);
  const folder = await lookUp(
    'folder',
    () => ctx.client.folders.info(bucketId),
    warnings,
    `Folder ${bucketId} does not exist.`,
  );
  if (input.kind === 'folder.edit') {
    const params = parseParams('folder.edit', {
      bucketId,
      title: clean(input.title),
      ...optionalText(input.description),
    });
    if (folder && folder.title === params.title && (folder.description || undefined) === params.description) {
      throw new InputError(
        `Folder ${bucketId} already has this title and description; nothing would change.`,
      );
    }
    return prepared(
      'folder.edit',
      params,
      {
        kind: 'edit',
        resource: 'folder',
        id: bucketId,
        before: folderView(folder),
        after: { title: params.title, description: params.description ?? null },
      },
      warnings,
    );
  }
  let filesCount = folder?.filesCount ?? null;
  if (folder && filesCount === null) filesCount = await countFiles(ctx, bucketId, warnings);
  if (filesCount !== null && filesCount > 0) {
    warnings.push(
      `Deleting folder ${bucketId}${quoted(folder?.title)} also deletes its ${filesCount} file${filesCount === 1 ? '' : 's'}; this cannot be undone.`,
    );
  }
  const params = parseParams('folder.delete', { bucketId });
  return prepared(
    'folder.delete',
    params,
    { kind: 'delete', resource: 'folder', id: bucketId, title: folder?.title ?? null, filesCount },
    warnings,
  );
}

/** How many files a folder holds, when its info does not say; null (and a warning) when the list fails too. */
async function countFiles(ctx: Context, bucketId: string, warnings: string[]): Promise<number | null> {
  try {
    const page = await ctx.client.files.list({ bucketId, limit: 1 });
    return page.total;
  } catch (error) {
    warnings.push(`Could not count the files of folder ${bucketId}: ${failureInWords(error)}.`);
    return null;
  }
}

function fileView(file: VideoFile | null): JsonValue {
  return file === null
    ? null
    : {
        title: file.title,
        description: file.description,
        bucketId: file.bucketId,
        hlsStatus: file.hlsStatus,
      };
}

async function prepareFile(
  ctx: Context,
  input: Extract<PrepareInput, { kind: 'file.edit' | 'file.delete' | 'file.retry' }>,
): Promise<Prepared> {
  const warnings: string[] = [];
  const fileId = resourceId(input.fileId, 'file', warnings);
  if (input.kind === 'file.edit' && input.cover && !ctx.canFetchCover) {
    throw new InputError('A cover image cannot be uploaded from here; edit the title and description only.');
  }
  const file = await lookUp(
    'file',
    () => ctx.client.files.info(fileId),
    warnings,
    `File ${fileId} does not exist.`,
  );
  if (input.kind === 'file.edit') {
    const cover: CoverRef | undefined = input.cover;
    const params = parseParams('file.edit', {
      fileId,
      title: clean(input.title),
      ...optionalText(input.description),
      ...(cover ? { cover: { ...cover } } : {}),
    });
    return prepared(
      'file.edit',
      params,
      {
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
    );
  }
  if (input.kind === 'file.retry') {
    if (file?.hlsStatus === 'done') {
      throw new InputError(
        `File ${fileId}${quoted(file.title)} has converted already (status done); there is nothing to retry.`,
      );
    }
    if (file?.hlsStatus === 'waiting') {
      throw new InputError(
        `File ${fileId}${quoted(file.title)} is still in the conversion queue (status waiting); wait for it to finish or fail.`,
      );
    }
    const params = parseParams('file.retry', { fileId });
    return prepared(
      'file.retry',
      params,
      {
        kind: 'retry',
        resource: 'file',
        id: fileId,
        title: file?.title ?? null,
        hlsStatus: file?.hlsStatus ?? null,
      },
      warnings,
    );
  }
  const params = parseParams('file.delete', { fileId });
  return prepared(
    'file.delete',
    params,
    {
      kind: 'delete',
      resource: 'file',
      id: fileId,
      title: file?.title ?? null,
      bucketId: file?.bucketId ?? null,
    },
    warnings,
  );
}

function playlistView(playlist: Playlist | null): JsonValue {
  return playlist === null ? null : { title: playlist.title, files: toJson(playlist.files) };
}

async function preparePlaylist(
  ctx: Context,
  input: Extract<PrepareInput, { kind: 'playlist.edit' | 'playlist.delete' }>,
): Promise<Prepared> {
  const warnings: string[] = [];
  const playlistId = resourceId(input.playlistId, 'playlist', warnings);
  const playlist = await lookUp(
    'playlist',
    () => ctx.client.playlists.info(playlistId),
    warnings,
    `Playlist ${playlistId} does not exist.`,
  );
  if (input.kind === 'playlist.edit') {
    const title = input.title === undefined ? undefined : clean(input.title);
    const files = input.files?.map((f) => {
      const fileTitle = f.title?.trim();
      return fileTitle
        ? { _id: resourceId(f._id, 'file', warnings), title: fileTitle }
        : { _id: resourceId(f._id, 'file', warnings) };
    });
    const params = parseParams('playlist.edit', {
      playlistId,
      ...(title === undefined || title === '' ? {} : { title }),
      ...(files === undefined ? {} : { files }),
    });
    if (params.files !== undefined) await checkFilesExist(ctx, params.files, warnings);
    return prepared(
      'playlist.edit',
      params,
      {
        kind: 'edit',
        resource: 'playlist',
        id: playlistId,
        before: playlistView(playlist),
        after: {
          title: params.title ?? null,
          files: params.files === undefined ? null : toJson(params.files),
        },
      },
      warnings,
    );
  }
  const params = parseParams('playlist.delete', { playlistId });
  return prepared(
    'playlist.delete',
    params,
    {
      kind: 'delete',
      resource: 'playlist',
      id: playlistId,
      title: playlist?.title ?? null,
      filesCount: playlist ? playlist.files.length : null,
    },
    warnings,
  );
}

/**
 * Before a playlist edit: each listed file is looked up, one after the other. Files the service
 * says do not exist (possible only once file info is known to work) refuse the edit, all named;
 * the first look-up that fails otherwise stops the check with a warning, and the edit goes on.
 */
async function checkFilesExist(
  ctx: Context,
  files: readonly { _id: string }[],
  warnings: string[],
): Promise<void> {
  const ids = [...new Set(files.map((f) => f._id))];
  const missing: string[] = [];
  for (const [index, id] of ids.entries()) {
    try {
      await ctx.client.files.info(id);
    } catch (error) {
      if (error instanceof NotFoundError) {
        missing.push(id);
        continue;
      }
      const unchecked = ids.slice(index);
      const why = failureInWords(error);
      warnings.push(
        unchecked.length === ids.length
          ? `Could not look the playlist's files up: ${why}. Whether they exist was not checked.`
          : unchecked.length === 1
            ? `Could not look up file ${unchecked[0]}: ${why}. Whether it exists was not checked.`
            : `Could not look up files ${listText(unchecked)}: ${why}. Whether they exist was not checked.`,
      );
      break;
    }
  }
  if (missing.length === 1) {
    throw new InputError(
      `File ${missing[0]} does not exist; take it out of the playlist or check the ID.`,
      missing.map((id) => `file ${id} does not exist`),
    );
  }
  if (missing.length > 1) {
    throw new InputError(
      `Files ${listText(missing)} do not exist; take them out of the playlist or check the IDs.`,
      missing.map((id) => `file ${id} does not exist`),
    );
  }
}

async function prepareUnblock(
  ctx: Context,
  input: Extract<PrepareInput, { kind: 'viewer.unblock' }>,
): Promise<Prepared> {
  const warnings: string[] = [];
  const params = parseParams('viewer.unblock', { mobileNumber: input.mobileNumber });
  let viewer: Viewer | null = null;
  let looked = false;
  // The look-up is a courtesy: unblocking never depends on it, so any failure is only a warning
  // (even a 404 of a learned route: a search finds nobody, it names no record).
  try {
    const page = await ctx.client.viewers.lookup([params.mobileNumber]);
    looked = true;
    viewer = page.items.find((v) => sameNumber(v.mobileNumber, params.mobileNumber)) ?? null;
  } catch (error) {
    warnings.push(lookUpWarning('viewer', error));
  }
  if (looked && viewer === null) warnings.push('The service has no viewing record for this number.');
  if (viewer?.blocked === false) warnings.push('The service does not list this viewer as blocked.');
  return prepared(
    'viewer.unblock',
    params,
    {
      kind: 'unblock',
      mobileNumber: params.mobileNumber,
      blocked: viewer?.blocked ?? null,
      actionType: viewer?.actionType ?? null,
    },
    warnings,
  );
}

/** Compares the last ten digits, so `+98912…`, `0098912…` and `0912…` are one number. */
function sameNumber(a: string, b: string): boolean {
  const tail = (s: string) => normalizeDigits(s).replace(/\D/g, '').slice(-10);
  return tail(a) !== '' && tail(a) === tail(b);
}

/** @see Operations.prepare */
export async function prepareRequest(ctx: Context, input: PrepareInput): Promise<Prepared> {
  switch (input.kind) {
    case 'whitelist.add':
    case 'whitelist.remove':
    case 'whitelist.set':
      return prepareWhitelist(ctx, input);
    case 'protect.set':
      return prepareProtection(ctx, input);
    case 'folder.create':
    case 'folder.edit':
    case 'folder.delete':
      return prepareFolder(ctx, input);
    case 'file.edit':
    case 'file.delete':
    case 'file.retry':
      return prepareFile(ctx, input);
    case 'playlist.edit':
    case 'playlist.delete':
      return preparePlaylist(ctx, input);
    case 'viewer.unblock':
      return prepareUnblock(ctx, input);
  }
}
