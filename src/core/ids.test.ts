import { newEventId, newRequestId, normalizeRequestId, REQUEST_ID_PATTERN } from './ids.js';

describe('request IDs', () => {
  test('a new request ID is R- and 8 Crockford base32 characters, and 1,000 of them are distinct', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(REQUEST_ID_PATTERN);
    expect(new Set(ids).size).toBe(1000);
  });

  test.each([
    ['R-7QK2M9XD', 'R-7QK2M9XD'],
    ['  r-7qk2m9xd ', 'R-7QK2M9XD'],
    ['`R-7QK2M9XD`', 'R-7QK2M9XD'],
    ['7qk2m9xd', 'R-7QK2M9XD'],
    // One ID in 32 begins with R: typed without its R-, that R is the ID's own.
    ['rk2m9qxa', 'R-RK2M9QXA'],
    ['R-RK2M9QXA', 'R-RK2M9QXA'],
    ['rrk2m9qxa', 'R-RK2M9QXA'],
    ['r rk2m9qxa', 'R-RK2M9QXA'],
    ['R-O0IL0000', 'R-00110000'],
    ['R-7QK2M9X', null],
    ['R-7QK2M9XU', null],
    ['R-7QK2 M9XD', null],
  ])('an agent types %j: read as %j', (typed, expected) => {
    expect(normalizeRequestId(typed)).toBe(expected);
  });

  test('event IDs are UUIDs', () => {
    expect(newEventId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
