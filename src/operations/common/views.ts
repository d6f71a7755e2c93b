import { stripBidiControls as shown } from '../../core/bidi.js';
import type { ChangeOperation, Preview } from '../../core/catalog.js';
import type { JsonValue } from '../../core/json.js';
import type { Area, Phrases } from '../../i18n/define.js';
import { beforeAfter, type Lang, ltr, num } from '../../i18n/index.js';
import { code, isolated } from '../../views/blocks.js';

/**
 * What people see of an operation, in both languages: its preview as approvers read it in Slack
 * (`slack`, mrkdwn lines) and on the command line (`cli`), and the sentence the audit log says
 * when it succeeded (`done`). Each operation's `views.ts` gives them; the three creates, edits and
 * deletes share theirs (below), by composition. Shared helpers of those renderers are here too.
 * @see docs/architecture.md, "The operation catalog"
 */

/** Renders one operation's preview as lines of mrkdwn, in the reader's language. */
export type PreviewView<O extends ChangeOperation> = (preview: Preview<O>, lang: Lang) => string[];

/** Renders one operation's preview as lines for a terminal. */
export type CliPreview<O extends ChangeOperation> = (preview: Preview<O>, lang: Lang) => string[];

/**
 * The pieces of an audit sentence about one operation, already worded and styled for the reader
 * by src/views/audit-post.ts (code spans in Slack, isolates in Persian, cut to their limits).
 */
export interface AuditParts {
  t: Lang['t']['audit'];
  lang: Lang;
  /** What it acts on as a sentence names it: `folder `6710…``, `new folder "…"`. */
  target: string;
  /** The ID of what it acts on, when it acts on one record. */
  targetId: string | undefined;
  /** The service's answer (in a success) and the parameters sent, as the event stores them. */
  result: JsonValue | undefined;
  params: JsonValue | undefined;
  /** A title from outside, quoted and cut. */
  quoted(text: string): string;
  /** An ID or code, kept whole. */
  id(text: string): string;
  /** Outside text, cut at `max`. */
  text(text: string, max: number): string;
  /** Our own words (setting names), cut at `max`. */
  own(text: string, max: number): string;
}

/** The audit log's words for one operation: what is asked (a verb phrase), and what it did. */
export interface AuditSentences {
  /** `delete folder `6710…``, `update the whitelist`. */
  ask(p: AuditParts): string;
  /** `Folder `6710…` deleted (3 files)`: what the service did, read from its answer where it says. */
  done(p: AuditParts): string;
}

/** What the audit log's `requested` sentence adds about a change, from its preview: `(2 addresses added)`. */
export type PreviewFacts<O extends ChangeOperation> = (preview: Preview<O>, p: AuditParts) => string[];

/** The views of one operation. */
export interface OperationViews<O extends ChangeOperation> extends AuditSentences {
  slack: PreviewView<O>;
  cli: CliPreview<O>;
  facts: PreviewFacts<O>;
  /** Why a done request of it has no Revert…, when its `undo` is `none` and it is no delete or create. */
  noRevert?(lang: Lang): string;
  /** What only it says (its `messages.ts`), when it says anything of its own: part of the catalog. */
  messages?: Area<Phrases>;
}

/** The audit log's limit for a title (or setting names) in a sentence. */
export const AUDIT_TITLE_LIMIT = 80;

type Obj = { readonly [key: string]: JsonValue };

