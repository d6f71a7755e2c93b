import type { InputBlock, KnownBlock, ModalView, SectionBlock } from '@slack/types';
import type { ProtectionConfig } from '../client/types.js';
import type { CommandHelp } from '../core/commands-help.js';
import type { JsonValue } from '../core/json.js';
import { maskMobile, maskMobilesInText } from '../core/mask.js';
import { escapeMrkdwn } from '../core/mrkdwn.js';
import type { PlayerErrorEntry, PlayerErrorExplanation } from '../core/player-errors.js';
import { normalizeDigits } from '../core/validate/digits.js';
import { parseMobile } from '../core/validate/phone.js';
import {
  formatProtectionValue,
  PROTECTION_FIELDS,
  PROTECTION_GROUP_TITLES,
  readProtectionField,
} from '../core/validate/protection.js';
import {
  actions,
  button,
  literalCode as code,
  context,
  header,
  mrkdwn,
  packSections,
  type SlackMessage,
  section,
} from './blocks.js';
import { scrubForSlack } from './errors.js';
import { ACTIONS, BLOCKS, CALLBACKS, INPUT_ACTION } from './ids.js';
import { BLOCK_KIT_LIMITS, truncate } from './limits.js';
import { modal } from './modals/common.js';

/**
 * Block Kit for the agent's everyday commands: help, unblock, retry, whitelist, protect show,
 * explain, and the two small modals that `explain` opens. Pure functions of their input;
 * every message has a `text` fallback; free text from the service is escaped and masked.
 * @see docs/architecture.md, "Slash command grammar"; docs/architecture.md, "Views are data"
 */

// Code spans here show text as written (usage lines, examples with sample numbers, IDs, addresses,
// answers scrubbed already): `literalCode`, not the masking `code` of the request views.

/** A message for `respond()`, `chat.postMessage` or `chat.postEphemeral`. */
export type Message = SlackMessage;

/** Longest upstream answer shown inline; the whole answer is in the audit log. */
const ANSWER_MAX = 300;

/** The service's answer, one line, masked, secrets removed, cut to a readable length. */
export function compactAnswer(answer: JsonValue, secrets: readonly string[] = []): string {
  const json = typeof answer === 'string' ? answer : JSON.stringify(answer);
  return truncate(scrubForSlack(json ?? 'null', secrets), ANSWER_MAX);
}

/** `/vidops` or `/vidops help`: the commands this person may run, each with an example. */
export function helpMessage(entries: readonly CommandHelp[], options: { isLead: boolean }): Message {
  const lines = entries.map(
    (e) => `*${code(e.usage)}*\n${escapeMrkdwn(e.summary)}  _e.g._ ${code(e.example)}`,
  );
  const note = options.isLead
    ? 'You are a lead: you approve other people’s requests in the approval channel.'
    : 'Changes marked “needs a lead’s approval” are posted for a team lead to approve.';
  return {
    text: `vidops: ${entries.length} commands you can run. ${escapeMrkdwn(entries.map((e) => e.usage).join(', '))}`,
    blocks: [header('vidops: what you can run'), ...packSections(lines), context([note])],
  };
}

/** Someone outside `AGENTS`: polite, and clear that nothing was done. */
export function notAllowedMessage(): Message {
  const text =
    'Sorry, vidops is only for the support team. Nothing was done. If you need it, ask a team lead to add you to AGENTS.';
  return { text, blocks: [section(`:lock: ${escapeMrkdwn(text)}`)] };
}

/** The queue of work is full: said in the acknowledgement, before anything is done. */
export function busyMessage(): Message {
  const text = 'vidops is very busy right now and did not run this. Nothing was done; try again in a minute.';
  return { text, blocks: [section(`:hourglass: ${escapeMrkdwn(text)}`)] };
}

/** The command could not be read: what was wrong, and the usage line to follow. */
export function parseErrorMessage(message: string, usage: string | null): Message {
  const lines = [`:warning: ${escapeMrkdwn(message)}`];
  if (usage !== null) lines.push(`Usage: ${code(usage)}`);
  const said = escapeMrkdwn(message);
  return {
    text: usage === null ? said : `${said} Usage: ${escapeMrkdwn(usage)}`,
    blocks: [section(lines.join('\n'))],
  };
}

