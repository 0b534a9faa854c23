import { placeLabels, type LabelSide, type PlacedLabel, type Rect } from './labels.ts';
import type { Box } from './layout.ts';

/**
 * The graph view: an SVG of only what is visible (a few hundred nodes at most), laid out by the
 * scene builder for the canvas size, with labels measured and placed so none is clipped or
 * overlaps another (labels.ts). Wheel zooms, dragging pans, labels are placed again after each
 * move. Plain DOM, no graph library: the page stays small and the first paint fast.
 */

export interface SceneNode {
  key: string;
  /** Full label (already sanitized); drawn shortened when it does not fit, whole on hover. */
  label: string;
  /** Position at the default zoom, in canvas pixels. */
  x: number;
  y: number;
  r: number;
  color: string;
  /** Label placement order: higher first. */
  priority: number;
  side?: LabelSide;
  /** The focused node (drawn with a ring, its label placed first). */
  highlight?: boolean;
  /** Short text inside the circle (a community's member count). */
  inner?: string;
  /** Lines under the full label in the hover card. */
  detail?: string[];
  /** A clickable mark at the label's outer end (expand or collapse in the focus view). */
  badge?: string;
}

export interface SceneEdge {
  source: string;
  target: string;
  width?: number;
  color?: string;
  opacity?: number;
  directed?: boolean;
  dashed?: boolean;
}

/** A text placed like a label but belonging to no node (a path hop's relation). */
export interface SceneNote {
  key: string;
  text: string;
  x: number;
  y: number;
  priority: number;
}

export interface Scene {
  nodes: SceneNode[];
  edges: SceneEdge[];
  notes?: SceneNote[];
}

export interface Measure {
  text(text: string): number;
  /** Height of a label box: the font's ascent plus descent. */
  lineHeight: number;
  /** From a label box's top to the text's baseline. */
  ascent: number;
}

/** Builds the scene for a canvas size (called again when the canvas is resized). */
export type SceneBuilder = (box: Box, measure: Measure) => Scene;

/** What the view drew, in canvas pixels (tests read it through `window.synaptic.view()`). */
export interface ViewSnapshot {
  width: number;
  height: number;
  zoom: number;
  nodes: { key: string; label: string; x: number; y: number; r: number }[];
  edges: { source: string; target: string }[];
  labels: PlacedLabel[];
  obstacles: Rect[];
}

export interface ViewHandlers {
  click(key: string): void;
  badge(key: string): void;
  /** Overlays on the canvas that labels keep clear of (legend, breadcrumbs). */
  overlays(): HTMLElement[];
}

const SVG = 'http://www.w3.org/2000/svg';
export const LABEL_FONT = '12px system-ui, -apple-system, "Segoe UI", sans-serif';

const PALETTE = [
  '#6cb6ff', '#f0b429', '#57d9a3', '#ff8b8b', '#c297ff', '#4dd0e1', '#ffb86b', '#a3e635', '#f472b6', '#94a3b8',
  '#fde047', '#60a5fa', '#fb7185', '#34d399', '#e879f9', '#fca5a5',
];

/** A stable colour per community id (grey when none). */
export function communityColor(community: number | undefined): string {
  return community === undefined || community < 0 ? '#7a8294' : PALETTE[community % PALETTE.length]!;
}

