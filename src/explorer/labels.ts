/**
 * Label placement for the graph view: every label is a measured box put next to its node where it
 * overlaps no other label, no other node and no overlay, and stays inside the canvas. A label
 * that does not fit whole is shortened with an ellipsis (the full name is on hover and in the side
 * panel); one that does not fit even shortened is left out. Pure: the text measure is passed in,
 * so the same code is tested in Node and runs in the page.
 */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type LabelSide = 'right' | 'left' | 'above' | 'below' | 'auto';

export interface LabelRequest {
  key: string;
  text: string;
  /** Node centre and radius, in canvas pixels. */
  x: number;
  y: number;
  r: number;
  /** Higher is placed first (and so gets the best spot). */
  priority: number;
  /** The side tried first (columns of callers put theirs on the left). */
  side?: LabelSide;
  /** A short clickable mark kept whole at the label's outer end (before the text on the left side). */
  badge?: string;
}

export interface PlacedLabel extends Rect {
  key: string;
  /** What is drawn: the full text or a prefix ending in an ellipsis. */
  text: string;
  full: string;
  truncated: boolean;
  badge?: string;
  /** The badge is drawn before the text (a label left of its node). */
  badgeFirst?: boolean;
}

export interface PlaceOptions {
  width: number;
  height: number;
  /** Width of a text in pixels at the label font. */
  measure: (text: string) => number;
  /** Height of a label box. */
  lineHeight: number;
  /** Every node circle (labels avoid all but their own). */
  nodes: readonly { key: string; x: number; y: number; r: number }[];
  /** Overlays drawn on the canvas (legend, breadcrumbs). */
  obstacles?: readonly Rect[];
  /** Clear space kept around each box. */
  gap?: number;
  /** Shortest prefix worth showing before the ellipsis. */
  minChars?: number;
}

export const ELLIPSIS = '…';

/** Code-unit order: localeCompare would load the ICU collator on the first paint (~40 ms). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Do two boxes overlap (touching edges do not)? */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** A uniform grid of boxes, so a candidate is checked against its neighbours only. */
class BoxGrid {
  private readonly cells = new Map<number, { rect: Rect; owner: string }[]>();
  constructor(private readonly cell: number) {}

  private *keys(r: Rect): Generator<number> {
    const x0 = Math.floor(r.x / this.cell);
    const x1 = Math.floor((r.x + r.w) / this.cell);
    const y0 = Math.floor(r.y / this.cell);
    const y1 = Math.floor((r.y + r.h) / this.cell);
    for (let gx = x0; gx <= x1; gx++) for (let gy = y0; gy <= y1; gy++) yield (gx + 4096) * 8192 + gy + 4096;
  }

  add(rect: Rect, owner: string): void {
    for (const k of this.keys(rect)) {
      const list = this.cells.get(k);
      if (list) list.push({ rect, owner });
      else this.cells.set(k, [{ rect, owner }]);
    }
  }

  /** Does `rect` overlap any box not owned by `owner`? */
  hits(rect: Rect, owner: string): boolean {
    for (const k of this.keys(rect)) {
      for (const b of this.cells.get(k) ?? []) if (b.owner !== owner && overlaps(rect, b.rect)) return true;
    }
    return false;
  }
}

/** Label box origins around a node, in the order tried. */
function candidates(req: LabelRequest, w: number, h: number, pad: number): { x: number; y: number }[] {
  const { x, y, r } = req;
  const right = { x: x + r + pad, y: y - h / 2 };
  const left = { x: x - r - pad - w, y: y - h / 2 };
  const above = { x: x - w / 2, y: y - r - pad - h };
  const below = { x: x - w / 2, y: y + r + pad };
  const d = r * 0.7 + pad;
  const aboveRight = { x: x + d, y: y - d - h };
  const belowRight = { x: x + d, y: y + d };
  const aboveLeft = { x: x - d - w, y: y - d - h };
  const belowLeft = { x: x - d - w, y: y + d };
  if (req.side === 'left') return [left, aboveLeft, belowLeft, above, below];
  if (req.side === 'right') return [right, aboveRight, belowRight, above, below];
  if (req.side === 'above') return [above, aboveRight, aboveLeft, right, left, below];
  if (req.side === 'below') return [below, belowRight, belowLeft, right, left, above];
  return [right, left, above, below, aboveRight, belowRight, aboveLeft, belowLeft];
}

