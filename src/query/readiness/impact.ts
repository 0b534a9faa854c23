/**
 * Entry points and the impact of a flagged symbol: the graph core's reverse reach from the symbol
 * (everything that depends on it, so every entry point that can reach it). Browser-safe.
 */
import { relationId, relationMask, type NodeId } from '../../graph/model.ts';
import { isTestPath } from '../../graph/test-paths.ts';
import type { GraphIndex } from '../graph-index.ts';
import { IMPACT_RELATIONS } from '../relations.ts';
import type { TraversalBackend } from '../traversal.ts';
import type { Impact } from './types.ts';

/** File stems that conventionally open a module or program. */
const ENTRY_STEMS: ReadonlySet<string> = new Set(['index', 'main', '__init__', '__main__', 'mod', 'lib', 'app', 'server', 'cli']);

/** What reaches a symbol: the `affected` set, plus `new`, a class's methods and overrides. */
export const REACH_MASK = relationMask([...IMPACT_RELATIONS, 'instantiates', 'method', 'overrides']);
const REACH_DEPTH = 16;
const HANDLED_BY = relationId('handled_by');

function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.indexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Per node: is it test code (`is_test`, or in a test file by path). */
export function testMask(ix: GraphIndex): Uint8Array {
  const test = new Uint8Array(ix.n);
  for (const [file, ids] of ix.byFile) {
    const byPath = isTestPath(file);
    for (const v of ids) test[v] = byPath || ix.node(v).is_test === true ? 1 : 0;
  }
  return test;
}

/**
 * Entry points: non-test nodes that are an exported API (`exported`), a function named main, an
 * entry file (index / main / __init__ / mod / lib / app / server / cli), or a route handler.
 */
export function entryMask(ix: GraphIndex, test: Uint8Array): Uint8Array {
  const entry = new Uint8Array(ix.n);
  for (let v = 0; v < ix.n; v++) {
    if (test[v]) continue;
    const n = ix.node(v);
    if (n.exported === true || ((n.kind === 'function' || n.kind === 'method') && n.name === 'main')) entry[v] = 1;
    else if (n.kind === 'file' && n.file_type === 'code' && ENTRY_STEMS.has(stemOf(n.source_file))) entry[v] = 1;
  }
  for (let e = 0; e < ix.m; e++) if (ix.g.rel[e] === HANDLED_BY && !test[ix.g.dst[e]!]) entry[ix.g.dst[e]!] = 1;
  return entry;
}

/** Impact of one node, memoized per node for one audit. */
export class ImpactWalker {
  private readonly memo = new Map<NodeId, Impact>();

  constructor(
    private readonly ix: GraphIndex,
    private readonly traversal: TraversalBackend,
    readonly test: Uint8Array,
    readonly entry: Uint8Array,
  ) {}

  of(v: NodeId): Impact {
    let hit = this.memo.get(v);
    if (hit) return hit;
    const reach = this.traversal.reverseReach([v], REACH_DEPTH, REACH_MASK);
    let dependents = 0;
    let entries = 0;
    let via: NodeId | undefined;
    let viaDepth = Infinity;
    for (let i = 0; i < reach.nodes.length; i++) {
      const u = reach.nodes[i]!;
      if (u === v || this.test[u]) continue;
      dependents++;
      if (this.entry[u]) {
        entries++;
        if (reach.depth[i]! < viaDepth) {
          viaDepth = reach.depth[i]!;
          via = u;
        }
      }
    }
    hit = { dependents, entry_points: entries, is_entry: this.entry[v] === 1, ...(via !== undefined ? { via: this.ix.node(via).id } : {}) };
    this.memo.set(v, hit);
    return hit;
  }
}