/** The i-th colour of the palette (files in a community view). */
export function paletteColor(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Canvas text measurement in the label font, cached. */
function textMeasure(): Measure {
  const ctx = document.createElement('canvas').getContext('2d')!;
  ctx.font = LABEL_FONT;
  const m = ctx.measureText('Mgjy|');
  const cache = new Map<string, number>();
  const ascent = m.fontBoundingBoxAscent ?? 11;
  return {
    lineHeight: Math.ceil(ascent + (m.fontBoundingBoxDescent ?? 4)),
    ascent,
    text(text) {
      let w = cache.get(text);
      if (w === undefined) cache.set(text, (w = ctx.measureText(text).width));
      return w;
    },
  };
}

export class GraphView {
  private readonly root: SVGSVGElement;
  private readonly world: SVGGElement;
  private readonly labelLayer: SVGGElement;
  private readonly defs: SVGDefsElement;
  private readonly tooltip: HTMLElement;
  private readonly measure = textMeasure();
  private builder: SceneBuilder | null = null;
  private scene: Scene = { nodes: [], edges: [] };
  private byKey = new Map<string, SceneNode>();
  private incident = new Map<string, SVGPathElement[]>();
  private neighbours = new Map<string, Set<string>>();
  private nodeEls = new Map<string, SVGCircleElement>();
  private placed: PlacedLabel[] = [];
  private obstacles: Rect[] = [];
  private zoom = { k: 1, x: 0, y: 0 };
  private size = { width: 0, height: 0 };
  private labelFrame = 0;
  private drag: { x: number; y: number; zx: number; zy: number; moved: boolean } | null = null;

  constructor(
    private readonly container: HTMLElement,
    private readonly handlers: ViewHandlers,
  ) {
    this.root = svg('svg', { class: 'graph', role: 'img' });
    this.defs = svg('defs', {});
    this.world = svg('g', { class: 'world' });
    this.labelLayer = svg('g', { class: 'labels' });
    this.root.append(this.defs, this.world, this.labelLayer);
    this.tooltip = document.createElement('div');
    this.tooltip.id = 'tooltip';
    this.tooltip.className = 'hidden';
    container.append(this.root, this.tooltip);
    this.bindPointer();
    new ResizeObserver(() => {
      const { width, height } = this.box();
      if (this.builder && (width !== this.size.width || height !== this.size.height)) this.build();
    }).observe(container);
  }

  /** The canvas size in pixels. */
  canvasSize(): Box {
    return this.box();
  }

  private box(): Box {
    return { width: Math.max(1, Math.floor(this.container.clientWidth)), height: Math.max(1, Math.floor(this.container.clientHeight)) };
  }

  /** Replace what is shown: lay the scene out for the current canvas size at the default zoom. */
  show(builder: SceneBuilder): void {
    this.builder = builder;
    this.build();
  }

  /**
   * Lay the scene out in the canvas minus the strips the overlays take at its top and bottom
   * (breadcrumbs, legend), so no node sits under them.
   */
  private build(): void {
    this.size = this.box();
    this.root.setAttribute('width', String(this.size.width));
    this.root.setAttribute('height', String(this.size.height));
    const base = this.container.getBoundingClientRect();
    let top = 0;
    let bottom = 0;
    for (const r of this.overlayRects(base)) {
      if (r.y + r.h / 2 < this.size.height / 2) top = Math.max(top, r.y + r.h + 4);
      else bottom = Math.max(bottom, this.size.height - r.y + 4);
    }
    if (top + bottom > this.size.height / 2) top = bottom = 0;
    const scene = this.builder!({ width: this.size.width, height: this.size.height - top - bottom }, this.measure);
    for (const n of scene.nodes) n.y += top;
    for (const n of scene.notes ?? []) n.y += top;
    this.scene = scene;
    this.zoom = { k: 1, x: 0, y: 0 };
    this.draw();
  }

  private overlayRects(base: DOMRect): Rect[] {
    return this.handlers.overlays()
      .filter((el) => !el.classList.contains('hidden') && el.offsetParent !== null)
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => ({ x: r.left - base.left, y: r.top - base.top, w: r.width, h: r.height }));
  }

  /** Back to the default zoom. */
  resetZoom(): void {
    this.zoom = { k: 1, x: 0, y: 0 };
    this.applyZoom();
  }

  snapshot(): ViewSnapshot {
    const { k, x, y } = this.zoom;
    return {
      ...this.size,
      zoom: k,
      nodes: this.scene.nodes.map((n) => ({ key: n.key, label: n.label, x: n.x * k + x, y: n.y * k + y, r: n.r * k })),
      edges: this.scene.edges.filter((e) => e.source !== e.target && this.byKey.has(e.source) && this.byKey.has(e.target)).map((e) => ({ source: e.source, target: e.target })),
      labels: this.placed.map((l) => ({ ...l })),
      obstacles: this.obstacles.map((o) => ({ ...o })),
    };
  }

  private draw(): void {
    const { nodes, edges } = this.scene;
    this.byKey = new Map(nodes.map((n) => [n.key, n]));
    this.incident = new Map();
    this.neighbours = new Map();
    this.nodeEls = new Map();
    this.defs.replaceChildren();
    const markers = new Map<string, string>();
    const edgeLayer = svg('g', { class: 'edges' });
    for (const e of edges) {
      const a = this.byKey.get(e.source);
      const b = this.byKey.get(e.target);
      if (!a || !b || a === b) continue;
      const color = e.color ?? '#4c566a';
      const path = svg('path', { class: 'edge', d: edgePath(a, b, e.directed === true), stroke: color, 'stroke-width': e.width ?? 1, 'stroke-opacity': e.opacity ?? 0.6, fill: 'none' });
      if (e.dashed) path.setAttribute('stroke-dasharray', '4 3');
      if (e.directed) path.setAttribute('marker-end', `url(#${this.marker(markers, color)})`);
      edgeLayer.append(path);
      for (const [key, other] of [[a.key, b.key], [b.key, a.key]] as const) {
        (this.incident.get(key) ?? this.incident.set(key, []).get(key)!).push(path);
        (this.neighbours.get(key) ?? this.neighbours.set(key, new Set()).get(key)!).add(other);
      }
    }
    const nodeLayer = svg('g', { class: 'nodes' });
    for (const n of nodes) {
      const circle = svg('circle', { class: n.highlight ? 'node focus' : 'node', cx: n.x, cy: n.y, r: n.r, fill: n.color, 'data-key': n.key });
      nodeLayer.append(circle);
      this.nodeEls.set(n.key, circle);
      if (n.inner) {
        const t = svg('text', { class: 'inner', x: n.x, y: n.y, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
        t.textContent = n.inner;
        nodeLayer.append(t);
      }
    }
    this.world.replaceChildren(edgeLayer, nodeLayer);
    this.applyZoom();
  }

  private marker(markers: Map<string, string>, color: string): string {
    let id = markers.get(color);
    if (!id) {
      id = `arrow-${markers.size}`;
      markers.set(color, id);
      const m = svg('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, markerUnits: 'userSpaceOnUse', orient: 'auto' });
      m.append(svg('path', { d: 'M0,1 L10,5 L0,9 z', fill: color }));
      this.defs.append(m);
    }
    return id;
  }

  private applyZoom(): void {
    const { k, x, y } = this.zoom;
    this.world.setAttribute('transform', `translate(${x},${y}) scale(${k})`);
    this.placeLabels();
  }

  private scheduleLabels(): void {
    if (this.labelFrame) return;
    this.labelFrame = requestAnimationFrame(() => {
      this.labelFrame = 0;
      this.placeLabels();
    });
  }

  /** Measure and place every label in screen space, then draw them. */
  private placeLabels(): void {
    const { k, x, y } = this.zoom;
    const screen = (n: { x: number; y: number }) => ({ x: n.x * k + x, y: n.y * k + y });
    this.obstacles = this.overlayRects(this.container.getBoundingClientRect());
    const visible = this.scene.nodes.map((n) => ({ n, ...screen(n), r: n.r * k }))
      .filter((p) => p.x + p.r >= 0 && p.y + p.r >= 0 && p.x - p.r <= this.size.width && p.y - p.r <= this.size.height);
    const requests = visible.map(({ n, x: sx, y: sy, r }) => ({ key: n.key, text: n.label, x: sx, y: sy, r, priority: n.priority + (n.highlight ? 1e9 : 0), side: n.side, badge: n.badge }));
    for (const note of this.scene.notes ?? []) requests.push({ key: note.key, text: note.text, ...screen(note), r: 0, priority: note.priority, side: 'auto', badge: undefined });
    this.placed = placeLabels(requests, {
      width: this.size.width,
      height: this.size.height,
      measure: (t) => this.measure.text(t),
      lineHeight: this.measure.lineHeight,
      nodes: visible.map((p) => ({ key: p.n.key, x: p.x, y: p.y, r: p.r })),
      obstacles: this.obstacles,
    });
    const notes = new Set((this.scene.notes ?? []).map((n) => n.key));
    this.labelLayer.replaceChildren(...this.placed.map((l) => {
      const text = svg('text', { class: notes.has(l.key) ? 'label note' : 'label', x: l.x, y: l.y + this.measure.ascent });
      if (!notes.has(l.key)) text.setAttribute('data-key', l.key);
      const name = document.createElementNS(SVG, 'tspan');
      name.textContent = l.text;
      if (l.badge !== undefined) {
        const badge = svg('tspan', { class: 'badge' });
        badge.textContent = l.badge;
        if (l.badgeFirst) text.append(badge, ' ', name);
        else text.append(name, ' ', badge);
      } else text.append(name);
      return text;
    }));
  }

  // --- pointer ---------------------------------------------------------------------------------

  private bindPointer(): void {
    const root = this.root;
    root.addEventListener('wheel', (e) => {
      e.preventDefault();
      const rect = root.getBoundingClientRect();
      const px = e.clientX - rect.left;
      const py = e.clientY - rect.top;
      const k = Math.min(8, Math.max(0.25, this.zoom.k * Math.exp(-e.deltaY * 0.0015)));
      const f = k / this.zoom.k;
      this.zoom = { k, x: px - (px - this.zoom.x) * f, y: py - (py - this.zoom.y) * f };
      this.world.setAttribute('transform', `translate(${this.zoom.x},${this.zoom.y}) scale(${k})`);
      this.hideTooltip();
      this.scheduleLabels();
    }, { passive: false });
    root.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      this.drag = { x: e.clientX, y: e.clientY, zx: this.zoom.x, zy: this.zoom.y, moved: false };
    });
    root.addEventListener('pointermove', (e) => {
      if (this.drag && (e.buttons & 1)) {
        const dx = e.clientX - this.drag.x;
        const dy = e.clientY - this.drag.y;
        if (!this.drag.moved && Math.hypot(dx, dy) < 4) return;
        if (!this.drag.moved) root.setPointerCapture(e.pointerId);
        this.drag.moved = true;
        this.zoom = { ...this.zoom, x: this.drag.zx + dx, y: this.drag.zy + dy };
        this.world.setAttribute('transform', `translate(${this.zoom.x},${this.zoom.y}) scale(${this.zoom.k})`);
        this.hideTooltip();
        this.scheduleLabels();
        return;
      }
      this.hover(keyOf(e.target));
    });
    root.addEventListener('pointerleave', () => this.hover(undefined));
    root.addEventListener('pointerup', () => {
      if (this.drag?.moved) setTimeout(() => (this.drag = null), 0);
      else this.drag = null;
    });
    root.addEventListener('click', (e) => {
      if (this.drag?.moved) return;
      const key = keyOf(e.target);
      if (key === undefined) return;
      if ((e.target as Element).closest('.badge')) this.handlers.badge(key);
      else this.handlers.click(key);
    });
    root.addEventListener('dblclick', (e) => {
      if (keyOf(e.target) === undefined) this.resetZoom();
    });
  }

  private hovered: string | undefined;

  /** Highlight a node's edges and neighbours and show its full name and details. */
  private hover(key: string | undefined): void {
    if (key === this.hovered) return;
    this.hovered = key;
    for (const el of this.root.querySelectorAll('.hl')) el.classList.remove('hl');
    const node = key === undefined ? undefined : this.byKey.get(key);
    this.root.classList.toggle('hovering', node !== undefined);
    if (!node) return this.hideTooltip();
    this.nodeEls.get(node.key)?.classList.add('hl');
    for (const p of this.incident.get(node.key) ?? []) p.classList.add('hl');
    for (const other of this.neighbours.get(node.key) ?? []) this.nodeEls.get(other)?.classList.add('hl');
    for (const t of this.labelLayer.querySelectorAll('text[data-key]')) {
      const k = t.getAttribute('data-key')!;
      if (k === node.key || this.neighbours.get(node.key)?.has(k)) t.classList.add('hl');
    }
    const title = document.createElement('strong');
    title.textContent = node.label;
    this.tooltip.replaceChildren(title, ...(node.detail ?? []).map((line) => {
      const div = document.createElement('div');
      div.textContent = line;
      return div;
    }));
    const { k, x, y } = this.zoom;
    const sx = node.x * k + x;
    const sy = node.y * k + y;
    this.tooltip.classList.remove('hidden');
    const w = this.tooltip.offsetWidth;
    const h = this.tooltip.offsetHeight;
    const r = node.r * k + 10;
    // Beside the node if there is room, else below or above it: never over the node itself.
    const spots = [
      { left: sx + r, top: sy - h / 2 }, { left: sx - r - w, top: sy - h / 2 },
      { left: sx - w / 2, top: sy + r }, { left: sx - w / 2, top: sy - r - h },
    ];
    const fits = (p: { left: number; top: number }) => p.left >= 4 && p.top >= 4 && p.left + w <= this.size.width - 4 && p.top + h <= this.size.height - 4;
    const spot = spots.find(fits) ?? spots[2]!;
    this.tooltip.style.left = `${Math.min(this.size.width - w - 4, Math.max(4, spot.left))}px`;
    this.tooltip.style.top = `${Math.min(this.size.height - h - 4, Math.max(4, spot.top))}px`;
  }

  private hideTooltip(): void {
    this.tooltip.classList.add('hidden');
  }
}

function keyOf(target: EventTarget | null): string | undefined {
  const el = (target as Element | null)?.closest?.('[data-key]');
  return el?.getAttribute('data-key') ?? undefined;
}

/** An edge from circle to circle; directed edges bend a little so a pair in both directions shows two. */
function edgePath(a: SceneNode, b: SceneNode, directed: boolean): string {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  if (!directed) {
    const ux = dx / len;
    const uy = dy / len;
    return `M${a.x + ux * a.r},${a.y + uy * a.r}L${b.x - ux * b.r},${b.y - uy * b.r}`;
  }
  const bend = Math.min(40, len * 0.12);
  const cx = (a.x + b.x) / 2 - (dy / len) * bend;
  const cy = (a.y + b.y) / 2 + (dx / len) * bend;
  const sLen = Math.hypot(cx - a.x, cy - a.y) || 1;
  const tLen = Math.hypot(b.x - cx, b.y - cy) || 1;
  const sx = a.x + ((cx - a.x) / sLen) * a.r;
  const sy = a.y + ((cy - a.y) / sLen) * a.r;
  const tx = b.x - ((b.x - cx) / tLen) * (b.r + 1.5);
  const ty = b.y - ((b.y - cy) / tLen) * (b.r + 1.5);
  return `M${sx},${sy}Q${cx},${cy} ${tx},${ty}`;
}
