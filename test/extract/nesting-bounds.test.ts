/**
 * Issue #16.6, bounded cost on adversarial code: definitions nested past MAX_NESTING (or with a
 * qualified name past MAX_QNAME_CHARS) are folded into their enclosing one with a note, so ids and
 * labels stay linear in the file's size; the helpers that replaced O(depth) tree walks (ancestor
 * predicates, nested type names) keep the facts of ordinary code as they were.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Node } from 'web-tree-sitter';
import { surroundingsOf } from '../../src/extract/ancestors.ts';
import { MAX_NESTING, MAX_QNAME_CHARS } from '../../src/extract/facts.ts';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { runtimeFor } from '../../src/extract/parser.ts';
import { partialExtraction } from '../../src/extract/phases/linked.ts';
import { linkSources } from './lang-harness.ts';

const nestedFunctions = (n: number): string =>
  Array.from({ length: n }, (_, i) => `function f${i}() {\n`).join('') + '}\n'.repeat(n);

test('4,000 nested functions: the first MAX_NESTING levels are kept, the rest folded with a note; facts stay linear in size', async () => {
  const source = nestedFunctions(4000);
  const f = await extractFileFacts({ path: 'nested.js', language: 'javascript', source });
  assert.equal(f.symbols.length, MAX_NESTING);
  assert.deepEqual(f.folded, { definitions: 4000 - MAX_NESTING, line: MAX_NESTING + 1 });
  const deepest = f.symbols[MAX_NESTING - 1]!;
  assert.equal(deepest.id, 'nested.js#' + Array.from({ length: MAX_NESTING }, (_, i) => `f${i}`).join('.'));
  assert.equal(deepest.span.end_line, 4000 * 2 - MAX_NESTING + 1, 'the deepest kept function spans the folded ones');
  // Ids carried the whole chain: 4,000 ids of up to 4,000 names (tens of MB) for an 80 KB file.
  assert.ok(JSON.stringify(f).length < source.length / 2, `facts of ${JSON.stringify(f).length} bytes`);
  assert.match(partialExtraction(f) ?? '', /^3968 definitions from line 33 nested deeper than 32 levels or named over 512 characters, folded into the enclosing one \(partially extracted\)$/);
});

test('calls inside folded definitions count as the deepest kept definition\'s', async () => {
  const source = nestedFunctions(40).replace('function f39() {\n', 'function f39() {\ntarget();\n') + 'function target() {}\n';
  const g = await linkSources({ 'a.js': source });
  const kept = 'a.js#' + Array.from({ length: MAX_NESTING }, (_, i) => `f${i}`).join('.');
  assert.ok(g.edges('calls').includes(`${kept} -> a.js#target`), g.edges('calls').join('\n'));
  assert.equal(g.nodes.filter((n) => n.kind === 'function').length, MAX_NESTING + 1);
});

test('a definition whose qualified name would pass MAX_QNAME_CHARS is folded with everything inside it', async () => {
  const long = 'C'.repeat(MAX_QNAME_CHARS + 1);
  const f = await extractFileFacts({
    path: 'a.ts', language: 'typescript',
    source: `class ${long} {\n  m() { helper(); }\n}\nclass Short { n() {} }\nfunction helper() {}\n`,
  });
  assert.deepEqual(f.symbols.map((s) => s.id), ['a.ts#Short', 'a.ts#Short.n', 'a.ts#helper']);
  assert.deepEqual(f.folded, { definitions: 2, line: 1 });
  assert.equal(f.calls.length, 1);
  assert.equal(f.calls[0]!.scope, -1, 'the call in the folded method counts as file level');
  assert.equal(f.typeRefs.length, 0, 'a folded class name is no type reference');
});

test('ordinary nesting keeps every definition and no note', async () => {
  const f = await extractFileFacts({ path: 'a.js', language: 'javascript', source: nestedFunctions(MAX_NESTING) });
  assert.equal(f.symbols.length, MAX_NESTING);
  assert.equal(f.folded, undefined);
  assert.equal(partialExtraction(f), undefined);
  assert.equal(partialExtraction({ syntaxErrors: [{ line: 3 }] }), 'syntax error at line 3 (partially extracted)');
  assert.equal(partialExtraction({ syntaxErrors: [{ line: 3 }], folded: { definitions: 1, line: 40 } }),
    'syntax error at line 3; 1 definition from line 40 nested deeper than 32 levels or named over 512 characters, folded into the enclosing one (partially extracted)');
});

test('surroundingsOf() gives every node of a tree the parent, grandparent and preceding comments tree-sitter gives', async () => {
  const source = [
    '// one', 'import { a } from "b"; /* two */ /* three */', 'export const o = { m() { return [1, (2), { k: () => x }] }, /** p */ p: function () {} };',
    'class A extends B { #f = 1; static { a } get g() { return this.#f } }', 'a', 'label: for (;;) { if (a) break label; else { ; } }',
    'const t = `x${y}z`; export default function () { try { a() } catch { } finally { } }', '',
  ].join('\n');
  const rt = await runtimeFor('typescript');
  const tree = rt.parser.parse(source)!;
  try {
    const all: Node[] = [];
    const c = tree.rootNode.walk();
    for (let more = true; more;) {
      all.push(c.currentNode);
      if (c.gotoFirstChild()) continue;
      while (!c.gotoNextSibling()) if (!c.gotoParent()) { more = false; break; }
    }
    c.delete();
    const found = surroundingsOf(tree.rootNode, [...all].reverse(), new Set(['comment']));
    for (const n of all) {
      const at = `${n.type} at ${n.startIndex}`;
      const s = found.get(n.id)!;
      assert.equal(s.parent?.id ?? null, n.parent?.id ?? null, `parent of ${at}`);
      assert.equal(s.grandparent?.id ?? null, n.parent?.parent?.id ?? null, `grandparent of ${at}`);
      const prev = n.previousNamedSibling;
      assert.equal(s.before[0].first, prev === null, `first of ${at}`);
      assert.equal(s.before[0].nodes.at(-1)?.id ?? null, prev?.type === 'comment' ? prev.id : null, `comment before ${at}`);
      assert.equal(s.before[1].nodes.at(-1)?.id ?? null, n.parent?.previousNamedSibling?.type === 'comment' ? n.parent.previousNamedSibling.id : null, `comment before the parent of ${at}`);
    }
    assert.ok(all.length > 150);
  } finally {
    tree.delete();
  }
});

