// Shared by the runtime tests (and test/bench): where things are, and a child-process runner.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const WASM = ROOT + 'wasm/synaptic.wasm';
export const RUNTIMES_DIR = ROOT + 'test/runtimes/';

/** The golden graph fixtures, inside the checkout. */
export function graphFixturesDir(): string {
  const dir = ROOT + 'test/fixtures/graph-fixtures';
  if (existsSync(dir + '/index.json')) return dir;
  throw new Error(`Cannot find the graph fixtures: ${dir}/index.json is missing`);
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command with a timeout; never throws for a non-zero exit (the caller asserts). */
export function run(cmd: string, args: string[], timeoutMs = 60_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`Cannot run ${cmd}: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface CheckSummary {
  runtime: string;
  imports: number;
  checks: number;
  failures: string[];
  fixtures: number;
}

/** Parse the one JSON line run-checks.mjs prints. */
export function parseSummary(r: RunResult): CheckSummary {
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as CheckSummary;
  } catch {
    throw new Error(`Cannot parse the runtime check output (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
}
