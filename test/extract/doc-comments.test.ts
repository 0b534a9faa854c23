/**
 * Doc comments are kept whole (#17 item 2): consecutive `//`, `///`, `#` lines are one comment
 * (cobra and fd kept only the last line), block comments and docstrings keep every line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import type { LanguageId } from '../../src/extract/languages.ts';
import { MAX_DOC_CHARS } from '../../src/extract/lang/spec.ts';

async function docs(path: string, language: LanguageId, source: string): Promise<Record<string, string | undefined>> {
  const f = await extractFileFacts({ path, language, source });
  return Object.fromEntries(f.symbols.map((s) => [s.qname, s.doc]));
}

test('Go: a run of // lines is the whole doc; a blank line ends it', async () => {
  const d = await docs('command.go', 'go', [
    'package cobra', '',
    '// Execute uses the args (os.Args[1:] by default)',
    '// and run through the command tree finding appropriate matches',
    '// for commands and then corresponding flags.',
    'func (c *Command) Execute() error { return nil }', '',
    '// not the doc of T', '',
    '// T is a type.', 'type T struct{}',
  ].join('\n'));
  assert.equal(d['Command.Execute'], 'Execute uses the args (os.Args[1:] by default)\nand run through the command tree finding appropriate matches\nfor commands and then corresponding flags.');
  assert.equal(d.T, 'T is a type.');
});

test('Rust: /// lines with blank doc lines and attributes between doc and item', async () => {
  const d = await docs('src/walk.rs', 'rust', '/// Builds a parallel walker.\n///\n/// Threads are spawned lazily.\n#[inline]\n#[must_use]\npub fn build_parallel() {}\n\n/// One line.\nfn one() {}\n');
  assert.equal(d.build_parallel, 'Builds a parallel walker.\n\nThreads are spawned lazily.');
  assert.equal(d.one, 'One line.');
});

test('TypeScript: // runs and /** */ blocks keep every line', async () => {
  const d = await docs('src/a.ts', 'typescript', '// Parses the header.\n// Throws on bad input.\nexport function parse() {}\n/**\n * A router.\n *\n * Matches paths.\n */\nexport class Router {\n  /** Adds a route. */\n  add() {}\n}\n');
  assert.equal(d.parse, 'Parses the header.\nThrows on bad input.');
  assert.equal(d.Router, 'A router.\n\nMatches paths.');
  assert.equal(d['Router.add'], 'Adds a route.');
});

test('Python: # runs and docstrings (dedented) are whole', async () => {
  const d = await docs('pkg/m.py', 'python', '# Helpers for sessions.\n# Kept small.\nclass Session:\n    pass\n\ndef get(url):\n    """Sends a GET request.\n\n    :param url: URL for the new Request.\n        more\n    """\n    return url\n');
  assert.equal(d.Session, 'Helpers for sessions.\nKept small.');
  assert.equal(d.get, 'Sends a GET request.\n\n:param url: URL for the new Request.\n    more');
});

test('a very long doc is capped', async () => {
  const long = Array.from({ length: 100 }, (_, i) => `// line ${i} ${'x'.repeat(20)}`).join('\n');
  const d = await docs('a.go', 'go', `package a\n\n${long}\nfunc F() {}\n`);
  assert.ok(d.F!.startsWith('line 0 '), d.F);
  assert.equal(d.F!.length, MAX_DOC_CHARS + 1);
});