test('nested type names give one type reference each (a.b.C, Outer.Inner, generic arguments)', async () => {
  const ts = await extractFileFacts({ path: 'a.ts', language: 'typescript', source: 'let x: a.b.C;\nlet y: Map<K, a.V>;\n' });
  assert.deepEqual(ts.typeRefs.map((r) => r.name.join('.')), ['a.b.C', 'Map', 'K', 'a.V']);
  const java = await extractFileFacts({ path: 'A.java', language: 'java', source: 'class A { Outer.Inner x; java.util.List<String> y; }\n' });
  // (as before: the parts of an inner scoped name, `java.util`, count on their own)
  assert.deepEqual(java.typeRefs.map((r) => r.name.join('.')), ['Outer.Inner', 'java.util.List', 'java', 'util', 'String']);
});

test('definitions found through ancestor predicates: class and object methods, Rust impl methods, C++ members', async () => {
  const ts = await extractFileFacts({
    path: 'a.ts', language: 'typescript',
    source: 'class A { m() {} }\nconst api = { get() {}, post: () => 1, n: 2 };\nconst plain = { a: 1 };\ncall({ x() {} });\n',
  });
  assert.deepEqual(ts.symbols.map((s) => `${s.kind} ${s.id}`), ['class a.ts#A', 'method a.ts#A.m', 'variable a.ts#api', 'method a.ts#api.get', 'method a.ts#api.post']);
  const rs = await extractFileFacts({ path: 'a.rs', language: 'rust', source: 'struct S;\nimpl S { fn new() -> S { S } }\nfn free() {}\n' });
  assert.deepEqual(rs.symbols.map((s) => `${s.kind} ${s.id}`), ['struct a.rs#S', 'method a.rs#S.new', 'function a.rs#free']);
  const cpp = await extractFileFacts({ path: 'a.h', language: 'cpp', source: 'class Shape {\npublic:\n  Shape();\n  virtual double area();\n};\n' });
  assert.deepEqual(cpp.symbols.map((s) => `${s.kind} ${s.id}`), ['class a.h#Shape', 'constructor a.h#Shape.Shape', 'method a.h#Shape.area']);
});

test('Ruby: require, include and calls along a receiver chain are read off each call', async () => {
  const f = await extractFileFacts({
    path: 'a.rb', language: 'ruby',
    source: "require 'json'\nclass A\n  include Comparable\n  def m\n    a.b(1).c(2)\n  end\nend\n",
  });
  assert.deepEqual(f.imports.map((i) => i.module), ['json']);
  assert.deepEqual(f.symbols.find((s) => s.id === 'a.rb#A')?.bases?.map((b) => `${b.relation} ${b.name.join('.')}`), ['mixes_in Comparable']);
  assert.deepEqual(f.calls.map((c) => JSON.stringify(c.callee)), [
    '{"k":"mem","o":{"k":"mem","o":{"k":"id","n":"a"},"n":"b"},"n":"c"}', '{"k":"mem","o":{"k":"id","n":"a"},"n":"b"}',
  ]);
});
