// The mesh under crashes on SQLite (#23): 4 agents in separate `synaptic serve` processes on one
// project (one mesh.db), 1,000 messages, 2 random SIGKILLs of a server mid-stream and restarts: 0
// answered sends lost, 0 to the wrong project or agent, 0 back after an answered ack, 0 work items
// claimed twice; then wait's wake latency across processes. The run itself: test/mesh/reliability-run.ts;
// the full run (8 agents, 10,000 messages, both backends): bench/mesh-reliability.bench.ts.
import { test } from 'node:test';
import { checkReliability, describeResult, runMeshReliability } from './reliability-run.ts';

test('SQLite: 4 agents, 1,000 messages, 2 SIGKILLs: 0 answered sends lost, 0 to the wrong project, 0 work items claimed twice; wait wake p99', async (t) => {
  const x = await runMeshReliability({ agents: 4, messages: 1000, workItems: 40, kills: { count: 2 }, wakeSamples: 100, deadlineMs: 120_000 });
  t.diagnostic(describeResult('sqlite', x));
  checkReliability(x, 2, 100);
});
