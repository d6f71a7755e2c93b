import type { ProtectionConfig } from '../client/types.js';
import { isPastExpiry, stateFacts } from '../core/approvals.js';
import { shortHash } from '../core/audit-chain.js';
import { oneLine, stripBidiControls } from '../core/bidi.js';
import {
  type ChangeOperation,
  mapTargetText,
  OPERATION_SPECS,
  type Preview,
  targetOf,
} from '../core/catalog.js';
import { wasNotSent } from '../core/errors.js';
import { canonicalJson, type JsonValue } from '../core/json.js';
import { maskMobile, maskMobilesInText } from '../core/mask.js';
import type { AuditEvent, OperationRequest, RecordedError } from '../core/model.js';
import type { PlayerErrorExplanation } from '../core/player-errors.js';
import type { Said } from '../core/said.js';
import { PROTECTION_FIELDS, readProtectionField } from '../core/validate/protection.js';
import { dateTime, ltr, num } from '../i18n/format.js';
import { ENGLISH, type Lang, langFor } from '../i18n/lang.js';
import { stateEnglish } from '../i18n/messages/errors-en.js';
import { sayWith } from '../i18n/said.js';
import type { spec as viewerUnblock } from '../operations/viewer-unblock/spec.js';
import { type CliPreview, VIEWS } from '../operations/views.js';
import { stateWord } from '../views/approval.js';
import { auditTerminalLine } from '../views/audit-post.js';
import { recordedWords } from '../views/errors.js';
import { explanationText } from '../views/player-error-text.js';
import { protectionLabel, protectionValueText } from '../views/protection-text.js';
import { extendedUntilLine, timeBoxLines } from '../views/put-back.js';
import { CLI_COMMANDS, type CliCommand } from './args.js';

/**
 * Outside text (a reason, a title, a name) for the terminal: without bidi controls (they could
 * reorder the ID or the hash), on one line, with no control character that could clear or colour
 * the reader's screen.
 */
function shown(text: string): string {
  return oneLine(stripBidiControls(text));
}

function shownOrNull(text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : shown(text);
}

/**
 * What the CLI prints: pure functions from values to lines. Everything meant for a terminal
 * masks mobile numbers; only the compliance export (`auditJsonLine`, `auditCsvLine`) keeps them.
 * Terminals honour bidi controls as Slack does: text from outside (titles, reasons, names, the
 * service's answers) is printed without them (`shown`), so it cannot reorder the ID or the hash
 * on its line; the exports keep the text as stored.
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
export function generalHelp(lang: Lang = ENGLISH): string {
  const t = lang.t.cli;
  const lines = [t.cliHelpIntro, '', t.cliHelpUsage, '', t.cliHelpCommands];
  for (const c of CLI_COMMANDS) {
    if (c.alias) continue;
    lines.push(`  ${c.usage}`, `      ${summaryOf(c, lang)}`);
  }
  lines.push(
    '',
    t.cliHelpFlags,
    `  --as U…          ${t.cliFlagAs}`,
    `  --as-name NAME   ${t.cliFlagAsName}`,
    `  --reason "…"     ${t.cliFlagReason}`,
    `  --lang fa|en     ${t.cliFlagLang}`,
    `  -h, --help       ${t.cliFlagHelp}`,
    '',
    t.cliHelpConfiguration(CLI_VARIABLES.join(', ')),
    t.cliHelpStoreOnly,
    t.cliHelpExportWarning,
    '',
    t.cliHelpExitCodes,
  );
  return `${lines.join('\n')}\n`;
}

/** A command's summary in the language: its spec's Persian for a command of the catalog. */
const summaryOf = (c: CliCommand, lang: Lang): string =>
  lang.t.cli.cliSummary(c.id, c.summary, c.spec?.fa.summary ?? null);

/** `vidops <command> --help`. */
export function commandHelp(command: CliCommand, lang: Lang = ENGLISH): string {
  const lines = [lang.t.cli.cliUsage(command.usage), '', summaryOf(command, lang)];
  if (command.details.length > 0) lines.push('', ...command.details);
  return `${lines.join('\n')}\n`;
}

/** What a usage error prints on stderr: the problem, then the usage line(s) to follow. */
export function usageError(message: string, command: CliCommand | null, lang: Lang = ENGLISH): string {
  const t = lang.t.cli;
  const usage =
    command === null
      ? t.cliUsageSeeHelp
      : `${t.cliUsage(command.usage)}\n${t.cliUsageCommandHelp(command.id)}`;
  return `vidops: ${message}\n${usage}\n`;
}

