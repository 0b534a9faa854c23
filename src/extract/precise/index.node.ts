/**
 * Precise mode (`extract --precise`): after the tree-sitter link, the TypeScript checker resolves
 * every call, `new` and tagged template of the graph's TypeScript/JavaScript files, and its answers
 * replace the default mode's guesses there (merge.ts). Other languages keep their default edges.
 */
import type { GraphDocument } from '../../graph/model.ts';
import { mergePreciseSites, type MergeCounts } from './merge.ts';
import { createPreciseProgram, loadTypeScript } from './program.node.ts';
import { preciseSites } from './sites.node.ts';

const CODE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

export interface PreciseSummary extends MergeCounts {
  /** Files the checker read (the graph's TypeScript/JavaScript files). */
  files: number;
  /** Call sites it resolved to a definition in the graph. */
  sites: number;
  ms: number;
}

export async function applyPrecise(root: string, doc: GraphDocument): Promise<PreciseSummary> {
  const t0 = performance.now();
  const ts = await loadTypeScript();
  const files = doc.nodes.filter((n) => n.kind === 'file' && CODE.test(n.source_file) && !n.source_file.endsWith('.d.ts')).map((n) => n.source_file);
  const program = createPreciseProgram(ts, root, files);
  const found = preciseSites(ts, program, root, doc.nodes);
  const counts = mergePreciseSites(doc, found);
  doc.graph.precise = true;
  return { ...counts, files: files.length, sites: found.sites.length, ms: Math.round(performance.now() - t0) };
}
