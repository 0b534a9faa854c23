/**
 * Merges the checker's call sites into the tree-sitter graph. For TypeScript/JavaScript files:
 * - a checker pair (caller, callee, relation) becomes an EXTRACTED link (score 1), added or upgraded;
 * - a default-mode `calls`/`instantiates` link the checker does not confirm is dropped when the
 *   checker resolved the call at that link's line (to another definition, or outside the repository);
 *   at a site the checker could not resolve (an `any` receiver) the default link stays;
 * - `tests` links from test files follow the final calls, as the default linker derives them.
 * Links of other languages and other relations are untouched. The result is in canonical order.
 */
import type { GraphDocument, GraphLink } from '../../graph/model.ts';
import type { PreciseSites } from './sites.node.ts';

const CALL_RELATIONS = new Set(['calls', 'instantiates']);
const CODE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

export interface MergeCounts { added: number; upgraded: number; dropped: number }

const key = (l: { source: string; target: string; relation: string }): string => `${l.source}\0${l.target}\0${l.relation}`;
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function mergePreciseSites(doc: GraphDocument, checked: PreciseSites): MergeCounts {
  const testFiles = new Set<string>();
  for (const n of doc.nodes) if (n.kind === 'file' && n.is_test === true) testFiles.add(n.source_file);

  const first = new Map<string, { file: string; line: number; relation: 'calls' | 'instantiates'; caller: string; callee: string }>();
  for (const s of checked.sites) {
    if (s.caller === s.callee && s.relation !== 'calls') continue;
    const k = key({ source: s.caller, target: s.callee, relation: s.relation });
    const had = first.get(k);
    if (!had || s.line < had.line) first.set(k, { file: s.file, line: s.line, relation: s.relation, caller: s.caller, callee: s.callee });
  }

  const counts: MergeCounts = { added: 0, upgraded: 0, dropped: 0 };
  const kept: GraphLink[] = [];
  const present = new Set<string>();
  for (const l of doc.links) {
    const code = CODE.test(l.source_file);
    if (code && l.relation === 'tests') continue; // derived again below
    if (code && CALL_RELATIONS.has(l.relation)) {
      const k = key(l);
      if (first.has(k)) {
        if (l.confidence !== 'EXTRACTED' || l.confidence_score !== 1) counts.upgraded++;
        const site = first.get(k)!;
        kept.push({ ...l, confidence: 'EXTRACTED', confidence_score: 1, source_location: `L${site.line}` });
        present.add(k);
        continue;
      }
      const line = Number.parseInt(l.source_location.slice(1), 10);
      if (checked.resolved.has(`${l.source}\0${line}`)) { counts.dropped++; continue; }
    }
    kept.push(l);
    present.add(key(l));
  }
  for (const [k, s] of first) {
    if (present.has(k)) continue;
    kept.push({ source: s.caller, target: s.callee, relation: s.relation, confidence: 'EXTRACTED', confidence_score: 1, source_file: s.file, source_location: `L${s.line}` });
    present.add(k);
    counts.added++;
  }
  // `tests`: a test file's (non-ambiguous) call of a definition outside the tests.
  for (const l of [...kept]) {
    if (l.relation !== 'calls' || !CODE.test(l.source_file) || !testFiles.has(l.source_file) || l.confidence === 'AMBIGUOUS') continue;
    if (testFiles.has(l.target.includes('#') ? l.target.slice(0, l.target.indexOf('#')) : l.target)) continue;
    const t = { ...l, relation: 'tests' };
    if (present.has(key(t))) continue;
    present.add(key(t));
    kept.push({ source: l.source, target: l.target, relation: 'tests', confidence: l.confidence, confidence_score: l.confidence_score, source_file: l.source_file, source_location: l.source_location });
  }
  kept.sort((a, b) => cmp(a.source, b.source) || cmp(a.target, b.target) || cmp(a.relation, b.relation));
  doc.links = kept;
  return counts;
}
