/**
 * One source file -> FileFacts. Runs inside worker threads: a pure function of (path, source,
 * language); the parser and the compiled tags query of each language are created once per thread
 * and reused. The tags query finds definitions, calls and statements; the language's `LangSpec`
 * reads the details. Cost: one parse, one query pass, O(captures * MAX_NESTING): definitions
 * nested deeper are folded into their enclosing one (see facts.ts).
 */
import type { Node, Parser, Query } from 'web-tree-sitter';
import type { NodeKind, Span } from '../graph/model.ts';
import {
  FACTS_VERSION, MAX_NESTING, MAX_QNAME_CHARS, type CallFact, type FileFacts, type HazardFact, type SymbolFact, type TypeRefFact,
} from './facts.ts';
import { applyAncestorPredicates } from './ancestor-predicates.ts';
import { surroundingsOf, type Preceding } from './ancestors.ts';
import type { LanguageId } from './languages.ts';
import { specFor } from './lang/index.ts';
import { forEachMacroArgCapture } from './lang/rust-macro-args.ts';
import type { DefInfo, Sink } from './lang/spec.ts';
import { runtimeFor } from './parser.ts';
import { recoverSyntax } from './syntax-recovery.ts';
import { isTestPath, isTestSymbolName } from '../graph/test-paths.ts';
import { embeddedSql } from './sql/embedded.ts';
import { extractSqlFileFacts } from './sql/schema.ts';
import type { SqlSetting } from './sql/dialect-project.node.ts';
import { extractHttp } from './http/extract.ts';

const KINDS: ReadonlyMap<string, NodeKind> = new Map<string, NodeKind>([
  ['function', 'function'], ['method', 'method'], ['constructor', 'constructor'], ['class', 'class'],
  ['struct', 'struct'], ['interface', 'interface'], ['trait', 'trait'], ['enum', 'enum'], ['type', 'type_alias'],
  ['module', 'module'], ['namespace', 'namespace'], ['package', 'package'], ['constant', 'constant'],
  ['variable', 'variable'], ['field', 'field'],
  // A macro definition (Rust `macro_rules!`): a function node marked `macro` (see MACRO_EXTRA).
  ['macro', 'function'],
]);
/** What marks a macro definition's symbol (and node): macro invocations link only to these. */
const MACRO_EXTRA = { macro: true } as const;
/** The tags query's work budget: this many progress steps, plus QUERY_BUDGET_PER_NODE per syntax node. */
const QUERY_BUDGET_FLOOR = 2000;
const QUERY_BUDGET_PER_NODE = 1 / 8;
const TYPE_LIKE: ReadonlySet<NodeKind> = new Set(['class', 'struct', 'interface', 'trait', 'enum']);
const HEADER_KINDS: ReadonlySet<NodeKind> = new Set(['function', 'method', 'constructor']);
/** Body-less declarations an overload run is made of (TypeScript), and the languages that have them. */
const OVERLOAD_DECLS: ReadonlySet<string> = new Set(['function_signature', 'method_signature', 'abstract_method_signature']);
const OVERLOAD_LANGS: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx']);

interface Item { cap: string; node: Node; callee: Node | undefined }

const NOTHING_BEFORE: DefInfo['before'] = [{ nodes: [], first: true }, { nodes: [], first: true }, { nodes: [], first: true }] as const satisfies Preceding[];

/** Sibling types a doc comment may sit among (comments, attributes, annotations), per grammar. */
const precedingTypes = new WeakMap<object, ReadonlySet<string>>();
function precedingTypesOf(root: Node): ReadonlySet<string> {
  const language = root.tree.language;
  let types = precedingTypes.get(language);
  if (!types) precedingTypes.set(language, (types = new Set(language.types.filter((t) => t && /comment|attribute|annotation/.test(t)))));
  return types;
}

/**
 * Extracts the facts of one file. Throws `Error("Cannot parse ...")` when the grammar yields no
 * tree; a tree with syntax errors still yields the facts of its well-formed parts.
 */
