/**
 * The first hour of a new user, scripted (issue #18): a fresh clone of this repository into a temp
 * folder, the README's opening command run as written (extract a repository and serve it), a first
 * question through the MCP Inspector CLI, then `install` into Claude Code and Codex with scratch
 * HOMEs and each client's own view of the server.
 *
 * One shortcut: the clone's node_modules is a link to this checkout's instead of a second `npm ci`
 * (CI runs `npm ci` on its own clean clone just before; a second one would double its install time).
 * Everything else (the build, extract, serve, install) runs from the clone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLAUDE, CODEX, INSPECTOR, installClient } from '../helpers/npm-clients.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The README's first shell block: the main-job line and the test line (comments dropped). */
function readmeCommands(): { main: string; tests: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const lines = block.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  assert.equal(lines.length, 2, `the README opens with two commands (main job, tests):\n${block}`);
  return { main: lines[0]!, tests: lines[1]! };
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout = 300_000) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', out: `${r.stdout ?? ''}${r.stderr ?? ''}`, error: r.error };
}

test('first hour: fresh clone, README main command, a question through the Inspector, install into Claude Code and Codex', { timeout: 900_000 }, (t) => {
  const commands = readmeCommands();
  assert.match(commands.tests, /^npm ci && npm test$/, 'the README test command');
  assert.match(commands.main, /^npm ci && npm run build && node dist\/cli\/main\.js extract \/path\/to\/repo && node dist\/cli\/main\.js serve /);
  const inspector = installClient(t, INSPECTOR);
  if (!inspector) return;
  const claude = installClient(t, CLAUDE);
  const codex = installClient(t, CODEX);

  const dir = mkdtempSync(join(tmpdir(), 'synaptic-first-hour-'));
  try {
    const clone = join(dir, 'synaptic');
    execFileSync('git', ['clone', '-q', '--no-hardlinks', ROOT, clone]);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    const repo = join(dir, 'my-repo');
    cpSync(join(ROOT, 'test/fixtures/repo'), repo, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    const home = join(dir, 'home');
    const bin = join(dir, 'bin');
    for (const d of [home, bin]) mkdirSync(d, { recursive: true });
    symlinkSync(process.execPath, join(bin, 'node'));
    // No synaptic on PATH, no credentials or settings of the caller's: a new user's machine.
    const env: NodeJS.ProcessEnv = {
      PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: home,
      SYNAPTIC_DATA_DIR: join(dir, 'data'),
      TMPDIR: tmpdir(),
      LANG: 'C.UTF-8',
      CODEX_HOME: join(home, '.codex'),
      npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? home, '.npm'),
    };

    // 1. The README's main command, as written, minus the `npm ci` (see the file comment); serve
    //    reads stdin from /dev/null, so it answers nothing and exits when its input ends.
    const main = commands.main.replace(/^npm ci && /, '').replaceAll('/path/to/repo', repo);
    const started = Date.now();
    const job = run('sh', ['-c', main], clone, env);
    t.diagnostic(`README main command in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(job.status, 0, job.out.slice(-4000));
    assert.match(job.stderr, /^extracted \d+ files \(.*\): \d+ nodes, \d+ links, .* -> .*my-repo\/synaptic-out$/m, 'extract says what it did');
    assert.match(job.stderr, /^next: `synaptic install claude`/m, 'and what to do next');
    assert.match(job.stderr, /MCP server ready on stdio/);
    const cli = join(clone, 'dist/cli/main.js');

    // 2. A first question through the MCP Inspector CLI, from a subfolder with no --graph.
    const sub = join(repo, 'src');
    const list = run(inspector, ['--cli', process.execPath, cli, 'serve', '--method', 'tools/list'], sub, env, 120_000);
    assert.equal(list.status, 0, list.out.slice(-4000));
    const tools = (JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((x) => x.name);
    for (const name of ['query_graph', 'get_node', 'affected', 'remember', 'recall']) assert.ok(tools.includes(name), `${name} is listed`);
    const ask = run(inspector, ['--cli', process.execPath, cli, 'serve', '--method', 'tools/call', '--tool-name', 'query_graph', '--tool-arg', 'question=how are numbers clamped'], sub, env, 120_000);
    assert.equal(ask.status, 0, ask.out.slice(-4000));
    const answer = JSON.parse(ask.stdout) as { content: Array<{ text: string }>; isError?: boolean };
    assert.notEqual(answer.isError, true, ask.stdout);
    assert.match(answer.content[0]!.text, /NODE .*clamp/, `the answer names clamp:\n${answer.content[0]!.text}`);

    // 3. Claude Code: install, approve as a person would on first start, and the client connects.
    //    A clone's user puts its synaptic on PATH (npm link) and registers it with --local-bin; the
    //    default, npx -y synaptic-mcp, needs the published package (test/package/ covers it).
    symlinkSync(cli, join(bin, 'synaptic'));
    if (claude) {
      const out = run(process.execPath, [cli, 'install', 'claude', '--local-bin', '--no-gitignore'], repo, env);
      assert.equal(out.status, 0, out.out);
      t.diagnostic(`synaptic install claude:\n${out.out.trim()}`);
      mkdirSync(join(home, '.claude'), { recursive: true });
      writeFileSync(join(home, '.claude', 'settings.json'), '{ "enabledMcpjsonServers": ["synaptic"] }\n');
      const mcp = run(claude, ['mcp', 'list'], repo, env, 120_000);
      t.diagnostic(`claude mcp list:\n${mcp.out.trim()}`);
      assert.match(mcp.out, /^synaptic: .* serve - ✔ Connected$/m, mcp.out);
    }

    // 4. Codex: install, trust the project as Codex records it, and Codex lists the server.
    if (codex) {
      const first = run(process.execPath, [cli, 'install', 'codex', '--local-bin', '--no-gitignore'], repo, env);
      assert.equal(first.status, 0, first.out);
      t.diagnostic(`synaptic install codex:\n${first.out.trim()}`);
      assert.match(first.out, /trust/i, 'the installer names the Codex trust step');
      mkdirSync(env.CODEX_HOME!, { recursive: true });
      writeFileSync(join(env.CODEX_HOME!, 'config.toml'), `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`);
      const mcp = run(codex, ['mcp', 'list'], repo, env, 120_000);
      t.diagnostic(`codex mcp list:\n${mcp.out.trim()}`);
      assert.match(mcp.out, /^synaptic\s.*serve\s.*\benabled\b/m, mcp.out);
    }
    assert.ok(!existsSync(join(clone, 'synaptic-out')), 'nothing was written into the clone itself');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
