import { readFileSync } from 'node:fs';
import { Encoder, decode } from 'cbor-x';
import type { LinkDeps } from './link/index.ts';
import type { OutputFolder } from './out/folder.node.ts';

/**
 * The link cache (synaptic-out/.link.cbor): what linking each file read in the run that wrote it
 * (see LinkDeps and link/incremental.ts), under an id that synaptic-out/.graph-state.json names, so
 * an update trusts it only together with the graph it describes.
 */
export const LINK_CACHE_FILE = '.link.cbor';
const LINK_CACHE_VERSION = 2;

interface Wire {
  version: number;
  id: string;
  extractor_version: string;
  paths: string[];
  offsets: Uint32Array;
  reads: Uint32Array;
  keys: string[][];
  guesses: [string, string | null][];
  /** Guess contributions: per file, offsets into the flat name / type-file / type-symbol columns; reads and keys as for links. */
  g_offsets: Uint32Array;
  g_names: string[];
  g_files: Uint32Array;
  g_symbols: Uint32Array;
  g_read_offsets: Uint32Array;
  g_reads: Uint32Array;
  g_keys: string[][];
}

function flatten(lists: number[][]): { offsets: Uint32Array; values: Uint32Array } {
  const offsets = new Uint32Array(lists.length + 1);
  let total = 0;
  for (let i = 0; i < lists.length; i++) {
    total += lists[i]!.length;
    offsets[i + 1] = total;
  }
  const values = new Uint32Array(total);
  for (let i = 0; i < lists.length; i++) values.set(lists[i]!, offsets[i]!);
  return { offsets, values };
}

function unflatten(offsets: Uint32Array, values: Uint32Array): number[][] {
  const out: number[][] = [];
  for (let i = 0; i + 1 < offsets.length; i++) out.push(Array.from(values.subarray(offsets[i]!, offsets[i + 1]!)));
  return out;
}

/** The decoded file: what a keeper keeps. */
interface LinkCache {
  id: string;
  extractorVersion: string;
  deps: LinkDeps;
}

export function writeLinkCache(folder: OutputFolder, id: string, version: string, deps: LinkDeps): void {
  const { offsets, values: reads } = flatten(deps.reads);
  const g = deps.guessData;
  const gOffsets = new Uint32Array(g.contrib.length + 1);
  const gNames: string[] = [];
  const gFiles: number[] = [];
  const gSymbols: number[] = [];
  for (let i = 0; i < g.contrib.length; i++) {
    for (const [name, f, s] of g.contrib[i]!) {
      gNames.push(name);
      gFiles.push(f);
      gSymbols.push(s);
    }
    gOffsets[i + 1] = gNames.length;
  }
  const gReads = flatten(g.reads);
  const wire: Wire = {
    version: LINK_CACHE_VERSION, id, extractor_version: version, paths: deps.paths, offsets, reads, keys: deps.keys,
    guesses: [...deps.guesses],
    g_offsets: gOffsets, g_names: gNames, g_files: Uint32Array.from(gFiles), g_symbols: Uint32Array.from(gSymbols),
    g_read_offsets: gReads.offsets, g_reads: gReads.values, g_keys: g.keys,
  };
  folder.write(folder.path(LINK_CACHE_FILE), new Encoder({ useRecords: false }).encode(wire), { id, extractorVersion: version, deps } satisfies LinkCache);
}

/**
 * Whether two link dependency records are the same (what the link cache would store for each): an
 * update whose relinked files read what they read before leaves the link cache file as it is.
 * Lists the relink kept share their arrays with `before`: most comparisons are one identity check.
 */
export function sameLinkDeps(a: LinkDeps, b: LinkDeps): boolean {
  if (a === b) return true;
  const n = a.paths.length;
  if (b.paths.length !== n || a.reads.length !== n || b.reads.length !== n || a.keys.length !== n || b.keys.length !== n) return false;
  if (a.paths !== b.paths) for (let i = 0; i < n; i++) if (a.paths[i] !== b.paths[i]) return false;
  if (!sameLists(a.reads, b.reads) || !sameLists(a.keys, b.keys)) return false;
  if (a.guesses.size !== b.guesses.size) return false;
  for (const [name, v] of a.guesses) if (b.guesses.get(name) !== v || (v === undefined && !b.guesses.has(name))) return false;
  const ga = a.guessData;
  const gb = b.guessData;
  if (!sameLists(ga.reads, gb.reads) || !sameLists(ga.keys, gb.keys) || ga.contrib.length !== gb.contrib.length) return false;
  for (let i = 0; i < ga.contrib.length; i++) {
    const x = ga.contrib[i]!;
    const y = gb.contrib[i]!;
    if (x === y) continue;
    if (x.length !== y.length) return false;
    for (let k = 0; k < x.length; k++) if (x[k]![0] !== y[k]![0] || x[k]![1] !== y[k]![1] || x[k]![2] !== y[k]![2]) return false;
  }
  return true;
}

function sameLists<T>(a: T[][], b: T[][]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (x.length !== y.length) return false;
    for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  }
  return true;
}

/** The cached link dependencies when the file exists with this id and extractor version; null otherwise. */
export function loadLinkCache(folder: OutputFolder, id: string, version: string): LinkDeps | null {
  const file = folder.path(LINK_CACHE_FILE);
  const cache = folder.read(file, () => parseLinkCache(file));
  return cache && cache.id === id && cache.extractorVersion === version ? cache.deps : null;
}

function parseLinkCache(file: string): LinkCache | null {
  try {
    const w = decode(readFileSync(file)) as Partial<Wire>;
    if (!w || w.version !== LINK_CACHE_VERSION || typeof w.id !== 'string' || typeof w.extractor_version !== 'string') return null;
    if (!Array.isArray(w.paths) || !(w.offsets instanceof Uint32Array) || !(w.reads instanceof Uint32Array) || !Array.isArray(w.keys) || !Array.isArray(w.guesses)) return null;
    if (!(w.g_offsets instanceof Uint32Array) || !Array.isArray(w.g_names) || !(w.g_files instanceof Uint32Array) || !(w.g_symbols instanceof Uint32Array)) return null;
    if (!(w.g_read_offsets instanceof Uint32Array) || !(w.g_reads instanceof Uint32Array) || !Array.isArray(w.g_keys)) return null;
    const n = w.paths.length;
    if (w.offsets.length !== n + 1 || w.keys.length !== n || w.offsets[n] !== w.reads.length) return null;
    if (w.g_offsets.length !== n + 1 || w.g_offsets[n] !== w.g_names.length || w.g_files.length !== w.g_names.length || w.g_symbols.length !== w.g_names.length) return null;
    if (w.g_read_offsets.length !== n + 1 || w.g_read_offsets[n] !== w.g_reads.length || w.g_keys.length !== n) return null;
    const contrib: [string, number, number][][] = [];
    for (let i = 0; i < n; i++) {
      const list: [string, number, number][] = [];
      for (let k = w.g_offsets[i]!; k < w.g_offsets[i + 1]!; k++) list.push([w.g_names[k]!, w.g_files[k]!, w.g_symbols[k]!]);
      contrib.push(list);
    }
    const deps: LinkDeps = {
      paths: w.paths, reads: unflatten(w.offsets, w.reads), keys: w.keys, guesses: new Map(w.guesses),
      guessData: { contrib, reads: unflatten(w.g_read_offsets, w.g_reads), keys: w.g_keys },
    };
    return { id: w.id, extractorVersion: w.extractor_version, deps };
  } catch {
    return null; // no usable cache: a full link
  }
}