export async function extractFileFacts(input: { path: string; source: string; language: LanguageId; sqlDialect?: SqlSetting }): Promise<FileFacts> {
  const { path, language } = input;
  if (language === 'sql') return extractSqlFileFacts(input);
  const rt = await runtimeFor(language);
  const parsed = rt.parser.parse(input.source);
  if (!parsed) throw new Error(`Cannot parse "${path}": the ${language} parser returned no tree`);
  // Same length and lines as the input: spans, lines and texts stay those of the file.
  const { tree, source } = recoverSyntax(rt.parser, language, input.source, parsed);
  try {
    const root = tree.rootNode;
    // A work budget, in the query's progress steps: real code takes under 1 per 60 syntax nodes; a
    // pattern that keeps matches open across deep nesting takes several per node and quadratic time.
    const budget = QUERY_BUDGET_FLOOR + root.descendantCount * QUERY_BUDGET_PER_NODE;
    let steps = 0;
    const matches = rt.query.matches(root, { progressCallback: () => ++steps > budget });
    const facts = collect(path, source, language, root, applyAncestorPredicates(rt.query, root, matches), language === 'rust' ? rt : undefined);
    if (steps > budget) {
      const last = matches[matches.length - 1]?.captures[0]?.node;
      facts.queryStopped = { line: last ? last.startPosition.row + 1 : 1 };
    }
    const queries = input.sqlDialect === 'off' ? [] : await embeddedSql(root, source, language, facts.symbols);
    if (queries.length) facts.sql = { edges: [], queries };
    const http = extractHttp(root, source, language, facts);
    if (http) facts.http = http;
    return facts;
  } finally {
    tree.delete();
  }
}

function spanOf(node: Node): Span {
  return {
    start_line: node.startPosition.row + 1, start_col: node.startPosition.column,
    end_line: node.endPosition.row + 1, end_col: node.endPosition.column,
  };
}

