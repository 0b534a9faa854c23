import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { columnLayout, mapLayout, ringLayout, lineLayout } from '../../src/explorer/layout.ts';

// The view's layouts: inside the canvas, deterministic, and (for maps) circles apart.

const arbMap = fc.record({
  width: fc.integer({ min: 300, max: 1200 }),
  height: fc.integer({ min: 300, max: 900 }),
  radii: fc.array(fc.double({ min: 3, max: 20, noNaN: true }), { minLength: 1, maxLength: 40 }),
  links: fc.array(fc.tuple(fc.nat(39), fc.nat(39), fc.double({ min: 0.01, max: 1, noNaN: true })), { maxLength: 80 }),
});

test('mapLayout(): every circle inside the canvas, none overlapping, the same twice', () => {
  fc.assert(fc.property(arbMap, ({ width, height, radii, links }) => {
    const nodes = radii.map((r) => ({ r, labelWidth: 0 }));
    const ls = links.filter(([a, b]) => a < nodes.length && b < nodes.length).map(([a, b, strength]) => ({ a, b, strength }));
    const box = { width, height };
    const points = mapLayout(nodes, ls, box, 15, 120);
    assert.deepEqual(mapLayout(nodes, ls, box, 15, 120), points);
    points.forEach((p, i) => {
      const r = radii[i]!;
      assert.ok(Number.isFinite(p.x) && Number.isFinite(p.y));
      assert.ok(p.x - r >= 0 && p.x + r <= width && p.y - r >= 0 && p.y + r <= height, `node ${i} at ${p.x},${p.y} leaves ${width}x${height}`);
    });
    // Sparse enough to fit: no two circles overlap.
    const area = radii.reduce((s, r) => s + (2 * r + 6) ** 2, 0);
    if (area < (width * height) / 4) {
      for (let i = 0; i < points.length; i++) {
        for (let j = i + 1; j < points.length; j++) {
          const d = Math.hypot(points[i]!.x - points[j]!.x, points[i]!.y - points[j]!.y);
          assert.ok(d >= radii[i]! + radii[j]! - 0.5, `circles ${i} and ${j} overlap (${d.toFixed(1)})`);
        }
      }
    }
  }), { numRuns: 60 });
});

test('mapLayout(): linked nodes end up closer than unlinked ones', () => {
  // Two groups of five, linked inside; a group's members sit nearer each other than the other group.
  const nodes = Array.from({ length: 10 }, () => ({ r: 6, labelWidth: 0 }));
  const links = [];
  for (const base of [0, 5]) for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) links.push({ a: base + i, b: base + j, strength: 1 });
  const p = mapLayout(nodes, links, { width: 800, height: 600 }, 15);
  const d = (a: number, b: number) => Math.hypot(p[a]!.x - p[b]!.x, p[a]!.y - p[b]!.y);
  let inside = 0;
  let across = 0;
  for (let i = 0; i < 10; i++) for (let j = i + 1; j < 10; j++) (Math.floor(i / 5) === Math.floor(j / 5) ? (inside += d(i, j) / 20) : (across += d(i, j) / 25));
  assert.ok(inside < across * 0.7, `mean distance inside ${inside.toFixed(0)} vs across ${across.toFixed(0)}`);
});

test('columnLayout(): callers left of the centre, callees right, rows inside the canvas', () => {
  const columns = new Map<number, string[]>([[0, ['c']], [-1, ['a1', 'a2', 'a3']], [1, ['b1']], [-2, ['z']]]);
  const box = { width: 800, height: 400 };
  const p = columnLayout(columns, box, new Map([[-1, 120], [1, 100], [-2, 80]]));
  const cx = p.get('c')!.x;
  assert.ok(p.get('z')!.x < p.get('a1')!.x && p.get('a1')!.x < cx && p.get('b1')!.x > cx);
  assert.ok(p.get('a1')!.x - p.get('z')!.x >= 120, 'room for the callers\' labels between the columns');
  assert.ok(p.get('z')!.x - 80 >= 0 && p.get('b1')!.x + 100 <= 800, 'room for the outer labels inside the canvas');
  // Too narrow for every label: the rooms shrink, the order stays.
  const tight = columnLayout(columns, { width: 300, height: 400 }, new Map([[-1, 240], [1, 240], [-2, 240]]));
  assert.ok(tight.get('z')!.x < tight.get('a1')!.x && tight.get('a1')!.x < tight.get('c')!.x && tight.get('c')!.x < tight.get('b1')!.x);
  assert.ok(p.get('a1')!.y < p.get('a2')!.y && p.get('a2')!.y < p.get('a3')!.y);
  for (const q of p.values()) assert.ok(q.x >= 0 && q.x <= 800 && q.y >= 0 && q.y <= 400);
});

test('ringLayout() and lineLayout() keep every node inside the canvas', () => {
  const box = { width: 500, height: 300 };
  const rings = [['c'], Array.from({ length: 30 }, (_, i) => `a${i}`), Array.from({ length: 90 }, (_, i) => `b${i}`)];
  for (const q of ringLayout(rings, box).values()) assert.ok(q.x >= 0 && q.x <= 500 && q.y >= 0 && q.y <= 300);
  const line = lineLayout(['a', 'b', 'c', 'd'], box);
  assert.ok(line.get('a')!.x < line.get('b')!.x && line.get('c')!.x < line.get('d')!.x);
  for (const q of line.values()) assert.ok(q.x >= 0 && q.x <= 500 && q.y >= 0 && q.y <= 300);
});
