/**
 * Extraction cases in tree-sitter's corpus format (test/extract/corpus/*.txt): a `===` header with
 * the case name, source files introduced by `// file: <path>`, `---`, then expected facts, one per
 * line: `def <kind> <id>`, `<relation> <source> -> <target> [CONFIDENCE]`, `!<relation> <s> -> <t>`
 * (must be absent), `hazard <kind>`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

const DIR = join(import.meta.dirname, 'corpus');

interface Case { name: string; files: Record<string, string>; expect: string[] }

function parseCorpus(text: string): Case[] {
  const cases: Case[] = [];
  const parts = text.split(/^={3,}\n(.+)\n={3,}\n/m);
  for (let k = 1; k + 1 < parts.length; k += 2) {
    const [src, exp] = parts[k + 1]!.split(/^---\n/m);
    const files: Record<string, string> = {};
    let cur: string | null = null;
    for (const line of src!.split('\n')) {
      const m = /^\/\/ file: (.+)$/.exec(line);
      if (m) { cur = m[1]!.trim(); files[cur] = ''; continue; }
      if (cur) files[cur] += line + '\n';
    }
    cases.push({ name: parts[k]!.trim(), files, expect: (exp ?? '').split('\n').map((l) => l.trim()).filter(Boolean) });
  }
  return cases;
}

for (const file of readdirSync(DIR).filter((f) => f.endsWith('.txt')).sort()) {
  for (const c of parseCorpus(readFileSync(join(DIR, file), 'utf8'))) {
    test(`corpus ${file}: ${c.name}`, async () => {
      const g = await linkSources(c.files);
      for (const line of c.expect) {
        const def = /^def (\S+) (\S+)$/.exec(line);
        if (def) {
          const n = g.nodes.find((x) => x.id === def[2]);
          assert.equal(n?.kind, def[1], line);
          continue;
        }
        const hz = /^hazard (\S+)$/.exec(line);
        if (hz) { assert.ok(g.hazards.some((h) => h.kind === hz[1]), line); continue; }
        const edge = /^(!?)(\S+) (\S+) -> (\S+)(?: (EXTRACTED|INFERRED|AMBIGUOUS))?$/.exec(line);
        assert.ok(edge, `Cannot parse expectation: ${line}`);
        const [, neg, rel, s, t, conf] = edge;
        const link = g.links.find((l) => l.relation === rel && l.source === s && l.target === t);
        if (neg) assert.equal(link, undefined, line);
        else {
          assert.ok(link, `${line}\n  links: ${g.links.filter((l) => l.relation === rel).map((l) => `${l.source} -> ${l.target} ${l.confidence}`).join('\n         ')}`);
          if (conf) assert.equal(link.confidence, conf, line);
        }
      }
    });
  }
}
