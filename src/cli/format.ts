import type { ProtectionConfig } from '../client/types.js';
import { describeState, isPastExpiry } from '../core/approvals.js';
import { shortHash } from '../core/audit-chain.js';
import { type ChangeOperation, OPERATION_SPECS, type Preview } from '../core/catalog.js';
import { canonicalJson, type JsonValue } from '../core/json.js';
import { maskMobile, maskMobilesInText } from '../core/mask.js';
import type { AuditEvent, OperationRequest } from '../core/model.js';
import type { PlayerErrorExplanation } from '../core/player-errors.js';
import {
  formatProtectionValue,
  PROTECTION_FIELDS,
  type ProtectionValue,
  readProtectionField,
} from '../core/validate/protection.js';
import { auditTerminalLine } from '../views/audit-post.js';
import { CLI_COMMANDS, type CliCommand } from './args.js';

/**
 * What the CLI prints: pure functions from values to lines. Everything meant for a terminal
 * masks mobile numbers; only the compliance export (`auditJsonLine`, `auditCsvLine`) keeps them.
 * @see docs/architecture.md, "Audit log"
 */

/** The variables the CLI reads, in the order `vidops help` lists them. */
export const CLI_VARIABLES = [
  'DATABASE_URL',
  'VIDEO_API_URL',
  'VIDEO_API_KEY',
  'VIDEO_SECRET_KEY',
  'LEADS',
  'AGENTS',
  'PHONE_REGION',
  'POLICY_FILE',
  'AUDIT_HMAC_KEY',
  'AUDIT_SIGNING_KEY_FILE',
  'AUDIT_LOG_NAME',
  'VIDEO_API_TIMEOUT_MS',
  'RETRY_CONVERSION_METHOD',
] as const;

/** `vidops help`: every listed command with its summary, the common flags, configuration, exit codes. */
export function generalHelp(): string {
  const lines = [
    'vidops: the command line of vidops, with the same checks, policy and audit log as /vidops in Slack.',
    '',
    'Usage: vidops <command> [words] [flags]',
    '',
    'Commands:',
  ];
  for (const c of CLI_COMMANDS) {
    if (c.alias) continue;
    lines.push(`  ${c.usage}`, `      ${c.summary}`);
  }
  lines.push(
    '',
    'Flags:',
    '  --as U…          act as this Slack user ID (default: cli:<your OS user name>)',
    '  --as-name NAME   the name recorded with --as (default: the ID)',
    '  --reason "…"     why; approvers see it',
    '  -h, --help       details of a command: vidops <command> --help',
    '',
    `Configuration (environment, or .env in the working directory): ${CLI_VARIABLES.join(', ')}.`,
    'The audit commands and `requests` need only DATABASE_URL (and AUDIT_HMAC_KEY when the deployment sets it); signed checkpoints also AUDIT_SIGNING_KEY_FILE and AUDIT_LOG_NAME, `audit witness` SLACK_BOT_TOKEN and AUDIT_CHANNEL; `audit verify --events` needs nothing.',
    '`vidops audit export` writes full mobile numbers: it is meant for compliance.',
    '',
    'Exit codes: 0 done; 1 refused or failed (the reason on stderr); 2 usage or configuration error.',
  );
  return `${lines.join('\n')}\n`;
}

/** `vidops <command> --help`. */
export function commandHelp(command: CliCommand): string {
  const lines = [`Usage: ${command.usage}`, '', command.summary];
  if (command.details.length > 0) lines.push('', ...command.details);
  return `${lines.join('\n')}\n`;
}

/** What a usage error prints on stderr: the problem, then the usage line(s) to follow. */
export function usageError(message: string, command: CliCommand | null): string {
  const usage =
    command === null
      ? 'Run `vidops help` for the commands.'
      : `Usage: ${command.usage}\n(vidops ${command.id} --help for details)`;
  return `vidops: ${message}\n${usage}\n`;
}

/** Compact JSON, as the upstream answered. */
export function compactJson(value: JsonValue): string {
  return JSON.stringify(value);
}

function text(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '(none)';
  if (typeof value === 'string') return JSON.stringify(value);
  return compactJson(value);
}

function list(value: JsonValue | undefined, empty = '(empty)'): string {
  if (!Array.isArray(value) || value.length === 0) return empty;
  return value.map((v) => (typeof v === 'string' ? v : compactJson(v))).join(', ');
}

function titled(title: JsonValue | undefined): string {
  return typeof title === 'string' && title !== '' ? ` ("${title}")` : '';
}

/** One playlist entry as a person reads it: `6710… "Lesson 1"`. */
function playlistEntry(entry: { _id: string; title?: string }): string {
  return `${entry._id}${titled(entry.title)}`;
}

type Entries = readonly { _id: string; title?: string }[];

