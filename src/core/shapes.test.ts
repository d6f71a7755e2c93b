import { english } from '../i18n/said.js';
import { readWords, type ShapeKind, type ShapeOf, wordsCount, wordsInput, wordsUsage } from './shapes.js';

const OID = '6710b0000000000000000203';
const at = (name: string) => ({ name, usage: `/vidops ${name}`, options: { phoneRegion: 'IR' } });

/** One command of each shape, what its words read as, and what they give an operation's input. */
const EXAMPLES: {
  [K in ShapeKind]: { words: ShapeOf<K>; args: string[]; usage: string; input: Record<string, unknown> };
} = {
  none: { words: { kind: 'none' }, args: [], usage: '', input: {} },
  id: { words: { kind: 'id', resource: 'file' }, args: [OID], usage: '<fileId>', input: { fileId: OID } },
  mobile: {
    words: { kind: 'mobile' },
    args: ['0912', '345', '6789'],
    usage: '<mobile>',
    input: { mobileNumber: '09123456789' },
  },
  ips: {
    words: { kind: 'ips', change: 'remove' },
    args: ['1.2.3.4'],
    usage: '<ip>…',
    input: { change: 'remove', ips: ['1.2.3.4'] },
  },
  assignments: {
    words: { kind: 'assignments' },
    args: ['preventZoom=true'],
    usage: '<field>=<value>…',
    input: { changes: { preventZoom: true } },
  },
  count: { words: { kind: 'count' }, args: ['20'], usage: '[n]', input: {} },
  code: { words: { kind: 'code' }, args: ['9910'], usage: '<code>', input: {} },
  delegation: {
    words: { kind: 'delegation' },
    args: ['<@U0123ABCD|sara>', 'until', '2d'],
    usage: '<@user> until <date or duration> [reason]',
    input: {},
  },
  language: { words: { kind: 'language' }, args: ['fa'], usage: '[fa|en]', input: {} },
};

const examples = Object.entries(EXAMPLES);

describe('an agent types the words after a command', () => {
  it.each(examples)('%s: read as its usage says, and given to the operation', (kind, example) => {
    const { words, args, usage, input } = example;
    expect(wordsUsage(words)).toBe(usage);
    const read = readWords(words, args, at(kind));
    if (!read.ok) throw new Error(english(read.said));
    expect(wordsInput(words, read.value)).toEqual(input);
  });

  it.each(examples)('%s: too few or too many words are refused with the usage line', (kind, example) => {
    const { words, args } = example;
    const [fewest, most] = wordsCount(words);
    if (fewest > 0)
      expect(readWords(words, [], at(kind))).toMatchObject({ ok: false, usage: `/vidops ${kind}` });
    if (Number.isFinite(most)) {
      const more = [...args, ...Array.from({ length: most + 1 - args.length }, () => args[0] ?? 'x')];
      expect(readWords(words, more, at(kind))).toMatchObject({ ok: false, usage: `/vidops ${kind}` });
    }
  });
});
