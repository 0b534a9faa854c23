import type { NodeId } from '../../graph/model.ts';
import type { EdgeHit, QueryEngine } from '../../query/engine.ts';
import { CODE_TIER, codeTiers } from '../../query/code-tier.ts';
import type { Candidate, Resolution } from '../../query/resolve.ts';
import { sanitize, sanitizeRelation, sanitizeSource } from '../../query/sanitize.ts';
import { bareName } from '../../query/tokens.ts';

/** `label [kind] file:L12`, every part sanitized. */
export function nodeLine(engine: QueryEngine, v: NodeId): string {
  const node = engine.ix.node(v);
  const loc = node.source_location ? `:${sanitize(node.source_location, 20)}` : '';
  const file = node.source_file ? ` ${engine.safeFile(v)}${loc}` : '';
  return `${engine.safeLabel(v)} [${sanitize(node.kind ?? node.file_type, 30)}]${file}`;
}

/** Sanitized copy-ready qualified reference of a node. */
export function qualified(engine: QueryEngine, v: NodeId): string {
  return engine.safeQualified(v);
}

export function sanitizedCandidates(candidates: Candidate[]): Array<Record<string, unknown>> {
  return candidates.map((c) => ({
    id: sanitize(c.id, 400),
    label: sanitize(c.label),
    source_file: sanitize(c.source_file),
    kind: sanitize(c.kind, 30),
    degree: c.degree,
    qualified: sanitize(c.qualified, 400),
  }));
}

/** The text for a name that did not resolve to one node. */
export function unresolvedText(res: Exclude<Resolution, { status: 'found' }>): string {
  if (res.status === 'not_found') return `No node matches '${sanitize(res.query)}'.${similarNames(res)} Try query_graph with a few words, or search_text for literal text.`;
  const lines = res.candidates.map((c) => `  ${sanitize(c.qualified, 400)}  [${sanitize(c.kind, 30)}] degree ${c.degree}`);
  const more = res.total > res.candidates.length ? `\n  (+${res.total - res.candidates.length} more; add @<file substring> to narrow)` : '';
  return `'${sanitize(res.query)}' is ambiguous: ${res.total} nodes match. Pass one of these qualified references:\n${lines.join('\n')}${more}`;
}

/**
 * ` Other names contain it: handler@src/a.ts, …` for a name no node has when others contain it, each
 * by a reference that resolves to exactly that node; '' otherwise.
 */
export function similarNames(res: Extract<Resolution, { status: 'not_found' }>): string {
  if (!res.similar?.length) return '';
  return ` Names that contain it (other symbols): ${res.similar.map((c) => sanitize(c.qualified, 400)).join(', ')}.`;
}

/** A capped edge listing (callers / callees / references / neighbours) as text lines. */
export function edgeLines(engine: QueryEngine, hits: EdgeHit[], limit: number, sites?: (hit: EdgeHit) => readonly string[]): { lines: string[]; shown: number } {
  const shown = Math.min(limit, hits.length);
  const lines: string[] = [];
  for (let i = 0; i < shown; i++) {
    const h = hits[i]!;
    const arrow = h.direction === 'in' ? '<-' : '->';
    lines.push(`  ${arrow} [${sanitizeRelation(h.relation)}] ${nodeLine(engine, h.node)}`);
    for (const site of sites?.(h) ?? []) lines.push(`      ${site}`);
  }
  if (hits.length > shown) lines.push(`  +${hits.length - shown} more (pass verbose=true or a larger limit)`);
  return { lines, shown };
}

/** `calls: 3, references: 1` */
export function breakdown(byRelation: Record<string, number>): string {
  return Object.entries(byRelation)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([r, c]) => `${sanitizeRelation(r)}: ${c}`)
    .join(', ');
}

/** The edge's site: `file:line` of the call or reference. */
export function edgeSite(engine: QueryEngine, e: number): { file: string; line: number } {
  return { file: engine.ix.edgeSiteFile(e), line: engine.ix.edgeLine[e]! };
}

/** The `at file:line: code` line show_sites prints: the file as a name (sanitize), the code line by the source-text rule (sanitizeSource). */
function formatSite(file: string, line: number, code: string | undefined): string {
  return `at ${sanitize(file)}:${line}: ${code === undefined ? '(source not readable)' : sanitizeSource(code)}`;
}

/** The spans of the named symbols inside a symbol (their sites are their own edges'). */
function nestedSpans(engine: QueryEngine, v: NodeId): Array<[number, number]> {
  const node = engine.ix.node(v);
  const prefix = `${node.id}.`;
  const out: Array<[number, number]> = [];
  for (const u of engine.ix.byFile.get(String(node.source_file ?? '')) ?? []) {
    const child = engine.ix.node(u);
    if (child.span && child.id.startsWith(prefix)) out.push([child.span.start_line, child.span.end_line]);
  }
  return out;
}

