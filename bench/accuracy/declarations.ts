/**
 * Issue #17.2's target: every function and class declared in a TypeScript/JavaScript file that
 * `tsc` parses without a syntax error appears as a graph node. The truth is TypeScript's own parser
 * (syntax only: `ts.createSourceFile`, no type check); a declaration counts as found when the graph
 * has a node of that file whose span starts on the declaration's name line or its first line.
 *
 *   node --import tsx bench/accuracy/declarations.ts <repo> [<graph.json>] [--misses 20]
 *
 * The graph defaults to <repo>/synaptic-out/graph.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

interface Declared { file: string; name: string; lines: number[] }

const CODE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

function declarationsOf(file: string, text: string): Declared[] | null {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  // parseDiagnostics is internal but stable: the syntax errors tsc itself would report.
  if (((sf as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics ?? []).length) return null;
  const out: Declared[] = [];
  const lineOf = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node): void => {
    // Overload heads (no body) are not definitions of their own.
    const named = (ts.isFunctionDeclaration(node) && node.body !== undefined) || ts.isClassDeclaration(node);
    if (named && node.name) out.push({ file, name: node.name.text, lines: [lineOf(node.name.getStart(sf)), lineOf(node.getStart(sf))] });
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

interface GraphNode { source_file?: string; span?: { start_line: number }; source_location?: string; kind?: string }

const args = process.argv.slice(2);
const missesAt = args.indexOf('--misses');
const showMisses = missesAt >= 0 ? Number(args.splice(missesAt, 2)[1]) : 10;
const [root, graphPath = join(root ?? '.', 'synaptic-out', 'graph.json')] = args;
if (!root) {
  console.error('usage: declarations.ts <repo> [<graph.json>] [--misses N]');
  process.exit(2);
}
const graph = JSON.parse(readFileSync(graphPath, 'utf8')) as { nodes: GraphNode[] };
const nodeLines = new Map<string, Set<number>>();
for (const n of graph.nodes) {
  if (!n.source_file) continue;
  let set = nodeLines.get(n.source_file);
  if (!set) nodeLines.set(n.source_file, (set = new Set()));
  if (n.kind !== 'file' && n.kind !== 'module') set.add(n.span?.start_line ?? Number((n.source_location ?? '').slice(1)));
}
let files = 0;
let skipped = 0;
let declared = 0;
const missing: Declared[] = [];
for (const file of nodeLines.keys()) {
  if (!CODE.test(file) || file.endsWith('.d.ts')) continue;
  const decls = declarationsOf(file, readFileSync(join(root, file), 'utf8'));
  if (!decls) { skipped++; continue; }
  files++;
  for (const d of decls) {
    declared++;
    if (!d.lines.some((l) => nodeLines.get(file)!.has(l))) missing.push(d);
  }
}
console.log(`${files} files (${skipped} with tsc syntax errors skipped): ${declared} functions/classes declared, ${missing.length} not nodes`);
for (const m of missing.slice(0, showMisses)) console.log(`  missing ${m.file}:${m.lines[0]} ${m.name}`);
