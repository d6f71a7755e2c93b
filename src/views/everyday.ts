import type { KnownBlock, ModalView, SectionBlock } from '@slack/types';
import type { ProtectionConfig } from '../client/types.js';
import { stripBidiControls } from '../core/bidi.js';
import type { CommandHelp } from '../core/commands-help.js';
import type { JsonValue } from '../core/json.js';
import { maskMobile, maskMobilesInText } from '../core/mask.js';
import { escapeMrkdwn, escapeOutside, escapeWorded } from '../core/mrkdwn.js';
import type { PlayerErrorEntry, PlayerErrorExplanation } from '../core/player-errors.js';
import type { Said } from '../core/said.js';
import { normalizeDigits } from '../core/validate/digits.js';
import { MAX_MOBILE_DIGITS, parseMobile } from '../core/validate/phone.js';
import { PROTECTION_FIELDS, readProtectionField } from '../core/validate/protection.js';
import { type Lang, ltr, num } from '../i18n/index.js';
import { english } from '../i18n/said.js';
import { stateWordForText } from './approval.js';
import {
  actions,
  button,
  literalCode as code,
  context,
  header,
  isolateOutside,
  mrkdwn,
  packSections,
  type SlackMessage,
  section,
} from './blocks.js';
import { sayIn, scrubForSlack } from './errors.js';
import { ACTIONS, BLOCKS, CALLBACKS } from './ids.js';
import { BLOCK_KIT_LIMITS, truncate } from './limits.js';
import { modal, textInput } from './modals/common.js';
import { explanationText, playerErrorText } from './player-error-text.js';
import { protectionGroupTitle, protectionLabel, protectionValueText } from './protection-text.js';

/**
 * Block Kit for the agent's everyday commands: help, unblock, retry, whitelist, protect show,
 * explain, and the two small modals that `explain` opens. Pure functions of their input;
 * every message has a `text` fallback; free text from the service is escaped and masked. Each
 * takes the reader's `Lang`; IDs, numbers and code spans stay Latin, isolated in Persian.
 * @see docs/architecture.md, "Slash command grammar"; docs/architecture.md, "Views are data"
 * @see docs/architecture.md, "Languages"
 */

// Code spans here show text as written (usage lines, examples with sample numbers, IDs, addresses,
// answers scrubbed already): `literalCode`, not the masking `code` of the request views.

/** A message for `respond()`, `chat.postMessage` or `chat.postEphemeral`. */
export type Message = SlackMessage;

/** Longest upstream answer shown inline; the whole answer is in the audit log. */
const ANSWER_MAX = 300;
/**
 * What of an answer is scrubbed before it is cut to ANSWER_MAX: a 1 MiB answer scrubbed whole held
 * the event loop for half a second. Scrubbing shortens a number or a secret to no less than a
 * sixtieth of it, so what is cut off here (a number or a key cut in two, which the scrub would
 * not recognise) stays beyond the first ANSWER_MAX characters of what is shown.
 */
const ANSWER_SCRUBBED = 64 * ANSWER_MAX;

/** The service's answer, one line, masked, secrets removed, cut to a readable length. */
export function compactAnswer(answer: JsonValue, secrets: readonly string[] = []): string {
  const json = (typeof answer === 'string' ? answer : JSON.stringify(answer)) ?? 'null';
  return truncate(scrubForSlack(json.slice(0, ANSWER_SCRUBBED), secrets), ANSWER_MAX);
}

