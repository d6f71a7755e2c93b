import { OPERATION_SPECS } from '../core/catalog.js';
import { maskMobilesInText } from '../core/mask.js';
import type { ResolveWay } from '../core/model.js';
import type { ResolveResult } from '../services/types.js';
import { type Flags, stringFlag } from './args.js';

/**
 * `vidops resolve`: how a lead settles a request whose outcome is unknown, read from the flags,
 * and what the CLI says afterwards.
 * @see docs/architecture.md, "Approvals"
 */

const WAY_FLAGS = [
  ['check', 'check'],
  ['send-again', 'send-again'],
  ['applied', 'applied'],
  ['not-applied', 'not-applied'],
] as const satisfies readonly (readonly [keyof Flags, ResolveWay])[];

/** The one way the flags name, or why they do not (a usage error: nothing is opened or sent). */
export function resolveWayOf(flags: Flags): { ok: true; way: ResolveWay } | { ok: false; message: string } {
  const given = WAY_FLAGS.filter(([flag]) => flags[flag] === true).map(([, way]) => way);
  if (given.length !== 1) {
    return {
      ok: false,
      message: `Say how to settle it with exactly one of --check, --send-again, --applied or --not-applied${given.length > 1 ? `, not ${given.map((w) => `--${w}`).join(' and ')}` : ''}.`,
    };
  }
  const way = given[0] as ResolveWay;
  const reason = stringFlag(flags, 'reason')?.trim() ?? '';
  if ((way === 'applied' || way === 'not-applied') && reason === '') {
    return { ok: false, message: `--${way} needs --reason "…": what you found on the service.` };
  }
  return { ok: true, way };
}

/** What `vidops resolve` prints: stdout lines when settled, or stderr lines and exit 1. */
export function resolveReport(result: ResolveResult): { code: 0 | 1; out: string[]; err: string[] } {
  if (result.kind === 'refused')
    return { code: 1, out: [], err: [`vidops: ${maskMobilesInText(result.reason)}`] };
  const { request } = result;
  const what = `${request.id} (${OPERATION_SPECS[request.operation].title}: ${maskMobilesInText(request.target)})`;
  if (result.kind === 'unsettled') {
    return {
      code: 1,
      out: [],
      err: [
        `vidops: ${what} is still unknown: ${maskMobilesInText(result.reason)}`,
        'Nothing was changed by this.',
      ],
    };
  }
  const record =
    request.result !== null && typeof request.result === 'object' && !Array.isArray(request.result)
      ? request.result
      : {};
  const outcome =
    request.state === 'failed'
      ? (request.error?.message ?? 'not applied')
      : typeof record.outcome === 'string'
        ? record.outcome
        : 'applied';
  return {
    code: 0,
    out: [`Settled ${what}: ${maskMobilesInText(outcome)}; it is now ${request.state}.`],
    err: [],
  };
}
