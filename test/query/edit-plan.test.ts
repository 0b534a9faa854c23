import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Core } from '../../src/core/index.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { isIdentifier, occurrences } from '../../src/query/edit-plan/occurrences.ts';
import { depthRollup, predictEdit } from '../../src/query/edit-plan/predict-edit.ts';
import { planRename, RenameInputError, type RenameSite } from '../../src/query/edit-plan/rename.ts';
import { renamedId, renameTargets, verifyRename } from '../../src/query/edit-plan/verify.ts';

const traversal = coreTraversal(await Core.load());

/** Sources of a two-file TypeScript module and a Python class, as the graph below describes them. */
const SOURCES: Record<string, string> = {
  'src/a.ts': [
    '// greet says hello',
    'export function greet(name: string): string {',
    "  return 'greet ' + name;",
    '}',
    'export function twice(n: string) { return greet(n) + greet(n); }',
    '',
  ].join('\n'),
  'src/b.ts': [
    "import { greet as hi, greet } from './a';",
    'export function main() {',
    "  greet('x');",
    "  hi('y');",
    '  /* greet',
    '     greet */ greet(`${greet("z")}`);',
    '}',
    '',
  ].join('\n'),
  'py/zoo.py': [
    'class Animal:',
    '    def speak(self):',
    '        return "..."',
    '',
    'class Dog(Animal):',
    '    def speak(self):  # speak louder',
    '        return "woof"',
    '',
  ].join('\n'),
};

function doc(sources = SOURCES): GraphDocument {
  const nodes: GraphNode[] = [];
  const links: GraphLink[] = [];
  const node = (id: string, label: string, kind: GraphNode['kind'], file: string, line: number, col: number, end: number, language = file.endsWith('.py') ? 'python' : 'typescript') =>
    nodes.push({ id, label, kind, file_type: 'code', source_file: file, source_location: `L${line}`, language, span: { start_line: line, start_col: col, end_line: end, end_col: 1 } });
  const link = (source: string, target: string, relation: string, line: number, confidence: GraphLink['confidence'] = 'EXTRACTED') =>
    links.push({ source, target, relation, confidence, confidence_score: 1, source_file: source.split('#')[0]!, source_location: `L${line}` });
  node('src/a.ts', 'a.ts', 'file', 'src/a.ts', 1, 0, 6);
  node('src/a.ts#greet', 'greet', 'function', 'src/a.ts', 2, 7, 4);
  node('src/a.ts#twice', 'twice', 'function', 'src/a.ts', 5, 7, 5);
  node('src/b.ts', 'b.ts', 'file', 'src/b.ts', 1, 0, 8);
  node('src/b.ts#main', 'main', 'function', 'src/b.ts', 2, 7, 7);
  node('src/c.ts#boot', 'boot', 'function', 'src/c.ts', 1, 0, 3);
  node('py/zoo.py', 'zoo.py', 'file', 'py/zoo.py', 1, 0, 8);
  node('py/zoo.py#Animal', 'Animal', 'class', 'py/zoo.py', 1, 0, 3);
  node('py/zoo.py#Animal.speak', 'Animal.speak', 'method', 'py/zoo.py', 2, 4, 3);
  node('py/zoo.py#Dog', 'Dog', 'class', 'py/zoo.py', 5, 0, 7);
  node('py/zoo.py#Dog.speak', 'Dog.speak', 'method', 'py/zoo.py', 6, 4, 7);
  link('src/a.ts', 'src/a.ts#greet', 'contains', 2);
  link('src/a.ts', 'src/a.ts#twice', 'contains', 5);
  link('src/a.ts#twice', 'src/a.ts#greet', 'calls', 5);
  link('src/b.ts', 'src/b.ts#main', 'contains', 2);
  link('src/b.ts', 'src/a.ts', 'imports', 1);
  link('src/b.ts', 'src/a.ts#greet', 'imports_from', 1);
  link('src/b.ts#main', 'src/a.ts#greet', 'calls', 3);
  link('src/c.ts#boot', 'src/b.ts#main', 'calls', 2);
  link('py/zoo.py', 'py/zoo.py#Animal', 'contains', 1);
  link('py/zoo.py', 'py/zoo.py#Dog', 'contains', 5);
  link('py/zoo.py#Animal', 'py/zoo.py#Animal.speak', 'method', 2);
  link('py/zoo.py#Dog', 'py/zoo.py#Dog.speak', 'method', 6);
  link('py/zoo.py#Dog', 'py/zoo.py#Animal', 'inherits', 5);
  void sources;
  return { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [], built_at_commit: null };
}

