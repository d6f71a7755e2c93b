import { join } from 'node:path';
import { type CliIo, runCli } from '../../src/cli/run.js';
import type { CliStdin } from '../../src/cli/unblock-many.js';
import { DEMO } from '../../src/sandbox/server.js';

/** What one `vidops …` run printed, and how it exited. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where a test's CLI runs: its folder (database and policy file) and the sandbox it talks to. */
export interface CliPlace {
  dir: string;
  sandboxUrl: string;
  /** `LEADS` of the run; one lead by default. */
  leads?: string;
  /** A `policy.yml` written in `dir` by the test, passed as `POLICY_FILE`. */
  policy?: boolean;
  clock?: () => Date;
  /** More variables (`LANG`, `DISPLAY_TIME_ZONE`). */
  env?: Record<string, string>;
  /** Standard input of the run (none by default: as a terminal with nothing typed). */
  stdin?: CliStdin;
}

/**
 * Runs the CLI in-process as the OS user `osUser`, against the sandbox with the demo keys and a
 * SQLite database in the test's folder; its output is captured, nothing reaches the terminal.
 */
export async function runVidops(place: CliPlace, args: string[], osUser = 'sara'): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {
      DATABASE_URL: `sqlite:${join(place.dir, 'vidops.db')}`,
      VIDEO_API_URL: place.sandboxUrl,
      VIDEO_API_KEY: DEMO.apiKey,
      VIDEO_SECRET_KEY: DEMO.secretKey,
      LEADS: place.leads ?? 'ULEAD0001',
      ...(place.policy === true ? { POLICY_FILE: join(place.dir, 'policy.yml') } : {}),
      ...place.env,
    },
    osUser,
    cwd: place.dir,
    ...(place.clock === undefined ? {} : { clock: place.clock }),
    ...(place.stdin === undefined ? {} : { stdin: place.stdin }),
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}
