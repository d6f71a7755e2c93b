import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { identityRefusal, maybeSamePerson, osUserOf } from './actor.js';
import { approvalInPlaceOf } from './approvals.js';
import { batchLead } from './batch.js';
import { OPERATION_SPECS, type RuleDefaults } from './catalog.js';
import { ConfigError } from './errors.js';
import { maskMobile } from './mask.js';
import { type ActorVia, followUpOf, type OperationRequest } from './model.js';
import { CHANGE_OPERATIONS, type ChangeOperation } from './operations.js';
import { type Said, say } from './said.js';
import { MIN_WINDOW_MS, type WindowRule } from './time-box.js';
import type { RepeatNeed, RepeatRule } from './viewer-history.js';

/** What a policy has rules for: every change operation, and the `audit` command. */
export const POLICY_OPERATIONS = [...CHANGE_OPERATIONS, 'audit'] as const;
export type PolicyOperation = ChangeOperation | 'audit';

/** Who may ask: everyone in `AGENTS` (and the leads), only `LEADS`, or the listed user/group IDs. */
export type Allowed = 'agents' | 'leads' | readonly string[];

/** A rule as written (defaults and policy files): `approvers: null` means the `LEADS`. */
export interface RuleSettings {
  allowed: Allowed;
  approval: boolean;
  quorum: number;
  approvers: readonly string[] | null;
  expiresIn: string;
  rateLimit: { max: number; per: string } | null;
  confirm: boolean;
  // Follow-ups of a waiting request (issue 13); `null` turns one off.
  /** Approvers who have not decided are reminded this long after the request (or the last reminder). */
  remindAfter: string | null;
  /** Backup approvers (user and user-group IDs) offered the request after `escalateAfter`; none: off. */
  escalateTo: readonly string[];
  escalateAfter: string | null;
  /** The requester and the approvers are warned this long before the request expires. */
  warnBeforeExpiry: string | null;
  /** Who may break the glass on this operation; null (the default): nobody. */
  breakGlass?: BreakGlassSettings | null | undefined;
  // Time-boxed changes (issue 23), for operations whose `undo` is `time-box`
  /** The longest window a change may be asked for (`for 2h`); default `7d`. */
  maxDuration: string;
  /** Whether every change must be asked for a while; default false. */
  requireDuration: boolean;
  /** The unblock beyond `max` of one viewer within `within` needs a lead; absent or null: off. */
  repeat?: { within: string; max: number } | null | undefined;
}

/** A rule ready to apply: approvers resolved, durations in milliseconds. */
export interface Rule {
  allowed: Allowed;
  approval: boolean;
  quorum: number;
  approvers: readonly string[];
  expiresIn: string;
  expiresInMs: number;
  rateLimit: { max: number; per: string; perMs: number } | null;
  confirm: boolean;
  /** Break-glass, durations in milliseconds; null when the policy does not turn it on. */
  breakGlass: BreakGlassRule | null;
  /** Reminders, escalation and the expiry warning, durations in milliseconds (null: off). */
  followUp: FollowUpRule;
  /** The longest window of a time-boxed change, as written and in milliseconds. */
  maxDuration: string;
  maxDurationMs: number;
  /** Whether a change must be asked for a while (`for 2h`). */
  requireDuration: boolean;
  /** Repeat unblocks of one viewer (docs/approvals.md, "Repeat unblocks"); null when off. */
  repeat: RepeatRule | null;
}

/** Operations whose requests unblock one viewer: the only ones a `repeat` rule applies to. */
export const REPEAT_OPERATIONS: readonly ChangeOperation[] = ['viewer.unblock'];

/**
 * When a waiting request is followed up: `remindAfter` (approvers who have not decided get a DM;
 * also the least time between two reminders the requester asks for), `escalateAfter` with
 * `escalateTo` (backup approvers offered the request; off while `escalateTo` is empty) and
 * `warnBeforeExpiry`. Durations as written and in milliseconds.
 * @see docs/architecture.md, "Reminders, escalation and the expiry warning"
 */
export interface FollowUpRule {
  remindAfter: string | null;
  remindAfterMs: number | null;
  escalateTo: readonly string[];
  escalateAfter: string | null;
  escalateAfterMs: number | null;
  warnBeforeExpiry: string | null;
  warnBeforeExpiryMs: number | null;
}