/** A failure, or a refusal, said in one line (the text comes from views/errors). */
export function problemMessage(text: string, icon = ':x:'): Message {
  return { text: escapeMrkdwn(text), blocks: [section(`${icon} ${escapeMrkdwn(text)}`)] };
}

/** How a change ended, as the agent is told. */
export type ChangeOutcome =
  | { kind: 'succeeded'; requestId: string; answer: JsonValue }
  | { kind: 'failed'; requestId: string; error: string }
  | { kind: 'pending'; requestId: string; why: string; approvalChannel: string }
  | { kind: 'denied'; reason: string }
  /** Any other state the request ended in (e.g. `unknown` after a crash). */
  | { kind: 'other'; requestId: string; state: string };

function outcomeDetails(
  outcome: ChangeOutcome,
  before: string | null,
  warnings: readonly string[],
  secrets: readonly string[],
): string[] {
  const lines: string[] = [];
  if (before !== null) lines.push(before);
  if (outcome.kind === 'succeeded') {
    lines.push(`Service answered: ${code(compactAnswer(outcome.answer, secrets))}`);
  }
  if ('requestId' in outcome) lines.push(`Request ${code(outcome.requestId)}`);
  for (const warning of warnings) lines.push(`:warning: ${escapeMrkdwn(maskMobilesInText(warning))}`);
  return lines;
}

function why(text: string): string {
  return text === 'policy' ? 'the policy asks for it' : text;
}

/** What the viewer look-up said before the unblock: `attacker · blocked`. */
export function viewerStatus(viewer: { actionType: string | null; blocked: boolean | null }): string | null {
  const parts: string[] = [];
  if (viewer.actionType !== null) parts.push(viewer.actionType);
  if (viewer.blocked !== null) parts.push(viewer.blocked ? 'blocked' : 'not blocked');
  return parts.length === 0 ? null : `Before: ${escapeMrkdwn(parts.join(' · '))}`;
}

/**
 * What a sent unblock did, as far as the look-up before it knows: `blocked` true, false, or null
 * when the look-up could not be done or did not say.
 */
export function unblockedSentence(blocked: boolean | null): (who: string) => string {
  if (blocked === true) return (who) => `Viewer ${who} is unblocked; they can watch again.`;
  if (blocked === false) return (who) => `Viewer ${who} was not blocked; the unblock was sent anyway.`;
  return (who) => `The unblock of viewer ${who} was sent; whether they were blocked is unknown.`;
}

/**
 * The answer to `unblock <mobile>`: the masked number, the outcome, the service's answer and the
 * request ID; past the rate limit, where the request waits for approval.
 */
export function unblockMessage(input: {
  masked: string;
  viewer: { actionType: string | null; blocked: boolean | null };
  warnings: readonly string[];
  outcome: ChangeOutcome;
  secrets?: readonly string[];
}): Message {
  const { masked, outcome } = input;
  const who = code(masked);
  let headline: string;
  let text: string;
  switch (outcome.kind) {
    case 'succeeded': {
      // True to what the look-up said: only a viewer known to be blocked "can watch again".
      const said = unblockedSentence(input.viewer.blocked);
      headline = `:white_check_mark: ${said(who)}`;
      text = `${said(masked)} Request ${outcome.requestId}.`;
      break;
    }
    case 'failed':
      headline = `:x: Viewer ${who} was not unblocked. ${escapeMrkdwn(outcome.error)}`;
      text = `Viewer ${masked} was not unblocked: ${escapeMrkdwn(outcome.error)}`;
      break;
    case 'pending':
      headline = `:hourglass_flowing_sand: Unblocking ${who} needs approval (${escapeMrkdwn(why(outcome.why))}): request ${code(outcome.requestId)} posted to <#${outcome.approvalChannel}>.`;
      text = `Unblocking ${masked} needs approval, request ${outcome.requestId} posted to the approval channel.`;
      break;
    case 'denied':
      headline = `:no_entry: Viewer ${who} was not unblocked: ${escapeMrkdwn(outcome.reason)}`;
      text = `Viewer ${masked} was not unblocked: ${escapeMrkdwn(outcome.reason)}`;
      break;
    case 'other':
      headline = `:grey_question: Unblocking ${who} ended as “${escapeMrkdwn(outcome.state)}”; check the viewer before trying again.`;
      text = `Unblocking ${masked} ended as ${escapeMrkdwn(outcome.state)} (request ${outcome.requestId}).`;
      break;
  }
  const details = outcomeDetails(outcome, viewerStatus(input.viewer), input.warnings, input.secrets ?? []);
  return {
    text: maskMobilesInText(text),
    blocks: [section(maskMobilesInText(headline)), ...(details.length > 0 ? [context(details)] : [])],
  };
}

