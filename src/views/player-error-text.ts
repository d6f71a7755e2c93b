import {
  PLAYER_ERROR_CODES,
  type PlayerErrorEntry,
  type PlayerErrorExplanation,
} from '../core/player-errors.js';
import type { Lang } from '../i18n/index.js';

/**
 * A player error's meaning and fix in the reader's language, by the entry's first code. The core
 * keeps its English table (src/core/player-errors.ts); a code the catalog does not know yet reads
 * as the core says it.
 * @see docs/architecture.md, "Languages"
 */
export function playerErrorText(
  entry: Pick<PlayerErrorEntry, 'from' | 'meaning' | 'fix'>,
  lang: Lang,
): { meaning: string; fix: string } {
  // English is the core's own text (the catalog's English side is the same, word for word).
  if (lang.locale === 'en') return { meaning: entry.meaning, fix: entry.fix };
  const t = lang.t.player;
  const table: Readonly<Record<number, readonly [string, string]>> = {
    9999: [t.playerError9999Meaning, t.playerError9999Fix],
    9910: [t.playerError9910Meaning, t.playerError9910Fix],
    9199: [t.playerError9199Meaning, t.playerError9199Fix],
    9196: [t.playerError9196Meaning, t.playerError9196Fix],
    9195: [t.playerError9195Meaning, t.playerError9195Fix],
    9150: [t.playerError9150Meaning, t.playerError9150Fix],
    9104: [t.playerError9104Meaning, t.playerError9104Fix],
    9103: [t.playerError9103Meaning, t.playerError9103Fix],
    9102: [t.playerError9102Meaning, t.playerError9102Fix],
    9101: [t.playerError9101Meaning, t.playerError9101Fix],
    2001: [t.playerError2001Meaning, t.playerError2001Fix],
    1466: [t.playerError1466Meaning, t.playerError1466Fix],
    1457: [t.playerError1457Meaning, t.playerError1457Fix],
    1014: [t.playerError1014Meaning, t.playerError1014Fix],
    8001: [t.playerError8001Meaning, t.playerError8001Fix],
    7443: [t.playerError7443Meaning, t.playerError7443Fix],
  };
  const found = table[entry.from];
  return found === undefined
    ? { meaning: entry.meaning, fix: entry.fix }
    : { meaning: found[0], fix: found[1] };
}

/** The same for an explained code (`9105` reads as its entry `9104, 9105`). */
export function explanationText(
  explanation: Pick<PlayerErrorExplanation, 'code' | 'meaning' | 'fix'>,
  lang: Lang,
): { meaning: string; fix: string } {
  const value = Number(explanation.code);
  const entry = PLAYER_ERROR_CODES.find((e) => value >= e.from && value <= e.to);
  return entry === undefined
    ? { meaning: explanation.meaning, fix: explanation.fix }
    : playerErrorText({ from: entry.from, meaning: explanation.meaning, fix: explanation.fix }, lang);
}