// --- Break-glass settings (docs/architecture.md, "Break-glass and delegation") ----------------

/** `breakGlass: { allowed: [U…, S…], reviewWithin: 24h, max: 3, per: 24h }` as written. */
export interface BreakGlassSettings {
  allowed: readonly string[];
  reviewWithin: string;
  max?: number | undefined;
  per?: string | undefined;
}

/** Break-glass ready to apply. */
export interface BreakGlassRule {
  allowed: readonly string[];
  reviewWithin: string;
  reviewWithinMs: number;
  /** At most `max` break-glass runs of this operation per person per `per`. */
  max: number;
  per: string;
  perMs: number;
}

/** Default rate limit of break-glass: 3 per person per 24 hours. */
export const BREAK_GLASS_DEFAULT_LIMIT = { max: 3, per: '24h' } as const;

export interface Policy {
  /** User and user-group IDs of the leads (`LEADS`). */
  leads: readonly string[];
  /** User and user-group IDs of the agents (`AGENTS`); null means everyone in the workspace. */
  agents: readonly string[] | null;
  rules: Readonly<Record<PolicyOperation, Rule>>;
  /** What the `vidops` CLI may do besides asking and reading. */
  cli: CliRules;
  /** Batches of unblocks; {@link DEFAULT_BULK} when absent. */
  bulk?: BulkRules;
}

/**
 * Batches of unblocks (`viewer.unblock-many`): a batch of more than `maxWithoutApproval` numbers
 * needs one lead's approval of the whole list, whatever the rule of `viewer.unblock-many` says.
 * @see docs/approvals.md, "Many numbers at once"
 */
export interface BulkRules {
  maxWithoutApproval: number;
}

export const DEFAULT_BULK: Readonly<BulkRules> = { maxWithoutApproval: 10 };

/** How many numbers a batch may have and run without a lead (`bulk.maxWithoutApproval`). */
export function bulkMaxOf(policy: Pick<Policy, 'bulk'>): number {
  return (policy.bulk ?? DEFAULT_BULK).maxWithoutApproval;
}

/**
 * The CLI's powers. `approve`: whether an approval may come from the CLI, where a Slack user ID
 * is only claimed with `--as`; default false, so approvals happen in Slack, where Slack vouches
 * for who clicked.
 */
export interface CliRules {
  approve: boolean;
}

/** The CLI rules when the policy file says nothing. */
export const DEFAULT_CLI_RULES: Readonly<CliRules> = { approve: false };

/**
 * Someone asking or deciding, with the user groups they belong to; `via` when they act from the
 * CLI (the OS user who ran it).
 */
export interface PolicyActor {
  id: string;
  groups: readonly string[];
  via?: ActorVia;
}

const DEFAULT_EXPIRY = '24h';

/**
 * Follow-ups every operation has unless the policy file says otherwise: a reminder after 2 hours,
 * a warning 1 hour before expiry, and escalation 4 hours after the request once `escalateTo`
 * names backup approvers (none by default, so no escalation).
 * @see docs/architecture.md, "Reminders, escalation and the expiry warning"
 */
export const DEFAULT_FOLLOW_UP = {
  remindAfter: '2h',
  escalateTo: [] as readonly string[],
  escalateAfter: '4h',
  warnBeforeExpiry: '1h',
} as const;

/**
 * Windows of time-boxed changes unless the policy file says otherwise: at most 7 days, and a
 * window is never required.
 * @see docs/approvals.md, "Time-boxed changes"
 */
export const DEFAULT_WINDOW = { maxDuration: '7d', requireDuration: false } as const;

/** A rule as written, from an operation's defaults in the catalog: any agent may ask, the leads approve. */
function ruleOf(defaults: RuleDefaults): RuleSettings {
  return {
    allowed: 'agents',
    approvers: null,
    expiresIn: DEFAULT_EXPIRY,
    ...DEFAULT_FOLLOW_UP,
    ...DEFAULT_WINDOW,
    ...defaults,
  };
}

/**
 * The built-in policy, exactly the "Default policy" column of the design: each operation's
 * defaults in the catalog (unblock and retry run directly, unblock needing approval past 30 per
 * agent per hour; other changes need one lead, deletes also a typed confirmation), and `audit`
 * for leads.
 * @see docs/architecture.md, "Slash command grammar" and "Approvals"
 */
