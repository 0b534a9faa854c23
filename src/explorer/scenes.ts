import type { NodeId } from '../graph/model.ts';
import { sanitize } from '../query/sanitize.ts';
import { compareText } from './labels.ts';
import { columnCapacity, columnLayout, lineLayout, mapLayout, ringLayout, type Box } from './layout.ts';
import type { ExplorerGraph, Focus } from './queries.ts';
import { communityColor, paletteColor, type Measure, type Scene, type SceneBuilder, type SceneEdge, type SceneNode } from './view.ts';

/**
 * What each explorer view draws: plain scene data (nodes with positions and labels, edges) built
 * from the graph for a canvas size. No DOM, so the scenes are tested in Node.
 */

/** How many communities the map shows on a canvas this large (about one per 100x100 pixels, 12 to 80). */
export function mapCapacity(box: Box): number {
  return Math.max(12, Math.min(80, Math.round((box.width * box.height) / 10000)));
}

/** Only the largest nodes of a map keep room for their label in the layout (the rest fit where they can). */
const ROOMY = 30;
export const COMMUNITY_CAP = 150;
export const IMPACT_CAP = 200;
const GREY = '#7a8294';

export function communityKey(id: number): string {
  return `community:${id}`;
}

/** The community id a map node's key names, or undefined for a symbol key. */
export function communityOfKey(key: string): number | undefined {
  const m = /^community:(\d+)$/.exec(key);
  return m ? Number(m[1]) : undefined;
}

