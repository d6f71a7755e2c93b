/**
 * Entry point of the `vidops` command (`bin/vidops.js` imports the compiled file): runs one
 * invocation with the process's argv, streams and environment, and sets the exit code. `runCli`
 * closes the store and the API client it opened before it returns.
 * @see docs/architecture.md, "Runtime contract"
 */
import { runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
});