export const DEFAULT_RULES: Readonly<Record<PolicyOperation, RuleSettings>> = {
  ...(Object.fromEntries(CHANGE_OPERATIONS.map((op) => [op, ruleOf(OPERATION_SPECS[op].policy)])) as Record<
    ChangeOperation,
    RuleSettings
  >),
  audit: { ...ruleOf({ approval: false, quorum: 1, confirm: false, rateLimit: null }), allowed: 'leads' },
};

/**
 * Every duration of a policy: a whole number and one unit, `30s`, `15m`, `4h`, `2d`. The one
 * place that reads them (expiry, rate-limit periods, reminders, escalation, the expiry warning).
 */
const DURATION = /^(\d+)([smhd])$/;
const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** What a policy says of a duration it cannot read. */
export const DURATION_PROBLEM =
  'must be a positive whole number followed by s, m, h or d (e.g. 30s, 15m, 4h, 2d)';

/** `'30m'` → 1,800,000. Null when the text is not a number followed by s, m, h or d. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const [, amount, unit] = match;
  const ms = Number(amount) * (UNIT_MS[unit ?? ''] ?? Number.NaN);
  return Number.isFinite(ms) ? ms : null;
}

const PRINCIPAL = /^[UWS][A-Z0-9]{2,}$/;

/**
 * The longest duration a policy takes: ten years. Every time vidops computes from a duration (the
 * next reminder, an expiry, a limit's window) stays a date it can write; `200000000d` would not.
 */
const MAX_POLICY_DURATION = '3650d';
const withinBound = (s: string) => s === 'off' || (parseDuration(s) ?? 0) <= 3650 * 86_400_000;
const TOO_LONG = `must be at most ${MAX_POLICY_DURATION} (ten years)`;

const DurationSchema = z
  .string()
  .trim()
  .refine((s) => (parseDuration(s) ?? 0) > 0, { error: DURATION_PROBLEM })
  .refine(withinBound, { error: TOO_LONG });

/** A follow-up's duration, or `null`/`off` to turn it off. */
const OptionalDurationSchema = z
  .string({ error: `${DURATION_PROBLEM}, or off` })
  .trim()
  .refine((s) => s === 'off' || (parseDuration(s) ?? 0) > 0, { error: `${DURATION_PROBLEM}, or off` })
  .refine(withinBound, { error: TOO_LONG })
  .transform((s) => (s === 'off' ? null : s))
  .nullable();

const PrincipalSchema = z
  .string()
  .trim()
  .regex(PRINCIPAL, { error: 'must be a Slack user ID (U…/W…) or user-group ID (S…)' });

const AllowedSchema = z.union([z.literal('agents'), z.literal('leads'), z.array(PrincipalSchema).min(1)], {
  error: "must be 'agents', 'leads' or a list of user and user-group IDs",
});

const RuleOverrideSchema = z.strictObject({
  allowed: AllowedSchema.optional(),
  approval: z.boolean({ error: 'must be true or false' }).optional(),
  quorum: z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(0)
    .optional(),
  approvers: z.array(PrincipalSchema).min(1, { error: 'must name at least one approver' }).optional(),
  expiresIn: DurationSchema.optional(),
  rateLimit: z
    .strictObject({
      max: z.number({ error: 'must be a whole number' }).int().min(1, { error: 'must be at least 1' }),
      per: DurationSchema,
    })
    .nullable()
    .optional(),
  confirm: z.boolean({ error: 'must be true or false' }).optional(),
  remindAfter: OptionalDurationSchema.optional(),
  escalateTo: z.array(PrincipalSchema).optional(),
  escalateAfter: OptionalDurationSchema.optional(),
  warnBeforeExpiry: OptionalDurationSchema.optional(),
  breakGlass: z
    .strictObject({
      allowed: z.array(PrincipalSchema).min(1, { error: 'must name at least one user or user group' }),
      reviewWithin: DurationSchema,
      max: z
        .number({ error: 'must be a whole number' })
        .int()
        .min(1, { error: 'must be at least 1' })
        .optional(),
      per: DurationSchema.optional(),
    })
    .nullable()
    .optional(),
  maxDuration: DurationSchema.optional(),
  requireDuration: z.boolean({ error: 'must be true or false' }).optional(),
  repeat: z
    .strictObject({
      within: DurationSchema,
      max: z.number({ error: 'must be a whole number' }).int().min(1, { error: 'must be at least 1' }),
    })
    .nullable()
    .optional(),
});

