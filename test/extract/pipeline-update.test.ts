import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import { KeptOutputs } from '../../src/extract/out/kept.node.ts';
import { assertSameOutputs, copyFixture } from './pipeline-fixture.ts';

/** mulberry32: a seeded PRNG so a failure replays. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sourceFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, rel)).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    if (['node_modules', 'dist', 'out', 'synaptic-out', 'drafts'].includes(name)) continue;
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(root, path));
    else if (/\.(ts|tsx|js|py|go|rs|java|rb|php|cs|cpp)$/.test(name) && !name.endsWith('_pb.ts')) out.push(path);
  }
  return out;
}

/** The tree's source files, a picker driven by `random`, and one picked file (repo-relative and absolute). */
function randomSourceFile(root: string, random: () => number) {
  const files = sourceFiles(root);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  const file = pick(files);
  return { files, pick, file, abs: join(root, file) };
}

/** One random change to the tree; returns a description for the failure message. */
function mutate(root: string, random: () => number, step: number): string {
  const { pick, file, abs } = randomSourceFile(root, random);
  const op = pick(['append', 'append', 'flip', 'truncate', 'rename', 'delete', 'add', 'add']);
  switch (op) {
    case 'append': {
      const ts = /\.(ts|tsx|js)$/.test(file);
      const py = file.endsWith('.py');
      const text = ts ? `\nexport function added${step}(): string {\n  return normalizePath('/x${step}');\n}\n`
        : py ? `\n\ndef added_${step}():\n    return Dog("r{step}").speak()\n`
          : `\n// edit ${step}\n`;
      writeFileSync(abs, readFileSync(abs, 'utf8') + text);
      return `append to ${file}`;
    }
    case 'flip': {
      // Same size, different bytes: caught by mtime, then the content hash.
      const text = readFileSync(abs, 'utf8');
      const i = text.search(/[a-z]{4,}/);
      if (i < 0) return 'noop';
      writeFileSync(abs, text.slice(0, i) + (text[i] === 'q' ? 'r' : 'q') + text.slice(i + 1));
      return `flip a byte in ${file}`;
    }
    case 'truncate': {
      const text = readFileSync(abs, 'utf8');
      writeFileSync(abs, text.slice(0, Math.floor(text.length * (0.3 + 0.5 * random()))));
      return `truncate ${file}`;
    }
    case 'rename': {
      const to = join(dirname(file), `renamed${step}_${file.slice(file.lastIndexOf('/') + 1)}`);
      renameSync(abs, join(root, to));
      return `rename ${file} -> ${to}`;
    }
    case 'delete':
      rmSync(abs);
      return `delete ${file}`;
    default: {
      const dir = pick(['src', 'src/core', 'src/util', 'test', 'py/zoo']);
      mkdirSync(join(root, dir), { recursive: true });
      const name = dir.startsWith('py') ? `extra${step}.py` : `extra${step}.ts`;
      const body = name.endsWith('.py')
        ? `from .animals import Dog\n\n\ndef extra_${step}():\n    return Dog("x").fetch("y")\n`
        : `import { Router } from '${dir === 'src/core' ? './router' : dir === 'test' ? '../src/core/router' : '../core/router'}';\n`
          + `import { splitPath } from '${dir === 'src/util' ? './strings' : dir === 'test' ? '../src/util/strings' : dir === 'src' ? './util/strings' : '../util/strings'}';\n\n`
          + `export function extra${step}(): number {\n  const r = new Router();\n  r.add('GET', '/e', () => 'e');\n  return splitPath('/a/b').length + r.size();\n}\n`;
      writeFileSync(join(root, dir, name), body);
      return `add ${dir}/${name}`;
    }
  }
}

for (const keeper of [false, true]) {
  test(`update after random edits, renames and deletions equals a fresh full extract${keeper ? ' (a keeper: outputs kept in memory between updates)' : ''}`, async () => {
    await randomEdits(keeper ? new KeptOutputs() : undefined);
  });
  test(`content-only edits relink only what they affect and still equal a full extract${keeper ? ' (a keeper)' : ''}`, async () => {
    await contentEdits(keeper ? new KeptOutputs() : undefined);
  });
}

