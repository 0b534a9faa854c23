import { crc32 } from 'node:zlib';
import { MANIFEST_VERSION, type Manifest } from '../../graph/manifest.ts';
import { encodeGraph } from '../../graph/snapshot-encode.ts';
import { snapshotChecksum } from '../../graph/snapshot-envelope.ts';
import { writeLinkCache } from '../link-cache.node.ts';
import { decodedMemo, type DecodedGraph, type OutputFolder } from '../out/folder.node.ts';
import { stringifyGraph } from '../outputs/graph-json.ts';
import { reuseGraphRanges, stageGraphText, type GraphText } from '../outputs/graph-json-reuse.node.ts';
import { renderReport } from '../outputs/report.ts';
import { stageAtomic, type StagedWrite } from '../repo-files.node.ts';
import type { Linked } from './linked.ts';
import type { Plan } from './plan.node.ts';
import type { Ranked } from './rank.node.ts';
import type { Scan } from './scan.node.ts';

/**
 * Phase 5 of a run: the outputs, in the order OutputFolder documents (caches and manifest first;
 * graph.json, then graph.cbor renamed into place; the graph state last, with their checksums: it
 * marks a complete run). An update
 * copies what did not change from the previous outputs: the graph.json lines of unchanged records
 * (their community number written anew where it moved), graph.cbor rows from its columns.
 */
export async function writeOutputs(
  folder: OutputFolder, scan: Scan, plan: Plan, linked: Linked, ranked: Ranked, decoded: DecodedGraph, step: (label: string) => void,
): Promise<Manifest> {
  const { doc, reuse } = linked;
  const { communities, indexed } = ranked;
  const manifest: Manifest = {
    manifest_version: MANIFEST_VERSION,
    extractor_version: plan.version,
    scanned_at_ms: scan.startedAt,
    files: plan.manifestFiles,
    inputs_hash: linked.inputsHash,
    ...(plan.precise ? { precise: true } : {}),
    stats: {
      nodes: doc.nodes.length, links: doc.links.length, communities: communities.communities.length,
      failed: Object.keys(linked.failed).length, skipped: linked.skippedCount, lines: linked.lines,
    },
  };
  linked.writeFacts();
  ranked.writeCache();
  let linkCacheId = linked.keptLinkCache;
  if (linked.deps) {
    linkCacheId = linked.inputsHash;
    writeLinkCache(folder, linkCacheId, plan.version, linked.deps);
  }
  folder.writeManifest(manifest);
  step('facts, link cache, manifest');

  let graphText: GraphText | null = null;
  if (reuse) {
    const { nodes, previousCommunity } = reuse;
    // Communities are numbered again after most edits: such nodes' lines are copied but for the number.
    const newCommunity = new Uint8Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      if (nodes[i]! < 0) continue;
      const was = previousCommunity[nodes[i]!];
      if (was !== doc.nodes[i]!.community) newCommunity[i] = Number.isInteger(was) ? 1 : 2;
    }
    try {
      graphText = reuseGraphRanges(folder.graphJsonBytes(), doc, nodes, reuse.links, newCommunity);
    } catch {
      graphText = null;
    }
    if (!graphText && process.env.SYNAPTIC_DEBUG) console.error('synaptic: graph.json lines not reusable: serializing in full');
  }
  // Written as ranges (writev), also by a keeper: its next update reads the file back from the page
  // cache (~15 ms for prisma's 54 MB) where joining the ranges into one kept buffer cost ~70 ms.
  const graphBytes: Uint8Array | null = graphText ? null : Buffer.from(stringifyGraph(doc));
  step(reuse ? 'graph.json (lines reused)' : 'graph.json');
  // The big files go to their temp files on the I/O pool while graph.cbor is encoded and the report
  // rendered; then graph.json is renamed into place, and graph.cbor right after it (a snapshot at
  // least as new as graph.json is what readers take as fresh).
  const jsonWrite: StagedWrite = graphBytes ? stageAtomic(folder.graphJson, graphBytes) : stageGraphText(folder.graphJson, graphText!);
  const json = graphChecksum(graphBytes, graphText);
  let cborWrite: StagedWrite | null = null;
  let cbor = { bytes: 0, sum: 0 };
  try {
    // The rows the update did not touch are copied from the previous graph.cbor's columns: those of a
    // keeper's last encode, or of the file just read.
    const fromDisk = reuse ? decodedMemo(decoded) : undefined;
    if (folder.kept && fromDisk) folder.kept.encodeMemo = fromDisk;
    // (a buffer of about the encoded size, not cbor-x's growing ones: see EncodeMemo.output)
    if (fromDisk) fromDisk.allocate ??= (bytes) => Buffer.allocUnsafeSlow(bytes);
    const memo = fromDisk ?? folder.kept?.encodeMemo;
    // indexGraph's endpoints stand for the id lookups when ids are unique and no link dangles.
    const snapshotBytes = encodeGraph(
      doc, indexed.danglingLinks === 0 && indexed.idOf.size === doc.nodes.length ? indexed : undefined,
      memo ? { memo, ...(reuse ? { nodeFrom: reuse.nodes, linkFrom: reuse.links } : {}) } : undefined,
    );
    cborWrite = stageAtomic(folder.graphCbor, snapshotBytes);
    cbor = { bytes: snapshotBytes.length, sum: snapshotChecksum(snapshotBytes)! };
    step('encode graph.cbor');
    folder.write(folder.report, renderReport({ doc, indexed, communities: communities.communities, algorithm: communities.algorithm, memo: ranked.report }));
    step('report');
    await jsonWrite.commit();
    if (graphBytes) folder.wrote(folder.graphJson, graphBytes);
    folder.placed(folder.graphJson);
    await cborWrite.commit();
    folder.wrote(folder.graphCbor, doc);
    folder.placed(folder.graphCbor);
  } catch (err) {
    await Promise.all([jsonWrite.abort(), cborWrite?.abort()]);
    throw err;
  }
  folder.writeGraphState(manifest.inputs_hash!, linkCacheId, { json, cbor });
  scan.saveListings(folder);
  step('write graph.json, graph.cbor');
  return manifest;
}

/** Size and CRC-32 of graph.json as it is being written, for the graph state (prisma's 48 MB: ~15 ms, while the write goes on). */
function graphChecksum(bytes: Uint8Array | null, text: GraphText | null): { bytes: number; sum: number } {
  if (bytes) return { bytes: bytes.length, sum: crc32(bytes) };
  let sum = 0;
  for (const view of text!.views(0, text!.ranges)) sum = crc32(view, sum);
  return { bytes: text!.length, sum };
}
