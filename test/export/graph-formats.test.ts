import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import type { GraphDocument } from '../../src/graph/model.ts';
import { copyFixture } from '../extract/pipeline-fixture.ts';
import { CLI } from '../helpers/serve-http.ts';
import { checkCypher } from './cypher-grammar.ts';

// synaptic export graphml|dot|cypher|json on the fixture repo's real graph plus hostile names, each
// output read back by a real consumer: saxes (a strict XML 1.0 parser) for GraphML, Graphviz's
// `dot -Tsvg` for DOT, Neo4j's own Cypher grammar (ANTLR, from @neo4j-cypher/language-support)
// for Cypher, NetworkX (when python3 has it) and JSON.parse for node-link JSON.

const HOSTILE = [
  `quote"d'name`, 'new\nline\r\nand\ttab', '<script>&amp;</script>', 'ünïcødé 名前 🚀', 'bidi\u202Eevil\u2066x\u2069',
  'ctrl\u0001\u0008\u001b[31m', 'back\\slash\\"', 'lone\uD800surrogate', 'nul\u0000byte', 'brace{}[];--//*/',
];

let work: string;
let cleanup: () => void;
let graphPath: string;
let doc: GraphDocument;

function exportTo(format: string, ...extra: string[]): string {
  const out = join(work, `out-${format}-${extra.join('')}.${format}`);
  execFileSync(process.execPath, [CLI, 'export', format, '--graph', graphPath, '--out', out, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  return readFileSync(out, 'utf8');
}

before(() => {
  const fx = copyFixture('synaptic-export-');
  cleanup = fx.cleanup;
  work = mkdtempSync(join(tmpdir(), 'synaptic-export-out-'));
  execFileSync(process.execPath, [CLI, 'extract', fx.dir], { stdio: 'ignore' });
  doc = JSON.parse(readFileSync(join(fx.dir, 'synaptic-out/graph.json'), 'utf8')) as GraphDocument;
  assert.ok(doc.nodes.length > 50 && doc.links.length > 50, 'the fixture graph is real');
  const anchor = doc.nodes.find((n) => n.kind === 'function')!;
  HOSTILE.forEach((name, i) => {
    const id = `src/${name}.ts#fn:${name}`;
    doc.nodes.push({ id, label: name, file_type: 'code', source_file: `src/${name}.ts`, source_location: 'L1', kind: i % 2 ? 'type_alias' : 'function', doc: name, community: 900 + (i % 3), repo: i < 5 ? 'evil' : 'other' });
    doc.links.push({ source: anchor.id, target: id, relation: i === 0 ? 'weird relation`x' : 'calls', confidence: 'EXTRACTED', confidence_score: 0.5, source_file: name, source_location: 'L2' });
  });
  // Two hostile nodes linked to each other inside member 'evil', one across members.
  doc.links.push({ source: `src/${HOSTILE[0]}.ts#fn:${HOSTILE[0]}`, target: `src/${HOSTILE[1]}.ts#fn:${HOSTILE[1]}`, relation: 'imports_from', confidence: 'INFERRED', confidence_score: 1, source_file: 'x', source_location: 'L3' });
  doc.links.push({ source: `src/${HOSTILE[2]}.ts#fn:${HOSTILE[2]}`, target: `src/${HOSTILE[7]}.ts#fn:${HOSTILE[7]}`, relation: 'calls', confidence: 'INFERRED', confidence_score: 1, source_file: 'x', source_location: 'L4' });
  graphPath = join(work, 'graph.json');
  writeFileSync(graphPath, JSON.stringify(doc));
});

after(() => {
  cleanup?.();
  rmSync(work, { recursive: true, force: true });
});

test('graphml parses in a strict XML parser with every node, edge and typed key, hostile text intact', () => {
  const xml = exportTo('graphml');
  const nodes = new Map<string, Record<string, string>>();
  const keys = new Map<string, string>();
  let edges = 0;
  let current: Record<string, string> | undefined;
  let dataKey: string | undefined;
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (e) => assert.fail(`GraphML is not well-formed XML: ${e.message}`));
  parser.on('opentag', (t) => {
    const a = (k: string): string => (t.attributes[k] as { value: string } | undefined)?.value ?? '';
    if (t.local === 'key') keys.set(a('id'), a('attr.type'));
    if (t.local === 'node') nodes.set(a('id'), (current = {}));
    if (t.local === 'edge') {
      edges++;
      current = {};
    }
    if (t.local === 'data') dataKey = a('key');
  });
  parser.on('text', (s) => {
    if (dataKey && current) current[dataKey] = (current[dataKey] ?? '') + s;
  });
  parser.on('closetag', (t) => {
    if (t.local === 'data') dataKey = undefined;
  });
  parser.write(xml).close();
  assert.equal(nodes.size, doc.nodes.length);
  assert.equal(edges, doc.links.length);
  assert.equal(keys.get('n_community'), 'int');
  assert.equal(keys.get('e_confidence_score'), 'double');
  const quoted = nodes.get(`src/${HOSTILE[0]}.ts#fn:${HOSTILE[0]}`)!;
  assert.equal(quoted.n_label, HOSTILE[0]);
  assert.equal(nodes.get(`src/${HOSTILE[1]}.ts#fn:${HOSTILE[1]}`)!.n_label, HOSTILE[1], 'newlines survive as character references');
  assert.equal(nodes.get(`src/${HOSTILE[2]}.ts#fn:${HOSTILE[2]}`)!.n_label, HOSTILE[2]);
  assert.equal(nodes.get(`src/${HOSTILE[4]}.ts#fn:${HOSTILE[4]}`)!.n_label, HOSTILE[4], 'bidi characters are legal XML and kept');
  assert.equal(nodes.get(`src/ctrl\\u0001\\u0008\\u001B[31m.ts#fn:ctrl\\u0001\\u0008\\u001B[31m`)!.n_label, 'ctrl[31m', 'invalid characters: visible in ids, dropped from text');
});

test('dot renders with graphviz (dot -Tsvg), with and without community clusters', () => {
  for (const extra of [[], ['--clusters']]) {
    const dot = exportTo('dot', ...extra);
    const r = spawnSync('dot', ['-Tsvg'], { input: dot, encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.error, undefined, 'graphviz is installed (apt-get install graphviz)');
    assert.equal(r.status, 0, `dot -Tsvg failed: ${r.stderr}`);
    assert.equal(r.stderr.trim(), '', 'dot prints no warnings');
    assert.equal((r.stdout.match(/<g id="node\d+" class="node">/g) ?? []).length, doc.nodes.length, 'one drawn node per graph node (no id split or merged)');
    assert.equal((r.stdout.match(/<g id="edge\d+" class="edge">/g) ?? []).length, doc.links.length);
    if (extra.length) assert.match(r.stdout, /class="cluster"/);
    assert.ok(r.stdout.includes('quote&quot;d&#39;name') || r.stdout.includes("quote&quot;d'name"), 'the quoted label is drawn as written');
  }
});

test("cypher parses with Neo4j's grammar, one MERGE per node and link", async () => {
  const cypher = exportTo('cypher');
  const lines = cypher.split('\n').filter((l) => l && !l.startsWith('//'));
  assert.equal(lines.length, doc.nodes.length + doc.links.length, 'one statement per line');
  assert.deepEqual(await checkCypher(cypher), [], 'no syntax errors');
  assert.match(cypher, /SET n:TypeAlias/);
  assert.match(cypher, /-\[r:`WEIRD RELATION``X`/);
  assert.match(cypher, /\[r:IMPORTS_FROM /);
  // The checker is not a rubber stamp: a broken quote is caught.
  assert.notDeepEqual(await checkCypher(`MERGE (n:SynapticNode {id: 'a'b'});`), []);
});

test('json is node-link JSON equal to the graph; --repo keeps one member and only its inner links', () => {
  const all = JSON.parse(exportTo('json')) as GraphDocument;
  assert.deepEqual(all.nodes, doc.nodes);
  assert.deepEqual(all.links, doc.links);
  const py = spawnSync('python3', ['-c', 'import json,sys,networkx as nx; g=nx.node_link_graph(json.load(sys.stdin), edges="links"); print(g.number_of_nodes(), g.number_of_edges())'], { input: JSON.stringify(all), encoding: 'utf8' });
  if (py.status === 0) assert.equal(py.stdout.trim(), `${doc.nodes.length} ${doc.links.length}`);
  else process.stderr.write(`(networkx not available to python3; node-link JSON checked by JSON.parse only)\n`);
  const stdout = execFileSync(process.execPath, [CLI, 'export', 'json', '--graph', graphPath], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.deepEqual(JSON.parse(stdout), all, 'without --out the export goes to stdout');
  const evil = JSON.parse(exportTo('json', '--repo', 'evil')) as GraphDocument;
  assert.equal(evil.nodes.length, 5);
  assert.deepEqual(evil.links.map((l) => l.relation), ['imports_from'], 'links leaving the member are dropped');
  const r = spawnSync(process.execPath, [CLI, 'export', 'graphml', '--graph', graphPath, '--repo', 'nope'], { encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /no repo 'nope'.*repos: evil, other/);
});
