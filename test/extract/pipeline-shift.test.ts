import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExtract, type ExtractSummary } from '../../src/extract/pipeline.node.ts';
import { lineMap, positionFreeShape } from '../../src/extract/line-shift.ts';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { patchGraphText, stringifyGraph } from '../../src/extract/outputs/graph-json.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import { copyFixture } from './pipeline-fixture.ts';

/** Update `outDir`, extract the same tree fresh, and require byte-identical graph.json and graph.cbor. */
async function updateEqualsFull(root: string, outDir: string, label: string): Promise<{ upd: ExtractSummary; doc: GraphDocument }> {
  const upd = await runExtract({ root, outDir, workers: 0, incremental: true });
  const fullOut = join(root, `out-full-${label}`);
  await runExtract({ root, outDir: fullOut, workers: 0 });
  const a = readFileSync(join(outDir, 'graph.json'), 'utf8');
  const b = readFileSync(join(fullOut, 'graph.json'), 'utf8');
  if (a !== b) {
    const la = a.split('\n');
    const lb = b.split('\n');
    assert.fail(`${label}: update differs from full extract\nonly in update: ${la.filter((l) => !lb.includes(l)).slice(0, 4).join('\n')}\nonly in full: ${lb.filter((l) => !la.includes(l)).slice(0, 4).join('\n')}`);
  }
  assert.ok(readFileSync(join(outDir, 'graph.cbor')).equals(readFileSync(join(fullOut, 'graph.cbor'))), `${label}: graph.cbor differs`);
  assert.equal(readFileSync(join(outDir, 'GRAPH_REPORT.md'), 'utf8'), readFileSync(join(fullOut, 'GRAPH_REPORT.md'), 'utf8'), `${label}: report differs`);
  rmSync(fullOut, { recursive: true, force: true });
  return { upd, doc: JSON.parse(a) as GraphDocument };
}

function edit(root: string, rel: string, change: (text: string) => string): void {
  const abs = join(root, rel);
  const before = readFileSync(abs, 'utf8');
  const after = change(before);
  assert.notEqual(after, before, `edit of ${rel} changes it`);
  writeFileSync(abs, after);
}

/** Insert `text` as a new line before the first line matching `at`. */
const insertBefore = (at: RegExp, text: string) => (src: string): string => {
  const lines = src.split('\n');
  const k = lines.findIndex((l) => at.test(l));
  assert.ok(k >= 0, `a line matches ${at}`);
  lines.splice(k, 0, text);
  return lines.join('\n');
};

test('position-only edits take the positions path and still equal a full extract byte for byte', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out-update');
    assert.equal((await runExtract({ root: fx.dir, outDir: out, workers: 0 })).mode, 'full');
    // Blank lines at the top (every line of the file moves), a statement inside a body (lines after
    // it move), in two files at once; router.ts is imported by other files.
    edit(fx.dir, 'src/core/router.ts', (t) => `\n\n\n${t}`);
    edit(fx.dir, 'src/util/strings.ts', insertBefore(/^\s+return normalizePath\(path\)/, '  void 0;'));
    const one = await updateEqualsFull(fx.dir, out, 'shift-1');
    assert.equal(one.upd.linkMode, 'positions');
    assert.equal(one.upd.parsed, 2);
    const router = one.doc.nodes.find((n) => n.id === 'src/core/router.ts#Router');
    assert.ok(router?.span && router.span.start_line > 3, 'the Router node moved down');
    // Links whose source_file is the edited file carry the new lines.
    const fromRouter = one.doc.links.filter((l) => l.source_file === 'src/core/router.ts');
    assert.ok(fromRouter.length > 0);
    const routerText = readFileSync(join(fx.dir, 'src/core/router.ts'), 'utf8').split('\n');
    for (const l of fromRouter) {
      const line = Number(l.source_location.slice(1));
      assert.ok(line >= 4 && line <= routerText.length, `${l.source} -> ${l.target} at ${l.source_location} lies in the moved file`);
    }
    // Again on top of a positions-only update (the chain must hold), then a no-op.
    edit(fx.dir, 'src/core/router.ts', (t) => t.replace(/^\n/, ''));
    const two = await updateEqualsFull(fx.dir, out, 'shift-2');
    assert.equal(two.upd.linkMode, 'positions');
    assert.equal((await runExtract({ root: fx.dir, outDir: out, workers: 0, incremental: true })).linkMode, 'reused');
  } finally {
    fx.cleanup();
  }
});