/** The file as `retry` names it: title when known, and the ID (never cut). */
function fileName(file: { fileId: string; title: string | null }): string {
  return file.title === null
    ? `file ${code(file.fileId)}`
    : `*${escapeMrkdwn(file.title)}* (${code(file.fileId)})`;
}

/** The answer to `retry <fileId>`: the file's title and status, and what became of the retry. */
export function retryMessage(input: {
  fileId: string;
  title: string | null;
  status: string | null;
  warnings: readonly string[];
  outcome: ChangeOutcome;
  secrets?: readonly string[];
}): Message {
  const { outcome } = input;
  const name = fileName(input);
  // The fallback `text` is mrkdwn too: the title and the typed ID are escaped there as well.
  const plainName = escapeMrkdwn(
    input.title === null ? `file ${input.fileId}` : `${input.title} (${input.fileId})`,
  );
  let headline: string;
  let text: string;
  switch (outcome.kind) {
    case 'succeeded':
      headline = `:arrows_counterclockwise: Conversion of ${name} is queued again.`;
      text = `Conversion of ${plainName} is queued again (request ${outcome.requestId}).`;
      break;
    case 'failed':
      headline = `:x: Conversion of ${name} was not retried. ${escapeMrkdwn(outcome.error)}`;
      text = `Conversion of ${plainName} was not retried: ${escapeMrkdwn(outcome.error)}`;
      break;
    case 'pending':
      headline = `:hourglass_flowing_sand: Retrying ${name} needs approval (${escapeMrkdwn(why(outcome.why))}): request ${code(outcome.requestId)} posted to <#${outcome.approvalChannel}>.`;
      text = `Retrying ${plainName} needs approval, request ${outcome.requestId} posted to the approval channel.`;
      break;
    case 'denied':
      headline = `:no_entry: Conversion of ${name} was not retried: ${escapeMrkdwn(outcome.reason)}`;
      text = `Conversion of ${plainName} was not retried: ${escapeMrkdwn(outcome.reason)}`;
      break;
    case 'other':
      headline = `:grey_question: Retrying ${name} ended as “${escapeMrkdwn(outcome.state)}”; look at the file before trying again.`;
      text = `Retrying ${plainName} ended as ${escapeMrkdwn(outcome.state)} (request ${outcome.requestId}).`;
      break;
  }
  const before = input.status === null ? null : `Conversion status before: ${escapeMrkdwn(input.status)}`;
  const details = outcomeDetails(outcome, before, input.warnings, input.secrets ?? []);
  return {
    text: maskMobilesInText(truncate(text, 1000)),
    blocks: [section(maskMobilesInText(headline)), ...(details.length > 0 ? [context(details)] : [])],
  };
}

/** Addresses listed in one message; a longer whitelist is summarised (never an address cut). */
export const WHITELIST_SHOWN = 150;

