import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { federatedRepos } from '../../src/mcp/tools/workspace-repos.ts';
import type { GraphToolContext } from '../../src/mcp/tools/context.ts';

// list_repos / repo_stats rows: a federated union graph counts by its repo tags; a workspace output
// folder with no union graph answers from its global-manifest.json; both carry workspace-state.json's source_hash.
function ctxFor(dir: string, repos: Array<{ repo: string; nodes: number; edges: number }>): GraphToolContext {
  return { graphPath: join(dir, 'graph.json'), engine: async () => ({ repos: () => repos }) } as unknown as GraphToolContext;
}

test('list_repos rows: a union graph by repo tags, else the global manifest, with source_hash', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-ws-repos-'));
  try {
    const union = [{ repo: 'api', nodes: 3, edges: 2 }, { repo: 'web', nodes: 1, edges: 0 }];
    assert.deepEqual(await federatedRepos(ctxFor(dir, [])), [], 'single-repo graph, no workspace files');
    writeFileSync(join(dir, 'graph.json'), '{}');
    writeFileSync(join(dir, 'workspace-state.json'), JSON.stringify({ repos: { api: { source_hash: 'abc123' } } })); // hand-written: no format
    assert.deepEqual(await federatedRepos(ctxFor(dir, union)), [{ repo: 'api', nodes: 3, edges: 2, source_hash: 'abc123' }, { repo: 'web', nodes: 1, edges: 0 }]);

    rmSync(join(dir, 'graph.json'));
    writeFileSync(join(dir, 'global-manifest.json'), JSON.stringify({
      format: 1, generation: 4, members: [
        { tag: 'api', status: 'ok', nodes: 10, links: 20 },
        { tag: 'web', status: 'failed', error: 'Cannot write output folder' },
      ],
    }));
    const noEngine = { graphPath: join(dir, 'graph.json'), engine: async () => { throw new Error('no graph'); } } as unknown as GraphToolContext;
    assert.deepEqual(await federatedRepos(noEngine), [
      { repo: 'api', nodes: 10, edges: 20, source_hash: 'abc123' }, { repo: 'web', nodes: 0, edges: 0, failed: 'Cannot write output folder' },
    ]);
    writeFileSync(join(dir, 'workspace-state.json'), JSON.stringify({ format: 5, repos: {} }));
    await assert.rejects(federatedRepos(noEngine), /workspace-state\.json was written by a newer synaptic \(format 5/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
