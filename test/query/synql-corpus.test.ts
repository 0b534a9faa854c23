// structural_search's SYNQL over a real repository's graph (Synaptic's own src/query and src/graph,
// extracted by the CLI): every query's answer is checked against the naive evaluator
// (test/reference/synql-naive.ts), which scans every node and every link instead of planning.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RE2JS } from 're2js';
import { Core } from '../../src/core/index.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { parseSynql } from '../../src/query/synql/parser.ts';
import { isNodeCell } from '../../src/query/synql/result.ts';
import { runSynql } from '../../src/query/synql/run.ts';
import { NaiveSynql, type NaiveDoc } from '../reference/synql-naive.ts';
import { CLI_ARGS, ROOT } from '../mcp/helpers.ts';

export const QUERIES = [
  // single node patterns, kinds and WHERE
  'MATCH (c:class) RETURN c',
  'MATCH (f:function|method) RETURN f',
  'MATCH (n) RETURN count(*)',
  'MATCH (n) RETURN n.kind, count(n) AS k ORDER BY k DESC',
  'MATCH (c:class) WHERE c.loc > 100 RETURN c ORDER BY c.loc DESC',
  "MATCH (f:function) WHERE f.name = 'sanitize' RETURN f",
  "MATCH (f {name: 'bareName'}) RETURN f, f.params, f.returns",
  "MATCH (f:function) WHERE f.name STARTS WITH 'build' RETURN f.name ORDER BY f.name",
  "MATCH (f:function) WHERE f.name ENDS WITH 'Of' RETURN f",
  "MATCH (f:method) WHERE f.name CONTAINS 'edge' RETURN f",
  "MATCH (f:function|method) WHERE f.name =~ '^(get|set)[A-Z]' RETURN f",
  "MATCH (f:function) WHERE f.name =~ '(?i)^RANK' RETURN f",
  "MATCH (f) WHERE f.name =~ 'Index$' RETURN f.label, f.kind",
  "MATCH (f:function) WHERE f.visibility = 'public' AND f.params >= 3 RETURN f ORDER BY f.params DESC, f.name",
  "MATCH (f:function) WHERE NOT f.visibility = 'public' RETURN count(f)",
  "MATCH (f:function) WHERE f.visibility IN ['internal', 'private'] RETURN count(*)",
  'MATCH (f:function) WHERE f.returns IS NULL RETURN count(f)',
  'MATCH (f:function) WHERE f.returns IS NOT NULL RETURN f.returns, count(*) AS n ORDER BY n DESC, f.returns LIMIT 10',
  "MATCH (f:function) WHERE f.returns = 'string' OR f.returns = 'number' RETURN f",
  "MATCH (f:function) WHERE f.returns = 'string' XOR f.params = 1 RETURN count(*)",
  'MATCH (f:function) WHERE f.fan_in > 5 RETURN f, f.fan_in ORDER BY f.fan_in DESC',
  'MATCH (f:function|method) WHERE f.fan_out >= 8 RETURN f.name, f.fan_out ORDER BY f.fan_out DESC, f.name',
  'MATCH (f:function) WHERE f.fan_in = 0 AND f.visibility = \'internal\' RETURN f',
  'MATCH (c:class|interface) WHERE c.members > 5 RETURN c, c.members ORDER BY c.members DESC',
  'MATCH (n:file) WHERE n.loc > 300 RETURN n ORDER BY n.loc DESC',
  "MATCH (n) WHERE n.file = 'query/engine.ts' RETURN n",
  "MATCH (n:function) WHERE n.file STARTS WITH 'graph/' RETURN count(n)",
  "MATCH (n) WHERE n.file CONTAINS 'snapshot' AND n.kind <> 'file' RETURN n",
  "MATCH (n) WHERE n.file ENDS WITH 'rank.ts' RETURN n.name ORDER BY n.name DESC",
  'MATCH (n) WHERE n.line < 5 AND n.kind <> \'file\' RETURN n',
  'MATCH (n:function) WHERE n.line >= 100 AND n.line <= 200 RETURN n',
  'MATCH (n) WHERE n.community = 1 RETURN count(n)',
  'MATCH (n) RETURN n.community, count(*) AS size ORDER BY size DESC, n.community',
  'MATCH (n) WHERE n.community IS NULL RETURN count(n)',
  "MATCH (n:function) WHERE n.language = 'typescript' RETURN count(n)",
  'MATCH (n) WHERE n.is_test = true RETURN n',
  'MATCH (f:function) WHERE f.test_count > 0 RETURN f, f.test_count ORDER BY f.test_count DESC',
  'MATCH (c:class) WHERE c.test_count = 0 RETURN c',
  "MATCH (n) WHERE n.repo IS NULL RETURN count(*)",
  "MATCH (n {kind: 'interface'}) RETURN n.name ORDER BY n.name SKIP 3 LIMIT 7",
  "MATCH (n:function) RETURN n SKIP 10 LIMIT 5",
  "MATCH (n:function) RETURN DISTINCT n.visibility",
  "MATCH (n) RETURN DISTINCT n.kind, n.visibility ORDER BY n.kind",
  'MATCH (f:function) RETURN min(f.loc), max(f.loc), avg(f.params), sum(f.loc)',
  'MATCH (f:function) RETURN f.file, count(*) AS fns, max(f.loc) AS biggest ORDER BY fns DESC, f.file LIMIT 8',
  "MATCH (f:function) WHERE f.file = 'query/tokens.ts' RETURN collect(f.name) AS names",
  'MATCH (c:class) RETURN min(c.name), max(c.name)',
  "MATCH (f:function) WHERE f.name = 'no-such-symbol' RETURN count(*), collect(f.name), avg(f.loc)",
  'MATCH (n) WHERE n.loc > 40 AND (n.kind = \'function\' OR n.kind = \'method\') RETURN n',
  "MATCH (n) WHERE n.id CONTAINS '#' AND n.name = 'constructor' RETURN n",
  "MATCH (n) WHERE n.label = 'QueryEngine' RETURN n",
  "MATCH (n) WHERE n.id = 'query/engine.ts' RETURN n",
  // one hop
  'MATCH (f:function)-[:calls]->(g:function) RETURN count(*)',
  "MATCH (f)-[:calls]->(g {name: 'sanitize'}) RETURN f ORDER BY f.name",
  "MATCH (g {name: 'sanitize'})<-[:calls]-(f) RETURN f.file, count(f) AS callers ORDER BY callers DESC, f.file",
  "MATCH (c:class)-[:method]->(m) WHERE c.name = 'GraphIndex' RETURN m.name ORDER BY m.name",
  'MATCH (c:class)-[:method]->(m:constructor) RETURN c, m',
  'MATCH (f:file)-[:imports|imports_from]->(g:file) RETURN f, count(g) AS imports ORDER BY imports DESC LIMIT 10',
  "MATCH (a)-[:calls]-(b) WHERE a.name = 'lineOf' RETURN b",
  "MATCH (a)-->(b) WHERE a.name = 'rankQuery' RETURN b.kind, count(*) AS n ORDER BY n DESC",
  "MATCH (a)<--(b) WHERE a.label = 'GraphIndex' RETURN DISTINCT b.kind",
  "MATCH (a:function)-[:calls]->(a) RETURN a",
  "MATCH (f:function)-[:references]->(t:interface) WHERE t.name =~ 'Options$' RETURN t.name, count(DISTINCT f) AS users ORDER BY users DESC, t.name",
  "MATCH (f:function)-[:calls]->(g) WHERE f.file <> g.file AND g.name = 'sanitize' RETURN count(*)",
  "MATCH (f)-[:calls]->(g) WHERE f.name = 'rankQuery' AND g.fan_in > 3 RETURN g",
  // variable length
  "MATCH (f {name: 'sanitize'})<-[:calls*1..2]-(g) RETURN g",
  "MATCH (f {name: 'sanitize'})<-[:calls*1..3]-(g:function) RETURN count(g)",
  "MATCH (f {name: 'rankQuery'})-[:calls*1..3]->(g) RETURN g.name ORDER BY g.name",
  "MATCH (f {name: 'rankQuery'})-[:calls*2..3]->(g) RETURN g",
  "MATCH (f {name: 'rankQuery'})-[:calls*0..1]->(g) RETURN g",
  "MATCH (f {name: 'rankQuery'})-[:calls*2]->(g) RETURN g",
  "MATCH (f {label: 'GraphIndex'})-[*1..2]->(g) RETURN g.kind, count(*) AS n ORDER BY n DESC, g.kind",
  "MATCH (a {name: 'lineOf'})-[:calls|references*1..2]-(b) RETURN b",
  // multi-step paths and joins
  "MATCH (a)-[:calls]->(b)-[:calls]->(c) WHERE a.name = 'rankQuery' RETURN DISTINCT c",
  "MATCH (f:file)-[:contains]->(c:class)-[:method]->(m) WHERE f.id = 'query/engine.ts' RETURN m.name ORDER BY m.name",
  "MATCH (a)-[:calls]->(s {name: 'sanitize'}), (a)-[:calls]->(t {name: 'lineOf'}) RETURN a",
  "MATCH (c:class)-[:method]->(m), (c)-[:method]->(k:constructor) WHERE m.name STARTS WITH 'get' RETURN DISTINCT c",
  "MATCH (a:function)-[:calls]->(b:function), (b)-[:calls]->(a) RETURN a, b",
  "MATCH (a:function)-[:calls]->(b:function) WHERE a <> b AND a.file = b.file AND a.file = 'query/rank.ts' RETURN a.name, b.name ORDER BY a.name, b.name",
  "MATCH (t)<-[:tests]-(x) RETURN t.kind, count(*)",
];

