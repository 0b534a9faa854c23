import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { REPO_ROOT } from './pipeline-fixture.ts';

// `synaptic workspace build|update` end to end on the built CLI, over small member repos copied
// from test/fixtures/repo (real sources in several languages).
const CLI = join(REPO_ROOT, 'dist/cli/main.js');
const skip = !existsSync(CLI) && 'dist/ not built (npm run build)';

function synaptic(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function workspace(members: string[]): { root: string; cleanup(): void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'synaptic-ws-cli-')));
  for (const m of members) cpSync(join(REPO_ROOT, 'test/fixtures/repo', m), join(root, 'repos', m), { recursive: true });
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const json = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));

test('workspace build extracts every member, writes the global manifest and state; update redoes only the changed one', { skip }, () => {
  const ws = workspace(['go', 'c', 'py']);
  try {
    writeFileSync(join(ws.root, 'synaptic-workspace.yaml'), 'version: 1\nmembers:\n  - path: repos/go\n    tag: svc\n  - path: repos/c\n  - path: repos/py\n    tag: tools\n');
    const built = synaptic(['workspace', 'build', '--json'], ws.root);
    assert.equal(built.code, 0, built.stderr);
    const lines = built.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 4, built.stderr);
    for (const tag of ['svc', 'c', 'tools']) assert.ok(lines.some((l) => new RegExp(`^  ${tag}: extracted \\(build\\) \\d+ files .*: \\d+ nodes, \\d+ links`).test(l)), `${tag} line in\n${built.stderr}`);
    assert.match(lines.at(-1)!, /^workspace: 3 members: 3 extracted \(\d+ nodes\), 0 unchanged, 0 failed in [\d.]+s; generation 1 -> .*global-manifest\.json$/);
    const summary = JSON.parse(built.stdout);
    assert.equal(summary.extracted, 3);

    const out = join(ws.root, 'synaptic-out');
    const manifest = json(join(out, 'global-manifest.json'));
    assert.equal(manifest.format, 1);
    assert.equal(manifest.generation, 1);
    assert.deepEqual(manifest.members.map((m: any) => [m.tag, m.path, m.source_root, m.status]), [
      ['svc', 'repos/go', join(ws.root, 'repos/go'), 'ok'], ['c', 'repos/c', join(ws.root, 'repos/c'), 'ok'], ['tools', 'repos/py', join(ws.root, 'repos/py'), 'ok'],
    ]);
    for (const m of manifest.members) {
      const graph = json(join(m.out_dir, 'graph.json'));
      assert.equal(graph.nodes.length, m.nodes, `${m.tag}: manifest counts are its graph's`);
      assert.ok(m.nodes > 0);
      assert.deepEqual([m.shard, m.shard_generation, existsSync(m.shard)], [join(m.out_dir, 'graph.shard'), 1, true], `${m.tag}: its shard is written and recorded`);
    }
    const state = json(join(out, 'workspace-state.json'));
    assert.deepEqual(Object.keys(state.repos), ['svc', 'c', 'tools']);
    for (const r of Object.values<any>(state.repos)) assert.match(r.source_hash, /^sha256:[0-9a-f]{64}$/);

    // No change: nothing extracted, the generation stands.
    const idle = synaptic(['workspace', 'update'], ws.root);
    assert.equal(idle.code, 0, idle.stderr);
    assert.match(idle.stderr, /^workspace: 3 members: 0 extracted \(0 nodes\), 3 unchanged, 0 failed .*generation 1 /m);

    // One member's file changes and another's graph went missing: only those two are re-extracted
    // (the changed one incrementally), and the lines say why.
    appendFileSync(join(ws.root, 'repos/c/checksum.c'), '\nint added_later(void) { return 7; }\n');
    rmSync(join(ws.root, 'repos/py/synaptic-out'), { recursive: true });
    const upd = synaptic(['workspace', 'update', '--json'], ws.root);
    assert.equal(upd.code, 0, upd.stderr);
    assert.match(upd.stderr, /^  c: updated \(sources changed\) 2 files \(1 parsed, 1 reused\)/m);
    assert.match(upd.stderr, /^  tools: extracted \(its graph\.json is missing\)/m);
    assert.match(upd.stderr, /^  svc: unchanged \(same source_hash\)/m);
    const r = JSON.parse(upd.stdout);
    assert.deepEqual(r.members.map((m: any) => [m.tag, m.status]), [['svc', 'unchanged'], ['c', 'extracted'], ['tools', 'extracted']]);
    assert.equal(r.generation, 2);
    const after = json(join(out, 'workspace-state.json'));
    assert.notEqual(after.repos.c.source_hash, state.repos.c.source_hash);
    assert.equal(after.repos.svc.source_hash, state.repos.svc.source_hash);
    assert.equal(after.repos.svc.extracted_at, state.repos.svc.extracted_at, 'an unchanged member keeps its extraction time');
    assert.ok(readFileSync(join(ws.root, 'repos/c/synaptic-out/graph.json'), 'utf8').includes('added_later'), 'the changed member graph has the new function');
    assert.equal(json(join(out, 'global-manifest.json')).members[0].nodes, manifest.members[0].nodes, 'an unchanged member keeps its counts');
    // The changed member's shard was updated (generation 2), the unchanged one's kept; the re-extracted one's written anew.
    assert.deepEqual(json(join(out, 'global-manifest.json')).members.map((m: any) => m.shard_generation), [1, 2, 1]);
  } finally {
    ws.cleanup();
  }
});

