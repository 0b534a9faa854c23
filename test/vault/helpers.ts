import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const OWN_SOURCES = ['src/vault', 'src/skills', 'src/mcp/tools/vault', 'src/cli/commands', 'src/cli/approve.ts', 'src/cli/main.ts'];

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((n) => newestMtime(join(path, n))));
}

/**
 * How tests start the CLI: the compiled dist/ (what `npm test` builds first) when it is at least as
 * new as the sources it comes from; otherwise the sources through tsx, so a stale build cannot pass.
 */
export function cliArgv(): string[] {
  const dist = join(ROOT, 'dist/cli/main.js');
  if (existsSync(dist) && statSync(dist).mtimeMs >= Math.max(...OWN_SOURCES.map((p) => newestMtime(join(ROOT, p))))) return [dist];
  return ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.ts')];
}

/** A throwaway HOME, data folder and project (a git root with a sub folder). */
export interface Sandbox {
  base: string;
  home: string;
  data: string;
  project: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function sandbox(extraEnv: Record<string, string> = {}): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'synaptic-vault-')));
  const home = join(base, 'home');
  const data = join(base, 'data');
  const project = join(base, 'proj');
  mkdirSync(home);
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(join(project, 'sub'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SYNAPTIC_DATA_DIR: data,
    SHELL: '/bin/bash',
    ...extraEnv,
  };
  return { base, home, data, project, env, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Runs `synaptic ...args` to completion. */
export function cli(sb: Sandbox, args: string[], options: { cwd?: string; input?: string; env?: Record<string, string> } = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...cliArgv(), ...args], {
    cwd: options.cwd ?? sb.project,
    input: options.input ?? '',
    env: { ...sb.env, ...options.env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

/** Every regular file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

/**
 * Runs `synaptic ...args` on a pseudo-terminal (util-linux `script`), typing `typed` once `prompt`
 * shows. Resolves with everything the terminal displayed, or null when `script` is not installed.
 */
export function cliOnTty(sb: Sandbox, args: string[], prompt: string, typed: string, cwd = sb.project): Promise<{ status: number | null; screen: string } | null> {
  return cliOnTtySteps(sb, args, [[prompt, typed]], { cwd });
}

/**
 * Runs `synaptic ...args` on a pseudo-terminal, answering each [prompt, typed] step in order: `typed`
 * is sent once its prompt shows after the previous answer. `env` adds to the sandbox's environment.
 */
export function cliOnTtySteps(
  sb: Sandbox,
  args: string[],
  steps: Array<[prompt: string, typed: string]>,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ status: number | null; screen: string } | null> {
  if (spawnSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).status !== 0) return Promise.resolve(null);
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, ...cliArgv(), ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: options.cwd ?? sb.project,
      env: { ...sb.env, TERM: 'dumb', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let step = 0;
    let from = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const onData = (d: Buffer): void => {
      screen += d.toString('utf8');
      while (step < steps.length) {
        const [prompt, typed] = steps[step]!;
        const at = screen.indexOf(prompt, from);
        if (at < 0) break;
        from = at + prompt.length;
        step++;
        child.stdin.write(typed);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, screen });
    });
  });
}
