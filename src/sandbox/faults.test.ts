import { FaultBook } from './faults.js';

describe('fault rules', () => {
  test('a request takes the first matching rule; method any case, trailing slash ignored', () => {
    const book = new FaultBook();
    book.replace([
      { path: '/v1/playlist/', method: 'put', status: 500 },
      { path: '/v1/playlist', status: 503 },
    ]);
    expect(book.take('PUT', '/v1/playlist')?.status).toBe(500);
    expect(book.take('DELETE', '/v1/playlist/')?.status).toBe(503);
    expect(book.take('GET', '/v1/playlist/all')).toBeNull();
  });

  test('a rule that loses its rate draw lets the next rule try', () => {
    const draws = [0.6, 0.4];
    const book = new FaultBook(() => draws.shift() ?? 1);
    book.replace([{ status: 500, rate: 0.5 }, { status: 502, rate: 0.5 }, { latencyMs: 10 }]);
    expect(book.take('GET', '/v1/x')?.status).toBe(502);
    expect(book.take('GET', '/v1/x')).toEqual({ latencyMs: 10 });
  });

  test('times counts down and the listing shows what is left', () => {
    const book = new FaultBook();
    book.replace([{ status: 500, times: 2 }]);
    expect(book.take('GET', '/v1/x')?.status).toBe(500);
    expect(book.list()).toEqual([{ status: 500, times: 1 }]);
    expect(book.take('GET', '/v1/x')?.status).toBe(500);
    expect(book.take('GET', '/v1/x')).toBeNull();
    expect(book.list()).toEqual([]);
  });

  test('replacing refuses an invalid rule and keeps the old ones', () => {
    const book = new FaultBook();
    book.replace([{ status: 500 }]);
    expect(() => book.replace([{ status: 500 }, { times: 0 }])).toThrow('rules[1].times: must be at least 1');
    expect(book.list()).toEqual([{ status: 500 }]);
  });
});
