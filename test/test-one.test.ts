import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * `npm run test:one -- <file>` runs one test file the way `npm test` runs the suite (ESM, so a
 * suite that imports got loads; `npx jest <file>` cannot).
 * @see docs/testing.md, "One test file"
 */

const run = promisify(execFile);

test('a developer runs one suite that imports got with npm run test:one', async () => {
  const { stdout, stderr } = await run('npm', ['run', 'test:one', '--', 'src/client/paths.test.ts']);
  expect(`${stdout}${stderr}`).toContain('Test Suites: 1 passed, 1 total');
}, 60_000);

test('npm run test:one without a file says how to use it and runs nothing', async () => {
  const failed = await run('npm', ['run', 'test:one']).then(
    () => null,
    (e: unknown) => e,
  );
  expect(failed).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('usage: npm run test:one -- <test file>'),
  });
  expect(failed).not.toMatchObject({ stdout: expect.stringContaining('Tests:') });
});
