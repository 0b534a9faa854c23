import { basename, dirname } from 'node:path';
import { sanitize } from '../../query/sanitize.ts';
import { realRoot } from '../../query/source.node.ts';
import { toolError, toolResult, type ToolDefinition, type ToolProvider, type ToolResult } from '../tool.ts';
import type { GraphToolContext } from '../tools/context.ts';
import { godNodesPage } from '../tools/god-nodes.ts';
import { statsText } from '../tools/graph-stats.ts';
import { createGraphTools } from '../tools/index.ts';
import { hubsFacade, memberHubs, memberStats, mergeHubs, statsFacade, sumStats, type MemberStats } from './aggregates.ts';
import { combineResolutions, tagOfReference } from './routing.ts';
import type { FederatedStore, StoreMember } from './store.node.ts';

/** Tools answered on one member, routed by the member its `label` (or `file`) names. */
const ROUTED = new Set(['get_node', 'get_neighbors', 'find_callers', 'find_callees', 'get_source']);
/** Tools answered from the manifest as they are (list_repos, repo_stats read global-manifest.json). */
const MANIFEST = new Set(['list_repos', 'repo_stats']);

type Args = Record<string, unknown>;

/**
 * The graph tools over a federated store (shard-aware serving, docs/workspaces.md "Serving"): the
 * same catalogue as one graph, each answer either routed to the member a reference names (ids and
 * files are `<tag>/…`), gathered from every member (graph_stats, god_nodes, search_text), or, for a
 * tool not federated yet, an error saying so and how to serve one member meanwhile.
 */