/** `audit` is a read: only who may run it can be set. */
const AuditOverrideSchema = z.strictObject({ allowed: AllowedSchema.optional() });

/** `bulk`: batches of unblocks. */
const BulkOverrideSchema = z.strictObject({
  maxWithoutApproval: z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be 0 or more' })
    .optional(),
});

/** `cli`: what the command line may do besides asking and reading. */
const CliOverrideSchema = z.strictObject({
  approve: z.boolean({ error: 'must be true or false' }).optional(),
});

type RuleOverride = z.infer<typeof RuleOverrideSchema>;

const changeRuleShape = Object.fromEntries(
  CHANGE_OPERATIONS.map((op) => [op, RuleOverrideSchema.optional()]),
) as Record<ChangeOperation, z.ZodOptional<typeof RuleOverrideSchema>>;

/**
 * The contents of `POLICY_FILE`: per operation, the fields that differ from `DEFAULT_RULES`.
 * Unknown operation names and unknown fields are errors.
 * @example
 * folder.delete: { quorum: 2, expiresIn: 4h }
 * viewer.unblock: { rateLimit: { max: 50, per: 1h }, repeat: { within: 30d, max: 2 } }
 * audit: { allowed: [S0COMPLIANCE] }
 * cli: { approve: true }
 * bulk: { maxWithoutApproval: 10 }
 */
export const PolicyFileSchema = z.strictObject({
  ...changeRuleShape,
  audit: AuditOverrideSchema.optional(),
  cli: CliOverrideSchema.optional(),
  bulk: BulkOverrideSchema.optional(),
});

/** Keys of a policy file besides the operations. */
const OTHER_KEYS = ['cli', 'bulk'] as const;

function knownFields(section: string): string[] {
  if (section === 'audit') return Object.keys(AuditOverrideSchema.shape);
  if (section === 'bulk') return Object.keys(BulkOverrideSchema.shape);
  if (section === 'cli') return Object.keys(CliOverrideSchema.shape);
  return Object.keys(RuleOverrideSchema.shape);
}
export type PolicyFile = z.infer<typeof PolicyFileSchema>;

function formatIssue(source: string, issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const known =
      issue.path.length === 0
        ? `known operations: ${POLICY_OPERATIONS.join(', ')}; and ${OTHER_KEYS.join(', ')}`
        : `known fields: ${knownFields(String(issue.path[0])).join(', ')}`;
    return issue.keys
      .map(
        (key) =>
          `${source} ${path === '' ? '' : `${path}.`}${key}: unknown ${issue.path.length === 0 ? 'operation' : 'field'} (${known})`,
      )
      .join('\n');
  }
  return `${source} ${path === '' ? '(top level)' : path}: ${issue.message}`;
}

/** Parses the text of a policy file (YAML, which includes JSON). Throws ConfigError listing every problem. */
export function parsePolicyFile(text: string, fileName = 'POLICY_FILE'): PolicyFile {
  const source = `POLICY_FILE ${fileName}`;
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError([`${source} is not valid YAML or JSON: ${message}`]);
  }
  // An empty file is an empty set of overrides.
  if (data === null || data === undefined) return {};
  const parsed = PolicyFileSchema.safeParse(data);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.flatMap((issue) => formatIssue(source, issue).split('\n')));
  }
  const problems = [...windowProblems(source, parsed.data), ...repeatProblems(source, parsed.data)];
  if (problems.length > 0) throw new ConfigError(problems);
  return parsed.data;
}

/**
 * Window settings that could never apply: on an operation whose changes do not go back by
 * themselves (only `undo: 'time-box'` ones do), or a `maxDuration` under the shortest window.
 */
