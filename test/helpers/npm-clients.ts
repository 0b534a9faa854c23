/**
 * Real client CLIs from npm for the tests that drive them (Claude Code, Codex, the MCP Inspector),
 * pinned, installed once into a cache folder ($SYNAPTIC_TEST_CLIENTS, else
 * $XDG_CACHE_HOME/synaptic-test-clients, else <tmpdir>/synaptic-test-clients) and reused. A test
 * skips, saying why, only when npm cannot install its client. codexExec runs a Codex session offline.
 */
import type { TestContext } from 'node:test';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Client {
  pkg: string;
  version: string;
  bin: string;
}

export const CLAUDE: Client = { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' };
export const CODEX: Client = { pkg: '@openai/codex', version: '0.171.0', bin: 'codex' };
export const INSPECTOR: Client = { pkg: '@modelcontextprotocol/inspector', version: '2.12.0', bin: 'mcp-inspector' };

function cacheRoot(): string {
  return process.env.SYNAPTIC_TEST_CLIENTS || join(process.env.XDG_CACHE_HOME || tmpdir(), 'synaptic-test-clients');
}

function installedVersion(dir: string, c: Client): string | null {
  try {
    return (JSON.parse(readFileSync(join(dir, 'node_modules', c.pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

/** The client's bin, installed with npm into the cache on first use; or the reason it cannot be. */
export function installClient(t: TestContext, c: Client): string | null {
  const dir = join(cacheRoot(), `${c.pkg.replace('/', '+')}@${c.version}`);
  const bin = join(dir, 'node_modules', '.bin', c.bin);
  if (installedVersion(dir, c) === c.version && existsSync(bin)) return bin;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const started = Date.now();
  const npm = spawnSync('npm', ['install', '--prefix', partial, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${c.pkg}@${c.version}`], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (npm.status !== 0 || installedVersion(partial, c) !== c.version) {
    rmSync(partial, { recursive: true, force: true });
    const said = npm.stderr.split('\n').map((l) => l.replace(/^npm (?:error|ERR!)\s*/, '').trim()).filter(Boolean);
    const why = npm.error?.message ?? (said.slice(0, 3).join('; ') || `npm exited with ${npm.status}`);
    t.skip(`cannot install ${c.pkg}@${c.version} from npm (${why}): no network to the registry?`);
    return null;
  }
  t.diagnostic(`installed ${c.pkg}@${c.version} in ${((Date.now() - started) / 1000).toFixed(1)} s into ${dir}`);
  try {
    renameSync(partial, dir);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another run installed it first
  }
  return bin;
}

/** Runs `codex exec` offline until `done(stderr+stdout)` holds or the time is up; kills its process group. */
export async function codexExec(codex: string, cwd: string, env: NodeJS.ProcessEnv, done: (output: string) => boolean, ms = 60_000): Promise<string> {
  // The model endpoint is a closed local port: Codex starts the session (MCP servers, SessionStart) and then retries.
  const args = ['exec', '--dangerously-bypass-hook-trust', '--skip-git-repo-check', '-c', 'openai_base_url="http://127.0.0.1:9/v1"', 'say hi'];
  const child = spawn(codex, args, { cwd, env: { ...env, RUST_LOG: 'rmcp=info,codex_rmcp_client=info,codex_mcp=info' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (b) => (output += b));
  child.stderr.on('data', (b) => (output += b));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && child.exitCode === null && !done(output)) await new Promise((r) => setTimeout(r, 250));
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      break; // the group is gone
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
  }
  return output;
}
