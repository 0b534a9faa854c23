import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { renderPage } from '../../explorer/page.ts';
import { UsageError, type Command } from '../command.ts';
import { appScriptPath, cachedGraphSnapshot, graphPaths, wasmPath } from '../explorer-assets.ts';

const DEFAULT_PORT = 7878;

function send(res: ServerResponse, status: number, type: string, body: string | Uint8Array): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

/** Only local names may reach a loopback server (DNS-rebinding guard). */
function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  return ['localhost', '127.0.0.1', '[::1]'].some((h) => host === h || host === `${h}:${port}`);
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => process.stderr.write(`[synaptic] could not open a browser; open ${url} yourself\n`));
    child.unref();
  } catch {
    process.stderr.write(`[synaptic] could not open a browser; open ${url} yourself\n`);
  }
}

export const exploreCommand: Command = {
  name: 'explore',
  summary: 'serve the offline graph explorer on 127.0.0.1 and print its URL',
  usage: `Usage: synaptic explore [--graph <path>] [--port N] [--open]

Serves the browser explorer for a graph on 127.0.0.1. Everything is computed in the page on the
WebAssembly core; the server only hands out the page, the core and the graph snapshot.

  --graph <path>  graph.json, graph.cbor or a synaptic-out/ folder (default: synaptic-out/graph.json)
  --port N        port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --open          open the URL in the default browser
`,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { graph: { type: 'string' }, port: { type: 'string' }, open: { type: 'boolean' } },
      strict: true,
    });
    const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, got '${values.port}'`);
    const paths = graphPaths(values.graph, process.cwd());
    const page = renderPage({ title: paths.name });
    const app = readFileSync(appScriptPath());
    const wasm = readFileSync(wasmPath());
    const snapshot = cachedGraphSnapshot(paths);
    try {
      snapshot();
    } catch (err) {
      process.stderr.write(`[synaptic] warning: ${(err as Error).message}; the page will show this error\n`);
    }

    const server = createServer((req, res) => {
      const bound = (server.address() as { port: number }).port;
      if (!hostAllowed(req, bound)) return send(res, 403, 'text/plain; charset=utf-8', 'Forbidden: unexpected Host header\n');
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed\n');
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (path === '/' || path === '/index.html') return send(res, 200, 'text/html; charset=utf-8', page);
      if (path === '/app.js') return send(res, 200, 'text/javascript; charset=utf-8', app);
      if (path === '/synaptic.wasm') return send(res, 200, 'application/wasm', wasm);
      if (path === '/graph.cbor') {
        try {
          return send(res, 200, 'application/cbor', snapshot());
        } catch (err) {
          return send(res, 404, 'text/plain; charset=utf-8', (err as Error).message);
        }
      }
      return send(res, 404, 'text/plain; charset=utf-8', `Not found: ${path}\n`);
    });
    await new Promise<void>((resolvePromise, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        reject(err.code === 'EADDRINUSE' ? new Error(`Cannot listen on 127.0.0.1:${port}: the port is in use; pass --port <other> or --port 0`) : err));
      server.listen(port, '127.0.0.1', () => resolvePromise());
    });
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    process.stdout.write(`${url}\n`);
    process.stderr.write(`[synaptic] explorer for ${paths.json} on ${url} (Ctrl-C to stop)\n`);
    if (values.open) openBrowser(url);
    await new Promise<void>((resolvePromise) => {
      const stop = () => server.close(() => resolvePromise());
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
