import type { ResourceKind } from './validate/ids.js';

/**
 * What the core says to people when it refuses something, as data: a key and its parameters
 * (`say.phoneForeign(typed, 'PH', ['IR'])`), so the Slack edge can word it in the reader's
 * language. The English wording lives here, next to the code that refuses, and is what the
 * core's messages and errors carry (`english(said)`); the message catalog's `errors` area takes
 * this English side as it is and adds the Persian side with the same keys and parameters (a key
 * missing in either fails the type check).
 * @see docs/architecture.md, "Languages"
 */

/** Kinds of number libphonenumber tells apart, as `phoneNotMobile` names them. */
export type PhoneKind =
  | 'FIXED_LINE'
  | 'MOBILE'
  | 'FIXED_LINE_OR_MOBILE'
  | 'TOLL_FREE'
  | 'PREMIUM_RATE'
  | 'SHARED_COST'
  | 'VOIP'
  | 'PERSONAL_NUMBER'
  | 'PAGER'
  | 'UAN'
  | 'VOICEMAIL';

/** Blocks of addresses no caller of the service can have (src/core/validate/ip.ts). */
export type IpBlockKind =
  | 'unspecified'
  | 'thisNetwork'
  | 'loopback'
  | 'theLoopback'
  | 'linkLocal'
  | 'broadcast'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'private'
  | 'carrierNat'
  | 'ipv4Compatible'
  | 'siteLocal'
  | 'uniqueLocal';

/** One such block: its kind and how it is written (`127.0.0.0/8`, or the one address). */
export interface IpBlock {
  kind: IpBlockKind;
  cidr: string;
}

/** Why an address of a block never calls the service. */
export type IpBlockWhy = 'noCaller' | 'itself' | 'local' | 'notSeen';

/** The reason each kind of block gives. */
export const IP_BLOCK_WHY: Readonly<Record<IpBlockKind, IpBlockWhy>> = {
  unspecified: 'noCaller',
  thisNetwork: 'noCaller',
  loopback: 'itself',
  theLoopback: 'itself',
  linkLocal: 'local',
  broadcast: 'noCaller',
  multicast: 'noCaller',
  reserved: 'noCaller',
  documentation: 'noCaller',
  benchmarking: 'noCaller',
  private: 'notSeen',
  carrierNat: 'notSeen',
  ipv4Compatible: 'noCaller',
  siteLocal: 'notSeen',
  uniqueLocal: 'notSeen',
};

/**
 * Every sentence and the parameters it takes. Parameters are raw values (what was typed, codes,
 * counts), never words of one language: each language formats them its own way.
 */
