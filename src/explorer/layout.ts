/**
 * Where the graph view puts its nodes, in canvas pixels for a given canvas size: a force layout
 * for maps (communities, a community's members), columns for a focused symbol (callers left,
 * callees right), rings for impact and a line for a path. Deterministic (no randomness), pure,
 * and cheap for the few hundred nodes a view holds.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  width: number;
  height: number;
}

export interface MapNode {
  /** Circle radius in pixels. */
  r: number;
  /** Width of the node's label, so nodes keep room beside them for it (0: no room kept). */
  labelWidth: number;
}

export interface MapLink {
  a: number;
  b: number;
  /** Attraction strength in (0, 1]. */
  strength: number;
}

const MARGIN = 14;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/**
 * A force simulation in canvas pixels (d3-force's model: charge between all nodes, springs along
 * links, a pull toward the centre, collision of each circle plus its label's room), scaled to
 * fill the canvas, then overlaps pushed apart. Nodes come most important first: they start
 * nearest the centre.
 */
export function mapLayout(nodes: readonly MapNode[], links: readonly MapLink[], box: Box, lineHeight: number, ticks = 300): Point[] {
  const n = nodes.length;
  const cx = box.width / 2;
  const cy = box.height / 2;
  if (n === 0) return [];
  if (n === 1) return [{ x: cx, y: cy }];
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const vx = new Float64Array(n);
  const vy = new Float64Array(n);
  const spacing = Math.sqrt((box.width * box.height) / n);
  for (let i = 0; i < n; i++) {
    const radius = spacing * 0.35 * Math.sqrt(i + 0.5);
    xs[i] = cx + radius * Math.cos(i * GOLDEN_ANGLE);
    ys[i] = cy + radius * Math.sin(i * GOLDEN_ANGLE);
  }
  const count = new Float64Array(n);
  for (const l of links) {
    count[l.a]++;
    count[l.b]++;
  }
  const springs = links.filter((l) => l.a !== l.b).map((l) => ({
    a: l.a, b: l.b,
    // A node with many links would be pulled into a knot: each spring weakens with the busier end.
    strength: l.strength / Math.min(count[l.a]!, count[l.b]!),
    bias: count[l.a]! / (count[l.a]! + count[l.b]!),
    length: nodes[l.a]!.r + nodes[l.b]!.r + spacing * (0.9 - 0.5 * l.strength),
  }));
  const charge = -spacing * spacing * 0.05;
  const aspect = box.width / Math.max(1, box.height);
  const extents = nodes.map((node) => boxExtents(node, box, lineHeight));
  // Large nodes are pulled to the middle harder, so the crowd of small ones does not push them to the edge.
  const rMax = Math.max(...nodes.map((node) => node.r));
  const gravity = nodes.map((node) => 0.04 * (1 + (2 * node.r) / rMax));
  let alpha = 1;
  const decay = 1 - Math.pow(0.001, 1 / ticks);
  for (let tick = 0; tick < ticks; tick++) {
    alpha += (0 - alpha) * decay;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        let ex = xs[j]! - xs[i]!;
        let ey = ys[j]! - ys[i]!;
        let d2 = ex * ex + ey * ey;
        if (d2 < 1e-6) {
          ex = ((i * 7 + j) % 5) - 2 || 1;
          ey = ((i + j * 3) % 5) - 2 || 1;
          d2 = ex * ex + ey * ey;
        }
        const f = (charge * alpha) / d2;
        vx[i] += ex * f;
        vy[i] += ey * f;
        vx[j] -= ex * f;
        vy[j] -= ey * f;
      }
    }
    for (const l of springs) {
      const ex = xs[l.b]! + vx[l.b]! - xs[l.a]! - vx[l.a]!;
      const ey = ys[l.b]! + vy[l.b]! - ys[l.a]! - vy[l.a]!;
      const d = Math.sqrt(ex * ex + ey * ey) || 1;
      const f = ((d - l.length) / d) * alpha * l.strength;
      vx[l.b] -= ex * f * l.bias;
      vy[l.b] -= ey * f * l.bias;
      vx[l.a] += ex * f * (1 - l.bias);
      vy[l.a] += ey * f * (1 - l.bias);
    }
    for (let i = 0; i < n; i++) {
      // Toward the centre, weaker along the canvas's long side, so the map fills it.
      vx[i] += ((cx - xs[i]!) * gravity[i]! * alpha) / Math.max(1, aspect);
      vy[i] += (cy - ys[i]!) * gravity[i]! * alpha * Math.min(1, aspect);
      vx[i] *= 0.6;
      vy[i] *= 0.6;
      xs[i] += vx[i]!;
      ys[i] += vy[i]!;
    }
    if (tick % 3 === 0 || tick > ticks - 20) collide(xs, ys, extents, 0.7);
  }
  const out = fitToBox(xs, ys, nodes, box);
  separate(out, nodes, box, lineHeight);
  return out;
}

