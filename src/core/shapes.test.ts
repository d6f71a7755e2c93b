import { langFor } from '../i18n/lang.js';
import { english, sayWith } from '../i18n/said.js';
import { say } from './said.js';
import {
  readWords,
  type ShapeKind,
  type ShapeOf,
  type WordsSpec,
  type WordsValue,
  wordsCount,
  wordsInput,
  wordsUsage,
} from './shapes.js';

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

/** A test-only command that moves a file into a folder: two IDs joined by a fixed word. */
const MOVE = {
  kind: 'id',
  resource: 'file',
  and: [{ word: 'to', resource: 'folder' }],
} as const satisfies WordsSpec;
const FOLDER = '6710a0000000000000000101';
// Compiles only while the two IDs are typed, each under its own name.
const moved: WordsValue<typeof MOVE> = { fileId: OID, bucketId: FOLDER };
const TWO_IDS: { words: WordsSpec; args: string[]; usage: string; input: Record<string, unknown> } = {
  words: MOVE,
  args: [OID, 'to', FOLDER],
  usage: '<fileId> to <bucketId>',
  input: moved,
};

const examples = [...Object.entries(EXAMPLES), ['id, to another ID', TWO_IDS] as const];

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

describe('an agent gives two IDs joined by a word', () => {
  const read = (args: string[]) => readWords(MOVE, args, at('file move'));
  const persian = (said: Parameters<typeof english>[0]) => sayWith(langFor('fa').t.errors, said);

  it('reads each ID under its own name, the joining word in any case', () => {
    const both = read([OID, 'TO', FOLDER]);
    if (!both.ok) throw new Error(english(both.said));
    const value: { fileId: string; bucketId: string } = both.value;
    expect(value).toEqual({ fileId: OID, bucketId: FOLDER });
    expect(wordsCount(MOVE)).toEqual([3, 3]);
  });

  it.each([
    ['only the first ID', [OID]],
    ['the joining word without the second ID', [OID, 'to']],
  ])('%s: refused, naming the folder ID that is missing, in English and Persian', (_, args) => {
    const refused = read(args);
    expect(refused).toEqual({
      ok: false,
      said: say.grammarNoId('folder', 'bucketId'),
      usage: '/vidops file move',
    });
    if (refused.ok) return;
    expect(english(refused.said)).toBe('Give the folder ID (bucketId).');
    expect(persian(refused.said)).toContain('پوشه');
  });

  it('the first ID missing: refused, naming the file ID', () => {
    expect(read(['to', FOLDER])).toMatchObject({ ok: false, said: say.grammarNoId('file', 'fileId') });
  });

  it('a second ID of the wrong shape is warned about as a command of one ID warns', () => {
    const both = read([OID, 'to', 'photos']);
    const alone = readWords({ kind: 'id', resource: 'folder' }, ['photos'], at('file move'));
    if (!both.ok || !alone.ok) throw new Error('read with a warning');
    expect(both.warnings).toEqual(alone.warnings);
    expect(both.warnings).toHaveLength(1);
  });
});
