import { normalizeDigits } from './digits.js';

/** What kind of thing an ID names; used in messages. */
export type ResourceKind = 'folder' | 'file' | 'playlist';

export type ResourceIdResult =
  | { ok: true; id: string; warning: string | null }
  | { ok: false; reason: string };

const OBJECT_ID = /^[0-9a-f]{24}$/i;
// Slack wraps pasted text in code, bold, italic or strike marks, and quotes come along too.
const WRAPPING = /^[`*_~"'“”‘’«»]+|[`*_~"'“”‘’«»]+$/g;

/**
 * Reads a folder, file or playlist ID as pasted: trimmed, Slack formatting and quotes stripped,
 * Persian digits made ASCII. Refuses empty IDs, IDs with whitespace inside, slashes or control
 * characters, and IDs made only of dots (the file ID also stands in a URL path, where `.` and
 * `..` would change the route). IDs that are not 24 hex digits are
 * accepted with a warning: the service's IDs look like that, but it is not documented as a rule.
 * @see docs/api-extras.md, "Facts"
 */
export function parseResourceId(raw: string, kind: ResourceKind): ResourceIdResult {
  const id = normalizeDigits(raw).trim().replace(WRAPPING, '').trim();
  if (id === '') return { ok: false, reason: `no ${kind} ID was given` };
  if (/\s/.test(id)) return { ok: false, reason: `the ${kind} ID "${id}" has spaces inside; give one ID` };
  if (id.includes('/'))
    return { ok: false, reason: `the ${kind} ID "${id}" has a slash; give the ID alone, not a path or link` };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\u0000-\u001f\u007f]/.test(id)) return { ok: false, reason: `the ${kind} ID has control characters` };
  // `.` and `..` are path steps, not IDs: in a URL they would move the call to another route.
  if (/^\.+$/.test(id)) {
    return { ok: false, reason: `"${id}" is not a ${kind} ID: an ID is never made only of dots` };
  }
  return { ok: true, id, warning: idShapeWarning(id, kind) };
}

/** The warning for an ID that is not 24 hex digits like the service's own; null for one that is. */
export function idShapeWarning(id: string, kind: ResourceKind): string | null {
  return OBJECT_ID.test(id)
    ? null
    : `${kind} ID ${id} is not 24 hex digits like the service's IDs (e.g. 671018d0403eba579a6f90e2); check it`;
}