/** `/vidops` or `/vidops help`: the commands this person may run, each with an example. */
export function helpMessage(
  entries: readonly CommandHelp[],
  options: { isLead: boolean },
  lang: Lang,
): Message {
  const t = lang.t.everyday;
  const lines = entries.map((e) =>
    t.helpEntry(
      ltr(lang, `*${code(e.usage)}*`),
      escapeMrkdwn(lang.locale === 'fa' ? e.fa.summary : e.summary),
      ltr(lang, code(e.example)),
    ),
  );
  const note = options.isLead ? t.helpLeadNote : t.helpAgentNote;
  const usages = entries
    .map((e) => ltr(lang, escapeMrkdwn(e.usage)))
    .join(lang.locale === 'fa' ? '، ' : ', ');
  return {
    text: t.helpText(num(lang, entries.length), usages),
    blocks: [
      header(t.helpHeader),
      ...packSections(lines),
      // Many numbers at once: the form to paste a list into (docs/commands.md).
      actions([button(lang.t.batch.batchManyOpen, ACTIONS.unblockManyOpen, 'unblock-many')]),
      context([note]),
    ],
  };
}

/** Someone outside `AGENTS`: polite, and clear that nothing was done. */
export function notAllowedMessage(lang: Lang): Message {
  const text = lang.t.everyday.notAllowed;
  return { text, blocks: [section(`:lock: ${escapeMrkdwn(text)}`)] };
}

/** The queue of work is full: said in the acknowledgement, before anything is done. */
export function busyMessage(lang: Lang): Message {
  const text = lang.t.everyday.busy;
  return { text, blocks: [section(`:hourglass: ${escapeMrkdwn(text)}`)] };
}

/** The command could not be read: what was wrong, and the usage line to follow. */
export function parseErrorMessage(message: string, usage: string | null, lang: Lang): Message {
  const t = lang.t.everyday;
  const said = escapeWorded(message);
  const lines = [`:warning: ${said}`];
  if (usage !== null) lines.push(t.usageLine(ltr(lang, code(usage))));
  return {
    text: usage === null ? said : `${said} ${t.usageLine(ltr(lang, escapeMrkdwn(usage)))}`,
    blocks: [section(lines.join('\n'))],
  };
}

/** A failure, or a refusal, said in one line (the text comes from views/errors). */
export function problemMessage(text: string, icon = ':x:'): Message {
  const said = escapeWorded(text);
  return { text: said, blocks: [section(`${icon} ${said}`)] };
}

/** How a change ended, as the agent is told. */
export type ChangeOutcome =
  | { kind: 'succeeded'; requestId: string; answer: JsonValue }
  | { kind: 'failed'; requestId: string; error: string }
  | { kind: 'pending'; requestId: string; why: Said | null; approvalChannel: string }
  | { kind: 'denied'; reason: string }
  /** Any other state the request ended in (e.g. `unknown` after a crash). */
  | { kind: 'other'; requestId: string; state: string };

function outcomeDetails(
  outcome: ChangeOutcome,
  before: string | null,
  warnings: readonly Said[],
  secrets: readonly string[],
  lang: Lang,
): string[] {
  const t = lang.t.everyday;
  const lines: string[] = [];
  if (before !== null) lines.push(before);
  if (outcome.kind === 'succeeded') {
    lines.push(t.serviceAnswered(ltr(lang, code(compactAnswer(outcome.answer, secrets)))));
  }
  if ('requestId' in outcome) lines.push(t.requestLine(ltr(lang, code(outcome.requestId))));
  for (const warning of warnings)
    lines.push(`:warning: ${escapeMrkdwn(maskMobilesInText(sayIn(lang, warning)))}`);
  return lines;
}

function why(said: Said | null, lang: Lang): string {
  return said === null ? lang.t.everyday.policyAsks : sayIn(lang, said);
}

/** What the viewer look-up said before the unblock: `attacker · blocked`. */
export function viewerStatus(
  viewer: { actionType: string | null; blocked: boolean | null },
  lang: Lang,
): string | null {
  const t = lang.t.everyday;
  const parts: string[] = [];
  if (viewer.actionType !== null)
    parts.push(isolateOutside(lang, viewer.actionType, escapeOutside(viewer.actionType)));
  if (viewer.blocked !== null) parts.push(viewer.blocked ? t.viewerBlocked : t.viewerNotBlocked);
  return parts.length === 0 ? null : t.viewerBefore(parts.join(' · '));
}

/**
 * What a sent unblock did, as far as the look-up before it knows: `blocked` true, false, or null
 * when the look-up could not be done or did not say.
 */
