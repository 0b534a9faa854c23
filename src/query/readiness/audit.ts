/**
 * The readiness audit (spec: readiness_audit): ranked likely blockers from framework sentinels,
 * stubs and placeholders, generated-code noise and project metadata, each with the impact of the
 * code it is about (the core's reverse reach: which entry points reach it). Graph-only rules run
 * always; source and metadata rules need a source root and are listed as skipped without one.
 * Browser-safe: files come through `ReadinessSource` (readiness/source.node.ts on Node).
 */
import type { NodeId } from '../../graph/model.ts';
import type { QueryEngine } from '../engine.ts';
import type { GraphIndex } from '../graph-index.ts';
import { generatedCommitted, generatedInGraph, parseFailures } from './graph-rules.ts';
import { entryMask, ImpactWalker, testMask } from './impact.ts';
import { findMarkers, findSentinels, MARKER_HINT, SENTINEL_HINT, type SentinelRule } from './line-rules.ts';
import { metadataFindings, type ProjectFiles } from './metadata.ts';
import { NOOP_NAME, nullIsTheType, stubBody } from './stubs.ts';
import {
  lower, READINESS_SEVERITIES, severityRank, type RawFinding, type ReadinessFinding, type ReadinessGroup, type ReadinessProfile,
  type ReadinessReport, type ReadinessSeverity, type SkippedCheck,
} from './types.ts';

export const READINESS_VERSION = 1;

export interface ReadinessSource {
  /** A repo-relative source file's text, or undefined when it cannot be read. */
  readFile(file: string): string | undefined;
  /** The project root (or the `repo` member's folder), for the metadata rules; undefined when absent. */
  project?: ProjectFiles;
}

export interface ReadinessOptions {
  profile?: ReadinessProfile;
  /** Only this federated member's nodes (node.repo). */
  repo?: string;
  /** Undefined without a source root: graph-only findings, the rest listed as skipped. */
  source?: ReadinessSource;
}

