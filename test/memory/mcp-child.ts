import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST_MAIN = join(ROOT, 'dist', 'cli', 'main.js');

/**
 * How tests start the CLI: the compiled dist/ (built by `npm test`'s pretest), else the sources
 * through tsx (slower to start, same code).
 */
export function cliArgv(args: string[]): string[] {
  return existsSync(DIST_MAIN) ? [DIST_MAIN, ...args] : ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), ...args];
}

/** Writes the smallest graph.json `synaptic serve` accepts into `dir`; returns its path. */
export function emptyGraph(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'graph.json');
  writeFileSync(file, JSON.stringify({ directed: true, multigraph: true, graph: {}, nodes: [], links: [], hyperedges: [], built_at_commit: null }));
  return file;
}

export interface RpcResponse {
  id: number;
  result?: { content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
  error?: { code: number; message: string };
}

/** A `synaptic serve` child spoken to over newline-delimited JSON-RPC (initialize-era protocol). */
export class ServeChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly responses = new Map<number, RpcResponse>();
  stderr = '';
  private buffer = '';
  private nextId = 100;
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  constructor(graph: string, env: NodeJS.ProcessEnv, cwd: string) {
    this.child = spawn(process.execPath, cliArgv(['serve', '--graph', graph, '--no-watch']), { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line) as RpcResponse;
        if (typeof msg.id === 'number') this.responses.set(msg.id, msg);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (c: string) => (this.stderr += c));
    this.child.stdin.on('error', () => {}); // writes after a kill
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  send(method: string, params: unknown, id?: number): number {
    const msgId = id ?? this.nextId++;
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: msgId, method, params })}\n`);
    return msgId;
  }

  async initialize(): Promise<void> {
    const id = this.send('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'memory-test', version: '1' } });
    await this.waitFor(id);
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }

  /** Sends tools/call without waiting; returns the request id. */
  call(name: string, args: Record<string, unknown>): number {
    return this.send('tools/call', { name, arguments: args });
  }

  async waitFor(id: number, timeoutMs = 15000): Promise<RpcResponse> {
    const deadline = Date.now() + timeoutMs;
    while (!this.responses.has(id)) {
      if (Date.now() > deadline) throw new Error(`Cannot get response ${id}: timed out; stderr: ${this.stderr.slice(-500)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.responses.get(id)!;
  }

  async waitUntil(predicate: () => boolean, timeoutMs = 15000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`Cannot wait: timed out; stderr: ${this.stderr.slice(-500)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Runs the CLI to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd: string, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArgv(args), { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.end(input ?? '');
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Two temp repositories (alpha, beta), one data dir and an empty graph for serve children. */
export function twoProjectSetup() {
  const t = tempDir('synaptic-reliability-');
  const data = join(t.dir, 'data');
  const repoA = join(t.dir, 'alpha');
  const repoB = join(t.dir, 'beta');
  for (const r of [repoA, repoB]) mkdirSync(join(r, '.git'), { recursive: true });
  const graph = emptyGraph(join(t.dir, 'graph'));
  const env = (project: string): NodeJS.ProcessEnv => ({ ...process.env, SYNAPTIC_DATA_DIR: data, SYNAPTIC_PROJECT_DIR: project, HOME: t.dir });
  return { ...t, data, repoA, repoB, graph, env };
}
