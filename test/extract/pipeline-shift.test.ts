import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExtract, type ExtractSummary } from '../../src/extract/pipeline.node.ts';
import { lineMap, positionFreeShape } from '../../src/extract/line-shift.ts';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { stringifyGraph } from '../../src/extract/outputs/graph-json.ts';
import { reuseGraphText } from '../../src/extract/outputs/graph-json-reuse.node.ts';
import type { GraphDocument, GraphLink } from '../../src/graph/model.ts';
import { KeptOutputs } from '../../src/extract/out/kept.node.ts';
import { assertSameOutputs, copyFixture } from './pipeline-fixture.ts';

/** Update `outDir`, extract the same tree fresh, and require byte-identical graph.json and graph.cbor. */
async function updateEqualsFull(root: string, outDir: string, label: string, kept?: KeptOutputs): Promise<{ upd: ExtractSummary; doc: GraphDocument }> {
  const upd = await runExtract({ root, outDir, workers: 0, incremental: true, ...(kept ? { kept } : {}) });
  const fullOut = join(root, `out-full-${label}`);
  await runExtract({ root, outDir: fullOut, workers: 0 });
  assertSameOutputs(outDir, fullOut, label);
  const a = readFileSync(join(outDir, 'graph.json'), 'utf8');
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

test('a keeper\'s positions-only updates reuse its last ranking and report parts, and still equal a full extract byte for byte', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out-update');
    const kept = new KeptOutputs();
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    // The keeper's first update relinks (an edit that changes facts): it ranks the graph itself.
    edit(fx.dir, 'src/util/strings.ts', (t) => `${t}\nexport function keeperAdded(): void {}\n`);
    assert.equal((await updateEqualsFull(fx.dir, out, 'keeper-relink', kept)).upd.linkMode, 'incremental');
    const ranked = kept.rank;
    assert.ok(ranked, 'the keeper keeps its ranking');
    edit(fx.dir, 'src/core/router.ts', (t) => `\n\n\n${t}`);
    edit(fx.dir, 'src/util/strings.ts', insertBefore(/^\s+return normalizePath\(path\)/, '  void 0;'));
    assert.equal((await updateEqualsFull(fx.dir, out, 'keeper-shift-1', kept)).upd.linkMode, 'positions');
    assert.equal(kept.rank?.communities, ranked.communities, 'the communities of the last ranking are reused');
    assert.equal(kept.rank?.report, ranked.report, 'the report parts of the last ranking are reused');
    assert.ok(ranked.report.gods && ranked.report.reading, 'the report filled its structure-only parts');
    const surprises = ranked.report.surprises?.rows;
    assert.ok(surprises, 'the report keeps its surprising connections');
    edit(fx.dir, 'src/core/router.ts', (t) => t.replace(/^\n/, ''));
    assert.equal((await updateEqualsFull(fx.dir, out, 'keeper-shift-2', kept)).upd.linkMode, 'positions');
    assert.equal(kept.rank?.report, ranked.report);
    assert.equal(kept.rank?.report.surprises?.rows, surprises, 'same confidences: the surprising connections are reused');
    // Facts change again: ranked afresh.
    edit(fx.dir, 'src/util/strings.ts', (t) => t.replace('keeperAdded', 'keeperRenamed'));
    assert.equal((await updateEqualsFull(fx.dir, out, 'keeper-relink-2', kept)).upd.linkMode, 'incremental');
    assert.notEqual(kept.rank?.report, ranked.report);
  } finally {
    fx.cleanup();
  }
});