/** The text cut to `chars` characters plus an ellipsis (trailing spaces and separators dropped). */
export function shorten(text: string, chars: number): string {
  const cut = [...text].slice(0, chars).join('').replace(/[\s/.(,:#\u2013\u2014-]+$/u, '');
  return cut + ELLIPSIS;
}

/** Versions of a label from whole to the shortest allowed prefix, each about 15% shorter. */
function variants(text: string, minChars: number): string[] {
  const length = [...text].length;
  const out = [text];
  for (let chars = Math.min(length - 2, Math.floor(length * 0.85)); chars > minChars; chars = Math.floor(chars * 0.85)) out.push(shorten(text, chars));
  if (length > minChars + 1) out.push(shorten(text, minChars));
  return [...new Set(out)];
}

/**
 * Place labels greedily by priority. Returns the placed boxes (in canvas pixels, gap excluded);
 * labels that fit nowhere are absent.
 */
export function placeLabels(requests: readonly LabelRequest[], opts: PlaceOptions): PlacedLabel[] {
  const gap = opts.gap ?? 2;
  const minChars = opts.minChars ?? 6;
  const h = opts.lineHeight;
  const grid = new BoxGrid(48);
  for (const n of opts.nodes) grid.add({ x: n.x - n.r, y: n.y - n.r, w: 2 * n.r, h: 2 * n.r }, n.key);
  for (const o of opts.obstacles ?? []) grid.add(o, '');
  // The gap is kept from the canvas edge too: a glyph may overhang its advance box by a pixel.
  const inside = (r: Rect): boolean => r.x >= gap && r.y >= gap && r.x + r.w <= opts.width - gap && r.y + r.h <= opts.height - gap;
  const order = [...requests].sort((a, b) => b.priority - a.priority || compareText(a.key, b.key));
  const placed: PlacedLabel[] = [];
  for (const req of order) {
    if (!req.text) continue;
    const found = placeOne(req);
    if (found) {
      placed.push(found);
      grid.add({ x: found.x - gap, y: found.y - gap, w: found.w + 2 * gap, h: found.h + 2 * gap }, req.key);
    }
  }
  return placed;

  function placeOne(req: LabelRequest): PlacedLabel | undefined {
    const badgeFirst = req.badge !== undefined && req.side === 'left';
    const whole = (text: string): string => (req.badge === undefined ? text : badgeFirst ? `${req.badge} ${text}` : `${text} ${req.badge}`);
    for (const text of variants(req.text, minChars)) {
      const w = Math.ceil(opts.measure(whole(text)));
      for (const at of candidates(req, w, h, gap + 2)) {
        const box = { x: at.x, y: at.y, w, h };
        const padded = { x: box.x - gap, y: box.y - gap, w: w + 2 * gap, h: h + 2 * gap };
        if (!inside(box) || grid.hits(padded, req.key)) continue;
        const badge = req.badge === undefined ? {} : { badge: req.badge, badgeFirst };
        return { key: req.key, text, full: req.text, truncated: text !== req.text, ...badge, ...box };
      }
    }
    return undefined;
  }
}

/** Pairs of boxes that overlap (what the tests and the page's self-check look for). */
export function overlappingPairs(boxes: readonly (Rect & { key: string })[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) if (overlaps(boxes[i]!, boxes[j]!)) out.push([boxes[i]!.key, boxes[j]!.key]);
  }
  return out;
}