interface Extent {
  left: number;
  right: number;
  up: number;
}

/** The room a node keeps free around its centre: its circle, plus its label on the right. */
function boxExtents(node: MapNode, box: Box, lineHeight: number): Extent {
  const room = Math.min(node.labelWidth, box.width * 0.3);
  const r = node.r + 3;
  return { left: r, right: r + (room > 0 ? room + 6 : 0), up: Math.max(r, room > 0 ? lineHeight / 2 + 2 : 0) };
}

/**
 * One pass of pushing overlapping rooms apart (`strength` of the overlap each), along the axis
 * on which the two are already further apart for their size, so a crowd spreads both ways.
 */
function collide(xs: Float64Array, ys: Float64Array, extents: readonly Extent[], strength: number): boolean {
  let moved = false;
  const n = xs.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const ea = extents[i]!;
      const eb = extents[j]!;
      const overlapX = Math.min(xs[i]! + ea.right, xs[j]! + eb.right) - Math.max(xs[i]! - ea.left, xs[j]! - eb.left);
      if (overlapX <= 0) continue;
      const overlapY = Math.min(ys[i]! + ea.up, ys[j]! + eb.up) - Math.max(ys[i]! - ea.up, ys[j]! - eb.up);
      if (overlapY <= 0) continue;
      moved = true;
      const cdx = xs[j]! + (eb.right - eb.left) / 2 - xs[i]! - (ea.right - ea.left) / 2;
      const cdy = ys[j]! - ys[i]!;
      const horizontal = Math.abs(cdx) / (ea.left + ea.right + eb.left + eb.right) > Math.abs(cdy) / (2 * (ea.up + eb.up));
      const push = ((horizontal ? overlapX : overlapY) / 2) * strength + 0.25;
      const dir = (horizontal ? cdx : cdy) > 0 || ((horizontal ? cdx : cdy) === 0 && i < j) ? 1 : -1;
      if (horizontal) {
        xs[i] -= dir * push;
        xs[j] += dir * push;
      } else {
        ys[i] -= dir * push;
        ys[j] += dir * push;
      }
    }
  }
  return moved;
}

/** Scale positions into the canvas, keeping each circle inside with a margin (ratio of the axes kept within 2:1). */
function fitToBox(xs: Float64Array, ys: Float64Array, nodes: readonly MapNode[], box: Box): Point[] {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    minX = Math.min(minX, xs[i]!);
    maxX = Math.max(maxX, xs[i]!);
    minY = Math.min(minY, ys[i]!);
    maxY = Math.max(maxY, ys[i]!);
  }
  const rMax = Math.max(...nodes.map((n) => n.r));
  const pad = rMax + MARGIN;
  const sx = (box.width - 2 * pad) / Math.max(1e-9, maxX - minX);
  const sy = (box.height - 2 * pad) / Math.max(1e-9, maxY - minY);
  const s = Math.min(sx, sy);
  const scaleX = Math.min(sx, 2 * s);
  const scaleY = Math.min(sy, 2 * s);
  const offX = (box.width - (maxX - minX) * scaleX) / 2;
  const offY = (box.height - (maxY - minY) * scaleY) / 2;
  return Array.from(xs, (x, i) => ({ x: offX + (x - minX) * scaleX, y: offY + (ys[i]! - minY) * scaleY }));
}

/** Push overlapping rooms apart until none overlap (or 60 sweeps), clamped to the canvas. */
function separate(points: Point[], nodes: readonly MapNode[], box: Box, lineHeight: number): void {
  const xs = Float64Array.from(points, (p) => p.x);
  const ys = Float64Array.from(points, (p) => p.y);
  const sweeps = (extents: ReturnType<typeof boxExtents>[]): void => {
    for (let sweep = 0; sweep < 60; sweep++) {
      const moved = collide(xs, ys, extents, 1);
      for (let i = 0; i < points.length; i++) {
        const p = { x: xs[i]!, y: ys[i]! };
        clampCircle(p, nodes[i]!.r, box);
        xs[i] = p.x;
        ys[i] = p.y;
      }
      if (!moved) break;
    }
  };
  sweeps(nodes.map((node) => boxExtents(node, box, lineHeight)));
  // Rooms may not all fit; circles must: a last round keeps only the circles apart.
  sweeps(nodes.map((node) => boxExtents({ r: node.r, labelWidth: 0 }, box, lineHeight)));
  points.forEach((p, i) => {
    p.x = xs[i]!;
    p.y = ys[i]!;
  });
}

