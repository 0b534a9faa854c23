import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { compileSearchPattern, unsupportedFeature } from '../../src/query/search-pattern.ts';
import { searchText, SourceAccessError } from '../../src/query/source.node.ts';

const root = mkdtempSync(join(tmpdir(), 'synaptic-search-pattern-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function matches(pattern: string, line: string, options: { literal?: boolean; caseSensitive?: boolean } = {}): Promise<string[]> {
  const p = await compileSearchPattern(pattern, options);
  return [...p.matches(line)].map((m) => `${m.index}:${m.text}`);
}

test('(a+)+$ over a long line of a followed by b returns promptly with no hit', async () => {
  const line = 'a'.repeat(100_000) + 'b';
  writeFileSync(join(root, 'long.txt'), `${line}\n${line}\n`);
  const t0 = performance.now();
  const r = await searchText(root, { pattern: '(a+)+$', maxResults: 10 });
  const ms = performance.now() - t0;
  assert.equal(r.total, 0);
  assert.equal(r.filesScanned, 1);
  assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms (a backtracking engine takes longer than the age of the universe)`);
  // The same pattern still finds what it should, in linear time.
  const hit = await searchText(root, { pattern: '(a+)+b$', maxResults: 10 });
  assert.equal(hit.total, 2);
  assert.equal(hit.hits[0]!.col, 1);
});

test('features RE2 lacks are refused by name, not run in a backtracking engine', async () => {
  const cases: Array<[string, RegExp]> = [
    ['(a)\\1', /backreference \(\\1\)/],
    ['(?<q>a)\\k<q>', /named backreference/],
    ['foo(?=bar)', /lookahead \(\?=/],
    ['foo(?!bar)', /negative lookahead/],
    ['(?<=foo)bar', /lookbehind \(\?<=/],
    ['(?<!foo)bar', /negative lookbehind/],
    ['a[^]b', /\[\^\]/],
  ];
  for (const [pattern, why] of cases) {
    await assert.rejects(searchText(root, { pattern, maxResults: 1 }), (err: Error) => {
      assert.ok(err instanceof SourceAccessError, pattern);
      assert.match(err.message, why, pattern);
      assert.match(err.message, /RE2\) does not support/, pattern);
      assert.match(err.message, /literal=true/, pattern);
      return true;
    });
  }
  // Look-alikes that are escaped or inside a class are ordinary characters, not features.
  assert.equal(unsupportedFeature('\\(?=x'), undefined);
  assert.equal(unsupportedFeature('[(?=]'), undefined);
  assert.equal(unsupportedFeature('[\\]\\1]'), undefined);
  assert.equal(unsupportedFeature('(?<name>x)'), undefined);
  assert.equal(unsupportedFeature('\\\\1'), undefined);
});

test('an invalid pattern keeps its clear error', async () => {
  await assert.rejects(searchText(root, { pattern: 'foo(', maxResults: 1 }), /Cannot search text: invalid regex 'foo\(' \(missing closing \).*pass literal=true/);
  await assert.rejects(searchText(root, { pattern: 'a**', maxResults: 1 }), /invalid regex 'a\*\*'/);
});

test('smart case, explicit case, literal and JavaScript escapes keep their meaning', async () => {
  assert.deepEqual(await matches('needle', 'a Needle NEEDLE'), ['2:Needle', '9:NEEDLE'], 'lower case: insensitive');
  assert.deepEqual(await matches('Needle', 'a Needle NEEDLE'), ['2:Needle'], 'an upper-case letter: sensitive');
  assert.deepEqual(await matches('needle', 'a Needle', { caseSensitive: true }), []);
  assert.deepEqual(await matches('NEEDLE', 'a Needle', { caseSensitive: false }), ['2:Needle']);
  assert.deepEqual(await matches('a.b(c)', 'a.b(c) axb(c)', { literal: true }), ['0:a.b(c)']);
  assert.deepEqual(await matches('(?=x)\\1', 'y(?=x)\\1', { literal: true }), ['1:(?=x)\\1'], 'literal text may look like any feature');
  assert.deepEqual(await matches('\\u0041\\u{42}', 'xAB'), ['1:AB']);
  assert.deepEqual(await matches('\\\\u0041', '\\u0041'), ['0:\\u0041'], 'an escaped backslash before u stays literal');
  assert.deepEqual(await matches('x*', 'ab'), ['0:', '1:', '2:'], 'empty matches advance');
  assert.deepEqual(await matches('b', 'é😀b'), ['3:b'], 'columns count UTF-16 units like the old RegExp');
});

test('anchors hold per line, and the whole-file prefilter never loses a line match', async () => {
  writeFileSync(join(root, 'anchors.ts'), 'const a = 1;\nfoo\n  foo bar\nbar foo\n');
  const exact = await searchText(root, { pattern: '^foo$', maxResults: 10 });
  assert.deepEqual(exact.hits.map((h) => h.line), [2]);
  const end = await searchText(root, { pattern: 'foo$', maxResults: 10 });
  assert.deepEqual(end.hits.map((h) => h.line), [2, 4]);
  const word = await searchText(root, { pattern: '\\bbar\\b', maxResults: 10, pathGlob: '*.ts' });
  assert.deepEqual(word.hits.map((h) => `${h.line}:${h.col}`), ['3:7', '4:1']);
});
