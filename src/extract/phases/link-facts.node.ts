import { basename } from 'node:path';
import type { GraphDocument, GraphLink, GraphMeta, GraphNode } from '../../graph/model.ts';
import type { ManifestEntry } from '../../graph/manifest.ts';
import type { FileFacts } from '../facts.ts';
import { loadFactsCache, writeFactsCache, type CacheEntry } from '../facts-cache.node.ts';
import { linkGraph } from '../link/index.ts';
import { relink, type RelinkResult } from '../link/incremental.ts';
import { loadLinkCache, sameLinkDeps } from '../link-cache.node.ts';
import type { DecodedGraph, OutputFolder } from '../out/folder.node.ts';
import { sortGraph } from '../outputs/graph-json.ts';
import type { FileTask } from '../process-file.node.ts';
import { buildProjectContext, type ProjectContext } from '../project-context.ts';
import { definedCopy, hazardOrder, notTaken, partialExtraction, type Linked, type RowReuse } from './linked.ts';
import { sortedRecord, type Plan } from './plan.node.ts';
import type { Scan } from './scan.node.ts';

/** Most changed files the incremental relink takes on. */
const RELINK_MAX_FILES = 256;

const no = (reason: string): null => notTaken('incremental relink', `${reason}: linking every file`);

/**
 * Link from facts: every file's facts (the cached facts of reused files, re-parsing any the cache
 * cannot vouch for), then either the incremental relink (when only contents changed: only files
 * whose linking may come out differently are linked, the rest is taken from the previous graph) or
 * a full link.
 */
export async function linkFacts(scan: Scan, plan: Plan, folder: OutputFolder, decoded: DecodedGraph, step: (label: string) => void): Promise<Linked> {
  const { files } = scan;
  const changedPaths = [...files.entries.keys()];
  const prevCache = files.reused.size ? loadFactsCache(folder, plan.version) : null;
  step('load facts cache');
  const redo: FileTask[] = [];
  for (const [path, meta] of files.reused) {
    const cached = prevCache?.[path];
    if (cached && cached.hash === meta.hash) files.entries.set(path, cached);
    else {
      const w = scan.walkedByPath.get(path)!;
      redo.push({ path, abs: w.abs, language: w.language, size: w.size });
      files.reusedCount--;
    }
  }
  let inputsHash = plan.inputsHash;
  if (redo.length) {
    files.reused.clear();
    await scan.parse(redo);
    for (const path of plan.paths) {
      const e = files.entries.get(path)!;
      plan.manifestFiles[path] = { ...plan.manifestFiles[path]!, hash: e.hash, status: e.skip ? 'skipped' : e.facts ? 'ok' : 'failed' };
    }
    inputsHash = plan.hashWith(plan.manifestFiles);
  }
  const facts: FileFacts[] = [];
  const skipped: Record<string, string> = { ...scan.walk.skipped };
  const failed: Record<string, string> = {};
  let lines = 0;
  for (const path of plan.paths) {
    const e = files.entries.get(path)!;
    if (e.skip) {
      skipped[path] = e.skip;
      continue;
    }
    if (e.error !== undefined) failed[path] = e.error;
    if (!e.facts) continue;
    facts.push(e.facts);
    lines += e.lines;
    const syntax = partialExtraction(e.facts);
    if (syntax && failed[path] === undefined) failed[path] = syntax;
  }
  const context = buildProjectContext(scan.contextTexts);
  step('collect facts');
  const incremental = plan.route !== 'full' && redo.length === 0 && changedPaths.length > 0
    ? relinkChanged(scan, plan, folder, decoded, prevCache, changedPaths, facts, context)
    : null;
  const linked = incremental ?? linkGraph(facts, context);
  step(incremental ? 'relink' : 'link');
  const meta: GraphMeta = {
    name: basename(scan.root),
    extractor_version: plan.version,
    languages: sortedRecord(plan.languages),
    failed_files: sortedRecord(failed),
    skipped_files: sortedRecord(skipped),
    hazards: [...linked.hazards].sort(hazardOrder),
    unresolved_calls: sortedRecord(linked.unresolvedCalls),
  };
  const changedFiles = new Set(changedPaths);
  const doc: GraphDocument = {
    directed: true,
    multigraph: true,
    graph: meta,
    nodes: incremental ? keptNodes(incremental, changedFiles) : linked.nodes.map((n: GraphNode) => definedCopy(n)),
    // Relinked links come merged in canonical order: the previous graph's objects and fresh ones.
    links: incremental ? linked.links : linked.links.map((l: GraphLink) => definedCopy(l)),
    hyperedges: [],
    built_at_commit: plan.commit,
  };
  let reuse: RowReuse | null = null;
  if (incremental) {
    doc.nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    reuse = { nodes: keptNodeRows(doc.nodes, incremental.previousNodes, changedFiles), links: incremental.linkFrom, previousCommunity: incremental.previousNodes.map((n) => n.community) };
  } else sortGraph(doc);
  step('graph document');
  // Relinked files that read what they read before leave the link cache file as it is (its id stays the graph state's).
  const keptLinkCache = incremental?.keptLinkCache ?? null;
  return {
    doc, mode: incremental ? 'incremental' : 'full', relinked: incremental ? incremental.relinked : facts.length,
    failed, skippedCount: Object.keys(skipped).length, lines, reuse, deps: keptLinkCache ? null : linked.deps, keptLinkCache, inputsHash,
    writeFacts: () => writeFactsCache(folder, plan.version, plan.paths, files.entries, prevCache),
  };
}

