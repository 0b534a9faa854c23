/**
 * A call whose name is an Object.prototype member (`toString(x)`, `valueOf()`) is no hazard: the
 * hazard tables are plain objects, and a prototype lookup put a function into the facts, which the
 * CBOR writer then rejected ("Unknown type: function": WebGoat's JWTTokenTest.java failed extract).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';

test('toString(...) / x.constructor(...) in Java are plain calls; Class.forName stays a hazard', async () => {
  const source = `class T {
  String a(Object h) { return toString(h) + valueOf(1) + h.hasOwnProperty("x"); }
  Object b() throws Exception { return Class.forName("x.Y"); }
}
`;
  const f = await extractFileFacts({ path: 'T.java', source, language: 'java' });
  assert.deepEqual(f.hazards.map((h) => `${h.kind} L${h.line}`), ['reflection L3']);
  assert.deepEqual(structuredClone(f), f);
});
