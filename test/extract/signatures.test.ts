/**
 * Issue #26.4: a signature is the declaration header without comments, whitespace collapsed. The
 * comments are the syntax tree's comment nodes, so a string holding `//`, `/*` or `#` stays.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import type { LanguageId } from '../../src/extract/languages.ts';

async function signatures(path: string, language: LanguageId, source: string): Promise<Record<string, { raw?: string; returns?: string }>> {
  const f = await extractFileFacts({ path, language, source });
  return Object.fromEntries(f.symbols.map((s) => [s.id, { raw: s.signature?.raw, returns: s.signature?.returns }]));
}

test('TypeScript: comments inside type parameters, parameters and the return type leave the signature; strings stay', async () => {
  // The shape of hono's `Context@src/context.ts`, whose signature showed `// eslint-disable-next-line ...`.
  const s = await signatures('src/context.ts', 'typescript', [
    '/** The context. */',
    'export class Context<',
    '  // eslint-disable-next-line @typescript-eslint/no-explicit-any',
    "  E extends Env = any, /* second */ P extends string = '//not/a/comment'",
    '> {',
    '  m(a = "/* kept */", // why',
    "    b: number): /* r */ string { return '' }",
    '}',
  ].join('\n'));
  assert.equal(s['src/context.ts#Context']!.raw, "export class Context< E extends Env = any, P extends string = '//not/a/comment' >");
  assert.deepEqual(s['src/context.ts#Context.m'], { raw: 'm(a = "/* kept */", b: number): string', returns: 'string' });
});

test('Python, Go, Rust, Java, C#, C++, PHP and Ruby headers lose their comments and keep their strings', async () => {
  const cases: [string, LanguageId, string, string, string][] = [
    ['a.py', 'python', "def f(a='//x', # the first\n      b=\"# not a comment\"):  # trailing\n    pass\n", 'a.py#f', "def f(a='//x', b=\"# not a comment\")"],
    ['a.go', 'go', 'package p\n\nfunc F(a string /* c */, b int) /* r */ (string, error) { // tail\n\treturn "", nil\n}\n', 'a.go#F', 'func F(a string, b int) (string, error)'],
    ['a.rs', 'rust', 'fn f(/* c */ a: &str, // d\n     b: u8) -> String /* r */ {\n    String::new()\n}\n', 'a.rs#f', 'fn f(a: &str, b: u8) -> String'],
    ['A.java', 'java', 'class A {\n  @SuppressWarnings("//not a comment") // why\n  public /* c */ String m(int a) { return null; }\n}\n', 'A.java#A.m', '@SuppressWarnings("//not a comment") public String m(int a)'],
    ['a.cs', 'csharp', 'class A {\n  public /* c */ string M(string a = "//") // d\n  { return a; }\n}\n', 'a.cs#A.M', 'public string M(string a = "//")'],
    ['a.cpp', 'cpp', 'int f(const char* a = "//", /* c */ int b) // d\n{ return 0; }\n', 'a.cpp#f', 'int f(const char* a = "//", int b)'],
    ['a.php', 'php', "<?php\nfunction f($a = '/* x */', # c\n  $b) // d\n{ }\n", 'a.php#f', "function f($a = '/* x */', $b)"],
    ['a.rb', 'ruby', "def m(a = '# not', # c\n  b)\n  a\nend\n", 'a.rb#m', "def m(a = '# not', b)"],
  ];
  for (const [path, language, source, id, raw] of cases) {
    const s = await signatures(path, language, source);
    assert.equal(s[id]?.raw, raw, `${language}: ${id}`);
  }
});

test('return types lose their comments and are single-spaced', async () => {
  const s = await signatures('a.ts', 'typescript', 'function f(): Promise<\n  /* the value */ Map<string,\n    number>\n> { return null! }\n');
  assert.deepEqual(s['a.ts#f'], { raw: 'function f(): Promise< Map<string, number> >', returns: 'Promise< Map<string, number> >' });
});