function windowProblems(source: string, file: PolicyFile): string[] {
  const problems: string[] = [];
  const boxed = CHANGE_OPERATIONS.filter((op) => OPERATION_SPECS[op].undo === 'time-box');
  for (const op of CHANGE_OPERATIONS) {
    const rule = file[op];
    if (rule === undefined) continue;
    const set = (['maxDuration', 'requireDuration'] as const).filter((key) => rule[key] !== undefined);
    if (OPERATION_SPECS[op].undo !== 'time-box') {
      for (const key of set) {
        problems.push(
          `${source} ${op}.${key}: "${OPERATION_SPECS[op].title}" cannot be asked for a while; only ${boxed.join(', ')} can`,
        );
      }
      continue;
    }
    const max = rule.maxDuration === undefined ? null : parseDuration(rule.maxDuration);
    if (max !== null && max < MIN_WINDOW_MS) {
      problems.push(`${source} ${op}.maxDuration: must be at least 1m, the shortest window`);
    }
  }
  return problems;
}

/** `repeat` on an operation that unblocks no viewer could never apply. */
function repeatProblems(source: string, file: PolicyFile): string[] {
  return CHANGE_OPERATIONS.filter((op) => file[op]?.repeat != null && !REPEAT_OPERATIONS.includes(op)).map(
    (op) => `${source} ${op}.repeat: only ${REPEAT_OPERATIONS.join(', ')} counts repeats of one viewer`,
  );
}

/** A follow-up's duration in milliseconds; null when it is off. */
function durationOrOff(text: string | null): number | null {
  return text === null ? null : parseDuration(text);
}

function resolveRule(settings: RuleSettings, leads: readonly string[]): Rule {
  const per = settings.rateLimit?.per;
  return {
    allowed: settings.allowed,
    approval: settings.approval,
    quorum: settings.quorum,
    approvers: settings.approvers ?? leads,
    expiresIn: settings.expiresIn,
    expiresInMs: parseDuration(settings.expiresIn) ?? 0,
    rateLimit:
      settings.rateLimit && per !== undefined
        ? { max: settings.rateLimit.max, per, perMs: parseDuration(per) ?? 0 }
        : null,
    confirm: settings.confirm,
    followUp: {
      remindAfter: settings.remindAfter,
      remindAfterMs: durationOrOff(settings.remindAfter),
      escalateTo: [...settings.escalateTo],
      escalateAfter: settings.escalateAfter,
      escalateAfterMs: durationOrOff(settings.escalateAfter),
      warnBeforeExpiry: settings.warnBeforeExpiry,
      warnBeforeExpiryMs: durationOrOff(settings.warnBeforeExpiry),
    },
    breakGlass: resolveBreakGlass(settings.breakGlass ?? null),
    maxDuration: settings.maxDuration,
    maxDurationMs: parseDuration(settings.maxDuration) ?? 0,
    requireDuration: settings.requireDuration,
    repeat: settings.repeat
      ? { ...settings.repeat, withinMs: parseDuration(settings.repeat.within) ?? 0 }
      : null,
  };
}

function resolveBreakGlass(settings: BreakGlassSettings | null): BreakGlassRule | null {
  if (settings === null) return null;
  const per = settings.per ?? BREAK_GLASS_DEFAULT_LIMIT.per;
  return {
    allowed: [...settings.allowed],
    reviewWithin: settings.reviewWithin,
    reviewWithinMs: parseDuration(settings.reviewWithin) ?? 0,
    max: settings.max ?? BREAK_GLASS_DEFAULT_LIMIT.max,
    per,
    perMs: parseDuration(per) ?? 0,
  };
}

/** Whether `actor` may break the glass on `operation`: the policy turns it on and lists them. */
export function mayBreakGlass(policy: Policy, operation: ChangeOperation, actor: PolicyActor): boolean {
  const rule = policy.rules[operation].breakGlass;
  return rule !== null && isMember(rule.allowed, actor);
}

/** A field the override leaves out keeps the default; `null` (a follow-up `off`, no rate limit) replaces it. */
function applyOverride(base: RuleSettings, override: RuleOverride | undefined): RuleSettings {
  const set = Object.entries(override ?? {}).filter(([, value]) => value !== undefined);
  return { ...base, ...(Object.fromEntries(set) as Partial<RuleSettings>) };
}

/**
 * The policy in force: `DEFAULT_RULES` with the overrides of `POLICY_FILE` (text and file name,
 * read by the caller). Throws ConfigError when the file cannot be read as a policy; run
 * `checkPolicy` on the result for rules that could never be satisfied.
 * @see docs/architecture.md, "Approvals"
 */
