// The tool surface's cost in every agent's context (#25): cl100k tokens of the tools/list result as
// an SDK client receives it, in both protocol eras, with the per-tool cost printed largest first.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { countTokens } from '../../src/query/budget.ts';
import { LEAN_TOOLS } from '../../src/mcp/profiles.ts';
import { connectInProcess, servedSurface, type InProcessClient } from './in-process.ts';

/** The whole tools/list result a session receives (every field: the most any client can put in context). */
const SURFACE_BUDGET = { default: 9000, lean: 3000 };

/**
 * Per-tool caps on what the model is shown of a tool: name, description and inputSchema (Claude Code
 * and opencode pass exactly these; title, annotations and outputSchema stay with the client). On the
 * wire, the spec's four annotations and list_repos' outputSchema alone take 90 tokens, so a
 * federated-only tool's 100 is counted here. A tool not named gets DEFAULT_MODEL_CAP; the mesh tools
 * (spec: at most 250 each) join this table by name when they land.
 */
const MODEL_CAP: Record<string, number> = { list_repos: 100, repo_stats: 100 };
const DEFAULT_MODEL_CAP = 300;
/** And no single tool's whole tools/list entry past this. */
const WIRE_CAP = 450;

/** The shared wording moved into the instructions must not grow into a second tool list. */
const INSTRUCTIONS_BUDGET = 600;

interface Row {
  name: string;
  tokens: number;
  bytes: number;
  model: number;
}

interface Measure {
  rows: Row[];
  tokens: number;
  bytes: number;
  model: number;
  names: string[];
}

async function measure(client: InProcessClient): Promise<Measure> {
  const result = await client.listTools();
  const rows: Row[] = [];
  for (const t of result.tools) {
    const json = JSON.stringify(t);
    const model = await countTokens(JSON.stringify({ name: t.name, description: t.description, input_schema: t.inputSchema }));
    rows.push({ name: t.name, tokens: await countTokens(json), bytes: Buffer.byteLength(json), model });
  }
  const json = JSON.stringify(result);
  return {
    rows: [...rows].sort((a, b) => b.tokens - a.tokens || a.name.localeCompare(b.name)),
    tokens: await countTokens(json),
    bytes: Buffer.byteLength(json),
    model: rows.reduce((sum, r) => sum + r.model, 0),
    names: result.tools.map((t) => t.name),
  };
}

function report(t: TestContext, title: string, m: Measure): void {
  t.diagnostic(`${title}: ${m.rows.length} tools, ${m.tokens} tokens, ${m.bytes} bytes (model-facing: ${m.model} tokens)`);
  t.diagnostic(`  ${'tool'.padEnd(18)} tokens  bytes  model-facing`);
  for (const r of m.rows) t.diagnostic(`  ${r.name.padEnd(18)} ${String(r.tokens).padStart(6)} ${String(r.bytes).padStart(6)} ${String(r.model).padStart(6)}`);
}

function overCap(m: Measure): string[] {
  return m.rows.flatMap((r) => {
    const cap = MODEL_CAP[r.name] ?? DEFAULT_MODEL_CAP;
    return [...(r.model > cap ? [`${r.name}: model-facing ${r.model} > ${cap}`] : []), ...(r.tokens > WIRE_CAP ? [`${r.name}: ${r.tokens} > ${WIRE_CAP}`] : [])];
  });
}

const surfaces: Record<string, Awaited<ReturnType<typeof servedSurface>>> = {};

before(async () => {
  surfaces.default = await servedSurface();
  surfaces.learn = await servedSurface({ learn: true });
  surfaces.lean = await servedSurface({ profile: 'lean' });
  surfaces.leanLearn = await servedSurface({ profile: 'lean', learn: true });
  surfaces.igraph = await servedSurface({ profile: 'igraph' });
});

after(async () => {
  for (const s of Object.values(surfaces)) await s.close();
});

