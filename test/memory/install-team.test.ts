import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { installClaude, uninstallClaude } from '../../src/memory/install/claude.ts';
import { installCodex, uninstallCodex } from '../../src/memory/install/codex.ts';
import { projectTrusted } from '../../src/memory/install/codex-toml.ts';
import { addOutputToGitignore, gitignoreCoversOutput } from '../../src/memory/install/gitignore.ts';
import { launchCommand, type InstallOptions } from '../../src/memory/install/options.ts';
import { tempDir } from './helpers.ts';

/** A home, a data dir and repositories under one temp folder (`repos` are paths relative to it). */
function setup(global: boolean, ...repos: string[]) {
  const t = tempDir('synaptic-install-team-');
  const home = join(t.dir, 'home');
  mkdirSync(join(home, '.codex'), { recursive: true });
  const projects = repos.map((r) => join(t.dir, r));
  for (const p of projects) mkdirSync(join(p, '.git'), { recursive: true });
  const opts = (project: string): InstallOptions => ({
    home,
    project,
    global,
    dataDir: join(t.dir, 'data'),
    command: { command: 'synaptic', args: [], portability: 'path' },
    codexHome: join(home, '.codex'),
  });
  mkdirSync(join(t.dir, 'data'));
  return { ...t, home, projects, opts };
}

const read = (file: string) => readFileSync(file, 'utf8');

function bin(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'synaptic'), '#!/bin/sh\n');
  chmodSync(join(dir, 'synaptic'), 0o755);
}

test('launchCommand() writes a command every clone can run: npx -y synaptic-mcp, or synaptic from PATH with --local-bin, never a path into a checkout', () => {
  const t = tempDir('synaptic-launch-');
  try {
    const project = join(t.dir, 'repo');
    mkdirSync(join(project, '.git'), { recursive: true });
    const globalBin = join(t.dir, 'global-bin');
    bin(globalBin);
    const env = (PATH: string) => ({ PATH });
    const npx = { command: 'npx', args: ['-y', 'synaptic-mcp'], portability: 'npx' };
    // The default, whatever PATH holds and whether the repository has synaptic-mcp itself.
    assert.deepEqual(launchCommand(project, false, env(globalBin)), npx);
    assert.deepEqual(launchCommand(project, false, env(join(t.dir, 'none'))), npx);
    const localBin = join(project, 'node_modules', '.bin');
    bin(localBin);
    assert.deepEqual(launchCommand(project, false, env(`${localBin}:${globalBin}`)), npx);
    // --local-bin: the bare name, found on PATH outside the repository.
    assert.deepEqual(launchCommand(project, true, env(globalBin)), { command: 'synaptic', args: [], portability: 'path' });
    assert.deepEqual(launchCommand(project, true, env(`${localBin}:${globalBin}`)), { command: 'synaptic', args: [], portability: 'path' }, 'npx put the project bin first on PATH');
    assert.throws(() => launchCommand(project, true, env(join(t.dir, 'none'))), /^Error: Cannot install with --local-bin: synaptic is not on PATH; put it on PATH \(npm install -g synaptic-mcp\) or leave out --local-bin/);
    assert.throws(() => launchCommand(project, true, env(localBin)), new RegExp(`the only synaptic on PATH is ${join(localBin, 'synaptic')}, inside this repository`));
    assert.deepEqual(launchCommand(project, true, { ...env(''), SYNAPTIC_BIN: '/opt/s' }), { command: '/opt/s', args: [], portability: 'given' });
  } finally {
    t.cleanup();
  }
});

test('a project install says who can run the command its files name: npx anywhere, --local-bin needs synaptic on PATH, an absolute SYNAPTIC_BIN only this machine', () => {
  const s = setup(false, 'repo');
  try {
    const project = s.projects[0]!;
    const npx = { ...s.opts(project), command: { command: 'npx', args: ['-y', 'synaptic-mcp'], portability: 'npx' as const } };
    const claude = installClaude(npx);
    const mcp = JSON.parse(read(join(project, '.mcp.json')));
    assert.deepEqual(mcp.mcpServers.synaptic, { type: 'stdio', command: 'npx', args: ['-y', 'synaptic-mcp', 'serve'] });
    const settings = JSON.parse(read(join(project, '.claude', 'settings.json')));
    assert.equal(settings.hooks.SessionStart[0].hooks[0].command, 'npx -y synaptic-mcp session --json');
    assert.equal(settings.hooks.PreCompact[0].hooks[0].command, 'npx -y synaptic-mcp compact');
    assert.ok(!read(join(project, '.mcp.json')).includes(s.dir) && !read(join(project, '.claude', 'settings.json')).includes(s.dir), 'no path of this machine in files meant for the repository');
    assert.ok(claude.notes.some((n) => n.startsWith('.mcp.json and .claude/settings.json run synaptic as `npx -y synaptic-mcp`, which works on every machine with Node and npm')));
    assert.ok(claude.notes.some((n) => n.includes('approve "synaptic"')));
    assert.ok(claude.notes.some((n) => n.includes('only when started at the repository root')));
    const codex = installCodex(npx);
    assert.ok(read(join(project, '.codex', 'config.toml')).endsWith('[mcp_servers.synaptic]\ncommand = "npx"\nargs = ["-y", "synaptic-mcp", "serve"]\n'));
    assert.equal(JSON.parse(read(join(project, '.codex', 'hooks.json'))).hooks.SessionStart[0].hooks[0].command, 'npx -y synaptic-mcp session --json');
    assert.ok(codex.notes.some((n) => n.startsWith('.codex/config.toml and .codex/hooks.json run synaptic as `npx -y synaptic-mcp`')));
    const onPath = setup(false, 'repo');
    try {
      assert.ok(installClaude(onPath.opts(onPath.projects[0]!)).notes.some((n) => n.includes('run `synaptic` from PATH (--local-bin): every teammate needs it on PATH too')));
      const given = { ...onPath.opts(onPath.projects[0]!), command: { command: '/home/me/synaptic/dist/cli/main.js', args: [], portability: 'given' as const } };
      assert.ok(installCodex(given).notes.some((n) => n.includes('(SYNAPTIC_BIN), a path other machines may not have')));
    } finally {
      onPath.cleanup();
    }
  } finally {
    s.cleanup();
  }
});

