// Crash consistency (issue 16.4): `synaptic extract` / `update` killed (SIGKILL) at each point where
// an output is renamed into place, and at 20 times spread over a run. After each kill a server on
// the folder answers as the old graph or the new one (never a mix), the next `update` finds what the
// kill left, says so and rebuilds it, and then the outputs equal a clean extract byte for byte and
// the server answers as one on the clean extract does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import { CLI, CLI_ARGS, RawServer, serveArgs, text } from '../mcp/helpers.ts';

if (!existsSync(CLI) && process.env.SYNAPTIC_TEST_TSX !== '1') throw new Error(`${CLI} is missing; run 'npm run build:cli' first`);

const dir = mkdtempSync(join(tmpdir(), 'synaptic-crash-'));
const repo = join(dir, 'repo');
const out = join(repo, 'synaptic-out');
const env = { ...process.env, SYNAPTIC_DATA_DIR: join(dir, 'data') } as Record<string, string>;
delete env.SYNAPTIC_TEST_CRASH_AT;
after(() => rmSync(dir, { recursive: true, force: true }));

/** Module i of the repository: imports the next one, calls it. */
function module(i: number, calls = i % 6 + 1): string {
  const next = i % 6 + 1;
  return `import { f${next}, f${calls} as h${calls} } from './m${next}';\n`
    + `export function g${i}(x: number): number {\n  return f${next}(x) + h${calls}(x);\n}\n`
    + `export class C${i} {\n  run(): number {\n    return g${i}(${i});\n  }\n}\n`
    + `export function f${i}(x: number): number {\n  return x * ${i};\n}\n`;
}

/**
 * The tree's states, in a cycle: each step to the next takes another route of `update`: a file added
 * (full), a function body changed (relink), lines moved (positions), then back (a file deleted: full).
 */
const STATES: Record<string, string>[] = [
  {},
  { 'src/extra.ts': "import { g1 } from './m1';\nimport { C2 } from './m2';\nexport function extra(): number {\n  return g1(1) + new C2().run();\n}\n" },
  { 'src/m2.ts': module(2, 5) },
  { 'src/m3.ts': '\n\n' + module(3) },
].map((change, k, all) => Object.assign({}, ...all.slice(0, k + 1)) as Record<string, string>);

const BASE: Record<string, string> = Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`src/m${i}.ts`, module(i)]));
let state = 0;

/** Bring the tree to state k, writing only the files that differ (so the routes are the real ones). */
function setState(k: number): void {
  const want = { ...BASE, ...STATES[k]! };
  for (const [rel, body] of Object.entries(want)) {
    const abs = join(repo, rel);
    if (!existsSync(abs) || readFileSync(abs, 'utf8') !== body) writeFileSync(abs, body);
  }
  for (const rel of Object.keys(STATES[1]!)) if (!(rel in want)) rmSync(join(repo, rel), { force: true });
  state = k;
}

const OUTPUTS = ['graph.json', 'graph.cbor', 'GRAPH_REPORT.md'];

/** What a clean extract of a state gives: its output bytes, and a server's answers on them. */
const references = new Map<number, { bytes: Record<string, Buffer>; answers: string[] }>();

let callId = 1;
const lastAsked = new Map<RawServer, number>();
/** A few answers that change with the graph (counts, a caller listing, a ranked search). */
async function answers(server: RawServer): Promise<string[]> {
  // Past the server's stamp-check interval (250 ms) since its last call: the next call reloads a replaced graph first.
  const wait = (lastAsked.get(server) ?? 0) + 300 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const calls: [string, Record<string, unknown>][] = [
    ['graph_stats', {}], ['find_callers', { label: 'f1' }], ['find_callers', { label: 'g2' }], ['query_graph', { question: 'extra run g2' }],
  ];
  const texts: string[] = [];
  for (const [name, args] of calls) texts.push(text((await server.call(callId++, name, args)).result));
  lastAsked.set(server, Date.now());
  return texts;
}

async function reference(k: number): Promise<{ bytes: Record<string, Buffer>; answers: string[] }> {
  const known = references.get(k);
  if (known) return known;
  const refOut = join(dir, `clean-${k}`);
  await runExtract({ root: repo, outDir: refOut, workers: 0 });
  const server = new RawServer(serveArgs(join(refOut, 'graph.json'), '--no-freshen', '--source-root', repo), env);
  await server.ready();
  const ref = { bytes: Object.fromEntries(OUTPUTS.map((f) => [f, readFileSync(join(refOut, f))])), answers: await answers(server) };
  await server.close();
  references.set(k, ref);
  return ref;
}

