import type { NodeId } from '../../graph/model.ts';
import type { QueryEngine } from '../engine.ts';
import type { Expr, Value } from './ast.ts';
import { NodeProps } from './props.ts';

/**
 * The lookups a SYNQL anchor uses beside the engine's own (label, file, community, id): nodes by
 * kind and by bare name, built on a graph's first structural query and kept with its engine.
 */
export class SynqlIndex {
  readonly props: NodeProps;
  private kindMap?: Map<string, NodeId[]>;
  private nameMap?: Map<string, NodeId[]>;

  constructor(readonly engine: QueryEngine) {
    this.props = new NodeProps(engine);
  }

  private rankArray?: Uint32Array;

  /** Each node's place in the canonical order (file, line, id): result rows sort by it. */
  get rank(): Uint32Array {
    if (!this.rankArray) {
      const n = this.engine.ix.n;
      const file: string[] = new Array<string>(n);
      const line = new Float64Array(n);
      const id: string[] = new Array<string>(n);
      const ids = new Uint32Array(n);
      for (let v = 0; v < n; v++) {
        file[v] = String(this.props.get(v, 'file') ?? '');
        line[v] = (this.props.get(v, 'line') as number | null) ?? 0;
        id[v] = String(this.props.get(v, 'id'));
        ids[v] = v;
      }
      ids.sort((a, b) => (file[a]! < file[b]! ? -1 : file[a]! > file[b]! ? 1 : line[a]! - line[b]! || (id[a]! < id[b]! ? -1 : id[a]! > id[b]! ? 1 : 0)));
      const rank = new Uint32Array(n);
      for (let i = 0; i < n; i++) rank[ids[i]!] = i;
      this.rankArray = rank;
    }
    return this.rankArray;
  }

  byKind(kind: string): NodeId[] {
    if (!this.kindMap) {
      const map = new Map<string, NodeId[]>();
      const ix = this.engine.ix;
      for (let v = 0; v < ix.n; v++) push(map, String(ix.node(v).kind), v);
      this.kindMap = map;
    }
    return this.kindMap.get(kind) ?? [];
  }

  private readonly unions = new Map<string, NodeId[]>();

  /** Nodes of any of the kinds, in id order (unions memoized: `function|method` is common). */
  byKinds(kinds: ReadonlySet<string>): NodeId[] {
    if (kinds.size === 1) return this.byKind([...kinds][0]!);
    const key = [...kinds].sort().join('|');
    let list = this.unions.get(key);
    if (!list) this.unions.set(key, (list = sorted(([] as NodeId[]).concat(...[...kinds].map((k) => this.byKind(k))))));
    return list;
  }

  byName(name: string): NodeId[] {
    if (!this.nameMap) {
      const map = new Map<string, NodeId[]>();
      for (let v = 0; v < this.engine.ix.n; v++) push(map, String(this.props.get(v, 'name')), v);
      this.nameMap = map;
    }
    return this.nameMap.get(name) ?? [];
  }
}

const CACHE = new WeakMap<QueryEngine, SynqlIndex>();

export function synqlIndex(engine: QueryEngine): SynqlIndex {
  let sx = CACHE.get(engine);
  if (!sx) CACHE.set(engine, (sx = new SynqlIndex(engine)));
  return sx;
}

/**
 * The smallest candidate list an index gives for one pattern node, from its kinds and its
 * single-variable WHERE conjuncts; null when only a scan of every node would do. Candidates are a
 * superset: the matcher still checks every conjunct.
 */
export function anchorCandidates(sx: SynqlIndex, kinds: ReadonlySet<string> | null, conjuncts: readonly Expr[]): ArrayLike<NodeId> | null {
  let best: ArrayLike<NodeId> | null = null;
  const offer = (list: ArrayLike<NodeId> | null) => {
    if (list && (!best || list.length < best.length)) best = list;
  };
  if (kinds) offer(sx.byKinds(kinds));
  for (const c of conjuncts) offer(lookup(sx, c));
  return best;
}

function lookup(sx: SynqlIndex, e: Expr): NodeId[] | null {
  if (e.t !== 'cmp' || e.l.t !== 'prop') return null;
  const prop = e.l.prop;
  const r = e.r.t === 'lit' ? e.r.value : e.r.t === 'list' && e.r.items.every((x) => x.t === 'lit') ? e.r.items.map((x) => (x as { value: Value }).value) : undefined;
  if (r === undefined) return null;
  const values = e.op === '=' ? [r] : e.op === 'IN' && Array.isArray(r) ? r : null;
  if (values) {
    const lists = values.map((x) => one(sx, prop, x));
    if (lists.some((l) => l === null)) return null;
    return sorted(([] as NodeId[]).concat(...(lists as NodeId[][])));
  }
  // A file predicate picks whole files: the file index has a few thousand keys, not every node.
  if (prop === 'file' && typeof r === 'string' && (e.op === 'STARTS WITH' || e.op === 'ENDS WITH' || e.op === 'CONTAINS')) {
    const out: NodeId[] = [];
    for (const [file, ids] of sx.engine.ix.byFile) {
      if (e.op === 'STARTS WITH' ? file.startsWith(r) : e.op === 'ENDS WITH' ? file.endsWith(r) : file.includes(r)) out.push(...ids);
    }
    return sorted(out);
  }
  return null;
}

function one(sx: SynqlIndex, prop: string, x: Value): NodeId[] | null {
  const ix = sx.engine.ix;
  if (typeof x === 'string') {
    switch (prop) {
      case 'name':
        return sx.byName(x);
      case 'label':
        return (ix.byLabel.get(x.toLowerCase()) ?? []).filter((v) => ix.label(v) === x);
      case 'file':
        return ix.byFile.get(x) ?? [];
      case 'id': {
        const v = ix.g.idOf.get(x);
        return v === undefined ? [] : [v];
      }
      case 'kind':
        return sx.byKind(x);
    }
    return null;
  }
  if (typeof x === 'number' && prop === 'community') return ix.communities.get(x) ?? [];
  return null;
}

function sorted(list: NodeId[]): NodeId[] {
  return list.length > 1 ? [...new Set(list)].sort((a, b) => a - b) : list;
}

function push(map: Map<string, NodeId[]>, key: string, v: NodeId): void {
  const list = map.get(key);
  if (list) list.push(v);
  else map.set(key, [v]);
}