test('uninstall removes what an npx install added, and by its shape an entry an older install wrote as npx --no-install synaptic', () => {
  const s = setup(false, 'repo');
  try {
    const project = s.projects[0]!;
    const mcpFile = join(project, '.mcp.json');
    const user = '{\n  "mcpServers": {\n    "other": { "command": "other" }\n  }\n}\n';
    writeFileSync(mcpFile, user);
    const npx = { ...s.opts(project), command: { command: 'npx', args: ['-y', 'synaptic-mcp'], portability: 'npx' as const } };
    installClaude(npx);
    installCodex(npx);
    uninstallClaude(npx);
    uninstallCodex(npx);
    assert.equal(read(mcpFile), user);
    assert.ok(!existsSync(join(project, '.claude')) && !existsSync(join(project, '.codex')));
    // No manifest (another data dir): found by shape, whatever command the older entry ran.
    const settings = join(project, '.claude', 'settings.json');
    mkdirSync(dirname(settings));
    const old = (cmd: string) => `{ "hooks": { "SessionStart": [ { "hooks": [ { "type": "command", "command": "${cmd} session --json" } ] } ], "Stop": [] } }\n`;
    for (const cmd of ['npx --no-install synaptic', '/usr/bin/node /home/me/synaptic/dist/cli/main.js', 'synaptic']) {
      writeFileSync(settings, old(cmd));
      uninstallClaude({ ...npx, dataDir: join(s.dir, 'other-data') });
      assert.deepEqual(JSON.parse(read(settings)), { hooks: { SessionStart: [], Stop: [] } }, cmd);
    }
  } finally {
    s.cleanup();
  }
});

test('installCodex (project) adds the SessionStart hook to .codex/hooks.json, names the trust steps, and uninstall restores every byte', () => {
  const s = setup(false, 'repo');
  try {
    const project = s.projects[0]!;
    const hooksFile = join(project, '.codex', 'hooks.json');
    const userHooks = '{\n  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "command", "command": "echo done" } ] } ]\n  }\n}\n';
    mkdirSync(join(project, '.codex'));
    writeFileSync(hooksFile, userHooks);
    const r = installCodex(s.opts(project));
    assert.deepEqual(r.changed.map((c) => c.what), ['MCP server "synaptic"', 'SessionStart hook']);
    const doc = JSON.parse(read(hooksFile));
    assert.deepEqual(doc.hooks.SessionStart, [{ hooks: [{ type: 'command', command: 'synaptic session --json' }] }]);
    assert.equal(doc.hooks.PreCompact, undefined, 'Codex ignores PreCompact stdout: no hook for it');
    assert.deepEqual(doc.hooks.Stop[0].hooks[0].command, 'echo done');
    assert.ok(r.notes.some((n) => n.includes(`has not recorded ${project} as trusted`) && n.includes(`[projects."${project}"] trust_level = "trusted"`)));
    assert.ok(r.notes.some((n) => n.includes('open /hooks and trust the synaptic SessionStart hook')));
    // Once Codex trusts the project the note says so; a second install changes nothing.
    writeFileSync(join(s.home, '.codex', 'config.toml'), `model = "x"\n\n[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`);
    const again = installCodex(s.opts(project));
    assert.equal(again.changed.length, 0);
    assert.ok(again.notes.some((n) => n === `Codex trusts ${project}, so it reads .codex/config.toml and .codex/hooks.json there.`));
    assert.ok(!again.notes.some((n) => n.includes('open /hooks')), 'no hook was added this time');
    uninstallCodex(s.opts(project));
    assert.equal(read(hooksFile), userHooks);
    assert.ok(!existsSync(join(project, '.codex', 'config.toml')));
    // Both files created from nothing: uninstall leaves no .codex folder behind.
    rmSync(join(project, '.codex'), { recursive: true });
    installCodex(s.opts(project));
    uninstallCodex(s.opts(project));
    assert.ok(!existsSync(join(project, '.codex')));
  } finally {
    s.cleanup();
  }
});

