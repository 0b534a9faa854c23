import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError, type Command } from '../command.ts';
import { packageVersion } from '../version.ts';
import { checkHttpArgs, defaultThreads, serveHttp } from '../serve-http.ts';
import { serveStdio } from '../../mcp/stdio.ts';
import { DEFAULT_MAX_LINE_BYTES, MAX_LINE_BYTES_CEILING } from '../../mcp/line-splitter.ts';
import { createSynapticServer } from '../../mcp/synaptic-server.ts';
import { storeDir } from '../../mcp/federated/store.node.ts';
import { PROFILES, type ServeProfile } from '../../mcp/profiles.ts';
import { extractorVersion } from '../../extract/identity.node.ts';
import { answerUpdates } from '../../extract/keeper-socket.node.ts';
import { parseGraphBytes } from '../../graph/load.node.ts';
import type { GraphDocument } from '../../graph/model.ts';
import type { ToolProvider } from '../../mcp/tool.ts';
import { createMemoryTools } from '../../mcp/tools/memory/index.ts';
import { createVaultTools } from '../../mcp/tools/vault/index.ts';
import { createMeshTools } from '../../mcp/tools/mesh/index.ts';

const USAGE = `Usage: synaptic serve [options]   (alias: synaptic mcp)

Serve the code graph (and agent memory) over the Model Context Protocol on stdin/stdout:
newline-delimited JSON-RPC, MCP 2026-07-28 (stateless) and 2025-11-25 .. 2024-11-05 (initialize).

Options:
  --graph <path>        graph.json to serve (default: <root>/synaptic-out/graph.json, where <root> is the nearest
                        folder at or above the working directory (or SYNAPTIC_PROJECT_DIR) holding synaptic-out/
                        or .git). Without a graph yet, the server starts anyway: memory and vault tools work, graph
                        tools say to run \`synaptic extract\`, and the graph is loaded when it appears
  --store <dir>         serve a workspace's federated store shard-aware (its synaptic-out/ folder or
                        global-manifest.json; also SYNAPTIC_STORE): members load on demand behind an LRU
  --extract             when there is no graph yet, build it in this process (progress on stderr); graph tools
                        answer once it is written
  --source-root <dir>   root that get_source / search_text may read (default: the directory above synaptic-out/)
  --concise             token-lean defaults (also SYNAPTIC_CONCISE=1)
  --profile igraph      also expose the igraph-compatible tools
  --profile lean        serve only the ten most used tools (query, source, node, neighbours, callers, blast
                        radius, text search, memory): a tool list a third the size; the instructions name the rest
  --watch               event-driven source watcher: clean queries skip the staleness walk (also SYNAPTIC_SERVE_WATCH=1);
                        a one-shot \`synaptic update\` of the served outputs is then handed to this server
  --no-watch            do not watch the graph file (it is still re-checked before calls)
  --immutable-graph     pin the graph loaded at start: no hot reload, no source catch-up, no watching
  --expected-graph-sha256 <hex>  with --immutable-graph: refuse to start unless graph.json's bytes have this digest
  --http <host:port>    serve Streamable HTTP on POST /mcp (+ REST /api/*) instead of stdio; port 0 picks one
  --api-key <key>       require this key on HTTP requests (X-API-Key or Authorization: Bearer; also SYNAPTIC_API_KEY)
  --ready-file <path>   with --http: after binding, atomically write {address, mcp_url} (mode 0600; never overwritten)
  --threads <n>         with --http: answer graph-tool calls (MCP 2026-07-28 tools/call) on n worker threads, each
                        holding its own copy of the graph; 0 answers on the main thread (default: 0 on 1-2
                        cores, else cores - 1 up to 2; 0 with --immutable-graph)
  --max-sessions <n>    with --http: keep at most n legacy (initialize) sessions; a new one past that ends the
                        one idle longest (default 1000)
  --max-line-bytes <n>  on stdio: the largest message (one input line) accepted, in bytes, or with a K, M or G
                        suffix (KiB, MiB, GiB); a longer line is answered with a JSON-RPC error (-32600) and
                        skipped (default 64M, from 1024 to ${MAX_LINE_BYTES_CEILING})
  --allow-exec          also serve speculate, which runs the project's test/build command (detected, or given) in a
                        throwaway git worktree with the working changes applied: the server is then no longer
                        read-only, so use it only with trusted clients (without it the tool is neither listed
                        nor runnable)
  --no-freshen          serve the graph as is (by default a background walk finds edited source files,
                        re-extracts them and calls wait for that update)

Environment:
  SYNAPTIC_QUERY_LOG=<file>      append one JSON line per query_graph call (SYNAPTIC_QUERY_LOG_DISABLE=1 turns it off)
  SYNAPTIC_CONCISE=1             same as --concise
  SYNAPTIC_API_KEY=<key>         same as --api-key (the flag wins; blank disables auth)
  SYNAPTIC_SERVE_WATCH=1         same as --watch
  SYNAPTIC_STORE=<dir>           same as --store
  SYNAPTIC_SHARD_LRU=<n>         resident members of a store at most (default 8)`;

