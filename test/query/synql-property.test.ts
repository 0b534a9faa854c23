// Property test: on random graphs and random SYNQL queries, the planned evaluator (indexes, anchoring,
// CSR walks, pushed-down WHERE) returns exactly what the naive one (test/reference/synql-naive.ts) does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { Core } from '../../src/core/index.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { parseSynql } from '../../src/query/synql/parser.ts';
import { isNodeCell } from '../../src/query/synql/result.ts';
import { runSynql } from '../../src/query/synql/run.ts';
import { NaiveSynql, type NaiveDoc } from '../reference/synql-naive.ts';

const traversal = coreTraversal(await Core.load());
const KINDS = ['file', 'class', 'function', 'method', 'interface'] as const;
const RELS = ['calls', 'references', 'contains', 'method', 'tests', 'imports'] as const;
const NAMES = ['get', 'set', 'run', 'init', 'getUser', 'Router', 'handle', 'make'];
const FILES = ['a.ts', 'b.ts', 'lib/c.ts', 'test/d.test.ts'];

const graphArb = fc.integer({ min: 1, max: 30 }).chain((n) =>
  fc.record({
    nodes: fc.array(
      fc.record({
        kind: fc.constantFrom(...KINDS),
        name: fc.constantFrom(...NAMES),
        file: fc.constantFrom(...FILES),
        line: fc.integer({ min: 1, max: 50 }),
        len: fc.integer({ min: 0, max: 40 }),
        vis: fc.constantFrom('public', 'internal', 'private', undefined),
        community: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        params: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        returns: fc.constantFrom('string', 'number', undefined),
      }),
      { minLength: n, maxLength: n },
    ),
    links: fc.array(fc.record({ s: fc.nat(n - 1), t: fc.nat(n - 1), rel: fc.constantFrom(...RELS) }), { maxLength: n * 3 }),
  }),
);

type RandomGraph = { nodes: Array<{ kind: string; name: string; file: string; line: number; len: number; vis?: string; community?: number; params?: number; returns?: string }>; links: Array<{ s: number; t: number; rel: string }> };

function toDoc(g: RandomGraph): GraphDocument {
  const nodes = g.nodes.map((x, i) => ({
    id: `${x.file}#${x.name}${i}`,
    label: i % 3 === 0 ? `Owner.${x.name}` : x.name,
    kind: x.kind,
    file_type: 'code',
    source_file: x.file,
    source_location: `L${x.line}`,
    span: { start_line: x.line, start_col: 0, end_line: x.line + x.len, end_col: 1 },
    ...(x.vis ? { visibility: x.vis } : {}),
    ...(x.community !== undefined ? { community: x.community } : {}),
    ...(x.params !== undefined ? { signature: { params: Array.from({ length: x.params }, (_, k) => ({ name: `p${k}` })), ...(x.returns ? { returns: x.returns } : {}), raw: 'f()' } } : {}),
    ...(x.file.includes('test') ? { is_test: true } : {}),
  }));
  const links = g.links.map((l) => ({ source: nodes[l.s]!.id, target: nodes[l.t]!.id, relation: l.rel, confidence: 'EXTRACTED', confidence_score: 1, source_file: nodes[l.s]!.source_file, source_location: 'L1' }));
  return { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [], built_at_commit: null } as unknown as GraphDocument;
}