let dir = '';
let engine: QueryEngine;
let naive: NaiveSynql;

describe('SYNQL over a real graph, planned vs naive', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'synql-corpus-'));
    for (const sub of ['query', 'graph']) cpSync(join(ROOT, 'src', sub), join(dir, 'repo', sub), { recursive: true });
    execFileSync(process.execPath, [...CLI_ARGS, 'extract', join(dir, 'repo')], { stdio: ['ignore', 'ignore', 'pipe'] });
    const text = readFileSync(join(dir, 'repo/synaptic-out/graph.json'), 'utf8');
    engine = new QueryEngine(JSON.parse(text), coreTraversal(await Core.load()));
    const doc = JSON.parse(text) as NaiveDoc;
    naive = new NaiveSynql(doc, (p, s) => RE2JS.compile(p).test(s));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the corpus holds at least 60 queries', () => assert.ok(QUERIES.length >= 60, `${QUERIES.length}`));

  it('the graph is the real code', () => {
    assert.ok(engine.ix.n > 300, `${engine.ix.n} nodes`);
  });

  let nonEmpty = 0;
  for (const q of QUERIES) {
    it(q, async () => {
      const { table } = await runSynql(engine, q, { limit: 1000 });
      const want = naive.run(parseSynql(q), table.rows.length === 0 && table.total === 0 ? 1000 : Math.min(1000, parseSynql(q).limit ?? 1000));
      const got = table.rows.map((r) => r.map((c) => (isNodeCell(c) ? { id: engine.ix.node(c.node).id } : c)));
      assert.deepEqual(table.columns, want.columns);
      assert.equal(table.total, want.total, 'total');
      assert.deepEqual(got, want.rows);
      if (table.total > 0) nonEmpty++;
    });
  }

  it('most queries match something (the corpus is not vacuous)', () => assert.ok(nonEmpty >= QUERIES.length * 0.8, `${nonEmpty} of ${QUERIES.length}`));
});