export function unblockedSentence(blocked: boolean | null, lang: Lang): (who: string) => string {
  const t = lang.t.everyday;
  if (blocked === true) return t.unblockedWatch;
  if (blocked === false) return t.unblockedAnyway;
  return t.unblockedUnknown;
}

/**
 * The answer to `unblock <mobile>`: the masked number, the outcome, the service's answer and the
 * request ID; past the rate limit, where the request waits for approval.
 */
export function unblockMessage(input: {
  masked: string;
  viewer: { actionType: string | null; blocked: boolean | null };
  warnings: readonly Said[];
  outcome: ChangeOutcome;
  secrets?: readonly string[];
  lang: Lang;
}): Message {
  const { masked, outcome, lang } = input;
  const t = lang.t.everyday;
  const who = ltr(lang, code(masked));
  const plainWho = ltr(lang, masked);
  const id = (requestId: string) => ltr(lang, code(requestId));
  const plainId = (requestId: string) => ltr(lang, requestId);
  let headline: string;
  let text: string;
  switch (outcome.kind) {
    case 'succeeded': {
      // True to what the look-up said: only a viewer known to be blocked "can watch again".
      const said = unblockedSentence(input.viewer.blocked, lang);
      headline = `:white_check_mark: ${said(who)}`;
      text = `${said(plainWho)} ${t.requestSentence(plainId(outcome.requestId))}`;
      break;
    }
    case 'failed':
      headline = `:x: ${t.unblockFailedHead(who, escapeWorded(outcome.error))}`;
      text = t.unblockRefused(plainWho, escapeWorded(outcome.error));
      break;
    case 'pending':
      headline = `:hourglass_flowing_sand: ${t.unblockPendingHead(who, escapeWorded(why(outcome.why, lang)), id(outcome.requestId), `<#${outcome.approvalChannel}>`)}`;
      text = t.unblockPendingText(plainWho, plainId(outcome.requestId));
      break;
    case 'denied':
      headline = `:no_entry: ${t.unblockRefused(who, escapeWorded(outcome.reason))}`;
      text = t.unblockRefused(plainWho, escapeWorded(outcome.reason));
      break;
    case 'other':
      headline = `:grey_question: ${t.unblockOtherHead(who, escapeWorded(stateWordForText(outcome.state, lang)))}`;
      text = t.unblockOtherText(
        plainWho,
        escapeWorded(stateWordForText(outcome.state, lang)),
        plainId(outcome.requestId),
      );
      break;
  }
  const details = outcomeDetails(
    outcome,
    viewerStatus(input.viewer, lang),
    input.warnings,
    input.secrets ?? [],
    lang,
  );
  return {
    text: maskMobilesInText(text),
    blocks: [section(maskMobilesInText(headline)), ...(details.length > 0 ? [context(details)] : [])],
  };
}

/** The file as `retry` names it: title when known, and the ID (never cut). */
function fileName(file: { fileId: string; title: string | null }, lang: Lang): string {
  const id = ltr(lang, code(file.fileId));
  return file.title === null
    ? lang.t.everyday.retryFile(id)
    : `${isolateOutside(lang, file.title, `*${escapeOutside(file.title)}*`)} (${id})`;
}