/** 12,345 (toLocaleString would load Intl data on the first paint: ~30 ms). */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function plural(n: number, word: string): string {
  return `${thousands(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** Where a symbol is, for hover cards: kind · file:line. */
export function whereLine(eg: ExplorerGraph, v: NodeId): string {
  const node = eg.ix.node(v);
  const line = node.span?.start_line ?? (typeof node.source_location === 'string' ? node.source_location.replace(/^L/, '') : '');
  return [node.kind ? String(node.kind) : '', `${sanitize(node.source_file ?? '')}${line ? `:${line}` : ''}`].filter(Boolean).join(' · ');
}

function symbolNode(eg: ExplorerGraph, v: NodeId, x: number, y: number, r: number, priority: number, color?: string): SceneNode {
  return { key: eg.ix.node(v).id, label: sanitize(eg.ix.label(v)), x, y, r, priority, color: color ?? communityColor(eg.ix.community[v]), detail: [whereLine(eg, v)] };
}

function callEdges(eg: ExplorerGraph, edges: readonly number[], color: string, opacity = 0.55): SceneEdge[] {
  const { ix } = eg;
  const seen = new Set<string>();
  const out: SceneEdge[] = [];
  for (const e of edges) {
    const source = ix.g.nodes[ix.g.src[e]!]!.id;
    const target = ix.g.nodes[ix.g.dst[e]!]!.id;
    const pair = `${source}\u0000${target}`;
    if (seen.has(pair)) continue;
    seen.add(pair);
    const rel = ix.relName(e);
    out.push({ source, target, color, opacity, directed: true, dashed: rel !== 'calls' && rel !== 'invokes' && rel !== 'instantiates' });
  }
  return out;
}

/** Radius relative to the largest value shown (square root, so area follows the value). */
function radius(value: number, max: number, min: number, span: number): number {
  return min + span * Math.sqrt(max > 0 ? value / max : 0);
}

/** The community map: one node per community (area = members), edges weighted by the edges between them. */
export function communityMapScene(eg: ExplorerGraph, capacity: number): { build: SceneBuilder; shown: number; total: number } {
  const all = eg.communities();
  const overview = eg.communityOverview(capacity);
  const shown = overview.communities;
  const names = new Map(all.map((c) => [c.id, sanitize(c.label)]));
  const index = new Map(shown.map((c, i) => [c.id, i]));
  const coupling = new Map<number, { id: number; weight: number }[]>();
  for (const l of overview.links) {
    for (const [a, b] of [[l.a, l.b], [l.b, l.a]] as const) (coupling.get(a) ?? coupling.set(a, []).get(a)!).push({ id: b, weight: l.weight });
  }
  const build: SceneBuilder = (box: Box, measure: Measure): Scene => {
    const maxSize = Math.max(1, ...shown.map((c) => c.size));
    const rMax = Math.min(34, Math.max(14, Math.min(box.width, box.height) / 16));
    const radii = shown.map((c) => radius(c.size, maxSize, 5, rMax - 5));
    const maxStrength = Math.max(1e-9, ...overview.links.map((l) => l.weight / Math.sqrt(shown[index.get(l.a)!]!.size * shown[index.get(l.b)!]!.size)));
    const points = mapLayout(
      shown.map((c, i) => ({ r: radii[i]!, labelWidth: i < ROOMY ? measure.text(names.get(c.id)!) : 0 })),
      overview.links.map((l) => ({ a: index.get(l.a)!, b: index.get(l.b)!, strength: 0.15 + (0.85 * l.weight) / Math.sqrt(shown[index.get(l.a)!]!.size * shown[index.get(l.b)!]!.size) / maxStrength })),
      box, measure.lineHeight);
    const nodes: SceneNode[] = shown.map((c, i) => {
      const r = radii[i]!;
      const count = thousands(c.size);
      const top = (coupling.get(c.id) ?? []).sort((a, b) => b.weight - a.weight).slice(0, 3);
      return {
        key: communityKey(c.id), label: names.get(c.id)!, x: points[i]!.x, y: points[i]!.y, r, color: communityColor(c.id), priority: c.size,
        inner: r >= 12 && measure.text(count) * 0.85 < 2 * r - 6 ? count : undefined,
        detail: [plural(c.size, 'member'), ...top.map((t) => `${plural(t.weight, 'edge')} with ${names.get(t.id)}`)],
      };
    });
    const maxW = Math.max(1, ...overview.links.map((l) => l.weight));
    const edges: SceneEdge[] = overview.links.map((l) => {
      const f = Math.sqrt(l.weight / maxW);
      return { source: communityKey(l.a), target: communityKey(l.b), width: 0.6 + 5 * f, opacity: 0.14 + 0.5 * f, color: '#6f7f9f' };
    });
    return { nodes, edges };
  };
  return { build, shown: shown.length, total: all.length };
}

/** The files of a community's shown members that get their own colour (most members first). */
export function fileColors(eg: ExplorerGraph, members: readonly NodeId[], limit = 8): Map<string, string> {
  const counts = new Map<string, number>();
  for (const v of members) {
    const file = eg.ix.node(v).source_file ?? '';
    counts.set(file, (counts.get(file) ?? 0) + 1);
  }
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0])).slice(0, limit);
  return new Map(top.map(([file], i) => [file, paletteColor(i)]));
}

/** A community's members (the most central, up to the cap) with the edges among them, coloured by file. */
export function communityScene(eg: ExplorerGraph, id: number): { build: SceneBuilder; members: NodeId[]; colors: Map<string, string> } {
  const members = eg.communityMembers(id, COMMUNITY_CAP);
  const colors = fileColors(eg, members);
  const edges = eg.edgesAmong(members);
  const build: SceneBuilder = (box, measure) => {
    const { ix, pagerank } = eg;
    const maxPr = Math.max(0, ...members.map((v) => pagerank[v]!));
    const radii = members.map((v) => radius(pagerank[v]!, maxPr, 3.5, 9));
    const index = new Map(members.map((v, i) => [v, i]));
    const pairs = new Map<string, { a: number; b: number; strength: number }>();
    for (const e of edges) {
      const a = index.get(ix.g.src[e]!)!;
      const b = index.get(ix.g.dst[e]!)!;
      if (a === b) continue;
      const key = a < b ? `${a} ${b}` : `${b} ${a}`;
      const p = pairs.get(key);
      if (p) p.strength = Math.min(1, p.strength + 0.25);
      else pairs.set(key, { a, b, strength: 0.5 });
    }
    const labelled = Math.min(members.length, ROOMY);
    const points = mapLayout(members.map((v, i) => ({ r: radii[i]!, labelWidth: i < labelled ? measure.text(sanitize(ix.label(v))) : 0 })), [...pairs.values()], box, measure.lineHeight, members.length > 80 ? 200 : 300);
    const nodes = members.map((v, i) => symbolNode(eg, v, points[i]!.x, points[i]!.y, radii[i]!, pagerank[v]!, colors.get(ix.node(v).source_file ?? '') ?? GREY));
    return { nodes, edges: callEdges(eg, edges, '#5c6a84', 0.45) };
  };
  return { build, members, colors };
}

/** Badge of a focus-view node: +N hidden neighbours on its outer side, − when expanded. */
function badgeOf(focus: Focus, v: NodeId, expanded: ReadonlySet<NodeId>): string | undefined {
  if (expanded.has(v)) return '−';
  const more = focus.more.get(v);
  return more ? `+${more}` : undefined;
}

/** The focus view: the symbol in the middle, callers in columns to its left, callees to its right. */
export function focusScene(eg: ExplorerGraph, v: NodeId, expanded: ReadonlySet<NodeId>): { build: SceneBuilder; drawn: () => Focus | undefined } {
  let last: { h: number; focus: Focus } | undefined;
  const focusFor = (box: Box, measure: Measure): Focus => {
    const perColumn = columnCapacity(box.height, measure.lineHeight);
    if (last?.h !== perColumn) last = { h: perColumn, focus: eg.focus(v, expanded, perColumn) };
    return last.focus;
  };
  const build: SceneBuilder = (box, measure) => {
    const focus = focusFor(box, measure);
    const { ix, pagerank } = eg;
    const keyed = new Map([...focus.columns].map(([col, ids]) => [col, ids.map((u) => ix.node(u).id)]));
    const widths = new Map([...focus.columns].filter(([col]) => col !== 0).map(([col, ids]) => {
      const widest = Math.max(...ids.map((u) => {
        const more = focus.more.get(u) ?? (expanded.has(u) ? 1 : 0);
        return measure.text(`${sanitize(ix.label(u))}${more ? ` +${more}` : ''}`);
      }));
      return [col, Math.min(240, widest + 12)];
    }));
    const points = columnLayout(keyed, box, widths);
    const shown = [...focus.columns.values()].flat();
    const maxPr = Math.max(0, ...shown.filter((u) => u !== v).map((u) => pagerank[u]!));
    const nodes: SceneNode[] = [];
    for (const [col, ids] of focus.columns) {
      for (const u of ids) {
        const p = points.get(ix.node(u).id)!;
        if (u === v) {
          nodes.push({ ...symbolNode(eg, u, p.x, p.y, 11, 1e6), highlight: true, side: 'below' });
          continue;
        }
        const node = symbolNode(eg, u, p.x, p.y, radius(pagerank[u]!, maxPr, 4, 5), pagerank[u]! - Math.abs(col));
        node.side = col < 0 ? 'left' : 'right';
        node.badge = badgeOf(focus, u, expanded);
        const more = focus.more.get(u);
        if (more) node.detail = [...node.detail!, `${plural(more, col < 0 ? 'caller' : 'callee')} not shown: click ${expanded.has(u) ? '−' : '+'} to ${expanded.has(u) ? 'collapse' : 'expand'}`];
        nodes.push(node);
      }
    }
    // Only edges between neighbouring columns: a caller's link to a callee across the centre, or
    // between two nodes of one column, would cross every label on the way.
    const column = new Map<NodeId, number>();
    for (const [col, ids] of focus.columns) for (const u of ids) column.set(u, col);
    const adjacent = focus.edges.filter((e) => Math.abs(column.get(ix.g.src[e]!)! - column.get(ix.g.dst[e]!)!) === 1);
    return { nodes, edges: callEdges(eg, adjacent, '#6cb6ff', 0.5) };
  };
  return { build, drawn: () => last?.focus };
}

/** Impact: the changed symbol in the centre, its dependents in rings by hop distance. */
export function impactScene(eg: ExplorerGraph, v: NodeId, byDepth: readonly { node: NodeId }[][]): { build: SceneBuilder; shown: number } {
  const rings: NodeId[][] = [[v]];
  let count = 1;
  for (const level of byDepth) {
    const ring: NodeId[] = [];
    for (const h of level) {
      if (count >= IMPACT_CAP) break;
      ring.push(h.node);
      count++;
    }
    if (ring.length) rings.push(ring);
  }
  const ids = rings.flat();
  const edges = eg.edgesAmong(ids);
  const build: SceneBuilder = (box) => {
    const { ix, pagerank } = eg;
    const points = ringLayout(rings.map((r) => r.map((u) => ix.node(u).id)), box);
    const maxPr = Math.max(0, ...ids.map((u) => pagerank[u]!));
    const nodes = rings.flatMap((ring, d) => ring.map((u) => {
      const p = points.get(ix.node(u).id)!;
      const node = symbolNode(eg, u, p.x, p.y, u === v ? 10 : radius(pagerank[u]!, maxPr, 3.5, 6), (rings.length - d) * 10 + pagerank[u]! / (maxPr || 1));
      if (u === v) node.highlight = true;
      return node;
    }));
    return { nodes, edges: callEdges(eg, edges, '#ff8b8b', 0.4) };
  };
  return { build, shown: count - 1 };
}

/** A path from left to right with each hop's relation next to its edge. */
export function pathScene(eg: ExplorerGraph, path: { nodes: NodeId[]; hops: { relation: string; edge: number }[] }): SceneBuilder {
  return (box) => {
    const { ix } = eg;
    const keys = path.nodes.map((u) => ix.node(u).id);
    const points = lineLayout(keys, box);
    const nodes = path.nodes.map((u, i) => {
      const p = points.get(keys[i]!)!;
      return { ...symbolNode(eg, u, p.x, p.y, 8, 100 - i), highlight: i === 0 || i === path.nodes.length - 1, side: (i % 2 ? 'below' : 'above') as 'below' | 'above' };
    });
    const notes = path.hops.map((h, i) => {
      const a = points.get(keys[i]!)!;
      const b = points.get(keys[i + 1]!)!;
      return { key: `hop:${i}`, text: sanitize(h.relation), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, priority: 50 - i };
    });
    return { nodes, edges: callEdges(eg, path.hops.map((h) => h.edge), '#f0b429', 0.9), notes };
  };
}