const engine = new QueryEngine(doc(), traversal);
const id = (key: string) => engine.ix.g.idOf.get(key)!;
const read = (file: string) => SOURCES[file];

/** Apply sites to the sources as an agent's script would: right to left per line, each checked to hold the old name. */
function apply(sources: Record<string, string>, sites: RenameSite[]): Record<string, string> {
  const out = { ...sources };
  const byFile = new Map<string, RenameSite[]>();
  for (const s of sites) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
  for (const [file, list] of byFile) {
    const lines = out[file]!.split('\n');
    for (const s of [...list].sort((a, b) => b.line - a.line || b.col - a.col)) {
      const line = lines[s.line - 1]!;
      assert.equal(line.slice(s.col - 1, s.col - 1 + s.old.length), s.old, `${file}:${s.line}:${s.col} holds ${s.old}`);
      lines[s.line - 1] = line.slice(0, s.col - 1) + s.to + line.slice(s.col - 1 + s.old.length);
    }
    out[file] = lines.join('\n');
  }
  return out;
}

test('occurrences() tells code from comments and strings, by language family', () => {
  const ts = "// foo\nconst a = foo(1); /* foo\n foo */ const s = 'foo' + \"x\\\"foo\" + `t ${foo(2)} foo`;\nfoobar(); _foo; $foo; foo";
  assert.deepEqual(occurrences(ts, 'foo', 'typescript').map((o) => `${o.line}:${o.col}:${o.where}`), [
    '1:4:comment', '2:11:code', '2:22:comment', '3:2:comment', '3:20:string', '3:31:string', '3:43:code', '3:51:string', '4:23:code',
  ]);
  const py = '# foo\ndef foo():\n    """foo\n    doc"""\n    return "#" + foo()  # foo\n';
  assert.deepEqual(occurrences(py, 'foo', 'python').map((o) => `${o.line}:${o.col}:${o.where}`), ['1:3:comment', '2:5:code', '3:8:string', '5:18:code', '5:27:comment']);
  assert.deepEqual(occurrences('x := `foo` + foo() // foo\n', 'foo', 'go').map((o) => o.where), ['string', 'code', 'comment']);
  assert.deepEqual(occurrences("fn f<'a>(x: &'a str) { foo(x) } // foo", 'foo', 'rust').map((o) => o.where), ['code', 'comment']);
  assert.deepEqual(occurrences('nothing here', 'foo', 'typescript'), []);
  assert.ok(isIdentifier('grandTotal', 'typescript') && isIdentifier('$el', 'javascript') && isIdentifier('straße', 'python'));
  assert.ok(!isIdentifier('1st', 'typescript') && !isIdentifier('a-b', 'python') && !isIdentifier('$el', 'python') && !isIdentifier('', 'go'));
});