/** Relations whose every site show_sites finds in the source's body, and how a site names the target. */
const SITE_FORMS: Readonly<Record<string, 'call' | 'word'>> = { calls: 'call', instantiates: 'word', references: 'word', uses: 'word' };
const MAX_SITES = 40;
const STRING_LITERAL = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g;
const MAX_BODY_LINES = 3000;

/**
 * Every site of an edge, as show_sites prints them: the graph keeps one line per edge (the first
 * site), so for a call or reference the source symbol's body is read too, and each other line that
 * names the target there (`name(` for a call, the name as a word otherwise; comment lines skipped) is
 * a site. Capped at MAX_SITES with a count of the rest.
 */
export function siteLines(engine: QueryEngine, read: (file: string, line: number) => string | undefined, e: number): string[] {
  const first = edgeSite(engine, e);
  if (!first.line) return [];
  const ix = engine.ix;
  const form = SITE_FORMS[ix.relName(e)];
  const source = ix.node(ix.g.src[e]!);
  const name = bareName(ix.label(ix.g.dst[e]!));
  const span = source.span;
  const lines = [first.line];
  if (form && name.length >= 2 && span && source.kind !== 'file' && String(source.source_file ?? '') === first.file) {
    const escaped = name.replace(/[$]/g, '\\$');
    const pattern = new RegExp(`(^|[^A-Za-z0-9_$])${escaped}(?![A-Za-z0-9_$])${form === 'call' ? '\\s*(<[^()]*>)?\\s*\\(' : ''}`);
    const end = Math.min(span.end_line, span.start_line + MAX_BODY_LINES);
    const nested = nestedSpans(engine, ix.g.src[e]!);
    for (let l = span.start_line; l <= end; l++) {
      if (l === first.line || nested.some(([a, b]) => l >= a && l <= b)) continue;
      const code = read(first.file, l);
      // A comment line, or the name only inside a string literal, is no site.
      if (code === undefined || /^(\/\/|#|\*|\/\*)/.test(code) || !pattern.test(code.replace(STRING_LITERAL, '""'))) continue;
      lines.push(l);
    }
    lines.sort((a, b) => a - b);
  }
  const out = lines.slice(0, MAX_SITES).map((l) => formatSite(first.file, l, read(first.file, l)));
  if (lines.length > MAX_SITES) out.push(`(+${lines.length - MAX_SITES} more sites in ${sanitize(first.file)})`);
  return out;
}

/** Test dependents folded out of a listing: how many, in how many files, the files by count. */
export interface TestFold {
  count: number;
  files: Array<{ file: string; count: number }>;
}

/**
 * Library dependents first: `items` in their order with the library's (and examples', benchmarks')
 * before the tests' (code-tier.ts), and the tests' counted per file. A listing leads with what a
 * change breaks in the code itself; the tests that exercise it are a count per file unless asked for.
 */
export function libraryFirst<T extends { node: NodeId }>(engine: QueryEngine, items: readonly T[]): { library: T[]; tests: T[]; fold: TestFold } {
  const tiers = codeTiers(engine.ix);
  const library: T[] = [];
  const tests: T[] = [];
  const perFile = new Map<string, number>();
  for (const item of items) {
    if (tiers[item.node] !== CODE_TIER.test) {
      library.push(item);
      continue;
    }
    tests.push(item);
    const file = engine.safeFile(item.node);
    perFile.set(file, (perFile.get(file) ?? 0) + 1);
  }
  const files = [...perFile].map(([file, count]) => ({ file, count })).sort((a, b) => b.count - a.count || (a.file < b.file ? -1 : 1));
  return { library, tests, fold: { count: tests.length, files } };
}

const FOLD_FILES_SHOWN = 5;

/** `  + 57 in 9 test file(s): src/a.test.ts (20), src/b.test.ts (12), …, +4 more file(s) (<how to list them>)` */
export function testFoldLine(fold: TestFold, howToList: string): string {
  const shown = fold.files.slice(0, FOLD_FILES_SHOWN).map((f) => `${f.file} (${f.count})`).join(', ');
  const more = fold.files.length > FOLD_FILES_SHOWN ? `, +${fold.files.length - FOLD_FILES_SHOWN} more file(s)` : '';
  return `  + ${fold.count} in ${fold.files.length} test file(s): ${shown}${more} (${howToList})`;
}
