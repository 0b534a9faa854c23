/**
 * The npm package of a checkout, for tests that install it the way a user does: `npm pack` into a
 * folder, and the environment that lets npm install the tarball with no network and no compiler.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Packed {
  /** Absolute path of the .tgz. */
  tarball: string;
  /** Bytes packed and unpacked, as npm reports them. */
  size: number;
  unpackedSize: number;
  /** Paths inside the package, sorted. */
  files: string[];
}

/** `npm pack` of `root` into `dest` (the checkout as built: pack runs no build). */
export function packPackage(root: string, dest: string, env: NodeJS.ProcessEnv = process.env): Packed {
  const r = spawnSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', dest], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`Cannot pack ${root}: npm pack exited with ${r.status}: ${r.error?.message ?? r.stderr}`);
  const info = (JSON.parse(r.stdout) as Array<{ filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> }>)[0]!;
  return { tarball: join(dest, info.filename), size: info.size, unpackedSize: info.unpackedSize, files: info.files.map((f) => f.path).sort() };
}

/**
 * better-sqlite3's install script downloads a prebuilt binary from GitHub, else compiles SQLite
 * (minutes). This puts `root`'s own binary (node_modules/better-sqlite3, built by its `npm ci`) into
 * `into` as the tarball that download would fetch, and returns the variable that makes
 * prebuild-install look there first; {} when `root` has no binary (npm then downloads or compiles).
 */
export function localPrebuildEnv(root: string, into: string): NodeJS.ProcessEnv {
  const sqlite = join(root, 'node_modules', 'better-sqlite3');
  if (!existsSync(join(sqlite, 'build', 'Release', 'better_sqlite3.node'))) return {};
  const version = (JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string }).version;
  mkdirSync(into, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const tar = spawnSync('tar', ['-czf', join(into, name), '-C', sqlite, 'build/Release/better_sqlite3.node'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`Cannot write the local prebuild ${name}: ${tar.error?.message ?? tar.stderr}`);
  return { npm_config_better_sqlite3_local_prebuilds: into };
}
