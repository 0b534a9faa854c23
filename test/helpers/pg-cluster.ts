// A throwaway PostgreSQL cluster for tests: initdb + pg_ctl into a temp dir, listening on 127.0.0.1 at a
// free port (and a unix socket in the same dir), stopped on every exit path. PostgreSQL refuses to run
// as root, so under root (CI) the cluster runs as `nobody` with the data dir owned by it. fsync is off
// (a throwaway cluster), synchronous_commit stays on: an immediate stop (a test of the database going
// away) must not lose a commit the client saw.
import { spawnSync } from 'node:child_process';
import { after, before } from 'node:test';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PgCluster {
  /** postgres://synaptic@127.0.0.1:<port>/<db> for a database made by createDatabase (or the default one). */
  url: string;
  port: number;
  /** A fresh database in the cluster, its URL. */
  createDatabase(name: string): string;
  /** Stops the server (immediate), keeping the data dir: start() brings it back on the same port. */
  stop(): void;
  start(): void;
  /** Stops and removes everything. Idempotent. */
  destroy(): void;
}

/** The directory holding initdb and pg_ctl: SYNAPTIC_PG_BIN, else the newest /usr/lib/postgresql/<v>/bin. */
export function pgBinDir(): string | null {
  const override = process.env.SYNAPTIC_PG_BIN;
  if (override) return existsSync(join(override, 'initdb')) ? override : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, 'bin') : null;
}

/** Why PostgreSQL tests cannot run here, or null when they can (for `test(..., { skip })`). */
export function pgUnavailable(): string | null {
  return pgBinDir() === null
    ? 'PostgreSQL is not installed (no /usr/lib/postgresql/<v>/bin/initdb; apt-get install postgresql, or set SYNAPTIC_PG_BIN): the PostgreSQL backend is not tested'
    : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

const live = new Set<PgCluster>();
process.once('exit', () => {
  for (const c of live) c.destroy();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const c of live) c.destroy();
    process.exit(130);
  });
}

/** Starts a new cluster. Throws with initdb's or pg_ctl's output when it cannot. */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) throw new Error(pgUnavailable()!);
  const root = mkdtempSync(join(tmpdir(), 'synaptic-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(root, 0o755);
    chownSync(root, 65534, 65534);
  }
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'nobody', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const r = spawnSync(file, argv, { encoding: 'utf8', cwd: root, timeout: 60_000 });
    if (r.status !== 0) {
      const log = existsSync(join(root, 'log')) ? readFileSync(join(root, 'log'), 'utf8').slice(-2000) : '';
      throw new Error(`${cmd} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}\n${log}`);
    }
    return r.stdout;
  };
  run('initdb', ['-D', data, '-U', 'synaptic', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${root} -c fsync=off -c full_page_writes=off -c max_connections=60`;
  let running = false;
  const cluster: PgCluster = {
    url: `postgres://synaptic@127.0.0.1:${port}/postgres`,
    port,
    createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      run('createdb', ['-h', root, '-p', String(port), '-U', 'synaptic', name]);
      return `postgres://synaptic@127.0.0.1:${port}/${name}`;
    },
    start() {
      if (running) return;
      run('pg_ctl', ['start', '-w', '-t', '30', '-D', data, '-l', join(root, 'log'), '-o', options]);
      running = true;
    },
    stop() {
      if (!running) return;
      run('pg_ctl', ['stop', '-w', '-D', data, '-m', 'immediate']);
      running = false;
    },
    destroy() {
      try {
        cluster.stop();
      } catch {
        // already gone: remove the files regardless
      }
      live.delete(cluster);
      rmSync(root, { recursive: true, force: true });
    },
  };
  live.add(cluster);
  try {
    cluster.start();
  } catch (err) {
    cluster.destroy();
    throw err;
  }
  return cluster;
}

/**
 * One throwaway cluster for the tests of a file: started before them (unless PostgreSQL is missing:
 * `skip` says why), destroyed after; `url(prefix)` creates a fresh database on it.
 */
export function clusterForFile(): { skip: string | null; cluster(): PgCluster; url(prefix: string): string } {
  const skip = pgUnavailable();
  let cluster: PgCluster | null = null;
  let dbs = 0;
  before(async () => {
    if (!skip) cluster = await startPgCluster();
  });
  after(() => cluster?.destroy());
  const started = (): PgCluster => {
    if (!cluster) throw new Error('the PostgreSQL cluster is not running (skipped or not started yet)');
    return cluster;
  };
  return { skip, cluster: started, url: (prefix) => started().createDatabase(`${prefix}${++dbs}`) };
}
