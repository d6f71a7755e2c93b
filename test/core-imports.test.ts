import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The core is pure: it imports nothing from the client, the store or Slack, and no library that
 * talks to the outside. The pure parts of the operation modules (each `src/operations/<name>/spec.ts`,
 * the shared `spec.ts`, the list `specs.ts` and `common/by-name.ts`), which the core reads, are
 * held to the same rule. A static scan of every import in those files (tests included), so a file
 * that reaches outward fails here before it is ever run. A core test may read the message catalog
 * (`src/i18n/`, pure too) to check how a refusal reads; core code never does.
 * @see docs/architecture.md, "Architecture"
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORE = join(ROOT, 'src', 'core');
const OPERATIONS = join(ROOT, 'src', 'operations');

/** Whether `path` is a pure part of the operation modules: a `spec.ts`, `specs.ts` or `common/by-name.ts`. */
function isPureOperationFile(path: string): boolean {
  const rel = relative(OPERATIONS, path.replace(/\.js$/, '.ts')).split(sep).join('/');
  if (rel.startsWith('..')) return false;
  return /(^|\/)spec\.ts$/.test(rel) || rel === 'specs.ts' || rel === 'common/by-name.ts';
}

/** Libraries that do I/O (HTTP, Slack, databases, logging): the edges use them, never the core. */
const OUTWARD_PACKAGES: readonly RegExp[] = [/^@slack\//, /^got$/, /^pg$/, /^better-sqlite3$/, /^pino$/];

/** Every module a file names: static imports and re-exports, `import type`, and `import('…')`. */
function importedSpecifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gms,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) if (match[1] !== undefined) found.push(match[1]);
  }
  return found;
}

/** Why `specifier`, imported by the file at `path`, is not allowed in the core; null when it is. */
function outwardImport(path: string, specifier: string): string | null {
  if (specifier.startsWith('.')) {
    const target = relative(CORE, resolve(dirname(path), specifier));
    const wording = path.endsWith('.test.ts') && target.split(sep).join('/').startsWith('../i18n/');
    if (target.startsWith('..') && !wording && !isPureOperationFile(resolve(dirname(path), specifier))) {
      return `imports ${specifier}, which is outside src/core and the operations' specs (${relative(
        ROOT,
        resolve(dirname(path), specifier),
      )
        .split(sep)
        .join('/')})`;
    }
    return null;
  }
  return OUTWARD_PACKAGES.some((p) => p.test(specifier))
    ? `imports ${specifier}, a library of the edges`
    : null;
}

function coreFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return coreFiles(full);
    return entry.isFile() && entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the core stays pure', () => {
  it('no file in src/core imports from client/, store/, slack/, @slack/*, got or a database', () => {
    const files = [...coreFiles(CORE), ...coreFiles(OPERATIONS).filter(isPureOperationFile)];
    expect(files.length).toBeGreaterThan(10);
    const problems = files.flatMap((file) =>
      importedSpecifiers(readFileSync(file, 'utf8')).flatMap((specifier) => {
        const problem = outwardImport(file, specifier);
        return problem === null ? [] : [`${relative(ROOT, file).split(sep).join('/')}: ${problem}`];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('the scan sees the imports a core file could write', () => {
    const file = join(CORE, 'example.ts');
    const text = [
      "import type { VideoClient } from '../client/types.js';",
      "import {\n  openStore,\n} from '../store/index.js';",
      "export { App } from '@slack/bolt';",
      "import got from 'got';",
      "const lazy = await import('../slack/receiver.js');",
      "import { z } from 'zod';",
      "import { parseMobile } from './validate/phone.js';",
      "import { KEYWORDS } from './grammar.js';",
      "import { SPECS } from '../operations/specs.js';",
      "import { spec } from '../operations/folder-delete/spec.js';",
      "import { service } from '../operations/folder-delete/service.js';",
      "import { english } from '../i18n/said.js';",
    ].join('\n');
    const refused = importedSpecifiers(text).filter((s) => outwardImport(file, s) !== null);
    expect(refused.sort()).toEqual(
      [
        '../client/types.js',
        '../i18n/said.js',
        '../operations/folder-delete/service.js',
        '../slack/receiver.js',
        '../store/index.js',
        '@slack/bolt',
        'got',
      ].sort(),
    );
  });

  it('a core test may read the catalog to check how a refusal reads; core code may not', () => {
    const words = "import { english } from '../i18n/said.js';";
    expect(
      importedSpecifiers(words).filter((s) => outwardImport(join(CORE, 'grammar.test.ts'), s) !== null),
    ).toEqual([]);
    expect(
      importedSpecifiers(words).filter((s) => outwardImport(join(CORE, 'grammar.ts'), s) !== null),
    ).toEqual(['../i18n/said.js']);
  });
});
