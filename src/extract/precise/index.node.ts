/**
 * Precise mode (`extract --precise`): after the tree-sitter link, the TypeScript checker resolves
 * every call, `new` and tagged template of the graph's TypeScript/JavaScript files, and its answers
 * replace the default mode's guesses there (merge.ts). Other languages keep their default edges.
 * With an output folder, results are cached per file (cache.node.ts): an update checks only the
 * files a change can reach, in a program rooted at them.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type * as TS from 'typescript';
import type { GraphDocument } from '../../graph/model.ts';
import type { OutputFolder } from '../out/folder.node.ts';
import { filesAskingChangedNames, filesToCheck, readPreciseCache, writePreciseCache, type PreciseCache } from './cache.node.ts';
import { declaredNames } from './declared-names.node.ts';
import { mergePreciseSites, type MergeCounts } from './merge.ts';
import { createPreciseProgram, loadTypeScript, preciseOptions, type TypeScript } from './program.node.ts';
import { preciseSites, type FileSites, type PreciseSite } from './sites.node.ts';

const CODE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

export interface PreciseSummary extends MergeCounts {
  /** TypeScript/JavaScript files in the graph. */
  files: number;
  /** Files the checker read in this run (the others' results came from the cache). */
  checked: number;
  /** Call sites resolved to a definition in the graph. */
  sites: number;
  ms: number;
}

/** Where results are cached: the output folder, each file's content hash, the extractor version. */
export interface PreciseStore {
  folder: OutputFolder;
  hashes: Readonly<Record<string, { hash: string }>>;
  version: string;
}

export async function applyPrecise(root: string, doc: GraphDocument, store?: PreciseStore): Promise<PreciseSummary> {
  const t0 = performance.now();
  const ts = await loadTypeScript();
  const files = doc.nodes.filter((n) => n.kind === 'file' && CODE.test(n.source_file) && !n.source_file.endsWith('.d.ts')).map((n) => n.source_file).sort();
  const options = preciseOptions(ts, root, files);
  const key = 'sha256:' + createHash('sha256').update(JSON.stringify([ts.version, store?.version ?? '', options.paths])).digest('hex');
  const hashes = new Map(files.map((f) => [f, store?.hashes[f]?.hash ?? '']));
  const cache = store ? readPreciseCache(store.folder, key) : null;
  const check = filesToCheck(cache, hashes);

  // What every file declares: from the cache where unchanged, else from its text (an update) or
  // the program (a full check), so both ask the checker about the same property calls.
  const names = new Map<string, string[]>();
  let program: TS.Program | undefined;
  if (cache) {
    for (const f of files) {
      const e = cache[f];
      names.set(f, e && e.hash === hashes.get(f) ? e.names : declaredNames(ts, parseAlone(ts, root, f, options)));
    }
    for (const f of filesAskingChangedNames(cache, union(names.values()))) if (hashes.has(f)) check.add(f);
  }
  if (check.size > 0) {
    // Files that declare globals are in every program, so a partial one resolves as the whole one does.
    const ambient = cache ? Object.keys(cache).filter((f) => cache[f]!.ambient && hashes.has(f)) : [];
    program = createPreciseProgram(ts, root, [...new Set([...check, ...ambient])].sort(), options);
    if (!cache) for (const f of files) { const sf = program.getSourceFile(join(root, f)); names.set(f, sf ? declaredNames(ts, sf) : []); }
  }
  const fresh = program ? preciseSites(ts, program, root, doc.nodes, [...check].sort(), union(names.values())) : new Map<string, FileSites>();

  const next: PreciseCache = {};
  const sites: PreciseSite[] = [];
  const resolved = new Set<string>();
  for (const f of files) {
    const entry = check.has(f) ? fresh.get(f) : cache?.[f];
    if (!entry) continue;
    next[f] = { hash: hashes.get(f)!, names: names.get(f) ?? [], sites: entry.sites, resolved: entry.resolved, deps: entry.deps, unresolved: entry.unresolved, ambient: entry.ambient, asks: entry.asks };
    for (const s of entry.sites) sites.push(s);
    for (const r of entry.resolved) resolved.add(r);
  }
  const counts = mergePreciseSites(doc, { sites, resolved });
  doc.graph.precise = true;
  if (store) writePreciseCache(store.folder, key, next);
  return { ...counts, files: files.length, checked: check.size, sites: sites.length, ms: Math.round(performance.now() - t0) };
}

const union = (lists: Iterable<readonly string[]>): Set<string> => {
  const out = new Set<string>();
  for (const list of lists) for (const x of list) out.add(x);
  return out;
};

/** A file's syntax tree without a program (what it declares does not depend on its imports). */
function parseAlone(ts: TypeScript, root: string, file: string, options: TS.CompilerOptions): TS.SourceFile {
  const text = ts.sys.readFile(join(root, file)) ?? ''; // as the program's host reads it (BOM dropped); gone: declares nothing
  return ts.createSourceFile(join(root, file), text, options.target ?? ts.ScriptTarget.ES2022);
}
