import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository stands alone: a fresh clone with nothing beside it installs, tests and reads
 * completely. Nothing may read or cite a file outside it, every docs citation in a comment must
 * name a doc and a heading that exist, and every relative link in the Markdown must lead somewhere.
 * @see docs/architecture.md, "Architecture"
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Directories that are not part of the repository's content (installed, built or local data). */
const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist', 'coverage', 'data']);
/** Local files git ignores: a developer's secrets and logs are not the repository. */
const SKIP_FILE = (name: string) => name === '.env' || name.endsWith('.log');
const CODE_EXTENSIONS = new Set(['.ts', '.js', '.cjs', '.mjs']);

interface RepoFile {
  /** Relative to the root, with forward slashes. */
  path: string;
  text: string;
}

function walk(dir: string, out: RepoFile[]): RepoFile[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walk(full, out);
      continue;
    }
    if (!entry.isFile() || SKIP_FILE(entry.name)) continue;
    const bytes = readFileSync(full);
    if (bytes.includes(0)) continue; // binary
    out.push({ path: relative(ROOT, full).split(sep).join('/'), text: bytes.toString('utf8') });
  }
  return out;
}

const FILES = walk(ROOT, []);

/** One problem, where it is. */
interface Finding {
  file: string;
  line: number;
  problem: string;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function isInside(path: string): boolean {
  const rel = relative(ROOT, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

// ---------------------------------------------------------------------------------------------
// (a) Nothing reads or cites a path outside the repository.

/** Names of the design material that lives outside the repository; the repository has docs/. */
const OUTSIDE_DOCUMENTS: readonly RegExp[] = [
  /\.\.\/shared\b/,
  /\bshared\/(?:DESIGN\.md|spec\b|slack\b)/,
  /\bDESIGN\.md\b/,
  /\bSTYLE\.md\b/,
  /\bvideo-protection-api\.md\b/,
  /\bupstream-extras\.md\b/,
];

function outsideMentions(file: RepoFile): Finding[] {
  const found: Finding[] = [];
  for (const pattern of OUTSIDE_DOCUMENTS) {
    const global = new RegExp(pattern.source, 'g');
    for (const match of file.text.matchAll(global)) {
      found.push({
        file: file.path,
        line: lineOf(file.text, match.index),
        problem: `mentions "${match[0]}", which is outside the repository`,
      });
    }
  }
  return found;
}

const STRING = String.raw`(?:'([^'\n]*)'|"([^"\n]*)"|\x60([^\x60$\n]*)\x60)`;

function literal(text: string): string | null {
  const match = new RegExp(`^${STRING}$`).exec(text.trim());
  if (!match) return null;
  return match[1] ?? match[2] ?? match[3] ?? null;
}

/** The text between the parenthesis at `open` and its partner, or null when unbalanced. */
function balanced(text: string, open: number): string | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return null;
}

/** Splits call arguments at top-level commas. */
function splitArgs(args: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(args.slice(start, i));
      start = i + 1;
    }
  }
  out.push(args.slice(start));
  return out.map((a) => a.trim()).filter((a) => a !== '');
}

/**
 * Paths a code file builds from string literals, resolved statically: `new URL(lit,
 * import.meta.url)`, `join`/`resolve` from the file's own location or the working directory (the
 * root when tests run), relative module specifiers, and fs calls given a relative literal.
 */