/** Run the CLI; `kill`: SIGKILL at an output (the test hook) or after some milliseconds. */
function runCli(command: 'extract' | 'update', kill: { at?: string; afterMs?: number } = {}): Promise<{ killed: boolean; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [...CLI_ARGS, command, repo], { env: kill.at ? { ...env, SYNAPTIC_TEST_CRASH_AT: kill.at } : env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = kill.afterMs !== undefined ? setTimeout(() => child.kill('SIGKILL'), kill.afterMs) : undefined;
  return new Promise((resolve) => child.on('close', (code, signal) => {
    clearTimeout(timer);
    if (signal !== 'SIGKILL' && code !== 0) throw new Error(`synaptic ${command} failed (${code}): ${stderr}`);
    resolve({ killed: signal === 'SIGKILL', stderr, ms: Date.now() - started });
  }));
}

function tempFiles(): string[] {
  return [out, join(out, '.facts')].flatMap((d) => readdirSync(d).filter((n) => n.includes('.tmp-')));
}

/** A server on the folder the runs are killed in, for the whole file (it reloads a replaced graph). */
let server: RawServer;
before(async () => {
  mkdirSync(join(repo, 'src'), { recursive: true });
  setState(0);
  await runCli('extract');
  server = new RawServer(serveArgs(join(out, 'graph.json'), '--no-freshen', '--source-root', repo), env);
  await server.ready();
});
after(() => server?.close());

/** Step the tree (and the folder, by updates) to state k. */
async function stepTo(k: number): Promise<void> {
  while (state !== k) {
    setState((state + 1) % STATES.length);
    await runExtract({ root: repo, incremental: true });
  }
}

/**
 * One crash: step the tree to its next state, run `command` killed as `kill` says, check what a
 * server sees meanwhile, then heal with `update` (`cliHeal`: the CLI, else in this process) and
 * check the outputs and answers against a clean extract. Returns whether the run was killed and
 * what the healing update said it repaired.
 */
async function crash(command: 'extract' | 'update', kill: { at?: string; afterMs?: number }, cliHeal: boolean): Promise<{ killed: boolean; repairs: string }> {
  const before = (await reference(state)).answers;
  setState((state + 1) % STATES.length);
  const ref = await reference(state);
  const run = await runCli(command, kill);
  const label = `${command} killed ${kill.at ? `after ${kill.at}` : `at ${kill.afterMs} ms`} (state ${state})`;
  // A reader between the two runs sees one whole graph: the old or the new.
  const seen = await answers(server);
  assert.ok([before, ref.answers].some((a) => JSON.stringify(a) === JSON.stringify(seen)), `${label}: the server answers as the old or the new graph\n${seen.join('\n')}`);

  let repairs: string;
  if (cliHeal) repairs = (await runCli('update')).stderr.split('\n').filter((l) => l.startsWith('synaptic: ')).join('\n');
  else repairs = (await runExtract({ root: repo, incremental: true })).repairs.join('\n');
  for (const f of OUTPUTS) assert.ok(readFileSync(join(out, f)).equals(ref.bytes[f]!), `${label}, then update: ${f} equals a clean extract's`);
  assert.deepEqual(tempFiles(), [], `${label}, then update: no temp file left`);
  assert.deepEqual(await answers(server), ref.answers, `${label}, then update: the server answers as on a clean extract`);
  // Repaired for good: one more update keeps the outputs as they are.
  const again = await runExtract({ root: repo, incremental: true });
  assert.deepEqual([again.linkMode, again.repairs], ['reused', []], `${label}: the update after the repair finds nothing to repair`);
  return { killed: run.killed, repairs };
}

/** Outputs in the order a run puts them in place (OutputFolder); the graph is torn between the manifest and the state. */
const POINTS = ['.facts/*', '.communities.cbor', '.link.cbor', '.manifest.json', 'GRAPH_REPORT.md', 'graph.json', 'graph.cbor', '.graph-state.json', '.walk.cbor'];
const TORN = new Set(['.manifest.json', 'GRAPH_REPORT.md', 'graph.json', 'graph.cbor']);

test('killed right after each output is renamed into place: the next update repairs what is torn, and says so', async () => {
  for (const at of POINTS) {
    // The step from state 0 (a file added) writes every output; so does the step back to 0 (a file deleted).
    if (state !== 0 && state !== 3) await stepTo(3);
    // (the healing update runs the CLI where it has something to say on stderr, else in this process)
    const { killed, repairs } = await crash('update', { at }, TORN.has(at));
    assert.ok(killed, `the run reached ${at} and was killed there`);
    if (TORN.has(at)) assert.match(repairs, /^synaptic: a run stopped before it finished writing the outputs .*: the graph was built again from every file's facts$/m, `after ${at}`);
    else assert.doesNotMatch(repairs, /stopped before it finished/, `after ${at}: the folder was whole (old or new)`);
    if (at === 'GRAPH_REPORT.md' || at === 'graph.json') assert.match(repairs, /removed [12] temp files? an interrupted run left/, `after ${at}: its temp files are cleaned up`);
  }
  // A positions-only update (state 2 -> 3) killed between its graph files.
  await stepTo(2);
  assert.ok((await crash('update', { at: 'graph.json' }, true)).killed);
});

test('killed at 20 times spread over extract and update runs: every time the next update gives a clean extract\'s outputs and answers', async () => {
  // How long an uninterrupted update takes here: the kills are spread over it.
  setState((state + 1) % STATES.length);
  const whole = (await runCli('update')).ms;
  let killed = 0;
  const order = Array.from({ length: 20 }, (_, i) => i).sort(() => Math.random() - 0.5);
  for (const [n, i] of order.entries()) {
    const afterMs = Math.round(whole * (i + Math.random()) / 20);
    if ((await crash(n % 3 === 2 ? 'extract' : 'update', { afterMs }, false)).killed) killed++;
  }
  assert.ok(killed >= 10, `most runs were killed part-way (${killed} of 20; an update takes ${whole} ms here)`);
  // A server started afresh on the repaired folder answers as one on a clean extract too.
  const fresh = new RawServer(serveArgs(join(out, 'graph.json'), '--no-freshen', '--source-root', repo), env);
  try {
    await fresh.ready();
    assert.deepEqual(await answers(fresh), (await reference(state)).answers);
    assert.doesNotMatch(fresh.stderr, /warning/);
  } finally {
    await fresh.close();
  }
});

test('a damaged graph.cbor, graph.json or manifest is found by the next update and rebuilt; the server falls back to graph.json meanwhile', async () => {
  const ref = await reference(state);
  const cbor = join(out, 'graph.cbor');
  const flipped = readFileSync(cbor);
  flipped[flipped.length >> 1]! ^= 0x04;
  writeFileSync(cbor, flipped);
  assert.deepEqual(await answers(server), ref.answers, 'the server answers from graph.json');
  assert.match(server.stderr, /warning: .*graph\.cbor not used: the file is damaged \(checksum .*loaded graph\.json instead/);
  const heal = await runCli('update');
  assert.match(heal.stderr, /^synaptic: graph\.cbor: the file is damaged \(checksum .*: the graph was built again/m);
  assert.ok(readFileSync(cbor).equals(ref.bytes['graph.cbor']!));

  // graph.json cut short (a torn copy): found by its recorded size, rebuilt.
  const json = join(out, 'graph.json');
  writeFileSync(json, readFileSync(json).subarray(0, 100));
  const again = await runExtract({ root: repo, incremental: true });
  assert.match(again.repairs.join('\n'), /graph\.json is 100 bytes, not the \d+ the last run wrote/);
  assert.ok(readFileSync(json).equals(ref.bytes['graph.json']!));
  // A manifest that does not read: every file is extracted again, and said so.
  writeFileSync(join(out, '.manifest.json'), '{"manifest_version": 1, "files": {');
  const fresh = await runExtract({ root: repo, incremental: true });
  assert.match(fresh.repairs.join('\n'), /^\.manifest\.json is damaged \(not a manifest\): every file was extracted again$/m);
  for (const f of OUTPUTS) assert.ok(readFileSync(join(out, f)).equals(ref.bytes[f]!), `after the damaged manifest: ${f}`);
  // A copied folder (new inodes, same bytes) is checked by content once, then trusted by its stamps again.
  const copy = join(dir, 'copy');
  cpSync(out, copy, { recursive: true });
  const fromCopy = await runExtract({ root: repo, outDir: copy, incremental: true });
  assert.deepEqual([fromCopy.linkMode, fromCopy.repairs], ['reused', []]);
  const stamp = (JSON.parse(readFileSync(join(copy, '.graph-state.json'), 'utf8')) as { graph_json: { stamp: string } }).graph_json.stamp;
  assert.equal(stamp.split(':')[2], String(statSync(join(copy, 'graph.json'), { bigint: true }).ino), 'the state names the copy\'s inode now');
});
