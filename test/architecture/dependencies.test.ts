import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// Enforces the one-way dependency arrows of STYLE.md section 1:
// cli -> mcp -> {query, memory, extract} -> graph -> core; vault imports nothing from src/;
// core/, graph/, query/ and explorer/ are browser-safe (node: only in *.node.ts files).

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  graph: ['core'],
  query: ['graph', 'core'],
  extract: ['graph', 'core'],
  memory: ['graph', 'core'],
  mesh: ['memory', 'graph', 'core'],
  // skills keep their team-mode metadata in memory's database (its connection, schema and project identity), as the mesh does
  skills: ['memory', 'vault'],
  vault: [],
  mcp: ['query', 'memory', 'mesh', 'extract', 'skills', 'vault', 'graph', 'core'],
  explorer: ['query', 'graph', 'core'],
  cli: ['mcp', 'query', 'memory', 'mesh', 'extract', 'skills', 'vault', 'graph', 'core', 'explorer'],
};
const BROWSER_SAFE = new Set(['core', 'graph', 'query', 'explorer']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function areaOf(file: string): string {
  return relative(SRC, file).split(sep)[0]!;
}

/** Import specifiers of a file: static imports/exports and dynamic import() with a literal. */
function importsOf(text: string): { spec: string; dynamic: boolean }[] {
  const found: { spec: string; dynamic: boolean }[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) found.push({ spec: m[1]!, dynamic: false });
  for (const m of code.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) found.push({ spec: m[1]!, dynamic: false });
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1]!, dynamic: true });
  return found;
}

test('src/ areas import only along the allowed arrows', () => {
  const violations: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = areaOf(file);
    const allowed = ALLOWED[from];
    if (!allowed) {
      if (file !== join(SRC, from)) violations.push(`${relative(SRC, file)}: area '${from}' has no rule in this test`);
      continue;
    }
    for (const { spec } of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(SRC + sep)) continue;
      const to = areaOf(target);
      if (to !== from && !allowed.includes(to)) violations.push(`${relative(SRC, file)} imports ${to}/ (${spec})`);
    }
  }
  assert.deepEqual(violations, []);
});

test('browser-safe areas have no static node: imports outside *.node.ts files', () => {
  const violations: string[] = [];
  for (const file of sourceFiles(SRC)) {
    if (!BROWSER_SAFE.has(areaOf(file)) || /\.node\.(ts|mts|js|mjs)$/.test(file)) continue;
    for (const { spec, dynamic } of importsOf(readFileSync(file, 'utf8'))) {
      if (dynamic) continue; // a dynamic import inside a Node-only branch is the sanctioned way
      const nodeBuiltin = spec.startsWith('node:');
      const nodeOnlyFile = spec.startsWith('.') && /\.node\.(ts|js)$/.test(spec);
      if (nodeBuiltin || nodeOnlyFile) violations.push(`${relative(SRC, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('importsOf() sees static, side-effect and dynamic imports', () => {
  const found = importsOf(`import { a } from './a.ts';\nimport './b.ts';\nexport { c } from '../c.ts';\nconst d = await import('node:fs');`);
  assert.deepEqual(found.map((f) => f.spec).sort(), ['../c.ts', './a.ts', './b.ts', 'node:fs']);
});
