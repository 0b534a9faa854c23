import type { EdgeCsr } from './indexed-graph.ts';
import { relationId, type NodeId } from './model.ts';

/**
 * Types and their members: a class's callers, dependents and tests attach to its methods, so
 * callers / affected / describe_node (query/) and the test reach (graph/test-reach.ts) fold a type's
 * members in. Browser-safe.
 */

/** Kinds whose members fold into the type. */
export const TYPE_KINDS: ReadonlySet<string> = new Set(['class', 'struct', 'interface', 'enum', 'trait']);

/** The edge columns a member lookup reads. */
export interface MemberGraph {
  dst: Uint32Array;
  rel: Uint8Array;
}

/** Members of a node (targets of its method / contains / defines edges), de-duplicated, in edge order. */
export function membersOf(g: MemberGraph, csr: EdgeCsr, v: NodeId): NodeId[] {
  const out: NodeId[] = [];
  const method = relationId('method');
  const contains = relationId('contains');
  const defines = relationId('defines');
  for (let i = csr.outOff[v]!; i < csr.outOff[v + 1]!; i++) {
    const e = csr.outEdges[i]!;
    const r = g.rel[e]!;
    if (r === method || r === contains || r === defines) out.push(g.dst[e]!);
  }
  return [...new Set(out)];
}