/** Compact JSON, as the upstream answered. */
export function compactJson(value: JsonValue): string {
  return JSON.stringify(value);
}

/** The preview of a request or a prepared change; a stored one this build cannot read says so. */
export function previewLines<O extends ChangeOperation>(
  subject: {
    operation: O;
    preview: Preview<O> | null;
  },
  lang: Lang = ENGLISH,
): string[] {
  if (subject.preview === null) return [`  ${lang.t.cli.cliPreviewUnavailable}`];
  const view: CliPreview<O> = VIEWS[subject.operation].cli;
  return view(subject.preview, lang);
}

/**
 * The headline of an unblock that was sent, true to what the look-up before it said: only a
 * viewer known to be blocked "can watch again".
 */
export function unblockedLine(
  preview: Preview<typeof viewerUnblock.name> | null,
  lang: Lang = ENGLISH,
): string {
  const t = lang.t.cli;
  const number = preview === null ? '?' : maskMobile(preview.mobileNumber);
  if (preview?.blocked === true) return t.cliUnblocked(number);
  if (preview?.blocked === false) return t.cliWasNotBlocked(number);
  return t.cliUnblockUnknown(number);
}

/** A moment as the CLI prints it: ISO-8601 UTC in English (as the log keeps it), Solar Hijri in Persian. */
export function cliTime(lang: Lang, iso: string): string {
  return lang.locale === 'en' ? iso : dateTime(lang, iso);
}

/**
 * The language Slack's worded times are read in on the terminal: in English in UTC, as `cliTime`
 * prints every other time (`08:00 UTC`); in Persian in the display time zone, as Slack shows them.
 */
function cliClockLang(lang: Lang): Lang {
  return lang.locale === 'en' ? langFor('en', 'UTC') : lang;
}

/**
 * Where a time-boxed change stands, for the terminal: the lines Slack shows (src/views/put-back.ts),
 * without Slack's markup; times as src/views/time-box.ts words them, as of `now`, in UTC in English.
 */
export function timeBoxReport(request: OperationRequest, lang: Lang, now: Date): string[] {
  return [`${request.id}:`, ...windowLines(request, lang, now).map((line) => `  ${line}`)];
}

/**
 * A time-boxed change's window for the terminal, as Slack words it: before it applies, the window
 * as asked ("Time-boxed: for 2 hours (until about 10:00 UTC if applied now)."); once applied, when
 * it goes back. None for a change without a window.
 */
export function windowLines(request: OperationRequest, lang: Lang, now: Date): string[] {
  const extended = extendedUntilLine(request, now, cliClockLang(lang));
  return extended === null
    ? timeBoxLines(request, now, cliClockLang(lang)).map(unmarked)
    : [unmarked(extended)];
}

