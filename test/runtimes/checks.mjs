// Runtime-neutral fixture checks for synaptic.wasm through the plain-JS host (host.mjs).
// No Node APIs here: Bun, Deno, Node and Chromium all import this same file.
import { loadSynaptic } from './host.mjs';

/**
 * Run the fixtures' BFS, PageRank (20-iteration and converged) and weak/strong components.
 * `fixtures` are parsed test/fixtures/graph-fixtures JSON objects. Returns
 * { runtime, imports, checks, failures: string[] }.
 */
export async function runFixtureChecks(wasmBytes, fixtures) {
  const failures = [];
  let checks = 0;
  const expect = (cond, what) => {
    checks++;
    if (!cond) failures.push(what);
  };
  const mod = await WebAssembly.compile(wasmBytes);
  const imports = WebAssembly.Module.imports(mod).length;
  expect(imports === 0, `module has ${imports} imports, expected 0`);
  const core = await loadSynaptic(wasmBytes);
  for (const f of fixtures) {
    const g = core.graph(f.n, Uint32Array.from(f.edges, (e) => e[0]), Uint32Array.from(f.edges, (e) => e[1]));
    try {
      for (const b of f.bfs) {
        const got = g.bfs(b.source);
        expect(sameInts(got, b.dist), `${f.name}: bfs from ${b.source}`);
      }
      if (f.n > 0) {
        const x20 = g.pagerank(20, 0);
        const e20 = maxAbsDiff(x20, f.pagerank.x20);
        expect(e20 <= 1e-12, `${f.name}: pagerank x20 max error ${e20}`);
        const x = g.pagerank(1000, 1e-15);
        const ex = maxAbsDiff(x, f.pagerank.x);
        expect(ex <= 1e-9, `${f.name}: pagerank converged max error ${ex}`);
      }
      for (const [kind, want] of [['weak', f.weakComponents], ['strong', f.strongComponents]]) {
        const got = g.components(kind === 'strong');
        expect(got.count === want.count, `${f.name}: ${kind} component count ${got.count} vs ${want.count}`);
        expect(sameInts(got.label, want.label), `${f.name}: ${kind} component labels`);
      }
    } catch (err) {
      failures.push(`${f.name}: threw ${err && err.message}`);
    } finally {
      g.free();
    }
  }
  return { runtime: runtimeName(), imports, checks, failures };
}

function sameInts(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

function runtimeName() {
  const g = globalThis;
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (g.process && g.process.versions && g.process.versions.node) return `node ${g.process.versions.node}`;
  return typeof navigator !== 'undefined' ? navigator.userAgent : 'unknown';
}
