/**
 * Cross-file linking: every file's facts -> graph nodes and links. Deterministic (files are sorted
 * by path first, output is sorted) and O(total facts): each call site is resolved once through the
 * memoised `Resolver`. Unresolvable calls are counted per file, never dropped silently; calls with
 * several plausible targets become AMBIGUOUS links to at most `AMBIGUOUS_CAP` candidates.
 */
import type { Confidence, GraphLink, GraphNode, HazardSite, NodeKey } from '../../graph/model.ts';
import type { CallFact, FileFacts } from '../facts.ts';
import type { ProjectContext } from '../project-context.ts';
import { languageFamily, Resolver, type GuessData, type Resolved } from './resolver.ts';
import { resolveMacro } from './macros.ts';
import { pickOverload } from './overloads.ts';
import { linkSql } from './sql.ts';
import { linkHttp } from './http.ts';

export const AMBIGUOUS_CAP = 4;
const SCORE: Record<Confidence, number> = { EXTRACTED: 1, INFERRED: 0.8, AMBIGUOUS: 0.3 };
const CTOR_NAMES = new Set(['constructor', '__init__', 'initialize', '__construct', 'new']);
/** Languages whose bare names may resolve by a global name index (several -> AMBIGUOUS). */
const GLOBAL_FALLBACK = new Set(['c', 'cpp', 'ruby', 'php', 'rust']);
/** Dynamic languages: a member call on an unknown receiver gets AMBIGUOUS by-name candidates. */
const BY_NAME_MEMBERS = new Set(['javascript', 'python', 'ruby', 'php']);
/**
 * Method names too common in standard libraries to suggest a repo method when the receiver is
 * unknown (`list.append`, `arr.push`, `dict.get`, ...).
 */
const COMMON_METHODS = new Set([
  'get', 'set', 'has', 'add', 'delete', 'remove', 'clear', 'push', 'pop', 'shift', 'unshift', 'map', 'filter',
  'reduce', 'forEach', 'find', 'some', 'every', 'join', 'split', 'slice', 'splice', 'concat', 'includes', 'indexOf',
  'keys', 'values', 'entries', 'items', 'append', 'extend', 'insert', 'update', 'copy', 'format', 'strip', 'replace',
  'startswith', 'endswith', 'lower', 'upper', 'encode', 'decode', 'read', 'write', 'close', 'open', 'send', 'then',
  'catch', 'finally', 'toString', 'valueOf', 'call', 'apply', 'bind', 'each', 'new', 'to_s', 'to_h', 'to_a', 'length',
  'size', 'count', 'sort', 'reverse', 'next', 'emit', 'on', 'once', 'off', 'log', 'error', 'warn', 'info', 'debug',
  'run', 'start', 'stop', 'init', 'load', 'save', 'parse', 'render', 'test', 'match', 'exec', 'trim', 'json', 'text',
]);

export interface LinkResult {
  nodes: GraphNode[];
  links: GraphLink[];
  hazards: HazardSite[];
  unresolvedCalls: Record<string, number>;
  /** What each file's linking read (by file path): for incremental relinking, see incremental.ts. */
  deps: LinkDeps;
}

/** The output of linking one file: the links it is the `source_file` of, its hazards, its unresolved call count. */
export interface FileLink {
  links: GraphLink[];
  hazards: HazardSite[];
  unresolved: number;
  /** Indices (into {@link Linker.files}) of the files whose facts linking this file read. */
  reads: number[];
  /** Global index entries consulted (see invalidatedKeys in incremental.ts). */
  keys: string[];
}

/**
 * Per linked file (sorted by path): what linking it read; the parameter-type guesses units read
 * through `q` keys, and what each file contributed to them (see Resolver.prepare).
 */
