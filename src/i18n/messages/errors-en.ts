import { ordinalEnglish, periodEnglish, spanEnglish } from '../../core/english.js';
import * as core from '../../core/said.js';

/**
 * The core's sentences in English (`say.…`, src/core/said.ts): the English side of the `errors`
 * area, whose Persian side (errors.ts) has the same keys and parameters; a sentence missing in
 * either fails the type check. Parameters come raw (what was typed, codes, counts).
 * @see docs/architecture.md, "Languages"
 */

const TYPE_NAMES: Readonly<Record<core.PhoneKind, string>> = {
  FIXED_LINE: 'a landline',
  MOBILE: 'a mobile number',
  FIXED_LINE_OR_MOBILE: 'a landline or mobile number',
  TOLL_FREE: 'a toll-free number',
  PREMIUM_RATE: 'a premium-rate number',
  SHARED_COST: 'a shared-cost number',
  VOIP: 'an internet (VoIP) number',
  PERSONAL_NUMBER: 'a personal number',
  PAGER: 'a pager number',
  UAN: 'a company number (UAN)',
  VOICEMAIL: 'a voicemail number',
};

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** Names that read with "the": the Philippines, the United States, the Netherlands. */
const WITH_THE =
  /(Islands|Republic|Kingdom|States|Emirates|^Philippines$|^Netherlands$|^Bahamas$|^Gambia$|^Maldives$|^Comoros$|^Seychelles$|^Vatican City$)/;

