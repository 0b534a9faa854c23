import { MultiDirectedGraph } from 'graphology';
import Sigma from 'sigma';

/**
 * The WebGL graph view: a small graphology graph holding only what is visible, drawn by sigma.js.
 * Layouts are computed here (rings by hop distance, a line for a path), so a redraw costs only
 * the visible nodes, never the whole graph.
 */

export interface ViewNode {
  key: string;
  label: string;
  /** Ring (0 = centre) for radial layouts; position along the line for paths. */
  ring: number;
  /** Sort key inside a ring so related nodes sit together (community, then label). */
  order: string;
  size: number;
  color: string;
  highlight?: boolean;
}

export interface ViewEdge {
  source: string;
  target: string;
  label: string;
  color: string;
  size?: number;
  /** Undirected links (aggregated overview) are drawn without arrows. */
  undirected?: boolean;
}

const PALETTE = [
  '#6cb6ff', '#f0b429', '#57d9a3', '#ff8b8b', '#c297ff', '#4dd0e1', '#ffb86b', '#a3e635', '#f472b6', '#94a3b8',
  '#fde047', '#60a5fa', '#fb7185', '#34d399', '#e879f9', '#fca5a5',
];

/** A stable colour per community id (grey when none). */
export function communityColor(community: number | undefined): string {
  return community === undefined || community < 0 ? '#7a8294' : PALETTE[community % PALETTE.length]!;
}

/** Node size from PageRank relative to the largest shown. */
export function rankSize(rank: number, maxRank: number): number {
  return 4 + 14 * Math.sqrt(maxRank > 0 ? rank / maxRank : 0);
}

export type Layout = 'radial' | 'line';

export class GraphView {
  private sigma: Sigma | null = null;
  private readonly graph = new MultiDirectedGraph();

  constructor(
    private readonly container: HTMLElement,
    private readonly onClick: (key: string) => void,
  ) {}

  /** Replace what is shown. */
  show(nodes: ViewNode[], edges: ViewEdge[], layout: Layout): void {
    const graph = this.graph;
    graph.clear();
    const positions = layout === 'line' ? lineLayout(nodes) : radialLayout(nodes);
    for (const n of nodes) {
      const p = positions.get(n.key)!;
      graph.addNode(n.key, {
        x: p.x,
        y: p.y,
        size: n.highlight ? n.size + 4 : n.size,
        color: n.color,
        label: n.label,
        forceLabel: n.highlight || n.ring === 0,
        zIndex: n.highlight ? 2 : 1,
      });
    }
    for (const e of edges) {
      if (!graph.hasNode(e.source) || !graph.hasNode(e.target)) continue;
      graph.addEdge(e.source, e.target, { label: e.label, color: e.color, size: e.size ?? 1, type: e.undirected || e.source === e.target ? 'line' : 'arrow' });
    }
    if (!this.sigma) {
      this.sigma = new Sigma(graph, this.container, {
        defaultEdgeType: 'arrow',
        renderEdgeLabels: false,
        labelColor: { color: '#d8dde6' },
        labelSize: 12,
        labelRenderedSizeThreshold: 6,
        zIndex: true,
        allowInvalidContainer: true,
      });
      this.sigma.on('clickNode', ({ node }) => this.onClick(node));
    } else {
      this.sigma.refresh();
    }
    this.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 });
  }

  /** Edge labels on (path mode) or off. */
  setEdgeLabels(on: boolean): void {
    this.sigma?.setSetting('renderEdgeLabels', on);
  }

  kill(): void {
    this.sigma?.kill();
    this.sigma = null;
  }
}

/** Concentric rings by `ring`; inside a ring nodes are spread evenly in `order`. */
export function radialLayout(nodes: readonly ViewNode[]): Map<string, { x: number; y: number }> {
  const rings = new Map<number, ViewNode[]>();
  for (const n of nodes) {
    const list = rings.get(n.ring);
    if (list) list.push(n);
    else rings.set(n.ring, [n]);
  }
  const out = new Map<string, { x: number; y: number }>();
  for (const [ring, list] of rings) {
    list.sort((a, b) => a.order.localeCompare(b.order) || a.key.localeCompare(b.key));
    const radius = ring === 0 && list.length === 1 ? 0 : 1 + ring * 1.6 + Math.max(0, list.length - 24) * 0.03;
    list.forEach((n, i) => {
      const angle = (2 * Math.PI * i) / list.length + ring * 0.35;
      out.set(n.key, { x: radius * Math.cos(angle), y: radius * Math.sin(angle) });
    });
  }
  return out;
}

/** Nodes on a gentle zig-zag line in `ring` order (a path from left to right). */
export function lineLayout(nodes: readonly ViewNode[]): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  [...nodes].sort((a, b) => a.ring - b.ring).forEach((n, i) => out.set(n.key, { x: i * 2, y: i % 2 ? 0.6 : 0 }));
  return out;
}
