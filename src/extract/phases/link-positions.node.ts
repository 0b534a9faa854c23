import { basename } from 'node:path';
import type { GraphDocument } from '../../graph/model.ts';
import type { ManifestEntry } from '../../graph/manifest.ts';
import type { FileFacts } from '../facts.ts';
import { loadFactsShards, shardEntry, writeFactsShards } from '../facts-cache.node.ts';
import { inLinkKeyOrder, lineMap, positionFreeShape, shiftFilePositions } from '../line-shift.ts';
import { decodedMemo, type DecodedGraph, type OutputFolder } from '../out/folder.node.ts';
import { hazardOrder, identityRows, notTaken, partialExtraction, type Linked } from './linked.ts';
import { sortedRecord, type Plan } from './plan.node.ts';
import type { Scan } from './scan.node.ts';

/** Most edited files the positions-only path takes on (beyond it a relink is as cheap). */
const SHIFT_MAX_FILES = 64;

const no = (check: string): null => notTaken('positions-only update', `check ${check}`);

/**
 * The positions-only update (see line-shift.ts): when every edited file's new facts equal its
 * cached facts but for positions, and nothing else that the outputs depend on changed (same file
 * set, statuses, context files, commit, skipped files, seed, engine: checked through the inputs
 * hash), the previous graph (graph.cbor) with those files' positions moved IS the linked graph of
 * the new tree. Reads only the edited files' facts shards and the previous graph. Null whenever a
 * condition fails: the caller then relinks.
 */
export function linkPositions(scan: Scan, plan: Plan, folder: OutputFolder, decoded: DecodedGraph): Linked | null {
  const previous = scan.previous!;
  const entries = scan.files.entries;
  if (entries.size > SHIFT_MAX_FILES || typeof previous.stats?.lines !== 'number') return no('1');
  const state = folder.graphState();
  if (!previous.inputs_hash || state?.inputs_hash !== previous.inputs_hash) return no('2');
  const asBefore: Record<string, ManifestEntry> = { ...plan.manifestFiles };
  for (const [path, e] of entries) {
    const prev = previous.files[path];
    if (!prev || prev.status !== 'ok' || !e.facts || e.error !== undefined || e.skip !== undefined) return no('3');
    asBefore[path] = { ...asBefore[path]!, hash: prev.hash, status: prev.status };
  }
  if (plan.hashWith(asBefore) !== previous.inputs_hash) return no('4');
  const shards = loadFactsShards(folder, plan.version, entries.keys());
  if (!shards) return no('5');
  const edits: { before: FileFacts; after: FileFacts; map: Map<number, number> }[] = [];
  let lines = previous.stats.lines;
  for (const [path, e] of entries) {
    const old = shardEntry(shards, path);
    if (!old || old.hash !== previous.files[path]!.hash || !old.facts || old.error !== undefined || old.skip !== undefined) return no('6');
    const before = old.facts;
    const after = e.facts!;
    // Go and Java files hang off package nodes by a line-1 link that does not move with the file.
    if ((before.packageName || after.packageName) && ['go', 'java'].includes(after.language)) return no('7');
    const shapeBefore = positionFreeShape(before);
    const shapeAfter = positionFreeShape(after);
    if (shapeBefore !== shapeAfter) {
      if (process.env.SYNAPTIC_DEBUG) {
        let i = 0;
        while (shapeBefore[i] === shapeAfter[i]) i++;
        console.error(`synaptic: ${path} facts differ beyond positions at: ${shapeBefore.slice(Math.max(0, i - 120), i + 80)}\n  now: ${shapeAfter.slice(Math.max(0, i - 120), i + 80)}`);
      }
      return no('8');
    }
    const map = lineMap(before, after);
    if (!map) return no('9');
    edits.push({ before, after, map });
    lines += e.lines - old.lines;
  }
  let doc: GraphDocument;
  try {
    doc = folder.previousGraph(decoded);
  } catch {
    return no('10');
  }
  const nodes = inLinkKeyOrder(doc.nodes);
  // (re-keyed copies of the same records: graph.cbor still copies their rows)
  (decodedMemo(decoded) ?? folder.kept?.encodeMemo)?.replaceNodes(doc.nodes, nodes);
  doc.nodes = nodes;
  const nodeIndex = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) nodeIndex.set(nodes[i]!.id, i);
  const touched = { nodes: [] as number[], links: [] as number[] };
  for (const { before, after, map } of edits) if (!shiftFilePositions(doc, nodeIndex, before, after, map, touched)) return no('12');
  const meta = doc.graph;
  const failed = { ...(meta.failed_files ?? {}) };
  for (const { after } of edits) {
    delete failed[after.path];
    const syntax = partialExtraction(after);
    if (syntax) failed[after.path] = syntax;
  }
  meta.name = basename(scan.root);
  meta.languages = sortedRecord(plan.languages);
  meta.failed_files = sortedRecord(failed);
  if (meta.hazards) meta.hazards.sort(hazardOrder);
  doc.built_at_commit = plan.commit;

  const nodeRows = identityRows(doc.nodes.length);
  const linkRows = identityRows(doc.links.length);
  for (const i of touched.nodes) nodeRows[i] = -1;
  for (const j of touched.links) linkRows[j] = -1;
  return {
    doc, mode: 'positions', relinked: 0, failed: meta.failed_files, skippedCount: Object.keys(meta.skipped_files ?? {}).length, lines,
    reuse: { nodes: nodeRows, links: linkRows, previousCommunity: nodes.map((n) => n.community) },
    // Same facts but positions: the same link dependencies.
    deps: null, keptLinkCache: state.link_cache ?? null,
    inputsHash: plan.inputsHash,
    writeFacts: () => writeFactsShards(folder, plan.version, shards, entries),
  };
}