async function randomEdits(kept: KeptOutputs | undefined): Promise<void> {
  const fx = copyFixture();
  const random = rng(20261129);
  try {
    const updOut = join(fx.dir, 'out-update');
    const first = await runExtract({ root: fx.dir, outDir: updOut, workers: 0 });
    assert.equal(first.mode, 'full');
    let step = 0;
    for (let round = 0; round < 3; round++) {
      const changes: string[] = [];
      for (let k = 0; k < 4; k++) changes.push(mutate(fx.dir, random, ++step));
      if (kept && round === 1) {
        // Another process updates the same outputs in between: the kept copies must not be trusted.
        await runExtract({ root: fx.dir, outDir: updOut, workers: 0, incremental: true });
        changes.push(mutate(fx.dir, random, ++step));
      }
      const upd = await runExtract({ root: fx.dir, outDir: updOut, workers: 0, incremental: true, ...(kept ? { kept } : {}) });
      const fullOut = join(fx.dir, `out-full-${round}`);
      const full = await runExtract({ root: fx.dir, outDir: fullOut, workers: 0 });
      assert.equal(upd.mode, 'update');
      assert.ok(upd.parsed < full.parsed, `round ${round}: update re-parsed ${upd.parsed} of ${full.parsed} files`);
      assertSameOutputs(updOut, fullOut, `round ${round} after [${changes.join('; ')}]`);
      assert.ok(!existsSync(join(fullOut, 'graph.json.tmp')), 'no temp files left behind');
    }
    // Position-only edits (blank lines at random places of random files): the update may move
    // positions in the previous graph instead of relinking, and must still equal a full extract.
    let positions = 0;
    for (let round = 3; round < 6; round++) {
      const files = sourceFiles(fx.dir);
      const changes: string[] = [];
      for (let k = 0; k < 2; k++) {
        const file = files[Math.floor(random() * files.length)]!;
        const lines = readFileSync(join(fx.dir, file), 'utf8').split('\n');
        const at = Math.floor(random() * lines.length);
        lines.splice(at, 0, '');
        writeFileSync(join(fx.dir, file), lines.join('\n'));
        changes.push(`blank line at ${file}:${at + 1}`);
      }
      const upd = await runExtract({ root: fx.dir, outDir: updOut, workers: 0, incremental: true, ...(kept ? { kept } : {}) });
      if (upd.linkMode === 'positions') positions++;
      const fullOut = join(fx.dir, `out-full-${round}`);
      await runExtract({ root: fx.dir, outDir: fullOut, workers: 0 });
      assertSameOutputs(updOut, fullOut, `round ${round} after [${changes.join('; ')}] (${upd.linkMode})`);
    }
    assert.ok(positions > 0, 'at least one blank-line round took the positions-only path');
    if (kept) assert.ok(kept.counts.kept > 10, `updates read their previous outputs from memory: ${JSON.stringify(kept.counts)}`);
    // A no-op update parses nothing; touching files without changing them stops before linking.
    const again = await runExtract({ root: fx.dir, outDir: updOut, workers: 0, incremental: true, ...(kept ? { kept } : {}) });
    assert.equal(again.parsed, 0);
    assert.equal(again.added + again.changed + again.deleted, 0);
    const before = readFileSync(join(updOut, 'graph.json'));
    const now = new Date();
    for (const f of sourceFiles(fx.dir).slice(0, 5)) utimesSync(join(fx.dir, f), now, now);
    const touched = await runExtract({ root: fx.dir, outDir: updOut, workers: 0, incremental: true, ...(kept ? { kept } : {}) });
    assert.equal(touched.parsed, 0, 'same bytes: the hash matches, nothing is parsed');
    assert.equal(touched.timingsMs.link, 0, 'same inputs: no relinking');
    assert.equal(touched.nodes, again.nodes);
    assert.ok(readFileSync(join(updOut, 'graph.json')).equals(before));
    // Recently modified files are re-hashed on every update (mtime granularity), still nothing parses.
    assert.equal((await runExtract({ root: fx.dir, outDir: updOut, workers: 0, incremental: true, ...(kept ? { kept } : {}) })).parsed, 0);
  } finally {
    fx.cleanup();
  }
}

