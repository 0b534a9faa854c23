/**
 * The installers against the real clients from npm, pinned: Claude Code and Codex CLI, each in a
 * scratch HOME with a scratch project. What runs offline is tested: the MCP server connects, and
 * each hook runs and its output passes the client's validation (Claude Code's debug log; Codex's
 * hook status and the context it records). A compaction itself needs a model, so the SessionStart
 * output after one is covered by hooks.test.ts, not here.
 *
 * The clients are installed once into a cache folder ($SYNAPTIC_TEST_CLIENTS, else
 * $XDG_CACHE_HOME/synaptic-test-clients, else <tmpdir>/synaptic-test-clients) and reused; a test
 * skips, saying why, only when npm cannot install its client.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { offerGitignore } from '../../src/cli/commands/install.ts';
import { normalizeProjectPath } from '../../src/memory/project.ts';
import { MemoryStore } from '../../src/memory/store.ts';
import { tempDir } from './helpers.ts';
import { CLAUDE, CODEX, codexExec, installClient } from '../helpers/npm-clients.ts';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/**
 * A scratch world: HOME, synaptic data dir, and a git repository with a subfolder and one memory.
 * PATH holds node and `synaptic` (links to this checkout's built CLI, as `npm link` makes) and the
 * system folders only, so no credentials from the caller's environment reach the clients. The
 * installs use --local-bin (the bare `synaptic`): the default, `npx -y synaptic-mcp`, would fetch
 * the package from the registry (test/package/pack-install-run.test.ts covers it with the tarball).
 */
function scratch() {
  const t = tempDir('synaptic-clients-');
  const home = join(t.dir, 'home');
  const data = join(t.dir, 'data');
  const bin = join(t.dir, 'bin');
  const repo = join(t.dir, 'repo');
  for (const d of [home, bin, join(repo, 'sub')]) mkdirSync(d, { recursive: true });
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync(MAIN, join(bin, 'synaptic'));
  writeFileSync(join(repo, 'a.ts'), 'export function answer(): number {\n  return 42;\n}\n');
  const env: NodeJS.ProcessEnv = { PATH: `${bin}:/usr/bin:/bin`, HOME: home, SYNAPTIC_DATA_DIR: data, TMPDIR: tmpdir(), LANG: 'C.UTF-8', CODEX_HOME: join(home, '.codex') };
  assert.equal(spawnSync('git', ['init', '-q', repo], { env }).status, 0, 'git init');
  const project = normalizeProjectPath(repo);
  const store = MemoryStore.open({ dir: data });
  try {
    store.remember({ content: 'The answer is computed in a.ts and is always 42.', source: 'test', scope: 'project', project });
  } finally {
    store.close();
  }
  return { ...t, home, env, repo: project, sub: join(project, 'sub') };
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout = 120_000) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'] });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, error: r.error };
}

function synaptic(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = run(process.execPath, [MAIN, ...args], cwd, env);
  assert.equal(r.status, 0, r.out);
  return r.out;
}

test('Claude Code: synaptic install claude connects the server and both hooks pass its validation', (t) => {
  assert.ok(existsSync(MAIN), 'build the CLI first: npm run build:cli');
  const claude = installClient(t, CLAUDE);
  if (!claude) return;
  const s = scratch();
  try {
    const out = synaptic(['install', 'claude', '--local-bin', '--no-gitignore'], s.repo, s.env);
    assert.match(out, /\.mcp\.json: MCP server "synaptic"/);
    assert.match(out, /run `synaptic` from PATH \(--local-bin\): every teammate needs it on PATH too/);
    assert.deepEqual(JSON.parse(readFileSync(join(s.repo, '.mcp.json'), 'utf8')).mcpServers.synaptic, { type: 'stdio', command: 'synaptic', args: ['serve'] });
    // The approval a person gives on first start, in the user's settings.
    mkdirSync(join(s.home, '.claude'), { recursive: true });
    writeFileSync(join(s.home, '.claude', 'settings.json'), '{ "enabledMcpjsonServers": ["synaptic"] }\n');
    for (const cwd of [s.repo, s.sub]) {
      const list = run(claude, ['mcp', 'list'], cwd, s.env);
      assert.match(list.out, /^synaptic: .* serve - ✔ Connected$/m, `claude mcp list in ${cwd}:\n${list.out}`);
    }
    const log = join(s.dir, 'debug.log');
    const compact = run(claude, ['-p', '/compact', '--debug-file', log], s.repo, s.env);
    assert.ok(existsSync(log), compact.out);
    const text = readFileSync(log, 'utf8');
    const ours = text.split('\n').filter((l) => l.includes('synaptic session') || l.includes('synaptic compact') || l.includes('Synaptic'));
    const report = ours.join('\n');
    assert.match(report, /SessionStart:startup \[synaptic session --json\] finished with status 0/, report);
    assert.match(text, /Successfully parsed and validated hook JSON output/);
    assert.match(report, /Hook SessionStart \(synaptic session --json\) provided additionalContext/, report);
    assert.match(report, /Synaptic connected · 1 memory/, report);
    assert.match(report, /PreCompact:manual \[synaptic compact\] completed with status 0/, report);
    const afterPreCompact = text.slice(text.search(/PreCompact:manual \[synaptic compact\] completed/));
    assert.match(afterPreCompact.split('\n')[1] ?? '', /Hook output does not start with \{, treating as plain text/);
    assert.doesNotMatch(text, /validation failed/i);
    assert.doesNotMatch(report, /failed to run/);
  } finally {
    s.cleanup();
  }
});

/** The texts Codex recorded as hook context (developer messages of kind hooks.additional_context). */
function hookContexts(codexHome: string): string[] {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl')) {
        for (const line of readFileSync(p, 'utf8').split('\n')) {
          if (!line.includes('hooks.additional_context')) continue;
          const item = JSON.parse(line) as { payload?: { content?: Array<{ text?: string }> } };
          for (const c of item.payload?.content ?? []) if (c.text) texts.push(c.text);
        }
      }
    }
  };
  walk(join(codexHome, 'sessions'));
  return texts;
}

