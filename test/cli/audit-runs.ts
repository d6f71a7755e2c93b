import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type CliIo, runCli } from '../../src/cli/run.js';
import type { NewAuditEvent } from '../../src/core/model.js';

/**
 * What the audit CLI tests run, as a compliance officer would: `vidops` in a working folder at a
 * given time, the standalone verifier (tools/verify-audit.mjs) as a child process, and the events
 * an unblock appends.
 */

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const TOOL = resolve(dirname(fileURLToPath(import.meta.url)), '../../tools/verify-audit.mjs');

/** `vidops <args>` in `cwd` with `env`, at `clock`, run by the OS user `compliance`. */
export async function runVidops(
  args: string[],
  io: { env: Record<string, string | undefined>; cwd: string; clock: () => Date },
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const cli: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: io.env,
    cwd: io.cwd,
    clock: io.clock,
    osUser: 'compliance',
  };
  const code = await runCli(args, cli);
  return { code, stdout, stderr };
}

/** The standalone verifier, as compliance runs it: a child process on the files in `cwd`. */
export async function runTool(args: string[], cwd: string): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [TOOL, ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The `i`th event of a log of unblocks, a second apart from 2026-11-21T10:00:00Z. */
export function unblockEvent(i: number): NewAuditEvent {
  return {
    id: randomUUID(),
    type: i % 2 === 0 ? 'requested' : 'succeeded',
    at: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
    actor: { id: 'U0AGENT', name: 'Sara' },
    operation: 'viewer.unblock',
    target: 'viewer 09123456789',
    params: { mobileNumber: '09123456789' },
    requestId: null,
    outcome: null,
    error: null,
  };
}
