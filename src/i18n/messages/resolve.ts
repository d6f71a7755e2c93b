import { defineArea } from '../define.js';
import { FSI, PDI } from '../format.js';

/**
 * `vidops resolve`: how a lead settles a request whose outcome is unknown, the usage errors of
 * its flags and what the CLI says afterwards. IDs, targets and reasons arrive isolated and masked.
 * @see docs/architecture.md, "Languages"
 */

/** A fixed left-to-right token inside Persian text. */
const iso = (token: string): string => `${FSI}${token}${PDI}`;

export const resolve = defineArea(
  {
    resolveOneWay: (notThese: string) =>
      `Say how to settle it with exactly one of --check, --send-again, --applied or --not-applied${notThese}.`,
    resolveNotThese: (flags: readonly string[]) => `, not ${flags.join(' and ')}`,
    resolveNeedsReason: (flag: string) => `${flag} needs --reason "…": what you found on the service.`,
    resolveWhat: (id: string, title: string, target: string) => `${id} (${title}: ${target})`,
    resolveStillUnknown: (what: string, reason: string) => `vidops: ${what} is still unknown: ${reason}`,
    resolveNothingChanged: 'Nothing was changed by this.',
    resolveApplied: 'applied',
    resolveNotApplied: 'not applied',
    resolveSettled: (what: string, outcome: string, state: string) =>
      `Settled ${what}: ${outcome}; it is now ${state}.`,
  },
  {
    resolveOneWay: (notThese) =>
      `بگویید چطور روشن شود، دقیقاً با یکی از ${iso('--check')}، ${iso('--send-again')}، ${iso('--applied')} یا ${iso('--not-applied')}${notThese}.`,
    resolveNotThese: (flags) => `، نه ${flags.map(iso).join(' و ')}`,
    resolveNeedsReason: (flag) => `${iso(flag)} به ${iso('--reason "…"')} نیاز دارد: آنچه در سرویس دیدید.`,
    resolveWhat: (id, title, target) => `${id} (${title}: ${target})`,
    resolveStillUnknown: (what, reason) => `vidops: نتیجه‌ی ${what} هنوز نامعلوم است: ${reason}`,
    resolveNothingChanged: 'این کار چیزی را تغییر نداد.',
    resolveApplied: 'انجام شده',
    resolveNotApplied: 'انجام نشده',
    resolveSettled: (what, outcome, state) => `وضعیت ${what} روشن شد: ${outcome}؛ اکنون «${state}» است.`,
  },
);