const PROFILE_LANGUAGES: Record<string, ReadonlySet<string>> = {
  typescript: new Set(['typescript', 'javascript', 'tsx']),
  python: new Set(['python']),
  rust: new Set(['rust']),
  go: new Set(['go']),
};
const STUB_KINDS: ReadonlySet<string> = new Set(['function', 'method']);
const SUBCLASS_RELATIONS: ReadonlySet<string> = new Set(['extends', 'inherits', 'implements']);
/** A stub is short: a longer span (signature, docstring and a one-line body) holds real code. */
const MAX_STUB_LINES = 15;
const STAND_IN = /noop|null|fake|mock|dummy|stub/i;
/** A component (capitalized function in a .jsx / .tsx file) that renders null renders nothing on purpose. */
const COMPONENT_FILE = /\.[jt]sx$/;
/** Benchmarks are not shipped: their stubs and notes block nothing. */
const BENCH_PATH = /(?:^|\/)(?:bench|benches|benchmark|benchmarks)\//;
const DECLARATION_FILE = /\.d\.[cm]?ts$|\.pyi$/;
const ABSTRACT_DECORATOR = /@(?:abc\.)?abstract(?:method|property)|@overload\b|@typing\.overload\b/;
const ABSTRACT_OWNER = /\((?:[^)]*[\s,(.])?(?:Protocol|ABC)\b|metaclass\s*=\s*(?:abc\.)?ABCMeta|\babstract\s+class\b/;

const SENTINEL_TITLE: Record<SentinelRule, string> = {
  throw_not_implemented: 'throws "not implemented"',
  raise_not_implemented: 'raises NotImplementedError',
  todo_macro: 'is a todo!() / unimplemented!() placeholder',
  panic_todo: 'panics with a TODO',
  sentinel_text: 'stops with a "not implemented" error',
};

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Graph facts the rules ask about a symbol (owner class, overrides, API-ness). */
class SymbolFacts {
  constructor(private readonly ix: GraphIndex) {}

  owner(v: NodeId): NodeId | undefined {
    const ix = this.ix;
    for (let i = ix.inOff[v]!; i < ix.inOff[v + 1]!; i++) {
      const e = ix.inEdges[i]!;
      const r = ix.relName(e);
      if (r === 'method' || (r === 'contains' && ix.isType(ix.g.src[e]!))) return ix.g.src[e]!;
    }
    return undefined;
  }

  /** Exported API: an exported symbol, or a public method of an exported type. */
  isApi(v: NodeId): boolean {
    const n = this.ix.node(v);
    if (n.exported === true) return true;
    if (n.kind !== 'method' || n.visibility === 'private' || n.visibility === 'protected' || String(n.name ?? n.label).startsWith('_')) return false;
    const o = this.owner(v);
    return o !== undefined && this.ix.node(o).exported === true;
  }

  /** A method a subclass overrides, or one of an interface, trait, protocol or abstract class: a hook, not a gap. */
  isHook(v: NodeId): boolean {
    const ix = this.ix;
    const o = this.owner(v);
    if (o === undefined) return false;
    const owner = ix.node(o);
    if (owner.kind === 'interface' || owner.kind === 'trait' || ABSTRACT_OWNER.test(owner.signature?.raw ?? '')) return true;
    const name = ix.node(v).name ?? ix.node(v).label.slice(ix.node(v).label.lastIndexOf('.') + 1);
    for (let i = ix.inOff[o]!; i < ix.inOff[o + 1]!; i++) {
      const e = ix.inEdges[i]!;
      if (!SUBCLASS_RELATIONS.has(ix.relName(e))) continue;
      for (const m of ix.members(ix.g.src[e]!)) if (m !== v && (ix.node(m).name ?? '') === name) return true;
    }
    return false;
  }

  /** The method's owner type has subclasses (so the method is a default they may override). */
  hasSubclasses(v: NodeId): boolean {
    const ix = this.ix;
    const o = this.owner(v);
    if (o === undefined) return false;
    for (let i = ix.inOff[o]!; i < ix.inOff[o + 1]!; i++) if (SUBCLASS_RELATIONS.has(ix.relName(ix.inEdges[i]!))) return true;
    return false;
  }

  /** The owner type's name says it is a stand-in (a Noop / Null / Fake / Mock / Dummy / Stub type). */
  ownerIsStandIn(v: NodeId): boolean {
    const o = this.owner(v);
    // A Go method's receiver type is its label's prefix (responseStub.WriteHeader) when no edge names it.
    const label = this.ix.node(v).label;
    const owner = o !== undefined ? this.ix.node(o).label : label.includes('.') ? label.slice(0, label.lastIndexOf('.')) : '';
    return STAND_IN.test(owner);
  }

  /** The method overrides or implements one of a parent type (its owner extends or implements something). */
  mayOverride(v: NodeId): boolean {
    const ix = this.ix;
    const o = this.owner(v);
    if (o === undefined) return false;
    for (let i = ix.outOff[o]!; i < ix.outOff[o + 1]!; i++) if (SUBCLASS_RELATIONS.has(ix.relName(ix.outEdges[i]!))) return true;
    return false;
  }
}

/** The span's text (from its start column on the first line to its end column on the last). */
function spanText(lines: readonly string[], span: { start_line: number; start_col: number; end_line: number; end_col: number }): string {
  const parts: string[] = [];
  for (let l = span.start_line; l <= span.end_line && l <= lines.length; l++) {
    let s = lines[l - 1]!;
    if (l === span.end_line) s = s.slice(0, span.end_col);
    if (l === span.start_line) s = s.slice(span.start_col);
    parts.push(s);
  }
  return parts.join('\n');
}

/** The sentinel is the function's only statement (its other lines are braces, comments, docstrings, decorators). */
function wholeBody(lines: readonly string[], span: { start_line: number; end_line: number }, sentinel: number, language: string): boolean {
  const hash = language === 'python';
  let doc = false;
  for (let l = span.start_line + 1; l <= span.end_line && l <= lines.length; l++) {
    if (l === sentinel) continue;
    const t = lines[l - 1]!.trim();
    if (hash && /^[rbuRBU]{0,2}(\"\"\"|''')/.test(t) || doc) {
      const quotes = (t.match(/\"\"\"|'''/g) ?? []).length;
      if (quotes % 2 === 1) doc = !doc;
      continue;
    }
    if (t === '' || /^[{}()\[\];,]*$/.test(t) || /^(?:\/\/|\/\*|\*|#|@)/.test(t)) continue;
    return false;
  }
  return true;
}

/** Community label's folder (its text before " — "; a file's folder), else the file's first folders. */
function subsystemOf(ix: GraphIndex, labels: Record<string, string> | undefined, v: NodeId): string {
  const n = ix.node(v);
  const label = n.community !== undefined ? labels?.[String(n.community)] : undefined;
  let name = label ? label.split(' — ')[0]!.trim() : '';
  if (/\.[A-Za-z0-9]+$/.test(name) && name.includes('/')) name = name.slice(0, name.lastIndexOf('/'));
  // The community's folder when the file is in it (a community can mix folders: then the file's own).
  if (name && (n.source_file.startsWith(`${name}/`) || n.source_file === name)) return name;
  const parts = n.source_file.split('/');
  return parts.length <= 1 ? '.' : parts.slice(0, Math.min(2, parts.length - 1)).join('/');
}

/** Scan one source file: sentinels, markers (grouped per symbol) and stub bodies. */
function scanFile(engine: QueryEngine, facts: SymbolFacts, fileNode: NodeId, text: string, language: string, generic: boolean, out: RawFinding[]): void {
  const ix = engine.ix;
  const file = ix.node(fileNode).source_file;
  const lines = text.split('\n');
  const at = (line: number) => `${file}:L${line}`;
  const lineText = (line: number) => `${at(line)}: ${lines[line - 1]!.trim().slice(0, 120)}`;
  const decorated = (v: NodeId, any = false) => {
    const s = ix.node(v).span?.start_line ?? 0;
    return lines.slice(Math.max(0, s - 4), Math.max(0, s - 1)).some((l) => (any ? /^\s*@/.test(l) : ABSTRACT_DECORATOR.test(l)));
  };
  const sentinelNodes = new Set<NodeId>();
  for (const hit of SENTINEL_HINT.test(text) ? findSentinels(lines, language, generic) : []) {
    const v = engine.enclosing(file, hit.line) ?? fileNode;
    if (v !== fileNode && (facts.isHook(v) || decorated(v))) continue;
    sentinelNodes.add(v);
    const label = ix.node(v).label;
    const span = ix.node(v).span;
    // One branch of a real body ("this case is not supported"), or a base class's default: a level lower each.
    const partial = v !== fileNode && span !== undefined && !wholeBody(lines, span, hit.line, language);
    const base = v !== fileNode && facts.hasSubclasses(v);
    out.push({
      rule_id: hit.rule, severity: 'medium', category: 'sentinel', reach: 'sentinel', node: v, lowerBy: (partial ? 1 : 0) + (base ? 1 : 0),
      title: `${v === fileNode ? file : label} ${SENTINEL_TITLE[hit.rule]}${partial ? ' in one branch' : ''}${base ? ' (a base-class default)' : ''}`,
      detail: `\`${hit.text}\` at run time: ${partial ? `the paths through this branch of ${label} fail there (the rest of it is written)` : `every path that reaches ${v === fileNode ? 'this module' : label} fails there`}. It marks code that was never written.`,
      location: at(hit.line), evidence: [lineText(hit.line)],
      remediation: 'Implement it, or remove it from the public surface (and its callers) until it is; if it is an abstract hook, declare it abstract so subclasses must override it.',
      confidence: generic ? 0.7 : 0.9,
    });
  }
  const markers = new Map<NodeId, ReturnType<typeof findMarkers>>();
  for (const m of MARKER_HINT.test(text) ? findMarkers(lines, language) : []) {
    if (m.text.includes('Remove this comment to see the full error message') || /ts-migrate\(\d+\)/.test(lines[m.line - 1]!)) continue; // ts-migrate's generated suppressions
    const v = engine.enclosing(file, m.line) ?? fileNode;
    let list = markers.get(v);
    if (!list) markers.set(v, (list = []));
    list.push(m);
  }
  for (const [v, list] of markers) {
    const strong = list.some((m) => m.marker !== 'TODO');
    const kinds = [...new Set(list.map((m) => m.marker))].join('/');
    const where = v === fileNode ? file : ix.node(v).label;
    out.push({
      rule_id: 'todo_marker', severity: strong ? 'medium' : 'low', category: 'placeholder', reach: 'reachable', node: v,
      title: `${plural(list.length, `${kinds} marker`)} in ${where}`,
      detail: `${where} is reached from an entry point and carries ${list.length === 1 ? 'a note' : 'notes'} that it is unfinished${strong ? ' or known to be wrong (FIXME / XXX / HACK)' : ''}: "${list[0]!.text}".`,
      location: at(list[0]!.line), evidence: list.slice(0, 3).map((m) => lineText(m.line)),
      remediation: 'Resolve the note, or turn it into a tracked issue and link it; a FIXME on a reachable path is a known bug.',
      confidence: strong ? 0.6 : 0.5,
    });
  }
  if (generic || DECLARATION_FILE.test(file)) return;
  for (const v of ix.byFile.get(file) ?? []) {
    const n = ix.node(v);
    if (!STUB_KINDS.has(n.kind) || !n.span || n.span.end_line - n.span.start_line > MAX_STUB_LINES || sentinelNodes.has(v) || !facts.isApi(v)) continue;
    const name = String(n.name ?? n.label);
    if (n.kind === 'constructor' || name === 'constructor' || name === '__init__' || name === 'new' || NOOP_NAME.test(name)) continue;
    // Every parameter named _x: unused on purpose, a no-op by design (hono's useDebugValue(_value, _formatter) {}).
    const params = n.signature?.params ?? [];
    if (params.length && params.every((p) => p.name.startsWith('_'))) continue;
    const body = stubBody(spanText(lines, n.span), language);
    if (!body || facts.isHook(v) || decorated(v) || facts.ownerIsStandIn(v)) continue;
    // An empty body a decorator registers (a click group, a route, a fixture) is the decorator's to fill.
    if (body.kind === 'empty' && (facts.mayOverride(v) || decorated(v, true))) continue;
    if (body.kind === 'return_null') {
      const returns = n.signature?.returns;
      if (nullIsTheType(returns)) continue;
      // A method returning null is often a default or a null object: only one declared to return a value counts.
      if (n.kind === 'method' && (!returns || /\bnull\b|\bundefined\b|None|Optional|\?$/.test(returns))) continue;
      if (COMPONENT_FILE.test(file) && /^[A-Z]/.test(name)) continue;
    }
    const empty = body.kind === 'empty';
    out.push({
      rule_id: empty ? 'empty_body' : 'return_null_stub', severity: 'medium', category: 'stub', reach: 'callers', node: v,
      title: empty ? `Exported ${n.kind} ${n.label} has an empty body` : `Exported ${n.kind} ${n.label} only returns ${body.body.replace(/^return\s*|;$/g, '')}`,
      detail: empty
        ? `${n.label} is public API, but its body does nothing: callers get no effect and no error.`
        : `${n.label} is public API, and its whole body is \`${body.body}\`${n.signature?.returns ? ` although it is declared to return ${n.signature.returns}` : ''}: a placeholder that callers cannot tell from "not found".`,
      location: at(n.span.start_line), evidence: [lineText(n.span.start_line), ...(body.body ? [`body: ${body.body}`] : ['body: {} (empty)'])],
      remediation: empty ? 'Implement it, or throw a clear "not supported" error until it is (or mark it as an intentional no-op in its name or doc).' : 'Implement it, or fail loudly until it is; return null only for a real "absent" answer.',
      confidence: 0.6,
    });
  }
}

/** Run every rule the profile and the available source allow; rank and group the findings. */
export function readinessAudit(engine: QueryEngine, options: ReadinessOptions = {}): ReadinessReport {
  const ix = engine.ix;
  const profile = options.profile ?? 'auto';
  const generic = profile === 'generic';
  const languages = PROFILE_LANGUAGES[profile];
  const repo = options.repo;
  const keepNode = (v: NodeId) => repo === undefined || ix.node(v).repo === repo;
  const meta = engine.doc.graph ?? {};
  const keepPath = (p: string) => repo === undefined || p.startsWith(`${repo}/`) || ix.byFile.get(p)?.some(keepNode) === true;
  const test = testMask(ix);
  const walker = new ImpactWalker(ix, engine.traversal, test, entryMask(ix, test));
  const facts = new SymbolFacts(ix);
  const raw: RawFinding[] = [];
  const skipped: SkippedCheck[] = [];

  if (options.source) {
    let unreadable = 0;
    for (const [file, ids] of [...ix.byFile].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const fileNode = ids.find((v) => ix.node(v).kind === 'file');
      if (fileNode === undefined || !keepNode(fileNode) || test[fileNode]) continue;
      const n = ix.node(fileNode);
      if (BENCH_PATH.test(file)) continue;
      const language = String(n.language ?? '');
      if (n.file_type !== 'code' || (languages && !languages.has(language))) continue;
      const text = options.source.readFile(file) ?? (typeof n.repo === 'string' ? options.source.readFile(`${n.repo}/${file}`) : undefined);
      if (text === undefined) {
        unreadable++;
        continue;
      }
      scanFile(engine, facts, fileNode, text, language, generic, raw);
    }
    if (unreadable) skipped.push({ check: 'source', reason: `${plural(unreadable, 'file')} could not be read under the source root (moved, deleted, or outside it)` });
    if (generic) skipped.push({ check: 'stubs', reason: 'the generic profile runs only language-neutral text rules (use auto for empty-body and return-null stubs)' });
    if (options.source.project) raw.push(...metadataFindings(options.source.project, profile));
    else skipped.push({ check: 'metadata', reason: `no project folder${repo ? ` for repo ${repo}` : ''} under the source root` });
  } else {
    const why = 'no source root registered (start synaptic serve with --source-root <dir>)';
    for (const check of ['sentinels', 'stubs', 'todo_markers', 'metadata']) skipped.push({ check, reason: why });
  }
  raw.push(...generatedInGraph(ix, keepNode, test), ...generatedCommitted(meta.skipped_files, keepPath), ...parseFailures(meta.failed_files, keepPath));
  return rank(ix, meta.community_labels, walker, raw, skipped);
}

function rank(ix: GraphIndex, labels: Record<string, string> | undefined, walker: ImpactWalker, raw: RawFinding[], skipped: SkippedCheck[]): ReadinessReport {
  const findings: Array<ReadinessFinding & { score: number }> = [];
  for (const r of raw) {
    const impact = r.node !== undefined ? walker.of(r.node) : null;
    let severity: ReadinessSeverity = r.severity;
    if (impact && r.reach === 'sentinel') severity = impact.entry_points > 0 ? 'critical' : impact.is_entry ? 'high' : r.severity;
    else if (impact && r.reach === 'reachable' && !impact.is_entry && impact.entry_points === 0) continue;
    else if (impact && r.reach === 'callers' && impact.dependents === 0) severity = lower(severity);
    for (let i = 0; i < (r.lowerBy ?? 0); i++) severity = lower(severity);
    const score = r.confidence * (1 + Math.log2(1 + (impact?.dependents ?? 0)) + (impact?.entry_points ?? 0) * 0.25);
    findings.push({
      rule_id: r.rule_id, severity, category: r.category,
      subsystem: r.subsystem ?? (r.node !== undefined ? subsystemOf(ix, labels, r.node) : 'project'),
      title: r.title, detail: r.detail, location: r.location,
      node_ids: r.node !== undefined ? [ix.node(r.node).id] : [],
      evidence: r.evidence, remediation: r.remediation, confidence: r.confidence, impact, score,
    });
  }
  findings.sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || b.score - a.score || (a.location < b.location ? -1 : a.location > b.location ? 1 : 0));
  const counts = Object.fromEntries(READINESS_SEVERITIES.map((s) => [s, 0])) as Record<ReadinessSeverity, number>;
  const groups = new Map<string, ReadinessGroup & { worst: number }>();
  for (const f of findings) {
    counts[f.severity]++;
    let g = groups.get(f.subsystem);
    if (!g) groups.set(f.subsystem, (g = { subsystem: f.subsystem, total: 0, counts_by_severity: {}, worst: severityRank(f.severity) }));
    g.total++;
    g.counts_by_severity[f.severity] = (g.counts_by_severity[f.severity] ?? 0) + 1;
  }
  const grouped = [...groups.values()].sort((a, b) => a.worst - b.worst || b.total - a.total || (a.subsystem < b.subsystem ? -1 : 1))
    .map(({ worst: _, ...g }) => g);
  const bySeverity = READINESS_SEVERITIES.filter((s) => counts[s]).map((s) => `${counts[s]} ${s}`).join(', ');
  const summary = findings.length
    ? `${plural(findings.length, 'finding')} (${bySeverity}) in ${plural(grouped.length, 'subsystem')}.`
    : 'No readiness findings.';
  const skippedNote = skipped.length ? ` Skipped: ${[...new Set(skipped.map((s) => s.check))].join(', ')} (${skipped[0]!.reason}${skipped.length > 1 && skipped.some((s) => s.reason !== skipped[0]!.reason) ? '; ...' : ''}).` : '';
  return {
    version: READINESS_VERSION,
    summary: summary + skippedNote,
    counts_by_severity: counts,
    groups: grouped,
    findings: findings.map(({ score: _, ...f }) => f),
    skipped,
  };
}