export interface SaidParams {
  // Mobile numbers (src/core/validate/phone.ts)
  phoneUnknownRegion: [region: string];
  phoneForeign: [typed: string, region: string, accepted: readonly string[]];
  phoneEmpty: [];
  phoneLetters: [typed: string];
  phoneSeveral: [typed: string, count: number];
  phoneStray: [typed: string, characters: readonly string[]];
  phoneNoDigits: [];
  /** `country`: undefined when the number is of the home region, null when its country is unknown. */
  phoneNotMobile: [read: string, kind: PhoneKind | null, country: string | null | undefined];
  phoneInvalid: [read: string, region: string];
  phoneTooLongAtAll: [read: string];
  phoneNoCountryCode: [read: string];
  phoneLandline: [read: string];
  phoneTooShort: [read: string, region: string];
  phoneTooLong: [read: string, region: string];
  // Folder, file and playlist IDs (src/core/validate/ids.ts)
  idNone: [kind: ResourceKind];
  idSpaces: [kind: ResourceKind, id: string];
  idSlash: [kind: ResourceKind, id: string];
  idControl: [kind: ResourceKind];
  idDots: [kind: ResourceKind, id: string];
  idShape: [kind: ResourceKind, id: string];
  // IP addresses (src/core/validate/ip.ts)
  ipNone: [];
  ipUnusable: [ip: string, block: IpBlock, mapped: boolean];
  ipUrl: [token: string];
  ipRange: [token: string];
  ipZone: [token: string];
  ipBrackets: [token: string, port: boolean];
  ipPort: [token: string];
  ipBadIpv4: [token: string];
  ipHostName: [token: string];
  ipNotIp: [token: string];
  // Protection settings (src/core/validate/protection.ts)
  protNone: [];
  protNoValue: [pair: string];
  protNoName: [pair: string];
  protUnknown: [name: string, guess: string | null];
  protTwice: [field: string];
  protNeedsValue: [field: string];
  protBadValue: [field: string, problem: Said];
  protIssue: [path: string, message: string];
  protNotSwitch: [raw: string];
  protNotNumber: [raw: string];
  protBelow: [raw: string, min: number];
  protOutside: [raw: string, min: number, max: number];
  protNotColour: [raw: string, colours: readonly string[]];
  protNotDuration: [raw: string];
  // The slash grammar (src/core/grammar.ts)
  grammarSayWhat: [keyword: string, commands: readonly string[]];
  grammarHintAdd: [ip: string, rest: string];
  grammarHintSet: [rest: string];
  grammarHintRetry: [rest: string];
  grammarNoMobile: [];
  grammarNobodyUnblocked: [reason: Said];
  grammarNoIps: [change: 'add' | 'remove'];
  grammarWhitelistRefused: [problems: readonly Said[]];
  grammarNoSettings: [];
  grammarSettingsRefused: [problems: readonly Said[]];
  grammarBadCount: [raw: string, max: number];
  // `/vidops delegate` (src/core/delegation.ts)
  delegSayWho: [];
  delegNotMention: [first: string];
  delegMissingUntil: [];
  delegBadUntil: [text: string];
  /** `when`: the moment in UTC minutes (`2026-11-20 00:00 UTC`). */
  delegPast: [when: string];
  delegTooLong: [];
  grammarBadLanguage: [raw: string, choices: readonly string[]];
  grammarNoCode: [];
  grammarBadCode: [raw: string];
  grammarNoId: [kind: ResourceKind, idName: string];
  grammarManyIds: [command: string, kind: ResourceKind, words: readonly string[]];
  grammarIdRefused: [reason: Said];
  grammarTurned: [typed: string, suggestion: string];
  grammarUnknown: [typed: string];
  grammarUnknownGuess: [typed: string, guess: string];
  grammarNoSub: [command: string, typed: string, subs: readonly string[]];
  grammarNoSubGuess: [command: string, typed: string, guess: string];
  /** `why`: where the values come from instead (a words spec's `why`), or null. */
  grammarTooMany: [command: string, extra: string, why: string | null];
  // The two small modals of `explain`
  modalNobodyUnblocked: [reason: Said];
  modalNothingRetried: [reason: Said];
  // The services' refusals (src/services/prepare.ts, operations.ts)
  prepNotThere: [kind: ResourceKind, id: string];
  prepWhitelistHas: [ips: readonly string[]];
  prepWhitelistLacks: [ips: readonly string[]];
  prepWhitelistSame: [];
  prepNoSetting: [];
  prepAlready: [rows: readonly { field: string; value: string }[]];
  prepFolderSame: [id: string];
  prepNoCover: [];
  prepConverted: [id: string, title: string | null];
  prepQueued: [id: string, title: string | null];
  prepPlaylistNothing: [];
  prepFilesMissing: [ids: readonly string[]];
  noteToReject: [];
  noteToSettle: [];
}

export type SaidKey = keyof SaidParams;

/** One sentence to say: its key and its parameters, type-checked together. */
export type Said = { [K in SaidKey]: { readonly key: K; readonly params: SaidParams[K] } }[SaidKey];

/** A language's wording of every sentence. */
export type SaidWords = { readonly [K in SaidKey]: (...params: SaidParams[K]) => string };