export function buildPolicy(input: {
  leads: readonly string[];
  agents?: readonly string[] | null | undefined;
  fileText?: string | undefined;
  fileName?: string | undefined;
}): Policy {
  const file = input.fileText === undefined ? {} : parsePolicyFile(input.fileText, input.fileName);
  const rules = {} as Record<PolicyOperation, Rule>;
  for (const op of POLICY_OPERATIONS) {
    rules[op] = resolveRule(applyOverride(DEFAULT_RULES[op], file[op]), input.leads);
  }
  return {
    leads: [...input.leads],
    agents: input.agents ? [...input.agents] : null,
    rules,
    cli: { approve: file.cli?.approve ?? DEFAULT_CLI_RULES.approve },
    bulk: { maxWithoutApproval: file.bulk?.maxWithoutApproval ?? DEFAULT_BULK.maxWithoutApproval },
  };
}

const isGroup = (id: string): boolean => id.startsWith('S');

/** Escalation that could never happen: backups named but no time, or a time past the expiry. */
function followUpProblems(op: ChangeOperation, rule: Rule): string[] {
  const { escalateTo, escalateAfter, escalateAfterMs } = rule.followUp;
  if (escalateTo.length === 0) return [];
  if (escalateAfterMs === null) {
    return [`${op} names backup approvers in escalateTo but escalateAfter is off; say after how long`];
  }
  if (escalateAfterMs >= rule.expiresInMs) {
    return [
      `${op} escalates after ${escalateAfter}, but its requests expire after ${rule.expiresIn}; escalateAfter must be shorter`,
    ];
  }
  return [];
}

/** The user IDs who may ask for `rule`, when that is a known, finite set of users; else null. */
function possibleRequesters(policy: Policy, rule: Rule): string[] | null {
  let ids: readonly string[];
  if (rule.allowed === 'agents') {
    if (policy.agents === null) return null;
    ids = [...policy.agents, ...policy.leads];
  } else if (rule.allowed === 'leads') {
    ids = policy.leads;
  } else {
    ids = rule.allowed;
  }
  if (ids.some(isGroup)) return null;
  return [...new Set(ids)];
}

/**
 * Problems that make the policy unusable: an operation whose approvals could never be gathered.
 * `main` refuses to start when this is not empty. Groups are not expanded here, so a rule with a
 * group among its approvers is taken as satisfiable.
 * @see docs/architecture.md, "Approvals"
 */
export function checkPolicy(policy: Policy): string[] {
  const problems: string[] = [];
  for (const op of CHANGE_OPERATIONS) {
    const rule = policy.rules[op];
    const mayNeedApproval = rule.approval || rule.rateLimit !== null || rule.repeat !== null;
    if (!mayNeedApproval) continue;
    const when = rule.approval
      ? 'needs approval'
      : rule.rateLimit !== null
        ? 'needs approval over its rate limit'
        : 'needs approval of a repeat unblock';
    if (rule.quorum < 1) {
      problems.push(`${op} ${when} but its quorum is ${rule.quorum}; it must be at least 1`);
      continue;
    }
    if (rule.expiresInMs <= 0)
      problems.push(`${op} has an expiry of ${rule.expiresIn}; it must be longer than 0`);
    problems.push(...followUpProblems(op, rule));
    if (rule.approvers.some(isGroup)) continue;
    const approvers = [...new Set(rule.approvers)];
    if (approvers.length < rule.quorum) {
      problems.push(
        `${op} ${when} from ${rule.quorum} distinct approvers, but only ${approvers.length} can approve (${approvers.join(', ')})`,
      );
      continue;
    }
    const requesters = possibleRequesters(policy, rule);
    if (requesters === null) continue;
    // The requester never approves their own request, so each requester leaves one approver fewer.
    const stuck = requesters.filter((r) => approvers.filter((a) => a !== r).length < rule.quorum);
    if (stuck.length === 0) continue;
    if (approvers.length === 1 && requesters.length === 1 && requesters[0] === approvers[0]) {
      problems.push(
        `${op} ${when}, but ${approvers[0]} is both the only approver and the only one who may ask for it; nobody else could ever approve`,
      );
    } else {
      problems.push(
        `${op} ${when} from ${rule.quorum} approvers other than the requester, but a request by ${stuck.join(', ')} could never gather them (approvers: ${approvers.join(', ')})`,
      );
    }
  }
  return problems;
}

