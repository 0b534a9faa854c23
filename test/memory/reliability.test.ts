// Multi-process reliability of the memory store through the real `synaptic serve` stdio server and
// the CLI: SIGKILL mid-stream keeps every acknowledged write; scope isolation holds in every response.
// (Concurrent writers: concurrency.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../src/memory/store.ts';
import { ServeChild, runCli, twoProjectSetup, type RpcResponse } from './mcp-child.ts';

const setup = twoProjectSetup;

test('SIGKILL in the middle of 1,000 remember calls keeps every acknowledged memory; integrity_check passes', async () => {
  const s = setup();
  const srv = new ServeChild(s.graph, s.env(s.repoA), s.repoA);
  try {
    await srv.initialize();
    const calls: Array<{ id: number; content: string }> = [];
    // Stream the calls and kill the server the moment a few hundred are answered, right after a batch
    // was written, so the kill always lands while calls are in flight.
    let killed = false;
    // Count remember answers only: the initialize response is in `responses` too.
    const answered = () => calls.filter((c) => srv.responses.has(c.id)).length;
    for (let i = 0; i < 1000 && !killed; i++) {
      const content = `durable fact ${i} ${'é'.repeat(i % 7)}`;
      calls.push({ id: srv.call('remember', { content, source: 'kill-test' }), content });
      if (i % 20 === 19) {
        if (answered() >= 300) {
          srv.child.kill('SIGKILL');
          killed = true;
        } else {
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    }
    if (!killed) {
      await srv.waitUntil(() => answered() >= 300);
      srv.child.kill('SIGKILL');
    }
    await srv.exited;
    const acked = calls.filter((c) => (srv.responses.get(c.id)?.result?.structuredContent as { stored?: boolean } | undefined)?.stored === true);
    assert.ok(acked.length >= 300, `at least 300 acknowledged before the kill (${acked.length} of ${calls.length})`);
    assert.ok(acked.length < calls.length || calls.length < 1000, `killed mid-stream (${acked.length} of ${calls.length} acknowledged)`);
    const store = MemoryStore.open({ dir: s.data }); // runs integrity_check and foreign_key_check
    try {
      assert.equal(store.db.pragma('integrity_check', { simple: true }), 'ok');
      for (const c of acked) {
        const id = (srv.responses.get(c.id)!.result!.structuredContent as { id: number }).id;
        assert.equal(store.read({ id, project: s.repoA }).memory?.body, c.content);
      }
      assert.ok(store.count(s.repoA) >= acked.length);
    } finally {
      store.close();
    }
  } finally {
    srv.child.kill('SIGKILL');
    s.cleanup();
  }
});

test('scope isolation end to end: project A memory never appears in any response for project B', async () => {
  const s = setup();
  const a = new ServeChild(s.graph, s.env(s.repoA), s.repoA);
  const b = new ServeChild(s.graph, s.env(s.repoB), s.repoB);
  try {
    await Promise.all([a.initialize(), b.initialize()]);
    const listed = await b.waitFor(b.send('tools/list', {}));
    const names = ((listed as unknown as { result: { tools: Array<{ name: string }> } }).result.tools).map((t) => t.name);
    for (const n of ['remember', 'recall', 'readmemory']) assert.ok(names.includes(n), `serve lists ${n}`);
    const MARK = 'zebracorn';
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await a.waitFor(a.call('remember', { content: `Alpha ${MARK} decision ${i}.`, source: `alpha-${MARK}` }));
      ids.push((r.result!.structuredContent as { id: number }).id);
    }
    await a.waitFor(a.call('remember', { content: 'Global convention: small commits.', scope: 'global' }));
    const responses: string[] = [];
    for (const args of [{ query: MARK }, { query: '' }, { query: 'alpha decision', limit: 50, budget: 'full' }]) responses.push(JSON.stringify(await b.waitFor(b.call('recall', args))));
    for (const id of ids) responses.push(JSON.stringify(await b.waitFor(b.call('readmemory', { id }))));
    responses.push(JSON.stringify(await b.waitFor(b.call('remember', { content: 'Beta fact.', supersedes: [ids[0]] }))));
    responses.push((await runCli(['session', '--json'], s.env(s.repoB), s.repoB)).stdout);
    for (const [i, r] of responses.entries()) {
      assert.ok(!r.includes(MARK), `leak: ${r.slice(0, 300)}`);
      if (i < 3) {
        // Recall: A's path may appear only as the provenance of a global memory.
        const memories = (JSON.parse(r) as RpcResponse).result!.structuredContent!.memories as Array<{ project: string; scope: string }>;
        for (const m of memories) assert.ok(m.project !== s.repoA || m.scope === 'global', JSON.stringify(m));
      } else assert.ok(!r.includes(s.repoA), `project A path leaked: ${r.slice(0, 300)}`);
    }
    const nulls = responses.slice(3, 8).map((r) => (JSON.parse(r) as RpcResponse).result!);
    for (const n of nulls) {
      assert.equal(n.content[0]!.text, '{"optimization":"lean","memory":null}');
      assert.equal(n.content[1]!.text, `project: ${s.repoB}`);
    }
    assert.match(responses[1]!, /Global convention/, 'global memory is visible from B');
    // And A still sees its own.
    assert.match(JSON.stringify(await a.waitFor(a.call('recall', { query: MARK }))), new RegExp(MARK));
    await Promise.all([a.close(), b.close()]);
  } finally {
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
    s.cleanup();
  }
});
