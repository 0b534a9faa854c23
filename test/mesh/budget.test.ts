// What the mesh costs in an agent's context while it is on (#23, #25): the sixteen tools as an SDK
// client lists them, and the guidance the instructions gain. The default surface (mesh off) is
// tool-budget.test.ts's; these tools are absent there.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createSynapticServer, type SynapticServer } from '../../src/mcp/synaptic-server.ts';
import { createMemoryTools } from '../../src/mcp/tools/memory/index.ts';
import { createMeshTools, MESH_TOOLS } from '../../src/mcp/tools/mesh/index.ts';
import { createVaultTools } from '../../src/mcp/tools/vault/index.ts';
import { countTokens } from '../../src/query/budget.ts';
import { setSwitch } from '../../src/skills/settings.ts';
import { smallGraph } from '../mcp/fixtures/small-graph.ts';
import { connectInProcess } from '../mcp/in-process.ts';

/** Per tool, what the model is shown (name, description, inputSchema): the spec's aim. */
const MODEL_CAP = 250;
/** All sixteen on the wire (output schemas and annotations included). */
const MESH_WIRE_BUDGET = 3300;
/** The guidance line the instructions gain. */
const GUIDANCE_BUDGET = 160;

let dir: string;
let server: SynapticServer;
let env: NodeJS.ProcessEnv;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'synaptic-mesh-budget-'));
  env = { ...process.env, SYNAPTIC_DATA_DIR: join(dir, 'data') };
  setSwitch('mesh', true, env);
  const graphPath = join(dir, 'graph.json');
  writeFileSync(graphPath, JSON.stringify(smallGraph()));
  server = await createSynapticServer({
    graphPath,
    sourceRoot: dir,
    name: 'synaptic',
    version: '0.0.0-test',
    log: () => {},
    watch: false,
    providers: [createMemoryTools({ cwd: dir, env }), createVaultTools({ cwd: dir, env }), createMeshTools({ cwd: dir, env })],
  });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

for (const era of ['modern', 'legacy'] as const) {
  test(`${era} era: with the mesh on, each mesh tool costs the model <= ${MODEL_CAP} tokens, all ${MESH_TOOLS.length} <= ${MESH_WIRE_BUDGET} on the wire, the guidance <= ${GUIDANCE_BUDGET}`, async (t) => {
    const client = await connectInProcess(server.core, era);
    try {
      const tools = (await client.listTools()).tools.filter((x) => x.name.startsWith('mesh_'));
      assert.deepEqual(tools.map((x) => x.name), [...MESH_TOOLS]);
      let wire = 0;
      let model = 0;
      for (const tool of tools) {
        const m = await countTokens(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
        const w = await countTokens(JSON.stringify(tool));
        t.diagnostic(`${tool.name.padEnd(18)} model ${String(m).padStart(4)}  wire ${String(w).padStart(4)}`);
        assert.ok(m <= MODEL_CAP, `${tool.name}: ${m} > ${MODEL_CAP}`);
        wire += w;
        model += m;
      }
      const instructions = client.getInstructions() ?? '';
      const line = instructions.split('\n').find((l) => l.startsWith('Agent mesh:')) ?? '';
      const guidance = await countTokens(line);
      t.diagnostic(`mesh: ${tools.length} tools, model-facing ${model}, wire ${wire} tokens; guidance ${guidance} tokens`);
      assert.ok(wire <= MESH_WIRE_BUDGET, `${wire} > ${MESH_WIRE_BUDGET}`);
      assert.ok(line && guidance <= GUIDANCE_BUDGET, `guidance ${guidance} tokens`);
      // Every tool the guidance names is served.
      for (const name of line.match(/\bmesh_[a-z_]+/g) ?? []) assert.ok(MESH_TOOLS.includes(name), `${name} is a mesh tool`);
    } finally {
      await client.close();
    }
  });
}
