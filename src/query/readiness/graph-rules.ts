/**
 * Graph-only rules (no source read): generated code that made it into the graph, generated files
 * committed to the repository (the extractor skipped them), and files that failed to parse.
 * Browser-safe.
 */
import type { GraphIndex } from '../graph-index.ts';
import type { RawFinding } from './types.ts';

/** Folder names that hold generated output (a generator's own source lives in codegen/, generators/). */
const GENERATED_DIR = /^(?:generated|__generated__|autogen|auto-generated|\.generated|gen-src|generated-sources)$/i;
/** Generated files grouped under a folder this many levels deep. */
const GROUP_DEPTH = 2;

function generatedFolder(path: string): string | undefined {
  const parts = path.split('/');
  for (let i = 0; i < parts.length - 1; i++) if (GENERATED_DIR.test(parts[i]!)) return parts.slice(0, i + 1).join('/');
  return undefined;
}

function groupOf(path: string): string {
  const parts = path.split('/');
  return parts.length <= 1 ? '.' : parts.slice(0, Math.min(GROUP_DEPTH, parts.length - 1)).join('/');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Generated folders whose files are in the graph: their symbols crowd search, god nodes and impact. */
export function generatedInGraph(ix: GraphIndex, keep: (v: number) => boolean): RawFinding[] {
  const folders = new Map<string, { files: Set<string>; nodes: number; first: number }>();
  for (let v = 0; v < ix.n; v++) {
    if (!keep(v)) continue;
    const n = ix.node(v);
    if (n.file_type !== 'code') continue;
    const folder = generatedFolder(n.source_file);
    if (!folder) continue;
    let f = folders.get(folder);
    if (!f) folders.set(folder, (f = { files: new Set(), nodes: 0, first: v }));
    f.files.add(n.source_file);
    f.nodes++;
    if (n.kind === 'file' && ix.node(f.first).kind !== 'file') f.first = v;
  }
  return [...folders].map(([folder, f]): RawFinding => ({
    rule_id: 'generated_in_graph', severity: 'low', category: 'generated',
    title: `Generated code in the graph: ${folder}/ (${plural(f.files.size, 'file')}, ${plural(f.nodes, 'node')})`,
    detail: `${folder}/ holds generated output, and its symbols are extracted like hand-written code: they crowd search results, hub rankings and blast radius, and edits there are overwritten by the next generation.`,
    location: `${folder}/`,
    node: f.first,
    evidence: [...f.files].sort().slice(0, 3).map((p) => `${p} (in a generated/ folder)`),
    remediation: `Add ${folder}/ to .synapticignore (or generate it at build time and stop committing it); change the generator's input instead of its output.`,
    confidence: 0.7,
    subsystem: folder,
  }));
}

/** Generated or minified files committed to the repository (meta.skipped_files), one finding per folder. */
export function generatedCommitted(skipped: Record<string, string> | undefined, keep: (path: string) => boolean): RawFinding[] {
  const folders = new Map<string, string[]>();
  for (const [path, reason] of Object.entries(skipped ?? {})) {
    if ((reason !== 'generated' && reason !== 'minified') || !keep(path)) continue;
    const g = groupOf(path);
    let list = folders.get(g);
    if (!list) folders.set(g, (list = []));
    list.push(`${path} (${reason})`);
  }
  return [...folders].map(([folder, files]): RawFinding => ({
    rule_id: 'generated_committed', severity: 'info', category: 'generated',
    title: `${plural(files.length, 'generated or minified file')} committed under ${folder}/`,
    detail: 'These files carry a generated marker or a generated/minified name, so extraction skipped them; committed, they add review and merge noise, and go stale when their generator changes.',
    location: folder === '.' ? files[0]!.replace(/ \(.*\)$/, '') : `${folder}/`,
    evidence: files.sort().slice(0, 3),
    remediation: 'Generate them in the build (and list them in .gitignore), or mark them linguist-generated in .gitattributes so reviews collapse them.',
    confidence: 0.9,
    subsystem: folder,
  }));
}

/** Files the extractor could not parse: the graph (and this audit) is blind there. */
export function parseFailures(failed: Record<string, string> | undefined, keep: (path: string) => boolean): RawFinding[] {
  const files = Object.entries(failed ?? {}).filter(([p]) => keep(p));
  if (!files.length) return [];
  return [{
    rule_id: 'parse_failures', severity: 'medium', category: 'graph',
    title: `${plural(files.length, 'file')} failed to parse`,
    detail: 'The extractor could not parse these files, so their symbols and calls are missing from the graph; a syntax error also breaks the build.',
    location: files[0]![0],
    evidence: files.slice(0, 3).map(([p, why]) => `${p}: ${why.slice(0, 120)}`),
    remediation: 'Fix the syntax errors (or exclude the files if they are not code), then run synaptic update.',
    confidence: 0.8,
    subsystem: groupOf(files[0]![0]),
  }];
}
