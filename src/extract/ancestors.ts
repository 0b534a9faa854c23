/**
 * Parents and grandparents of many nodes of one tree in one forward walk. `Node.parent` in
 * tree-sitter walks down from the root, O(depth) per call, so asking it for every captured node of
 * a deeply nested file is quadratic; a tree cursor moved forward (next sibling, first child, up)
 * visits each node at most once for all of them. Browser-safe.
 */
import type { Node } from 'web-tree-sitter';

/** The parent and grandparent of a node (null above the root). */
export type Ancestors = readonly [parent: Node | null, grandparent: Node | null];

const NONE: Ancestors = [null, null];

/** Node id -> its parent and grandparent, for each of `targets` (nodes of the tree under `root`). */
export function ancestorsOf(root: Node, targets: readonly Node[]): Map<number, Ancestors> {
  const out = new Map<number, Ancestors>();
  if (!targets.length) return out;
  const sorted = [...targets].sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const cursor = root.walk();
  try {
    // The nodes from `root` down to the cursor's node.
    const path: Node[] = [root];
    for (const t of sorted) {
      if (out.has(t.id)) continue;
      const s = t.startIndex;
      const e = t.endIndex;
      // Forward (later siblings) or up until the cursor's node contains the target.
      for (;;) {
        const top = path[path.length - 1]!;
        if (top.startIndex <= s && e <= top.endIndex) break;
        if (path.length > 1 && top.endIndex <= s && nextContaining(cursor, s, e)) {
          path[path.length - 1] = cursor.currentNode;
          break;
        }
        if (path.length === 1) break;
        cursor.gotoParent();
        path.pop();
      }
      // A node of the same range as its parent may be the parent of the last target found.
      let k = path.length - 1;
      while (k > 0 && path[k]!.id !== t.id && path[k]!.startIndex === s && path[k]!.endIndex === e) k--;
      if (path[k]!.id === t.id) {
        out.set(t.id, [k > 0 ? path[k - 1]! : null, k > 1 ? path[k - 2]! : null]);
        continue;
      }
      // Down through the children that contain it.
      let found = false;
      while (!found && cursor.gotoFirstChild()) {
        if (!containsTarget(cursor, s, e) && !nextContaining(cursor, s, e)) { cursor.gotoParent(); break; }
        const node = cursor.currentNode;
        path.push(node);
        found = node.id === t.id;
      }
      const n = path.length;
      out.set(t.id, found ? [n > 1 ? path[n - 2]! : null, n > 2 ? path[n - 3]! : null] : NONE);
    }
  } finally {
    cursor.delete();
  }
  return out;
}

function containsTarget(cursor: { startIndex: number; endIndex: number }, s: number, e: number): boolean {
  return cursor.startIndex <= s && e <= cursor.endIndex;
}

/** Moves to the first later sibling that contains [s, e); false (cursor moved to the last sibling) when none does. */
function nextContaining(cursor: { startIndex: number; endIndex: number; gotoNextSibling(): boolean }, s: number, e: number): boolean {
  while (cursor.gotoNextSibling()) {
    if (containsTarget(cursor, s, e)) return true;
    if (cursor.startIndex > s) return false;
  }
  return false;
}