test('workspace build: a member that fails is reported and skipped, the rest are built, exit code 3; serve on the workspace lists both', { skip }, async () => {
  const ws = workspace(['go', 'c']);
  try {
    writeFileSync(join(ws.root, 'repos/c/synaptic-out'), 'not a folder'); // its outputs cannot be written
    const r = synaptic(['workspace', 'build', 'repos/go', 'repos/c', '--json'], ws.root);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /^  c: FAILED \(build\): .*synaptic-out.* - skipped$/m);
    assert.match(r.stderr, /^  go: extracted \(build\)/m);
    assert.match(r.stderr, /1 failed in .*\(partial\)$/m);
    const manifest = json(join(ws.root, 'synaptic-out/global-manifest.json'));
    assert.deepEqual(manifest.members.map((m: any) => [m.tag, m.status]), [['go', 'ok'], ['c', 'failed']]);
    assert.match(manifest.members[1].error, /synaptic-out/);
    const state = json(join(ws.root, 'synaptic-out/workspace-state.json'));
    assert.deepEqual(Object.keys(state.repos), ['go'], 'a failed member keeps no fingerprint: the next update retries it');

    // serve pointed at the workspace's output folder: list_repos / repo_stats read the global manifest.
    const transport = new StdioClientTransport({
      command: process.execPath, args: [CLI, 'serve', '--graph', join(ws.root, 'synaptic-out/graph.json')],
      env: { ...process.env, SYNAPTIC_DATA_DIR: join(ws.root, 'data') } as Record<string, string>, stderr: 'pipe',
    });
    const client = new Client({ name: 'workspace-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(transport);
    try {
      const listed = (await client.callTool({ name: 'list_repos', arguments: {} })) as { content: Array<{ text: string }>; structuredContent: any };
      const go = manifest.members[0];
      // in tag order, as one union graph lists its repos
      assert.deepEqual(listed.structuredContent.repos, [
        { repo: 'c', nodes: 0, edges: 0, failed: manifest.members[1].error },
        { repo: 'go', nodes: go.nodes, edges: go.links, source_hash: state.repos.go.source_hash },
      ]);
      assert.match(listed.content[0]!.text, new RegExp(`^2 federated repo\\(s\\):\n  c: extraction failed \\(.*\n  go: ${go.nodes} nodes, ${go.links} edges, src sha256:[0-9a-f]{64}`));
      const stats = (await client.callTool({ name: 'repo_stats', arguments: { repo: 'go' } })) as { content: Array<{ text: string }> };
      assert.equal(stats.content[0]!.text, `Repo go: ${go.nodes} nodes, ${go.links} edges, src ${state.repos.go.source_hash}`);
      const none = (await client.callTool({ name: 'repo_stats', arguments: { repo: 'nope' } })) as { content: Array<{ text: string }> };
      assert.equal(none.content[0]!.text, 'No nodes for repo nope (repos: c, go)');
    } finally {
      await client.close();
    }
    rmSync(join(ws.root, 'repos/c/synaptic-out'));
    const retry = synaptic(['workspace', 'update'], ws.root);
    assert.equal(retry.code, 0, retry.stderr);
    assert.match(retry.stderr, /^  c: extracted \(not extracted before\)/m);
    assert.match(retry.stderr, /^  go: unchanged/m);
  } finally {
    ws.cleanup();
  }
});

test('workspace build: bad definitions are one-line errors with exit code 2 and write nothing', { skip }, () => {
  const ws = workspace(['go', 'c']);
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'synaptic-ws-out-')));
  try {
    const refused = (args: string[], pattern: RegExp): void => {
      const r = synaptic(['workspace', ...args], ws.root);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, pattern);
      assert.equal(existsSync(join(ws.root, 'synaptic-out/global-manifest.json')), false);
    };
    mkdirSync(join(ws.root, 'other/go'), { recursive: true });
    refused(['build', 'repos/go', 'other/go'], /^synaptic workspace: duplicate tag 'go': members 'repos\/go' and 'other\/go'/);
    refused(['build', 'repos/go', outside], /is outside the workspace root/);
    symlinkSync(outside, join(ws.root, 'repos/linked'));
    refused(['build', 'repos/go', 'repos/linked'], /member 'repos\/linked' is a symlink to .*, outside the workspace root/);
    refused(['build'], /no members: name member folders/);
    refused(['update'], /no synaptic-workspace\.yaml and no previous build/);
    refused(['frobnicate'], /unknown action 'frobnicate'/);
    refused(['build', 'repos/go', '--jobs', '0'], /Cannot parse --jobs/);
    writeFileSync(join(ws.root, 'synaptic-workspace.yaml'), 'members:\n  - path: repos/go\n    tag: a\n  - path: repos/c\n    tag: a\n');
    refused(['build'], /synaptic-workspace\.yaml:4: duplicate tag 'a'/);
    writeFileSync(join(ws.root, 'synaptic-workspace.yaml'), 'members:\n  - path: ../elsewhere\n');
    refused(['build'], /synaptic-workspace\.yaml:2: member '\.\.\/elsewhere' is outside the workspace root/);
    rmSync(join(ws.root, 'synaptic-workspace.yaml'));
    mkdirSync(join(ws.root, 'synaptic-out'));
    writeFileSync(join(ws.root, 'synaptic-out/global-manifest.json'), JSON.stringify({ format: 7, generation: 3, members: [] }));
    const newer = synaptic(['workspace', 'build', 'repos/go'], ws.root);
    assert.equal(newer.code, 2, newer.stderr);
    assert.match(newer.stderr, /global-manifest\.json was written by a newer synaptic \(format 7; this one reads up to 1\)/);
    assert.equal(json(join(ws.root, 'synaptic-out/global-manifest.json')).format, 7, 'the newer manifest is left alone');
  } finally {
    ws.cleanup();
    rmSync(outside, { recursive: true, force: true });
  }
});
