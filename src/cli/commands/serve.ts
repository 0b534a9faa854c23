import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { basename, dirname, resolve } from 'node:path';
import { UsageError, type Command } from '../command.ts';
import { packageVersion } from '../version.ts';
import { checkHttpArgs, serveHttp } from '../serve-http.ts';
import { serveStdio } from '../../mcp/stdio.ts';
import { createSynapticServer } from '../../mcp/synaptic-server.ts';
import type { ToolProvider } from '../../mcp/tool.ts';
import { createMemoryTools } from '../../mcp/tools/memory/index.ts';
import { createVaultTools } from '../../mcp/tools/vault/index.ts';

const USAGE = `Usage: synaptic serve [options]   (alias: synaptic mcp)

Serve the code graph (and agent memory) over the Model Context Protocol on stdin/stdout:
newline-delimited JSON-RPC, MCP 2026-07-28 (stateless) and 2025-11-25 .. 2024-11-05 (initialize).

Options:
  --graph <path>        graph.json to serve (default: synaptic-out/graph.json)
  --source-root <dir>   root that get_source / search_text may read (default: the directory above synaptic-out/)
  --concise             token-lean defaults (also SYNAPTIC_CONCISE=1)
  --profile igraph      also expose the igraph-compatible tools
  --no-watch            do not watch the graph file (it is still re-checked before calls)
  --http <host:port>    serve Streamable HTTP on POST /mcp (+ REST /api/*) instead of stdio; port 0 picks one
  --api-key <key>       require this key on HTTP requests (X-API-Key or Authorization: Bearer; also SYNAPTIC_API_KEY)
  --ready-file <path>   with --http: after binding, atomically write {address, mcp_url} (mode 0600; never overwritten)
  --allow-exec          reserved for the command-running tool; nothing that runs commands exists yet
  --no-freshen          do not re-extract changed source files before answering (serve the graph as is)

Environment:
  SYNAPTIC_QUERY_LOG=<file>      append one JSON line per query_graph call (SYNAPTIC_QUERY_LOG_DISABLE=1 turns it off)
  SYNAPTIC_CONCISE=1             same as --concise
  SYNAPTIC_API_KEY=<key>         same as --api-key (the flag wins; blank disables auth)`;

interface ServeArgs {
  graph: string;
  sourceRoot?: string;
  concise: boolean;
  profile?: 'igraph';
  watch: boolean;
  freshen: boolean;
  http?: string;
  apiKey?: string;
  readyFile?: string;
  allowExec: boolean;
}

function parseArgs(argv: string[]): ServeArgs {
  const out: ServeArgs = { graph: 'synaptic-out/graph.json', concise: false, watch: true, freshen: true, allowExec: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const eq = a.indexOf('=');
      if (eq > 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value`);
      return v;
    };
    const flag = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    switch (flag) {
      case '--graph':
        out.graph = value();
        break;
      case '--source-root':
        out.sourceRoot = value();
        break;
      case '--concise':
        out.concise = true;
        break;
      case '--profile': {
        const p = value();
        if (p !== 'igraph') throw new UsageError(`unknown profile '${p}' (available: igraph)`);
        out.profile = 'igraph';
        break;
      }
      case '--watch':
        out.watch = true;
        break;
      case '--no-watch':
        out.watch = false;
        break;
      case '--no-freshen':
        out.freshen = false;
        break;
      case '--http':
        out.http = value();
        break;
      case '--api-key':
        out.apiKey = value();
        break;
      case '--ready-file':
        out.readyFile = value();
        break;
      case '--allow-exec':
        out.allowExec = true;
        break;
      default:
        throw new UsageError(`unknown option '${a}' (see 'synaptic serve --help')`);
    }
  }
  if (out.readyFile && !out.http) throw new UsageError('--ready-file requires --http');
  if (out.http) checkHttpArgs({ http: out.http, readyFile: out.readyFile });
  return out;
}

/** The default --source-root: the directory above synaptic-out/, else the current directory. */
export function defaultSourceRoot(graphPath: string): string {
  const dir = dirname(graphPath);
  return basename(dir) === 'synaptic-out' ? dirname(dir) : process.cwd();
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

export const serveCommand: Command = {
  name: 'serve',
  aliases: ['mcp'],
  summary: 'serve the graph and memory to AI agents over MCP (stdio)',
  usage: USAGE,
  async run(argv) {
    const args = parseArgs(argv);
    // A long-lived server holding one big immutable index: small young-generation semi-spaces keep
    // resident memory near the graph's size (measured on a 113 MB graph.json: RSS ~2.4x -> ~2.1x of it) for little speed.
    setFlagsFromString('--max-semi-space-size=1');
    const started = performance.now();
    const log = (line: string) => process.stderr.write(line + '\n');
    const graphPath = resolve(args.graph);
    if (!existsSync(graphPath)) {
      throw new Error(`Cannot serve: no graph at ${graphPath}; run 'synaptic extract' in your repository first (or pass --graph <path>)`);
    }
    const sourceRoot = resolve(args.sourceRoot ?? defaultSourceRoot(graphPath));
    const corePromise = import('../../core/index.ts')
      .then(({ Core }) => Core.load())
      .catch((err: unknown) => {
        log(`[synaptic] warning: WASM core unavailable (${err instanceof Error ? err.message : String(err)}); using TypeScript traversals`);
        return undefined;
      });
    const cwd = process.cwd();
    const providers: ToolProvider[] = [];
    for (const [what, make] of [
      ['memory', () => createMemoryTools({ cwd })],
      ['vault', () => createVaultTools({ cwd })],
    ] as const) {
      try {
        providers.push(make());
      } catch (err) {
        log(`[synaptic] warning: ${what} tools unavailable: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const queryLog = truthy(process.env.SYNAPTIC_QUERY_LOG_DISABLE) ? undefined : process.env.SYNAPTIC_QUERY_LOG || undefined;
    const server = await createSynapticServer({
      graphPath,
      sourceRoot,
      concise: args.concise || truthy(process.env.SYNAPTIC_CONCISE),
      profile: args.profile,
      core: await corePromise,
      providers,
      queryLog,
      name: 'synaptic',
      version: packageVersion(),
      log,
      watch: args.watch,
      // Keep the graph current with the user's edits when it is the standard output of a repository.
      freshenRoot: args.freshen && basename(dirname(graphPath)) === 'synaptic-out' ? dirname(dirname(graphPath)) : undefined,
    });
    if (args.http) {
      await serveHttp(server, { http: args.http, apiKey: args.apiKey, readyFile: args.readyFile }, log);
      await server.close();
      return 0;
    }
    const { done } = serveStdio(server.core, { log });
    const ix = server.live.engine.ix;
    log(`[synaptic] graph ${graphPath}: ${ix.n} nodes, ${ix.m} edges (from ${server.live.format === 'cbor' ? 'graph.cbor' : 'graph.json'}; ready in ${Math.round(performance.now() - started)} ms)`);
    log('[synaptic] MCP server ready on stdio');
    await done;
    await server.close();
    return 0;
  },
};
