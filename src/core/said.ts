import type { JsonValue } from './json.js';
import type { ResourceKind } from './validate/ids.js';

/**
 * What the core says to people when it refuses something, as data only: a key and its raw
 * parameters (`say.phoneForeign(typed, 'PH', ['IR'])`). The core never words it: the message
 * catalog's `errors` area holds each key's English and Persian (src/i18n/messages/errors-en.ts,
 * errors.ts, both typed `SaidWords`, so a key without its sentence in either fails the type
 * check), and the edges word it in the reader's language (src/i18n/said.ts).
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
  // A pasted list of numbers (src/core/validate/phone-list.ts) and a batch of unblocks
  listNoNumber: [];
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
  // Time-boxed changes (src/core/time-box.ts): a window as typed (`for 2h`), and its bounds in ms
  boxUnreadable: [text: string];
  boxNotPositive: [text: string];
  boxTooShort: [text: string, minMs: number];
  boxTooLong: [text: string, maxMs: number];
  boxPast: [text: string];
  /** `word`: `for` or `until`, as typed. */
  boxNoWindow: [word: string];
  boxNotLast: [word: string];
  boxTwice: [];
  boxCliWords: [word: string];
  /** `undo`: the operation's `undo` rule, to say whether a Revert… is the way instead. */
  boxNotTimeBoxed: [operation: string, title: string, undo: 'revert' | 'none'];
  boxRequired: [operation: string, title: string, maxMs: number];
  grammarBadLanguage: [raw: string, choices: readonly string[]];
  grammarNoCode: [];
  grammarBadCode: [raw: string];
  grammarNoId: [kind: ResourceKind, idName: string];
  grammarManyIds: [command: string, kind: ResourceKind, words: readonly string[]];
  grammarIdRefused: [reason: Said];
  grammarUnknown: [typed: string];
  /** Also a command typed the wrong way round: `delete folder X` → `folder delete X`. */
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
  execNoCover: [];
  // Parameters read back (src/core/catalog.ts): a form's draft, a stored request
  paramsInvalid: [operation: string, title: string, issues: readonly string[]];
  storedUnknownOperation: [id: string, operation: string];
  storedParamsInvalid: [id: string, operation: string, title: string, issues: readonly string[]];
  // Revert and time-boxed put-backs (src/services/revert.ts, time-box.ts)
  revertBeforeUnknown: [];
  revertNotDone: [id: string];
  revertNotRevertible: [id: string, title: string];
  revertExtend: [id: string, original: string];
  revertWindowEnded: [original: string, id: string | null];
  revertNothing: [id: string];
  revertDoneAlready: [original: string, by: string, id: string | null];
  revertAsked: [original: string, other: string];
  revertInFlight: [id: string, original: string, other: string];
  revertStale: [id: string, original: string];
  revertUnchecked: [id: string, original: string];
  revertNotYours: [id: string];
  putBackNotInForce: [id: string];
  extendStale: [id: string, original: string];
  putBackSuperseded: [];
  putBackInterrupted: [];
  boxHeld: [item: string, holder: string, requester: string, endsAt: string | null, timeZone: string];
  boxPassedWaiting: [id: string, text: string];
  revertEditedSince: [id: string, original: string, fields: string[]];
  sendBusy: [seconds: number];
  sendUnsealed: [];
  resumeEnded: [id: string, ended: string];
  reqUnsealed: [id: string];
  prepConverted: [id: string, title: string | null];
  prepQueued: [id: string, title: string | null];
  prepPlaylistNothing: [];
  prepFilesMissing: [ids: readonly string[]];
  noteToReject: [];
  noteToSettle: [];
  // Look-ups before a change (src/services/prepare.ts): warnings, never refusals
  warnLookUp: [what: LookedUp, failure: Failure];
  warnCountFiles: [folder: string, failure: Failure];
  warnWhitelistHas: [ips: readonly string[]];
  warnWhitelistLacks: [ips: readonly string[]];
  warnWhitelistEmpty: [];
  warnRevertLeaves: [id: string, items: readonly string[]];
  warnRevertChangedSince: [id: string];
  /** `files`: those left unchecked, or null when none could be looked up. */
  warnFilesUnchecked: [files: readonly string[] | null, failure: Failure];
  warnFolderFiles: [folder: string, title: string | null, files: number];
  warnNoViewingRecord: [];
  warnNotBlocked: [];
  // The policy (src/core/policy.ts); `title`: the operation's English title, null for `audit`
  polNotAgent: [];
  polOnlyLeads: [operation: string, title: string | null];
  polOnlyNamed: [operation: string, title: string | null];
  polCliOff: [];
  polOwnRequest: [];
  polOsUserAsked: [osUser: string, as: string];
  polNotApprover: [leads: boolean, operation: string, title: string | null];
  polApprovedAlready: [];
  polOsUserApproved: [osUser: string, as: string];
  polApprovedInYourPlace: [delegate: string];
  // Why a change waits for approval, beyond the policy asking for it (`decide`)
  whyRepeat: [nth: number, viewer: string, withinMs: number];
  whyBatchSize: [size: number, max: number];
  whyBatchRepeats: [count: number];
  whyRateLimit: [max: number, per: string];
  // One identity rule for every command line action (src/core/actor.ts): settle, cancel
  resolveCliOff: [];
  resolveOsUserAsked: [osUser: string, as: string];
  reqCancelInSlack: [who: string, id: string];
  // The approval state machine (src/core/approvals.ts)
  reqCannot: [id: string, wanted: Wanted, state: StateFacts];
  reqExpiredAt: [id: string, wanted: Wanted, at: string];
  /** As `reqCannot`, of a request found expired just now: "it already expired at …". */
  reqCannotNow: [id: string, wanted: Wanted, state: StateFacts];
  reqYouApproved: [id: string];
  reqTheirOwn: [name: string];
  reqCountsAlready: [name: string, id: string];
  reqOnlyRequesterCancels: [who: string, id: string];
  reqEscalatedAlready: [id: string];
  reqWarnedAlready: [id: string];
  reqOpenUntil: [id: string, at: string];
  reqOwnSettle: [];
  // The requester's Remind button (src/services/reminders.ts)
  remindOnlyRequester: [who: string, id: string];
  /** `operation`: the operation's words as the policy names it (`folder delete`). */
  remindOff: [operation: string];
  /** Times as the core writes them (`14:05 UTC`); `every`: the policy's `remindAfter` as written, or null. */
  remindTooSoon: [id: string, at: string, next: string, every: string | null];
  // Break-glass (src/core/break-glass.ts)
  bgWrongWords: [];
  bgReasonRequired: [];
  glassNotOn: [operation: string, title: string];
  glassNotRequester: [];
  /** `per`: the policy's period as written (`24h`). */
  glassRateLimited: [max: number, per: string];
  glassOwnReview: [];
  glassNotLead: [];
  bgNoteRequired: [];
  glassNotBroken: [id: string];
  glassReviewed: [id: string, by: string, verdict: string];
  // Delegation (src/core/delegation.ts, src/services/delegation.ts)
  delegOnlyLeads: [];
  delegSelf: [];
  delegBot: [];
  delegAlready: [name: string, until: string];
  delegNothingToCancel: [];
  delegRace: [];
  delegCountsOnce: [names: readonly string[]];
  /** Who a lead may delegate to: a person of the team whom Slack knows (src/services/delegation.ts). */
  delegOutsider: [name: string];
  delegUnknown: [id: string];
  delegCannotCheck: [id: string];
  // The services (src/services/)
  svcNoRequest: [id: string];
  svcBusy: [id: string];
  svcOwnReject: [];
  svcOnlyApproversReject: [operation: string, title: string];
  svcCannotSendAgain: [id: string, operation: string, title: string];
  svcOnlyApproversSettle: [operation: string];
  svcNoClearAnswer: [];
  svcStillWorking: [target: string, time: string];
  svcNotOnService: [kind: ResourceKind, id: string];
  svcChangedSinceForm: [kind: ResourceKind, id: string, title: string | null, files: number | null];
  svcFormOfOther: [];
  svcFormGone: [];
  // Settling an unknown outcome (src/services/resolve.ts, operations.ts)
  resolveCannotLookUp: [operation: string, title: string];
  resolveNoLookUp: [target: string];
  resolveNotProof: [target: string];
  outcomeApplied: [name: string];
  outcomeNotApplied: [name: string];
  outcomeDeleted: [];
  outcomeDeletedAgain: [];
  outcomeStillThere: [target: string, name: string];
}