test('the graph state is rewritten in place at a fixed size; an older or torn state only costs a full relink', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out-state');
    const state = join(out, '.graph-state.json');
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    const written = readFileSync(state);
    assert.equal(written.length, 512, 'fixed size');
    const parsed = JSON.parse(written.toString('utf8')) as { inputs_hash: string; link_cache?: string };
    assert.match(parsed.inputs_hash, /^sha256:/, 'the padding keeps it JSON');
    const inode = statSync(state).ino;
    // The unpadded form an older extractor wrote is read as well, and replaced once by the padded one.
    writeFileSync(state, JSON.stringify(parsed) + '\n');
    edit(fx.dir, 'src/core/router.ts', (t) => `\n${t}`);
    assert.equal((await updateEqualsFull(fx.dir, out, 'state-old')).upd.linkMode, 'positions', 'an unpadded state is understood');
    assert.equal(readFileSync(state).length, 512, 'then rewritten at the fixed size');
    const padded = statSync(state).ino;
    edit(fx.dir, 'src/core/router.ts', (t) => t.replace(/^\n/, ''));
    assert.equal((await updateEqualsFull(fx.dir, out, 'state-again')).upd.linkMode, 'positions');
    assert.equal(statSync(state).ino, padded, 'a fixed-size state is written in place (same file)');
    assert.notEqual(padded, inode, 'the unpadded file was replaced');
    // A torn state (a prefix of its JSON) is no state: the update links in full and still equals a full extract.
    writeFileSync(state, readFileSync(state).subarray(0, 20));
    edit(fx.dir, 'src/core/router.ts', (t) => `\n${t}`);
    assert.equal((await updateEqualsFull(fx.dir, out, 'state-torn')).upd.linkMode, 'full', 'a torn state sends the update down the full path');
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
    assert.equal(upd.linkMode, 'incremental', 'facts changed: only the files that read them are relinked');
    assert.ok(upd.relinked > 1 && upd.relinked < first.files, `relinked ${upd.relinked} of ${first.files} files`);
    assert.equal(into(doc, 'src/util/strings.ts#splitPath').length, 0, 'no edge into the vanished export');
    assert.ok(doc.nodes.some((n) => n.id === 'src/util/strings.ts#splitPathRenamed'));
    // A body edit that adds a call (not just positions) relinks as well.
    edit(fx.dir, 'src/util/strings.ts', insertBefore(/^\s+return normalizePath\(path\)/, '  splitPathRenamed("/a");'));
    assert.equal((await updateEqualsFull(fx.dir, out, 'call')).upd.linkMode, 'incremental');
  } finally {
    fx.cleanup();
  }
});