/** A playlist's files before and after, one numbered line each, instead of two JSON arrays. */
function playlistFilesLines(before: Entries | undefined, after: Entries): string[] {
  const numbered = (entries: Entries) =>
    entries.length === 0
      ? ['    (none)']
      : entries.map((entry, i) => `    ${i + 1}. ${playlistEntry(entry)}`);
  const lines = [`  files after (${after.length}):`, ...numbered(after)];
  if (before === undefined) lines.push('  files before: not known (the playlist could not be looked up)');
  else lines.push(`  files before (${before.length}):`, ...numbered(before));
  return lines;
}

/** Renders one operation's preview as lines for a terminal. */
type CliPreview<O extends ChangeOperation> = (preview: Preview<O>) => string[];

function createLines(preview: Preview<'folder.create' | 'playlist.create'>): string[] {
  const after: { [key: string]: JsonValue } = preview.after;
  return Object.entries(after).map(([key, value]) => `  ${key}: ${text(value)}`);
}

function editLines(preview: Preview<'folder.edit' | 'file.edit' | 'playlist.edit'>): string[] {
  const before: { [key: string]: JsonValue } | null = preview.before;
  const lines: string[] = [];
  if (preview.resource === 'playlist') {
    const { title, files } = preview.after;
    if (title !== null)
      lines.push(
        before === null ? `  title: ${text(title)}` : `  title: ${text(before.title)} → ${text(title)}`,
      );
    if (files !== null) lines.push(...playlistFilesLines(preview.before?.files, files));
    return lines;
  }
  const after: { [key: string]: JsonValue } = preview.after;
  for (const [key, value] of Object.entries(after)) {
    if (value === null) continue;
    lines.push(
      before === null ? `  ${key}: ${text(value)}` : `  ${key}: ${text(before[key])} → ${text(value)}`,
    );
  }
  return lines;
}

function deleteLines(preview: Preview<'folder.delete' | 'file.delete' | 'playlist.delete'>): string[] {
  const count =
    'filesCount' in preview && preview.filesCount !== null ? `, holding ${preview.filesCount} file(s)` : '';
  return [`  deletes ${preview.resource} ${preview.id}${titled(preview.title)}${count}`];
}

/**
 * What a request will do, as approvers see it on the command line: before/after of the
 * whitelist, each setting's old and new value, the title of what is deleted. The compiler checks
 * every operation has its entry.
 */
export const CLI_PREVIEWS: { readonly [O in ChangeOperation]: CliPreview<O> } = {
  'whitelist.set': (preview) => [
    `  before: ${list(preview.before)}`,
    `  after:  ${list(preview.after)}`,
    `  added: ${list(preview.added, 'none')}; removed: ${list(preview.removed, 'none')}`,
  ],
  'protect.set': (preview) =>
    preview.rows.map((row) => {
      const show = (v: ProtectionValue | null) =>
        v === null ? 'not set' : formatProtectionValue(row.field, v);
      return `  ${row.field}: ${show(row.before)} → ${show(row.after)}`;
    }),
  'folder.create': createLines,
  'folder.edit': editLines,
  'folder.delete': deleteLines,
  'file.edit': editLines,
  'file.delete': deleteLines,
  'file.retry': (preview) => [
    `  file ${preview.id}${titled(preview.title)}, conversion status ${preview.hlsStatus ?? 'unknown'}`,
  ],
  'playlist.create': createLines,
  'playlist.edit': editLines,
  'playlist.delete': deleteLines,
  'viewer.unblock': (preview) => {
    const state =
      preview.blocked === true
        ? `blocked${preview.actionType === null ? '' : ` (${preview.actionType})`}`
        : preview.blocked === false
          ? 'not listed as blocked'
          : 'block state unknown';
    return [`  viewer ${maskMobile(preview.mobileNumber)}: ${state}`];
  },
};

/** The preview of a request or a prepared change; a stored one this build cannot read says so. */
export function previewLines<O extends ChangeOperation>(subject: {
  operation: O;
  preview: Preview<O> | null;
}): string[] {
  if (subject.preview === null)
    return ['  preview not available (the request was made by an earlier version of vidops)'];
  const view: CliPreview<O> = CLI_PREVIEWS[subject.operation];
  return view(subject.preview);
}

/**
 * The headline of an unblock that was sent, true to what the look-up before it said: only a
 * viewer known to be blocked "can watch again".
 */
export function unblockedLine(preview: Preview<'viewer.unblock'> | null): string {
  const number = preview === null ? '?' : maskMobile(preview.mobileNumber);
  if (preview?.blocked === true) return `Viewer ${number} is unblocked; they can watch again.`;
  if (preview?.blocked === false) return `Viewer ${number} was not blocked; the unblock was sent anyway.`;
  return `The unblock of viewer ${number} was sent; whether they were blocked is unknown.`;
}

function approvalsNeeded(request: OperationRequest): string {
  const left = Math.max(0, request.quorum - request.approvals.length);
  return `${left} lead approval${left === 1 ? '' : 's'}`;
}

/**
 * What a requester reads after asking for a change that needs approval: the ID, how many
 * approvals are missing, and the commands that move it on (`vidops approve` only where the
 * policy lets the CLI approve).
 */