const kindArb = fc.oneof(fc.constant(''), fc.constantFrom(...KINDS).map((k) => `:${k}`), fc.constant(':function|method'));
const relArb = fc.record({
  types: fc.oneof(fc.constant(''), fc.constantFrom(...RELS).map((r) => `:${r}`), fc.constant(':calls|references')),
  range: fc.constantFrom('', '*1..2', '*0..1', '*2..3', '*2', '*1..3'),
  dir: fc.constantFrom('out', 'in', 'both'),
});
const predArb = (v: string) =>
  fc.constantFrom(
    `${v}.loc > 10`,
    `${v}.name = 'get'`,
    `${v}.name =~ '^(get|set)'`,
    `${v}.name STARTS WITH 'ge'`,
    `${v}.file = 'a.ts'`,
    `${v}.file CONTAINS 'lib'`,
    `${v}.visibility IN ['public', 'private']`,
    `${v}.visibility IS NULL`,
    `${v}.community = 1`,
    `${v}.fan_in >= 1`,
    `${v}.fan_out > 1`,
    `${v}.params > 1`,
    `${v}.returns = 'string'`,
    `${v}.test_count > 0`,
    `${v}.members >= 1`,
    `NOT ${v}.kind = 'file'`,
    `${v}.label CONTAINS '.'`,
    `${v}.is_test = true`,
  );

function rel(r: { types: string; range: string; dir: string }): string {
  const inner = r.types || r.range ? `[${r.types}${r.range}]` : '';
  return r.dir === 'out' ? `-${inner}->` : r.dir === 'in' ? `<-${inner}-` : `-${inner}-`;
}

const queryArb = fc
  .record({
    shape: fc.constantFrom('one', 'hop', 'two', 'join'),
    k1: kindArb,
    k2: kindArb,
    k3: kindArb,
    r1: relArb,
    r2: relArb,
    p1: fc.option(predArb('a'), { nil: undefined }),
    p2: fc.option(predArb('b'), { nil: undefined }),
    op: fc.constantFrom('AND', 'OR'),
    ret: fc.constantFrom('nodes', 'count', 'group', 'distinct', 'order'),
    limit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  })
  .map((x) => {
    const hasB = x.shape !== 'one';
    let match = `MATCH (a${x.k1})`;
    if (x.shape === 'hop') match += `${rel(x.r1)}(b${x.k2})`;
    if (x.shape === 'two') match += `${rel(x.r1)}(b${x.k2})${rel({ ...x.r2, range: '' })}(c${x.k3})`;
    if (x.shape === 'join') match += `${rel({ ...x.r1, range: '' })}(b${x.k2}), (a)${rel({ ...x.r2, range: '' })}(c${x.k3})`;
    const preds = [x.p1, hasB ? x.p2 : undefined].filter(Boolean);
    const where = preds.length ? ` WHERE ${preds.join(` ${x.op} `)}` : '';
    const ret =
      x.ret === 'nodes' ? (hasB ? 'RETURN a, b' : 'RETURN a')
      : x.ret === 'count' ? 'RETURN count(*)'
      : x.ret === 'group' ? (hasB ? 'RETURN a.kind, count(b) AS n, collect(DISTINCT b.name) AS names, max(b.loc)' : 'RETURN a.file, count(*), avg(a.loc)')
      : x.ret === 'distinct' ? (hasB ? 'RETURN DISTINCT b' : 'RETURN DISTINCT a.name')
      : 'RETURN a, a.loc ORDER BY a.loc DESC';
    return `${match}${where} ${ret}${x.limit ? ` LIMIT ${x.limit}` : ''}`;
  });

describe('SYNQL planned vs naive on random graphs', () => {
  it('agree on every random query', async () => {
    await fc.assert(
      fc.asyncProperty(graphArb, fc.array(queryArb, { minLength: 1, maxLength: 4 }), async (g, queries) => {
        const doc = toDoc(g);
        const engine = new QueryEngine(structuredClone(doc), traversal);
        const naive = new NaiveSynql(structuredClone(doc) as unknown as NaiveDoc, (p, s) => RE2JS.compile(p).test(s));
        for (const q of queries) {
          const { table } = await runSynql(engine, q, { limit: 1000 });
          const want = naive.run(parseSynql(q), parseSynql(q).limit ?? 1000);
          const got = table.rows.map((r) => r.map((c) => (isNodeCell(c) ? { id: engine.ix.node(c.node).id } : c)));
          assert.equal(table.total, want.total, q);
          assert.deepEqual(got, want.rows, q);
        }
      }),
      { numRuns: Number(process.env.SYNQL_RUNS ?? 150) },
    );
  });
});
