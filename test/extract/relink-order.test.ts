import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FileFacts } from '../../src/extract/facts.ts';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { linkGraph } from '../../src/extract/link/index.ts';
import { checkedOrder, relink } from '../../src/extract/link/incremental.ts';
import type { LanguageId } from '../../src/extract/languages.ts';
import { buildProjectContext } from '../../src/extract/project-context.ts';

// A keeper relinks from the list its previous relink returned: that list's order is not checked link
// by link again, and the result still equals a full link. A list from anywhere else is checked.

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'sql');
const FILES = ['web/client.ts', 'web/server.ts', 'web/hono.ts', 'web/app.py', 'web/reports.py', 'web/health.go', 'src/orders.ts'];
const lang = (p: string): LanguageId => (p.endsWith('.py') ? 'python' : p.endsWith('.go') ? 'go' : 'typescript');
const extract = (path: string, source: string): Promise<FileFacts> => extractFileFacts({ path, source, language: lang(path) });
const EDITED = 'web/server.ts';

async function setting() {
  const before = await Promise.all(FILES.map((p) => extract(p, readFileSync(join(FIXTURE, p), 'utf8'))));
  const original = before.find((f) => f.path === EDITED)!;
  const text = readFileSync(join(FIXTURE, EDITED), 'utf8');
  const edited = await extract(EDITED, `${text}\nexport function relinkOrderAdded(): void {}\n`);
  return { before, original, edited, context: buildProjectContext({}) };
}

test('a relink from the list the previous relink returned equals a full link, edit after edit', async () => {
  const { before, original, edited, context } = await setting();
  const full0 = linkGraph(before, context);
  assert.equal(checkedOrder(full0.links), false, 'a full link was not checked by relink');
  const after = before.map((f) => (f.path === EDITED ? edited : f));
  const inc1 = relink({
    facts: after, context, deps: full0.deps, before: new Map([[EDITED, original]]),
    previous: { links: full0.links, hazards: full0.hazards, unresolvedCalls: full0.unresolvedCalls },
  });
  assert.ok(inc1);
  assert.deepEqual(inc1.links, linkGraph(after, context).links);
  assert.equal(checkedOrder(inc1.links), true);
  // Back to the original text, from inc1's own list (as a keeper's next update does).
  const inc2 = relink({
    facts: before, context, deps: inc1.deps, before: new Map([[EDITED, edited]]),
    previous: { links: inc1.links, hazards: inc1.hazards, unresolvedCalls: inc1.unresolvedCalls },
  });
  assert.ok(inc2);
  assert.deepEqual(inc2.links, full0.links);
  assert.ok(inc2.relinked < before.length, 'not everything was relinked');
});

test('a list out of order is refused unless it is the very list a relink returned, as long as then', async () => {
  const { before, original, edited, context } = await setting();
  const full0 = linkGraph(before, context);
  const after = before.map((f) => (f.path === EDITED ? edited : f));
  const inc1 = relink({
    facts: after, context, deps: full0.deps, before: new Map([[EDITED, original]]),
    previous: { links: full0.links, hazards: full0.hazards, unresolvedCalls: full0.unresolvedCalls },
  });
  assert.ok(inc1);
  const next = (links: typeof inc1.links) => relink({
    facts: before, context, deps: inc1.deps, before: new Map([[EDITED, edited]]),
    previous: { links, hazards: inc1.hazards, unresolvedCalls: inc1.unresolvedCalls },
  });
  // Which of inc1's links the next relink keeps; two of them swapped, in a copy: checked, refused.
  const keptAt = [...next(inc1.links)!.linkFrom].filter((r) => r >= 0);
  assert.ok(keptAt.length >= 2);
  const swapped = [...inc1.links];
  const [a, b] = [keptAt[0]!, keptAt[keptAt.length - 1]!];
  [swapped[a], swapped[b]] = [swapped[b]!, swapped[a]!];
  assert.equal(checkedOrder(swapped), false);
  assert.equal(next(swapped), null, 'a list out of order is not canonical');
  // The list itself grown after the relink: no longer vouched for.
  const grown = inc1.links;
  grown.push({ ...grown[0]! });
  assert.equal(checkedOrder(grown), false);
});
