import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameTokens } from '../../src/graph/communities.ts';

/** The regular-expression tokenizer nameTokens replaced (the definition it must keep). */
const STOP = new Set([
  'get', 'set', 'is', 'has', 'to', 'from', 'the', 'a', 'an', 'of', 'and', 'or', 'in', 'on', 'for', 'with', 'by',
  'new', 'init', 'test', 'tests', 'spec', 'index', 'main', 'src', 'lib', 'ts', 'js', 'tsx', 'default', 'constructor',
  'it', 'do', 'make', 'create', 'run', 'self', 'this', 'type', 'types',
]);
function byRegex(label: string): string[] {
  return label
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((t) => t.toLowerCase())
    .filter((t) => t.length > 2 && !STOP.has(t) && !/^\d+$/.test(t));
}

test('nameTokens splits camelCase, capitals, digits and separators like the regular expressions', () => {
  assert.deepEqual(nameTokens('parseHTMLDocument'), ['parse', 'html', 'document']);
  assert.deepEqual(nameTokens('HTTPServer.listen_now'), ['http', 'server', 'listen', 'now']);
  assert.deepEqual(nameTokens('v2ApiClient'), ['api', 'client']);
  assert.deepEqual(nameTokens('getUserById'), ['user']);
  assert.deepEqual(nameTokens('abc123 4567 x9Y'), ['abc123']);
  for (const label of ['', 'a', 'ABC', 'ABCdef', 'aBCdEF', 'XMLHttpRequest', 'über_Größe', 'a1B2C3d', 'FOO_BAR.bazQux', 'i18nKey', 'ABc', 'AbCDe']) {
    assert.deepEqual(nameTokens(label), byRegex(label), label);
  }
});

test('nameTokens equals the regular expressions on random labels', () => {
  // Deterministic pseudo-random labels over an alphabet of the character classes that matter.
  const alphabet = 'aBcDxYz019_.-$ AZéß#<>';
  let seed = 12345;
  const next = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let k = 0; k < 20000; k++) {
    let label = '';
    const len = Math.floor(next() * 16);
    for (let i = 0; i < len; i++) label += alphabet[Math.floor(next() * alphabet.length)];
    assert.deepEqual(nameTokens(label), byRegex(label), JSON.stringify(label));
  }
});
