/** Shared harness of the lang-*.test.ts files: extract + link in-memory sources, list edges readably. */
import type { FileFacts } from '../../src/extract/facts.ts';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { languageForPath } from '../../src/extract/languages.ts';
import { linkGraph, type LinkResult } from '../../src/extract/link/index.ts';
import { buildProjectContext } from '../../src/extract/project-context.ts';

export interface Linked extends LinkResult {
  facts: FileFacts[];
  /** `source -> target` for each link of a relation. */
  edges(relation: string): string[];
  confidence(source: string, target: string, relation?: string): string | undefined;
}

export async function linkSources(sources: Record<string, string>, config: Record<string, string> = {}): Promise<Linked> {
  const facts: FileFacts[] = [];
  for (const [path, source] of Object.entries(sources)) {
    const language = languageForPath(path);
    if (!language) throw new TypeError(`Cannot extract "${path}": unknown language`);
    facts.push(await extractFileFacts({ path, source, language }));
  }
  const r = linkGraph(facts, buildProjectContext(config));
  return {
    ...r,
    facts,
    edges: (relation) => r.links.filter((l) => l.relation === relation).map((l) => `${l.source} -> ${l.target}`),
    confidence: (s, t, rel = 'calls') => r.links.find((l) => l.source === s && l.target === t && l.relation === rel)?.confidence,
  };
}
