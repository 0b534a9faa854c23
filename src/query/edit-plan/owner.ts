import type { NodeId } from '../../graph/model.ts';
import type { GraphIndex } from '../graph-index.ts';

/** The type that owns node u (the source of a method/contains edge from a class, struct, interface, enum or trait), if any. */
export function ownerType(ix: GraphIndex, u: NodeId): NodeId | undefined {
  for (let i = ix.inOff[u]!; i < ix.inOff[u + 1]!; i++) {
    const e = ix.inEdges[i]!;
    const relation = ix.relName(e);
    if ((relation === 'method' || relation === 'contains') && ix.isType(ix.g.src[e]!)) return ix.g.src[e]!;
  }
  return undefined;
}
