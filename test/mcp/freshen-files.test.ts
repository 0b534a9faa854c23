import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { extractFixture, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

// Auto-freshen without --watch (the default staleness check) on a real extracted fixture, through the
// SDK client over stdio: files added to (or deleted from) folders the last extraction walked reach the
// graph, not only edits of files it already had.

let fx: ReturnType<typeof extractFixture>;
let server: Awaited<ReturnType<typeof connectSdk>>;

before(async () => {
  fx = extractFixture();
  server = await connectSdk(fx.graph, fx.env);
});

after(async () => {
  await server?.close();
  fx?.cleanup();
});

async function nodeText(label: string): Promise<string> {
  return text(await server.client.callTool({ name: 'get_node', arguments: { label } }));
}

/** Ask every 250 ms until `want` holds for get_node's answer or `ms` pass (the debounce is 2 s). */
async function until(label: string, want: (answer: string) => boolean, ms = 15_000): Promise<{ answer: string; after: number }> {
  const start = Date.now();
  let answer = await nodeText(label);
  while (!want(answer) && Date.now() - start < ms) {
    await new Promise((r) => setTimeout(r, 250));
    answer = await nodeText(label);
  }
  return { answer, after: Date.now() - start };
}

test('a source file added to a known folder is in the graph after the next staleness walk', async () => {
  assert.doesNotMatch(await nodeText('addedAfterStart'), /src\/added\.ts/, 'not there before it is written');
  writeFileSync(join(fx.repo, 'src/added.ts'), 'export function addedAfterStart(): number {\n  return 1;\n}\n');
  const { answer, after } = await until('addedAfterStart', (a) => /src\/added\.ts/.test(a));
  assert.match(answer, /addedAfterStart[\s\S]*src\/added\.ts/, `not found ${after} ms after the file was written; stderr:\n${server.stderr()}`);
  assert.match(server.stderr(), /source changed \(src\/added\.ts\); graph updated/);
});

test('a new folder with a source file, inside a known folder, is picked up (its parent folder changed)', async () => {
  mkdirSync(join(fx.repo, 'src/feature/deep'), { recursive: true });
  writeFileSync(join(fx.repo, 'src/feature/deep/nested.ts'), 'export function nestedAfterStart(): string {\n  return "n";\n}\n');
  const { answer, after } = await until('nestedAfterStart', (a) => /src\/feature\/deep\/nested\.ts/.test(a));
  assert.match(answer, /nestedAfterStart[\s\S]*src\/feature\/deep\/nested\.ts/, `not found ${after} ms later; stderr:\n${server.stderr()}`);
});

test('an empty folder made first and filled later is still watched', async () => {
  mkdirSync(join(fx.repo, 'src/later'));
  // Long enough for a walk to see the empty folder (and the update it starts to finish).
  await until('noSuchSymbolAnywhere', () => false, 5_000);
  writeFileSync(join(fx.repo, 'src/later/filled.ts'), 'export function filledLater(): number {\n  return 3;\n}\n');
  const { answer } = await until('filledLater', (a) => /src\/later\/filled\.ts/.test(a));
  assert.match(answer, /filledLater[\s\S]*src\/later\/filled\.ts/, server.stderr());
});

test('a deleted source file leaves the graph', async () => {
  rmSync(join(fx.repo, 'src/added.ts'));
  const { answer } = await until('addedAfterStart', (a) => !/src\/added\.ts/.test(a));
  assert.doesNotMatch(answer, /src\/added\.ts/, server.stderr());
});

test('names that cannot change the graph (an editor swap file) start no update', async () => {
  const updates = () => (server.stderr().match(/graph updated/g) ?? []).length;
  await until('noSuchSymbolAnywhere', () => false, 3_000); // let the updates above settle
  const before = updates();
  writeFileSync(join(fx.repo, 'src/.app.ts.swp'), 'vim swap');
  writeFileSync(join(fx.repo, 'src/notes.txt'), 'not source');
  await until('noSuchSymbolAnywhere', () => false, 5_000); // two debounce windows of calls
  assert.equal(updates(), before, server.stderr());
});

test('a file added while no server ran is in the very first answer (the startup check)', async () => {
  const own = extractFixture();
  try {
    mkdirSync(join(own.repo, 'src/offline'));
    writeFileSync(join(own.repo, 'src/offline/written.ts'), 'export function writtenWhileStopped(): number {\n  return 4;\n}\n');
    const fresh = await connectSdk(own.graph, own.env);
    try {
      const answer = text(await fresh.client.callTool({ name: 'get_node', arguments: { label: 'writtenWhileStopped' } }));
      assert.match(answer, /writtenWhileStopped[\s\S]*src\/offline\/written\.ts/, fresh.stderr());
    } finally {
      await fresh.close();
    }
  } finally {
    own.cleanup();
  }
});
