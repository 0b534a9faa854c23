/**
 * Graph-only rules (no source read): generated code that made it into the graph, generated files
 * committed to the repository (the extractor skipped them), and files that failed to parse.
 * Browser-safe.
 */
import { isTestPath } from '../../graph/test-paths.ts';
import type { GraphIndex } from '../graph-index.ts';
import type { RawFinding } from './types.ts';

/** Folder names that hold generated output (a generator's own source lives in codegen/, generators/). */
const GENERATED_DIR = /^(?:generated|__generated__|autogen|auto-generated|\.generated|gen-src|generated-sources)$/i;
const CODE_FILE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|cs|rb|php|swift|scala|c|cc|cpp|h|hpp|dart)$/;
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
export function generatedInGraph(ix: GraphIndex, keep: (v: number) => boolean, test: Uint8Array): RawFinding[] {
  const folders = new Map<string, { files: Set<string>; nodes: number; first: number }>();
  for (const [file, ids] of ix.byFile) {
    const folder = generatedFolder(file);
    if (!folder) continue;
    for (const v of ids) {
      const n = ix.node(v);
      if (!keep(v) || test[v] || n.file_type !== 'code') continue;
      let f = folders.get(folder);
      if (!f) folders.set(folder, (f = { files: new Set(), nodes: 0, first: v }));
      f.files.add(file);
      f.nodes++;
      if (n.kind === 'file' && ix.node(f.first).kind !== 'file') f.first = v;
    }
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

/** Generated or minified files committed to the repository (meta.skipped_files), one finding per folder; test fixtures aside. */
export function generatedCommitted(skipped: Record<string, string> | undefined, keep: (path: string) => boolean): RawFinding[] {
  const folders = new Map<string, string[]>();
  for (const [path, reason] of Object.entries(skipped ?? {})) {
    if ((reason !== 'generated' && reason !== 'minified') || isTestPath(path) || !keep(path)) continue;
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
  const all = Object.entries(failed ?? {}).filter(([p]) => keep(p));
  const out: RawFinding[] = [];
  // Code that does not parse also fails to build; SQL or config often is templated (a tool limit, not a bug).
  for (const code of [true, false]) {
    const files = all.filter(([p]) => CODE_FILE.test(p) === code);
    if (!files.length) continue;
    out.push({
      rule_id: 'parse_failures', severity: code ? 'medium' : 'info', category: 'graph',
      title: `${plural(files.length, code ? 'code file' : 'non-code file')} failed to parse`,
      detail: code
        ? 'The extractor could not parse these files, so their symbols and calls are missing from the graph; a syntax error also breaks the build.'
        : 'The extractor could not parse these files (templated SQL or config is a common cause), so their schema objects are missing from the graph.',
      location: files[0]![0],
      evidence: files.slice(0, 3).map(([p, why]) => `${p}: ${why.slice(0, 120)}`),
      remediation: code ? 'Fix the syntax errors (or exclude the files if they are not code), then run synaptic update.' : 'If they are templates, exclude them in .synapticignore; otherwise fix the syntax.',
      confidence: code ? 0.8 : 0.6,
      subsystem: groupOf(files[0]![0]),
    });
  }
  return out;
}
