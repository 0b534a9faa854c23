// Two `synaptic serve` processes and the CLI writing and recalling the same memory database at once:
// no lost write, no SQLITE_BUSY reaching a user.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryStore } from '../../src/memory/store.ts';
import { ServeChild, runCli, twoProjectSetup, type RpcResponse } from './mcp-child.ts';

function textOf(r: RpcResponse): string {
  return r.error ? r.error.message : r.result!.content.map((c) => c.text).join('\n');
}

const setup = twoProjectSetup;

test('two servers and the CLI write and recall at once: no lost write, no SQLITE_BUSY', async () => {
  const s = setup();
  const servers = [new ServeChild(s.graph, s.env(s.repoA), s.repoA), new ServeChild(s.graph, s.env(s.repoA), s.repoA)];
  try {
    await Promise.all(servers.map((x) => x.initialize()));
    const PER_SERVER = 120;
    const IMPORTED = 100;
    const importFile = join(s.dir, 'import.jsonl');
    writeFileSync(
      importFile,
      Array.from({ length: IMPORTED }, (_, i) =>
        JSON.stringify({ id: i + 1, body: `imported fact ${i} about the cli`, source: 'import', scope: 'project', project: s.repoA, created: 1700000000 + i, state: 'live', supersededBy: null, changed: 1700000000 + i }),
      ).join('\n'),
    );
    const ids: Array<Array<{ rem: number; rec: number }>> = servers.map(() => []);
    // Pipeline everything at once so the servers and the CLI contend for the write lock.
    servers.forEach((srv, k) => {
      for (let i = 0; i < PER_SERVER; i++) {
        ids[k]!.push({ rem: srv.call('remember', { content: `server ${k} fact ${i} about concurrency`, source: `srv${k}` }), rec: srv.call('recall', { query: `concurrency fact ${i}`, limit: 3 }) });
      }
    });
    const cli = await Promise.all([
      runCli(['memory', 'import', importFile], s.env(s.repoA), s.repoA),
      runCli(['session', '--json'], s.env(s.repoA), s.repoA),
      runCli(['memory', 'list', '--limit', '5'], s.env(s.repoA), s.repoA),
    ]);
    for (const c of cli) assert.equal(c.code, 0, c.stderr);
    assert.match(cli[0]!.stdout, new RegExp(`Imported ${IMPORTED} memories`));
    assert.match(JSON.parse(cli[1]!.stdout).systemMessage, /^Synaptic connected · \d+ memories$/);
    let answered = 0;
    for (const [k, srv] of servers.entries()) {
      for (const { rem, rec } of ids[k]!) {
        const r = await srv.waitFor(rem);
        const q = await srv.waitFor(rec);
        for (const resp of [r, q]) {
          assert.ok(!/SQLITE_BUSY|database is locked/i.test(textOf(resp)), textOf(resp));
          assert.equal(resp.result?.isError, undefined, textOf(resp));
        }
        assert.equal((r.result!.structuredContent as { stored: boolean }).stored, true);
        answered++;
      }
    }
    assert.equal(answered, 2 * PER_SERVER);
    await Promise.all(servers.map((x) => x.close()));
    const store = MemoryStore.open({ dir: s.data });
    try {
      assert.equal(store.count(s.repoA), 2 * PER_SERVER + IMPORTED, 'every write is there');
      const bodies = new Set(store.list({ all: true, limit: 10_000 }).map((m) => m.body));
      for (let k = 0; k < 2; k++) for (let i = 0; i < PER_SERVER; i++) assert.ok(bodies.has(`server ${k} fact ${i} about concurrency`));
    } finally {
      store.close();
    }
  } finally {
    for (const x of servers) x.child.kill('SIGKILL');
    s.cleanup();
  }
});
