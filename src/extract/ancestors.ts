/**
 * Parents, grandparents and preceding siblings of many nodes of one tree in one forward walk.
 * `Node.parent` and `Node.previousNamedSibling` in tree-sitter walk down from the root, O(depth)
 * per call, so asking them for every definition of a deeply nested file is quadratic; a tree
 * cursor moved forward (next sibling, first child, up) visits each node at most once for all of
 * them. Browser-safe.
 */
import type { Node, TreeCursor } from 'web-tree-sitter';

/** What precedes a node among its siblings. */
export interface Preceding {
  /** The named siblings right before it whose types were asked for (comments, attributes), nearest last. */
  nodes: readonly Node[];
  /** No named sibling precedes it. */
  first: boolean;
}

/** A node's parent and grandparent (null above the root), and what precedes it, its parent and its grandparent. */
export interface Surroundings {
  parent: Node | null;
  grandparent: Node | null;
  before: readonly [Preceding, Preceding, Preceding];
}

const NOTHING: Preceding = { nodes: [], first: true };
const NONE: Surroundings = { parent: null, grandparent: null, before: [NOTHING, NOTHING, NOTHING] };
/**
 * Preceding siblings listed per node, nearest kept (a doc comment is one node a line for `//`
 * docs, then attributes): enough for any doc comment (docs are capped at 1,000 characters).
 */
const MAX_PRECEDING = 1000;

/** The run of listed siblings before a node, nearest first: shared between siblings (O(1) a step). */
interface Run { node: Node; prev: Run | null }

/** A Preceding whose `nodes` are made from its run when asked (most never are). */
interface RunPreceding extends Preceding { run: Run }

function precedingOf(run: Run): RunPreceding {
  let nodes: Node[] | undefined;
  return {
    run,
    first: false,
    get nodes(): readonly Node[] {
      if (!nodes) {
        nodes = [];
        for (let r: Run | null = run; r && nodes.length < MAX_PRECEDING; r = r.prev) nodes.push(r.node);
        nodes.reverse();
      }
      return nodes;
    },
  };
}
const AFTER_OTHER: Preceding = { nodes: [], first: false };

interface Level { node: Node; before: Preceding }

/**
 * Node id -> surroundings, for each of `targets` (nodes of the tree under `root`). `precedingTypes`:
 * the sibling types `before` lists (others only end a run of them).
 */
export function surroundingsOf(root: Node, targets: readonly Node[], precedingTypes: ReadonlySet<string> = new Set()): Map<number, Surroundings> {
  const out = new Map<number, Surroundings>();
  if (!targets.length) return out;
  const sorted = [...targets].sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const cursor = root.walk();
  try {
    // The nodes from `root` down to the cursor's node.
    const path: Level[] = [{ node: root, before: NOTHING }];
    const found = (k: number): Surroundings => ({
      parent: k > 0 ? path[k - 1]!.node : null,
      grandparent: k > 1 ? path[k - 2]!.node : null,
      before: [path[k]!.before, k > 0 ? path[k - 1]!.before : NOTHING, k > 1 ? path[k - 2]!.before : NOTHING],
    });
    for (const t of sorted) {
      if (out.has(t.id)) continue;
      const s = t.startIndex;
      const e = t.endIndex;
      // Forward (later siblings) or up until the cursor's node contains the target.
      for (;;) {
        const top = path[path.length - 1]!;
        if (top.node.startIndex <= s && e <= top.node.endIndex) break;
        if (path.length > 1 && top.node.endIndex <= s) {
          const next = nextContaining(cursor, s, e, after(top.before, top.node, precedingTypes), precedingTypes);
          if (next) { path[path.length - 1] = next; break; }
        }
        if (path.length === 1) break;
        cursor.gotoParent();
        path.pop();
      }
      // A node of the same range as its parent may be the parent of the last target found.
      let k = path.length - 1;
      while (k > 0 && path[k]!.node.id !== t.id && path[k]!.node.startIndex === s && path[k]!.node.endIndex === e) k--;
      if (path[k]!.node.id === t.id) {
        out.set(t.id, found(k));
        continue;
      }
      // Down through the children that contain it.
      let hit = false;
      while (!hit && cursor.gotoFirstChild()) {
        const level = containing(cursor, s, e) ? { node: cursor.currentNode, before: NOTHING } : nextContaining(cursor, s, e, passed(cursor, NOTHING, precedingTypes), precedingTypes);
        if (!level) { cursor.gotoParent(); break; }
        path.push(level);
        hit = level.node.id === t.id;
      }
      out.set(t.id, hit ? found(path.length - 1) : NONE);
    }
  } finally {
    cursor.delete();
  }
  return out;
}

function containing(cursor: TreeCursor, s: number, e: number): boolean {
  return cursor.startIndex <= s && e <= cursor.endIndex;
}

/** `before` with `node` appended to its run. */
function extended(before: Preceding, node: Node): Preceding {
  return precedingOf({ node, prev: (before as Partial<RunPreceding>).run ?? null });
}

/** What precedes the sibling after `node`, given what precedes `node`. */
function after(before: Preceding, node: Node, types: ReadonlySet<string>): Preceding {
  if (!node.isNamed) return before;
  return types.has(node.type) ? extended(before, node) : AFTER_OTHER;
}

/** `after` for the cursor's node (materialized only when it is of a listed type). */
function passed(cursor: TreeCursor, before: Preceding, types: ReadonlySet<string>): Preceding {
  if (!cursor.nodeIsNamed) return before;
  return types.has(cursor.nodeType) ? extended(before, cursor.currentNode) : AFTER_OTHER;
}

/**
 * Moves to the first later sibling that contains [s, e) (`before`: what precedes the next sibling)
 * and returns it; null (the cursor left on some later sibling) when none does.
 */
function nextContaining(cursor: TreeCursor, s: number, e: number, before: Preceding, types: ReadonlySet<string>): Level | null {
  while (cursor.gotoNextSibling()) {
    if (containing(cursor, s, e)) return { node: cursor.currentNode, before };
    if (cursor.startIndex > s) return null;
    before = passed(cursor, before, types);
  }
  return null;
}