/** The answer to `retry <fileId>`: the file's title and status, and what became of the retry. */
export function retryMessage(input: {
  fileId: string;
  title: string | null;
  status: string | null;
  warnings: readonly Said[];
  outcome: ChangeOutcome;
  secrets?: readonly string[];
  lang: Lang;
}): Message {
  const { outcome, lang } = input;
  const t = lang.t.everyday;
  const name = fileName(input, lang);
  // The fallback `text` is mrkdwn too: the title and the typed ID are escaped there as well.
  const plainId = ltr(lang, escapeOutside(input.fileId));
  const plainName =
    input.title === null
      ? t.retryFile(plainId)
      : `${isolateOutside(lang, input.title, escapeOutside(input.title))} (${plainId})`;
  const id = (requestId: string) => ltr(lang, code(requestId));
  const plainRequest = (requestId: string) => ltr(lang, requestId);
  let headline: string;
  let text: string;
  switch (outcome.kind) {
    case 'succeeded':
      headline = `:arrows_counterclockwise: ${t.retryQueuedHead(name)}`;
      text = t.retryQueuedText(plainName, plainRequest(outcome.requestId));
      break;
    case 'failed':
      headline = `:x: ${t.retryFailedHead(name, escapeWorded(outcome.error))}`;
      text = t.retryRefused(plainName, escapeWorded(outcome.error));
      break;
    case 'pending':
      headline = `:hourglass_flowing_sand: ${t.retryPendingHead(name, escapeWorded(why(outcome.why, lang)), id(outcome.requestId), `<#${outcome.approvalChannel}>`)}`;
      text = t.retryPendingText(plainName, plainRequest(outcome.requestId));
      break;
    case 'denied':
      headline = `:no_entry: ${t.retryRefused(name, escapeWorded(outcome.reason))}`;
      text = t.retryRefused(plainName, escapeWorded(outcome.reason));
      break;
    case 'other':
      headline = `:grey_question: ${t.retryOtherHead(name, escapeWorded(stateWordForText(outcome.state, lang)))}`;
      text = t.retryOtherText(
        plainName,
        escapeWorded(stateWordForText(outcome.state, lang)),
        plainRequest(outcome.requestId),
      );
      break;
  }
  const before =
    input.status === null
      ? null
      : t.retryStatusBefore(isolateOutside(lang, input.status, escapeOutside(input.status)));
  const details = outcomeDetails(outcome, before, input.warnings, input.secrets ?? [], lang);
  return {
    text: maskMobilesInText(truncate(text, 1000)),
    blocks: [section(maskMobilesInText(headline)), ...(details.length > 0 ? [context(details)] : [])],
  };
}

/** Addresses listed in one message; a longer whitelist is summarised (never an address cut). */
export const WHITELIST_SHOWN = 150;

