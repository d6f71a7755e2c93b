/**
 * "Did you mean …": the candidate closest to what was typed, by edit distance (case-insensitive).
 * Used for unknown commands and unknown protection settings.
 */
export function nearest(
  typed: string,
  candidates: readonly string[],
): { value: string; distance: number } | null {
  const needle = typed.toLowerCase();
  let best: { value: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(needle, candidate.toLowerCase());
    if (best === null || distance < best.distance) best = { value: candidate, distance };
  }
  return best;
}

/**
 * Levenshtein distance with adjacent transpositions counted as one edit ("opactiy" → "opacity").
 * Three rows of the table are kept at a time (a transposition looks two rows back), so a pasted
 * page of text costs its length times the candidate's, in time, and the candidate's in memory.
 */
export function editDistance(a: string, b: string): number {
  let twoBack = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (twoBack[j - 2] ?? 0) + 1);
      }
      current[j] = value;
    }
    [twoBack, previous, current] = [previous, current, twoBack];
  }
  return previous[b.length] ?? 0;
}