export interface LinkDeps {
  paths: string[];
  reads: number[][];
  keys: string[][];
  guesses: Map<string, string | null>;
  guessData: GuessData;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** Links all files' facts into graph nodes and links (community unset). */
export function linkGraph(input: FileFacts[], context: ProjectContext): LinkResult {
  const linker = new Linker(input, context);
  const links: GraphLink[] = [];
  const hazards: HazardSite[] = [];
  const unresolvedCalls: Record<string, number> = {};
  const deps: LinkDeps = { paths: linker.files.map((f) => f.path), reads: [], keys: [], guesses: linker.guesses(), guessData: linker.R.guessInputs() };
  for (let fi = 0; fi < linker.files.length; fi++) {
    const out = linker.linkFile(fi);
    for (const l of out.links) links.push(l);
    for (const h of out.hazards) hazards.push(h);
    if (out.unresolved) unresolvedCalls[linker.files[fi]!.path] = out.unresolved;
    deps.reads.push(out.reads);
    deps.keys.push(out.keys);
  }
  links.sort((a, b) => cmp(a.source, b.source) || cmp(a.target, b.target) || cmp(a.relation, b.relation));
  return { nodes: linker.nodes(), links, hazards, unresolvedCalls, deps };
}

/**
 * The linker over one set of files' facts (sorted by path): every node, and each file's links on
 * demand ({@link linkFile}). A file's links depend only on the facts and global index entries its
 * linking reads (recorded in the result), never on which other files were linked before it.
 */
export class Linker {
  readonly files: FileFacts[];
  readonly R: Resolver;
  /** Global by-name index for dynamic_ref (string keys naming a unique symbol). */
  private readonly byName = new Map<string, NodeKey[]>();

  /**
   * `guesses`: the previous run's guess contributions, reused for files that are not `dirty`
   * (their parameter types read nothing that changed; see incremental.ts).
   */
  constructor(input: FileFacts[], context: ProjectContext, guesses?: { data: GuessData; dirty: (fi: number) => boolean }) {
    this.files = [...input].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    this.R = new Resolver(this.files, context);
    for (const f of this.files) {
      for (const s of f.symbols) {
        const l = this.byName.get(s.name);
        if (l) l.push(s.id); else this.byName.set(s.name, [s.id]);
      }
    }
    this.R.prepare(guesses);
  }

  /** The parameter-type guesses (see Resolver.guessTable). */
  guesses(): Map<string, string | null> {
    return this.R.guessTable();
  }

  /** Every node: package nodes (Go folders, Java packages), files and symbols, sorted by id. */
  /** Nodes in id order: packages, and each file's file node and symbols (only files `only` accepts, if given). */
  nodes(only?: (f: FileFacts) => boolean): GraphNode[] {
    const nodes: GraphNode[] = [];
    const packageNodes = new Map<string, GraphNode>();
    for (const f of this.files) {
      const id = packageNodeId(f);
      if (id === null || packageNodes.has(id)) continue;
      const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '.';
      packageNodes.set(id, { id, label: f.packageName!, file_type: 'code', source_file: f.language === 'go' ? dir : f.path, source_location: 'L1', kind: 'package', language: f.language });
    }
    nodes.push(...packageNodes.values());
    const byId = (a: GraphNode, b: GraphNode): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    for (const f of this.files) {
      if (only && !only(f)) continue;
      const first = nodes.length;
      nodes.push({
        id: f.fileId, label: basename(f.path), file_type: 'code', source_file: f.path, source_location: 'L1',
        kind: 'file', language: f.language, ...(f.isTest ? { is_test: true } : {}), lines: f.lines,
      });
      for (const s of f.symbols) {
        const n: GraphNode = {
          id: s.id, label: s.qname, file_type: 'code', source_file: f.path, source_location: `L${s.span.start_line}`,
          kind: s.kind, span: s.span, language: f.language, name: s.name,
        };
        if (s.visibility) n.visibility = s.visibility;
        if (s.signature) n.signature = s.signature;
        if (s.overloads) n.overloads = s.overloads;
        if (s.doc) n.doc = s.doc;
        if (s.isTest) n.is_test = true;
        if (s.exported) n.exported = true;
        if (s.extra) Object.assign(n, s.extra);
        nodes.push(n);
      }
      // Each file's nodes in id order first: files come in path order, so the final sort then
      // mostly finds one long sorted run instead of sorting 20k+ ids from scratch.
      if (nodes.length - first > 1) {
        const own = nodes.slice(first).sort(byId);
        for (let k = 0; k < own.length; k++) nodes[first + k] = own[k]!;
      }
    }
    nodes.sort(byId);
    return nodes;
  }

