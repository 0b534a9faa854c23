import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, MAX_LINE_BYTES_CEILING } from '../../src/mcp/line-splitter.ts';
import { McpCore } from '../../src/mcp/server.ts';
import { serveStdio } from '../../src/mcp/stdio.ts';

type Event = string | { oversized: true };

function splitter(limit: number): { s: LineSplitter; events: Event[] } {
  const events: Event[] = [];
  const s = new LineSplitter(limit, { line: (t) => events.push(t), oversized: () => events.push({ oversized: true }) });
  return { s, events };
}

/** Feeds `bytes` cut at the given offsets and returns what the splitter reported. */
function feed(bytes: Buffer, cuts: number[], limit: number): Event[] {
  const { s, events } = splitter(limit);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    s.push(bytes.subarray(at, cut));
    at = cut;
  }
  s.end();
  return events;
}

// Quadratic buffering (append, then search the whole buffer again on each chunk) takes minutes on
// these inputs; linear takes 0.05-0.3 s, so the bounds leave room for a loaded machine.
test('a 50 MB line in 4 KB chunks is joined in well under a second (linear, not quadratic)', () => {
  const size = 50 * 1024 * 1024;
  const line = Buffer.alloc(size, 0x61);
  const { s, events } = splitter(DEFAULT_MAX_LINE_BYTES);
  const started = performance.now();
  for (let at = 0; at < size; at += 4096) s.push(line.subarray(at, at + 4096));
  s.push(Buffer.from('\n{"next":1}\n'));
  const ms = performance.now() - started;
  assert.equal(events.length, 2);
  assert.equal((events[0] as string).length, size);
  assert.equal(events[1], '{"next":1}');
  assert.ok(ms < 3000, `took ${ms.toFixed(0)} ms`);
});

test('a 50 MB line over a 1 MB limit is skipped in well under a second and reported once', () => {
  const size = 50 * 1024 * 1024;
  const line = Buffer.alloc(size, 0x61);
  const { s, events } = splitter(1024 * 1024);
  const started = performance.now();
  for (let at = 0; at < size; at += 4096) s.push(line.subarray(at, at + 4096));
  s.push(Buffer.from('\nafter\n'));
  const ms = performance.now() - started;
  assert.deepEqual(events, [{ oversized: true }, 'after']);
  assert.ok(ms < 3000, `took ${ms.toFixed(0)} ms`);
});

test('a line over a small limit is reported, its bytes dropped up to the newline, and the next line works', () => {
  const { s, events } = splitter(16);
  s.push('exactly 16 bytes\n'); // at the limit: kept
  s.push('seventeen bytes!!');
  assert.deepEqual(events, ['exactly 16 bytes', { oversized: true }], 'reported as soon as the line crosses the limit');
  s.push('more of the same long line, which is never kept');
  s.push(' and more\nnext');
  s.push(' line\n');
  s.push('x'.repeat(40) + '\n' + 'y'.repeat(40) + '\n');
  s.end();
  assert.deepEqual(events, ['exactly 16 bytes', { oversized: true }, 'next line', { oversized: true }, { oversized: true }]);
});

test('the limit counts bytes, not characters', () => {
  const { s, events } = splitter(8);
  s.push('ééé\n'); // 6 bytes
  s.push('éééé\n'); // 8 bytes
  s.push('ééééé\n'); // 10 bytes
  assert.deepEqual(events, ['ééé', 'éééé', { oversized: true }]);
});

test('every split point (and every pair of split points) gives the same lines as the whole input', () => {
  // Multi-byte characters (2, 3 and 4 bytes), CRLF, empty lines, an oversized line, a last line without newline.
  const input = Buffer.from('{"a":"é€𝄞"}\r\n\n' + 'z'.repeat(30) + '\nok 𝄞\n\nend€');
  const limit = 20;
  const whole = feed(input, [], limit);
  assert.deepEqual(whole, ['{"a":"é€𝄞"}\r', '', { oversized: true }, 'ok 𝄞', '', 'end€']);
  for (let i = 0; i <= input.length; i++) {
    assert.deepEqual(feed(input, [i], limit), whole, `cut at ${i}`);
    for (let j = i; j <= input.length; j++) assert.deepEqual(feed(input, [i, j], limit), whole, `cuts at ${i}, ${j}`);
  }
  assert.deepEqual(feed(input, Array.from({ length: input.length }, (_, i) => i), limit), whole, 'one byte at a time');
});

test('the input ending inside an oversized line reports nothing more, and strings are accepted as chunks', () => {
  const { s, events } = splitter(4);
  s.push('abc\n');
  s.push('abcdefgh');
  s.end();
  assert.deepEqual(events, ['abc', { oversized: true }]);
});

test('a limit that is not a whole number of bytes in range is refused', () => {
  for (const bad of [0, -1, 1.5, Number.NaN, MAX_LINE_BYTES_CEILING + 1]) {
    assert.throws(() => splitter(bad), /Cannot split lines: the line limit must be a whole number of bytes from 1 to \d+, got/);
  }
  assert.doesNotThrow(() => splitter(MAX_LINE_BYTES_CEILING));
});

test('serveStdio() answers a line over its limit with -32600 (id null, naming the limit and the flag) and keeps serving', async () => {
  const core = new McpCore({ name: 'synaptic', version: '0.0.0', instructions: 'x', providers: [] });
  const input = new PassThrough();
  const output = new PassThrough();
  const logged: string[] = [];
  let out = '';
  output.setEncoding('utf8');
  output.on('data', (d: string) => (out += d));
  const { done } = serveStdio(core, { input, output, maxLineBytes: 2048, log: (l) => logged.push(l) });
  input.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + 'a'.repeat(1000));
  input.write('a'.repeat(2000) + '"}}\n');
  input.write('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"' + 'b'.repeat(1900) + '"}}\n');
  input.end();
  await done;
  await new Promise((r) => setImmediate(r));
  const msgs = out.trimEnd().split('\n').map((l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: { code: number; message: string } });
  assert.equal(msgs.length, 2);
  assert.equal(msgs[0]!.id, null);
  assert.equal(msgs[0]!.error?.code, -32600);
  assert.match(msgs[0]!.error!.message, /line limit of 2048 bytes.*skipped.*synaptic serve --max-line-bytes <n>/);
  assert.deepEqual(msgs[1], { jsonrpc: '2.0', id: 2, result: {} });
  assert.deepEqual(logged, ['[synaptic] skipped an input line longer than 2048 bytes']);
});
