import fc from 'fast-check';
import type { Core, CoreGraph } from '../../src/core/index.ts';
import type { EdgeList } from '../reference/graph.ts';

/**
 * Random directed multigraphs for property tests: n <= 50, relations 0..3, with self-loops,
 * parallel edges (repeats of existing edges) and isolated nodes, small enough to shrink readably.
 */
export const arbEdgeList: fc.Arbitrary<EdgeList> = fc.integer({ min: 1, max: 50 }).chain((n) =>
  fc
    .record({
      edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.nat(3)), { maxLength: 3 * n }),
      loops: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(3)), { maxLength: 3 }),
      dups: fc.array(fc.nat(), { maxLength: 5 }),
    })
    .map(({ edges, loops, dups }) => {
      const all: [number, number, number][] = [...edges, ...loops.map(([v, r]) => [v, v, r] as [number, number, number])];
      if (all.length > 0) for (const d of dups) all.push(all[d % all.length]!);
      return { n, edges: all };
    }),
);

/** Build `e` on the core, run `body`, and always free the graph. */
export function withCoreGraph(core: Core, e: EdgeList, body: (g: CoreGraph) => void): void {
  const g = core.graph({ n: e.n, src: e.edges.map((x) => x[0]), dst: e.edges.map((x) => x[1]), rel: e.edges.map((x) => x[2]) });
  try {
    body(g);
  } finally {
    g.free();
  }
}