test('planRename() finds the definition, every edge site and every other use, with exact columns', () => {
  const plan = planRename(engine, id('src/a.ts#greet'), 'welcome', read);
  const at = (s: RenameSite) => `${s.file}:${s.line}:${s.col}`;
  assert.deepEqual(plan.edits.map(at), ['src/a.ts:2:17', 'src/a.ts:5:43', 'src/a.ts:5:54', 'src/b.ts:1:10', 'src/b.ts:1:23', 'src/b.ts:3:3', 'src/b.ts:6:15', 'src/b.ts:6:24']);
  assert.equal(plan.edits[0]!.reason, 'definition');
  assert.equal(plan.edits[0]!.confidence, 1);
  assert.equal(plan.edits.find((s) => at(s) === 'src/b.ts:1:10')!.reason, 'import');
  // The second greet on an edge's line and the uses on lines no edge names are found by reading the file.
  assert.equal(plan.edits.find((s) => at(s) === 'src/b.ts:6:15')!.reason, 'use in a file that refers to greet');
  assert.deepEqual(plan.review.map((s) => `${at(s)} ${s.reason}`), [
    'src/a.ts:1:4 in a comment', 'src/a.ts:3:11 in a string literal (a by-name use?)', 'src/b.ts:5:6 in a comment', 'src/b.ts:6:6 in a comment',
  ]);
  assert.equal(plan.files, 2);
  assert.equal(plan.affected, 3); // twice, main and b.ts (boot calls main, not greet)
  assert.equal(plan.confidence, 'medium');
  for (const s of [...plan.edits, ...plan.review]) assert.ok(s.confidence >= 0 && s.confidence <= 1);
  // Applying every located site leaves no whole-word greet in either file.
  const renamed = apply(SOURCES, [...plan.edits, ...plan.review.filter((s) => s.col > 0)]);
  for (const file of ['src/a.ts', 'src/b.ts']) assert.doesNotMatch(renamed[file]!, /\bgreet\b/, file);
  assert.match(renamed['src/b.ts']!, /import \{ welcome as hi, welcome \}/);
});

test('planRename() of a member lists overriding members and same-name tokens for review, and collisions make it low', () => {
  const plan = planRename(engine, id('py/zoo.py#Dog.speak'), 'bark', read);
  assert.deepEqual(plan.edits.map((s) => `${s.line}:${s.col} ${s.reason}`), ['6:9 definition']);
  const review = plan.review.map((s) => `${s.line}:${s.col} ${s.reason}`);
  assert.ok(review.includes('2:9 Animal.speak overrides or implements the same member: rename it too, or the override breaks'), review.join('\n'));
  assert.ok(review.includes('6:25 in a comment'), review.join('\n'));
  const clash = planRename(engine, id('src/a.ts#greet'), 'twice', read);
  assert.equal(clash.confidence, 'low');
  assert.ok(clash.review.some((s) => s.reason === "twice already exists here: 'twice' would collide with it" && s.line === 5), JSON.stringify(clash.review));
});

test('planRename() refuses a bad new name, the same name, a file and an unreadable definition', () => {
  const v = id('src/a.ts#greet');
  assert.throws(() => planRename(engine, v, 'greet', read), (e: unknown) => e instanceof RenameInputError && /'to' is the current name/.test(e.message));
  assert.throws(() => planRename(engine, v, '2greet', read), /not an identifier in typescript/);
  assert.throws(() => planRename(engine, v, 'gr eet', read), /not an identifier/);
  assert.throws(() => planRename(engine, id('py/zoo.py#Dog.speak'), '$bark', read), /not an identifier in python/);
  assert.throws(() => planRename(engine, id('src/a.ts'), 'x', read), /it is a file/);
  assert.throws(() => planRename(engine, v, 'welcome', () => undefined), /its file src\/a.ts cannot be read/);
});

test('predictEdit(): delete breaks every dependent, signature spares bare imports, visibility only other files', () => {
  const v = id('src/a.ts#greet');
  const label = (list: Array<{ node: number; depth: number }>) => list.map((h) => `${h.depth}:${engine.ix.label(h.node)}`).sort();
  const del = predictEdit(engine, v, 'delete', 3);
  assert.deepEqual(label(del.willBreak), ['1:b.ts', '1:main', '1:twice', '2:boot']);
  assert.deepEqual(del.review, []);
  assert.equal(del.willBreak.find((h) => h.depth === 2)!.reason, 'depends on main, which breaks');
  assert.match(del.willBreak.find((h) => engine.ix.label(h.node) === 'main')!.reason, /^calls greet, which is deleted$/);
  const sig = predictEdit(engine, v, 'signature', 3);
  assert.deepEqual(label(sig.willBreak), ['1:main', '1:twice']);
  assert.deepEqual(label(sig.review), ['1:b.ts', '2:boot']);
  assert.match(sig.review[0]!.reason, /imports greet but does not use it here/);
  const vis = predictEdit(engine, v, 'visibility', 3);
  assert.deepEqual(label(vis.willBreak), ['1:b.ts', '1:main']);
  assert.deepEqual(label(vis.review), ['2:boot']);
  assert.equal(depthRollup(del.willBreak), '1h: 3, 2h: 1');
  // A type folds its members in: deleting Animal breaks its subclass; a further hop names the dependent it needs.
  const base = predictEdit(engine, id('py/zoo.py#Animal'), 'delete', 3);
  assert.equal(base.foldedMembers, 1);
  assert.deepEqual(label(base.willBreak), ['1:Dog']);
  assert.match(base.willBreak[0]!.reason, /^inherits from Animal, which is deleted$/);
  const far = predictEdit(engine, id('src/a.ts#greet'), 'signature', 1);
  assert.deepEqual(label(far.willBreak), ['1:main', '1:twice']);
});

