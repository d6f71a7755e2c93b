import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The project's folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds dist/ as `npm start` runs it (`tsc -p tsconfig.build.json`), so that a benchmark measures
 * the JavaScript production runs rather than tsx's.
 */
export function buildDist(): void {
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