test('edits that change a by-name index or a parameter-type guess relink the files that consulted it', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out-update');
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    const linksFrom = (doc: GraphDocument, file: string, target: string) => doc.links.filter((l) => l.source_file === file && l.target === target);
    const step = async (label: string, check: (doc: GraphDocument) => void): Promise<void> => {
      const { upd, doc } = await updateEqualsFull(fx.dir, out, label);
      assert.equal(upd.linkMode, 'incremental', label);
      check(doc);
    };
    // Python methods by name: keeper.py's `animal.speak()` (receiver unknown) gains a candidate
    // defined in another file, which keeper.py never read.
    edit(fx.dir, 'py/tests/test_keeper.py', (t) => `${t}\n\nclass Parrot:\n    def speak(self):\n        return "hi"\n`);
    await step('method-by-name', (doc) => assert.equal(linksFrom(doc, 'py/zoo/keeper.py', 'py/tests/test_keeper.py#Parrot.speak').length, 1));
    // C/C++ global names: a bare call resolves once a definition appears in another file, and
    // becomes ambiguous when a second one does.
    edit(fx.dir, 'c/checksum.c', (t) => `${t}\nunsigned int use_helper(void) { return helper_q(); }\n`);
    await step('global-unresolved', (doc) => assert.equal(doc.links.filter((l) => l.source === 'c/checksum.c#use_helper').length, 0));
    edit(fx.dir, 'cpp/geometry.cpp', (t) => `${t}\nunsigned int helper_q() { return 1; }\n`);
    await step('global-one', (doc) => assert.equal(linksFrom(doc, 'c/checksum.c', 'cpp/geometry.cpp#helper_q').length, 1));
    edit(fx.dir, 'c/checksum.h', (t) => `${t}\nunsigned int helper_q() { return 2; }\n`);
    await step('global-two', (doc) => assert.equal(linksFrom(doc, 'c/checksum.c', 'cpp/geometry.cpp#helper_q')[0]?.confidence, 'AMBIGUOUS'));
    // Parameter-type guesses: an untyped `h` gets its type once three annotated `h` parameters in a
    // file it never read agree on one.
    const usesJson = (doc: GraphDocument) => doc.links.filter((l) => l.source === 'src/util/numbers.ts#useH' && l.target === 'src/context.ts#Context.json');
    edit(fx.dir, 'src/util/numbers.ts', (t) => `${t}\nexport function useH(h) {\n  return h.json({});\n}\n`);
    await step('guess-none', (doc) => assert.equal(usesJson(doc).length, 0));
    edit(fx.dir, 'src/app.ts', (t) => `${t}\nexport function h1(h: Context) {}\nexport function h2(h: Context) {}\nexport function h3(h: Context) {}\n`);
    await step('guess-made', (doc) => assert.equal(usesJson(doc).length, 1));
    // The annotations' type vanishes (renamed where it is defined): app.ts's contributions to the
    // guesses must be resolved again, and the guess goes.
    edit(fx.dir, 'src/context.ts', (t) => t.replace('export class Context ', 'export class ContextRenamed '));
    await step('guess-input-changed', (doc) => {
      assert.equal(usesJson(doc).length, 0);
      assert.equal(doc.links.filter((l) => l.source === 'src/util/numbers.ts#useH' && l.target.startsWith('src/context.ts#')).length, 0);
    });
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

test('reuseGraphText copies unchanged records, serializes the rest, and equals a full serialization', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out');
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    const bytes = readFileSync(join(out, 'graph.json'));
    const before = JSON.parse(bytes.toString('utf8')) as GraphDocument;
    const doc = JSON.parse(bytes.toString('utf8')) as GraphDocument;
    // Drop a node and two links, insert a new link in the middle, change one node's community.
    const dropLink = 3;
    doc.nodes.splice(1, 1);
    doc.links.splice(dropLink, 2);
    const added = { ...doc.links[5]!, relation: 'calls', source_location: 'L4242' } as GraphLink;
    doc.links.splice(6, 0, added);
    doc.nodes[4]!.community = 999;
    doc.graph.name = 'renamed';
    const nodeFrom = Int32Array.from(doc.nodes, (nd) => before.nodes.findIndex((b) => b.id === nd.id));
    nodeFrom[4] = -1;
    nodeFrom.fill(-1, 5, 9); // unchanged records may be serialized again too (a run of them)
    const linkFrom = Int32Array.from(doc.links, (l) => (l === added ? -1 : before.links.findIndex((b) => JSON.stringify(b) === JSON.stringify(l))));
    linkFrom.fill(-1, 7, 12);
    assert.ok([...linkFrom].filter((x) => x >= 0).length === doc.links.length - 6);
    const text = reuseGraphText(bytes, doc, nodeFrom, linkFrom);
    assert.ok(text, 'the previous text has the expected layout');
    assert.equal(Buffer.from(text).toString('utf8'), stringifyGraph(doc));
    // Records equal but for their community: copied up to the number (or serialized when the
    // community went away), each equal to a full serialization.
    const renumbered = new Uint8Array(doc.nodes.length);
    doc.nodes[2]!.community = 777;
    delete doc.nodes[3]!.community;
    doc.nodes[doc.nodes.length - 1]!.community = -3;
    for (const i of [2, 3, doc.nodes.length - 1]) renumbered[i] = 1;
    const patchedText = reuseGraphText(bytes, doc, nodeFrom, linkFrom, renumbered);
    assert.ok(patchedText);
    assert.equal(Buffer.from(patchedText).toString('utf8'), stringifyGraph(doc));
    assert.notEqual(Buffer.from(reuseGraphText(bytes, doc, nodeFrom, linkFrom)!).toString('utf8'), stringifyGraph(doc), 'without the flags the old numbers are copied');
    // Only the record's own community key is rewritten: not a nested one, not one inside a string.
    const tricky = JSON.parse(bytes.toString('utf8')) as GraphDocument;
    // (doc and span come before community in a record; extra keys after it)
    Object.assign(tricky.nodes[0]!, {
      doc: 'see ,"community":1, here', span: { start_line: 1, start_col: 0, end_line: 2, end_col: 0, community: 5 },
      aaa: ',"community":1,', meta: { community: tricky.nodes[0]!.community, list: [{ community: 2 }] },
    });
    const trickyBytes = Buffer.from(stringifyGraph(tricky));
    const renamed = JSON.parse(trickyBytes.toString('utf8')) as GraphDocument;
    renamed.nodes[0]!.community = 4242;
    const identity = Int32Array.from(renamed.nodes, (_, i) => i);
    const flags = new Uint8Array(renamed.nodes.length);
    flags[0] = 1;
    assert.equal(Buffer.from(reuseGraphText(trickyBytes, renamed, identity, Int32Array.from(renamed.links, (_, j) => j), flags)!).toString('utf8'), stringifyGraph(renamed));
    // A record that had no community of its own (flag 2), only a nested one: written anew with one.
    const bare = JSON.parse(bytes.toString('utf8')) as GraphDocument;
    delete bare.nodes[0]!.community;
    Object.assign(bare.nodes[0]!, { meta: { community: 3 } });
    const bareBytes = Buffer.from(stringifyGraph(bare));
    const given = JSON.parse(bareBytes.toString('utf8')) as GraphDocument;
    given.nodes[0]!.community = 11;
    const flag2 = new Uint8Array(given.nodes.length);
    flag2[0] = 2;
    assert.equal(Buffer.from(reuseGraphText(bareBytes, given, identity, Int32Array.from(given.links, (_, j) => j), flag2)!).toString('utf8'), stringifyGraph(given));
    // Copying a record that changed is visible; pointing at the wrong record is refused.
    const stale = Int32Array.from(nodeFrom);
    stale[4] = nodeFrom[4] === -1 ? before.nodes.findIndex((b) => b.id === doc.nodes[4]!.id) : stale[4]!;
    assert.notEqual(Buffer.from(reuseGraphText(bytes, doc, stale, linkFrom)!).toString('utf8'), stringifyGraph(doc));
    const wrong = Int32Array.from(linkFrom);
    wrong[0] = linkFrom[1]!;
    assert.equal(reuseGraphText(bytes, doc, nodeFrom, wrong), null);
    assert.equal(reuseGraphText(bytes.subarray(0, bytes.length - 1), doc, nodeFrom, linkFrom), null);
  } finally {
    fx.cleanup();
  }
});