function isMember(list: readonly string[], actor: PolicyActor): boolean {
  return list.includes(actor.id) || actor.groups.some((g) => list.includes(g));
}

/** True when the actor is one of `LEADS`, directly or through a user group. */
export function isLead(policy: Policy, actor: PolicyActor): boolean {
  return isMember(policy.leads, actor);
}

/** True when the actor may use vidops at all (`AGENTS`, or a lead). */
export function isAgent(policy: Policy, actor: PolicyActor): boolean {
  return policy.agents === null || isMember(policy.agents, actor) || isLead(policy, actor);
}

/** Whether the actor may ask for `operation` (or run `audit`): for help listings and `decide`. */
export function mayRun(policy: Policy, operation: PolicyOperation, actor: PolicyActor): boolean {
  const { allowed } = policy.rules[operation];
  if (allowed === 'agents') return isAgent(policy, actor);
  if (allowed === 'leads') return isLead(policy, actor);
  return isMember(allowed, actor);
}

/** An operation in the words people read: `"Delete folder"`; `audit` is the command's own word. */
export function operationWords(operation: PolicyOperation): string {
  return operation === 'audit' ? 'audit' : `"${OPERATION_SPECS[operation].title}"`;
}

/** The title of an operation for a sentence; null for `audit`. */
function titleOf(operation: PolicyOperation): string | null {
  return operation === 'audit' ? null : OPERATION_SPECS[operation].title;
}

function denyReason(policy: Policy, operation: PolicyOperation): Said {
  const { allowed } = policy.rules[operation];
  if (allowed === 'agents') return say.polNotAgent();
  if (allowed === 'leads') return say.polOnlyLeads(operation, titleOf(operation));
  return say.polOnlyNamed(operation, titleOf(operation));
}

export type Decision =
  | { kind: 'allow' }
  | {
      kind: 'approval';
      quorum: number;
      approvers: string[];
      expiresAt: string;
      /** Why beyond the policy asking for it (`say.whyRateLimit(30, '1h')`); null when only the policy asks. */
      why: Said | null;
    }
  /** `said`: the sentence, for the reader's language. */
  | { kind: 'deny'; said: Said };

/**
 * What happens to a request: run now, wait for approval, or refused. `recentCount` is how many
 * times the actor asked for this operation within the rule's rate-limit period.
 * @see docs/architecture.md, "Approvals"
 */
export function decide(
  policy: Policy,
  input: {
    operation: PolicyOperation;
    actor: PolicyActor;
    recentCount: number;
    now: Date;
    /** A batch of unblocks: how many numbers, and how many of them are repeat viewers. */
    batch?: { size: number; repeats: number };
    /** An unblock beyond the repeat rule's `max` for its viewer: a lead approves it, whatever else. */
    repeat?: RepeatNeed | null | undefined;
  },
): Decision {
  const rule = policy.rules[input.operation];
  if (!mayRun(policy, input.operation, input.actor)) {
    return { kind: 'deny', said: denyReason(policy, input.operation) };
  }
  const approval = (why: Said | null, quorum = rule.quorum): Decision => ({
    kind: 'approval',
    quorum,
    approvers: [...rule.approvers],
    expiresAt: new Date(input.now.getTime() + rule.expiresInMs).toISOString(),
    why,
  });
  if (input.repeat) {
    const { nth, viewer, within } = input.repeat;
    const why = say.whyRepeat(nth, maskMobile(viewer), parseDuration(within) ?? 0);
    return approval(why, Math.max(rule.quorum, 1));
  }
  if (rule.approval) return approval(null);
  const lead = input.batch === undefined ? null : batchLead(bulkMaxOf(policy), input.batch);
  if (lead?.kind === 'size') return approval(say.whyBatchSize(lead.size, lead.max));
  if (lead?.kind === 'repeats') return approval(say.whyBatchRepeats(lead.count));
  if (rule.rateLimit && input.recentCount >= rule.rateLimit.max) {
    return approval(say.whyRateLimit(rule.rateLimit.max, rule.rateLimit.per));
  }
  return { kind: 'allow' };
}

export type ApprovalCheck =
  | { ok: true }
  | {
      ok: false;
      code: 'cli-off' | 'requester' | 'not-approver' | 'already-approved';
      said: Said;
    };