export function createFederatedTools(store: FederatedStore, base: GraphToolContext): ToolProvider {
  const proto = createGraphTools(base).tools();
  const byMember = new Map<string, { key: string; tools: Map<string, ToolDefinition> }>();
  const memberTools = (m: StoreMember): Map<string, ToolDefinition> => {
    const root = memberParent(m);
    const key = `${m.key}|${root ?? ''}`;
    let entry = byMember.get(m.tag);
    if (!entry || entry.key !== key) {
      const ctx: GraphToolContext = { ...base, engine: () => store.engine(m.tag), sourceRoot: root, graphPath: m.graphPath };
      entry = { key, tools: new Map(createGraphTools(ctx).tools().map((t) => [t.name, t])) };
      byMember.set(m.tag, entry);
    }
    return entry.tools;
  };
  const okMembers = () => store.members().filter((m) => m.status === 'ok');

  const onMember = (m: StoreMember, name: string, args: Args, extra: Parameters<ToolDefinition['handler']>[1]) => memberTools(m).get(name)!.handler(args as never, extra);

  const routed = async (name: string, args: Args, extra: Parameters<ToolDefinition['handler']>[1]): Promise<ToolResult> => {
    const members = okMembers();
    if (!members.length) return toolError(`Cannot answer ${name}: the store ${store.dir} has no member that extracted (run 'synaptic workspace update')`);
    const ref = typeof args.label === 'string' ? args.label : typeof args.file === 'string' ? args.file : undefined;
    if (ref === undefined) return onMember(members[0]!, name, args, extra); // the tool's own "pass label" error
    const named = tagOfReference(ref, members.map((m) => m.tag));
    if (named) return onMember(store.member(named)!, name, args, extra);
    if (typeof args.label !== 'string') return toolError(`Cannot read '${sanitize(ref, 400)}' on a federated store: prefix the path with its member's tag (tag/path; members: ${members.map((m) => m.tag).join(', ')})`);
    const all = [];
    for (const m of members) {
      const engine = await store.engine(m.tag);
      all.push({ tag: m.tag, engine, res: engine.resolve(args.label) });
    }
    const r = combineResolutions(all, args.label);
    return 'tag' in r ? onMember(store.member(r.tag)!, name, args, extra) : toolResult(r.text);
  };

  const graphStats = async (): Promise<ToolResult> => {
    const per: MemberStats[] = [];
    for (const m of okMembers()) per.push(await store.memoized(m.tag, 'stats', memberStats));
    const sum = sumStats(per);
    return toolResult(statsText(statsFacade(sum)), { ...sum.stats });
  };

  const godNodes = async (args: Args): Promise<ToolResult> => {
    const offset = typeof args.offset === 'number' ? args.offset : 0;
    const k = offset + Math.min(200, typeof args.top_n === 'number' ? args.top_n : base.defaults.topN);
    const lists = [];
    let total = 0;
    for (const m of okMembers()) {
      const hubs = await store.memoized(m.tag, `hubs:${k}`, (e) => memberHubs(e, m.index, k));
      lists.push(hubs.rows);
      total += hubs.ranked;
    }
    const rows = mergeHubs(lists).slice(0, k);
    const { text, structured } = godNodesPage(hubsFacade(rows, total), k - offset, offset);
    return toolResult(text, structured);
  };

  const searchText = async (args: Args, extra: Parameters<ToolDefinition['handler']>[1]): Promise<ToolResult> => {
    if (typeof args.repo === 'string') {
      const m = store.member(args.repo);
      if (!m) return toolError(`Cannot search text: no member '${sanitize(args.repo)}' in the store (members: ${okMembers().map((x) => x.tag).join(', ')})`);
      return onMember(m, 'search_text', args, extra);
    }
    // Every member under its own root, in tag order (the order one walk of a shared root visits them).
    const max = typeof args.max_results === 'number' ? args.max_results : 100;
    const members = [...okMembers()].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    const hits: Record<string, unknown>[] = [];
    let total = 0;
    let files = 0;
    let truncated = false;
    // Each member searched for what is still missing, so the scan stops where one walk would: at the first match past max.
    for (const m of members) {
      const remaining = max - hits.length;
      const r = await onMember(m, 'search_text', { ...args, repo: m.tag, max_results: Math.max(1, remaining) }, extra);
      if (r.isError) return r;
      const s = r.structuredContent as { total: number; truncated: boolean; files_scanned: number; hits: Record<string, unknown>[] };
      files += s.files_scanned;
      if (remaining <= 0) {
        if (s.total > 0) { total += 1; truncated = true; break; }
        continue;
      }
      total += s.total;
      hits.push(...s.hits.map((h) => ({ ...h, repo: '' })));
      if (s.truncated) { truncated = true; break; }
    }
    const shown = hits.slice(0, max);
    const pattern = sanitize(String(args.pattern), 400);
    const lines = [`${total}${truncated ? '+' : ''} match(es) for /${pattern}/ in ${files} file(s)${truncated ? ` (showing ${shown.length}; narrow with path_glob or raise max_results)` : ''}:`];
    for (const h of shown as { file: string; line: number; col: number; line_text: string; node: { label: string; kind: string } | null }[]) {
      lines.push(`${h.file}:${h.line}:${h.col} ${h.line_text}${h.node ? ` [${h.node.label} ${h.node.kind}]` : ''}`);
    }
    if (!shown.length) lines.push('  (no matches; the search honours .gitignore/.synapticignore and skips synaptic-out/, node_modules and build output)');
    return toolResult(lines.join('\n'), { pattern, total, truncated, files_scanned: files, hits: shown });
  };

  const notYet = (name: string): ToolResult => {
    const members = okMembers();
    const example = members[0] ? ` (e.g. synaptic serve --graph ${members[0].graphPath})` : '';
    return toolError(
      `Cannot answer ${name} on a federated store yet: shard-aware serving answers list_repos, repo_stats, graph_stats, god_nodes, get_node, get_neighbors, find_callers, find_callees, get_source and search_text. ` +
        `Serve one member's graph meanwhile${example}; members: ${members.map((m) => m.tag).join(', ')}`,
    );
  };

  const tools: ToolDefinition[] = proto.map((t) => ({
    ...t,
    handler: async (args: Args, extra) => {
      if (MANIFEST.has(t.name)) return t.handler(args as never, extra);
      if (ROUTED.has(t.name)) return routed(t.name, args, extra);
      if (t.name === 'graph_stats') return graphStats();
      if (t.name === 'god_nodes') return godNodes(args);
      if (t.name === 'search_text') return searchText(args, extra);
      return notYet(t.name);
    },
  })) as ToolDefinition[];
  return { tools: () => tools, close: () => store.close() };
}

/**
 * The folder a member's `<tag>/<path>` files resolve under: its source root's parent when the root
 * is named as its tag (what `workspace build` gives by default); else none (get_source says so).
 */
function memberParent(m: StoreMember): string | undefined {
  return basename(m.sourceRoot) === m.tag ? realRoot(dirname(m.sourceRoot)) : undefined;
}
