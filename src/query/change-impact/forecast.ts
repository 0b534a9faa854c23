import type { NodeId } from '../../graph/model.ts';
import { lineOf, type QueryEngine } from '../engine.ts';
import { IMPACT_MASK } from '../relations.ts';
import { sanitize, sanitizeRelation } from '../sanitize.ts';
import { changeImpact, testsOfImpact, type ChangedFileInput, type ChangeImpact, type TestHit } from './impact.ts';
import { assessRisk, type ChangeRisk } from './risk.ts';

/**
 * predict_impact's ChangeForecast (spec: Structured output): what the changed files define, who
 * depends on it, which changed symbols other files use (public API at risk), the tests at risk, a
 * heuristic risk with its drivers and a checklist. Plain, sanitized data; browser-safe.
 */

export interface ForecastNode {
  id: string;
  label: string;
  kind: string;
  file: string;
  line: number;
}

export interface ReachedNode {
  id: string;
  label: string;
  file: string;
  depth: number;
  via_relation: string;
}

export interface PublicApiBreak extends ForecastNode {
  /** Copy-ready reference (label@file when the label is shared). */
  qualified: string;
  /** Distinct dependents (one hop, impact relations) defined in other files. */
  external_dependents: number;
  /** How many other files, and other folders (modules), those dependents sit in. */
  files: number;
  modules: number;
  /** A few of those dependents, copy-ready. */
  sample: string[];
}

export interface ChangeForecast {
  summary: string;
  depth: number;
  changed_files: Array<{ file: string; status: string; nodes: number; in_graph: boolean }>;
  changed_nodes: ForecastNode[];
  public_api_breaks: PublicApiBreak[];
  blast_radius: ReachedNode[];
  blast_radius_total: number;
  at_risk_tests: ReachedNode[];
  at_risk_tests_total: number;
  verify_checklist: string[];
  risk: ChangeRisk;
}

/** Reached lists in the structured mirror stop here (the totals stay exact). */
export const STRUCTURED_CAP = 1000;

const SAMPLE = 3;

function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '' : file.slice(0, slash);
}

export function forecastNode(engine: QueryEngine, v: NodeId): ForecastNode {
  const node = engine.ix.node(v);
  return { id: sanitize(node.id, 400), label: engine.safeLabel(v), kind: sanitize(String(node.kind ?? node.file_type), 30), file: engine.safeFile(v), line: lineOf(node.source_location) };
}

export function reachedNode(engine: QueryEngine, hit: { node: NodeId; depth: number; via: string }): ReachedNode {
  return { id: sanitize(engine.ix.node(hit.node).id, 400), label: engine.safeLabel(hit.node), file: engine.safeFile(hit.node), depth: hit.depth, via_relation: sanitizeRelation(hit.via) };
}

/** Changed symbols (not file nodes) that nodes in other files depend on directly, most used first. */
export function publicApiBreaks(engine: QueryEngine, changed: readonly NodeId[]): PublicApiBreak[] {
  const ix = engine.ix;
  const out: Array<PublicApiBreak & { order: number }> = [];
  for (const v of changed) {
    const node = ix.node(v);
    if (node.kind === 'file') continue;
    const own = String(node.source_file ?? '');
    const ownFolder = folderOf(own);
    const users = new Set<NodeId>();
    const files = new Set<string>();
    const modules = new Set<string>();
    for (let i = ix.inOff[v]!; i < ix.inOff[v + 1]!; i++) {
      const e = ix.inEdges[i]!;
      if (((IMPACT_MASK >>> ix.g.rel[e]!) & 1) === 0) continue;
      const u = ix.g.src[e]!;
      const file = String(ix.node(u).source_file ?? '');
      if (!file || file === own || users.has(u)) continue;
      users.add(u);
      files.add(file);
      if (folderOf(file) !== ownFolder) modules.add(folderOf(file));
    }
    if (!users.size) continue;
    const sample = [...users].sort((a, b) => ix.degree[b]! - ix.degree[a]! || a - b).slice(0, SAMPLE).map((u) => engine.safeQualified(u));
    out.push({ ...forecastNode(engine, v), qualified: engine.safeQualified(v), external_dependents: users.size, files: files.size, modules: modules.size, sample, order: ix.labelOrder[v]! });
  }
  out.sort((a, b) => b.external_dependents - a.external_dependents || b.files - a.files || a.order - b.order);
  return out.map(({ order: _order, ...rest }) => rest);
}