/** The whitelist with Add and Remove buttons (the change module handles the clicks). */
export function whitelistMessage(ips: readonly string[]): Message {
  const count = ips.length === 1 ? '1 address' : `${ips.length} addresses`;
  const shown = ips.slice(0, WHITELIST_SHOWN);
  const lines =
    ips.length === 0
      ? ['The whitelist is empty: while IP validation is on, no server can create playback links.']
      : shown.map((ip) => `• ${code(ip)}`);
  if (ips.length > shown.length) lines.push(`… and ${ips.length - shown.length} more.`);
  const buttons = actions(
    [
      button('Add addresses…', ACTIONS.whitelistAdd, 'add', 'primary'),
      ...(ips.length > 0 ? [button('Remove addresses…', ACTIONS.whitelistRemove, 'remove')] : []),
    ],
    'whitelist_actions',
  );
  return {
    text: `IP whitelist: ${count}.${shown.length > 0 ? ` ${escapeMrkdwn(shown.join(', '))}` : ''}${ips.length > shown.length ? ' …' : ''}`,
    blocks: [
      section(`*IP whitelist* · ${count}`),
      ...packSections(lines),
      buttons,
      context(['Adding or removing addresses needs a lead’s approval.']),
    ],
  };
}

/** Top-level keys the typed settings cover; anything else the service sends is shown apart. */
const KNOWN_KEYS = new Set(PROTECTION_FIELDS.map((f) => f.field.split('.')[0] ?? f.field));
/** Bookkeeping fields of the service, not settings. */
const NOT_SETTINGS = new Set(['_id', 'id', '__v', 'createdAt', 'updatedAt', 'userId', 'ownerId']);

/**
 * `protect show`: every setting grouped as the field metadata says, colours by name, booleans
 * as on/off; fields the service sent that vidops does not know are listed at the end as sent.
 */
export function protectionMessage(config: ProtectionConfig, raw: Record<string, JsonValue> = {}): Message {
  const blocks: KnownBlock[] = [section('*Protection settings* (storage-wide)')];
  const groups = [...new Set(PROTECTION_FIELDS.map((f) => f.group))];
  const textLines: string[] = ['Protection settings:'];
  for (const group of groups) {
    const fields = PROTECTION_FIELDS.filter((f) => f.group === group);
    const rows = fields.map((f) => {
      const value = formatProtectionValue(f.field, readProtectionField(config, f.field));
      return { label: f.label, field: f.field, value };
    });
    textLines.push(
      `${PROTECTION_GROUP_TITLES[group]}: ${rows.map((r) => `${r.label} ${escapeMrkdwn(r.value)}`).join(', ')}`,
    );
    for (let i = 0; i < rows.length; i += BLOCK_KIT_LIMITS.sectionFields) {
      const chunk = rows.slice(i, i + BLOCK_KIT_LIMITS.sectionFields);
      blocks.push({
        type: 'section',
        ...(i === 0 ? { text: mrkdwn(`*${PROTECTION_GROUP_TITLES[group]}*`) } : {}),
        fields: chunk.map((r) =>
          mrkdwn(truncate(`${escapeMrkdwn(r.label)} (${code(r.field)})\n*${escapeMrkdwn(r.value)}*`, 2000)),
        ),
      } satisfies SectionBlock);
    }
  }
  const extras = Object.entries(raw).filter(([key]) => !KNOWN_KEYS.has(key) && !NOT_SETTINGS.has(key));
  if (extras.length > 0) {
    const shown = extras.map(([key, value]) => `${code(key)} ${code(compactAnswer(value))}`);
    blocks.push(context([truncate(`Also sent by the service: ${shown.join(' · ')}`, 2000)]));
  }
  blocks.push(
    context(['Change them with `/vidops protect` or `/vidops protect set field=value` (a lead approves).']),
  );
  return { text: truncate(textLines.join('\n'), 3000), blocks };
}

/** `explain <code>`: meaning and fix, and a button that starts the fix when there is one. */
export function explainMessage(explanation: PlayerErrorExplanation): Message {
  const blocks: KnownBlock[] = [
    section(
      `*Player error ${explanation.code}*: ${escapeMrkdwn(explanation.meaning)}\n*Fix:* ${escapeMrkdwn(explanation.fix)}`,
    ),
  ];
  if (explanation.action === 'unblock') {
    blocks.push(
      actions(
        [button('Unblock a viewer…', ACTIONS.explainUnblock, explanation.code, 'primary')],
        'explain_actions',
      ),
    );
  } else if (explanation.action === 'retry') {
    blocks.push(
      actions(
        [button('Retry a conversion…', ACTIONS.explainRetry, explanation.code, 'primary')],
        'explain_actions',
      ),
    );
  }
  return {
    text: escapeMrkdwn(`Player error ${explanation.code}: ${explanation.meaning} Fix: ${explanation.fix}`),
    blocks,
  };
}

