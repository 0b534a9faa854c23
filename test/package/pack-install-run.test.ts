/**
 * The package as a user gets it (issue #24): `npm pack` of this checkout (built by `npm test`'s
 * pretest), the tarball installed with npm into an empty project, then the installed `synaptic` run
 * with no way back to the sources: `--version`, `extract` of a fixture copy, `export html` (the
 * explorer assets), the `synaptic-mcp/core` export, `serve` answering through the SDK client,
 * `npx -y file:<tarball> serve` from a folder with no package.json as an MCP client starts it, and
 * `synaptic install claude` writing `npx -y synaptic-mcp serve`, which the real Claude Code CLI
 * shows connected (and Codex starts, with its SessionStart hook, through the same command).
 *
 * npm reads packages from its cache (`--prefer-offline`; CI's `npm ci` just filled it). better-sqlite3's
 * install script downloads its prebuilt binary from GitHub, else compiles SQLite for minutes: the
 * test hands it this checkout's binary as a local prebuild (the same file, under the name the
 * download has), so no network and no compiler are needed.
 */
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { LANGUAGE_IDS, queryName } from '../../src/extract/languages.ts';
import { CLAUDE, CODEX, codexExec, installClient } from '../helpers/npm-clients.ts';
import { localPrebuildEnv, packPackage, type Packed } from '../helpers/package.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };
const MB = 1e6;

let dir = '';
let packed: Packed;
/** The user's project: a git repository (the fixture's sources) with the tarball as a devDependency. */
let app = '';
let env: NodeJS.ProcessEnv = {};

function run(cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}, timeout = 300_000) {
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd, env: { ...env, ...extra }, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * MB });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', out: `${r.stdout ?? ''}${r.stderr ?? ''}`, error: r.error, ms: Date.now() - started };
}

function ok(r: ReturnType<typeof run>, what: string): ReturnType<typeof run> {
  assert.equal(r.status, 0, `${what}: ${r.error?.message ?? ''}\n${r.out.slice(-4000)}`);
  return r;
}

function duSize(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + duSize(join(path, name)), 0);
}

