import { RELATIONS, type NodeId } from '../../graph/model.ts';
import { isTestFile, isTestPath } from '../../graph/test-paths.ts';
import type { AffectedHit, QueryEngine } from '../engine.ts';
import { IMPACT_MASK } from '../relations.ts';

/**
 * Files changed -> the graph nodes they define -> the reverse-impact set that depends on them. The
 * one walk behind working_changes_impact, predict_impact, affected_tests and their CLI forms (and
 * what a PR or history diff reuses once it knows its changed files). Pure graph; browser-safe.
 */

/** One changed file as a front end hands it in (from git, or named by the caller). */
export interface ChangedFileInput {
  /** Repo-relative, `/`-separated, as graph nodes record source_file. */
  path: string;
  /** added / modified / deleted / untracked (git), or listed (named by the caller). */
  status?: string;
  /** For a file the graph does not hold: whether its name says code (the front end knows the languages). */
  code?: boolean;
}

export interface FileImpact {
  path: string;
  status: string;
  /** Nodes the graph records in this file (the file node first); empty when the file is not in the graph. */
  nodes: NodeId[];
  /** Whether the graph calls this file code (file_type code); for a file not in the graph, the caller's hint. */
  code: boolean | undefined;
}

export interface ChangeImpact {
  files: FileImpact[];
  /** Every node of the changed files, in file order. */
  changed: NodeId[];
  /** Dependents of the changed nodes (the changed nodes themselves excluded), by depth then label. */
  dependents: AffectedHit[];
  byDepth: Record<string, number>;
  depth: number;
}

/** The hop bound the spec gives predict_impact and affected_tests: default 3, at most 16. */
export function clampDepth(depth: number | undefined): number {
  return Math.max(1, Math.min(16, Math.trunc(depth ?? 3)));
}

/** The graph nodes of each changed file, without walking. */
export function changedFiles(engine: QueryEngine, files: readonly ChangedFileInput[]): FileImpact[] {
  const byFile = engine.ix.byFile;
  return files.map((f) => {
    const nodes = byFile.get(f.path) ?? [];
    return { path: f.path, status: f.status ?? 'listed', nodes, code: nodes.length ? engine.ix.node(nodes[0]!).file_type === 'code' : f.code };
  });
}

/** Changed files -> changed nodes -> their reverse-impact set within `depth` hops (IMPACT_RELATIONS). */
export function changeImpact(engine: QueryEngine, files: readonly ChangedFileInput[], depth?: number): ChangeImpact {
  const hops = clampDepth(depth);
  const impacts = changedFiles(engine, files);
  const changed: NodeId[] = [];
  for (const f of impacts) for (const v of f.nodes) changed.push(v);
  const dependents: AffectedHit[] = [];
  const byDepth: Record<string, number> = {};
  if (changed.length) {
    // The core's walk excludes its seeds, so every hit is outside the changed files.
    const reach = engine.traversal.reverseReach(changed, hops, IMPACT_MASK);
    for (let i = 0; i < reach.nodes.length; i++) {
      const d = reach.depth[i]!;
      byDepth[String(d)] = (byDepth[String(d)] ?? 0) + 1;
      dependents.push({ node: reach.nodes[i]!, depth: d, via: RELATIONS[reach.via[i]!] ?? 'other' });
    }
    const order = engine.ix.labelOrder;
    dependents.sort((a, b) => a.depth - b.depth || order[a.node]! - order[b.node]!);
  }
  return { files: impacts, changed, dependents, byDepth, depth: hops };
}

/** A test node reached by the change: depth 0 and via `changed` when the test file itself changed. */
export interface TestHit {
  node: NodeId;
  depth: number;
  via: string;
}

/**
 * The test nodes of a change: nodes in test files (the extractor's is_test mark, or the spec's path
 * conventions, graph/test-paths.ts) among the changed nodes and their dependents, nearest first.
 */
export function testsOfImpact(engine: QueryEngine, impact: ChangeImpact): TestHit[] {
  const ix = engine.ix;
  const memo = new Map<string, boolean>();
  const isTest = (v: NodeId): boolean => {
    const file = String(ix.node(v).source_file ?? '');
    let known = memo.get(file);
    if (known === undefined) memo.set(file, (known = isTestFile(ix.g, file, isTestPath)));
    return known;
  };
  const tests: TestHit[] = [];
  for (const v of impact.changed) if (isTest(v)) tests.push({ node: v, depth: 0, via: 'changed' });
  for (const h of impact.dependents) if (isTest(h.node)) tests.push({ node: h.node, depth: h.depth, via: h.via });
  return tests;
}