test('verifyRename() passes a complete rename and names what a partial one leaves', () => {
  const v = id('src/a.ts#greet');
  const plan = planRename(engine, v, 'welcome', read);
  assert.equal(renamedId('src/a.ts#greet', 'greet', 'welcome'), 'src/a.ts#welcome');
  assert.equal(renamedId('py/zoo.py#Dog.speak', 'Dog', 'Hound'), 'py/zoo.py#Hound.speak');
  assert.deepEqual(renameTargets(engine, 'speak').map((u) => engine.ix.node(u).id), ['py/zoo.py#Animal.speak', 'py/zoo.py#Dog.speak']);
  assert.deepEqual(renameTargets(engine, 'speak', { file: 'zoo' }).length, 2);
  assert.deepEqual(renameTargets(engine, 'speak', { id: 'py/zoo.py#Dog.speak' }).length, 1);
  const renamedDoc = (): GraphDocument => {
    const d = doc();
    const map = (s: string) => (s === 'src/a.ts#greet' ? 'src/a.ts#welcome' : s);
    d.nodes = d.nodes.map((n) => (n.id === 'src/a.ts#greet' ? { ...n, id: 'src/a.ts#welcome', label: 'welcome' } : n));
    d.links = d.links.map((l) => ({ ...l, source: map(l.source), target: map(l.target) }));
    return d;
  };
  const after = new QueryEngine(renamedDoc(), traversal);
  const all = apply(SOURCES, [...plan.edits, ...plan.review.filter((s) => s.col > 0)]);
  const ok = verifyRename(engine, after, [v], 'greet', 'welcome', (f) => all[f]);
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.deepEqual(ok.checks.map((c) => c.ok), [true, true, true]);
  // Edits only: the comment and string mentions are noted, not failed.
  const edits = apply(SOURCES, plan.edits);
  const noted = verifyRename(engine, after, [v], 'greet', 'welcome', (f) => edits[f]);
  assert.equal(noted.ok, true);
  assert.match(noted.checks[1]!.details.join('\n'), /4 mention\(s\) in comments or strings/);
  // One call left behind: a dangling reference with its file:line:col.
  const partial = apply(SOURCES, plan.edits.filter((s) => !(s.file === 'src/b.ts' && s.line === 3)));
  const bad = verifyRename(engine, after, [v], 'greet', 'welcome', (f) => partial[f]);
  assert.equal(bad.ok, false);
  assert.equal(bad.checks[1]!.summary, "1 code reference(s) to 'greet' left (dangling)");
  assert.deepEqual(bad.checks[1]!.details.slice(0, 1), ['src/b.ts:3:3']);
  // The definition not renamed, and an edge lost.
  const lost = doc();
  lost.links = lost.links.filter((l) => !(l.source === 'src/b.ts#main' && l.relation === 'calls'));
  const unrenamed = verifyRename(engine, new QueryEngine(lost, traversal), [v], 'greet', 'welcome', (f) => all[f]);
  assert.equal(unrenamed.ok, false);
  assert.match(unrenamed.checks[0]!.details.join('\n'), /src\/a.ts#greet is still defined/);
  const fewer = renamedDoc();
  fewer.links = fewer.links.filter((l) => !(l.source === 'src/b.ts#main' && l.relation === 'calls'));
  const edgesBad = verifyRename(engine, new QueryEngine(fewer, traversal), [v], 'greet', 'welcome', (f) => all[f]);
  assert.deepEqual(edgesBad.checks[2]!.details, ['the graph has 12 edges, 13 before', 'welcome in calls: 1, greet had 2']);
});
