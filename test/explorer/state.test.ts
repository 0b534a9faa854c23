import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatHash, parseHash } from '../../src/explorer/state.ts';

test('formatHash() and parseHash() round-trip every field', () => {
  const states = [
    { mode: 'overview' as const },
    { mode: 'node' as const, node: 'src/a.ts#Router.add', depth: 2 },
    { mode: 'path' as const, node: 'src/a b.ts#x', to: 'src/c.ts#y&z=1' },
    { mode: 'path' as const, node: 'a', to: 'b', directed: true },
    { mode: 'impact' as const, node: 'k', depth: 5 },
    { mode: 'community' as const, community: 3 },
    { mode: 'node' as const, node: 'a.ts#f', expand: ['a.ts#g', 'b,c.ts#h&i'] },
  ];
  for (const s of states) assert.deepEqual(parseHash(formatHash(s)), s);
});

test('parseHash() falls back to the overview on bad or incomplete state', () => {
  assert.deepEqual(parseHash(''), { mode: 'overview' });
  assert.deepEqual(parseHash('#mode=bogus&node=x'), { mode: 'overview', node: 'x' });
  assert.deepEqual(parseHash('#mode=node'), { mode: 'overview' });
  assert.deepEqual(parseHash('#mode=community&community=-1'), { mode: 'overview' });
  assert.deepEqual(parseHash('#mode=impact&node=a&depth=9'), { mode: 'impact', node: 'a' });
});

test('parseHash() drops empty and repeated expand keys', () => {
  assert.deepEqual(parseHash('#mode=node&node=a&expand=b&expand=&expand=b'), { mode: 'node', node: 'a', expand: ['b'] });
});
