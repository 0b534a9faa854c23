import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, ROOT } from './helpers.ts';

// `synaptic serve` as a client starts it: no --graph, in whatever folder the client runs in, often
// before anyone ran `extract` (issue #18 item 2).

interface Sandbox {
  dir: string;
  repo: string;
  env: Record<string, string>;
  cleanup(): void;
}

function sandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-anywhere-'));
  const repo = join(dir, 'repo');
  cpSync(join(ROOT, 'test/fixtures/repo'), repo, { recursive: true });
  execFileSync('git', ['init', '-q', repo]);
  mkdirSync(join(repo, 'src/deep/er'), { recursive: true });
  const env = { ...process.env, SYNAPTIC_DATA_DIR: join(dir, 'data') } as Record<string, string>;
  delete env.SYNAPTIC_PROJECT_DIR;
  return { dir, repo, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function connect(cwd: string, env: Record<string, string>, ...extra: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', ...extra], cwd, env, stderr: 'pipe' });
  const client = new Client({ name: 'anywhere-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function text(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((c) => c.text ?? '').join('\n');
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('serve starts without a graph from a subfolder: memory works, graph tools say what to run, the graph is served once extracted', async () => {
  const sb = sandbox();
  let client: Client | undefined;
  try {
    client = await connect(join(sb.repo, 'src/deep/er'), sb.env);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(tools.includes('query_graph') && tools.includes('remember'), 'graph and memory tools are listed');

    const missing = await client.callTool({ name: 'get_node', arguments: { label: 'add' } });
    assert.equal(missing.isError, true);
    assert.match(text(missing), new RegExp(`no graph for ${sb.repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} yet: run \`synaptic extract `));

    const stored = await client.callTool({ name: 'remember', arguments: { content: 'The fixture repository keeps its math helpers in src/util.', scope: 'project' } });
    assert.notEqual(stored.isError, true, text(stored));
    const recalled = await client.callTool({ name: 'recall', arguments: { query: 'math helpers' } });
    assert.match(text(recalled), /math helpers in src\/util/);

    // The repository root (found from the subfolder) gets extracted; the running server picks it up.
    execFileSync(process.execPath, [CLI, 'extract', sb.repo], { stdio: 'ignore' });
    const found = await waitFor('the graph to load', async () => {
      const r = await client!.callTool({ name: 'graph_stats', arguments: {} });
      return r.isError ? undefined : text(r);
    });
    assert.match(found, /nodes/i);
  } finally {
    await client?.close();
    sb.cleanup();
  }
});

test('serve --extract builds the missing graph in the background while memory tools answer', async () => {
  const sb = sandbox();
  let client: Client | undefined;
  try {
    client = await connect(sb.repo, sb.env, '--extract');
    const early = await client.callTool({ name: 'recall', arguments: { query: 'anything' } });
    assert.notEqual(early.isError, true, 'memory answers during the build');
    const stats = await waitFor('the background extract', async () => {
      const r = await client!.callTool({ name: 'graph_stats', arguments: {} });
      if (r.isError) {
        assert.match(text(r), /being built|was just written/, text(r));
        return undefined;
      }
      return text(r);
    });
    assert.match(stats, /nodes/i);
  } finally {
    await client?.close();
    sb.cleanup();
  }
});