function clampCircle(p: Point, r: number, box: Box): void {
  p.x = Math.min(box.width - r - MARGIN / 2, Math.max(r + MARGIN / 2, p.x));
  p.y = Math.min(box.height - r - MARGIN / 2, Math.max(r + MARGIN / 2, p.y));
}

/** How many rows of labelled nodes a column holds on a canvas this tall. */
export function columnCapacity(height: number, lineHeight: number): number {
  return Math.max(3, Math.floor((height - 2 * MARGIN) / (lineHeight + 5)));
}

/**
 * Columns around a focused node: column 0 is the centre, negative columns its callers (and their
 * callers), positive its callees. Each column gets room for its labels (`labelWidth`: on the outer
 * side of its nodes) and a gap for the edges fanning in; when the canvas is too narrow the label
 * room shrinks, never the gaps. Inside a column rows follow the given order, centred vertically.
 */
export function columnLayout(columns: ReadonlyMap<number, readonly string[]>, box: Box, labelWidth: ReadonlyMap<number, number>): Map<string, Point> {
  const cols = [...columns.keys()];
  const left = cols.filter((c) => c < 0).map((c) => -c).sort((a, b) => a - b);
  const right = cols.filter((c) => c > 0).sort((a, b) => a - b);
  const gap = (d: number) => (d === 1 ? 90 : 56);
  const room = (c: number) => labelWidth.get(c) ?? 0;
  const gaps = [...left, ...right].reduce((sum, d) => sum + gap(d), 0);
  const rooms = left.reduce((sum, d) => sum + room(-d), 0) + right.reduce((sum, d) => sum + room(d), 0);
  const avail = box.width - 2 * MARGIN;
  const fit = rooms > 0 ? Math.max(0.25, Math.min(1, (avail - gaps) / rooms)) : 1;
  const offsets = (depths: number[], sign: -1 | 1): Map<number, number> => {
    const out = new Map<number, number>();
    let at = 0;
    for (const d of depths) {
      at += gap(d);
      out.set(sign * d, at);
      at += room(sign * d) * fit;
    }
    return out;
  };
  const leftAt = offsets(left, -1);
  const rightAt = offsets(right, 1);
  const need = (m: Map<number, number>) => (m.size ? Math.max(...[...m].map(([c, o]) => o + room(c) * fit)) : 0);
  const needLeft = need(leftAt);
  const needRight = need(rightAt);
  // The centre sits in the middle of what is left over, so neither side is cut.
  const slack = Math.max(0, avail - needLeft - needRight);
  const cx = MARGIN + needLeft + slack / 2;
  const out = new Map<string, Point>();
  for (const [col, keys] of columns) {
    const x = col === 0 ? cx : col < 0 ? cx - leftAt.get(col)! : cx + rightAt.get(col)!;
    const spacing = Math.min(34, (box.height - 2 * MARGIN) / Math.max(1, keys.length));
    const top = box.height / 2 - (spacing * (keys.length - 1)) / 2;
    keys.forEach((key, row) => out.set(key, { x, y: keys.length === 1 ? box.height / 2 : top + row * spacing }));
  }
  return out;
}

/** Concentric rings by hop distance around the centre; inside a ring nodes are spread evenly. */
export function ringLayout(rings: readonly (readonly string[])[], box: Box): Map<string, Point> {
  const cx = box.width / 2;
  const cy = box.height / 2;
  const out = new Map<string, Point>();
  const outer = Math.max(1, rings.length - 1);
  const maxR = Math.min(box.width, box.height) / 2 - MARGIN - 20;
  rings.forEach((keys, ring) => {
    const radius = ring === 0 && keys.length === 1 ? 0 : (maxR * (ring === 0 ? 0.3 : ring)) / outer;
    keys.forEach((key, i) => {
      const angle = (2 * Math.PI * i) / keys.length - Math.PI / 2 + ring * 0.4;
      out.set(key, { x: cx + radius * Math.cos(angle), y: cy + radius * Math.sin(angle) });
    });
  });
  return out;
}

/** A path from left to right on a gentle zig-zag (labels above the high nodes, below the low ones). */
export function lineLayout(keys: readonly string[], box: Box): Map<string, Point> {
  const out = new Map<string, Point>();
  const step = keys.length > 1 ? (box.width - 2 * MARGIN - 80) / (keys.length - 1) : 0;
  keys.forEach((key, i) => out.set(key, { x: keys.length > 1 ? MARGIN + 40 + i * step : box.width / 2, y: box.height / 2 + (i % 2 ? 28 : -28) }));
  return out;
}
