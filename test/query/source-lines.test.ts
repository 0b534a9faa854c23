import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { jailPath, lineReader, readLines, SourceAccessError } from '../../src/query/source.node.ts';

/**
 * Rewrite a file in place with text of the same size, as an editor saving a moment later would: the
 * mtime is set a second past the old one (no sleep, and no dependence on the file system's clock
 * granularity; the cache revalidates by mtime, size and inode).
 */
function rewriteLater(file: string, text: string): void {
  const old = statSync(file).mtimeMs;
  writeFileSync(file, text);
  utimesSync(file, new Date(), new Date(old + 1000));
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'synaptic-lines-')));
after(() => rmSync(root, { recursive: true, force: true }));

/** The plain definition readLines must match: split on '\n', drop one trailing empty piece, clamp. */
function reference(text: string, from: number, to: number) {
  const all = text.split('\n');
  if (all.length && all[all.length - 1] === '') all.pop();
  const start = Math.max(1, Math.min(from, all.length || 1));
  const end = Math.max(start, Math.min(to, all.length));
  return { lines: all.slice(start - 1, end), from: start, to: end, total: all.length };
}

test('readLines() cuts exactly the lines a full split would give, for random texts and ranges', () => {
  let seed = 11;
  const rnd = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const pieces = ['a', 'bc', ' ', '\n', '\n', '\r\n', '\u00e9', '\n\n'];
  for (let i = 0; i < 400; i++) {
    const text = Array.from({ length: rnd(30) }, () => pieces[rnd(pieces.length)]).join('');
    const file = `f${i}.txt`;
    writeFileSync(join(root, file), text);
    for (let k = 0; k < 5; k++) {
      const from = rnd(12) - 1;
      const to = from + rnd(12) - 2;
      assert.deepEqual(readLines(root, file, from, to), reference(text, from, to), JSON.stringify({ text, from, to }));
    }
  }
});

test('readLines() of raw bytes (malformed UTF-8, a BOM, CR) and of files larger than its read buffer gives the decoded text\'s lines', () => {
  let seed = 29;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % n;
  };
  const pieces = [[0x0a], [0x0d, 0x0a], [0x61], [0x62, 0x63], [0xc3, 0xa9], [0xc3], [0xa9], [0xe2, 0x82], [0xe2, 0x82, 0xac], [0xff], [0x80], [0xef, 0xbb, 0xbf], [0xf0, 0x9f, 0x98, 0x80], [0xf0, 0x9f]];
  for (let i = 0; i < 300; i++) {
    // Mostly short files; every tenth one past the 64 KB read buffer (grown, then kept or not).
    const count = i % 10 === 9 ? 40_000 + rnd(300_000) : rnd(40);
    const bytes = Buffer.from(Array.from({ length: count }, () => pieces[rnd(pieces.length)]!).flat());
    const file = `raw${i}.bin`;
    writeFileSync(join(root, file), bytes);
    const text = readFileSync(join(root, file), 'utf8');
    const lines = text.split('\n').length;
    if (i % 50 === 0) {
      // A range end that is not a number (a node without an end line) answers as it always did.
      writeFileSync(join(root, `nan${i}.bin`), bytes);
      assert.deepEqual(readLines(root, `nan${i}.bin`, 2, Number.NaN), reference(text, 2, Number.NaN), `NaN end, file ${i}`);
    }
    // The first read takes the byte path; the second one caches the text (and a third hits it).
    for (let k = 0; k < 3; k++) {
      const from = k === 0 ? rnd(lines + 3) - 1 : rnd(12);
      const to = from + rnd(50) - 3;
      assert.deepEqual(readLines(root, file, from, to), reference(text, from, to), JSON.stringify({ file, count, from, to }));
    }
  }
});

test('jailPath() refuses missing files, escapes and symlinks that leave the root', () => {
  writeFileSync(join(root, 'ok.ts'), 'x\n');
  mkdirSync(join(root, 'dir'), { recursive: true });
  assert.equal(jailPath(root, 'ok.ts'), join(root, 'ok.ts'));
  assert.throws(() => jailPath(root, 'missing.ts'), (e: unknown) => e instanceof SourceAccessError && /was not found/.test(e.message));
  assert.throws(() => jailPath(root, '../outside.ts'), /outside the source root/);
  assert.throws(() => jailPath(root, 'dir'), /is not a file/);
  const outside = mkdtempSync(join(tmpdir(), 'synaptic-outside-'));
  try {
    writeFileSync(join(outside, 'secret.ts'), 's\n');
    symlinkSync(join(outside, 'secret.ts'), join(root, 'link.ts'));
    assert.throws(() => jailPath(root, 'link.ts'), /through a symlink/);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test('readLines() serves an edited file at once: rewritten in place (same or other size) or replaced by rename', () => {
  const file = join(root, 'edited.ts');
  writeFileSync(file, 'one\ntwo\n');
  assert.deepEqual(readLines(root, 'edited.ts', 1, 9).lines, ['one', 'two']);
  rewriteLater(file, 'uno\ndos\n'); // same size, new mtime
  assert.deepEqual(readLines(root, 'edited.ts', 1, 9).lines, ['uno', 'dos']);
  writeFileSync(file, 'a much longer first line\nb\nc\n');
  assert.deepEqual(readLines(root, 'edited.ts', 2, 3).lines, ['b', 'c']);
  writeFileSync(join(root, 'edited.tmp'), 'renamed in\n');
  renameSync(join(root, 'edited.tmp'), file);
  assert.deepEqual(readLines(root, 'edited.ts', 1, 9), { lines: ['renamed in'], from: 1, to: 1, total: 1 });
});

test('lineReader() gives each line of text.split("\\n"), trimmed, and undefined outside the file', () => {
  const texts = ['', 'one', 'one\n', ' a \n\tb\t\n\nlast', 'x\r\ny\r\n', '\n\n'];
  texts.forEach((text, i) => {
    const file = `reader${i}.txt`;
    writeFileSync(join(root, file), text);
    const read = lineReader(root);
    const split = text.split('\n');
    for (let line = -1; line <= split.length + 2; line++) {
      assert.equal(read(file, line), line >= 1 && line <= split.length ? split[line - 1]!.trim() : undefined, JSON.stringify({ text, line }));
    }
  });
  assert.equal(lineReader(root)('missing.txt', 1), undefined);
});

test('readLines() answers right across the cache admission: one-off reads, re-reads, edits after caching', () => {
  // More distinct files than the admission remembers, each read once, then some read again (and
  // cached), edited in place with the same size, and read a third time.
  mkdirSync(join(root, 'many'), { recursive: true });
  const count = 600;
  for (let i = 0; i < count; i++) writeFileSync(join(root, 'many', `m${i}.ts`), `first ${i}\nsecond ${i}\n`);
  for (let i = 0; i < count; i++) assert.deepEqual(readLines(root, `many/m${i}.ts`, 2, 2).lines, [`second ${i}`]);
  for (let i = count - 10; i < count; i++) assert.deepEqual(readLines(root, `many/m${i}.ts`, 1, 1).lines, [`first ${i}`]);
  for (let i = count - 10; i < count; i++) rewriteLater(join(root, 'many', `m${i}.ts`), `FIRST ${i}\nSECOND ${i}\n`);
  for (let i = count - 10; i < count; i++) assert.deepEqual(readLines(root, `many/m${i}.ts`, 1, 9).lines, [`FIRST ${i}`, `SECOND ${i}`]);
  assert.deepEqual(readLines(root, 'many/m0.ts', 1, 9).lines, ['first 0', 'second 0']);
});