test('an edit to an export other files use relinks, and their edges follow', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out-update');
    const first = await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    assert.equal(first.mode, 'full');
    const before = JSON.parse(readFileSync(join(out, 'graph.json'), 'utf8')) as GraphDocument;
    const into = (doc: GraphDocument, id: string) => doc.links.filter((l) => l.target === id && l.source_file !== 'src/util/strings.ts');
    const used = into(before, 'src/util/strings.ts#splitPath');
    assert.ok(used.length > 0, 'other files use splitPath');
    // Rename the export (definition only): its users' edges to it must go away.
    edit(fx.dir, 'src/util/strings.ts', (t) => t.replace('export function splitPath(', 'export function splitPathRenamed('));
    const { upd, doc } = await updateEqualsFull(fx.dir, out, 'export');
    assert.equal(upd.linkMode, 'full');
    assert.equal(into(doc, 'src/util/strings.ts#splitPath').length, 0, 'no edge into the vanished export');
    assert.ok(doc.nodes.some((n) => n.id === 'src/util/strings.ts#splitPathRenamed'));
    // A body edit that adds a call (not just positions) relinks as well.
    edit(fx.dir, 'src/util/strings.ts', insertBefore(/^\s+return normalizePath\(path\)/, '  splitPathRenamed("/a");'));
    assert.equal((await updateEqualsFull(fx.dir, out, 'call')).upd.linkMode, 'full');
  } finally {
    fx.cleanup();
  }
});

test('a graph.cbor not written by the run of the manifest is not trusted', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out-update');
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    rmSync(join(out, '.graph-state.json'));
    edit(fx.dir, 'src/core/router.ts', (t) => `\n${t}`);
    const { upd } = await updateEqualsFull(fx.dir, out, 'state');
    assert.equal(upd.linkMode, 'full');
  } finally {
    fx.cleanup();
  }
});

test('positionFreeShape ignores positions only; lineMap refuses a split line', async () => {
  const src = 'export class A {\n  constructor() { f(); g(); }\n}\nfunction f() {}\nfunction g() {}\n';
  const base = await extractFileFacts({ path: 'a.ts', source: src, language: 'typescript' });
  const moved = await extractFileFacts({ path: 'a.ts', source: `\n\n${src}`, language: 'typescript' });
  assert.equal(positionFreeShape(base), positionFreeShape(moved));
  const map = lineMap(base, moved);
  assert.ok(map);
  for (const [a, b] of map) assert.equal(b, a + 2);
  // The two calls on line 2 end up on different lines: no single new line for old line 2.
  const split = await extractFileFacts({ path: 'a.ts', source: src.replace('f(); g();', 'f();\n    g();'), language: 'typescript' });
  assert.equal(lineMap(base, split), null);
  // A new call is not a position change.
  const called = await extractFileFacts({ path: 'a.ts', source: src.replace('g(); }', 'g(); f(); }'), language: 'typescript' });
  assert.notEqual(positionFreeShape(base), positionFreeShape(called));
  // Moving the constructor out of the class body changes what linking sees.
  const outside = await extractFileFacts({ path: 'a.ts', source: 'function f() {}\n' + src, language: 'typescript' });
  assert.notEqual(positionFreeShape(base), positionFreeShape(outside));
});

test('patchGraphText rewrites only the given records and equals a full serialization', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out');
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    const text = readFileSync(join(out, 'graph.json'), 'utf8');
    const doc = JSON.parse(text) as GraphDocument;
    const n = doc.nodes.length - 1;
    const m = doc.links.length - 1;
    doc.nodes[0]!.source_location = 'L999';
    doc.nodes[n]!.span = { start_line: 7, start_col: 0, end_line: 8, end_col: 1 };
    doc.links[m]!.source_location = 'L998';
    doc.graph.name = 'renamed';
    doc.built_at_commit = 'abc';
    const patched = patchGraphText(text, doc, [0, n], [m]);
    assert.equal(patched, stringifyGraph(doc));
    // Records not listed keep their old text: listing too few is visible.
    assert.notEqual(patchGraphText(text, doc, [0], [m]), stringifyGraph(doc));
    // A text of another shape, or a record that is not where it should be, is refused.
    assert.equal(patchGraphText(text.replace('\n', ''), doc, [0], []), null);
    const swapped = { ...doc, nodes: [doc.nodes[1]!, doc.nodes[0]!, ...doc.nodes.slice(2)] };
    assert.equal(patchGraphText(text, swapped, [0], []), null);
  } finally {
    fx.cleanup();
  }
});