function pathsBuilt(file: RepoFile): { path: string; index: number; written: string }[] {
  const here = resolve(ROOT, file.path);
  const dir = dirname(here);
  const text = file.text;
  const found: { path: string; index: number; written: string }[] = [];

  for (const m of text.matchAll(
    new RegExp(String.raw`new URL\(\s*${STRING}\s*,\s*import\.meta\.url\s*\)`, 'g'),
  )) {
    const lit = m[1] ?? m[2] ?? m[3] ?? '';
    found.push({ path: fileURLToPath(new URL(lit, `file://${here}`)), index: m.index, written: m[0] });
  }

  for (const m of text.matchAll(/\b(?:path\.)?(?:join|resolve)\(/g)) {
    const inner = balanced(text, m.index + m[0].length - 1);
    if (inner === null) continue;
    const [base, ...rest] = splitArgs(inner);
    if (base === undefined || rest.length === 0) continue;
    const parts = rest.map(literal);
    if (parts.some((p) => p === null)) continue;
    let from: string;
    if (/process\.cwd\(\)/.test(base)) from = ROOT;
    else if (/__dirname|import\.meta\.dirname|\bdirname\(/.test(base)) from = dir;
    else if (/import\.meta\.url|__filename|import\.meta\.filename/.test(base)) from = here;
    else continue;
    found.push({ path: resolve(from, ...(parts as string[])), index: m.index, written: `${m[0]}${inner})` });
  }

  const specifiers = new RegExp(
    String.raw`(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)${STRING}`,
    'gm',
  );
  for (const m of text.matchAll(specifiers)) {
    const lit = m[1] ?? m[2] ?? m[3] ?? '';
    if (lit.startsWith('./') || lit.startsWith('../')) {
      found.push({ path: resolve(dir, lit), index: m.index, written: lit });
    }
  }

  const fsCalls = new RegExp(
    String.raw`\b(?:readFileSync|readFile|existsSync|readdirSync|readdir|statSync|stat|createReadStream|opendir|access|accessSync)\(\s*${STRING}`,
    'g',
  );
  for (const m of text.matchAll(fsCalls)) {
    const lit = m[1] ?? m[2] ?? m[3] ?? '';
    if (lit.startsWith('.')) found.push({ path: resolve(ROOT, lit), index: m.index, written: m[0] });
  }
  return found;
}

function climbingPaths(file: RepoFile): Finding[] {
  if (!CODE_EXTENSIONS.has(extname(file.path))) return [];
  return pathsBuilt(file)
    .filter((p) => !isInside(p.path))
    .map((p) => ({
      file: file.path,
      line: lineOf(file.text, p.index),
      problem: `${p.written} reaches ${p.path}, outside the repository`,
    }));
}

// ---------------------------------------------------------------------------------------------
// (b) Every docs citation names a doc and a heading that exist.

/** Headings of a Markdown text, outside fenced code. */
function headings(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f?.[1]) {
      if (fence === null) fence = f[1][0] ?? null;
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (h?.[1]) out.push(h[1]);
  }
  return out;
}

interface Citation {
  doc: string;
  sections: string[];
  line: number;
}

/** The double-quoted strings of `text` that stand outside parentheses; quotes keep `(` literal. */
function quotedOutsideParentheses(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  for (const c of text) {
    if (quote !== null) {
      if (c === '"') {
        out.push(quote);
        quote = null;
      } else quote += c;
    } else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '"' && depth === 0) quote = '';
  }
  return out.filter((q) => q !== '');
}

const DOC_MENTION = /(?<![\w./-])docs\/([a-z0-9-]+)\.md\b/g;

/**
 * The docs a text cites. A mention followed by a comma and a quoted name cites sections: every
 * quoted name after it on the line, up to the next docs mention, except those in parentheses
 * (remarks such as `(extras answering 404 are "not supported")`).
 */
