/**
 * Per-test outcomes read from a test runner's output, for speculate: node --test / TAP, pytest -rA,
 * go test -v, cargo test, jest / vitest file lines. Only what the runner says; anything else is
 * unknown. Pure; browser-safe.
 */

export interface TestOutcome {
  /** The test's name (or file) as the runner printed it. */
  name: string;
  passed: boolean;
}

const PATTERNS: Array<{ re: RegExp; passed: (m: RegExpExecArray) => boolean; name: (m: RegExpExecArray) => string }> = [
  // TAP (node --test, tap): "ok 3 - name", "not ok 4 - name"
  { re: /^\s*(not ok|ok)\s+\d+\s+-\s+(.+?)(?:\s+#\s+(?:SKIP|TODO).*)?$/, passed: (m) => m[1] === 'ok', name: (m) => m[2]! },
  // pytest -rA summary: "PASSED tests/test_x.py::test_y", "FAILED tests/test_x.py::test_y - AssertionError"
  { re: /^(PASSED|FAILED|ERROR)\s+(\S+)/, passed: (m) => m[1] === 'PASSED', name: (m) => m[2]! },
  // pytest -v: "tests/test_x.py::test_y PASSED [ 50%]"
  { re: /^(\S+::\S+)\s+(PASSED|FAILED|ERROR)\b/, passed: (m) => m[2] === 'PASSED', name: (m) => m[1]! },
  // go test -v: "--- PASS: TestX (0.00s)"; package lines "ok  	example.com/m/store	0.01s", "FAIL	example.com/m/store	0.01s"
  { re: /^\s*--- (PASS|FAIL): (\S+)/, passed: (m) => m[1] === 'PASS', name: (m) => m[2]! },
  { re: /^(ok|FAIL)\s+(\S+)\s+[\d.]+s/, passed: (m) => m[1] === 'ok', name: (m) => m[2]! },
  // cargo test: "test tests::it_works ... ok"
  { re: /^test (\S+) \.\.\. (ok|FAILED)$/, passed: (m) => m[2] === 'ok', name: (m) => m[1]! },
  // jest / vitest: " PASS  src/a.test.ts", " FAIL  src/a.test.ts"
  { re: /^\s*(PASS|FAIL)\s+(\S+\.\w+)(?:\s|$)/, passed: (m) => m[1] === 'PASS', name: (m) => m[2]! },
];

export function parseTestOutput(output: string): TestOutcome[] {
  const out: TestOutcome[] = [];
  for (const raw of output.split('\n')) {
    const line = raw.replace(/\r$/, '');
    for (const p of PATTERNS) {
      const m = p.re.exec(line);
      if (m) {
        out.push({ name: p.name(m).trim(), passed: p.passed(m) });
        break;
      }
    }
  }
  return out;
}

/** What the runner said about one test of the graph: `file` and `label` (bare name) are matched against the runner's names. */
export function outcomeFor(outcomes: readonly TestOutcome[], test: { file: string; label: string }): boolean | undefined {
  const bare = test.label.replace(/\(\)$/, '').split('.').pop()!;
  const fileBase = test.file.split('/').pop()!;
  let result: boolean | undefined;
  // A test file is matched by its path (and every case in it); a test function by its name.
  const isFile = test.label === fileBase;
  const named = new RegExp(`(^|[^\\w])${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w])`);
  for (const o of outcomes) {
    const hit = isFile
      ? o.name === test.file || o.name.endsWith(`/${test.file}`) || o.name.startsWith(`${test.file}::`) || o.name === fileBase
      : bare.length > 2 && named.test(o.name);
    if (!hit) continue;
    // A failure anywhere the test is named wins over a pass (a file line passes while one case failed).
    if (!o.passed) return false;
    result = true;
  }
  return result;
}
