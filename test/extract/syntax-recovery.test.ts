/**
 * Issue #17.2: valid TypeScript that tree-sitter-typescript 0.23.2 (the newest on npm) rejects is
 * recovered by same-length rewrites around the error, so no definition or call after it is lost. Each
 * case is the shape found in hono or prisma; before the recovery each left a syntax error and (for
 * most) lost the definitions that follow it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import type { LanguageId } from '../../src/extract/languages.ts';
import { runtimeFor } from '../../src/extract/parser.ts';
import { recoverSyntax } from '../../src/extract/syntax-recovery.ts';

/** A file whose first part is the hard syntax and whose end holds `after()`, a function calling `target()`. */
function withTail(head: string): string {
  return `${head}\nexport function after(): void {\n  target()\n}\nfunction target(): void {}\n`;
}

async function facts(source: string, language: LanguageId = 'typescript') {
  return extractFileFacts({ path: 'src/a.ts', language, source });
}

const CASES: [string, string][] = [
  ['generic call signatures on consecutive lines (hono Get, types.ts)', 'interface Get<E> {\n  <K extends keyof E>(key: K): E[K]\n  <K extends string>(key: K): unknown\n}'],
  ['a generic call signature after a comment line, type parameters on the next line', 'export interface H<E> {\n  <I = {}>(h: I): [I]\n\n  // handler x2\n  <\n    I extends string,\n  >(h: I): I\n}'],
  ['generic call signatures in a type literal after `>`', 'type U = {\n  <T>(s: T): Promise<T>\n  <T = undefined>(): [T | undefined]\n}'],
  ['export type *', "export type * from './types'"],
  ['abstract override readonly', 'export abstract class A extends B {\n  abstract override readonly kind: string;\n  override abstract readonly id: string;\n}'],
  ['typeof import(...) as a type argument', "const mocked = vi.fn<typeof import('@internal/emitter')['emit']>();"],
  ['readonly import(...).T[] in an annotation', "type T = { readonly e?: readonly import('x').P[] };"],
  ['import(...).T<A> as a type alias', "type QC = import('../src/types').ContractToQC<E, 'u', 'User'>;"],
  ['using as a name', "function f(name: string, using = 'x') {\n  if (typeof using !== 'string') return [using, name];\n  return { ...g('using', using) };\n}"],
  ['import attributes', "export { default as contract } from './contract.json' with { type: 'json' };"],
  ['a NUL character in a template', 'const key = `${a}\u0000${b}`;'],
];

for (const [name, head] of CASES) {
  test(`recovered: ${name}`, async () => {
    const f = await facts(withTail(head));
    assert.equal(f.syntaxErrors, undefined, `still a syntax error at ${JSON.stringify(f.syntaxErrors)}`);
    const after = f.symbols.find((s) => s.id === 'src/a.ts#after');
    assert.ok(after, 'the function after the hard syntax is a definition');
    const lines = withTail(head).split('\n');
    assert.equal(after.span.start_line, lines.findIndex((l) => l.startsWith('export function after')) + 1, 'lines are those of the file');
    const index = f.symbols.indexOf(after);
    assert.ok(f.calls.some((c) => c.scope === index && JSON.stringify(c.callee).includes('"target"')), 'the call inside it is kept');
  });
}

test('rewrites keep length and lines, and touch only the lines around an error', async () => {
  const rt = await runtimeFor('typescript');
  const source = "const lazy = () => import('./lazy')\n" + 'interface G {\n  <K>(k: K): K\n  <J>(j: J): J\n}\n';
  const r = recoverSyntax(rt.parser, 'typescript', source, rt.parser.parse(source)!);
  try {
    assert.deepEqual(r.rewrites, ['call signature']);
    assert.equal(r.source.length, source.length);
    assert.equal(r.source.split('\n').length, source.split('\n').length);
    assert.ok(r.source.startsWith("const lazy = () => import('./lazy')\n"), 'a dynamic import away from the error is untouched');
    assert.equal(r.tree.rootNode.hasError, false);
  } finally {
    r.tree.delete();
  }
});

test('a rewrite that does not reduce the errors is dropped, and other languages are left alone', async () => {
  const rt = await runtimeFor('typescript');
  const broken = 'function f( {\n  <K>(k: K): K\n';
  const r = recoverSyntax(rt.parser, 'typescript', broken, rt.parser.parse(broken)!);
  try {
    assert.equal(r.source.length, broken.length);
    assert.ok(r.tree.rootNode.hasError, 'really broken code stays an error');
  } finally {
    r.tree.delete();
  }
  const py = await extractFileFacts({ path: 'a.py', language: 'python', source: 'def f(:\n  pass\n' });
  assert.ok(py.syntaxErrors?.length, 'Python has no rules: its error is reported as before');
});
