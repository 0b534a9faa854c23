import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ELLIPSIS, overlappingPairs, overlaps, placeLabels, shorten, type LabelRequest, type Rect } from '../../src/explorer/labels.ts';

// Label placement: whatever the scene, placed labels never overlap each other, another node's
// circle or an overlay, and never leave the canvas; a label that does not fit whole is shortened
// with an ellipsis, never clipped.

const measure = (text: string): number => [...text].length * 7;
const LINE = 15;

const arbScene = fc.record({
  width: fc.integer({ min: 120, max: 900 }),
  height: fc.integer({ min: 80, max: 700 }),
  nodes: fc.array(fc.record({
    x: fc.double({ min: 0, max: 1, noNaN: true }),
    y: fc.double({ min: 0, max: 1, noNaN: true }),
    r: fc.double({ min: 0, max: 20, noNaN: true }),
    text: fc.string({ minLength: 1, maxLength: 60 }),
    priority: fc.double({ min: 0, max: 100, noNaN: true }),
    side: fc.constantFrom(undefined, 'left', 'right', 'above', 'below', 'auto'),
    badge: fc.constantFrom(undefined, '+3', '−'),
  }), { maxLength: 60 }),
  obstacles: fc.array(fc.record({ x: fc.nat(400), y: fc.nat(300), w: fc.integer({ min: 1, max: 200 }), h: fc.integer({ min: 1, max: 60 }) }), { maxLength: 3 }),
});

function square(n: { x: number; y: number; r: number }): Rect {
  return { x: n.x - n.r, y: n.y - n.r, w: 2 * n.r, h: 2 * n.r };
}

test('placeLabels(): no overlaps, nothing past the canvas, circles and overlays kept clear, shortened not clipped', () => {
  fc.assert(fc.property(arbScene, (scene) => {
    const requests: LabelRequest[] = scene.nodes.map((n, i) => ({
      key: `n${i}`, text: n.text, x: n.x * scene.width, y: n.y * scene.height, r: n.r, priority: n.priority, side: n.side as LabelRequest['side'], badge: n.badge,
    }));
    const placed = placeLabels(requests, { width: scene.width, height: scene.height, measure, lineHeight: LINE, nodes: requests.map((r) => ({ key: r.key, x: r.x, y: r.y, r: r.r })), obstacles: scene.obstacles, gap: 2 });
    assert.deepEqual(overlappingPairs(placed), []);
    for (const l of placed) {
      assert.ok(l.x >= 2 && l.y >= 2 && l.x + l.w <= scene.width - 2 && l.y + l.h <= scene.height - 2, `label ${l.key} leaves the canvas (or its 2-pixel margin)`);
      for (const r of requests) if (r.key !== l.key) assert.ok(!overlaps(l, square(r)), `label ${l.key} covers node ${r.key}`);
      for (const o of scene.obstacles) assert.ok(!overlaps(l, o), `label ${l.key} under an overlay`);
      const drawn = l.badge === undefined ? l.text : l.badgeFirst ? `${l.badge} ${l.text}` : `${l.text} ${l.badge}`;
      assert.equal(l.w, Math.ceil(measure(drawn)), 'the box is the measured text');
      if (l.truncated) {
        assert.ok(l.text.endsWith(ELLIPSIS));
        assert.ok(l.full.startsWith(l.text.slice(0, -1)), `'${l.text}' is a prefix of '${l.full}'`);
      } else assert.equal(l.text, l.full);
    }
    assert.equal(new Set(placed.map((l) => l.key)).size, placed.length);
  }), { numRuns: 300 });
});

test('placeLabels(): the first label gets its preferred side whole; a label wider than the canvas is shortened', () => {
  const nodes = [{ key: 'a', x: 100, y: 50, r: 5 }, { key: 'b', x: 100, y: 100, r: 5 }];
  const placed = placeLabels(
    [{ key: 'a', text: 'left side', x: 100, y: 50, r: 5, priority: 2, side: 'left' }, { key: 'b', text: 'x'.repeat(80), x: 100, y: 100, r: 5, priority: 1 }],
    { width: 300, height: 150, measure, lineHeight: LINE, nodes },
  );
  const a = placed.find((l) => l.key === 'a')!;
  assert.equal(a.text, 'left side');
  assert.ok(a.x + a.w <= 100 - 5, 'left of its node');
  const b = placed.find((l) => l.key === 'b')!;
  assert.ok(b.truncated && b.w <= 300 && b.text.endsWith(ELLIPSIS));
  assert.equal(b.full, 'x'.repeat(80));
});

test('shorten() keeps a prefix, drops a dangling separator and adds one ellipsis', () => {
  assert.equal(shorten('src/router/reg-exp-router', 11), 'src/router…');
  assert.equal(shorten('Context.header', 8), 'Context…');
  assert.equal(shorten('😀😀😀😀', 2), '😀😀…');
});
