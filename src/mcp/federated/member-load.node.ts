import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { checkGraphDocument, snapshotPathFor } from '../../graph/load.node.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../graph/model.ts';
import { decodeSnapshot, NONE, type GraphSnapshot } from '../../graph/snapshot.ts';
import { QueryEngine } from '../../query/engine.ts';
import type { GraphIndex } from '../../query/graph-index.ts';
import { indexSnapshot } from '../../query/snapshot-index.ts';
import type { TraversalBackend } from '../../query/traversal.ts';

/**
 * Community numbers are per member (Louvain/Leiden numbers each member from 0), so a member's are
 * shifted by its position in the manifest times this: the federation's communities are then
 * distinct, and their count is the sum of the members' (what graph_stats reports).
 */
export const COMMUNITY_STRIDE = 1_000_000;

/** How one member became a QueryEngine (for the load log and docs/workspaces.md). */
export interface MemberLoad {
  engine: QueryEngine;
  from: 'graph.cbor' | 'graph.json';
  readMs: number;
  indexMs: number;
}

/** The federated form of a member's id or path: `<tag>/<id>`. */
export function federatedId(tag: string, id: string): string {
  return `${tag}/${id}`;
}

/**
 * Prefix the graph-level records that name nodes, files or communities (hazards' scope and file;
 * unresolved calls, failed and skipped files by path; community labels by number), in place.
 */
export function federateGraphMeta(meta: Record<string, unknown>, tag: string, communityBase: number): Record<string, unknown> {
  const byPath = (key: string) => {
    const v = meta[key];
    if (v && typeof v === 'object' && !Array.isArray(v)) meta[key] = Object.fromEntries(Object.entries(v).map(([k, x]) => [federatedId(tag, k), x]));
  };
  byPath('unresolved_calls');
  byPath('failed_files');
  byPath('skipped_files');
  const labels = meta.community_labels;
  if (labels && typeof labels === 'object' && !Array.isArray(labels)) {
    meta.community_labels = Object.fromEntries(Object.entries(labels).map(([k, x]) => [String(Number(k) + communityBase), x]));
  }
  if (Array.isArray(meta.hazards)) {
    meta.hazards = meta.hazards.map((h: Record<string, unknown>) => ({
      ...h,
      ...(typeof h.scope === 'string' ? { scope: federatedId(tag, h.scope) } : {}),
      ...(typeof h.source_file === 'string' && h.source_file ? { source_file: federatedId(tag, h.source_file) } : {}),
    }));
  }
  return meta;
}

/**
 * Prefix a member's graph.json document in place (ids, link ends, source files: `<tag>/…`; a `repo`
 * field; communities shifted): the member's part of the union, as the test's union builder does.
 */
export function federateDocument(doc: GraphDocument, tag: string, communityBase: number): GraphDocument {
  if (doc.graph) federateGraphMeta(doc.graph as unknown as Record<string, unknown>, tag, communityBase);
  for (const node of doc.nodes as GraphNode[]) {
    node.id = federatedId(tag, node.id);
    if (typeof node.source_file === 'string' && node.source_file) node.source_file = federatedId(tag, node.source_file);
    if (typeof node.community === 'number') node.community += communityBase;
    (node as unknown as Record<string, unknown>).repo = tag;
  }
  for (const link of doc.links as GraphLink[]) {
    const l = link as unknown as Record<string, unknown>;
    l.source = federatedId(tag, String(l.source));
    l.target = federatedId(tag, String(l.target));
    if (typeof l.source_file === 'string' && l.source_file) l.source_file = federatedId(tag, l.source_file);
  }
  return doc;
}

/**
 * The same prefixing on graph.cbor's columns: one new string per distinct id and file (appended to
 * the string table), the id / file columns remapped, a `repo` string column, communities shifted.
 * O(nodes + links) integer work, no per-node objects.
 */
export function federateSnapshot(snap: GraphSnapshot, tag: string, communityBase: number): GraphSnapshot {
  const S = snap.strings;
  const prefixed = new Map<number, number>();
  const px = (i: number): number => {
    if (i === NONE) return i;
    let j = prefixed.get(i);
    if (j === undefined) {
      j = S.length;
      S.push(federatedId(tag, S[i]!));
      prefixed.set(i, j);
    }
    return j;
  };
  const c = snap.node;
  c.id = c.id.map(px);
  c.sourceFile = c.sourceFile.map(px);
  snap.link.sourceFile = snap.link.sourceFile.map(px);
  if (snap.edges) {
    const site = snap.edges.siteFile.slice();
    for (let k = 1; k < site.length; k += 2) site[k] = px(site[k]!);
    snap.edges.siteFile = site;
  }
  if (communityBase) {
    const shifted = c.community.slice();
    for (let i = 0; i < shifted.length; i++) if (c.hasCommunity[i]) shifted[i]! += communityBase;
    c.community = shifted;
  }
  if (snap.meta) federateGraphMeta(snap.meta as unknown as Record<string, unknown>, tag, communityBase);
  const tagIndex = S.push(tag) - 1;
  snap.nodeColumns = snap.nodeColumns.filter((col) => col.key !== 'repo');
  snap.nodeColumns.push({ key: 'repo', kind: 's', values: new Uint32Array(snap.nodeCount).fill(tagIndex) });
  for (const extras of snap.nodeExtras.values()) delete extras.repo;
  return snap;
}

/**
 * Load one member's graph as a federated QueryEngine: graph.cbor when it is at least as new as
 * graph.json (columns prefixed, no per-link objects), else graph.json. Reads asynchronously, so
 * concurrent calls that wait for the same member are answered by this one load.
 */
export async function loadMember(
  graphPath: string,
  tag: string,
  communityBase: number,
  traversal: ((ix: GraphIndex) => TraversalBackend) | undefined,
): Promise<MemberLoad> {
  const t0 = performance.now();
  const cborPath = snapshotPathFor(graphPath);
  const jsonStat = await stat(graphPath).catch(() => undefined);
  let refused = '';
  if (existsSync(cborPath)) {
    const cborStat = await stat(cborPath);
    if (!jsonStat || cborStat.mtimeMs >= jsonStat.mtimeMs) {
      try {
        const bytes = await readFile(cborPath);
        const t1 = performance.now();
        const snap = federateSnapshot(decodeSnapshot(bytes), tag, communityBase);
        const { doc, edges } = indexSnapshot(snap);
        const engine = new QueryEngine(doc, traversal, { edges });
        return { engine, from: 'graph.cbor', readMs: t1 - t0, indexMs: performance.now() - t1 };
      } catch (err) {
        // A damaged snapshot falls back to graph.json (as loadGraph does); both failing names both.
        refused = `; ${cborPath}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  }
  if (!jsonStat) throw new Error(`no graph.json at ${graphPath}${refused || ' (nor graph.cbor)'}`);
  const text = await readFile(graphPath, 'utf8');
  const t1 = performance.now();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${graphPath} is not JSON (${err instanceof Error ? err.message : String(err)})${refused}; run 'synaptic workspace update'`);
  }
  const doc = federateDocument(checkGraphDocument(parsed, graphPath), tag, communityBase);
  const engine = new QueryEngine(doc, traversal, { releaseLinks: true });
  return { engine, from: 'graph.json', readMs: t1 - t0, indexMs: performance.now() - t1 };
}