test('installCodex --global names the entry synaptic-<repo>; a second repository with the same folder name gets synaptic-<parent>-<repo>', () => {
  const s = setup(true, 'work/app', 'play/app');
  try {
    const [work, play] = s.projects as [string, string];
    const config = join(s.home, '.codex', 'config.toml');
    const hooksFile = join(s.home, '.codex', 'hooks.json');
    assert.deepEqual(installCodex(s.opts(work)).changed.map((c) => c.what), ['MCP server "synaptic-app"', 'SessionStart hook']);
    const second = installCodex(s.opts(play));
    assert.deepEqual(second.changed.map((c) => c.what), ['MCP server "synaptic-play-app"']);
    assert.ok(second.notes.includes(`Named the server "synaptic-play-app" because "synaptic-app" already serves ${work}.`));
    assert.equal(installCodex(s.opts(work)).changed.length, 0, 'each repository finds its own entry by its pin');
    assert.equal(installCodex(s.opts(play)).changed.length, 0);
    const text = read(config);
    assert.ok(text.includes(`[mcp_servers.synaptic-play-app]\ncommand = "synaptic"\nargs = ["serve", "--graph", ${JSON.stringify(join(play, 'synaptic-out', 'graph.json'))}]`));
    // The user-wide hook serves both: it stays until the last repository is uninstalled.
    const u1 = uninstallCodex(s.opts(work));
    assert.ok(u1.unchanged.some((u) => u.file === hooksFile && u.what.includes('synaptic-play-app still use')));
    assert.ok(!read(config).includes('[mcp_servers.synaptic-app]'));
    assert.ok(read(config).includes('[mcp_servers.synaptic-play-app]'));
    uninstallCodex(s.opts(play));
    assert.ok(!existsSync(config) && !existsSync(hooksFile), 'the files the installs created are gone');
  } finally {
    s.cleanup();
  }
});

test('uninstallCodex --global finds an entry by its pin, also one an older install named synaptic-<repo>-<hash>', () => {
  const s = setup(true, 'repo');
  try {
    const project = s.projects[0]!;
    const config = join(s.home, '.codex', 'config.toml');
    const legacy = `model = "x"\n\n[mcp_servers.synaptic-repo-1a2b3c]\ncommand = "synaptic"\nargs = ["serve"]\nenv = { SYNAPTIC_PROJECT_DIR = ${JSON.stringify(project)} }\n`;
    writeFileSync(config, legacy);
    assert.equal(installCodex(s.opts(project)).changed.some((c) => c.file === config), false, 'already installed under its old name');
    const r = uninstallCodex(s.opts(project));
    assert.ok(r.changed.some((c) => c.what === 'removed MCP server "synaptic-repo-1a2b3c"'));
    assert.equal(read(config), 'model = "x"\n');
  } finally {
    s.cleanup();
  }
});

test('projectTrusted() reads Codex\'s [projects."<path>"] trust_level', () => {
  assert.equal(projectTrusted(null, '/a'), false);
  assert.equal(projectTrusted('[projects."/a"]\ntrust_level = "trusted"\n', '/a'), true);
  assert.equal(projectTrusted("[projects.'/a']\ntrust_level = 'trusted'\n", '/a'), true);
  assert.equal(projectTrusted('[projects."/a"]\ntrust_level = "untrusted"\n', '/a'), false);
  assert.equal(projectTrusted('[projects."/a"]\n\n[projects."/b"]\ntrust_level = "trusted"\n', '/a'), false, 'the next table is not this one');
  assert.equal(projectTrusted('[projects."/a/b"]\ntrust_level = "trusted"\n', '/a'), false);
});

test('gitignoreCoversOutput() and addOutputToGitignore(): the top-level synaptic-out folder, appended with the file\'s line endings', () => {
  for (const line of ['synaptic-out', 'synaptic-out/', '/synaptic-out/', '/synaptic-out', 'synaptic-out/**']) assert.ok(gitignoreCoversOutput(`node_modules\n${line}\n`), line);
  for (const text of [null, '', '# synaptic-out/\n', 'synaptic-out-old/\n', 'src/synaptic-out/\n']) assert.ok(!gitignoreCoversOutput(text), String(text));
  const t = tempDir('synaptic-gitignore-');
  try {
    assert.deepEqual(addOutputToGitignore(t.dir), { file: join(t.dir, '.gitignore'), created: true });
    assert.equal(read(join(t.dir, '.gitignore')), 'synaptic-out/\n');
    writeFileSync(join(t.dir, '.gitignore'), 'dist\r\nnode_modules');
    addOutputToGitignore(t.dir);
    assert.equal(read(join(t.dir, '.gitignore')), 'dist\r\nnode_modules\r\nsynaptic-out/\r\n');
    assert.ok(gitignoreCoversOutput(read(join(t.dir, '.gitignore'))));
  } finally {
    t.cleanup();
  }
});