const TYPE_NAMES: Readonly<Record<PhoneKind, string>> = {
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

/** What libphonenumber calls the region of a non-geographic number. */
export const NO_COUNTRY = '001';

/** `PH` → `the Philippines (PH)`, `IR` → `Iran (IR)`. */
export function countryName(code: string): string {
  if (code === NO_COUNTRY) return 'no single country (a non-geographic number)';
  const name = REGION_NAMES.of(code) ?? code;
  if (name === code) return code;
  return `${WITH_THE.test(name) ? 'the ' : ''}${name} (${code})`;
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
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

const IP_WHAT: Readonly<Record<IpBlockKind, (cidr: string) => string>> = {
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

const IP_WHY: Readonly<Record<IpBlockWhy, string>> = {
  noCaller: 'no server calls from it',
  itself: 'it means the machine itself, never a caller',
  local: 'it never leaves its own network',
  notSeen:
    'the service is on the internet and sees the public address of the server calling it, so this one would never match; give the public address',
};

/** How to give a person to `/vidops delegate`. */
export const PICK_MENTION =
  'Pick the person from Slack’s mention list as you type @ (it sends them as a mention vidops can read); a plain name could be anyone.';

/** The English wording: what the core's messages and errors carry, and the catalog's English side. */
export const SAID_ENGLISH: SaidWords = {
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
    `${ip} is ${mapped ? 'the IPv4-mapped form of ' : ''}${IP_WHAT[block.kind](block.cidr)}: ${IP_WHY[IP_BLOCK_WHY[block.kind]]}`,
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
  grammarNoIps: (change) => `Give the IP addresses to ${change}.`,
  grammarWhitelistRefused: (problems) => `The whitelist was not changed:\n${bullets(problems.map(english))}`,
  grammarNoSettings: () => 'Give the settings to change as field=value.',
  grammarSettingsRefused: (problems) => `The settings were not changed:\n${bullets(problems.map(english))}`,
  grammarBadCount: (raw, max) => `"${raw}" is not a number of events from 1 to ${max}.`,
  delegSayWho: () => `Say who approves in your place. ${PICK_MENTION}`,
  delegNotMention: (first) => `“${first}” is not a mention vidops can read. ${PICK_MENTION}`,
  delegMissingUntil: () =>
    'Say until when: `until 4h`, `until 2d`, `until 2026-12-01` or `until 2026-12-01T18:00` (UTC).',
  delegBadUntil: (text) =>
    `“${text}” is not a duration (30m, 4h, 2d) nor a date (2026-12-01, or 2026-12-01T18:00 in UTC).`,
  delegPast: (when) => `${when} has already passed; a delegation must end in the future.`,
  delegTooLong: () => 'A delegation may last at most 30 days.',
  grammarBadLanguage: (raw, choices) =>
    `"${raw}" is not a language vidops speaks; choose ${choices.map((w) => `\`${w}\``).join(' or ')}.`,
  grammarNoCode: () => 'Give the error code the player shows, e.g. 9910.',
  grammarBadCode: (raw) => `"${raw}" is not a player error code; it is a number like 9910.`,
  grammarNoId: (kind, idName) => `Give the ${kind} ID (${idName}).`,
  grammarManyIds: (command, kind, words) =>
    `\`${command}\` takes one ${kind} ID; got ${words.length} words: ${words.join(' ')}.`,
  grammarIdRefused: (reason) => `${capitalize(english(reason))}.`,
  grammarTurned: (typed, suggestion) => `Unknown command "${typed}". Did you mean \`/vidops ${suggestion}\`?`,
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
};

/** `words` applied to one sentence: the one place a key meets its wording. */
export function sayWith(words: SaidWords, said: Said): string {
  const phrase = words[said.key] as (...params: readonly unknown[]) => string;
  return phrase(...said.params);
}

/** The sentence in English, as the core's messages and errors carry it. */
export function english(said: Said): string {
  return sayWith(SAID_ENGLISH, said);
}

/** Builds a sentence to say: `say.phoneEmpty()`, `say.idNone('file')`. */
export const say = Object.fromEntries(
  Object.keys(SAID_ENGLISH).map((key) => [key, (...params: unknown[]) => ({ key, params })]),
) as unknown as { readonly [K in SaidKey]: (...params: SaidParams[K]) => Extract<Said, { key: K }> };
