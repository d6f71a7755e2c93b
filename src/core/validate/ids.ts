import { z } from 'zod';
import { type Said, say } from '../said.js';
import { normalizeDigits } from './digits.js';

/** What kind of thing an ID names; used in messages. */
export type ResourceKind = 'folder' | 'file' | 'playlist';

export type ResourceIdResult = { ok: true; id: string; warning: Said | null } | { ok: false; said: Said };

function refused(said: Said): { ok: false; said: Said } {
  return { ok: false, said };
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** Why a value cannot be a folder, file or playlist ID; every surface asks this one rule. */
export type IdProblem = 'empty' | 'spaces' | 'slash' | 'control' | 'dots';

/**
 * The one rule of what an ID is, for the catalog, the API client and the sandbox alike: not empty,
 * no whitespace, no slash, no control character, and not made only of dots (`.` and `..` in a URL
 * path are steps that change the route a call goes to). Null when `id` may be an ID.
 */
export function idProblem(id: string): IdProblem | null {
  if (id === '') return 'empty';
  if (/\s/.test(id)) return 'spaces';
  if (id.includes('/')) return 'slash';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\u0000-\u001f\u007f]/.test(id)) return 'control';
  if (/^\.+$/.test(id)) return 'dots';
  return null;
}

/** What `idProblem` means, in the words of a schema's issue (they never repeat the value). */
const ID_PROBLEMS: Readonly<Record<IdProblem, string>> = {
  empty: 'must not be empty',
  spaces: 'must have no spaces, slashes or control characters',
  slash: 'must have no spaces, slashes or control characters',
  control: 'must have no spaces, slashes or control characters',
  dots: 'must not be made only of dots',
};

/**
 * The rule on a string schema, for parameters (the catalog), requests (the client) and the
 * sandbox; each keeps its own words for a value that is not a string at all.
 */
export function idRule(text: z.ZodString) {
  return text.superRefine((id, ctx) => {
    const problem = idProblem(id);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: ID_PROBLEMS[problem] });
  });
}

/** An ID in a request to the service. */
export const IdSchema = idRule(z.string({ message: 'must be a text ID' }));
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
  switch (idProblem(id)) {
    case 'empty':
      return refused(say.idNone(kind));
    case 'spaces':
      return refused(say.idSpaces(kind, id));
    case 'slash':
      return refused(say.idSlash(kind, id));
    case 'control':
      return refused(say.idControl(kind));
    case 'dots':
      return refused(say.idDots(kind, id));
    case null:
      return { ok: true, id, warning: idShapeWarning(id, kind) };
  }
}

/** The warning for an ID that is not 24 hex digits like the service's own; null for one that is. */
export function idShapeWarning(id: string, kind: ResourceKind): Said | null {
  return OBJECT_ID.test(id) ? null : say.idShape(kind, id);
}
