// CLI for the runtime checks (Bun, Deno, Node): run-checks.mjs <synaptic.wasm> <graph-fixtures dir>
// Prints one JSON line with the result; exit code 1 when any check failed.
import { readFile } from 'node:fs/promises';
import { runFixtureChecks } from './checks.mjs';

const [wasmPath, fixturesDir] = (globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2));
const wasm = await readFile(wasmPath);
const index = JSON.parse(await readFile(`${fixturesDir}/index.json`, 'utf8'));
const fixtures = [];
for (const file of index.files) fixtures.push(JSON.parse(await readFile(`${fixturesDir}/${file}`, 'utf8')));
const result = await runFixtureChecks(wasm, fixtures);
console.log(JSON.stringify({ ...result, fixtures: fixtures.length }));
if (result.failures.length > 0 || result.checks === 0) {
  if (globalThis.Deno) globalThis.Deno.exit(1);
  process.exitCode = 1;
}
