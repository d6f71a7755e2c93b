import { canonicalJson, canonicalMembers, joinMembers, quotedKeyCount, repeatedMember } from './json.js';

describe('canonical JSON written member by member', () => {
  const samples: Record<string, unknown>[] = [
    {},
    { b: 1, a: 'x' },
    { type: 'requested', actor: { id: 'U1', name: 'ann' }, params: { mobileNumber: '09123456789' } },
    { nested: { z: [1, { y: null, x: undefined }], a: -0 }, gone: undefined, ü: 'Ω', A: true },
    { '': 'empty key', ' ': 'space', 'a"b': 'quote in a key' },
  ];

  it('gives the same text as canonicalJson for every object', () => {
    for (const sample of samples) {
      expect(joinMembers(canonicalMembers(sample))).toBe(canonicalJson(sample));
    }
  });

  it('puts added members in their sorted places, as if they had been in the object', () => {
    for (const sample of samples) {
      const extra = { seq: 42, prevHash: 'ab'.repeat(32) };
      expect(joinMembers(canonicalMembers(sample), extra)).toBe(canonicalJson({ ...sample, ...extra }));
    }
  });

  it('refuses a member given twice rather than writing it twice', () => {
    expect(() => joinMembers(canonicalMembers({ seq: 1 }), { seq: 2 })).toThrow(/"seq" is given twice/);
  });

  it('orders the keys of small and large objects by UTF-16 code unit, whatever order they came in', () => {
    // Code units, not code points: the emoji's high surrogate (U+D83D) comes before U+FF5E.
    const keys = ['b', 'B', 'a', 'aa', 'a0', '_', '~', 'é', 'ü', '\u{1F600}', '\uFF5E', 'Z', 'z9', 'z10', ''];
    const expected = (ks: readonly string[]) =>
      `{${[...ks]
        .sort()
        .map((k) => `${JSON.stringify(k)}:${JSON.stringify(k.length)}`)
        .join(',')}}`;
    const many = [...keys, ...Array.from({ length: 40 }, (_, i) => `k${(i * 7) % 40}`)];
    for (const ks of [
      keys,
      [...keys].reverse(),
      keys.slice(3).concat(keys.slice(0, 3)),
      many,
      [...many].reverse(),
    ]) {
      const object = Object.fromEntries(ks.map((k) => [k, k.length]));
      expect(canonicalJson(object)).toBe(expected(ks));
      expect(joinMembers(canonicalMembers(object))).toBe(expected(ks));
    }
  });

  it('keeps nothing of a service answer whose keys are huge, once it is written', () => {
    // An answer is up to 1 MiB and is stored as the request's result: keys quoted and kept for
    // later would hold each such key (twice) for the life of the process.
    const short = `kept-${Date.now()}`;
    const before = quotedKeyCount();
    expect(canonicalJson({ [short]: 1 })).toBe(`{"${short}":1}`);
    expect(quotedKeyCount()).toBe(before + 1);
    for (let i = 0; i < 64; i += 1) {
      const key = `${i}:${'k'.repeat(1 << 20)}`;
      expect(canonicalJson({ [key]: i })).toBe(`{"${key}":${i}}`);
    }
    expect(quotedKeyCount()).toBe(before + 1);
  });

  it('writes keys of any number of objects the same way, past what it keeps quoted', () => {
    const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}"`, i]));
    expect(joinMembers(canonicalMembers(many))).toBe(
      JSON.stringify(
        Object.fromEntries(
          Object.keys(many)
            .sort()
            .map((k) => [k, many[k]]),
        ),
      ),
    );
  });
});

describe('a member written twice in an exported line', () => {
  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"a":1,"b":{"c":1,"c":2}}', 'c'],
    ['{"x":[{"k":1},{"k":2,"k":3}]}', 'k'],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['{"s":"a \\" quote, {\\"s\\": and a brace }","s":2}', 's'],
  ])('%s names %p', (text, name) => {
    expect(repeatedMember(text)).toBe(name);
  });

  it.each([
    '{"a":1,"b":2}',
    '{"a":{"a":{"a":1}}}',
    '[{"k":1},{"k":2}]',
    '{"s":"\\"s\\":1","t":["s","s"]}',
    '{ "b" : 2 , "a" : 1 }',
    '"a"',
    '[]',
  ])('%s has none', (text) => {
    expect(repeatedMember(text)).toBeNull();
  });
});