function citations(text: string): Citation[] {
  const out: Citation[] = [];
  text.split('\n').forEach((line, i) => {
    const mentions = [...line.matchAll(DOC_MENTION)];
    mentions.forEach((m, k) => {
      const end = m.index + m[0].length;
      const next = mentions[k + 1]?.index ?? line.length;
      const segment = line.slice(end, next);
      const sections: string[] = [];
      if (/^,\s*"/.test(segment)) sections.push(...quotedOutsideParentheses(segment));
      out.push({ doc: `docs/${m[1]}.md`, sections, line: i + 1 });
    });
  });
  return out;
}

function brokenCitations(file: RepoFile, docs: ReadonlyMap<string, readonly string[]>): Finding[] {
  const found: Finding[] = [];
  for (const c of citations(file.text)) {
    const titles = docs.get(c.doc);
    if (titles === undefined) {
      found.push({ file: file.path, line: c.line, problem: `cites ${c.doc}, which does not exist` });
      continue;
    }
    for (const section of c.sections) {
      if (!titles.includes(section)) {
        found.push({
          file: file.path,
          line: c.line,
          problem: `cites ${c.doc}, "${section}": no such heading`,
        });
      }
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// (c) Every relative link in the Markdown leads to a file (and heading) in the repository.

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Link targets of a Markdown text, outside fenced and inline code. */
function linkTargets(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((raw, i) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (f?.[1]) {
      if (fence === null) fence = f[1][0] ?? null;
      else if (f[1][0] === fence) fence = null;
      return;
    }
    if (fence !== null) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (m[1]) out.push({ target: m[1], line: i + 1 });
    }
    const ref = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (ref?.[1]) out.push({ target: ref[1], line: i + 1 });
  });
  return out;
}

function brokenLinks(file: RepoFile, read: (path: string) => string | null): Finding[] {
  const found: Finding[] = [];
  const here = resolve(ROOT, file.path);
  for (const { target, line } of linkTargets(file.text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:…
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? null : target.slice(hash + 1);
    const dest = pathPart === '' ? here : resolve(dirname(here), pathPart);
    if (!isInside(dest)) {
      found.push({ file: file.path, line, problem: `links to ${target}, outside the repository` });
      continue;
    }
    const text = read(dest);
    if (text === null) {
      found.push({ file: file.path, line, problem: `links to ${target}, which does not exist` });
      continue;
    }
    if (anchor !== null && anchor !== '' && dest.endsWith('.md')) {
      if (!headings(text).some((h) => slug(h) === anchor.toLowerCase())) {
        found.push({ file: file.path, line, problem: `links to ${target}: no heading has that anchor` });
      }
    }
  }
  return found;
}

/** Contents of a file in the working tree ('' for a directory), or null when it is missing. */
function readFromDisk(path: string): string | null {
  if (!existsSync(path)) return null;
  return statSync(path).isDirectory() ? '' : readFileSync(path, 'utf8');
}

const DOCS: ReadonlyMap<string, readonly string[]> = new Map(
  FILES.filter((f) => /^docs\/[^/]+\.md$/.test(f.path)).map((f) => [f.path, headings(f.text)]),
);

function report(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.file}:${f.line}: ${f.problem}`);
}

describe('a fresh clone needs nothing beside the repository', () => {
  it('the walk sees the whole repository (a check over no files would prove nothing)', () => {
    const paths = FILES.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['README.md', 'src/app.ts', 'test/standalone.test.ts', 'docs/architecture.md']),
    );
    expect(paths.some((p) => p.startsWith('node_modules/'))).toBe(false);
    expect(FILES.length).toBeGreaterThan(150);
  });

  it('no file mentions the design material outside the repository', () => {
    expect(report(FILES.flatMap(outsideMentions))).toEqual([]);
  });

  it('no code builds a path that climbs above the repository root', () => {
    const built = FILES.filter((f) => CODE_EXTENSIONS.has(extname(f.path))).flatMap(pathsBuilt);
    // The tests do read fixtures and the manifest by such paths; they must all have been seen.
    expect(built.length).toBeGreaterThan(100);
    expect(report(FILES.flatMap(climbingPaths))).toEqual([]);
  });

  it('every docs citation in the code names a doc and a heading that exist', () => {
    const cited = FILES.flatMap((f) => citations(f.text));
    expect(cited.filter((c) => c.sections.length > 0).length).toBeGreaterThan(100);
    expect([...DOCS.keys()].sort()).toEqual(
      expect.arrayContaining(['docs/api-extras.md', 'docs/api.md', 'docs/architecture.md', 'docs/slack.md']),
    );
    expect(report(FILES.flatMap((f) => brokenCitations(f, DOCS)))).toEqual([]);
  });

  it('every relative link in the README and the docs leads to a file and heading that exist', () => {
    const markdown = FILES.filter((f) => f.path.endsWith('.md'));
    expect(markdown.map((f) => f.path)).toEqual(expect.arrayContaining(['README.md', 'docs/api.md']));
    expect(markdown.flatMap((f) => linkTargets(f.text)).length).toBeGreaterThan(10);
    expect(report(markdown.flatMap((f) => brokenLinks(f, readFromDisk)))).toEqual([]);
  });
});

describe('the checks catch what they are there to catch', () => {
  // Samples are assembled from pieces so that this file does not itself trip the checks above.
  const up = ['..', '..'].join('/');
  const docRef = (name: string) => ['docs', `${name}.md`].join('/');

  it('a test that reads the design brief from a folder beside the clone is reported', () => {
    const sample: RepoFile = {
      path: 'test/sample.test.ts',
      text: `const spec = readFileSync('${['..', 'shared', 'spec', 'api.md'].join('/')}');\n// see ${['STYLE', 'md'].join('.')}\n`,
    };
    expect(report(outsideMentions(sample)).map((line) => line.split(': ')[0])).toEqual([
      'test/sample.test.ts:1',
      'test/sample.test.ts:1',
      'test/sample.test.ts:2',
    ]);
  });

  it('a fixture read from above the root, in any of the usual spellings, is reported', () => {
    const sample: RepoFile = {
      path: 'test/e2e/sample.test.ts',
      text: [
        `const a = new URL('${up}/${up}/fixtures/x.json', import.meta.url);`,
        `const b = resolve(dirname(fileURLToPath(import.meta.url)), '${up}', '..', 'x');`,
        `const c = join(__dirname, '${up}', '..');`,
        `import d from '${up}/${up}/x.js';`,
        `const e = readFileSync('${up}/x.json');`,
        `const fine = new URL('../fixtures/slack/payloads/', import.meta.url);`,
        `const alsoFine = resolve(dirname(fileURLToPath(import.meta.url)), '${up}');`,
      ].join('\n'),
    };
    expect(report(climbingPaths(sample)).map((line) => line.split(':')[1])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
  });

  it('a comment citing a heading that is not there, or a doc that is not there, is reported', () => {
    const docs = new Map([[docRef('architecture'), ['Approvals', 'Audit log', 'Scale', 'Folder (bucket)']]]);
    const sample: RepoFile = {
      path: 'src/sample.ts',
      text: [
        `/** @see ${docRef('architecture')}, "Approvals" (states) and "Audit log"; ${docRef('architecture')}, "Scale" */`,
        `/** @see ${docRef('architecture')}, "Approvals", "Sandbox" and "Audit log" */`,
        `/** @see ${docRef('missing')}, "Anything" */`,
        `/** @see ${docRef('architecture')} (whose links say "not a section") */`,
        `/** @see ${docRef('architecture')}, "Folder (bucket)" (ops 5 to 7, "not a section") and "Folder" */`,
      ].join('\n'),
    };
    expect(report(brokenCitations(sample, docs))).toEqual([
      `src/sample.ts:2: cites ${docRef('architecture')}, "Sandbox": no such heading`,
      `src/sample.ts:3: cites ${docRef('missing')}, which does not exist`,
      `src/sample.ts:5: cites ${docRef('architecture')}, "Folder": no such heading`,
    ]);
  });

  it('a README link to a file or heading that is not there is reported', () => {
    const gone = docRef('gone');
    const design = `${up}/${['shared', ['DESIGN', 'md'].join('.')].join('/')}`;
    const files = new Map([
      [resolve(ROOT, 'docs/api.md'), '# API\n\n## Endpoints\n\n## Protection configuration (storage-wide)\n'],
    ]);
    const read = (path: string) => files.get(path) ?? null;
    const sample: RepoFile = {
      path: 'README.md',
      text: [
        '- [API](docs/api.md), [its endpoints](docs/api.md#endpoints)',
        '- [settings](docs/api.md#protection-configuration-storage-wide)',
        `- [gone](${gone}) and [no heading](docs/api.md#errors)`,
        `- [outside](${design}) and [web](https://example.com/x.md)`,
        '```',
        `[inside a code block](${docRef('ignored')})`,
        '```',
      ].join('\n'),
    };
    expect(report(brokenLinks(sample, read))).toEqual([
      `README.md:3: links to ${gone}, which does not exist`,
      'README.md:3: links to docs/api.md#errors: no heading has that anchor',
      `README.md:4: links to ${design}, outside the repository`,
    ]);
  });
});