function collect(
  path: string, source: string, language: LanguageId, root: Node,
  matches: { captures: { name: string; node: Node }[] }[],
  macroArgs?: { parser: Parser; query: Query },
): FileFacts {
  const spec = specFor(language);
  const rawDefs: { node: Node; nameNode: Node; kind: NodeKind; owner?: string }[] = [];
  const macroDefs = new Set<number>();
  const items: Item[] = [];
  const seenDef = new Set<number>();
  const ownedBases: { node: Node; owner: Node; rel: string }[] = [];
  for (const m of matches) {
    let main: { name: string; node: Node } | undefined;
    let name: Node | undefined;
    let callee: Node | undefined;
    let owner: Node | undefined;
    for (const c of m.captures) {
      if (c.name === 'name') name = c.node;
      else if (c.name === 'callee') callee = c.node;
      else if (c.name === 'owner') owner = c.node;
      else if (c.name.charCodeAt(0) !== 95 /* _ */) main = c;
    }
    if (!main) continue;
    if (main.name.startsWith('definition.')) {
      const kind = KINDS.get(main.name.slice(11));
      if (!kind || !name || seenDef.has(main.node.id)) continue;
      seenDef.add(main.node.id);
      const raw: { node: Node; nameNode: Node; kind: NodeKind; owner?: string } = { node: main.node, nameNode: name, kind };
      if (main.name === 'definition.macro') macroDefs.add(main.node.id);
      if (owner) {
        const p = spec.typePath(owner);
        if (p) raw.owner = p[p.length - 1]!;
      }
      rawDefs.push(raw);
    } else if (owner && main.name.startsWith('reference.')) {
      ownedBases.push({ node: main.node, owner, rel: main.name.slice(10) });
    } else {
      items.push({ cap: main.name, node: main.node, callee });
    }
  }

  // Definitions in document order, outer before inner; parents by a containment stack. One nested
  // past the bounds is left out (its code then counts as the enclosing definition's).
  rawDefs.sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
  const defs: DefInfo[] = [];
  const names: { name: string; qname: string; owner: string | undefined }[] = [];
  const stack: number[] = [];
  let folded: FileFacts['folded'];
  const foldedNames: number[] = [];
  let foldedUntil = -1; // end of the outermost open folded definition: everything inside goes too
  const fold = (raw: { node: Node; nameNode: Node }): void => {
    foldedNames.push(raw.nameNode.id);
    if (raw.node.startIndex >= foldedUntil) foldedUntil = raw.node.endIndex;
    if (folded) folded.definitions++;
    else folded = { definitions: 1, line: raw.node.startPosition.row + 1 };
  };
  const around = surroundingsOf(root, rawDefs.map((r) => r.node), precedingTypesOf(root));
  const overloadsOf = new Map<DefInfo, DefInfo[]>();
  for (const raw of rawDefs) {
    while (stack.length && defs[stack[stack.length - 1]!]!.node.endIndex < raw.node.endIndex) stack.pop();
    const parent = stack.length ? stack[stack.length - 1]! : -1;
    const tree = around.get(raw.node.id);
    const def: DefInfo = {
      node: raw.node, nameNode: raw.nameNode, kind: raw.kind, parent,
      parentKind: parent >= 0 ? defs[parent]!.kind : null, parentName: parent >= 0 ? names[parent]!.name : null,
      parentNode: tree?.parent ?? null, grandparentNode: tree?.grandparent ?? null, before: tree?.before ?? NOTHING_BEFORE,
    };
    if (raw.owner) def.owner = raw.owner;
    if (def.kind === 'function' && ((def.parentKind && TYPE_LIKE.has(def.parentKind)) || raw.owner)) def.kind = 'method';
    let name = raw.nameNode.text;
    if (spec.refineDef) {
      const r = spec.refineDef(def);
      if (!r) continue;
      def.kind = r.kind;
      if (r.name) name = r.name;
    }
    const inFolded = raw.node.startIndex < foldedUntil && raw.node.endIndex <= foldedUntil;
    if (inFolded || stack.length >= MAX_NESTING) { fold(raw); continue; }
    const owner = parent < 0 || !TYPE_LIKE.has(def.parentKind!) ? def.owner : undefined;
    const local = owner ? `${owner}.${name}` : name;
    const qname = parent >= 0 ? `${names[parent]!.qname}.${local}` : local;
    if (qname.length > MAX_QNAME_CHARS) { fold(raw); continue; }
    // Overloads (TypeScript `f(a: string): X; f(a: number): Y; f(a) { .. }`, Python `@overload` stubs):
    // one definition, the last of the run, carrying the signatures before it (their code counts as the enclosing one's).
    const prev = defs.length - 1;
    if (prev >= 0 && ((OVERLOAD_LANGS.has(language) && OVERLOAD_DECLS.has(defs[prev]!.node.type)) || spec.overloadDecl?.(defs[prev]!)) && defs[prev]!.parent === parent && defs[prev]!.kind === def.kind && names[prev]!.qname === qname) {
      const carried = overloadsOf.get(defs[prev]!) ?? [];
      overloadsOf.delete(defs[prev]!);
      carried.push(defs[prev]!);
      overloadsOf.set(def, carried);
      defs.pop();
      names.pop();
    }
    defs.push(def);
    names.push({ name, qname, owner });
    stack.push(defs.length - 1);
  }

  const fileIsTest = isTestPath(path);
  const symbols: SymbolFact[] = [];
  const qcount = new Map<string, number>();
  for (let i = 0; i < defs.length; i++) {
    const def = defs[i]!;
    const { name, qname, owner } = names[i]!;
    const n = (qcount.get(qname) ?? 0) + 1;
    qcount.set(qname, n);
    const vis = spec.visibility(def, name);
    const sym: SymbolFact = {
      id: n === 1 ? `${path}#${qname}` : `${path}#${qname}~${n}`,
      name, qname, kind: def.kind, parent: def.parent, span: spanOf(def.node),
      visibility: vis.visibility, exported: vis.exported,
    };
    if (owner) sym.owner = owner;
    if (vis.isDefault) sym.isDefault = true;
    if (vis.isStatic) sym.isStatic = true;
    if (vis.isGetter) sym.isGetter = true;
    const sig = spec.signature(def, source);
    if (sig) {
      const { returnPath, ...signature } = sig;
      sym.signature = HEADER_KINDS.has(def.kind) ? signature : { params: [], raw: signature.raw };
      if (returnPath) sym.returns = returnPath;
    }
    const overloads = overloadsOf.get(def);
    if (overloads) {
      // (the span stays the implementation's: where the checker resolves a call to the set)
      sym.overloads = overloads.map((o) => { const sg = spec.signature(o, source); return sg ? { params: sg.params, ...(sg.returns !== undefined ? { returns: sg.returns } : {}), raw: sg.raw } : { params: [], raw: '' }; });
    }
    const doc = spec.doc(def) ?? (overloads ? overloads.map((o) => spec.doc(o)).find((d) => d) : undefined);
    if (doc) sym.doc = doc;
    if (fileIsTest && HEADER_KINDS.has(def.kind) && isTestSymbolName(name)) sym.isTest = true;
    if (macroDefs.has(def.node.id)) sym.extra = { ...MACRO_EXTRA };
    symbols.push(sym);
  }

  // Innermost definition containing [s, e); `skip` excludes a definition node itself.
  const starts = defs.map((d) => d.node.startIndex);
  const enclosing = (node: Node, skipSelf: boolean): number => {
    const s = node.startIndex;
    const e = node.endIndex;
    let lo = 0;
    let hi = starts.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= s) { at = mid; lo = mid + 1; } else hi = mid - 1;
    }
    while (at >= 0) {
      const d = defs[at]!.node;
      if (d.endIndex >= e && !(skipSelf && d.startIndex === s && d.endIndex === e)) return at;
      at = defs[at]!.parent;
    }
    return -1;
  };

  const calls: CallFact[] = [];
  const typeRefs: TypeRefFact[] = [];
  const hazards: HazardFact[] = [];
  let scope = -1;
  const addBase = (relation: string, node: Node): void => {
    if (relation !== 'extends' && relation !== 'implements' && relation !== 'inherits' && relation !== 'embeds' && relation !== 'mixes_in') return;
    const owner = enclosing(node, false);
    const path = owner >= 0 ? spec.typePath(node) : undefined;
    if (path) (symbols[owner]!.bases ??= []).push({ name: path, relation, line: node.startPosition.row + 1 });
  };
  const sink: Sink = {
    imports: [], exports: [], bindings: [], marks: new Set(),
    get scope() { return scope; },
    hazard(kind, node, key) {
      // Sliced from the source: the text of a node nested 5,000 deep would be copied at every level.
      const long = node.endIndex - node.startIndex > 80;
      const text = source.slice(node.startIndex, long ? node.startIndex + 80 : node.endIndex) + (long ? '…' : '');
      const h: HazardFact = { kind, scope, line: node.startPosition.row + 1, text };
      if (key !== undefined) h.key = key;
      hazards.push(h);
    },
    base: addBase,
  };
  const defNameIds = new Set(defs.map((d) => d.nameNode.id));
  for (const n of foldedNames) defNameIds.add(n);
  // Type references inside a nested type name (`a.B`, `a.b.C`) belong to it: the children of each
  // such reference are marked (asking each node for its parent would cost O(depth)).
  const typeRefInner = new Map<number, string>();
  const inTypeRef = new Set<number>();
  for (const it of items) {
    const cap = it.cap;
    if (cap === 'reference.macro') {
      const e = spec.expr(it.callee ?? it.node, 0);
      const at = enclosing(it.node, false);
      if (e.k === 'id' || e.k === 'mem') calls.push({ scope: at, line: it.node.startPosition.row + 1, callee: e, form: 'macro' });
      // Rust: the calls in its arguments (a token tree to the grammar) belong to the macro's scope.
      if (macroArgs) {
        forEachMacroArgCapture(macroArgs.parser, macroArgs.query, it.node, (c) => {
          const ce = spec.expr(c.callee ?? c.node, 0);
          if (c.cap === 'reference.macro') { if (ce.k === 'id' || ce.k === 'mem') calls.push({ scope: at, line: c.line, callee: ce, form: 'macro' }); }
          else calls.push({ scope: at, line: c.line, callee: ce, form: ce.k === 'super' ? 'super' : 'call' });
        });
      }
    } else if (cap === 'reference.call' || cap === 'reference.new') {
      scope = enclosing(it.node, false);
      const callee = it.callee ?? it.node;
      if (spec.specialCall?.(it.node, callee, sink)) continue;
      const e = spec.expr(callee, 0);
      const call: CallFact = {
        scope, line: it.node.startPosition.row + 1, callee: e,
        form: cap === 'reference.new' ? 'new' : e.k === 'super' ? 'super' : 'call',
      };
      const args = spec.callArgs?.(it.node);
      if (args) call.args = args;
      calls.push(call);
    } else if (cap === 'reference.value') {
      const e = spec.expr(it.node, 0);
      if (e.k === 'id' || e.k === 'mem') calls.push({ scope: enclosing(it.node, false), line: it.node.startPosition.row + 1, callee: e, form: 'ref' });
    } else if (cap === 'reference.type') {
      if (defNameIds.has(it.node.id)) continue;
      const inner = typeRefInner.get(it.node.id) === it.node.type || inTypeRef.has(it.node.id);
      for (const c of it.node.namedChildren) {
        if (!c) continue;
        typeRefInner.set(c.id, it.node.type);
        if (!inner) inTypeRef.add(c.id);
      }
      if (inner) continue;
      const path = spec.typePath(it.node);
      if (path) typeRefs.push({ scope: enclosing(it.node, false), name: path, line: it.node.startPosition.row + 1 });
    } else if (cap === 'return') {
      const owner = enclosing(it.node, false);
      if (owner < 0) continue;
      const sym = symbols[owner]!;
      if (sym.returns || sym.returnExpr || !HEADER_KINDS.has(sym.kind)) continue;
      if (it.node.type === 'statement_block') continue;
      const e = spec.expr(it.node, 0);
      if (e.k !== 'unk') sym.returnExpr = e;
    } else if (cap.startsWith('reference.')) {
      addBase(cap.slice(10), it.node);
    } else {
      scope = enclosing(it.node, true);
      spec.statement(cap, it.node, scope, sink, defs);
    }
  }

  // `impl Trait for Type` (Rust): the base belongs to the named type declared in this file.
  const topLevel = new Map<string, number>();
  if (ownedBases.length) for (let i = symbols.length - 1; i >= 0; i--) if (symbols[i]!.parent === -1) topLevel.set(symbols[i]!.name, i);
  for (const ob of ownedBases) {
    const ownerPath = spec.typePath(ob.owner);
    const path = spec.typePath(ob.node);
    const owner = ownerPath ? topLevel.get(ownerPath[ownerPath.length - 1]!) ?? -1 : -1;
    const rel = ob.rel;
    if (owner < 0 || !path || (rel !== 'implements' && rel !== 'extends' && rel !== 'inherits' && rel !== 'mixes_in')) continue;
    (symbols[owner]!.bases ??= []).push({ name: path, relation: rel, line: ob.node.startPosition.row + 1 });
  }

  const facts: FileFacts = {
    path, language, factsVersion: FACTS_VERSION,
    lines: root.endPosition.row + 1,
    fileId: path, isTest: fileIsTest,
    symbols, imports: sink.imports, exports: sink.exports, calls, bindings: sink.bindings,
    typeRefs, hazards,
  };
  if (root.hasError) {
    const errs: { line: number }[] = [];
    const cursorStack: Node[] = [root];
    // Bounded search: only subtrees that contain an error are entered.
    while (cursorStack.length && errs.length < 5) {
      const n = cursorStack.pop()!;
      if (n.isError || n.isMissing) { errs.push({ line: n.startPosition.row + 1 }); continue; }
      const kids = n.children;
      for (let k = kids.length - 1; k >= 0; k--) { const c = kids[k]; if (c && (c.hasError || c.isMissing)) cursorStack.push(c); }
    }
    if (errs.length) facts.syntaxErrors = errs;
  }
  if (folded) facts.folded = folded;
  const pkg = spec.packageName?.(root);
  if (pkg) facts.packageName = pkg;
  return facts;
}
