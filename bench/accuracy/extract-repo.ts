/**
 * Drives the extractor in-process over a repository (sequential, no workers): walk source files,
 * extract facts, build the project context, link. For accuracy runs and profiling; the real CLI
 * uses the pipeline (src/extract/pipeline.node.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FileFacts } from '../../src/extract/facts.ts';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { languageForPath } from '../../src/extract/languages.ts';
import { linkGraph, type LinkResult } from '../../src/extract/link/index.ts';
import { buildProjectContext, CONTEXT_FILE_NAMES } from '../../src/extract/project-context.ts';

const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', '.git', 'coverage', 'out', '.next', 'vendor']);

export interface RepoExtract {
  result: LinkResult;
  files: number;
  lines: number;
  parseMs: number;
  linkMs: number;
  failed: Record<string, string>;
}

export async function extractRepo(root: string, only?: (path: string) => boolean): Promise<RepoExtract> {
  const sources: string[] = [];
  const config: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(name)) walk(p);
        continue;
      }
      const rel = relative(root, p).split('\\').join('/');
      if (CONTEXT_FILE_NAMES.includes(name)) config[rel] = readFileSync(p, 'utf8');
      if (st.size < 1_000_000 && languageForPath(rel) && (!only || only(rel))) sources.push(rel);
    }
  };
  walk(root);
  const facts: FileFacts[] = [];
  const failed: Record<string, string> = {};
  let lines = 0;
  const t0 = performance.now();
  for (const rel of sources) {
    try {
      const f = await extractFileFacts({ path: rel, source: readFileSync(join(root, rel), 'utf8'), language: languageForPath(rel)! });
      lines += f.lines;
      facts.push(f);
    } catch (err) {
      failed[rel] = (err as Error).message;
    }
  }
  const t1 = performance.now();
  const result = linkGraph(facts, buildProjectContext(config));
  const t2 = performance.now();
  return { result, files: facts.length, lines, parseMs: t1 - t0, linkMs: t2 - t1, failed };
}