/** The whitelist with Add and Remove buttons (the change module handles the clicks). */
export function whitelistMessage(ips: readonly string[], lang: Lang): Message {
  const t = lang.t.everyday;
  const count = t.whitelistCount(ips.length);
  const shown = ips.slice(0, WHITELIST_SHOWN);
  const lines = ips.length === 0 ? [t.whitelistEmpty] : shown.map((ip) => `• ${ltr(lang, code(ip))}`);
  if (ips.length > shown.length) lines.push(t.whitelistMore(num(lang, ips.length - shown.length)));
  const buttons = actions(
    [
      button(t.whitelistAddButton, ACTIONS.whitelistAdd, 'add', 'primary'),
      ...(ips.length > 0 ? [button(t.whitelistRemoveButton, ACTIONS.whitelistRemove, 'remove')] : []),
    ],
    'whitelist_actions',
  );
  const listed = shown.map((ip) => ltr(lang, escapeOutside(ip))).join(lang.locale === 'fa' ? '، ' : ', ');
  return {
    text: `${t.whitelistText(count)}${shown.length > 0 ? ` ${listed}` : ''}${ips.length > shown.length ? ' …' : ''}`,
    blocks: [
      section(t.whitelistTitle(count)),
      ...packSections(lines),
      buttons,
      context([t.whitelistNeedsLead]),
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
export function protectionMessage(
  config: ProtectionConfig,
  raw: Record<string, JsonValue>,
  lang: Lang,
): Message {
  const t = lang.t.everyday;
  const blocks: KnownBlock[] = [section(t.protectTitle)];
  const groups = [...new Set(PROTECTION_FIELDS.map((f) => f.group))];
  const textLines: string[] = [t.protectText];
  for (const group of groups) {
    const fields = PROTECTION_FIELDS.filter((f) => f.group === group);
    const rows = fields.map((f) => {
      const value = protectionValueText(f.field, readProtectionField(config, f.field), lang);
      return { label: protectionLabel(f, lang), field: f.field, value };
    });
    const title = protectionGroupTitle(group, lang);
    textLines.push(
      `${title}: ${rows.map((r) => `${r.label} ${escapeMrkdwn(r.value)}`).join(lang.locale === 'fa' ? '، ' : ', ')}`,
    );
    for (let i = 0; i < rows.length; i += BLOCK_KIT_LIMITS.sectionFields) {
      const chunk = rows.slice(i, i + BLOCK_KIT_LIMITS.sectionFields);
      blocks.push({
        type: 'section',
        ...(i === 0 ? { text: mrkdwn(`*${title}*`) } : {}),
        fields: chunk.map((r) =>
          mrkdwn(
            truncate(
              `${escapeMrkdwn(r.label)} (${ltr(lang, code(r.field))})\n${ltr(lang, `*${escapeMrkdwn(r.value)}*`)}`,
              2000,
            ),
          ),
        ),
      } satisfies SectionBlock);
    }
  }
  const extras = Object.entries(raw).filter(([key]) => !KNOWN_KEYS.has(key) && !NOT_SETTINGS.has(key));
  if (extras.length > 0) {
    const shown = extras.map(([key, value]) => ltr(lang, `${code(key)} ${code(compactAnswer(value))}`));
    blocks.push(context([truncate(t.protectAlsoSent(shown.join(' · ')), 2000)]));
  }
  blocks.push(context([t.protectHowToChange]));
  return { text: truncate(textLines.join('\n'), 3000), blocks };
}

/** `explain <code>`: meaning and fix, and a button that starts the fix when there is one. */
export function explainMessage(explanation: PlayerErrorExplanation, lang: Lang): Message {
  const t = lang.t.everyday;
  // The core's table is English; the reader's words come from the catalog (views/player-error-text.ts).
  const said = explanationText(explanation, lang);
  const meaning = escapeMrkdwn(said.meaning);
  const fix = escapeMrkdwn(said.fix);
  const blocks: KnownBlock[] = [section(t.explainHead(ltr(lang, explanation.code), meaning, fix))];
  if (explanation.action === 'unblock') {
    blocks.push(
      actions(
        [button(t.explainUnblockButton, ACTIONS.explainUnblock, explanation.code, 'primary')],
        'explain_actions',
      ),
    );
  } else if (explanation.action === 'retry') {
    blocks.push(
      actions(
        [button(t.explainRetryButton, ACTIONS.explainRetry, explanation.code, 'primary')],
        'explain_actions',
      ),
    );
  }
  return {
    text: escapeMrkdwn(t.explainText(ltr(lang, explanation.code), said.meaning, said.fix)),
    blocks,
  };
}

/** A code that is not in the table: say so, and list the known ones briefly. */
export function unknownCodeMessage(
  codeText: string,
  known: readonly PlayerErrorEntry[],
  lang: Lang,
): Message {
  const t = lang.t.everyday;
  const list = known.map(
    (e) =>
      `${ltr(lang, code(e.codes))} ${escapeMrkdwn(truncate(playerErrorText(e, lang).meaning.replace(/\.$/, ''), 48))}`,
  );
  const codes = known.map((e) => ltr(lang, e.codes)).join(lang.locale === 'fa' ? '، ' : ', ');
  return {
    text: t.unknownCodeText(ltr(lang, escapeOutside(codeText)), codes),
    blocks: [
      section(`:grey_question: ${t.unknownCodeHead(ltr(lang, escapeOutside(codeText)))}`),
      section(t.unknownCodeList(list.join('\n'))),
    ],
  };
}

// A run of digits with single spaces or dashes between groups, as numbers are written.
const DIGIT_RUN = /\+?\d(?:[ -]?\d){8,}/g;

/**
 * Masks every valid mobile number in a run of digit groups (split at each space or dash), longest
 * first. Only stretches of groups with at most {@link MAX_MOBILE_DIGITS} digits are tried, so a
 * pasted list of hundreds of numbers, spaced or dashed, costs a few tries per group, not one per
 * pair of groups.
 */
function maskRun(run: string, region: string): string {
  // Groups at even places, each separator after its group at the odd place that follows.
  const parts = run.split(/([ -])/);
  const groups = parts.filter((_, k) => k % 2 === 0);
  const digits = groups.map((g) => g.replace(/\D/g, '').length);
  /** Groups `[from, to)` as typed, their separators between them. */
  const typed = (from: number, to: number): string => parts.slice(2 * from, 2 * to - 1).join('');
  let out = '';
  let i = 0;
  while (i < groups.length) {
    let end = i;
    let held = 0;
    for (; end < groups.length && held + (digits[end] ?? 0) <= MAX_MOBILE_DIGITS; end += 1)
      held += digits[end] ?? 0;
    for (; end > i; end -= 1, held -= digits[end] ?? 0) {
      // Any country's mobile: a number refused for its country is still a real number.
      if (held >= 9 && parseMobile(typed(i, end), region, { regions: 'any' }).ok) break;
    }
    const next = Math.max(end, i + 1);
    out += end > i ? maskMobile(typed(i, end)) : (groups[i] ?? '');
    out += parts[2 * next - 1] ?? '';
    i = next;
  }
  return out;
}

/**
 * Masks the valid mobile numbers inside a message about input that was refused, and leaves the
 * rest as typed: the person must see what was read, but a real number never goes to Slack whole.
 */
export function maskValidMobiles(text: string, region: string): string {
  return normalizeDigits(text).replace(DIGIT_RUN, (run) => maskRun(run, region));
}

type Param = Said['params'][number];

function maskParam(param: Param, region: string): Param {
  if (typeof param === 'string') return maskValidMobiles(param, region);
  if (Array.isArray(param)) return param.map((p: Param) => maskParam(p, region)) as Param;
  if (typeof param === 'object' && param !== null && 'key' in param && 'params' in param) {
    return maskSaid(param, region);
  }
  return param;
}

function maskSaid(said: Said, region: string): Said {
  return { key: said.key, params: said.params.map((p: Param) => maskParam(p, region)) } as Said;
}

/**
 * A refusal of what a person typed, in their language: what was read is shown, but a valid mobile
 * number in it is masked. English masks the whole sentence (as it always did); other languages
 * mask what was typed before wording it, so their own digits and marks stay as written.
 */
export function refusalText(said: Said, region: string, lang: Lang): string {
  if (lang.locale === 'en') return maskValidMobiles(stripBidiControls(english(said)), region);
  return sayIn(lang, maskSaid(said, region));
}

/** The small modal `explain 9910` opens: the viewer's mobile number. */
export function unblockModal(privateMetadata: string, lang: Lang): ModalView {
  const t = lang.t.everyday;
  const input = textInput({
    blockId: BLOCKS.mobile,
    label: t.unblockModalLabel,
    hint: t.unblockModalHint,
    placeholder: '0912 345 6789',
    maxLength: 40,
    examples: true,
  });
  return modal({
    callbackId: CALLBACKS.unblock,
    title: t.unblockModalTitle,
    submit: t.unblockModalSubmit,
    close: lang.t.changes.formCancel,
    privateMetadata,
    blocks: [section(t.unblockModalIntro), input],
  });
}

/** The small modal `explain 9101`/`9103` opens: the file whose conversion failed. */
export function retryModal(privateMetadata: string, lang: Lang): ModalView {
  const t = lang.t.everyday;
  const input = textInput({
    blockId: BLOCKS.fileId,
    label: t.retryModalLabel,
    hint: t.retryModalHint,
    placeholder: '671018d0403eba579a6f90e2',
    maxLength: 100,
    examples: true,
  });
  return modal({
    callbackId: CALLBACKS.retry,
    title: t.retryModalTitle,
    submit: t.retryModalSubmit,
    close: lang.t.changes.formCancel,
    privateMetadata,
    blocks: [section(t.retryModalIntro), input],
  });
}
