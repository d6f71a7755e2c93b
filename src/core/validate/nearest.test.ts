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

  it('has nothing to suggest from no candidates', () => {
    expect(nearest('x', [])).toBeNull();
  });
});
