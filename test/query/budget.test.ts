import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countTokens, fitToBudget } from '../../src/query/budget.ts';

const node = (i: number) => `NODE [0.${String(500 - i).padStart(3, '0')}] someRatherLongFunctionName${i} [code] src/some/deeply/nested/folder/file${i}.ts`;

test('fitToBudget() keeps rank 0, then rank 1 lines before rank 2, in display order, within the budget', async () => {
  const lines = Array.from({ length: 40 }, (_, i) => ({ text: node(i), rank: (i === 5 ? 0 : i % 10 === 9 ? 1 : 2) as 0 | 1 | 2 }));
  const cut = await fitToBudget({ head: ['Traversal: bfs | Start: [a, b, c] | 40 nodes found'], lines }, 300);
  assert.equal(cut.truncated, true);
  assert.ok((await countTokens(cut.text)) <= 300, `${await countTokens(cut.text)} tokens`);
  const shown = cut.text.split('\n').filter((l) => l.startsWith('NODE ')).map((l) => Number(/Name(\d+)/.exec(l)![1]));
  assert.ok(shown.includes(5) && shown.includes(9) && shown.includes(19) && shown.includes(39), `rank 0 and 1 kept: ${shown}`);
  assert.deepEqual(shown, [...shown].sort((a, b) => a - b), 'display order');
  assert.ok(shown.includes(0), 'rank 2 lines fill what is left');
  assert.match(cut.text, /\.\.\. \(cut to token_budget=300: \d+ more line\(s\)/);
});

test('fitToBudget() under a tight budget shortens the head and the note, then the must-keep line itself', async () => {
  const head = [`Traversal: bfs | Start: [${Array.from({ length: 8 }, (_, i) => `someRatherLongFunctionName${i}`).join(', ')}] | 10 nodes found`];
  const lines = Array.from({ length: 10 }, (_, i) => ({ text: node(i), rank: (i === 0 ? 0 : 2) as 0 | 2 }));
  const tight = await fitToBudget({ head, shortHead: ['Traversal: bfs | 10 nodes found'], lines }, 50);
  assert.ok((await countTokens(tight.text)) <= 50, tight.text);
  assert.match(tight.text, /^Traversal: bfs \| 10 nodes found\nNODE .*someRatherLongFunctionName0 /);
  const long = [{ text: `NODE [1.000] ${'x'.repeat(600)} [code] src/a.ts`, rank: 0 as const }, { text: node(1) }];
  const cut = await fitToBudget({ head: ['Traversal: bfs | 2 nodes found'], lines: long }, 50);
  assert.ok((await countTokens(cut.text)) <= 50, cut.text);
  assert.match(cut.text, /^Traversal: bfs \| 2 nodes found\nNODE \[1\.000\] x+…\n\.\.\. \(\+1 line\(s\) over token_budget=50\)$/);
});
