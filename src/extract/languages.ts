/**
 * The languages extraction understands, and which one a file is (by extension). Browser-safe.
 *
 * C is parsed with the C++ grammar (`.c`/`.h`): the C++ grammar accepts nearly all of C, and
 * @vscode/tree-sitter-wasm ships no separate C grammar.
 */

export type LanguageId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java'
  | 'csharp' | 'cpp' | 'c' | 'ruby' | 'php' | 'sql';

export const LANGUAGE_IDS: readonly LanguageId[] = [
  'typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'csharp', 'cpp', 'c', 'ruby', 'php', 'sql',
];

const EXTENSIONS: Record<string, LanguageId> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  py: 'python', pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  cs: 'csharp',
  cpp: 'cpp', cc: 'cpp', cxx: 'cpp', 'c++': 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', 'h++': 'cpp', ipp: 'cpp',
  c: 'c', h: 'c',
  rb: 'ruby', rake: 'ruby', gemspec: 'ruby',
  php: 'php', phtml: 'php',
  // Parsed by the PostgreSQL parser (extract/sql/), not tree-sitter.
  sql: 'sql',
};

/** The language of a file by its extension, or null when it is not a source language we parse. */
export function languageForPath(path: string): LanguageId | null {
  const slash = path.lastIndexOf('/');
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return base === 'Rakefile' || base === 'Gemfile' ? 'ruby' : null;
  // `.d.ts` files are TypeScript declarations: parsed as TypeScript (they hold types and signatures).
  return EXTENSIONS[base.slice(dot + 1).toLowerCase()] ?? null;
}

/** Grammar file (in @vscode/tree-sitter-wasm/wasm/) that parses a language. */
export function grammarName(language: LanguageId): string {
  switch (language) {
    case 'csharp': return 'c-sharp';
    case 'c': return 'cpp';
    default: return language;
  }
}

/** Query file name (src/extract/queries/<name>.scm) of a language: C shares C++'s, TSX TypeScript's. */
export function queryName(language: LanguageId): string {
  return language === 'c' ? 'cpp' : language === 'tsx' ? 'typescript' : language;
}