interface ServeArgs {
  graph?: string;
  store?: string;
  extract: boolean;
  sourceRoot?: string;
  concise: boolean;
  profile?: ServeProfile;
  watch: boolean;
  freshen: boolean;
  http?: string;
  apiKey?: string;
  readyFile?: string;
  threads?: number;
  maxSessions?: number;
  maxLineBytes?: number;
  allowExec: boolean;
  watchSources: boolean;
  immutable: boolean;
  expectedSha256?: string;
}

function parseArgs(argv: string[]): ServeArgs {
  const out: ServeArgs = { extract: false, concise: false, watch: true, freshen: true, allowExec: false, watchSources: truthy(process.env.SYNAPTIC_SERVE_WATCH), immutable: false };
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
      case '--store':
        out.store = value();
        break;
      case '--extract':
        out.extract = true;
        break;
      case '--source-root':
        out.sourceRoot = value();
        break;
      case '--concise':
        out.concise = true;
        break;
      case '--profile': {
        const p = value();
        if (!(PROFILES as readonly string[]).includes(p)) throw new UsageError(`unknown profile '${p}' (available: ${PROFILES.join(', ')})`);
        out.profile = p as ServeProfile;
        break;
      }
      case '--watch':
        out.watchSources = true;
        break;
      case '--immutable-graph':
        out.immutable = true;
        break;
      case '--expected-graph-sha256':
        out.expectedSha256 = value().toLowerCase();
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
      case '--threads': {
        const v = value();
        if (!/^\d{1,2}$/.test(v) || Number(v) > 16) throw new UsageError(`--threads must be a whole number from 0 to 16, got '${v}'`);
        out.threads = Number(v);
        break;
      }
      case '--max-sessions': {
        const v = value();
        if (!/^\d{1,7}$/.test(v) || Number(v) < 1) throw new UsageError(`--max-sessions must be a whole number from 1 to 9999999, got '${v}'`);
        out.maxSessions = Number(v);
        break;
      }
      case '--max-line-bytes':
        out.maxLineBytes = parseLineLimit(value());
        break;
      case '--allow-exec':
        out.allowExec = true;
        break;
      default:
        throw new UsageError(`unknown option '${a}' (see 'synaptic serve --help')`);
    }
  }
  if (out.readyFile && !out.http) throw new UsageError('--ready-file requires --http');
  if (out.threads !== undefined && !out.http) throw new UsageError('--threads requires --http (stdio answers on one thread)');
  if (out.maxSessions !== undefined && !out.http) throw new UsageError('--max-sessions requires --http (stdio has one session)');
  if (out.maxLineBytes !== undefined && out.http) throw new UsageError('--max-line-bytes applies to stdio; it cannot be used with --http');
  // Workers read the graph file themselves; a pinned graph is served only from the verified bytes.
  if (out.threads && out.immutable) throw new UsageError('--threads cannot be used with --immutable-graph (workers would re-read the graph file)');
  if (out.expectedSha256 !== undefined && !out.immutable) throw new UsageError('--expected-graph-sha256 requires --immutable-graph');
  if (out.expectedSha256 !== undefined && !/^[0-9a-f]{64}$/.test(out.expectedSha256)) {
    throw new UsageError(`--expected-graph-sha256 must be 64 hex characters, got '${out.expectedSha256}'`);
  }
  if (out.http) checkHttpArgs({ http: out.http, readyFile: out.readyFile });
  if (out.extract && out.immutable) throw new UsageError('--extract cannot be used with --immutable-graph (a pinned graph must exist)');
  return out;
}

