import type { NodeId } from '../../graph/model.ts';
import type { QueryEngine } from '../engine.ts';
import { IMPACT_MASK } from '../relations.ts';
import { ownerType } from './owner.ts';

export const EDIT_KINDS = ['delete', 'signature', 'visibility'] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

/** One dependent of the edited symbol, with why it breaks or needs a look. */
export interface EditImpact {
  node: NodeId;
  depth: number;
  relation: string;
  reason: string;
}

export interface EditForecast {
  seed: NodeId;
  kind: EditKind;
  depth: number;
  /** Members folded in when the symbol is a type (0 otherwise). */
  foldedMembers: number;
  willBreak: EditImpact[];
  review: EditImpact[];
}

/** Relations that only name the symbol (an import or re-export), as opposed to using it. */
const BARE_IMPORT = new Set(['imports', 'imports_from', 're_exports']);

/** Verb for a direct dependent's relation: "calls X", "imports X". */
const VERB: Record<string, string> = {
  calls: 'calls', references: 'references', imports: 'imports the file of', imports_from: 'imports', re_exports: 're-exports',
  inherits: 'inherits from', extends: 'extends', implements: 'implements', uses: 'uses', instantiates: 'instantiates',
  mixes_in: 'mixes in', embeds: 'embeds', depends_on: 'depends on', reads_from: 'reads from', invokes: 'invokes',
  binds_native: 'binds', calls_service: 'calls the service', handled_by: 'is handled by', dynamic_ref: 'looks up by name',
};

interface Direct {
  relations: string[];
  /** The seed it reaches first (the symbol, or one of a type's members). */
  seed: NodeId;
  /** Some edge's site lies in another file than the seed's. */
  crossFile: boolean;
}

/**
 * What breaks if symbol v is deleted, has its signature changed, or is narrowed to private: the
 * reverse-impact set (the relations `affected` walks, a type's members folded in) split into "will
 * break" and "to review", each dependent with its hop count, relation and reason. Pure graph query.
 *
 * - delete: every dependent breaks (a direct one loses its target, a further one the dependent it needs).
 * - signature: direct callers and type users break; a dependent that only imports or re-exports it, and
 *   every further dependent, is to review.
 * - visibility: direct dependents whose reference sits in another file break; in the same file, outside
 *   the owning type, review; further dependents of a breaking one, review.
 */
export function predictEdit(engine: QueryEngine, v: NodeId, kind: EditKind, depth: number): EditForecast {
  const ix = engine.ix;
  const { hits, foldedMembers } = engine.affected(v, depth);
  const seeds = new Set<NodeId>([v, ...(foldedMembers ? ix.members(v) : [])]);
  const direct = directDependents(engine, seeds);
  const depthOf = new Map<NodeId, number>();
  for (const s of seeds) depthOf.set(s, 0);
  for (const h of hits) depthOf.set(h.node, h.depth);
  const owner = ownerType(ix, v);
  const broken = new Set<NodeId>();
  const listed = new Set<NodeId>();
  const willBreak: EditImpact[] = [];
  const review: EditImpact[] = [];
  for (const h of hits) {
    const name = (u: NodeId) => ix.label(u);
    if (h.depth === 1) {
      const d = direct.get(h.node);
      if (!d) continue;
      const uses = d.relations.filter((r) => !BARE_IMPORT.has(r));
      const relation = uses[0] ?? d.relations[0] ?? h.via;
      const what = `${VERB[relation] ?? relation} ${name(d.seed)}`;
      if (kind === 'delete') push(willBreak, h, relation, `${what}, which is deleted`);
      else if (kind === 'signature') {
        if (uses.length) push(willBreak, h, relation, `${what}: its uses must follow the new signature`);
        else push(review, h, relation, `${what} but does not use it here: check its uses through the import`);
      } else if (d.crossFile) push(willBreak, h, relation, `${what} from another file: a private ${name(d.seed)} is out of its reach`);
      else if (owner !== undefined && ownerType(ix, h.node) !== owner && h.node !== owner) push(review, h, relation, `${what} from the same file, outside ${name(owner)}: breaks where private means class-private`);
      else continue;
    } else {
      const parent = parentOf(engine, h.node, h.depth, depthOf);
      if (parent === undefined || (kind !== 'delete' && !listed.has(parent))) continue;
      const breaks = kind === 'delete' || (kind === 'visibility' && broken.has(parent));
      const text = breaks && kind === 'delete' ? `depends on ${name(parent)}, which breaks` : `depends on ${name(parent)}, which ${broken.has(parent) ? 'breaks' : 'may change'}`;
      push(breaks && kind === 'delete' ? willBreak : review, h, h.via, text);
    }
  }
  function push(list: EditImpact[], h: { node: NodeId; depth: number }, relation: string, reason: string): void {
    list.push({ node: h.node, depth: h.depth, relation, reason });
    listed.add(h.node);
    if (list === willBreak) broken.add(h.node);
  }
  return { seed: v, kind, depth, foldedMembers, willBreak, review };
}

/** Direct (one-hop) dependents of the seeds along impact relations, with every relation they use. */
function directDependents(engine: QueryEngine, seeds: Set<NodeId>): Map<NodeId, Direct> {
  const ix = engine.ix;
  const out = new Map<NodeId, Direct>();
  for (const s of seeds) {
    const file = ix.node(s).source_file;
    for (let i = ix.inOff[s]!; i < ix.inOff[s + 1]!; i++) {
      const e = ix.inEdges[i]!;
      if (((IMPACT_MASK >>> ix.g.rel[e]!) & 1) !== 1) continue;
      const u = ix.g.src[e]!;
      if (seeds.has(u)) continue;
      let d = out.get(u);
      if (!d) out.set(u, (d = { relations: [], seed: s, crossFile: false }));
      const relation = ix.relName(e);
      if (!d.relations.includes(relation)) d.relations.push(relation);
      if (ix.edgeSiteFile(e) !== file) d.crossFile = true;
    }
  }
  return out;
}

/** A dependent one hop closer to the seed that u reaches along an impact edge (the first in edge order). */
function parentOf(engine: QueryEngine, u: NodeId, depth: number, depthOf: Map<NodeId, number>): NodeId | undefined {
  const ix = engine.ix;
  for (let i = ix.outOff[u]!; i < ix.outOff[u + 1]!; i++) {
    const e = ix.outEdges[i]!;
    if (((IMPACT_MASK >>> ix.g.rel[e]!) & 1) === 1 && depthOf.get(ix.g.dst[e]!) === depth - 1) return ix.g.dst[e]!;
  }
  return undefined;
}

/** `1h: 274, 2h: 155` */
export function depthRollup(list: readonly EditImpact[]): string {
  const counts = new Map<number, number>();
  for (const h of list) counts.set(h.depth, (counts.get(h.depth) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0] - b[0]).map(([d, c]) => `${d}h: ${c}`).join(', ');
}
