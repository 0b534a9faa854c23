import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bytePage, isContinuation, truncateUtf8 } from '../../src/memory/utf8.ts';
import { tempStore } from './helpers.ts';

const body = fc.string({ unit: 'binary', minLength: 0, maxLength: 300 }).map((s) => s.replace(/[\uD800-\uDFFF]/g, 'x'));
const multiByte = fc
  .array(fc.constantFrom('a', 'é', '€', '😀', '中', '\n', ' ', '\u0301'), { maxLength: 400 })
  .map((chars) => chars.join(''));
const anyBody = fc.oneof(body, multiByte);

test('bytePage() pages concatenate to the body and never split a character', () => {
  fc.assert(
    fc.property(anyBody, fc.integer({ min: 1, max: 64 }), (text, size) => {
      let out = '';
      let off: number | null = 0;
      const total = Buffer.byteLength(text);
      let pages = 0;
      while (off !== null) {
        const p = bytePage(text, off, size);
        assert.equal(p.total, total);
        assert.ok(Buffer.byteLength(p.text) <= Math.max(4, size), 'page within its byte limit');
        assert.ok(!p.text.includes('\uFFFD'), 'no replacement character from a split');
        out += p.text;
        assert.ok(p.next === null || p.next > off, 'progress');
        off = p.next;
        if (++pages > 10_000) assert.fail('no end');
      }
      assert.equal(out, text);
    }),
    { numRuns: 300 },
  );
});

test('bytePage() rejects exactly the offsets inside a character or past the end', () => {
  fc.assert(
    fc.property(anyBody, fc.nat(1300), (text, offset) => {
      const bytes = Buffer.from(text);
      const inside = offset < bytes.length && isContinuation(bytes[offset]!);
      const past = offset > bytes.length;
      if (inside || past) assert.throws(() => bytePage(text, offset, 16), RangeError);
      else {
        const p = bytePage(text, offset, 16);
        assert.equal(Buffer.concat([bytes.subarray(0, offset), Buffer.from(p.text)]).toString(), bytes.subarray(0, p.next ?? bytes.length).toString());
      }
    }),
    { numRuns: 500 },
  );
});

test('truncateUtf8() keeps a valid prefix within the byte limit', () => {
  fc.assert(
    fc.property(anyBody, fc.nat(400), (text, max) => {
      const r = truncateUtf8(text, max);
      assert.ok(Buffer.byteLength(r.text) <= max || !r.truncated);
      assert.ok(text.startsWith(r.text));
      assert.equal(r.truncated, Buffer.byteLength(text) > max);
    }),
    { numRuns: 300 },
  );
});

test('readmemory pages over stored multi-byte bodies reassemble the body exactly', () => {
  const { store, cleanup } = tempStore();
  try {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('é', '€', '😀', '中', 'a', ' '), { minLength: 3000, maxLength: 12000 }), (chars) => {
        const text = `x${chars.join('')}`;
        const { id } = store.remember({ content: text, source: 's', scope: 'project', project: '/p' });
        let out = '';
        for (let off: number | null = 0; off !== null; ) {
          const page: { body: string; next: number | null } = store.read({ id, project: '/p', offset: off }).memory!;
          out += page.body;
          off = page.next;
        }
        assert.equal(out, text);
      }),
      { numRuns: 15 },
    );
  } finally {
    cleanup();
  }
});
