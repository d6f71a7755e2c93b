import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { runVidops } from './run-vidops.js';

/**
 * `vidops playlist create --title "…"` against the full sandbox and against one that serves only
 * the documented endpoints: the request, the lead's approval on the command line, and exactly what
 * the service receives.
 * @see docs/architecture.md, "The operation catalog"
 * @see docs/api-extras.md, "How vidops treats the extras"
 */

const AGENT = 'UAGENT001';
const LEAD = 'ULEAD0001';
const PLAYLIST = '/v1/playlist';
const REQUEST_ID = /R-[0-9A-HJKMNP-TV-Z]{8}/;

describe.each([
  ['full', true],
  ['documented-only', false],
] as const)('against the %s sandbox', (mode, extras) => {
  let sandbox: Sandbox;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ conversionDelayMs: 60_000, extras });
    dir = await mkdtemp(join(tmpdir(), `vidops-cli-playlist-${mode}-`));
    await writeFile(join(dir, 'policy.yml'), 'cli: { approve: true }\n');
  });

  afterAll(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(() => sandbox.reset());

  const vidops = (args: string[], osUser = 'sara') =>
    runVidops({ dir, sandboxUrl: sandbox.url, leads: LEAD, policy: true }, args, osUser);

  const posts = () => sandbox.requests().filter((r) => r.method === 'POST' && r.path === PLAYLIST);

  test('an agent asks for a playlist and a lead approves it', async () => {
    const asked = await vidops([
      'playlist',
      'create',
      '--title',
      ' Onboarding 2025 ',
      '--reason',
      'new hires',
      '--as',
      AGENT,
    ]);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('Create playlist: new playlist "Onboarding 2025"');
    expect(asked.stdout).toContain('  title: "Onboarding 2025"');
    expect(asked.stdout).toContain('is waiting for 1 lead approval');
    expect(posts()).toEqual([]);
    const id = REQUEST_ID.exec(asked.stdout)?.[0] ?? '';

    const approved = await vidops(['approve', id, '--as', LEAD], 'lena');
    expect(posts().map((r) => r.body)).toEqual([{ title: 'Onboarding 2025' }]);
    if (extras) {
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain(
        `Approved ${id}, Create playlist: new playlist "Onboarding 2025": done`,
      );
      expect(sandbox.state().playlists.filter((p) => p.title === 'Onboarding 2025')).toHaveLength(1);
    } else {
      expect(approved.code).toBe(1);
      expect(approved.stderr).toContain('failed (HTTP 404)');
      expect(approved.stderr).toContain('This service does not support creating playlists');
      const requests = await vidops(['requests', '--all']);
      expect(requests.stdout).toContain(`${id}  Create playlist: new playlist "Onboarding 2025"`);
      expect(requests.stdout).toContain('[failed]');
    }
  });

  test('without --title it is a usage error, and nothing is sent', async () => {
    const result = await vidops(['playlist', 'create', '--as', AGENT]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('`vidops playlist create` needs --title.');
    expect(result.stderr).toContain('Usage: vidops playlist create --title T [--reason "…"]');
    expect(sandbox.requests()).toEqual([]);
  });

  test('a blank title is refused before anything is opened or sent', async () => {
    const result = await vidops(['playlist', 'create', '--title', '   ', '--as', AGENT]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--title: must not be empty. Nothing was sent.');
    expect(sandbox.requests()).toEqual([]);
  });
});
