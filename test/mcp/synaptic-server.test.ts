import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createSynapticServer } from '../../src/mcp/synaptic-server.ts';
import { smallGraph } from './fixtures/small-graph.ts';

test('createSynapticServer() without a core loads the WASM core itself: its traversals answer, none other', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-server-core-'));
  try {
    const graphPath = join(dir, 'graph.json');
    writeFileSync(graphPath, JSON.stringify(smallGraph()));
    const server = await createSynapticServer({ graphPath, sourceRoot: dir, name: 'synaptic', version: '0.0.0-test', log: () => {}, watch: false, providers: [] });
    try {
      const engine = await server.engine();
      assert.equal(engine.traversal.name, 'wasm');
      const v = engine.ix.g.idOf.get('src/util/log.ts#log_message')!;
      assert.equal(engine.affected(v, 2).hits.length, 2);
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