function notOk(code: Extract<ApprovalCheck, { ok: false }>['code'], said: Said): ApprovalCheck {
  return { ok: false, code, said };
}

/** True when the actor is among the rule's approvers, directly or through a user group. */
export function isApprover(policy: Policy, operation: PolicyOperation, actor: PolicyActor): boolean {
  return isMember(policy.rules[operation].approvers, actor);
}

/**
 * The operations whose requests the actor may ever be asked to decide: those they approve, and
 * those whose requests escalate to them. A request of any other operation never awaits them, so
 * App Home and `requests` read only these.
 */
export function approvableOperations(policy: Policy, actor: PolicyActor): PolicyOperation[] {
  return (Object.keys(policy.rules) as PolicyOperation[]).filter(
    (op) => isApprover(policy, op, actor) || isMember(policy.rules[op].followUp.escalateTo, actor),
  );
}

/**
 * True when the actor may decide on this request: an approver of its operation, or one of the
 * backup approvers it was escalated to (`escalated` event), directly or through a user group.
 */
export function isApproverOf(
  policy: Policy,
  request: Pick<OperationRequest, 'operation' | 'followUp'>,
  actor: PolicyActor,
): boolean {
  return isApprover(policy, request.operation, actor) || isMember(followUpOf(request).escalatedTo, actor);
}

/**
 * Whether the actor may approve the request: from the CLI only when the policy allows it, never
 * the requester, only an approver of the operation, and only once. "The requester" and "once"
 * compare both identities: the Slack user ID, and on the CLI the OS user, so one OS user cannot
 * ask as one Slack user and approve as another. The request's state is checked by the approval
 * state machine.
 * @see docs/architecture.md, "Approvals"
 */
export function mayApprove(
  policy: Policy,
  request: Pick<OperationRequest, 'operation' | 'requester' | 'approvals' | 'followUp'>,
  actor: PolicyActor,
): ApprovalCheck {
  const osUser = osUserOf(actor);
  // The one identity rule of every CLI action (src/core/actor.ts), in an approval's words.
  switch (identityRefusal(policy.cli.approve, request.requester, actor)) {
    case 'cli-off':
      return notOk('cli-off', say.polCliOff());
    case 'own':
      return notOk('requester', say.polOwnRequest());
    case 'os-user':
      return notOk('requester', say.polOsUserAsked(osUser ?? '', request.requester.id));
    case null:
      break;
  }
  if (!isApproverOf(policy, request, actor)) {
    const approvers = policy.rules[request.operation].approvers;
    const sameAsLeads =
      approvers.length === policy.leads.length && approvers.every((a) => policy.leads.includes(a));
    return notOk(
      'not-approver',
      say.polNotApprover(sameAsLeads, request.operation, titleOf(request.operation)),
    );
  }
  const earlier = request.approvals.find((a) => maybeSamePerson(a.by, actor));
  if (earlier !== undefined) {
    return notOk(
      'already-approved',
      earlier.by.id === actor.id
        ? say.polApprovedAlready()
        : say.polOsUserApproved(osUser ?? '', earlier.by.id),
    );
  }
  // A delegate approved in their place: they count already, as `approve` counts them.
  const inTheirPlace = approvalInPlaceOf(request, actor);
  if (inTheirPlace !== undefined)
    return notOk('already-approved', say.polApprovedInYourPlace(inTheirPlace.by.name));
  return { ok: true };
}

/**
 * What the policy says of windows for `operation`, as `checkWindow` (src/core/time-box.ts) takes
 * it: whether it can be time-boxed at all, whether a window is required, and its bounds.
 * @see docs/approvals.md, "Time-boxed changes"
 */
export function windowRule(policy: Policy, operation: ChangeOperation): WindowRule {
  const rule = policy.rules[operation];
  const spec = OPERATION_SPECS[operation];
  return {
    operation,
    title: spec.title,
    undo: spec.undo,
    requireDuration: spec.undo === 'time-box' && rule.requireDuration,
    maxMs: rule.maxDurationMs,
    minMs: MIN_WINDOW_MS,
  };
}

/** Whether the policy wants a typed confirmation before `operation` is submitted. */
export function needsConfirmation(policy: Policy, operation: ChangeOperation): boolean {
  return policy.rules[operation].confirm;
}