/** `PH` → `the Philippines (PH)`, `IR` → `Iran (IR)`. */
export function countryName(code: string): string {
  if (code === core.NO_COUNTRY) return 'no single country (a non-geographic number)';
  const name = REGION_NAMES.of(code) ?? code;
  if (name === code) return code;
  return `${WITH_THE.test(name) ? 'the ' : ''}${name} (${code})`;
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A moment as a clock in `timeZone` shows it, with its date and zone: `26 Nov 2026, 18:00 GMT+3:30`. */
function clockIn(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  try {
    const format = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
    return Number.isFinite(ms) ? `${format.format(ms)} (${timeZone})` : iso;
  } catch {
    return iso; // a time zone Intl does not know
  }
}

/** `1.2.3.4, 5.6.7.8`: addresses and IDs, as the services list them. */
function listText(items: readonly string[]): string {
  return items.join(', ');
}

function isAre(items: readonly string[]): string {
  return items.length === 1 ? 'is' : 'are';
}

function bullets(lines: readonly string[]): string {
  return lines.map((line) => `• ${line}`).join('\n');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function quoted(title: string | null): string {
  return title ? ` ("${title}")` : '';
}

const IP_WHAT: Readonly<Record<core.IpBlockKind, (cidr: string) => string>> = {
  unspecified: () => 'the unspecified address',
  thisNetwork: (c) => `in ${c}, which means "this network"`,
  loopback: (c) => `a loopback address (${c})`,
  theLoopback: () => 'the loopback address',
  linkLocal: (c) => `a link-local address (${c})`,
  broadcast: () => 'the broadcast address',
  multicast: (c) => `a multicast address (${c})`,
  reserved: (c) => `a reserved address (${c})`,
  documentation: (c) => `a documentation address (${c}, for examples only)`,
  benchmarking: (c) => `a benchmarking address (${c})`,
  private: (c) => `a private address (${c})`,
  carrierNat: (c) => `a carrier-grade NAT address (${c})`,
  ipv4Compatible: (c) => `an IPv4-compatible address (${c}, retired in 2006)`,
  siteLocal: (c) => `a site-local address (${c}, retired)`,
  uniqueLocal: (c) => `a unique local (private) address (${c})`,
};

const IP_WHY: Readonly<Record<core.IpBlockWhy, string>> = {
  noCaller: 'no server calls from it',
  itself: 'it means the machine itself, never a caller',
  local: 'it never leaves its own network',
  notSeen:
    'the service is on the internet and sees the public address of the server calling it, so this one would never match; give the public address',
};

/** `"Delete folder"`, or `audit` (the command's own word) when there is no title. */
function operationEnglish(title: string | null): string {
  return title === null ? 'audit' : `"${title}"`;
}

/** Why a call failed, as src/client/errors.ts `failureInWords` says it. */
export function failureEnglish(failure: core.Failure): string {
  switch (failure.kind) {
    case 'timeout':
      return 'the service did not answer in time';
    case 'unreachable':
      return `the service could not be reached${failure.code === null ? '' : ` (${failure.code})`}`;
    case 'unreadable':
      return 'the service answered in a form vidops cannot read';
    case 'answered':
      return `the service answered ${failure.status}`;
    case 'refusedBefore':
      return 'the request was refused before it was sent';
    case 'failed':
      return 'the call to the service failed';
  }
}

/** Where a request stands, as src/core/approvals.ts `describeState` says it. */
export function stateEnglish(f: core.StateFacts): string {
  const approvers = listOf(f.approvers);
  const approvedBy = approvers === '' ? '' : `approved by ${approvers} and `;
  const by = f.by === null ? '' : ` by ${f.by}`;
  const settled = f.by === null ? '' : `, settled${by}`;
  switch (f.state) {
    case 'pending':
      return `still waiting for approval (${f.approvals} of ${f.quorum})`;
    case 'approved':
      return `already approved${approvers === '' ? '' : ` by ${approvers}`} at ${f.at}, waiting to run`;
    case 'executing':
      return `already ${approvedBy}running since ${f.at}`;
    case 'succeeded':
      return `already ${approvedBy}executed at ${f.at}${settled}`;
    case 'failed':
      return `already ${approvedBy}executed at ${f.at}${settled}, and it failed${f.error === null ? '' : `: ${f.error}`}`;
    case 'rejected':
      return `already rejected${by} at ${f.at}`;
    case 'cancelled':
      return `already cancelled${by} at ${f.at}`;
    case 'expired':
      return `already expired at ${f.expiredAt} without enough approvals`;
    case 'unknown':
      return `left with an unknown outcome at ${f.at}: it may or may not have been applied`;
  }
}

/** How to give a person to `/vidops delegate`. */
export const PICK_MENTION =
  'Pick the person from Slack’s mention list as you type @ (it sends them as a mention vidops can read); a plain name could be anyone.';

/** The English wording of every sentence of the core: the `errors` area's English side. */
export const SAID_ENGLISH: core.SaidWords = {
  phoneUnknownRegion: (region) => `${region || '(empty)'} is not a known phone region`,
  phoneForeign: (typed, region, accepted) =>
    `${typed} is a mobile number in ${countryName(region)}; only numbers of ${listOf(accepted.map(countryName))} are accepted here`,
  phoneEmpty: () => 'no mobile number was given',
  phoneLetters: (typed) => `"${typed}" has letters`,
  phoneSeveral: (typed, count) => `"${typed}" holds ${count} numbers; give one number at a time`,
  phoneStray: (typed, characters) =>
    `"${typed}" has characters a phone number does not have: ${characters.join(' ')}`,
  phoneNoDigits: () => 'no digits were given',
  phoneNotMobile: (read, kind, country) =>
    `${read} is ${kind === null ? 'not a mobile number' : `${TYPE_NAMES[kind]}, not a mobile number`}${
      country === undefined ? '' : ` in ${country ?? 'its country'}`
    }`,
  phoneInvalid: (read, region) => `${read} is not a valid number for ${region}`,
  phoneTooLongAtAll: (read) => `${read} is too long`,
  phoneNoCountryCode: (read) => `${read} does not start with a country code that exists`,
  phoneLandline: (read) => `${read} is a landline, not a mobile number`,
  phoneTooShort: (read, region) => `${read} is too short for a mobile number in ${region}`,
  phoneTooLong: (read, region) => `${read} is too long for a mobile number in ${region}`,

  idNone: (kind) => `no ${kind} ID was given`,
  idSpaces: (kind, id) => `the ${kind} ID "${id}" has spaces inside; give one ID`,
  idSlash: (kind, id) => `the ${kind} ID "${id}" has a slash; give the ID alone, not a path or link`,
  idControl: (kind) => `the ${kind} ID has control characters`,
  idDots: (kind, id) => `"${id}" is not a ${kind} ID: an ID is never made only of dots`,
  idShape: (kind, id) =>
    `${kind} ID ${id} is not 24 hex digits like the service's IDs (e.g. 671018d0403eba579a6f90e2); check it`,

  ipNone: () => 'no IP address was given',
  ipUnusable: (ip, block, mapped) =>
    `${ip} is ${mapped ? 'the IPv4-mapped form of ' : ''}${IP_WHAT[block.kind](block.cidr)}: ${IP_WHY[core.IP_BLOCK_WHY[block.kind]]}`,
  ipUrl: (token) => `"${token}" is a URL; give the server's IP address`,
  ipRange: (token) => `"${token}" is a range (CIDR); list single addresses`,
  ipZone: (token) => `"${token}" has a zone index (%…); give the address alone`,
  ipBrackets: (token, port) =>
    `"${token}" has brackets${port ? ' and a port' : ''}; give the IPv6 address alone`,
  ipPort: (token) => `"${token}" has a port; give the address alone`,
  ipBadIpv4: (token) =>
    `"${token}" is not a valid IPv4 address (four numbers from 0 to 255, no leading zeros)`,
  ipHostName: (token) => `"${token}" is a host name; give its IP address`,
  ipNotIp: (token) => `"${token}" is not an IPv4 or IPv6 address`,

  protNone: () => 'no settings were given; write field=value, e.g. opacity=0.5',
  protNoValue: (pair) => `"${pair}" has no value; write field=value`,
  protNoName: (pair) => `"${pair}" has no setting name; write field=value`,
  protUnknown: (name, guess) =>
    `unknown setting "${name}"${guess === null ? '' : `; did you mean "${guess}"?`}`,
  protTwice: (field) => `${field} is given more than once`,
  protNeedsValue: (field) => `${field} needs a value`,
  protBadValue: (field, problem) => `${field}: ${english(problem)}`,
  protIssue: (path, message) => `${path}: ${message}`,
  protNotSwitch: (raw) => `"${raw}" is not on/off; use true/false, on/off or yes/no`,
  protNotNumber: (raw) => `"${raw}" is not a number`,
  protBelow: (raw, min) => `${raw} is out of range; it must be ${min} or more`,
  protOutside: (raw, min, max) => `${raw} is out of range; it must be between ${min} and ${max}`,
  protNotColour: (raw, colours) => `"${raw}" is not one of the watermark colours: ${colours.join(', ')}`,
  protNotDuration: (raw) =>
    `"${raw}" is not a duration; write a number and a unit (s m h d w M y), e.g. 2h, 1d, 1M`,

  grammarSayWhat: (keyword, commands) =>
    `Say what to do with the ${keyword}: ${commands.map((c) => `\`/vidops ${c}\``).join(', ')}.`,
  grammarHintAdd: (ip, rest) => `To add ${ip} to the whitelist, write \`/vidops whitelist add ${rest}\`.`,
  grammarHintSet: (rest) => `To change settings, write \`/vidops protect set ${rest}\`.`,
  grammarHintRetry: (rest) => `To retry a conversion, write \`/vidops retry ${rest}\`.`,
  grammarNoMobile: () => 'Give the mobile number of the viewer to unblock.',
  grammarNobodyUnblocked: (reason) => `Nobody was unblocked: ${english(reason)}.`,
  listNoNumber: () => 'no number on this line',
  grammarNoIps: (change) => `Give the IP addresses to ${change}.`,
  grammarWhitelistRefused: (problems) => `The whitelist was not changed:\n${bullets(problems.map(english))}`,
  grammarNoSettings: () => 'Give the settings to change as field=value.',
  grammarSettingsRefused: (problems) => `The settings were not changed:\n${bullets(problems.map(english))}`,
  grammarBadCount: (raw, max) => `"${raw}" is not a number of events from 1 to ${max}.`,
  delegSayWho: () => `Say who approves in your place. ${PICK_MENTION}`,
  delegNotMention: (first) => `“${first}” is not a mention vidops can read. ${PICK_MENTION}`,
  delegMissingUntil: () =>
    'Say until when: `until 4h`, `until 2d`, `until 2026-12-01` (Solar Hijri `until 1405/09/10` too) or `until 2026-12-01T18:00` (your display time zone; add Z for UTC).',
  delegBadUntil: (text) =>
    `“${text}” is not a duration (30m, 4h, 2d) nor a date (2026-12-01 or Solar Hijri 1405/09/10, or 2026-12-01T18:00; add Z for UTC).`,
  delegPast: (when) => `${when} has already passed; a delegation must end in the future.`,
  delegTooLong: () => 'A delegation may last at most 30 days.',
  boxUnreadable: (text) =>
    `“${text}” is neither a duration (15m, 2h, 1d, 1w, 1h30m) nor an end (2026-12-01T18:00, or Solar Hijri 1405/09/10T18:00; add Z for UTC).`,
  boxNotPositive: (text) => `“${text}” is no time at all: ask for a while longer than zero, e.g. \`for 2h\`.`,
  boxTooShort: (text, minMs) => `“${text}” is too short: ask for at least ${spanEnglish(minMs)}.`,
  boxTooLong: (text, maxMs) => `“${text}” is too long: the policy allows at most ${spanEnglish(maxMs)}.`,
  boxPast: (text) => `“${text}” has already passed: give an end in the future.`,
  boxNoWindow: (word) =>
    `Say how long after \`${word}\`: \`for 2h\`, \`for 1h30m\` or \`until 1405/09/10T18:00\`.`,
  boxNotLast: (word) =>
    `Put \`${word} …\` at the end, after everything else, e.g. \`/vidops whitelist add 5.6.7.8 for 30m\`.`,
  boxTwice: () => 'Give one window, `for …` or `until …`, once.',
  boxCliWords: (word) =>
    `On the command line the window is a flag: write \`--for 2h\` instead of \`${word} …\`.`,
  boxNotTimeBoxed: (_operation, title, undo) =>
    `"${title}" cannot be asked for a while: only protection settings and whitelist changes go back by themselves. ${
      undo === 'revert' ? 'Once it is done, Revert… undoes it.' : 'It cannot be undone either.'
    }`,
  boxRequired: (_operation, title, maxMs) =>
    `"${title}" must be asked for a while: add \`for 2h\` (at most ${spanEnglish(maxMs)}), and vidops puts it back at the end.`,
  grammarBadLanguage: (raw, choices) =>
    `"${raw}" is not a language vidops speaks; choose ${choices.map((w) => `\`${w}\``).join(' or ')}.`,
  grammarNoCode: () => 'Give the error code the player shows, e.g. 9910.',
  grammarBadCode: (raw) => `"${raw}" is not a player error code; it is a number like 9910.`,
  grammarNoId: (kind, idName) => `Give the ${kind} ID (${idName}).`,
  grammarManyIds: (command, kind, words) =>
    `\`${command}\` takes one ${kind} ID; got ${words.length} words: ${words.join(' ')}.`,
  grammarIdRefused: (reason) => `${capitalize(english(reason))}.`,
  grammarUnknown: (typed) => `Unknown command "${typed}". \`/vidops help\` lists what you can run.`,
  grammarUnknownGuess: (typed, guess) => `Unknown command "${typed}". Did you mean \`/vidops ${guess}\`?`,
  grammarNoSub: (command, typed, subs) =>
    `\`${command}\` has no "${typed}"; it has ${subs.map((s) => `\`${command} ${s}\``).join(', ')}.`,
  grammarNoSubGuess: (command, typed, guess) =>
    `\`${command}\` has no "${typed}". Did you mean \`/vidops ${command} ${guess}\`?`,
  grammarTooMany: (command, extra, why) =>
    `\`${command}\` takes nothing more; remove "${extra}"${why === null ? '' : ` (${why})`}.`,

  modalNobodyUnblocked: (reason) => `Nobody was unblocked: ${english(reason)}.`,
  modalNothingRetried: (reason) => `Nothing was retried: ${english(reason)}.`,

  prepNotThere: (kind, id) => `${capitalize(kind)} ${id} does not exist.`,
  prepWhitelistHas: (ips) => `${listText(ips)} ${isAre(ips)} already on the whitelist; nothing to add.`,
  prepWhitelistLacks: (ips) => `${listText(ips)} ${isAre(ips)} not on the whitelist; nothing to remove.`,
  prepWhitelistSame: () => 'The whitelist already holds exactly these addresses; nothing would change.',
  prepNoSetting: () => 'No setting to change was given.',
  prepAlready: (rows) =>
    `Nothing would change: ${rows.map((r) => `${r.field} is already ${r.value}`).join(', ')}.`,
  prepFolderSame: (id) => `Folder ${id} already has this title and description; nothing would change.`,
  prepNoCover: () => 'A cover image cannot be uploaded from here; edit the title and description only.',
  execNoCover: () => 'The cover image cannot be downloaded here, so the file was not edited.',
  paramsInvalid: (_operation, title, issues) =>
    `The parameters of "${title}" are not valid: ${issues.join('; ')}`,
  storedUnknownOperation: (id, operation) =>
    `Request ${id} is for "${operation}", an operation this build does not know.`,
  storedParamsInvalid: (id, _operation, title, issues) =>
    `Request ${id} holds parameters that are not valid for "${title}": ${issues.join('; ')}`,

  revertBeforeUnknown: () =>
    'vidops never saw what it was before this change (the service could not say), so it cannot be reverted.',
  revertNotDone: (id) => `${id} has not been applied, so there is nothing to revert.`,
  revertNotRevertible: (id, title) =>
    `${id} (${title}) cannot be reverted: deletes, creates and one-way actions have no inverse.`,
  revertExtend: (id, original) =>
    `${id} extends ${original}: it changed only when that goes back, so it has no Revert of its own. To undo the change, revert ${original}: a Revert ends the whole window, this Extend included.`,
  revertWindowEnded: (original, id) =>
    `${id === null ? 'Nothing' : `${id} was not sent: nothing`} of ${original} is left to revert, as its window has ended already (it was put back, or reverted).${id === null ? '' : ' Nothing was changed.'}`,
  revertNothing: (id) => `Nothing of ${id} is left to revert: everything it changed was changed again since.`,
  revertDoneAlready: (original, by, id) =>
    `${id === null ? '' : `${id} was not sent: `}${original} was reverted already by ${by}.${id === null ? '' : ' Nothing was changed.'}`,
  revertAsked: (original, other) =>
    `${original} has a Revert already: ${other}, not done yet or of unknown outcome. A second could undo a change made after the first; nothing was recorded.`,
  revertInFlight: (id, original, other) =>
    `${id} was not sent: ${other}, another Revert of ${original}, was sent first and its outcome is not known yet. Nothing was changed.`,
  revertStale: (id, original) =>
    `${id} was not sent: what ${original} changed was changed again after this Revert was asked. Nothing was changed; ask for a new Revert of ${original} if still needed.`,
  revertUnchecked: (id, original) =>
    `${id} was not sent: the service could not be read to check that it still undoes ${original}. Nothing was changed; ask for a new Revert of ${original} once the service answers.`,
  revertNotYours: (id) => `Only the person who asked for ${id}, or a lead, may undo it.`,
  putBackNotInForce: (id) =>
    `${id} is not a time-boxed change in force: there is nothing to put back or extend.`,
  extendStale: (id, original) =>
    `${id} was not sent: ${original} is no longer in force (it was put back, or was being put back). Nothing was changed; ask for the change again if still needed.`,
  putBackInterrupted: () =>
    'Not sent again: vidops stopped while this put-back was under way, and the service may have changed since. The change is read again and put back from what the service shows now.',
  putBackSuperseded: () =>
    'Not sent: another vidops process took this put-back over while this one was stalled. Nothing was changed by this one.',
  boxHeld: (item, holder, requester, endsAt, timeZone) =>
    `${item} is held by ${holder} (asked by <@${requester}>) ${endsAt === null ? 'until it is put back' : `until ${clockIn(endsAt, timeZone)}`}: extend it, or put it back first. A change for good (no window) may override it.`,
  boxPassedWaiting: (id, text) =>
    `${id} was not sent: its end “${text}” passed while it waited for approval. Nothing was changed; ask again with an end in the future.`,
  revertEditedSince: (id, original, fields) =>
    `${id} was not sent: ${listText(fields)} of what ${original} edited changed again after this Revert was asked. Nothing was changed; ask for a new Revert of ${original} if still needed.`,
  sendBusy: (seconds) =>
    `Not sent: another change of the same list was being sent for ${seconds} s. Nothing was changed by this one; it can be tried again in a minute.`,
  reqUnsealed: (id) =>
    `${id} cannot be approved or run: its record was changed in the database since it was asked (what it would do, its window, its requester or the approvals it needs no longer carry vidops' seal), or it was sealed under another VIDEO_SECRET_KEY. Nothing was changed; ask for it again.`,
  resumeEnded: (id, ended) =>
    `Not sent again: the audit log says ${id} already ended (${ended}), but its record in the database was set back since. Nothing was changed on the service.`,
  sendUnsealed: () =>
    "Not sent: this request's record does not carry vidops' seal for what it would send, so it was changed in the database after it was judged, or sealed under another VIDEO_SECRET_KEY. Nothing was changed; ask for it again.",
  prepConverted: (id, title) =>
    `File ${id}${quoted(title)} has converted already (status done); there is nothing to retry.`,
  prepQueued: (id, title) =>
    `File ${id}${quoted(title)} is still in the conversion queue (status waiting); wait for it to finish or fail.`,
  prepPlaylistNothing: () => 'Give a new title, the list of files, or both.',
  prepFilesMissing: (ids) =>
    ids.length === 1
      ? `File ${ids[0]} does not exist; take it out of the playlist or check the ID.`
      : `Files ${listText(ids)} do not exist; take them out of the playlist or check the IDs.`,
  noteToReject: () => 'Say why you reject the request: a note is required.',
  noteToSettle: () => 'Say what you found on the service: a note is required.',

  warnLookUp: (what, failure) => `Could not look the ${what} up: ${failureEnglish(failure)}.`,
  warnCountFiles: (folder, failure) =>
    `Could not count the files of folder ${folder}: ${failureEnglish(failure)}.`,
  warnWhitelistHas: (ips) => `${listText(ips)} ${isAre(ips)} already on the whitelist.`,
  warnWhitelistLacks: (ips) => `${listText(ips)} ${isAre(ips)} not on the whitelist.`,
  warnRevertLeaves: (id, items) =>
    `Left as they are now, because they changed again after ${id}: ${listText(items)}.`,
  warnRevertChangedSince: (id) =>
    `This was edited again after ${id}; reverting puts back what ${id} replaced, over that later edit.`,
  warnWhitelistEmpty: () =>
    'The whitelist will be empty: while ipValidation is on, no server can create links.',
  warnFilesUnchecked: (files, failure) =>
    files === null
      ? `Could not look the playlist's files up: ${failureEnglish(failure)}. Whether they exist was not checked.`
      : files.length === 1
        ? `Could not look up file ${files[0]}: ${failureEnglish(failure)}. Whether it exists was not checked.`
        : `Could not look up files ${listText(files)}: ${failureEnglish(failure)}. Whether they exist was not checked.`,
  warnFolderFiles: (folder, title, files) =>
    `Deleting folder ${folder}${quoted(title)} also deletes its ${files} file${files === 1 ? '' : 's'}; this cannot be undone.`,
  warnNoViewingRecord: () => 'The service has no viewing record for this number.',
  warnNotBlocked: () => 'The service does not list this viewer as blocked.',

  whyRepeat: (nth, viewer, withinMs) =>
    `the ${ordinalEnglish(nth)} unblock of ${viewer} in ${spanEnglish(withinMs)}`,
  whyBatchSize: (size, max) => `a batch of ${size} numbers, over ${max} without approval`,
  whyBatchRepeats: (count) => `${count} repeat viewers in the batch`,
  whyRateLimit: (max, per) => `over the rate limit of ${max} per ${periodEnglish(per)}`,

  polNotAgent: () => 'You are not one of the agents allowed to use vidops (AGENTS).',
  polOnlyLeads: (_operation, title) => `Only leads may run ${operationEnglish(title)}.`,
  polOnlyNamed: (_operation, title) =>
    `Only the people named for ${operationEnglish(title)} in the policy may run it.`,
  polCliOff: () =>
    'Approvals from the command line are turned off: approve in Slack, or set `cli: { approve: true }` in the POLICY_FILE.',
  polOwnRequest: () => 'You asked for this change, so someone else has to approve it.',
  polOsUserAsked: (osUser, as) =>
    `OS user ${osUser} asked for this change (as ${as}), so someone else has to approve it.`,
  polNotApprover: (leads, _operation, title) =>
    `Only ${leads ? 'leads' : 'the approvers named in the policy'} can approve ${operationEnglish(title)} requests.`,
  polApprovedAlready: () => 'You have already approved this request.',
  polOsUserApproved: (osUser, as) =>
    `OS user ${osUser} already approved this request (as ${as}); one person gives one approval.`,
  polApprovedInYourPlace: (delegate) =>
    `${delegate} already approved this request in your place, by your delegation; you count once.`,
  resolveCliOff: () =>
    'Settling an unknown outcome from the command line is turned off, as approvals are: settle it in Slack, or set `cli: { approve: true }` in the POLICY_FILE.',
  resolveOsUserAsked: (osUser, as) =>
    `OS user ${osUser} asked for this change (as ${as}), so someone else has to settle its outcome.`,
  reqCancelInSlack: (who, id) =>
    `Request ${id} was asked for in Slack by ${who}: cancel it in Slack, where Slack vouches for who clicks. On the command line --as is only a claim, trusted only where the POLICY_FILE says \`cli: { approve: true }\`.`,

  reqCannot: (id, wanted, state) => `Request ${id} cannot be ${wanted}: it was ${stateEnglish(state)}.`,
  reqExpiredAt: (id, wanted, at) =>
    `Request ${id} cannot be ${wanted}: it expired at ${at} without enough approvals.`,
  reqCannotNow: (id, wanted, state) => `Request ${id} cannot be ${wanted}: it ${stateEnglish(state)}.`,
  reqYouApproved: (id) => `You have already approved request ${id}.`,
  reqTheirOwn: (name) =>
    `${name} asked for this change, so approving in their place would be approving their own request.`,
  reqCountsAlready: (name, id) =>
    `${name} already counts toward request ${id}; a delegate approves in their place, not a second time.`,
  reqOnlyRequesterCancels: (who, id) => `Only ${who}, who asked for it, can cancel request ${id}.`,
  remindOnlyRequester: (who, id) =>
    `Only ${who}, who asked for it, can remind the approvers of request ${id}.`,
  remindOff: (operation) => `Reminders are turned off for ${operation} requests.`,
  remindTooSoon: (id, at, next, every) =>
    `The approvers of ${id} were reminded at ${at}; you can remind them again after ${next}${every === null ? '' : ` (at most once every ${periodEnglish(every)})`}.`,
  reqEscalatedAlready: (id) => `Request ${id} was escalated already.`,
  reqWarnedAlready: (id) => `Request ${id} was warned about its expiry already.`,
  reqOpenUntil: (id, at) => `Request ${id} cannot be expired: it is open until ${at}.`,
  reqOwnSettle: () => 'You asked for this change, so someone else has to settle its outcome.',

  bgWrongWords: () => 'Type the words “break glass” exactly to confirm; nothing was changed.',
  bgReasonRequired: () =>
    'Say why this cannot wait for a lead: the reason is required and every lead reads it.',
  glassNotOn: (_operation, title) =>
    `Break-glass is not turned on for "${title}", or you are not listed for it in the policy.`,
  glassNotRequester: () => 'Only the person who asked for this change can break the glass on it.',
  glassRateLimited: (max, per) =>
    `You have already broken the glass ${max} time${max === 1 ? '' : 's'} on this operation in the last ${periodEnglish(per)}; that is the limit. Wait for a lead to approve.`,
  glassOwnReview: () => 'You broke the glass on this change, so another lead has to review it.',
  glassNotLead: () => 'Only leads review break-glass changes.',
  bgNoteRequired: () => 'Say what is wrong: a note is required when you flag a change.',
  glassNotBroken: (id) => `Request ${id} did not run by break-glass; there is nothing to review.`,
  glassReviewed: (id, by, verdict) => `Request ${id} has already been reviewed: ${verdict} by ${by}.`,

  delegOnlyLeads: () =>
    'Only leads delegate their approvals; approving in a lead’s place does not let you pass it on.',
  delegSelf: () => 'You cannot delegate to yourself.',
  delegBot: () => 'Delegate to a person on the team, not to a bot.',
  delegAlready: (name, until) =>
    `You already delegated to ${name} until ${until}; \`/vidops delegate cancel\` ends it first.`,
  delegNothingToCancel: () => 'You have no delegation in force to cancel.',
  delegRace: () => 'Someone changed your delegation at the same moment; look again.',
  delegCountsOnce: (names) =>
    `You approve in the place of ${names.join(', ')}, who asked for this change or already count toward it; one person counts once.`,
  delegOutsider: (name) =>
    `${name} is not on the team (AGENTS or LEADS): only someone who may use vidops can approve in your place.`,
  delegUnknown: (id) =>
    `Slack knows no active member ${id} in this workspace; pick the person from Slack’s mention list.`,
  delegCannotCheck: (id) => `Slack did not say who ${id} is just now; try again in a minute.`,

  svcNoRequest: (id) => `There is no request ${id}.`,
  svcBusy: (id) => `Request ${id} is being changed by others right now; look at it again.`,
  svcOwnReject: () => 'This is your own request: cancel it instead of rejecting it.',
  svcOnlyApproversReject: (_operation, title) =>
    `Only those who may approve ${operationEnglish(title)} requests can reject them.`,
  svcCannotSendAgain: (id, _operation, title) =>
    `Request ${id} cannot be sent again: a second "${title}" could do the work twice. Look at the service, then mark the outcome by hand.`,
  svcOnlyApproversSettle: (operation) =>
    `Only those who may approve ${operation} requests can settle their outcome.`,
  svcNoClearAnswer: () =>
    'The service gave no clear answer to the repeat either: it may or may not have been applied.',
  svcStillWorking: (target, time) =>
    `The ${target} is still there, but the service may still be working on the delete; check again after ${time} UTC, or mark the outcome by hand.`,
  svcNotOnService: (kind, id) => `There is no ${kind} ${id} on the service.`,
  svcChangedSinceForm: (kind, id, title, files) =>
    `The ${kind} ${id} changed since this form opened: ${[
      title === null ? null : `it is now called “${title}”`,
      files === null ? null : `it now holds ${files} ${files === 1 ? 'file' : 'files'}`,
    ]
      .filter((part) => part !== null)
      .join(
        ', and ',
      )}. Close the form and start the delete again, to confirm it as it is now. Nothing was asked.`,
  svcFormOfOther: () => 'This form was opened by someone else; only they can send it. Nothing was changed.',
  svcFormGone: () =>
    'This form is no longer valid: it was sent already, it was open for more than an hour, or vidops did not open it. Nothing was changed; run the command again.',

  resolveCannotLookUp: (_operation, title) =>
    `vidops cannot look up whether a "${title}" was applied. Look at the service, then mark the outcome by hand.`,
  resolveNoLookUp: (target) =>
    `This service does not support looking up the ${target}. Look at the service, then mark the outcome by hand.`,
  resolveNotProof: (target) =>
    `The look-up of the ${target} answered 404, but it had not answered for it when the request was made, so that proves nothing. Look at the service, then mark the outcome by hand.`,
  outcomeApplied: (name) => `applied, as ${name} found on the service`,
  outcomeNotApplied: (name) => `not applied, as ${name} found on the service`,
  outcomeDeleted: () => 'already deleted',
  outcomeDeletedAgain: () => 'deleted when sent again',
  outcomeStillThere: (target, name) => `not applied: the ${target} is still there (checked by ${name})`,
};

/** The sentence in English: what logs, stored records and the English CLI read. */
export function english(said: core.Said): string {
  const phrase = SAID_ENGLISH[said.key] as (...params: readonly unknown[]) => string;
  return phrase(...said.params);
}
