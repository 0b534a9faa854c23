import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/cli/main.js');

export interface HttpServer {
  /** `http://127.0.0.1:<port>/mcp` from the ready file. */
  url: string;
  /** The origin, for `/api/*` routes. */
  base: string;
  port: number;
  child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
}

/**
 * Start the compiled `synaptic serve --http 127.0.0.1:0 --ready-file <readyFile> ...args` and
 * resolve once the ready file appears (its mode and content are the server's handshake).
 */
export async function startHttpServer(readyFile: string, args: string[], env: NodeJS.ProcessEnv): Promise<HttpServer> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '127.0.0.1:0', '--ready-file', readyFile, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const deadline = Date.now() + 20000;
  while (!existsSync(readyFile)) {
    if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${err}`);
    if (Date.now() > deadline) throw new Error(`serve did not write the ready file: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const info = JSON.parse(readFileSync(readyFile, 'utf8')) as { address: string; mcp_url: string };
  return { url: info.mcp_url, base: info.mcp_url.replace(/\/mcp$/, ''), port: Number(info.address.split(':').pop()), child, stderr: () => err };
}
