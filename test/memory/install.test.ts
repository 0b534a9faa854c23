import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installClaude, uninstallClaude } from '../../src/memory/install/claude.ts';
import { installCodex, uninstallCodex } from '../../src/memory/install/codex.ts';
import { codexServerName } from '../../src/memory/install/codex-toml.ts';
import { parseJsonText } from '../../src/memory/install/json-text.ts';
import type { InstallOptions } from '../../src/memory/install/options.ts';
import { tempDir } from './helpers.ts';

function setup(global = false) {
  const t = tempDir('synaptic-install-test-');
  const home = join(t.dir, 'home');
  const project = join(t.dir, 'repo');
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const opts: InstallOptions = { home, project, global, dataDir: join(t.dir, 'data'), command: { command: 'synaptic', args: [], portability: 'path' }, codexHome: join(home, '.codex') };
  mkdirSync(opts.dataDir);
  return { ...t, home, project, opts };
}

function write(file: string, text: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
}

const read = (file: string) => readFileSync(file, 'utf8');

const MCP_JSON = `{
    "mcpServers": {
        "github": {"command": "gh-mcp", "args": ["--read-only"], "env": {"N": 1.50}}
    },
    "note": "caf\\u00e9 \\ud83d\\ude00"
}
`;

const SETTINGS_JSON = `{
  // editor-added comment
  "permissions": { "allow": ["Bash(npm test:*)"], "deny": [] },
  "hooks": {
    "SessionStart": [
      { "matcher": "startup", "hooks": [ { "type": "command", "command": "echo hello" } ] }
    ]
  },
  "model": "opus"
}`;

test('installClaude() merges into existing files, is idempotent, and uninstall restores every byte', () => {
  const s = setup();
  try {
    const mcp = join(s.project, '.mcp.json');
    const settings = join(s.project, '.claude', 'settings.json');
    write(mcp, MCP_JSON);
    write(settings, SETTINGS_JSON);
    const r = installClaude(s.opts);
    assert.equal(r.changed.length, 3);
    const mcpDoc = JSON.parse(read(mcp));
    assert.deepEqual(mcpDoc.mcpServers.synaptic, { type: 'stdio', command: 'synaptic', args: ['serve'] });
    assert.deepEqual(mcpDoc.mcpServers.github.args, ['--read-only']);
    assert.ok(read(mcp).includes('"N": 1.50'), 'number spelling kept');
    assert.ok(read(mcp).includes('\\u00e9'), 'escapes kept');
    const settingsText = read(settings);
    assert.ok(settingsText.includes('// editor-added comment'));
    parseJsonText(settingsText);
    const noComments = JSON.parse(settingsText.replace(/^\s*\/\/.*$/m, ''));
    assert.equal(noComments.hooks.SessionStart.length, 2);
    assert.equal(noComments.hooks.SessionStart[1].hooks[0].command, 'synaptic session --json');
    assert.equal(noComments.hooks.PreCompact[0].hooks[0].command, 'synaptic compact');
    assert.equal(noComments.model, 'opus');

    const snapshot = [read(mcp), read(settings)];
    assert.equal(installClaude(s.opts).changed.length, 0);
    assert.deepEqual([read(mcp), read(settings)], snapshot, 'second install changes nothing');

    uninstallClaude(s.opts);
    assert.equal(read(mcp), MCP_JSON);
    assert.equal(read(settings), SETTINGS_JSON);
  } finally {
    s.cleanup();
  }
});

test('installClaude() creates missing files and folders, and uninstall removes them again', () => {
  const s = setup();
  try {
    installClaude(s.opts);
    assert.ok(existsSync(join(s.project, '.mcp.json')));
    assert.ok(existsSync(join(s.project, '.claude', 'settings.json')));
    uninstallClaude(s.opts);
    assert.ok(!existsSync(join(s.project, '.mcp.json')));
    assert.ok(!existsSync(join(s.project, '.claude')));
  } finally {
    s.cleanup();
  }
});

test('installClaude --global edits ~/.claude.json and ~/.claude/settings.json; uninstall keeps later user edits', () => {
  const s = setup(true);
  try {
    const claudeJson = join(s.home, '.claude.json');
    const original = '{"numStartups":12,"projects":{"/x":{"allowedTools":[]}},"mcpServers":{}}';
    write(claudeJson, original);
    installClaude(s.opts);
    const doc = JSON.parse(read(claudeJson));
    assert.equal(doc.mcpServers.synaptic.command, 'synaptic');
    assert.equal(doc.numStartups, 12);
    // The user adds a server after ours; uninstall must keep it.
    const edited = read(claudeJson).replace(/\n\s*}\s*}$/, ',\n    "mine": {"command": "m"}\n  }\n}');
    write(claudeJson, edited);
    assert.equal(JSON.parse(edited).mcpServers.mine.command, 'm');
    uninstallClaude(s.opts);
    const after = JSON.parse(read(claudeJson));
    assert.equal(after.mcpServers.synaptic, undefined);
    assert.deepEqual(after.mcpServers.mine, { command: 'm' });
    assert.equal(after.numStartups, 12);
    assert.ok(!existsSync(join(s.home, '.claude', 'settings.json')));
  } finally {
    s.cleanup();
  }
});

test('installClaude() refuses invalid JSON without writing anything', () => {
  const s = setup();
  try {
    const mcp = join(s.project, '.mcp.json');
    write(mcp, '{"mcpServers": {');
    assert.throws(() => installClaude(s.opts), /not valid JSON/);
    assert.equal(read(mcp), '{"mcpServers": {');
    assert.ok(!existsSync(join(s.project, '.claude')));
  } finally {
    s.cleanup();
  }
});