  /** Link file `fi`: structure, imports, inheritance, type references, calls, hazards. */
  linkFile(fi: number): FileLink {
    const { files, R, byName } = this;
    R.beginUnit();
    R.touch(fi);
    const links: GraphLink[] = [];
    const hazards: HazardSite[] = [];
    const seen = new Set<string>();
    const idOf = (f: number, i: number): NodeKey => (i < 0 ? R.file(f).fileId : R.file(f).symbols[i]!.id);
    const add = (source: NodeKey, target: NodeKey, relation: string, confidence: Confidence, file: string, line: number, score?: number): void => {
      if (source === target && relation !== 'calls') return;
      const key = `${source}\0${target}\0${relation}`;
      if (seen.has(key)) return;
      seen.add(key);
      links.push({ source, target, relation, confidence, confidence_score: score ?? SCORE[confidence], source_file: file, source_location: `L${line}` });
    };
    const f = files[fi]!;
    const syms = f.symbols;
    const path = f.path;
    // Package membership: package -> file.
    const pkg = packageNodeId(f);
    if (pkg !== null) add(pkg, f.fileId, 'contains', 'EXTRACTED', f.path, 1);
    // Structure.
    for (const s of syms) {
      if (s.parent < 0) add(f.fileId, s.id, 'contains', 'EXTRACTED', path, s.span.start_line);
      else {
        const p = syms[s.parent]!;
        const rel = R.isTypeLike(fi, s.parent) && (s.kind === 'method' || s.kind === 'constructor' || s.kind === 'field') ? 'method' : 'contains';
        add(p.id, s.id, rel, 'EXTRACTED', path, s.span.start_line);
      }
    }
    // Imports.
    for (const imp of f.imports) {
      const target = R.modules.resolve(fi, imp.module);
      if (target === null) continue;
      add(f.fileId, R.file(target).fileId, imp.reexport ? 're_exports' : 'imports', 'EXTRACTED', path, imp.line);
      if (imp.imported && imp.imported !== '*') {
        const r = R.importValue(fi, { ...imp, reexport: false });
        if (r && r.v.t === 'sym') add(f.fileId, idOf(r.v.f, r.v.i), 'imports_from', r.inf ? 'INFERRED' : 'EXTRACTED', path, imp.line);
      }
    }
    // Inheritance.
    for (const s of syms) {
      for (const b of s.bases ?? []) {
        const t = R.resolveType(fi, s.parent, b.name);
        if (t) add(s.id, idOf(t[0], t[1]), b.relation, 'EXTRACTED', path, b.line);
      }
    }
    // Type references.
    for (const t of f.typeRefs) {
      const r = R.resolveType(fi, t.scope, t.name);
      const from = t.scope >= 0 ? syms[t.scope]!.id : f.fileId;
      if (r && (seen.has(`${from}\0${idOf(r[0], r[1])}\0extends`) || seen.has(`${from}\0${idOf(r[0], r[1])}\0implements`) || seen.has(`${from}\0${idOf(r[0], r[1])}\0inherits`))) continue;
      if (r) add(t.scope >= 0 ? syms[t.scope]!.id : f.fileId, idOf(r[0], r[1]), 'references', 'EXTRACTED', path, t.line);
    }
    // Calls.
    let unresolved = 0;
    for (const c of f.calls) {
      const caller = c.scope >= 0 ? syms[c.scope]!.id : f.fileId;
      if (c.form !== 'macro') R.atSite(fi, c.scope, c.line); // (same-named Go locals resolve by the line)
      if (c.form === 'ref') {
        // A function or class used as a value: a dependent of it, never a guess by name.
        const v = R.referenced(fi, c.scope, c.callee);
        R.leaveSite();
        if (v && v.v.t === 'sym' && (R.isCallable(v.v.f, v.v.i) || R.isTypeLike(v.v.f, v.v.i))) add(caller, idOf(v.v.f, v.v.i), 'references', v.inf ? 'INFERRED' : 'EXTRACTED', path, c.line);
        continue;
      }
      if (c.form === 'macro') {
        const m = resolveMacro(R, fi, c);
        for (const [tf, ti] of m?.targets ?? []) add(caller, idOf(tf, ti), 'expands', m!.conf, path, c.line, m!.conf === 'AMBIGUOUS' ? SCORE.AMBIGUOUS / m!.targets.length : undefined);
        continue;
      }
      const targets = resolveCall(R, fi, c);
      R.leaveSite();
      if (!targets) { unresolved++; continue; }
      for (const t of targets.ids) {
        add(caller, t.id, t.rel, targets.conf, path, c.line, targets.conf === 'AMBIGUOUS' ? SCORE.AMBIGUOUS / targets.ids.length : targets.score);
        if (f.isTest && t.rel === 'calls' && !t.testTarget && targets.conf !== 'AMBIGUOUS') add(caller, t.id, 'tests', targets.conf, path, c.line);
      }
    }
    // Hazards and dynamic_ref.
    const unitKeys: string[] = [];
    for (const h of f.hazards) {
      const scope = h.scope >= 0 ? syms[h.scope]!.id : f.fileId;
      hazards.push({ kind: h.kind, scope, source_file: path, source_location: `L${h.line}`, text: h.text });
      if (h.key && h.kind !== 'dynamic_import') {
        unitKeys.push(`n\0${h.key}`);
        const cands = byName.get(h.key);
        if (cands && cands.length === 1) add(scope, cands[0]!, 'dynamic_ref', 'INFERRED', path, h.line, 0.3);
      }
    }
    for (const k of linkSql(files, fi, links, seen)) unitKeys.push(k);
    for (const k of linkHttp(R, files, fi, links, seen)) unitKeys.push(k);
    const read = R.endUnit();
    return { links, hazards, unresolved, reads: read.reads, keys: unitKeys.length ? [...new Set([...read.keys, ...unitKeys])] : read.keys };

    function ambiguous(r: Resolver, fc: number, c: CallFact): { ids: { id: NodeKey; rel: string; testTarget: boolean }[]; conf: Confidence } | null {
      const cands = ambiguousCandidates(r, fc, c);
      if (cands.length === 0 || cands.length > AMBIGUOUS_CAP) return null;
      const ids = cands.map(([cf, ci]) => ({ id: idOf(cf, ci), rel: 'calls', testTarget: r.file(cf).isTest }));
      ids.sort((a, b) => cmp(a.id, b.id));
      return { ids, conf: 'AMBIGUOUS' };
    }

    function resolveCall(r: Resolver, fc: number, c: CallFact): { ids: { id: NodeKey; rel: string; testTarget: boolean }[]; conf: Confidence; score?: number } | null {
      const target = (fi2: number, i: number, rel = 'calls') => ({ id: idOf(fi2, i), rel, testTarget: r.file(fi2).isTest });
      // (Java: the overload the arguments select, link/overloads.ts)
      const pick = (t: [number, number]): [number, number] => (c.args ? pickOverload(r, fc, c, t) : t);
      if (c.form === 'super') {
        const t = r.enclosingType(fc, c.scope);
        const base = t >= 0 ? r.bases(fc, t)[0] : undefined;
        if (!base) return null;
        const ctor = constructorOf(r, base[0], base[1]);
        return ctor ? { ids: [target(...pick(ctor))], conf: 'INFERRED' } : null;
      }
      const v: Resolved | null = r.calleeValue(fc, c.scope, c.callee);
      if (!v) return ambiguous(r, fc, c);
      if (v.v.t === 'mod') {
        // `const m = require('./m'); m()` / `new m()`: the module's default export (`module.exports = fn`).
        const d = r.resolveExport(v.v.f, 'default', 0);
        if (d && d.v.t === 'sym' && r.isCallable(d.v.f, d.v.i)) return { ids: [target(d.v.f, d.v.i)], conf: 'INFERRED' };
        if (d && d.v.t === 'sym' && c.form === 'new' && r.isTypeLike(d.v.f, d.v.i)) {
          const ctor = constructorOf(r, d.v.f, d.v.i);
          return { ids: [ctor ? target(ctor[0], ctor[1]) : target(d.v.f, d.v.i, 'instantiates')], conf: 'INFERRED' };
        }
        return null;
      }
      if (v.v.t === 'ext' || v.v.t === 'pkg' || v.v.t === 'obj') return null;
      if (v.v.t === 'inst') {
        if (c.callee.k !== 'new') {
          // Calling an instance: Python runs its class's `__call__` (`self.type(value)` of a ParamType); elsewhere
          // unknown. Not `f()(x)`: a factory's result is typed by its first `return`, often not the one taken.
          const m = r.file(fc).language === 'python' && c.callee.k !== 'call' ? r.member(v.v.f, v.v.i, '__call__', true, new Set()) : null;
          return m && m.v.t === 'sym' && r.isCallable(m.v.f, m.v.i) ? { ids: [target(m.v.f, m.v.i)], conf: 'INFERRED' } : null;
        }
        const ctor = constructorOf(r, v.v.f, v.v.i); // Ruby `Foo.new`
        return { ids: [ctor ? target(...pick(ctor)) : target(v.v.f, v.v.i, 'instantiates')], conf: 'EXTRACTED' };
      }
      const conf: Confidence = v.inf ? 'INFERRED' : 'EXTRACTED';

      const vf = v.v.f;
      const vi = v.v.i;
      if (r.isCallable(vf, vi)) {
        if (c.form === 'new') {
          // `new View()` of a JS constructor function `function View() {}`.
          const k = r.sym(vf, vi).kind;
          return k === 'constructor' || (k === 'function' && languageFamily(r.file(vf).language) === 'js') ? { ids: [target(vf, vi)], conf } : null;
        }
        return { ids: [target(...pick([vf, vi]))], conf, ...(v.guess ? { score: 0.5 } : {}) };
      }
      if (r.isTypeLike(vf, vi)) {
        // (TS/JS: `new C()` of a class without its own constructor instantiates C, as the checker says)
        const ctor = constructorOf(r, vf, vi, languageFamily(r.file(vf).language) !== 'js');
        return { ids: [ctor ? target(...pick(ctor)) : target(vf, vi, 'instantiates')], conf };
      }
      return null;
    }
  }
}

/** The package node a file hangs off (Go folders, Java packages), or null. */
function packageNodeId(f: FileFacts): string | null {
  if (!f.packageName || (f.language !== 'go' && f.language !== 'java')) return null;
  const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '.';
  return f.language === 'go' ? `package:${dir}` : `package:${f.packageName}`;
}

/**
 * Calls no rule resolves, with several plausible targets by name: AMBIGUOUS links to at most
 * AMBIGUOUS_CAP candidates (more: none, the call is counted as unresolved).
 */
function ambiguousCandidates(r: Resolver, f: number, c: CallFact): [number, number][] {
  const lang = r.file(f).language;
  const e = c.callee;
  if (e.k === 'id' && GLOBAL_FALLBACK.has(lang)) {
    const list = r.globalsNamed(e.n).filter(([cf, ci]) => r.isCallable(cf, ci) || r.isTypeLike(cf, ci));
    return list.length >= 2 ? list : [];
  }
  if (e.k === 'mem' && BY_NAME_MEMBERS.has(lang) && !COMMON_METHODS.has(e.n) && !e.n.startsWith('__')) {
    const recv = r.typeOf(f, c.scope, e.o);
    if (recv) return []; // the receiver is known (external, module, ...): no guessing
    return r.methodsNamed(languageFamily(lang), e.n);
  }
  return [];
}

/** The constructor of type (f, i); `inherited`: else the nearest base's. */
function constructorOf(r: Resolver, f: number, i: number, inherited = true): [number, number] | null {
  const seen = new Set<number>();
  let cur: [number, number] | undefined = [f, i];
  while (cur && !seen.has(cur[0] * 1048576 + cur[1]) && (inherited || seen.size === 0)) {
    seen.add(cur[0] * 1048576 + cur[1]);
    const syms = r.file(cur[0]).symbols;
    for (let k = cur[1] + 1; k < syms.length && syms[k]!.span.start_line <= syms[cur[1]]!.span.end_line; k++) {
      const s = syms[k]!;
      if (s.parent === cur[1] && (s.kind === 'constructor' || (s.kind === 'method' && CTOR_NAMES.has(s.name)))) return [cur[0], k];
    }
    cur = r.bases(cur[0], cur[1])[0];
  }
  return null;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
