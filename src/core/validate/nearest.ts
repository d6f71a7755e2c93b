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

/** Levenshtein distance with adjacent transpositions counted as one edit ("opactiy" → "opacity"). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      const row = d[i];
      if (row !== undefined) row[j] = value;
    }
  }
  return at(a.length, b.length);
}