const DEFINITION = /(?:\bfunction|\bdef|\bfunc|\bfn|\bvoid)\s+([A-Za-z_]\w*)\s*\(/g;

/** A definition of `name` in the syntax of `file`'s language, appended at its end (null: not this language). */
function definitionOf(file: string, name: string): string | null {
  if (/\.(ts|tsx|js)$/.test(file)) return `\nexport function ${name}(): void {}\n`;
  if (file.endsWith('.py')) return `\n\nclass Extra_${name}:\n    def ${name}(self):\n        return 1\n\n\ndef ${name}():\n    pass\n`;
  if (file.endsWith('.rb')) return `\ndef ${name}\nend\n`;
  if (file.endsWith('.go')) return `\nfunc ${name}() {}\n`;
  if (file.endsWith('.rs')) return `\nfn ${name}() {}\n`;
  if (file.endsWith('.cpp')) return `\nvoid ${name}() {}\n`;
  return null;
}

/** One random content-only change (no file added, renamed or deleted); returns a description. */
function mutateContent(root: string, random: () => number, step: number): string {
  const { files, pick, file, abs } = randomSourceFile(root, random);
  const text = readFileSync(abs, 'utf8');
  const op = pick(['rename-def', 'rename-def', 'same-name', 'same-name', 'import-call', 'import-call', 'append', 'flip', 'blank']);
  switch (op) {
    case 'rename-def': {
      // Rename a definition (not its uses): edges into it from other files must go.
      const m = [...text.matchAll(DEFINITION)];
      if (!m.length) return 'noop';
      const hit = pick(m);
      const at = hit.index! + hit[0].lastIndexOf(hit[1]!);
      writeFileSync(abs, text.slice(0, at) + `${hit[1]}R${step}` + text.slice(at + hit[1]!.length));
      return `rename ${hit[1]} in ${file}`;
    }
    case 'same-name': {
      // Define a name another file defines: by-name candidates (globals, methods, packages) change.
      const names = files.flatMap((f) => [...readFileSync(join(root, f), 'utf8').matchAll(DEFINITION)].map((x) => x[1]!));
      const def = names.length ? definitionOf(file, pick(names)) : null;
      if (!def) return 'noop';
      writeFileSync(abs, text + def);
      return `same-name definition in ${file}: ${def.trim().split('\n')[0]}`;
    }
    case 'import-call': {
      // A TS file imports an export of another file and calls it.
      if (!/\.(ts|tsx)$/.test(file)) return 'noop';
      const [target, name] = pick([['src/util/strings.ts', 'splitPath'], ['src/util/strings.ts', 'normalizePath'], ['src/util/index.ts', 'joinPath'], ['src/core/router.ts', 'Router']] as const);
      if (!existsSync(join(root, target))) return 'noop';
      const from = dirname(file).split('/');
      const to = target.replace(/\.ts$/, '').split('/');
      let common = 0;
      while (common < from.length && from[common] === to[common]) common++;
      const rel = [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
      const spec = rel.startsWith('.') ? rel : `./${rel}`;
      const call = name === 'Router' ? `new ${name}()` : `${name}('/x/${step}')`;
      writeFileSync(abs, `import { ${name} as imported${step} } from '${spec}';\n` + text + `\nexport function calls${step}() {\n  return ${call.replace(name, `imported${step}`)};\n}\n`);
      return `import-call ${name} from ${file}`;
    }
    case 'append': {
      writeFileSync(abs, text + (/\.(ts|tsx|js)$/.test(file) ? `\nexport function added${step}(): string {\n  return normalizePath('/x${step}');\n}\n` : `\n// edit ${step}\n`));
      return `append to ${file}`;
    }
    case 'flip': {
      const i = text.search(/[a-z]{4,}/);
      if (i < 0) return 'noop';
      writeFileSync(abs, text.slice(0, i) + (text[i] === 'q' ? 'r' : 'q') + text.slice(i + 1));
      return `flip a byte in ${file}`;
    }
    default: {
      const lines = text.split('\n');
      lines.splice(Math.floor(random() * lines.length), 0, '');
      writeFileSync(abs, lines.join('\n'));
      return `blank line in ${file}`;
    }
  }
}

async function contentEdits(kept: KeptOutputs | undefined): Promise<void> {
  const fx = copyFixture();
  const random = rng(7041);
  try {
    const updOut = join(fx.dir, 'out-update');
    const first = await runExtract({ root: fx.dir, outDir: updOut, workers: 0 });
    let step = 100;
    const modes = new Map<string, number>();
    for (let round = 0; round < 10; round++) {
      const changes: string[] = [];
      const count = 1 + Math.floor(random() * 3);
      for (let k = 0; k < count; k++) changes.push(mutateContent(fx.dir, random, ++step));
      const upd = await runExtract({ root: fx.dir, outDir: updOut, workers: 0, incremental: true, ...(kept ? { kept } : {}) });
      modes.set(upd.linkMode, (modes.get(upd.linkMode) ?? 0) + 1);
      if (process.env.DEBUG_UPD) console.error(round, upd.linkMode, upd.relinked, changes.join("; "));
      if (upd.linkMode === 'incremental') assert.ok(upd.relinked < first.files, `round ${round}: relinked ${upd.relinked} files`);
      const fullOut = join(fx.dir, `out-full-c${round}`);
      await runExtract({ root: fx.dir, outDir: fullOut, workers: 0 });
      assertSameOutputs(updOut, fullOut, `round ${round} after [${changes.join('; ')}] (${upd.linkMode})`);
      assert.equal(readFileSync(join(updOut, 'GRAPH_REPORT.md'), 'utf8'), readFileSync(join(fullOut, 'GRAPH_REPORT.md'), 'utf8'), `round ${round}: report differs`);
      rmSync(fullOut, { recursive: true });
    }
    assert.ok((modes.get('incremental') ?? 0) >= 5, `most rounds relink incrementally: ${JSON.stringify([...modes])}`);
  } finally {
    fx.cleanup();
  }
}
