/**
 * The shard store's engine, chosen by measurement (docs/store.md): SQLite (better-sqlite3, the
 * store in src/graph/store/) against LMDB (the `lmdb` package, an equivalent layout written here:
 * nodes by id, links by (file, seq), adjacency lists by source and by target, labels as keys) on
 * one graph. Measured: write time, file size, a fresh process's open + one neighbour query
 * (module load included), and warm neighbour queries.
 *
 *   npm install --no-save lmdb    # not a dependency: only this bench uses it
 *   STORE_GRAPH=/tmp/corpus/prisma/synaptic-out/graph.json npx tsx bench/store-engines.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphDocument } from '../src/graph/model.ts';
import { Shard } from '../src/graph/store/read.node.ts';
import { linkRow, nodeRow } from '../src/graph/store/rows.node.ts';
import { writeShard } from '../src/graph/store/write.node.ts';

const graphPath = process.env.STORE_GRAPH ?? '/tmp/corpus/prisma/synaptic-out/graph.json';
const rounds = Number(process.env.STORE_ROUNDS ?? 3);
const doc = JSON.parse(readFileSync(graphPath, 'utf8')) as GraphDocument;
const dir = mkdtempSync(join(tmpdir(), 'store-engines-'));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Lmdb = { open(options: Record<string, unknown>): any };
const LMDB = 'lmdb'; // not a dependency: a variable specifier keeps typecheck from needing it
const probe = doc.nodes.map((n) => n.id).filter((_, i) => i % 97 === 0);

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + statSync(join(path, name)).size, 0);
}

function writeLmdb(lmdb: Lmdb, path: string): void {
  rmSync(path, { recursive: true, force: true });
  const env = lmdb.open({ path, mapSize: 2 ** 32, compression: false, noSync: true });
  const nodes = env.openDB({ name: 'n' });
  const links = env.openDB({ name: 'l' });
  const out = env.openDB({ name: 'o' });
  const inn = env.openDB({ name: 'i' });
  const labels = env.openDB({ name: 'lab' });
  const fids = new Map<string, number>();
  const fidOf = (f: string) => fids.get(f) ?? (fids.set(f, fids.size + 1), fids.size);
  env.transactionSync(() => {
    doc.nodes.forEach((n, i) => {
      const r = nodeRow(n, fidOf(n.source_file), i + 1);
      nodes.putSync(r.id, [r.fid, r.label, r.kind, r.community, r.flags, r.json, r.crc]);
      labels.putSync([r.label, r.id], null);
    });
    const outs = new Map<string, [number, number][]>();
    const ins = new Map<string, [number, number][]>();
    const seqs = new Map<number, number>();
    for (const l of doc.links) {
      const fid = fidOf(l.source_file);
      const seq = seqs.get(fid) ?? 0;
      seqs.set(fid, seq + 1);
      const r = linkRow(l, seq, fid, seqs.size);
      links.putSync([fid, seq], [r.source, r.target, r.relation, r.flags, r.json, r.crc]);
      (outs.get(r.source) ?? (outs.set(r.source, []), outs.get(r.source)!)).push([fid, seq]);
      (ins.get(r.target) ?? (ins.set(r.target, []), ins.get(r.target)!)).push([fid, seq]);
    }
    for (const [id, refs] of outs) out.putSync(id, refs);
    for (const [id, refs] of ins) inn.putSync(id, refs);
  });
  void env.close();
}

function timeIt(f: () => void): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

/** A fresh node process: load the engine, then open and one neighbour query; [import ms, open + query ms]. */
function freshOpen(engine: 'sqlite' | 'lmdb', path: string, id: string): [number, number] {
  const script = engine === 'sqlite'
    ? `const t=performance.now();const {Shard}=await import(${JSON.stringify(new URL('../src/graph/store/read.node.ts', import.meta.url).pathname)});const u=performance.now();const s=Shard.open(${JSON.stringify(path)});const r=s.neighbours(${JSON.stringify(id)});if(!r)process.exit(1);console.log(u-t,performance.now()-u)`
    : `const t=performance.now();const lmdb=await import('lmdb');const u=performance.now();const env=lmdb.open({path:${JSON.stringify(path)},readOnly:true,compression:false});const o=env.openDB({name:'o'}),i=env.openDB({name:'i'}),l=env.openDB({name:'l'});const id=${JSON.stringify(id)};const refs=[...(o.get(id)??[]),...(i.get(id)??[])];const rows=refs.map((k)=>{const v=l.get(k);JSON.parse(v[4]);return v});console.log(u-t,performance.now()-u)`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: new URL('..', import.meta.url).pathname });
  const [load, open] = out.trim().split(/\s+/).map(Number);
  return [load!, open!];
}

const results: Record<string, number[]> = {};
const note = (key: string, value: number) => (results[key] ??= []).push(value);

let lmdb: Lmdb | null = null;
try {
  lmdb = (await import(LMDB)) as Lmdb;
} catch {
  console.error('lmdb is not installed (npm install --no-save lmdb): SQLite only');
}
const sqlitePath = join(dir, 'graph.shard');
const lmdbPath = join(dir, 'graph.lmdb');
for (let round = 0; round < rounds; round++) {
  note('sqlite write ms', timeIt(() => writeShard(sqlitePath, doc, { tag: 'bench' })));
  if (lmdb) note('lmdb write ms', timeIt(() => writeLmdb(lmdb!, lmdbPath)));
  const id = probe[round % probe.length]!;
  const [sqliteLoad, sqliteOpen] = freshOpen('sqlite', sqlitePath, id);
  note('sqlite fresh: module load ms', sqliteLoad);
  note('sqlite fresh: open + neighbours ms', sqliteOpen);
  if (lmdb) {
    const [lmdbLoad, lmdbOpen] = freshOpen('lmdb', lmdbPath, id);
    note('lmdb fresh: module load ms', lmdbLoad);
    note('lmdb fresh: open + neighbours ms', lmdbOpen);
  }
  const shard = Shard.open(sqlitePath);
  note('sqlite warm neighbours us', (timeIt(() => { for (const p of probe) shard.neighbours(p); }) * 1000) / probe.length);
  shard.close();
  if (lmdb) {
    const env = lmdb.open({ path: lmdbPath, readOnly: true, compression: false });
    const o = env.openDB({ name: 'o' });
    const i = env.openDB({ name: 'i' });
    const l = env.openDB({ name: 'l' });
    note('lmdb warm neighbours us', (timeIt(() => {
      for (const p of probe) for (const k of [...((o.get(p) as [number, number][]) ?? []), ...((i.get(p) as [number, number][]) ?? [])]) JSON.parse((l.get(k) as unknown[])[4] as string);
    }) * 1000) / probe.length);
    void env.close();
  }
}
results['sqlite file MB'] = [sizeOf(sqlitePath) / 1e6];
if (lmdb) results['lmdb file MB'] = [sizeOf(lmdbPath) / 1e6];
console.log(`${graphPath}: ${doc.nodes.length} nodes, ${doc.links.length} links; ${rounds} rounds, min / median`);
for (const [key, values] of Object.entries(results)) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(`${key.padEnd(36)} ${sorted[0]!.toFixed(1).padStart(8)} / ${sorted[sorted.length >> 1]!.toFixed(1)}`);
}
rmSync(dir, { recursive: true, force: true });
