/**
 * Test detection by path convention, as the spec's `affected_tests` describes: a test, tests,
 * __tests__ or testing directory, or a test_* / *_test / *_spec / *.test.* / *.spec.* / *Test /
 * conftest file name. A spec/ directory alone is not a test tree. Browser-safe.
 */

const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'testing']);

/** True when a repo-relative path is a test file by convention. */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  const base = parts[parts.length - 1]!;
  for (let i = 0; i < parts.length - 1; i++) if (TEST_DIRS.has(parts[i]!)) return true;
  const dot = base.indexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  if (/\.(test|spec)\./.test(base)) return true;
  return stem.startsWith('test_') || stem.endsWith('_test') || stem.endsWith('_spec')
    || stem.endsWith('Test') || stem.endsWith('Tests') || stem === 'conftest';
}

/** True when a function in a test file looks like a test case (not a helper). */
export function isTestSymbolName(name: string): boolean {
  return /^(test|Test)|_test$|Test$|^it$|^should/.test(name);
}

/** The node fields a test-file lookup reads. */
export interface TestFileGraph {
  nodes: readonly { source_file?: unknown; is_test?: unknown }[];
  idOf: ReadonlyMap<string, number>;
}

/**
 * True when a file of the graph is test code: its file node is marked `is_test` by the extractor,
 * or its path follows the test conventions (`byPath`: isTestPath, or a memo of it). The one
 * definition for test reach, community names and surprising connections.
 */
export function isTestFile(g: TestFileGraph, file: string, byPath: (path: string) => boolean = isTestPath): boolean {
  if (file === '') return false;
  const id = g.idOf.get(file);
  return (id !== undefined && g.nodes[id]!.is_test === true) || byPath(file);
}
