import { z } from 'zod';
import { parseInput } from './validation.js';

/**
 * Fault injection for tests and demos: slow answers, error statuses, garbage bodies and reset
 * connections on chosen `/v1` requests, before the request is handled or after it took effect.
 * @see docs/architecture.md, "Sandbox"
 */
export const FaultRuleSchema = z
  .strictObject({
    /** Exact path such as `/v1/playlist`; omitted = every `/v1` path. */
    path: z.string().startsWith('/', 'must start with /').optional(),
    /** HTTP method, any case; omitted = every method. */
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'must be an HTTP method')
      .optional(),
    /** Delay before the rule's status or the normal handling (the service has not acted yet). */
    latencyMs: z.number().int('must be a whole number').min(0).max(120_000).optional(),
    /**
     * Delay after the normal handling, before its answer is sent: the change has taken effect
     * when a client that times out gives up (a lost answer).
     */
    latencyAfterMs: z.number().int('must be a whole number').min(0).max(120_000).optional(),
    /** Handle the request normally, then destroy the socket instead of answering. */
    resetAfter: z.boolean().optional(),
    /** Answer this status with a JSON error body instead of handling the request. */
    status: z.number().int('must be a whole number').min(200).max(599).optional(),
    /** Raw body to send with `status` (e.g. non-JSON `oops`). */
    body: z.string().optional(),
    /** Content type of `body`; default: JSON when it parses as JSON, else text/plain. */
    contentType: z.string().min(1).optional(),
    /** Extra headers sent with `status` (e.g. `retry-after`). */
    headers: z.record(z.string(), z.string()).optional(),
    /** Probability (0..1) that a matching request is hit; default 1. */
    rate: z.number().min(0).max(1).optional(),
    /** Destroy the socket without answering. */
    reset: z.boolean().optional(),
    /** Apply only to the next N matching requests. */
    times: z.number().int('must be a whole number').min(1).optional(),
  })
  .refine((rule) => rule.status !== undefined || rule.body === undefined, {
    message: 'needs status',
    path: ['body'],
  })
  .refine((rule) => rule.status !== undefined || rule.contentType === undefined, {
    message: 'needs status',
    path: ['contentType'],
  })
  .refine((rule) => rule.status !== undefined || rule.headers === undefined, {
    message: 'needs status',
    path: ['headers'],
  })
  .refine((rule) => !(rule.reset === true && rule.status !== undefined), {
    message: 'cannot be combined with status',
    path: ['reset'],
  })
  // The "after" faults act on the normal handling, which a status or a reset replaces.
  .refine((rule) => rule.latencyAfterMs === undefined || (rule.status === undefined && rule.reset !== true), {
    message: 'cannot be combined with status or reset',
    path: ['latencyAfterMs'],
  })
  .refine((rule) => rule.resetAfter !== true || (rule.status === undefined && rule.reset !== true), {
    message: 'cannot be combined with status or reset',
    path: ['resetAfter'],
  });

/** One fault rule (see the schema for each member). */
export type FaultRule = z.infer<typeof FaultRuleSchema>;

/** Body of `POST /__sandbox/faults`. */
export const FaultRulesBodySchema = z.strictObject({
  rules: z.array(FaultRuleSchema).max(100, 'must have at most 100 rules'),
});

/** `/v1/x/` and `/v1/x` are one path. */
export function normalisePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The active rules. A request takes the first rule that matches its method and path, has times
 * left and wins its `rate` draw; a rule that loses the draw lets the next ones try.
 */
export class FaultBook {
  private rules: { rule: FaultRule; remaining: number | undefined }[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  /** Replaces every rule; throws the 400 of the first invalid one. */
  replace(rules: readonly unknown[]): FaultRule[] {
    const parsed = parseInput(FaultRulesBodySchema, { rules });
    this.rules = parsed.rules.map((rule) => ({ rule, remaining: rule.times }));
    return this.list();
  }

  clear(): void {
    this.rules = [];
  }

  /** The rules still active, `times` showing what is left. */
  list(): FaultRule[] {
    return this.rules
      .filter((entry) => entry.remaining === undefined || entry.remaining > 0)
      .map(({ rule, remaining }) =>
        structuredClone(remaining === undefined ? rule : { ...rule, times: remaining }),
      );
  }

  /** The rule that applies to this request, counting it against the rule's `times`. */
  take(method: string, path: string): FaultRule | null {
    const target = normalisePath(path);
    for (const entry of this.rules) {
      const { rule } = entry;
      if (entry.remaining !== undefined && entry.remaining <= 0) continue;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (rule.path !== undefined && normalisePath(rule.path) !== target) continue;
      const rate = rule.rate ?? 1;
      if (rate < 1 && this.random() >= rate) continue;
      if (entry.remaining !== undefined) entry.remaining -= 1;
      return rule;
    }
    return null;
  }
}