before(() => {
  assert.ok(existsSync(join(ROOT, 'dist', 'cli', 'main.js')) && existsSync(join(ROOT, 'wasm', 'synaptic.wasm')), 'build first: npm run build');
  dir = mkdtempSync(join(tmpdir(), 'synaptic-package-'));
  const home = join(dir, 'home');
  mkdirSync(home);
  // A new user's machine: node, npm and npx on PATH, no synaptic, no settings or credentials of the caller's.
  env = {
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    CODEX_HOME: join(home, '.codex'),
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    SYNAPTIC_DATA_DIR: join(dir, 'data'),
    npm_config_cache: process.env.npm_config_cache || join(homedir(), '.npm'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  Object.assign(env, localPrebuildEnv(ROOT, join(dir, 'prebuilds')));
  packed = packPackage(ROOT, dir, env);
  app = join(dir, 'app');
  cpSync(join(ROOT, 'test', 'fixtures', 'repo'), app, { recursive: true });
  writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true }\n');
  writeFileSync(join(app, '.gitignore'), 'node_modules/\nsynaptic-out/\n');
  ok(run('git', ['init', '-q', app], dir), 'git init');
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('npm pack holds what a user runs and nothing else, within 15 MB', (t) => {
  const allowed = [
    /^(package\.json|README\.md|LICENSE)$/,
    /^dist\/cli\/[\w.-]+\.js$/,
    /^dist\/explorer\/[\w.-]+\.(js|css)$/,
    /^dist\/src\/core\/[\w.-]+\.(js|d\.ts)$/,
    /^wasm\/synaptic\.wasm$/,
    /^src\/extract\/queries\/[\w-]+\.scm$/,
  ];
  const stray = packed.files.filter((f) => !allowed.some((re) => re.test(f)));
  assert.deepEqual(stray, [], 'tests, sources, maps and debug builds stay out of the tarball');
  const needed = [
    'package.json', 'README.md', 'LICENSE', 'wasm/synaptic.wasm', 'dist/explorer/app.js', 'dist/src/core/index.js', 'dist/src/core/index.d.ts',
    // The CLI and the worker entries esbuild emits beside it.
    'dist/cli/main.js', 'dist/cli/worker.node.js', 'dist/cli/tool-worker.node.js', 'dist/cli/freshen-walker.node.js',
    // SQL is parsed by libpg-query, not a tree-sitter query.
    ...new Set(LANGUAGE_IDS.filter((l) => l !== 'sql').map((l) => `src/extract/queries/${queryName(l)}.scm`)),
  ];
  assert.deepEqual(needed.filter((f) => !packed.files.includes(f)), [], 'missing from the tarball');
  t.diagnostic(`tarball ${(packed.size / MB).toFixed(2)} MB packed, ${(packed.unpackedSize / MB).toFixed(2)} MB unpacked, ${packed.files.length} files`);
  assert.ok(packed.size <= 15 * MB, `tarball ${packed.size} bytes > 15 MB`);
});

test('the dependencies are exactly the packages dist/cli loads at run time (everything else is bundled)', () => {
  const specifiers = new Set<string>();
  for (const name of readdirSync(join(ROOT, 'dist', 'cli'))) {
    const text = readFileSync(join(ROOT, 'dist', 'cli', name), 'utf8');
    // Static and dynamic imports, and require.resolve of a package file (the grammar folder).
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\.resolve\(\s*)"((?:@[\w.-]+\/)?[\w.-]+)(?:\/[^"]*)?"/g)) {
      if (!m[1]!.startsWith('node:') && !m[0].includes('"./')) specifiers.add(m[1]!);
    }
  }
  specifiers.delete('tsx'); // only from the sources (startWorker under tsx), never from the bundle
  assert.deepEqual([...specifiers].sort(), Object.keys(PKG.dependencies).sort(),
    'package.json dependencies must be the bundle\'s external imports (a package esbuild bundles is a devDependency; a new external one a dependency)');
});

