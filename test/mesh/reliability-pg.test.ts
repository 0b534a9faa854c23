// The mesh under crashes on PostgreSQL (#23): the same run as reliability.test.ts with every server in
// team mode on one team database (a throwaway cluster: initdb + pg_ctl), wait woken by LISTEN/NOTIFY.
import { after, before, test } from 'node:test';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster.ts';
import { checkReliability, describeResult, runMeshReliability } from './reliability-run.ts';

const skip = pgUnavailable();
let cluster: PgCluster | null = null;
before(async () => {
  if (!skip) cluster = await startPgCluster();
});
after(() => cluster?.destroy());

test('PostgreSQL: 4 agents, 1,000 messages, 2 SIGKILLs: 0 answered sends lost, 0 to the wrong project, 0 work items claimed twice; wait wake p99', { skip: skip ?? false }, async (t) => {
  const url = cluster!.createDatabase('mesh_reliability');
  const x = await runMeshReliability({ env: { SYNAPTIC_DATABASE_URL: url }, agents: 4, messages: 1000, workItems: 40, kills: { count: 2 }, wakeSamples: 100, deadlineMs: 120_000 });
  t.diagnostic(describeResult('postgres', x));
  checkReliability(x, 2, 50);
});