const LINE_LIMIT_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** `--max-line-bytes`: a whole number of bytes, optionally in KiB/MiB/GiB, that one string can hold. */
function parseLineLimit(v: string): number {
  const m = /^(\d{1,10})([kmg]?)$/i.exec(v);
  const n = m ? Number(m[1]) * LINE_LIMIT_UNITS[m[2]!.toLowerCase()]! : NaN;
  if (!(n >= 1024 && n <= MAX_LINE_BYTES_CEILING)) {
    throw new UsageError(
      `--max-line-bytes must be a whole number of bytes from 1024 to ${MAX_LINE_BYTES_CEILING}, optionally with a K, M or G suffix (default ${DEFAULT_MAX_LINE_BYTES / 1024 ** 2}M), got '${v}'`,
    );
  }
  return n;
}

/**
 * `--immutable-graph`: read graph.json once, verify the digest of exactly those bytes when one is
 * expected, and parse the same buffer (never the CBOR snapshot, never a second read).
 */
function pinGraph(graphPath: string, expected: string | undefined, log: (line: string) => void): { doc: GraphDocument; stamp: { mtimeMs: number; size: number } } {
  const bytes = readFileSync(graphPath);
  const st = statSync(graphPath);
  if (expected !== undefined) {
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== expected) throw new Error(`Cannot serve: ${graphPath} has SHA-256 ${actual}, not the expected ${expected}; refusing to start`);
    log(`[synaptic] graph digest verified (sha256 ${actual})`);
  }
  return { doc: parseGraphBytes(bytes, graphPath), stamp: { mtimeMs: st.mtimeMs, size: st.size } };
}

/**
 * The repository `serve` is started in, found the way git finds its work tree: the nearest folder at
 * or above `start` that holds synaptic-out/ or .git; `start` itself when there is none.
 */
export function findServeRoot(start: string): string {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'synaptic-out')) || existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return resolve(start);
  }
}

/** The default --source-root: the directory above synaptic-out/, else the current directory. */
export function defaultSourceRoot(graphPath: string): string {
  const dir = dirname(graphPath);
  return basename(dir) === 'synaptic-out' ? dirname(dir) : process.cwd();
}

/**
 * `serve --extract` without a graph: a full extract in this process while the server answers; its
 * progress goes to stderr (at most every 10%), and graph tools say how far it got.
 */