export function pendingLines(
  request: OperationRequest,
  why: string,
  options: { cliApproves: boolean } = { cliApproves: false },
): string[] {
  const reason = why === 'policy' ? '' : ` (${why})`;
  const where = options.cliApproves
    ? `approve with \`vidops approve ${request.id} --as U…\`, or in Slack`
    : 'a lead approves it in Slack';
  return [
    `request ${request.id} is waiting for ${approvalsNeeded(request)}${reason}; ${where}.`,
    `It expires ${request.expiresAt ?? 'never'}; cancel it with \`vidops cancel ${request.id}${request.requester.id.startsWith('cli:') ? '' : ` --as ${request.requester.id}`}\`.`,
  ];
}

/** One line per request for `vidops requests`: ID, operation, target, who, where it stands. */
export function requestLine(request: OperationRequest, now: Date): string {
  const title = OPERATION_SPECS[request.operation].title;
  const who =
    request.requester.name === request.requester.id
      ? request.requester.id
      : `${request.requester.name} (${request.requester.id})`;
  const state =
    request.state === 'pending' && isPastExpiry(request, now)
      ? `expired at ${request.expiresAt ?? ''} without enough approvals`
      : describeState(request, now);
  const reason = request.reason === null ? '' : `; reason: ${request.reason}`;
  return maskMobilesInText(
    `${request.id}  ${title}: ${request.target}  asked by ${who} at ${request.createdAt}  [${request.state}] ${state}${reason}`,
  );
}

/** The whitelist, one address a line. */
export function whitelistLines(ips: readonly string[]): string[] {
  if (ips.length === 0) return ['The whitelist is empty.'];
  return [
    `The whitelist holds ${ips.length} address${ips.length === 1 ? '' : 'es'}:`,
    ...ips.map((ip) => `  ${ip}`),
  ];
}

/** Every protection setting with its label and value, in the order of the settings modal. */
export function protectionLines(config: ProtectionConfig): string[] {
  const width = Math.max(...PROTECTION_FIELDS.map((f) => f.field.length));
  return PROTECTION_FIELDS.map((f) => {
    const value = formatProtectionValue(f.field, readProtectionField(config, f.field));
    return `${f.field.padEnd(width)}  ${value.padEnd(22)}  ${f.label}`;
  });
}

/** `vidops explain 9910`. */
export function explainLines(explanation: PlayerErrorExplanation): string[] {
  const lines = [`Player error ${explanation.code}: ${explanation.meaning}`, `Fix: ${explanation.fix}`];
  if (explanation.action === 'unblock') lines.push('Run: vidops unblock <mobile>');
  if (explanation.action === 'retry') lines.push('Run: vidops retry <fileId>');
  return lines;
}

/**
 * One line of `vidops audit tail`: seq, time, kind, then the same sentence the audit channel
 * shows (plain here, mobile numbers masked, control characters replaced) and the short hash.
 */
export function auditTailLine(event: AuditEvent): string {
  return [
    `#${event.seq}`,
    event.at,
    event.type.padEnd(9),
    auditTerminalLine(event),
    `hash ${shortHash(event.hash)}`,
  ].join('  ');
}

/** One line of the JSONL export: the whole event, canonical JSON, numbers in full. */
export function auditJsonLine(event: AuditEvent): string {
  return `${canonicalJson(event)}\n`;
}

/** Columns of the CSV export; JSON-valued columns hold canonical JSON. */
export const AUDIT_CSV_COLUMNS = [
  'seq',
  'id',
  'at',
  'type',
  'actor_id',
  'actor_name',
  'operation',
  'target',
  'request_id',
  'params',
  'outcome',
  'error',
  'prev_hash',
  'hash',
] as const;

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A spreadsheet reads a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return as a
 * formula (CSV injection): such a cell is written with a `'` in front. A cell that already begins
 * with `'` gets one too, so the rule can be undone: drop one leading `'` to get the value stored.
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r']/.test(value) ? `'${value}` : value;
}

/** The header row of the CSV export. */
export function auditCsvHeader(): string {
  return `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;
}

/** One row of the CSV export, numbers in full. */
export function auditCsvLine(event: AuditEvent): string {
  const cells: Record<(typeof AUDIT_CSV_COLUMNS)[number], string> = {
    seq: String(event.seq),
    id: event.id,
    at: event.at,
    type: event.type,
    actor_id: event.actor.id,
    actor_name: event.actor.name,
    operation: event.operation,
    target: event.target,
    request_id: event.requestId ?? '',
    params: canonicalJson(event.params),
    outcome: canonicalJson(event.outcome),
    error: event.error === null ? '' : canonicalJson(event.error),
    prev_hash: event.prevHash,
    hash: event.hash,
  };
  return `${AUDIT_CSV_COLUMNS.map((c) => csvField(neutralizeFormula(cells[c]))).join(',')}\r\n`;
}
