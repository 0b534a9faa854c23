import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outcomeFor, parseTestOutput } from '../../src/extract/test-results.ts';

// speculate reads per-test outcomes from what real runners print (samples of each format).

test('TAP (node --test), pytest -rA and -v, go test -v, cargo test, jest/vitest file lines', () => {
  const out = [
    'ok 1 - parses headers', 'not ok 2 - rejects bad input', 'ok 3 - later # SKIP not yet',
    'PASSED tests/test_keeper.py::test_adopt', 'FAILED tests/test_keeper.py::test_roll - AssertionError: x',
    'tests/test_zoo.py::test_feed PASSED                                  [ 50%]',
    '=== RUN   TestPutGet', '--- PASS: TestPutGet (0.00s)', '--- FAIL: TestDelete (0.01s)', 'ok  \texample.com/m/store\t0.012s', 'FAIL\texample.com/m/cache\t0.030s',
    'test tests::it_works ... ok', 'test tests::it_fails ... FAILED',
    ' PASS  src/a.test.ts', ' FAIL  src/b.test.ts (5 ms)',
    'random log line ok', '',
  ].join('\n');
  assert.deepEqual(parseTestOutput(out), [
    { name: 'parses headers', passed: true }, { name: 'rejects bad input', passed: false }, { name: 'later', passed: true },
    { name: 'tests/test_keeper.py::test_adopt', passed: true }, { name: 'tests/test_keeper.py::test_roll', passed: false },
    { name: 'tests/test_zoo.py::test_feed', passed: true },
    { name: 'TestPutGet', passed: true }, { name: 'TestDelete', passed: false }, { name: 'example.com/m/store', passed: true }, { name: 'example.com/m/cache', passed: false },
    { name: 'tests::it_works', passed: true }, { name: 'tests::it_fails', passed: false },
    { name: 'src/a.test.ts', passed: true }, { name: 'src/b.test.ts', passed: false },
  ]);
});

test('outcomeFor: by test name or by file; a failure wins; unknown when the runner never names it', () => {
  const outcomes = parseTestOutput('PASSED tests/test_keeper.py::test_adopt\nFAILED tests/test_keeper.py::test_roll\n--- PASS: TestPutGet (0.00s)\n PASS  src/a.test.ts');
  assert.equal(outcomeFor(outcomes, { file: 'tests/test_keeper.py', label: 'test_adopt' }), true);
  assert.equal(outcomeFor(outcomes, { file: 'tests/test_keeper.py', label: 'test_roll' }), false);
  assert.equal(outcomeFor(outcomes, { file: 'tests/test_keeper.py', label: 'test_keeper.py' }), false, 'the file fails when one of its tests does');
  assert.equal(outcomeFor(outcomes, { file: 'store/store_test.go', label: 'TestPutGet' }), true);
  assert.equal(outcomeFor(outcomes, { file: 'src/a.test.ts', label: 'a.test.ts' }), true);
  assert.equal(outcomeFor(outcomes, { file: 'tests/test_other.py', label: 'test_other' }), undefined);
  assert.equal(outcomeFor(outcomes, { file: 'x.py', label: 'test_ad' }), undefined, 'a prefix of a name is not that name');
});