export function isObj(value: JsonValue | undefined): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member of the outcome (or any JSON object) as the type it should have; undefined otherwise. */
export function str(value: JsonValue | undefined, key: string): string | undefined {
  const v = isObj(value) ? value[key] : undefined;
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

export function numberIn(value: JsonValue | undefined, key: string): number | undefined {
  const v = isObj(value) ? value[key] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An operation's views, named after its catalog entry (for the tables built from the list). */
export function viewsOf<const O extends ChangeOperation>(
  spec: { name: O },
  views: OperationViews<O>,
): OperationViews<O> & { name: O } {
  return { name: spec.name, ...views };
}

// ---------------------------------------------------------------------------------------------
// Slack

/** A comma list of `code` items, wrapped into lines of about `width` characters. */
export function wrapList(lang: Lang, label: string, items: readonly string[], width = 1200): string[] {
  if (items.length === 0) return [`${label}: ${lang.t.approvals.apprNone}`];
  const comma = lang.locale === 'fa' ? '، ' : ', ';
  const lines: string[] = [];
  let current = `${label}:`;
  for (const [i, item] of items.entries()) {
    const piece = `${i === 0 ? ' ' : comma}${ltr(lang, code(item))}`;
    if (current.length + piece.length > width) {
      lines.push(`${current}${comma.trim()}`);
      current = `    ${ltr(lang, code(item))}`;
      continue;
    }
    current += piece;
  }
  lines.push(current);
  return lines;
}

/** A title from outside in quotes, isolated inside the quotes (see `isolated`). */
export function quotedTitle(lang: Lang, title: string | null | undefined): string {
  if (!title) return '';
  return ` ${quote(lang, title, 150)}`;
}

/** Outside text made safe, cut at `max`, in the reader's quotes and isolated inside them. */
export function quote(lang: Lang, text: string, max: number): string {
  const shown = isolated(lang, text, max);
  return lang.locale === 'fa' ? `«${shown}»` : `“${shown}”`;
}

export function changeLine(
  lang: Lang,
  label: string,
  before: string | null | undefined,
  after: string | null | undefined,
) {
  const empty = lang.t.approvals.apprEmpty;
  const now = after ? `*${quote(lang, after, 300)}*` : empty;
  if (before === undefined) return `• ${label}: ${now}`;
  return `• ${label}: ${beforeAfter(lang, before ? quote(lang, before, 300) : empty, now)}`;
}

export function playlistLines(
  lang: Lang,
  label: string,
  files: readonly { _id: string; title?: string | null | undefined }[],
) {
  const lines = [`${label} (${num(lang, files.length)}):`];
  files.forEach((f, i) => {
    lines.push(`${num(lang, i + 1)}. ${ltr(lang, code(f._id))}${quotedTitle(lang, f.title)}`);
  });
  return lines;
}

// ---------------------------------------------------------------------------------------------
// The command line

export function textOf(value: JsonValue | undefined, lang: Lang): string {
  if (value === undefined || value === null) return lang.t.cli.cliNone;
  if (typeof value === 'string') return shown(JSON.stringify(value));
  return shown(JSON.stringify(value));
}

export function list(value: JsonValue | undefined, lang: Lang, empty = lang.t.cli.cliEmpty): string {
  if (!Array.isArray(value) || value.length === 0) return empty;
  return ltr(lang, shown(value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')));
}

/** Outside text that may be missing, without its bidi controls. */
export function shownOrNull(text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : shown(text);
}

export function titled(title: JsonValue | undefined): string {
  return typeof title === 'string' && title !== '' ? ` ("${shown(title)}")` : '';
}

/** One playlist entry as a person reads it: `6710… "Lesson 1"`. */
export function playlistEntry(entry: { _id: string; title?: string }, lang: Lang): string {
  return `${ltr(lang, shown(entry._id))}${titled(entry.title)}`;
}

type Entries = readonly { _id: string; title?: string }[];

/** A playlist's files before and after, one numbered line each, instead of two JSON arrays. */
export function playlistFilesLines(before: Entries | undefined, after: Entries, lang: Lang): string[] {
  const t = lang.t.cli;
  const numbered = (entries: Entries) =>
    entries.length === 0
      ? [`    ${t.cliNone}`]
      : entries.map((entry, i) => `    ${num(lang, i + 1)}. ${playlistEntry(entry, lang)}`);
  const lines = [`  ${t.cliFilesAfter(num(lang, after.length))}`, ...numbered(after)];
  if (before === undefined) lines.push(`  ${t.cliFilesBeforeUnknown}`);
  else lines.push(`  ${t.cliFilesBefore(num(lang, before.length))}`, ...numbered(before));
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Shared by the creates, the edits and the deletes

function createSlackLines(preview: Extract<Preview, { kind: 'create' }>, lang: Lang): string[] {
  const t = lang.t.approvals;
  const after: { title: string; description?: string } = preview.after;
  return [
    t.apprCreates(t.apprResource(preview.resource)),
    changeLine(lang, t.apprTitleLabel, undefined, after.title),
    ...(preview.resource === 'folder'
      ? [changeLine(lang, t.apprDescriptionLabel, undefined, after.description)]
      : []),
  ];
}

function editSlackLines(preview: Extract<Preview, { kind: 'edit' }>, lang: Lang): string[] {
  const t = lang.t.approvals;
  const known = preview.before !== null;
  const lines = [t.apprChanges(t.apprResource(preview.resource), ltr(lang, code(preview.id)), known)];
  const title = (before: { title: string | null } | null, after: string | null) => {
    if (after !== null)
      lines.push(changeLine(lang, t.apprTitleLabel, before === null ? undefined : before.title, after));
  };
  switch (preview.resource) {
    case 'folder':
    case 'file':
      title(preview.before, preview.after.title);
      lines.push(
        changeLine(
          lang,
          t.apprDescriptionLabel,
          preview.before === null ? undefined : preview.before.description,
          preview.after.description,
        ),
      );
      if (preview.resource === 'file' && preview.after.cover !== null) {
        lines.push(t.apprCoverImage(ltr(lang, code(preview.after.cover))));
      }
      return lines;
    case 'playlist':
      title(preview.before, preview.after.title);
      if (preview.after.files !== null) {
        lines.push(...playlistLines(lang, t.apprFilesAfter, preview.after.files));
        if (preview.before !== null)
          lines.push(...playlistLines(lang, t.apprFilesBefore, preview.before.files));
      }
      return lines;
  }
}

function deleteSlackLines(preview: Extract<Preview, { kind: 'delete' }>, lang: Lang): string[] {
  const t = lang.t.approvals;
  const count =
    'filesCount' in preview && preview.filesCount !== null
      ? preview.resource === 'folder'
        ? t.apprAndFolderFiles(preview.filesCount, num(lang, preview.filesCount))
        : t.apprFilesInIt(preview.filesCount, num(lang, preview.filesCount))
      : '';
  const where =
    'bucketId' in preview && preview.bucketId ? t.apprInFolder(ltr(lang, code(preview.bucketId))) : '';
  return [
    t.apprDeletes(
      t.apprResource(preview.resource),
      ltr(lang, code(preview.id)),
      quotedTitle(lang, preview.title),
      where,
      count,
    ),
  ];
}

function createCliLines(preview: Extract<Preview, { kind: 'create' }>, lang: Lang): string[] {
  const after: { [key: string]: JsonValue } = preview.after;
  return Object.entries(after).map(([key, value]) => `  ${key}: ${textOf(value, lang)}`);
}

function editCliLines(preview: Extract<Preview, { kind: 'edit' }>, lang: Lang): string[] {
  const text = (value: JsonValue | undefined) => textOf(value, lang);
  const before: { [key: string]: JsonValue } | null = preview.before;
  const lines: string[] = [];
  if (preview.resource === 'playlist') {
    const { title, files } = preview.after;
    if (title !== null)
      lines.push(
        before === null
          ? `  title: ${text(title)}`
          : `  title: ${beforeAfter(lang, text(before.title), text(title))}`,
      );
    if (files !== null) lines.push(...playlistFilesLines(preview.before?.files, files, lang));
    return lines;
  }
  const after: { [key: string]: JsonValue } = preview.after;
  for (const [key, value] of Object.entries(after)) {
    if (value === null) continue;
    lines.push(
      before === null
        ? `  ${key}: ${text(value)}`
        : `  ${key}: ${beforeAfter(lang, text(before[key]), text(value))}`,
    );
  }
  return lines;
}

function deleteCliLines(preview: Extract<Preview, { kind: 'delete' }>, lang: Lang): string[] {
  const t = lang.t.cli;
  const count = 'filesCount' in preview && preview.filesCount !== null ? num(lang, preview.filesCount) : null;
  return [
    `  ${t.cliDeletes(t.cliResource(preview.resource), shown(preview.id), titled(preview.title), count)}`,
  ];
}

/** A delete's title, and a folder's files as the look-up counted them. */
function deleteFacts(
  preview: Extract<Preview, { kind: 'delete' }>,
  { t, lang, quoted }: AuditParts,
): string[] {
  const files = 'filesCount' in preview && preview.resource === 'folder' ? preview.filesCount : null;
  return [
    ...(preview.title === null ? [] : [quoted(preview.title)]),
    ...(files === null ? [] : [t.auditFiles(files, num(lang, files))]),
  ];
}

/** `Folder `6710…` edited (title now “…”)`. */
function editedSentence(p: AuditParts): string {
  const title = str(p.params, 'title');
  return p.t.auditEdited(
    capitalize(p.target),
    title === undefined ? '' : p.t.auditEditedTitle(p.quoted(title)),
  );
}

/** The views of a create (folder, playlist); what it did, each says. */
export const CREATE_VIEWS = {
  slack: createSlackLines,
  cli: createCliLines,
  facts: () => [],
  ask: (p: AuditParts) => p.t.auditAskVerb('create', p.target),
};
/** The views of an edit (folder, file, playlist). */
export const EDIT_VIEWS = {
  slack: editSlackLines,
  cli: editCliLines,
  facts: (preview: Extract<Preview, { kind: 'edit' }>, p: AuditParts) =>
    preview.after.title === null ? [] : [p.t.auditTitleTo(p.quoted(preview.after.title))],
  ask: (p: AuditParts) => p.t.auditAskVerb('edit', p.target),
  done: editedSentence,
};
/** The views of a delete (folder, file, playlist). */
export const DELETE_VIEWS = {
  slack: deleteSlackLines,
  cli: deleteCliLines,
  facts: deleteFacts,
  ask: (p: AuditParts) => p.t.auditAskVerb('delete', p.target),
  done: (p: AuditParts) => p.t.auditDeleted(capitalize(p.target), ''),
};
