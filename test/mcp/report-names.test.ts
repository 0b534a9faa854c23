/**
 * GRAPH_REPORT.md, graph.json's community names and the MCP surfaces that print them agree (issue
 * #18 item 5), through the SDK client over a real stdio server on an extracted repository: the
 * fixture repo plus two rings of modules that touch once (a surprising connection) and a test that
 * imports and calls one ring (not a surprise).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { GraphDocument } from '../../src/graph/model.ts';
import { extractFixture, serveArgs, text } from './helpers.ts';

let fx: ReturnType<typeof extractFixture>;
let client: Client;

/** src/<ring>/<ring><i>.ts: each function calls the next three of its ring. */
function addRing(repo: string, ring: string, cross?: { at: number; name: string; from: string }): void {
  mkdirSync(join(repo, `src/${ring}`), { recursive: true });
  for (let i = 0; i < 8; i++) {
    const next = [1, 2, 3].map((j) => `${ring}${(i + j) % 8}`);
    writeFileSync(
      join(repo, `src/${ring}/${ring}${i}.ts`),
      next.map((n) => `import { ${n} } from './${n}';\n`).join('') + (cross?.at === i ? `import { ${cross.name} } from '${cross.from}';\n` : '') +
        `export function ${ring}${i}(depth: number): number {\n  if (depth <= 0) return ${i};\n  return ${[...next, ...(cross?.at === i ? [cross.name] : [])].map((n) => `${n}(depth - 1)`).join(' + ')};\n}\n`,
    );
  }
}

before(async () => {
  fx = extractFixture((repo) => {
    addRing(repo, 'bolt');
    // nut1 calls bolt2 once: the only link between the two rings.
    addRing(repo, 'nut', { at: 1, name: 'bolt2', from: '../bolt/bolt2' });
    writeFileSync(join(repo, 'test/nut.test.ts'), "import { test } from 'node:test';\nimport { nut0 } from '../src/nut/nut0';\nimport { bolt0 } from '../src/bolt/bolt0';\ntest('nut', () => {\n  nut0(2);\n  bolt0(2);\n});\n");
  });
  const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(fx.graph), env: fx.env, stderr: 'pipe' });
  client = new Client({ name: 'report-names-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  fx?.cleanup();
});

function report(): string {
  return readFileSync(join(fx.repo, 'synaptic-out/GRAPH_REPORT.md'), 'utf8');
}

function section(title: string): string {
  const r = report();
  const start = r.indexOf(`## ${title}\n`);
  return r.slice(start, r.indexOf('\n## ', start + 3));
}

async function resource(uri: string): Promise<string> {
  const r = await client.readResource({ uri });
  return r.contents.map((c) => ('text' in c ? c.text : '')).join('\n');
}

test('synaptic://surprises lists the surprising connections of GRAPH_REPORT.md, in the same order, with the same reason', async () => {
  // Report: "- `nut1` calls `bolt2` (src/nut/nut1.ts:L7 -> src/bolt/bolt2.ts): 1 of 2 links between ..." (the other: the test's call).
  const fromReport = section('Surprising connections').split('\n').filter((l) => l.startsWith('- ')).map((l) => {
    const m = /^- `[^`]*` (\S+) `[^`]*` \(([^)]*?)(?: -> [^)]*)?\): (.*)\.$/.exec(l);
    assert.ok(m, l);
    return `${m[1]} ${m[2]}: ${m[3]}`;
  });
  // Resource: "  src/nut/nut1.ts#nut1 --calls--> ...  (src/nut/nut1.ts:L7): 1 of 2 links between ...".
  const fromResource = (await resource('synaptic://surprises')).split('\n').slice(1).map((l) => {
    const m = /^ {2}\S.* --(\S+)--> .*? {2}\(([^)]*)\): (.*)$/.exec(l);
    assert.ok(m, l);
    return `${m[1]} ${m[2]}: ${m[3]}`;
  });
  assert.deepEqual(fromResource, fromReport);
  const ring = fromReport.find((r) => r.startsWith('calls src/nut/nut1.ts:'));
  assert.ok(ring, `the rings' one link is listed: ${fromReport.join('; ')}`);
  assert.match(ring, /: 1 of 2 links between \d+ "src\/nut — [^"]+" and \d+ "src\/bolt — [^"]+", where ~\d+(\.\d)? would be expected from how linked each is$/);
  assert.ok(fromReport.every((r) => !/^(imports|imports_from|re_exports|tests) /.test(r)), 'no import or test edge is a surprise');
  assert.ok(fromReport.every((r) => !r.includes(' test/')), 'no link from test code is a surprise');
});

test('get_community, synaptic://community and synaptic://questions print the names graph.json and GRAPH_REPORT.md carry', async () => {
  const doc = JSON.parse(readFileSync(fx.graph, 'utf8')) as GraphDocument;
  const labels = doc.graph.community_labels!;
  const table = new Map(
    section('Communities').split('\n').flatMap((l) => {
      const m = /^\| (\d+) \| (.+?) \| \d+ \| /.exec(l);
      return m ? [[m[1]!, m[2]!] as const] : [];
    }),
  );
  assert.ok(table.size > 3);
  for (const [id, name] of table) assert.equal(name, labels[id], `community ${id}: the report's name is graph.json's`);
  const nut = [...table].find(([, name]) => name.startsWith('src/nut — '));
  assert.ok(nut, `the nut ring is named by its folder: ${[...table.values()].join('; ')}`);
  const [id, name] = nut;
  const tool = text(await client.callTool({ name: 'get_community', arguments: { community_id: Number(id) } }));
  assert.ok(tool.startsWith(`Community ${id} (${name}) (showing`), tool.split('\n')[0]);
  assert.ok((await resource(`synaptic://community/${id}`)).startsWith(`Community ${id} (${name}) (`));
  const biggest = [...table][0]!;
  assert.match(await resource('synaptic://questions'), new RegExp(`community ${biggest[0]} \\(${biggest[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));
});