test('lines moved in files with SQL (a migration, a query with an injection) take the positions path too', async () => {
  const fx = copyFixture();
  try {
    writeFileSync(join(fx.dir, 'schema.sql'), 'CREATE TABLE users (id int PRIMARY KEY, name text);\nCREATE TABLE posts (id int PRIMARY KEY, user_id int REFERENCES users(id));\nCREATE INDEX posts_user ON posts (user_id);\n');
    writeFileSync(join(fx.dir, 'src/db.ts'), [
      'declare const pool: { query(q: string): unknown };',
      'export function userByName(name: string) {',
      '  return pool.query(`SELECT id FROM users WHERE name = \'${name}\'`);',
      '}',
      'export function posts() { return pool.query(\'SELECT * FROM posts WHERE user_id = 1\'); }',
      'export function both() {',
      '  pool.query(\'SELECT id FROM users WHERE name = $1\');',
      '  return pool.query(\'SELECT id FROM posts WHERE id = 1\');',
      '}',
      '',
    ].join('\n'));
    const out = join(fx.dir, 'out-sql');
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    const first = JSON.parse(readFileSync(join(out, 'graph.json'), 'utf8')) as GraphDocument;
    const injected = first.links.find((l) => l.source === 'src/db.ts#userByName' && l.relation === 'reads_from');
    assert.match(String(injected?.injection), /^L3 /, 'the query edge quotes its line');
    edit(fx.dir, 'src/db.ts', (t) => `\n\n${t}`);
    edit(fx.dir, 'schema.sql', (t) => `-- users and their posts\n${t}`);
    const { upd, doc } = await updateEqualsFull(fx.dir, out, 'sql-shift');
    assert.equal(upd.linkMode, 'positions', 'an edit that only moves lines needs no relink, SQL or not');
    const moved = doc.links.find((l) => l.source === 'src/db.ts#userByName' && l.relation === 'reads_from');
    assert.match(String(moved?.injection), /^L5 /);
    assert.equal(moved?.source_location, 'L5');
    assert.match(String(doc.nodes.find((n) => n.id === 'src/db.ts#userByName')?.sql_injection), /^L5 /);
    // sql_checks holds one check per line, each with its own L<n>: all of them move.
    assert.equal(doc.nodes.find((n) => n.id === 'src/db.ts#both')?.sql_checks, 'L9 filter users name\nL10 filter posts id');
  } finally {
    fx.cleanup();
  }
});