async function withClient<T>(surface: string, era: 'modern' | 'legacy', fn: (client: InProcessClient) => Promise<T>): Promise<T> {
  const client = await connectInProcess(surfaces[surface]!.server.core, era);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

for (const era of ['modern', 'legacy'] as const) {
  test(`${era} era: the default surface costs at most ${SURFACE_BUDGET.default} tokens (with the owner's learn tools too), each tool within its caps`, async (t) => {
    for (const surface of ['default', 'learn']) {
      await withClient(surface, era, async (client) => {
        const m = await measure(client);
        report(t, `${surface === 'learn' ? 'default surface + learn (teach, revise)' : 'default surface'}, ${era}`, m);
        for (const name of ['query_graph', 'list_repos', 'repo_stats', 'remember', 'recall', 'readmemory', 'vaultstatus']) assert.ok(m.names.includes(name), `${name} is listed`);
        assert.equal(m.names.includes('teach'), surface === 'learn');
        assert.ok(m.tokens <= SURFACE_BUDGET.default, `${m.tokens} tokens > ${SURFACE_BUDGET.default}`);
        assert.deepEqual(overCap(m), [], 'tools over their cap');
        const cost = await countTokens(client.getInstructions() ?? '');
        t.diagnostic(`instructions: ${cost} tokens`);
        assert.ok(cost <= INSTRUCTIONS_BUDGET, `instructions ${cost} tokens > ${INSTRUCTIONS_BUDGET}`);
      });
    }
  });

  test(`${era} era: --profile lean serves the ten most used tools in at most ${SURFACE_BUDGET.lean} tokens and its instructions name the rest`, async (t) => {
    const all = await withClient('default', era, async (client) => (await client.listTools()).tools.map((x) => x.name));
    await withClient('lean', era, async (client) => {
      const m = await measure(client);
      report(t, `--profile lean, ${era}`, m);
      assert.deepEqual([...m.names].sort(), [...LEAN_TOOLS].sort());
      assert.ok(m.tokens <= SURFACE_BUDGET.lean, `${m.tokens} tokens > ${SURFACE_BUDGET.lean}`);
      const hidden = all.filter((n) => !m.names.includes(n));
      assert.equal(hidden.length, all.length - LEAN_TOOLS.size);
      const lines = (client.getInstructions() ?? '').split('\n');
      const pointer = lines.find((l) => l.includes('--profile lean')) ?? '';
      for (const name of hidden) assert.match(pointer, new RegExp(`\\b${name}\\b`), `the instructions name ${name}`);
      // Outside that pointer, the instructions route only to tools this server serves.
      const rest = lines.filter((l) => l !== pointer).join('\n');
      for (const name of hidden) assert.doesNotMatch(rest, new RegExp(`\\b${name}\\b`), `${name} is not served`);
    });
    // The owner's learn switch still adds teach and revise: a profile does not hide what the owner turned on.
    await withClient('leanLearn', era, async (client) => {
      const m = await measure(client);
      report(t, `--profile lean + learn, ${era}`, m);
      assert.deepEqual([...m.names].sort(), [...LEAN_TOOLS, 'revise', 'teach'].sort());
    });
  });
}

test('--profile igraph (opt-in, no budget): its cost is reported', async (t) => {
  await withClient('igraph', 'modern', async (client) => {
    const m = await measure(client);
    report(t, '--profile igraph, modern', m);
    assert.ok(m.names.includes('igraph_explore'));
  });
});

test('no integer in any tool schema carries the safe-integer bounds zod writes for an unbounded .int()', async () => {
  await withClient('igraph', 'modern', async (client) => {
    const json = JSON.stringify((await client.listTools()).tools);
    assert.doesNotMatch(json, /9007199254740991/);
    assert.doesNotMatch(json, /"additionalProperties":\{\}/);
  });
});

test('no tool description or schema names a tool the server does not serve', async () => {
  // Every tool name of every surface (igraph and learn together cover them all).
  const known = new Set([...surfaces.igraph!.server.core.tools(), ...surfaces.learn!.server.core.tools()].map((t) => t.name));
  for (const surface of ['default', 'lean'] as const) {
    await withClient(surface, 'modern', async (client) => {
      const { tools } = await client.listTools();
      const served = new Set(tools.map((t) => t.name));
      for (const tool of tools) {
        const words = new Set(JSON.stringify({ d: tool.description, i: tool.inputSchema, o: tool.outputSchema }).match(/\b[a-z_]+\b/g) ?? []);
        for (const w of words) if (known.has(w)) assert.ok(served.has(w), `${surface}: ${tool.name} names ${w}, which is not served`);
      }
    });
  }
});