test('Codex: synaptic install codex registers the server and a SessionStart hook whose context Codex records', async (t) => {
  assert.ok(existsSync(MAIN), 'build the CLI first: npm run build:cli');
  const codex = installClient(t, CODEX);
  if (!codex) return;
  const s = scratch();
  try {
    const codexHome = s.env.CODEX_HOME!;
    const out = synaptic(['install', 'codex', '--local-bin', '--no-gitignore'], s.repo, s.env);
    assert.match(out, /\.codex\/hooks\.json: SessionStart hook/);
    assert.match(out, /has not recorded .* as trusted/);
    assert.match(out, /open \/hooks and trust the synaptic SessionStart hook/);
    // Untrusted, Codex ignores the project's .codex/ entirely.
    assert.doesNotMatch(run(codex, ['mcp', 'list'], s.repo, s.env).out, /^synaptic\s/m);
    // The trust a person gives when Codex asks, as Codex records it; the installer now sees it.
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), `[projects.${JSON.stringify(s.repo)}]\ntrust_level = "trusted"\n`);
    assert.match(synaptic(['install', 'codex', '--local-bin', '--no-gitignore'], s.repo, s.env), /Codex trusts .*, so it reads \.codex\/config\.toml and \.codex\/hooks\.json there/);
    const list = run(codex, ['mcp', 'list'], s.sub, s.env);
    assert.match(list.out, /^synaptic\s+synaptic\s+serve\s.*\benabled\b/m, list.out);
    // From a subfolder: the hook runs there and still finds the repository's memory.
    const wanted = `Synaptic is connected and holds 1 memory for ${s.repo}.`;
    const output = await codexExec(codex, s.sub, s.env, (o) => /Service initialized as client.*name: "synaptic"/.test(o) && /hook: SessionStart (Completed|Failed)/.test(o) && hookContexts(codexHome).length > 0);
    assert.match(output, /hook: SessionStart Completed/, output.slice(-4000));
    assert.doesNotMatch(output, /hook: SessionStart Failed|hook returned invalid|invalid hooks config/);
    assert.match(output, /Service initialized as client.*name: "synaptic"/, 'Codex finished the MCP handshake with synaptic');
    assert.doesNotMatch(output, /MCP server startup failed server_name="synaptic"/);
    const contexts = hookContexts(codexHome);
    assert.ok(contexts.some((c) => c.startsWith(wanted) && c.includes('The answer is computed in a.ts and is always 42.')), contexts.join('\n---\n'));
  } finally {
    s.cleanup();
  }
});

test('install offers synaptic-out/ for .gitignore: asked on a terminal, --gitignore adds it, a pipe gets a hint, nothing twice', async () => {
  assert.ok(existsSync(MAIN), 'build the CLI first: npm run build:cli');
  const s = scratch();
  try {
    const gitignore = join(s.repo, '.gitignore');
    const piped = synaptic(['install', 'claude'], s.repo, s.env);
    assert.match(piped, /^hint: synaptic-out\/ .* is not in \.gitignore: add it, or run install again with --gitignore\.$/m);
    assert.ok(!existsSync(gitignore), 'never written without being asked');
    assert.doesNotMatch(synaptic(['install', 'claude', '--no-gitignore'], s.repo, s.env), /gitignore/);
    writeFileSync(gitignore, 'node_modules/');
    assert.match(synaptic(['install', 'claude', '--gitignore'], s.repo, s.env), new RegExp(`^${gitignore}: added synaptic-out/$`, 'm'));
    assert.equal(readFileSync(gitignore, 'utf8'), 'node_modules/\nsynaptic-out/\n');
    assert.doesNotMatch(synaptic(['install', 'codex'], s.repo, s.env), /gitignore/, 'already ignored: no hint, no question');
    // A terminal: the question, answered no, then yes (the default). Ignored by a nested rule: not asked.
    writeFileSync(gitignore, '');
    const questions: string[] = [];
    assert.equal(await offerGitignore(s.repo, 'ask', async (q) => (questions.push(q), false)), null);
    assert.equal(readFileSync(gitignore, 'utf8'), '');
    assert.equal(await offerGitignore(s.repo, 'ask', async (q) => (questions.push(q), true)), `${gitignore}: added synaptic-out/`);
    assert.deepEqual(questions, Array(2).fill(`Add synaptic-out/ (the graph synaptic extract writes) to ${gitignore}? [Y/n] `));
    writeFileSync(gitignore, '');
    mkdirSync(join(s.repo, '.git', 'info'), { recursive: true });
    writeFileSync(join(s.repo, '.git', 'info', 'exclude'), 'synaptic-out\n');
    assert.equal(await offerGitignore(s.repo, 'ask', async () => assert.fail('asked although git ignores it')), null);
    assert.equal(await offerGitignore(dirname(s.repo), 'add'), null, 'not a git repository: nothing');
  } finally {
    s.cleanup();
  }
});