/** A code that is not in the table: say so, and list the known ones briefly. */
export function unknownCodeMessage(codeText: string, known: readonly PlayerErrorEntry[]): Message {
  const list = known.map(
    (e) => `${code(e.codes)} ${escapeMrkdwn(truncate(e.meaning.replace(/\.$/, ''), 48))}`,
  );
  return {
    text: `${escapeMrkdwn(codeText)} is not a player error code vidops knows. Known codes: ${known.map((e) => e.codes).join(', ')}.`,
    blocks: [
      section(`:grey_question: *${escapeMrkdwn(codeText)}* is not a player error code vidops knows.`),
      section(`Known codes:\n${list.join('\n')}`),
    ],
  };
}

// A run of digits with single spaces or dashes between groups, as numbers are written.
const DIGIT_RUN = /\+?\d(?:[ -]?\d){8,}/g;

/** Masks every valid mobile number in a run of space-separated digit groups, longest first. */
function maskRun(run: string, region: string): string {
  const groups = run.split(' ');
  const out: string[] = [];
  let i = 0;
  while (i < groups.length) {
    let end = groups.length;
    for (; end > i; end -= 1) {
      const candidate = groups.slice(i, end).join(' ');
      // Any country's mobile: a number refused for its country is still a real number.
      if (candidate.replace(/\D/g, '').length >= 9 && parseMobile(candidate, region, { regions: 'any' }).ok)
        break;
    }
    if (end > i) {
      out.push(maskMobile(groups.slice(i, end).join(' ')));
      i = end;
    } else {
      out.push(groups[i] ?? '');
      i += 1;
    }
  }
  return out.join(' ');
}

/**
 * Masks the valid mobile numbers inside a message about input that was refused, and leaves the
 * rest as typed: the person must see what was read, but a real number never goes to Slack whole.
 */
export function maskValidMobiles(text: string, region: string): string {
  return normalizeDigits(text).replace(DIGIT_RUN, (run) => maskRun(run, region));
}

/** The small modal `explain 9910` opens: the viewer's mobile number. */
export function unblockModal(privateMetadata: string): ModalView {
  const input: InputBlock = {
    type: 'input',
    block_id: BLOCKS.mobile,
    label: { type: 'plain_text', text: 'Viewer’s mobile number' },
    hint: {
      type: 'plain_text',
      text: 'As the viewer gave it: 0912 345 6789, +98 912 345 6789 or with Persian digits.',
    },
    element: {
      type: 'plain_text_input',
      action_id: INPUT_ACTION,
      placeholder: { type: 'plain_text', text: '0912 345 6789' },
      max_length: 40,
    },
  };
  return modal({
    callbackId: CALLBACKS.unblock,
    title: 'Unblock viewer',
    submit: 'Unblock',
    privateMetadata,
    blocks: [
      section('The viewer sees player error *9910*: they were blocked for suspicious behaviour.'),
      input,
    ],
  });
}

/** The small modal `explain 9101`/`9103` opens: the file whose conversion failed. */
export function retryModal(privateMetadata: string): ModalView {
  const input: InputBlock = {
    type: 'input',
    block_id: BLOCKS.fileId,
    label: { type: 'plain_text', text: 'File ID' },
    hint: { type: 'plain_text', text: 'The 24-character ID of the file, e.g. 671018d0403eba579a6f90e2.' },
    element: {
      type: 'plain_text_input',
      action_id: INPUT_ACTION,
      placeholder: { type: 'plain_text', text: '671018d0403eba579a6f90e2' },
      max_length: 100,
    },
  };
  return modal({
    callbackId: CALLBACKS.retry,
    title: 'Retry conversion',
    submit: 'Retry',
    privateMetadata,
    blocks: [
      section('Queue the file for conversion again. Only a file whose conversion *failed* is retried.'),
      input,
    ],
  });
}
