import { editDistance, nearest } from './nearest.js';

describe('did-you-mean suggestions', () => {
  it.each([
    ['unblok', 'unblock', 1],
    ['whitelsit', 'whitelist', 1],
    ['OPACTIY', 'opacity', 1],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
  ])('%s to %s takes %i edit(s)', (a, b, distance) => {
    expect(editDistance(a.toLowerCase(), b)).toBe(distance);
  });

  it('picks the closest candidate, case-insensitively', () => {
    expect(nearest('FontColour', ['fontSize', 'fontColor', 'opacity'])).toEqual({
      value: 'fontColor',
      distance: 1,
    });
  });

  it('counts as the whole table does, for every pair of short words', () => {
    // The table in full, as the distance was first written: the rows kept now must agree with it.
    const whole = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      const at = (i: number, j: number) => d[i]?.[j] ?? 0;
      for (let i = 1; i <= a.length; i += 1) {
        for (let j = 1; j <= b.length; j += 1) {
          let value = Math.min(
            at(i - 1, j) + 1,
            at(i, j - 1) + 1,
            at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
            value = Math.min(value, at(i - 2, j - 2) + 1);
          }
          (d[i] as number[])[j] = value;
        }
      }
      return at(a.length, b.length);
    };
    const words = [''];
    for (let length = 1; length <= 4; length += 1) {
      for (const w of words.filter((x) => x.length === length - 1)) words.push(`${w}a`, `${w}b`, `${w}c`);
    }
    for (const a of words) for (const b of words) expect(editDistance(a, b)).toBe(whole(a, b));
    expect(words).toHaveLength(121);
  });

  it('has nothing to suggest from no candidates', () => {
    expect(nearest('x', [])).toBeNull();
  });
});
