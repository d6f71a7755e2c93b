import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEMO } from '../src/sandbox/demo-data.js';

/** What the benchmarks share: the project's folder, dist/ built and loaded, `--rounds`, a median. */

/** The project's folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds dist/ as `npm start` runs it (`tsc -p tsconfig.build.json`), so that a benchmark measures
 * the JavaScript production runs rather than tsx's.
 */
let built = false;

export function buildDist(): void {
  // Once a run: `npm run bench` runs several benchmarks that each want it.
  if (built) return;
  built = true;
  console.log('building dist/ (tsc -p tsconfig.build.json) …');
  execFileSync(
    process.execPath,
    [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    { cwd: ROOT, stdio: 'inherit' },
  );
}

/** A module of dist/ (built by {@link buildDist}), typed as its source: `fromDist<typeof import('../src/x.js')>('x.js')`. */
export async function fromDist<T>(path: string): Promise<T> {
  return (await import(pathToFileURL(join(ROOT, 'dist', path)).href)) as T;
}

/** `--rounds=N` (1 to 9) of `argv`, or `fallback` when not given; anything else is refused. */
export function roundsOf(argv: readonly string[], fallback: number): number {
  const given = argv.find((a) => a === '--rounds' || a.startsWith('--rounds='));
  if (given === undefined) return fallback;
  const text = given.slice('--rounds='.length);
  const rounds = Number(text);
  if (!/^\d+$/.test(text) || rounds < 1 || rounds > 9) {
    throw new Error(`--rounds=N takes a whole number N from 1 to 9, not "${given}"`);
  }
  return rounds;
}

/** The middle value (the lower of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((x, y) => x - y);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN);
}

/**
 * How `npm start` runs node (`[NAME=value …] node <flags> dist/main.js`): its environment settings
 * and node flags, so the targets run as production does.
 */
export function startCommand(): { env: Record<string, string>; flags: string[] } {
  const pkg: unknown = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const scripts = typeof pkg === 'object' && pkg !== null && 'scripts' in pkg ? pkg.scripts : undefined;
  const start =
    typeof scripts === 'object' && scripts !== null && 'start' in scripts ? String(scripts.start) : '';
  const words = start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
    const [name, ...value] = (words.shift() as string).split('=');
    env[name as string] = value.join('=');
  }
  if (words[0] !== 'node') throw new Error(`cannot read the node flags of "npm start": ${start}`);
  return { env, flags: words.slice(1).filter((w) => w.startsWith('--')) };
}

/** How every benchmark's client reaches the sandbox: its demo keys, a 10 s timeout. */
export function sandboxClientOptions(baseUrl: string) {
  return {
    baseUrl,
    apiKey: DEMO.apiKey,
    secretKey: DEMO.secretKey,
    timeoutMs: 10_000,
    retryConversionMethod: 'auto' as const,
  };
}
