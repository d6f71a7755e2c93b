import { english, type Said, say } from '../said.js';
import { normalizeDigits } from './digits.js';

/** What kind of thing an ID names; used in messages. */
export type ResourceKind = 'folder' | 'file' | 'playlist';

export type ResourceIdResult =
  | { ok: true; id: string; warning: Said | null }
  | { ok: false; reason: string; said: Said };

function refused(said: Said): { ok: false; reason: string; said: Said } {
  return { ok: false, reason: english(said), said };
}

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
  if (id === '') return refused(say.idNone(kind));
  if (/\s/.test(id)) return refused(say.idSpaces(kind, id));
  if (id.includes('/')) return refused(say.idSlash(kind, id));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\u0000-\u001f\u007f]/.test(id)) return refused(say.idControl(kind));
  // `.` and `..` are path steps, not IDs: in a URL they would move the call to another route.
  if (/^\.+$/.test(id)) {
    return refused(say.idDots(kind, id));
  }
  return { ok: true, id, warning: idShapeWarning(id, kind) };
}

/** The warning for an ID that is not 24 hex digits like the service's own; null for one that is. */
export function idShapeWarning(id: string, kind: ResourceKind): Said | null {
  return OBJECT_ID.test(id) ? null : say.idShape(kind, id);
}
