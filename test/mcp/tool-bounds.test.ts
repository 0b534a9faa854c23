// Integer parameters advertise the bounds their handlers enforce (#25), through an SDK client: a
// value past a bound is refused as an invalid argument or answered exactly as the bound (a clamp).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MAX_RECALL_LIMIT } from '../../src/memory/store.ts';
import { connectInProcess, servedSurface, type InProcessClient } from './in-process.ts';

/** The spec's clamps and limits, as each integer parameter must advertise them. */
const EXPECTED: Record<string, [min: number | undefined, max: number | undefined]> = {
  'query_graph.token_budget': [50, 100000],
  'get_source.context_lines': [1, 400],
  'get_neighbors.limit': [1, undefined],
  'get_community.community_id': [undefined, undefined],
  'get_community.offset': [0, undefined],
  'get_community.limit': [1, undefined],
  'god_nodes.top_n': [1, 200],
  'god_nodes.offset': [0, undefined],
  'shortest_path.max_hops': [1, 64],
  'affected.depth': [1, 16],
  'affected.limit': [1, undefined],
  'find_callers.limit': [1, undefined],
  'find_callees.limit': [1, undefined],
  'find_references.limit': [1, undefined],
  'search_text.max_results': [1, 1000],
  'dynamic_hazards.max_results': [1, 1000],
  'predict_edit.depth': [1, 16],
  'predict_edit.limit': [1, undefined],
  'plan_rename.limit': [1, undefined],
  'working_changes_impact.limit': [1, undefined],
  'predict_impact.depth': [1, 16],
  'affected_tests.depth': [1, 16],
  'get_pr_impact.pr_number': [1, undefined],
  'time_travel_diff.top': [1, undefined],
  'structural_search.limit': [1, 1000],
  'audit_sql.limit': [1, 1000],
  'readiness_audit.limit': [1, 1000],
  'recall.limit': [1, MAX_RECALL_LIMIT],
  'readmemory.id': [undefined, undefined],
  'readmemory.offset': [0, undefined],
  'igraph_explore.topK': [1, 50],
  'igraph_explore.hops': [0, 5],
};

/** Required arguments that let each tool answer on the fixture. */
const BASE: Record<string, Record<string, unknown>> = {
  query_graph: { question: 'login' },
  get_source: { file: 'src/long.ts' },
  get_neighbors: { label: 'AuthService.login' },
  get_community: { community_id: 0 },
  shortest_path: { source: 'AuthService.logout', target: 'verifyToken' },
  affected: { label: 'verifyToken' },
  find_callers: { label: 'verifyToken' },
  find_callees: { label: 'AuthService.login' },
  find_references: { label: 'verifyToken' },
  search_text: { pattern: 'line' },
  predict_edit: { symbol: 'verifyToken', kind: 'delete' },
  plan_rename: { name: 'verifyToken', to: 'checkToken' },
  predict_impact: { files: ['src/auth/service.ts'] },
  affected_tests: { files: ['src/auth/service.ts'] },
  readmemory: { id: 1 },
  igraph_explore: { query: 'login' },
};

/** Clamps the small fixture cannot tell from the value inside (a 13-node graph has no 200-hub page). */
const UNOBSERVABLE = new Set(['god_nodes.top_n']);

let surface: Awaited<ReturnType<typeof servedSurface>>;
let client: InProcessClient;

before(async () => {
  surface = await servedSurface({ profile: 'igraph' });
  mkdirSync(join(surface.dir, 'src'), { recursive: true });
  writeFileSync(join(surface.dir, 'src/long.ts'), Array.from({ length: 500 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join('\n') + '\n');
  client = await connectInProcess(surface.server.core, 'modern');
  await client.callTool({ name: 'remember', arguments: { content: 'Bounds come from the handlers.' } });
});

after(async () => {
  await client?.close();
  await surface?.close();
});

type Schema = { type?: string; minimum?: number; maximum?: number };

async function integerParams(): Promise<Map<string, Schema>> {
  const out = new Map<string, Schema>();
  for (const tool of (await client.listTools()).tools) {
    for (const [name, schema] of Object.entries(((tool.inputSchema as { properties?: Record<string, Schema> }).properties ?? {}))) {
      if (schema.type === 'integer') out.set(`${tool.name}.${name}`, schema);
    }
  }
  return out;
}

async function answer(tool: string, args: Record<string, unknown>): Promise<{ text: string; invalid: boolean }> {
  const r = (await client.callTool({ name: tool, arguments: { ...BASE[tool], ...args } })) as { content: Array<{ text?: string }>; isError?: boolean };
  const text = r.content.map((c) => c.text ?? '').join('\n');
  return { text, invalid: r.isError === true && /invalid arguments/.test(text) };
}

test('every integer parameter advertises the bounds the spec gives it, and no other', async () => {
  const params = await integerParams();
  assert.deepEqual([...params.keys()].sort(), Object.keys(EXPECTED).sort());
  for (const [key, [min, max]] of Object.entries(EXPECTED)) {
    const schema = params.get(key)!;
    assert.equal(schema.minimum, min, `${key} minimum`);
    assert.equal(schema.maximum, max, `${key} maximum`);
  }
});

test('past an advertised bound a tool refuses the argument or answers as at the bound (its clamp)', async () => {
  let clamps = 0;
  for (const [key, schema] of await integerParams()) {
    const [tool, name] = key.split('.') as [string, string];
    for (const [bound, step] of [[schema.minimum, -1], [schema.maximum, 1]] as const) {
      if (bound === undefined) continue;
      const past = await answer(tool, { [name]: bound + step });
      if (past.invalid) continue;
      const at = await answer(tool, { [name]: bound });
      assert.equal(past.text, at.text, `${key}=${bound + step} answers as ${bound}`);
      clamps++;
      // The clamp is real: the value just inside the bound answers differently.
      if (!UNOBSERVABLE.has(key)) assert.notEqual((await answer(tool, { [name]: bound - step })).text, at.text, `${key}=${bound - step} differs from ${bound}`);
    }
  }
  assert.equal(clamps, 11, 'get_source context_lines (both ends), affected, predict_edit, predict_impact and affected_tests depth (both ends) and god_nodes top_n clamp; the rest refuse');
});