/**
 * The incremental relink (see link/incremental.ts): when only files' contents changed (same file set,
 * every changed file extracted before and now, same configuration: checked through the inputs
 * hash), link again only the files whose linking may come out differently and take the rest from
 * the previous graph (graph.cbor), which the link cache must describe. Null when a condition fails:
 * the caller then links everything.
 */
function relinkChanged(
  scan: Scan, plan: Plan, folder: OutputFolder, decoded: DecodedGraph, prevCache: Record<string, CacheEntry> | null,
  changedPaths: string[], facts: FileFacts[], context: ProjectContext,
): (RelinkResult & { previousNodes: GraphNode[]; keptLinkCache: string | null }) | null {
  const previous = scan.previous!;
  const entries = scan.files.entries;
  if (changedPaths.length > RELINK_MAX_FILES) return no('too many changed files');
  if (!prevCache) return no('no facts cache');
  const state = folder.graphState();
  if (!previous.inputs_hash || state?.inputs_hash !== previous.inputs_hash || !state.link_cache) return no('graph state');
  const asBefore: Record<string, ManifestEntry> = { ...plan.manifestFiles };
  const before = new Map<string, FileFacts>();
  for (const path of changedPaths) {
    const prev = previous.files[path];
    const old = prevCache[path];
    const now = entries.get(path);
    if (!prev || prev.status !== 'ok' || !old?.facts || old.hash !== prev.hash || !now?.facts || now.skip !== undefined) return no(`status of ${path}`);
    asBefore[path] = { ...asBefore[path]!, hash: prev.hash, status: prev.status };
    before.set(path, old.facts);
  }
  let doc: GraphDocument | undefined;
  if (plan.hashWith(asBefore) !== previous.inputs_hash) {
    // A new HEAD alone (a commit since the last update, or another commit's worktree seeded with
    // these outputs) changes only built_at_commit, which the relinked graph takes from this run.
    try {
      doc = folder.previousGraph(decoded);
    } catch {
      return no('graph.cbor');
    }
    if (doc.built_at_commit === plan.commit || plan.hashWith(asBefore, doc.built_at_commit) !== previous.inputs_hash) return no('inputs beyond the changed files');
  }
  const deps = loadLinkCache(folder, state.link_cache, plan.version);
  if (!deps) return no('link cache');
  if (!doc) {
    try {
      doc = folder.previousGraph(decoded);
    } catch {
      return no('graph.cbor');
    }
  }
  const result = relink({
    facts, context, deps, before,
    previous: { links: doc.links, hazards: doc.graph.hazards ?? [], unresolvedCalls: doc.graph.unresolved_calls ?? {} },
  });
  // (Object.assign keeps the result's lazily built `nodes` lazy; a spread would build them.)
  if (!result) return no('linked files differ');
  return Object.assign(result, { previousNodes: doc.nodes, keptLinkCache: sameLinkDeps(result.deps, deps) ? state.link_cache : null });
}

/**
 * An incremental update's nodes: a node depends only on its own file's facts (package nodes on the
 * files of their package), so the previous graph's nodes of unchanged files are kept as they are
 * (encodeGraph reads fields in a fixed order: same bytes) and only the changed files' and the package
 * nodes are built; both lists are in id order and are merged. Equal ids in both lists would need the
 * full build's tie order: then every node is built.
 */
function keptNodes(incremental: RelinkResult & { previousNodes: GraphNode[] }, changedFiles: ReadonlySet<string>): GraphNode[] {
  const fresh = incremental.nodesOf((f) => changedFiles.has(f.path)).map((n) => definedCopy(n));
  const kept = incremental.previousNodes.filter((n) => n.kind !== 'package' && !changedFiles.has(n.source_file));
  const out: GraphNode[] = new Array(fresh.length + kept.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) {
    if (j >= kept.length || (i < fresh.length && fresh[i]!.id < kept[j]!.id)) out[k] = fresh[i++]!;
    else if (i < fresh.length && fresh[i]!.id === kept[j]!.id) return incremental.nodes.map((n) => definedCopy(n));
    else out[k] = kept[j++]!;
  }
  return out;
}

/**
 * graph.json lines to copy: nodes of unchanged files (checked again for their community once it is
 * known). Both node lists are in id order: one walk pairs them (an id it does not find is simply
 * serialized again).
 */
function keptNodeRows(nodes: GraphNode[], previousNodes: GraphNode[], changedFiles: ReadonlySet<string>): Int32Array {
  let p = 0;
  const rows = new Int32Array(nodes.length);
  for (let i = 0; i < rows.length; i++) {
    const n = nodes[i]!;
    while (p < previousNodes.length && previousNodes[p]!.id < n.id) p++;
    const at = p < previousNodes.length && previousNodes[p]!.id === n.id ? p : -1;
    rows[i] = n.kind === 'package' || changedFiles.has(n.source_file) ? -1 : at;
  }
  return rows;
}