function extractInBackground(root: string, outDir: string, log: (line: string) => void): { status: () => string } {
  let state = `the graph of ${root} is being built (scanning files): try again in a moment`;
  let lastTenth = -1;
  void import('../../extract/pipeline.node.ts')
    .then(({ runExtract }) => runExtract({
      root,
      outDir,
      incremental: false,
      onProgress: ({ done, total }) => {
        state = `the graph of ${root} is being built (${done} of ${total} files parsed): try again in a moment`;
        const tenth = total ? Math.floor((10 * done) / total) : 10;
        if (tenth > lastTenth) log(`[synaptic] extracting ${root}: ${done}/${total} files`);
        lastTenth = Math.max(lastTenth, tenth);
      },
      onPhase: (phase) => {
        state = `the graph of ${root} is being built (${phase}): try again in a moment`;
      },
    }))
    .then((summary) => {
      state = `the graph of ${root} was just written: try again`;
      log(`[synaptic] extracted ${summary.files} files: ${summary.nodes} nodes, ${summary.links} links in ${(summary.timingsMs.total / 1000).toFixed(1)}s`);
    })
    .catch((err: unknown) => {
      state = `extracting ${root} failed: ${err instanceof Error ? err.message : String(err)}; run \`synaptic extract ${root}\` to see why`;
      log(`[synaptic] ${state}`);
    });
  return { status: () => state };
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
    const started = performance.now();
    const log = (line: string) => process.stderr.write(line + '\n');
    const store = args.store ?? (process.env.SYNAPTIC_STORE || undefined);
    const graphPath = store !== undefined
      ? join(storeDir(resolve(store)), 'graph.json')
      : args.graph !== undefined
      ? resolve(args.graph)
      : join(findServeRoot(process.env.SYNAPTIC_PROJECT_DIR || process.cwd()), 'synaptic-out', 'graph.json');
    if (store !== undefined && args.http !== undefined) throw new UsageError('--store serves over stdio only for now: drop --http (or serve one member with --graph <member>/synaptic-out/graph.json)');
    if (!existsSync(graphPath) && store === undefined) {
      if (args.immutable) throw new Error(`Cannot serve: no graph at ${graphPath} to pin; run 'synaptic extract' first`);
      log(`[synaptic] no graph at ${graphPath} yet: ${args.extract ? 'building it now' : "graph tools answer once 'synaptic extract' has written it"}; memory and vault tools work meanwhile`);
    }
    const sourceRoot = resolve(args.sourceRoot ?? defaultSourceRoot(graphPath));
    if (args.extract && basename(dirname(graphPath)) !== 'synaptic-out') throw new UsageError(`--extract builds <repo>/synaptic-out/graph.json; ${graphPath} is not in a synaptic-out folder`);
    const building = args.extract && !existsSync(graphPath) ? extractInBackground(dirname(dirname(graphPath)), dirname(graphPath), log) : undefined;
    // Compiled while the graph loads; if it cannot load, createSynapticServer tries again and stops with the reason.
    const corePromise = import('../../core/index.ts').then(({ Core }) => Core.load()).catch(() => undefined);
    // Memory belongs to the repository served, not to the folder the client happened to start in.
    const cwd = args.graph === undefined ? dirname(dirname(graphPath)) : process.cwd();
    const providers: ToolProvider[] = [];
    for (const [what, make] of [
      ['memory', () => createMemoryTools({ cwd })],
      ['vault', () => createVaultTools({ cwd })],
      ['mesh', () => createMeshTools({ cwd })],
    ] as const) {
      try {
        providers.push(make());
      } catch (err) {
        log(`[synaptic] warning: ${what} tools unavailable: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const pinned = args.immutable ? pinGraph(graphPath, args.expectedSha256, log) : undefined;
    const queryLog = truthy(process.env.SYNAPTIC_QUERY_LOG_DISABLE) ? undefined : process.env.SYNAPTIC_QUERY_LOG || undefined;
    const concise = args.concise || truthy(process.env.SYNAPTIC_CONCISE);
    const server = await createSynapticServer({
      graphPath,
      sourceRoot,
      concise,
      profile: args.profile,
      allowExec: args.allowExec,
      core: await corePromise,
      providers,
      queryLog,
      name: 'synaptic',
      version: packageVersion(),
      log,
      watch: args.watch,
      // Keep the graph current with the user's edits when it is the standard output of a repository.
      freshenRoot: args.freshen && !pinned && store === undefined && basename(dirname(graphPath)) === 'synaptic-out' ? dirname(dirname(graphPath)) : undefined,
      watchSources: args.watchSources,
      warmReferences: args.http !== undefined,
      pinned,
      ...(building ? { absentGraph: building.status } : {}),
      ...(store !== undefined ? { store: resolve(store), storeLru: Number(process.env.SYNAPTIC_SHARD_LRU) || undefined } : {}),
    });
    // With a source watcher the server holds its outputs in memory: a one-shot `synaptic update` of
    // them is handed to it (as to `update --watch`), and the server reloads what it wrote.
    const updates = server.updateSources
      ? await answerUpdates({ op: 'update', version: extractorVersion(), root: dirname(dirname(graphPath)), outDir: dirname(graphPath), maxFileSize: null }, 'server', server.updateSources)
      : undefined;
    if (args.http) {
      const threads = args.threads ?? (pinned ? 0 : defaultThreads());
      const workerInit = { graphPath, sourceRoot, concise, profile: args.profile, queryLog, name: 'synaptic', version: packageVersion() };
      await serveHttp(server, { http: args.http, apiKey: args.apiKey, readyFile: args.readyFile, threads, workerInit, maxSessions: args.maxSessions }, log);
      await updates?.close();
      await server.close();
      return 0;
    }
    const { done } = serveStdio(server.core, { log, hub: server.hub, maxLineBytes: args.maxLineBytes });
    const ix = server.live.engine.ix;
    if (server.live.present) log(`[synaptic] graph ${graphPath}: ${ix.n} nodes, ${ix.m} edges (from ${server.live.format === 'cbor' ? 'graph.cbor' : 'graph.json'}; ready in ${Math.round(performance.now() - started)} ms)`);
    log('[synaptic] MCP server ready on stdio');
    await done;
    await updates?.close();
    await server.close();
    return 0;
  },
};
