import { neutraliseBidi } from '../core/bidi.js';
import { OPERATION_SPECS } from '../core/catalog.js';
import { maskMobilesInText } from '../core/mask.js';
import type { ResolveWay } from '../core/model.js';
import { ENGLISH, type Lang, ltr } from '../i18n/index.js';
import type { ResolveResult } from '../services/types.js';
import { stateWordForText } from '../views/approval.js';
import { type Flags, stringFlag } from './args.js';

/**
 * `vidops resolve`: how a lead settles a request whose outcome is unknown, read from the flags,
 * and what the CLI says afterwards, in the CLI's language (`--lang`/`LANG`).
 * @see docs/architecture.md, "Approvals"
 */

const WAY_FLAGS = [
  ['check', 'check'],
  ['send-again', 'send-again'],
  ['applied', 'applied'],
  ['not-applied', 'not-applied'],
] as const satisfies readonly (readonly [keyof Flags, ResolveWay])[];

/** The one way the flags name, or why they do not (a usage error: nothing is opened or sent). */
export function resolveWayOf(
  flags: Flags,
  lang: Lang = ENGLISH,
): { ok: true; way: ResolveWay } | { ok: false; message: string } {
  const t = lang.t.resolve;
  const given = WAY_FLAGS.filter(([flag]) => flags[flag] === true).map(([, way]) => way);
  if (given.length !== 1) {
    return {
      ok: false,
      message: t.resolveOneWay(given.length > 1 ? t.resolveNotThese(given.map((w) => `--${w}`)) : ''),
    };
  }
  const way = given[0] as ResolveWay;
  const reason = stringFlag(flags, 'reason')?.trim() ?? '';
  if ((way === 'applied' || way === 'not-applied') && reason === '') {
    return { ok: false, message: t.resolveNeedsReason(`--${way}`) };
  }
  return { ok: true, way };
}

/** What `vidops resolve` prints: stdout lines when settled, or stderr lines and exit 1. */
export function resolveReport(
  result: ResolveResult,
  lang: Lang = ENGLISH,
): { code: 0 | 1; out: string[]; err: string[] } {
  const t = lang.t.resolve;
  if (result.kind === 'refused')
    return { code: 1, out: [], err: [`vidops: ${neutraliseBidi(maskMobilesInText(result.reason))}`] };
  const { request } = result;
  const what = t.resolveWhat(
    ltr(lang, request.id),
    lang.t.cli.cliOperationTitle(request.operation, OPERATION_SPECS[request.operation].title),
    ltr(lang, maskMobilesInText(request.target)),
  );
  if (result.kind === 'unsettled') {
    return {
      code: 1,
      out: [],
      err: [
        t.resolveStillUnknown(what, neutraliseBidi(maskMobilesInText(result.reason))),
        t.resolveNothingChanged,
      ],
    };
  }
  const record =
    request.result !== null && typeof request.result === 'object' && !Array.isArray(request.result)
      ? request.result
      : {};
  const outcome =
    request.state === 'failed'
      ? (request.error?.message ?? t.resolveNotApplied)
      : typeof record.outcome === 'string'
        ? record.outcome
        : t.resolveApplied;
  // English names the state as the log does (`succeeded`); Persian in words.
  const state = stateWordForText(request.state, lang);
  return {
    code: 0,
    out: [t.resolveSettled(what, maskMobilesInText(outcome), state)],
    err: [],
  };
}