/** The distinct test files among test hits, in first-reached order. */
export function testFiles(engine: QueryEngine, tests: readonly TestHit[]): string[] {
  const files = new Set<string>();
  for (const t of tests) files.add(engine.safeFile(t.node));
  return [...files];
}

/** The forecast of a change given its files (the walk included). */
export function forecastChange(engine: QueryEngine, files: readonly ChangedFileInput[], depth?: number): ChangeForecast {
  return forecastOf(engine, changeImpact(engine, files, depth));
}

/** The forecast of an impact already walked. */
export function forecastOf(engine: QueryEngine, impact: ChangeImpact): ChangeForecast {
  const tests = testsOfImpact(engine, impact);
  const api = publicApiBreaks(engine, impact.changed);
  const risk = assessRisk(engine, impact, api, tests);
  const checklist = verifyChecklist(engine, impact, api, tests);
  const inGraph = impact.files.filter((f) => f.nodes.length).length;
  const summary =
    `${plural(impact.files.length, 'changed file')} (${inGraph} in the graph), ${plural(impact.changed.length, 'changed node')}, ` +
    `${plural(impact.dependents.length, 'dependent')} within ${impact.depth} hop${impact.depth === 1 ? '' : 's'}, ` +
    `${plural(api.length, 'public API')} at risk, ${plural(tests.length, 'test')} at risk; risk ${risk.level}`;
  return {
    summary,
    depth: impact.depth,
    changed_files: impact.files.map((f) => ({ file: sanitize(f.path), status: f.status, nodes: f.nodes.length, in_graph: f.nodes.length > 0 })),
    changed_nodes: impact.changed.map((v) => forecastNode(engine, v)),
    public_api_breaks: api,
    blast_radius: impact.dependents.slice(0, STRUCTURED_CAP).map((h) => reachedNode(engine, h)),
    blast_radius_total: impact.dependents.length,
    at_risk_tests: tests.slice(0, STRUCTURED_CAP).map((t) => reachedNode(engine, t)),
    at_risk_tests_total: tests.length,
    verify_checklist: checklist,
    risk,
  };
}

const LISTED = 5;

function verifyChecklist(engine: QueryEngine, impact: ChangeImpact, api: readonly PublicApiBreak[], tests: readonly TestHit[]): string[] {
  const items: string[] = [];
  const files = testFiles(engine, tests);
  if (files.length) items.push(`Run the ${plural(files.length, 'test file')} at risk: ${listed(files)}`);
  else if (impact.changed.length) items.push('No test in the graph reaches this change: run the suite, or add a test for the changed code');
  for (const a of api.slice(0, LISTED)) {
    items.push(`Check the ${plural(a.external_dependents, 'dependent')} of ${a.label} in ${plural(a.files, 'other file')} (find_callers ${a.qualified})`);
  }
  if (api.length > LISTED) items.push(`Check ${api.length - LISTED} more changed public API(s) (see public_api_breaks)`);
  for (const f of impact.files) {
    if (f.status !== 'deleted' || !f.nodes.length) continue;
    const users = publicApiBreaks(engine, f.nodes).reduce((n, a) => n + a.external_dependents, 0);
    if (users) items.push(`${sanitize(f.path)} is deleted but ${plural(users, 'dependent')} in other files still use it: update or remove them`);
  }
  const hazards = new Set(engine.dynamicSites().map((s) => s.file));
  const dynamic = impact.files.filter((f) => hazards.has(f.path)).map((f) => sanitize(f.path));
  if (dynamic.length) items.push(`Review dynamic dispatch in ${listed(dynamic)}: its dependents are not in the graph (dynamic_hazards path_glob=<file>)`);
  const missing = impact.files.filter((f) => !f.nodes.length && f.status !== 'deleted' && f.code === true).map((f) => sanitize(f.path));
  if (missing.length) items.push(`${plural(missing.length, 'changed code file')} not in the graph (${listed(missing)}): new or not extracted yet; run synaptic update to count their dependents`);
  if (api.length) items.push('Build or type-check the project: changed symbols are used from other files');
  return items;
}

function listed(items: readonly string[]): string {
  return items.length <= LISTED ? items.join(', ') : `${items.slice(0, LISTED).join(', ')} (+${items.length - LISTED} more)`;
}

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