const CODEX_TOML = `# Codex settings
model = "o4-mini"   # keep this comment
approval_policy = "on-request"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]  # trailing comment

# profiles below
[profiles.fast]
model = "gpt-4.1-mini"`; // no final newline

test('installCodex --global appends a per-repo table, keeps comments and order, and uninstall restores every byte', () => {
  const s = setup(true);
  try {
    const file = join(s.home, '.codex', 'config.toml');
    write(file, CODEX_TOML);
    installCodex(s.opts);
    const text = read(file);
    assert.ok(text.startsWith(CODEX_TOML), 'the original text is untouched, the table is appended');
    const name = codexServerName(s.opts, read(file)).name;
    assert.equal(name, 'synaptic-repo', 'the spec\'s name: synaptic-<repo>');
    assert.ok(text.includes(`[mcp_servers.${name}]\ncommand = "synaptic"\nargs = ["serve", "--graph", ${JSON.stringify(join(s.project, 'synaptic-out', 'graph.json'))}]`));
    assert.ok(text.includes(`env = { SYNAPTIC_PROJECT_DIR = ${JSON.stringify(s.project)} }`));
    installCodex(s.opts);
    assert.equal(read(file), text, 'idempotent');
    uninstallCodex(s.opts);
    assert.equal(read(file), CODEX_TOML);
  } finally {
    s.cleanup();
  }
});

test('installCodex (project) writes [mcp_servers.synaptic]; uninstall after user edits removes only that table', () => {
  const s = setup();
  try {
    const file = join(s.project, '.codex', 'config.toml');
    const original = '# project codex config\n[mcp_servers.other]\ncommand = "x"\n';
    write(file, original);
    installCodex(s.opts);
    assert.ok(read(file).includes('\n[mcp_servers.synaptic]\ncommand = "synaptic"\nargs = ["serve"]\n'));
    // The user edits our table and appends another one afterwards.
    write(file, read(file).replace('args = ["serve"]', 'args = ["serve", "--concise"]') + '\n[mcp_servers.after]\ncommand = "y"\n');
    uninstallCodex(s.opts);
    assert.equal(read(file), original + '\n[mcp_servers.after]\ncommand = "y"\n');
  } finally {
    s.cleanup();
  }
});

test('installCodex() refuses a config that defines mcp_servers inline', () => {
  const s = setup();
  try {
    const file = join(s.project, '.codex', 'config.toml');
    write(file, 'mcp_servers = { synaptic = { command = "old" } }\n');
    assert.throws(() => installCodex(s.opts), /inline table/);
    assert.equal(read(file), 'mcp_servers = { synaptic = { command = "old" } }\n');
  } finally {
    s.cleanup();
  }
});

test('installClaude() appends to a one-line JSON file inline and removes it exactly', () => {
  const s = setup();
  try {
    const mcp = join(s.project, '.mcp.json');
    const original = '{"mcpServers":{"a,1":{"command":"x"}}}';
    write(mcp, original);
    installClaude({ ...s.opts, command: { command: '/opt/odd,1:"dir"/synaptic', args: [], portability: 'given' } });
    const doc = JSON.parse(read(mcp));
    assert.equal(doc.mcpServers.synaptic.command, '/opt/odd,1:"dir"/synaptic');
    assert.equal(read(mcp).split('\n').length, 1, 'stays on one line');
    uninstallClaude({ ...s.opts, command: { command: '/opt/odd,1:"dir"/synaptic', args: [], portability: 'given' } });
    assert.equal(read(mcp), original);
  } finally {
    s.cleanup();
  }
});

test('installClaude() then uninstallClaude() restores any JSON settings file byte for byte (property)', async () => {
  const fc = (await import('fast-check')).default;
  const s = setup();
  try {
    const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== 'mcpServers' && k !== 'hooks' && k !== '__proto__');
    const doc = fc.record(
      {
        base: fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
        servers: fc.option(fc.dictionary(key.filter((k) => k !== 'synaptic'), fc.record({ command: fc.string() }), { maxKeys: 3 })),
        hooks: fc.option(fc.record({ SessionStart: fc.array(fc.record({ matcher: fc.string() }), { maxLength: 2 }) }, { requiredKeys: [] })),
        indent: fc.constantFrom(0, 2, 4, '\t'),
        trailing: fc.constantFrom('', '\n', '\n\n'),
      },
      { requiredKeys: ['base', 'indent', 'trailing'] },
    );
    fc.assert(
      fc.property(doc, (d) => {
        const obj: Record<string, unknown> = { ...d.base };
        if (d.servers) obj.mcpServers = d.servers;
        if (d.hooks) obj.hooks = d.hooks;
        const text = JSON.stringify(obj, null, d.indent) + d.trailing;
        const mcp = join(s.project, '.mcp.json');
        const settings = join(s.project, '.claude', 'settings.json');
        write(mcp, text);
        write(settings, text);
        installClaude(s.opts);
        const mcpDoc = JSON.parse(read(mcp));
        const setDoc = JSON.parse(read(settings));
        assert.equal(mcpDoc.mcpServers.synaptic.command, 'synaptic');
        assert.equal(setDoc.hooks.PreCompact.at(-1).hooks[0].command, 'synaptic compact');
        delete mcpDoc.mcpServers.synaptic;
        if (!d.servers) delete mcpDoc.mcpServers;
        assert.deepEqual(mcpDoc, JSON.parse(text));
        uninstallClaude(s.opts);
        assert.equal(read(mcp), text);
        assert.equal(read(settings), text);
      }),
      { numRuns: 60 },
    );
  } finally {
    s.cleanup();
  }
});
