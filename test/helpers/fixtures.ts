/**
 * Loads the graph-kernel golden fixtures (test/fixtures/graph-fixtures, a copy of the spec's set; see
 * its README for the fields and tolerances). Node-only (tests).
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of the fixtures directory, inside the checkout. */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/graph-fixtures/', import.meta.url));

export interface ModularityCase {
  partition: string;
  membership: number[];
  undirectedSimple: number | null;
  directedSimple: number | null;
}

export interface QualityTarget {
  modularity: number;
  communities: number;
}

export interface GraphFixture {
  name: string;
  description: string;
  directed: true;
  n: number;
  m: number;
  edges: [number, number][];
  weights?: number[];
  outDegree: number[];
  inDegree: number[];
  bfs: { source: number; dist: number[] }[];
  shortestPath: [number, number, number][];
  dijkstra?: { source: number; dist: number[] }[];
  reverseKHop: { seed: number; k: number; nodes: number[] }[];
  pagerank: { alpha: number; x: number[]; x20: number[]; maxAbsDiffNetworkx?: number; maxAbsDiffIgraph?: number };
  personalizedPagerank: { seeds: number[]; alpha: number; x: number[] }[];
  weakComponents: { count: number; label: number[] };
  strongComponents: { count: number; label: number[] };
  modularity: ModularityCase[];
  communityQualityTargets?: Record<string, QualityTarget>;
}

/** Tolerances from the fixtures README. */
export const TOL = { pagerank: 1e-9, pagerank20: 1e-12, modularity: 1e-12 } as const;

export function fixturesAvailable(): boolean {
  return existsSync(FIXTURES_DIR + 'index.json');
}

/** Every fixture, in index.json order. Throws with the path when the directory is missing. */
export function loadFixtures(): GraphFixture[] {
  if (!fixturesAvailable()) {
    throw new Error(`Cannot load graph fixtures: ${FIXTURES_DIR}index.json not found; the checkout is incomplete`);
  }
  const index = JSON.parse(readFileSync(FIXTURES_DIR + 'index.json', 'utf8')) as { files: string[] };
  return index.files.map((f) => JSON.parse(readFileSync(FIXTURES_DIR + f, 'utf8')) as GraphFixture);
}

/** Edge arrays of a fixture, ready for core.graph(...). */
export function fixtureEdges(f: GraphFixture): { n: number; src: Uint32Array; dst: Uint32Array; weight?: Float64Array } {
  const src = Uint32Array.from(f.edges, (e) => e[0]);
  const dst = Uint32Array.from(f.edges, (e) => e[1]);
  return f.weights ? { n: f.n, src, dst, weight: Float64Array.from(f.weights) } : { n: f.n, src, dst };
}

/** Largest absolute elementwise difference (Infinity when lengths differ). */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}
