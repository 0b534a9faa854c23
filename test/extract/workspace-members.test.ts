import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWorkspaceYaml } from '../../src/extract/workspace/yaml-subset.ts';
import { loadWorkspace, WorkspaceError } from '../../src/extract/workspace/members.node.ts';
import { readWorkspaceFiles, sourceHash } from '../../src/extract/workspace/state.node.ts';

test('synaptic-workspace.yaml: the documented shape parses, quotes and comments included', () => {
  const doc = parseWorkspaceYaml([
    '# the team workspace',
    'version: 1',
    'members:',
    '  - path: services/api   # the API',
    '    tag: api',
    "  - path: 'web app'",
    '  -',
    '    tag: "lib#1"',
    '    path: libs/core',
    '',
  ].join('\n'));
  assert.equal(doc.version, 1);
  assert.deepEqual(doc.members.map(({ path, tag }) => ({ path, tag })), [
    { path: 'services/api', tag: 'api' }, { path: 'web app', tag: undefined }, { path: 'libs/core', tag: 'lib#1' },
  ]);
});

test('synaptic-workspace.yaml: anything outside the documented shape is refused with its line', () => {
  const bad: Array<[string, RegExp]> = [
    ['members:\n  - path: a\n    tags: x\n', /:3: unknown member key 'tags'/],
    ['repos:\n  - path: a\n', /:1: unknown key 'repos'/],
    ['members:\n  - path: a\n    path: b\n', /:3: 'path' appears twice/],
    ['members:\n  - tag: a\n', /:2: member has no 'path'/],
    ['members: [a, b]\n', /:1: unsupported YAML syntax '\[a, b\]'/],
    ['members: a\n', /:1: 'members:' takes a list/],
    ['members:\n  - path: &anchor a\n', /:2: unsupported YAML syntax/],
    ['members:\n  - path: "a\n', /:2: unterminated quoted string/],
    ['version: one\nmembers:\n  - path: a\n', /:1: version must be a whole number/],
    ['members:\n  - path: a\n   - path: b\n', /:3: list items must line up/],
    ['version: 1\n', /no 'members:' list/],
    ['members:\n\t- path: a\n', /:2: tabs are not allowed/],
  ];
  for (const [text, pattern] of bad) assert.throws(() => parseWorkspaceYaml(text, 'ws.yaml'), pattern, text);
});

function tempWorkspace(): { root: string; cleanup(): void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'synaptic-ws-members-')));
  for (const d of ['a', 'b', 'nested/c']) {
    mkdirSync(join(root, d), { recursive: true });
    writeFileSync(join(root, d, 'index.ts'), `export const ${d.replace('/', '_')} = 1;\n`);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

test('workspace members: tags from folder names or the file; bad members are refused by name', () => {
  const ws = tempWorkspace();
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'synaptic-ws-outside-')));
  try {
    const fromDirs = loadWorkspace(ws.root, ['a', 'nested/c'], ws.root);
    assert.deepEqual(fromDirs.members.map((m) => [m.tag, m.path, m.root]), [['a', 'a', join(ws.root, 'a')], ['c', 'nested/c', join(ws.root, 'nested/c')]]);
    writeFileSync(join(ws.root, 'synaptic-workspace.yaml'), 'members:\n  - path: a\n    tag: alpha\n  - path: b\n');
    assert.deepEqual(loadWorkspace(ws.root, [], ws.root).members.map((m) => m.tag), ['alpha', 'b']);

    const refused = (dirs: string[], pattern: RegExp): void => assert.throws(() => loadWorkspace(ws.root, dirs, ws.root), (err: Error) => err instanceof WorkspaceError && pattern.test(err.message), String(dirs));
    refused([outside], /is outside the workspace root/);
    refused(['../'], /is outside the workspace root/);
    refused(['a', 'missing'], /member 'missing' does not exist/);
    refused(['.'], /is the workspace root itself/);
    refused(['nested', 'nested/c'], /member 'c' \(nested\/c\) is inside member 'nested'/);
    mkdirSync(join(ws.root, 'x'));
    mkdirSync(join(ws.root, 'x', 'a'));
    refused(['a', 'x/a'], /duplicate tag 'a': members 'a' and 'x\/a'/);
    symlinkSync(outside, join(ws.root, 'out-link'));
    refused(['out-link'], /member 'out-link' is a symlink to .*, outside the workspace root/);
    symlinkSync(join(ws.root, 'a'), join(ws.root, 'in-link'));
    assert.equal(loadWorkspace(ws.root, ['in-link'], ws.root).members[0]!.root, join(ws.root, 'a'), 'a link inside the root is the folder it names');
    writeFileSync(join(ws.root, 'synaptic-workspace.yaml'), 'members:\n  - path: a\n    tag: same\n  - path: b\n    tag: same\n');
    refused([], /synaptic-workspace\.yaml:4: duplicate tag 'same'/);
    writeFileSync(join(ws.root, 'synaptic-workspace.yaml'), 'version: 2\nmembers:\n  - path: a\n');
    refused([], /version 2 is not supported/);
  } finally {
    ws.cleanup();
    rmSync(outside, { recursive: true, force: true });
  }
});

test('source_hash follows content, not timestamps, and ignores the member outputs', () => {
  const ws = tempWorkspace();
  try {
    const a = join(ws.root, 'a');
    const before = sourceHash(a);
    assert.match(before, /^sha256:[0-9a-f]{64}$/);
    writeFileSync(join(a, 'index.ts'), 'export const a = 1;\n'); // same bytes, new mtime
    mkdirSync(join(a, 'synaptic-out'));
    writeFileSync(join(a, 'synaptic-out', 'graph.json'), '{}');
    assert.equal(sourceHash(a), before);
    writeFileSync(join(a, 'index.ts'), 'export const a = 2;\n');
    assert.notEqual(sourceHash(a), before);
  } finally {
    ws.cleanup();
  }
});

test('workspace files written by a newer synaptic, or damaged, are refused', () => {
  const ws = tempWorkspace();
  try {
    assert.deepEqual(readWorkspaceFiles(ws.root), { manifest: null, state: null });
    writeFileSync(join(ws.root, 'global-manifest.json'), JSON.stringify({ format: 99, generation: 1, members: [] }));
    assert.throws(() => readWorkspaceFiles(ws.root), /global-manifest\.json was written by a newer synaptic \(format 99; this one reads up to 1\)/);
    writeFileSync(join(ws.root, 'global-manifest.json'), '{"format": 1,');
    assert.throws(() => readWorkspaceFiles(ws.root), /global-manifest\.json is not valid JSON/);
  } finally {
    ws.cleanup();
  }
});