/** What a look-up warning says could not be looked up. */
export type LookedUp = ResourceKind | 'viewer';

/** Why a call to the service failed, as data (src/client/errors.ts `failureOf`). */
export type Failure =
  | { kind: 'timeout' }
  | { kind: 'unreachable'; code: string | null }
  | { kind: 'unreadable' }
  | { kind: 'answered'; status: number }
  | { kind: 'refusedBefore' }
  | { kind: 'failed' };

/** What a refusal says was wanted of a request: "Request R-1 cannot be *approved*". */
export type Wanted =
  | 'approved'
  | 'rejected'
  | 'cancelled'
  | 'escalated'
  | 'warned about'
  | 'expired'
  | 'sent again'
  | 'settled'
  | 'run by break-glass'
  | 'reminded about'
  | 'started'
  | 'marked as succeeded'
  | 'marked as failed'
  | 'marked as unknown';

/**
 * Where a request stands, as data: its state, who approved (names), when (`10:02 UTC`, or with
 * the date when not today), who decided, and the error of a failed one.
 */
export interface StateFacts {
  state:
    | 'pending'
    | 'approved'
    | 'executing'
    | 'succeeded'
    | 'failed'
    | 'rejected'
    | 'cancelled'
    | 'expired'
    | 'unknown';
  approvals: number;
  quorum: number;
  approvers: readonly string[];
  at: string;
  by: string | null;
  expiredAt: string;
  error: string | null;
}

export type SaidKey = keyof SaidParams;

/** One sentence to say: its key and its parameters, type-checked together. */
export type Said = { [K in SaidKey]: { readonly key: K; readonly params: SaidParams[K] } }[SaidKey];

/** A language's wording of every sentence. */
export type SaidWords = { readonly [K in SaidKey]: (...params: SaidParams[K]) => string };

/** What libphonenumber calls the region of a non-geographic number. */
export const NO_COUNTRY = '001';

type Say = { readonly [K in SaidKey]: (...params: SaidParams[K]) => Extract<Said, { key: K }> };

/** Builds a sentence to say: `say.phoneEmpty()`, `say.idNone('file')`; the compiler checks key and parameters. */
export const say: Say = new Proxy({} as Say, {
  get:
    (_target, key) =>
    (...params: unknown[]) => ({ key, params }),
});

/** A sentence as it is stored in JSON (an event's outcome, a recorded error); read back with src/i18n/said.ts `saidFromJson`. */
export type StoredSaid = { key: string; params: JsonValue[] };

/** A sentence as stored: `{ key, params }`, plain JSON. */
export function saidJson(said: Said): StoredSaid {
  return { key: said.key, params: JSON.parse(JSON.stringify(said.params)) as JsonValue[] };
}