test('the tarball installed into an empty project runs: --version, extract, export html, serve through the SDK client', async (t) => {
  const install = ok(run('npm', ['install', '--save-dev', '--prefer-offline', '--loglevel=error', packed.tarball], app), 'npm install <tarball>');
  const modules = join(app, 'node_modules');
  t.diagnostic(`npm install in ${(install.ms / 1000).toFixed(1)} s; node_modules ${(duSize(modules) / MB).toFixed(1)} MB (synaptic-mcp ${(duSize(join(modules, PKG.name)) / MB).toFixed(1)} MB)`);
  assert.ok(duSize(modules) <= 80 * MB, `install ${duSize(modules)} bytes > 80 MB`);
  assert.ok(!existsSync(join(modules, PKG.name, 'src', 'cli')) && !existsSync(join(modules, 'tsx')), 'no sources, no dev tools');
  assert.ok(existsSync(join(modules, '.bin', 'synaptic')) && existsSync(join(modules, '.bin', PKG.name)), 'the command and its package-name alias');

  // Offline from here: the project's own synaptic, nothing fetched.
  const offline = { npm_config_offline: 'true' };
  assert.equal(ok(run('npx', ['synaptic', '--version'], app, offline), 'npx synaptic --version').stdout.trim(), PKG.version);
  const extract = ok(run('npx', ['synaptic', 'extract', '.'], app, offline), 'npx synaptic extract .');
  assert.match(extract.stderr, /^extracted \d+ files .*: \d+ nodes, \d+ links/m);
  assert.match(extract.stderr, /^next: `npx -y synaptic-mcp install claude` \(or `codex`\)/m, 'the next step as the user can run it: npx');
  assert.ok(existsSync(join(app, 'synaptic-out', 'graph.json')) && existsSync(join(app, 'synaptic-out', 'graph.cbor')));
  ok(run('npx', ['synaptic', 'export', 'html', '--out', join(dir, 'explorer.html')], app, offline), 'npx synaptic export html');
  assert.match(readFileSync(join(dir, 'explorer.html'), 'utf8'), /<script/);
  // The library export: the core finds wasm/synaptic.wasm inside the installed package.
  const bfs = "import { Core } from 'synaptic-mcp/core'; const g = (await Core.load()).graph({ n: 3, src: new Uint32Array([0, 1]), dst: new Uint32Array([1, 2]) }); console.log([...g.bfs(0)].join(','));";
  assert.equal(ok(run(process.execPath, ['--input-type=module', '-e', bfs], app), 'synaptic-mcp/core').stdout.trim(), '0,1,2');

  const client = new Client({ name: 'package-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: 'npx', args: ['synaptic', 'serve'], cwd: join(app, 'src'), env: { ...env, ...offline } as Record<string, string>, stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((x) => x.name);
    for (const name of ['query_graph', 'get_node', 'affected', 'remember', 'recall']) assert.ok(tools.includes(name), `${name} is listed:\n${log}`);
    const answer = await client.callTool({ name: 'query_graph', arguments: { question: 'how are numbers clamped' } });
    assert.match((answer.content as Array<{ text: string }>)[0]!.text, /NODE .*clamp/);
    // The memory store: better-sqlite3's native binary, installed with the package.
    const stored = await client.callTool({ name: 'remember', arguments: { content: 'clamp() lives in src/util/numbers.ts.' } });
    assert.notEqual(stored.isError, true, JSON.stringify(stored));
  } finally {
    await client.close();
  }
});

/** The tarball installed into the app as a devDependency, and the app extracted (each test may run alone). */
function ensureInstalled(): void {
  if (!existsSync(join(app, 'node_modules', '.bin', 'synaptic'))) ok(run('npm', ['install', '--save-dev', '--prefer-offline', '--loglevel=error', packed.tarball], app), 'npm install');
  if (!existsSync(join(app, 'synaptic-out', 'graph.json'))) ok(run('npx', ['synaptic', 'extract', '.'], app), 'extract');
}

/** The npx cache folders that hold `spec` (npx installs each spec list into <cache>/_npx/<hash>). */
function npxInstalls(spec: string): string[] {
  const root = join(env.npm_config_cache!, '_npx');
  if (!existsSync(root)) return [];
  return readdirSync(root).map((d) => join(root, d)).filter((d) => {
    try {
      return (JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { _npx?: { packages?: string[] } })._npx?.packages?.includes(spec);
    } catch {
      return false;
    }
  });
}

test('npx -y file:<tarball> serve, started the way an MCP client starts it, answers tools/list', async (t) => {
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  ensureInstalled();
  const graph = join(app, 'synaptic-out', 'graph.json');
  // file: makes it a package spec: a bare path to an existing file is a command to npx.
  const spec = `file:${packed.tarball}`;
  try {
    for (const round of ['cold (npx installs the tarball)', 'warm (npx cache; a file: spec is resolved again on every start)']) {
      const started = Date.now();
      const client = new Client({ name: 'package-test', version: '1.0.0' });
      const transport = new StdioClientTransport({ command: 'npx', args: ['-y', spec, 'serve', '--graph', graph], cwd: elsewhere, env: env as Record<string, string>, stderr: 'pipe' });
      let log = '';
      transport.stderr?.on('data', (d: Buffer) => (log += d.toString()));
      try {
        await client.connect(transport);
        const tools = (await client.listTools()).tools.map((x) => x.name);
        assert.ok(tools.includes('query_graph') && tools.includes('remember'), log);
        t.diagnostic(`${round}: spawn to tools/list in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      } finally {
        await client.close();
      }
    }
    assert.equal(npxInstalls(spec).length, 1, 'npx installed the tarball into its cache once');
  } finally {
    for (const d of npxInstalls(spec)) rmSync(d, { recursive: true, force: true });
  }
});

test('synaptic install claude writes npx -y synaptic-mcp serve into .mcp.json; the real claude mcp list shows it connected', (t: TestContext) => {
  const claude = installClient(t, CLAUDE);
  if (!claude) return;
  ensureInstalled();
  const offline = { npm_config_offline: 'true' };
  const out = ok(run('npx', ['synaptic', 'install', 'claude', '--no-gitignore'], app, offline), 'npx synaptic install claude').out;
  assert.match(out, /\.mcp\.json and \.claude\/settings\.json run synaptic as `npx -y synaptic-mcp`/);
  const mcp = readFileSync(join(app, '.mcp.json'), 'utf8');
  assert.deepEqual(JSON.parse(mcp).mcpServers.synaptic, { type: 'stdio', command: 'npx', args: ['-y', 'synaptic-mcp', 'serve'] });
  for (const file of ['.mcp.json', join('.claude', 'settings.json')]) {
    const text = readFileSync(join(app, file), 'utf8');
    assert.ok(!text.includes(dir) && !text.includes(ROOT), `${file} names no path of this machine:\n${text}`);
  }
  // The approval a person gives on first start, in the user's settings; offline, so npx can only use the devDependency.
  mkdirSync(join(env.HOME!, '.claude'), { recursive: true });
  writeFileSync(join(env.HOME!, '.claude', 'settings.json'), '{ "enabledMcpjsonServers": ["synaptic"] }\n');
  for (const cwd of [app, join(app, 'src')]) {
    const list = run(claude, ['mcp', 'list'], cwd, offline, 120_000);
    t.diagnostic(`claude mcp list in ${cwd === app ? 'the root' : 'src/'} (${(list.ms / 1000).toFixed(1)} s): ${list.out.trim().split('\n').find((l) => l.startsWith('synaptic')) ?? list.out}`);
    assert.match(list.out, /^synaptic: npx -y synaptic-mcp serve - ✔ Connected$/m, list.out);
  }
  // And uninstall takes out exactly that.
  ok(run('npx', ['synaptic', 'uninstall', 'claude'], app, offline), 'npx synaptic uninstall claude');
  assert.ok(!existsSync(join(app, '.mcp.json')) && !existsSync(join(app, '.claude')), 'the files the install created are gone');
});

test('synaptic install codex writes npx -y synaptic-mcp serve; Codex starts the server and the SessionStart hook through it', async (t) => {
  const codex = installClient(t, CODEX);
  if (!codex) return;
  ensureInstalled();
  const offline = { npm_config_offline: 'true' };
  ok(run('npx', ['synaptic', 'install', 'codex', '--no-gitignore'], app, offline), 'npx synaptic install codex');
  assert.ok(readFileSync(join(app, '.codex', 'config.toml'), 'utf8').includes('[mcp_servers.synaptic]\ncommand = "npx"\nargs = ["-y", "synaptic-mcp", "serve"]\n'));
  assert.equal(JSON.parse(readFileSync(join(app, '.codex', 'hooks.json'), 'utf8')).hooks.SessionStart[0].hooks[0].command, 'npx -y synaptic-mcp session --json');
  // The trust a person gives when Codex asks, as Codex records it.
  mkdirSync(env.CODEX_HOME!, { recursive: true });
  writeFileSync(join(env.CODEX_HOME!, 'config.toml'), `[projects.${JSON.stringify(realpathSync(app))}]\ntrust_level = "trusted"\n`);
  const started = Date.now();
  const output = await codexExec(codex, join(app, 'src'), { ...env, ...offline }, (o) => /Service initialized as client.*name: "synaptic"/.test(o) && /hook: SessionStart (Completed|Failed)/.test(o));
  t.diagnostic(`codex exec to the handshake and the hook: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.match(output, /Service initialized as client.*name: "synaptic"/, output.slice(-4000));
  assert.match(output, /hook: SessionStart Completed/, output.slice(-4000));
  assert.doesNotMatch(output, /MCP server startup failed server_name="synaptic"|hook: SessionStart Failed/);
  ok(run('npx', ['synaptic', 'uninstall', 'codex'], app, offline), 'npx synaptic uninstall codex');
  assert.ok(!existsSync(join(app, '.codex')), 'the files the install created are gone');
});