/** A line of Slack's without its markup and emoji codes, which mean nothing in a terminal. */
function unmarked(line: string): string {
  return line.replace(/:[a-z0-9_+-]+:\s*/g, '').replace(/[*`]/g, '');
}

/**
 * What a requester reads after asking for a change that needs approval: the ID, how many
 * approvals are missing, and the commands that move it on (`vidops approve` only where the
 * policy lets the CLI approve).
 */
export function pendingLines(
  request: OperationRequest,
  why: Said | null,
  options: { cliApproves: boolean } = { cliApproves: false },
  lang: Lang = ENGLISH,
): string[] {
  const t = lang.t.cli;
  const left = Math.max(0, request.quorum - request.approvals.length);
  const where = options.cliApproves ? t.cliApproveWhereCli(request.id) : t.cliApproveInSlack;
  const cancel = `vidops cancel ${request.id}${request.requester.id.startsWith('cli:') ? '' : ` --as ${request.requester.id}`}`;
  return [
    t.cliPending(
      request.id,
      left,
      num(lang, left),
      why === null ? null : shown(sayWith(lang.t.errors, why)),
      where,
    ),
    t.cliExpiresCancel(request.expiresAt === null ? null : cliTime(lang, request.expiresAt), cancel),
  ];
}

/**
 * A request's target for the terminal: in English the text stored with it, in Persian rendered
 * from its typed target (from its parameters); `clean` applies to the text either holds.
 */
export function cliTargetOf(
  request: Pick<OperationRequest, 'operation' | 'params' | 'target'>,
  lang: Lang,
  clean: (text: string) => string,
): string {
  const typed = mapTargetText(targetOf(request.operation, request.params, request.target), clean);
  return lang.t.cli.cliTarget(typed, clean(request.target));
}

/**
 * A recorded error as the terminal reads it: vidops' own sentence in the reader's language, its
 * IDs without Slack's code marks; else the error's English words.
 */
export function errorWords(error: RecordedError, lang: Lang): string {
  return (recordedWords(error, lang) ?? error.message).replace(/`/g, '');
}

/** One line per request for `vidops requests`: ID, operation, target, who, where it stands. */
export function requestLine(request: OperationRequest, now: Date, lang: Lang = ENGLISH): string {
  const t = lang.t.cli;
  const title = t.cliOperationTitle(request.operation, OPERATION_SPECS[request.operation].title);
  const who =
    request.requester.name === request.requester.id
      ? ltr(lang, shown(request.requester.id))
      : `${shown(request.requester.name)} (${ltr(lang, shown(request.requester.id))})`;
  const expired = request.state === 'pending' && isPastExpiry(request, now);
  // Not sent (vidops stopped it before sending): why, in the reader's language.
  const notSent =
    request.state === 'failed' && request.error !== null && wasNotSent(request.error)
      ? errorWords(request.error, lang)
      : null;
  const state = expired
    ? t.cliExpiredUnapproved(request.expiresAt === null ? '' : cliTime(lang, request.expiresAt))
    : notSent !== null
      ? t.cliNotSentState(notSent)
      : // The core's sentence is English; Persian readers get the state's name.
        lang.locale === 'en'
        ? stateEnglish(stateFacts(request, now))
        : stateWord(request.state, lang);
  return maskMobilesInText(
    t.cliRequestLine({
      id: request.id,
      title,
      target: cliTargetOf(request, lang, shown),
      who,
      at: cliTime(lang, request.createdAt),
      state: request.state,
      // A time-boxed change also says where its window stands (goes back at…, retrying…).
      stateText: [shown(state), ...windowLines(request, lang, now)].join(' · '),
      reason: shownOrNull(request.reason),
    }),
  );
}

/** The whitelist, one address a line. */
export function whitelistLines(ips: readonly string[], lang: Lang = ENGLISH): string[] {
  const t = lang.t.cli;
  if (ips.length === 0) return [t.cliWhitelistEmpty];
  return [t.cliWhitelistHolds(ips.length, num(lang, ips.length)), ...ips.map((ip) => `  ${ip}`)];
}

/** Every protection setting with its label and value, in the order of the settings modal. */
export function protectionLines(config: ProtectionConfig, lang: Lang = ENGLISH): string[] {
  const width = Math.max(...PROTECTION_FIELDS.map((f) => f.field.length));
  return PROTECTION_FIELDS.map((f) => {
    const value = protectionValueText(f.field, readProtectionField(config, f.field), lang);
    return `${f.field.padEnd(width)}  ${value.padEnd(22)}  ${protectionLabel(f, lang)}`;
  });
}

/** `vidops explain 9910`. */
export function explainLines(explanation: PlayerErrorExplanation, lang: Lang = ENGLISH): string[] {
  const t = lang.t.cli;
  const said = explanationText(explanation, lang);
  const lines = [t.cliPlayerError(explanation.code, said.meaning), t.cliFix(said.fix)];
  if (explanation.action === 'unblock') lines.push(t.cliRun('vidops unblock <mobile>'));
  if (explanation.action === 'retry') lines.push(t.cliRun('vidops retry <fileId>'));
  return lines;
}

/**
 * One line of `vidops audit tail`: seq, time, kind, then the same sentence the audit channel
 * shows (plain here, mobile numbers masked, control characters replaced) and the short hash.
 */
export function auditTailLine(event: AuditEvent, lang: Lang = ENGLISH): string {
  return [
    `#${event.seq}`,
    cliTime(lang, event.at),
    lang.locale === 'en' ? shown(event.type).padEnd(9) : ltr(lang, shown(event.type)),
    auditTerminalLine(event, lang),
    lang.t.cli.cliHash(shortHash(event.hash)),
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
  // Last, so that scripts reading the columns before it by position keep working.
  'actor_via',
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
    // Where the actor acted from when not Slack: the CLI and its OS user (empty for Slack).
    actor_via: event.actor.via === undefined ? '' : canonicalJson(event.actor.via),
  };
  return `${AUDIT_CSV_COLUMNS.map((c) => csvField(neutralizeFormula(cells[c]))).join(',')}\r\n`;
}
