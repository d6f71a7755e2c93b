import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * podman as this machine needs it: runc (its cgroups), and a containers.conf of our own with no
 * default ulimits (podman as root raises the open-files limit past this host's hard limit).
 * @see docs/operations.md, "Run it with the image and compose"
 */
export async function podmanEnvironment(dir: string): Promise<NodeJS.ProcessEnv> {
  const conf = join(dir, 'containers.conf');
  await writeFile(
    conf,
    [
      '[containers]',
      'default_ulimits = []',
      '[engine]',
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      'events_logger = "file"',
      '',
    ].join('\n'),
  );
  return { ...process.env, CONTAINERS_CONF: conf };
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; never throws for a non-zero exit (the caller judges `code`). */
export function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: Buffer; cwd?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { env: options.env, cwd: options.cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        if (error !== null && typeof error.code !== 'number') reject(error);
        else resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Like `run`, but a non-zero exit is an error carrying the command's output. */
export async function must(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<string> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.code}\n${result.stderr}${result.stdout}`.slice(-4000),
    );
  }
  return result.stdout;
}

/** Runs a command with its output streamed to ours (long builds), failing on a non-zero exit. */
export function stream(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}
