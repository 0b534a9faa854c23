/**
 * Call sites as the TypeScript checker resolves them, mapped onto the graph's own nodes: for every
 * call, `new`, `super(...)` and tagged template in a graph file, the caller is the innermost graph
 * definition whose span holds the site (else the file), and the callee is the graph node whose span
 * holds the name of the declaration the checker resolved (following imports, re-exports and
 * `import * as`). Ids come from the graph, never spelled here, so precise and default edges agree.
 */
import type * as TS from 'typescript';
import type { GraphNode, NodeKey } from '../../graph/model.ts';
import { join } from 'node:path';
import { relativeTo, type TypeScript } from './program.node.ts';
import { calledProperty } from './declared-names.node.ts';

/** One resolved site: `caller` calls (or instantiates) `callee` at `line`. */
export interface PreciseSite {
  caller: NodeKey;
  callee: NodeKey;
  relation: 'calls' | 'instantiates';
  file: string;
  line: number;
}

/** Every file's sites together, as the merge takes them. */
export interface PreciseSites {
  sites: PreciseSite[];
  /** `caller\0line` of every site the checker resolved, in the repository or outside it. */
  resolved: Set<string>;
}

const CALLER_KINDS = new Set(['function', 'method', 'constructor', 'class', 'namespace', 'module', 'variable', 'constant', 'field']);
const CALLEE_KINDS = new Set(['function', 'method', 'constructor', 'class', 'variable', 'constant', 'field', 'interface', 'struct']);

/** A definition's span; `label` is its bare name (`json` of `Context.json`). */
interface Spanned { id: NodeKey; kind: string; label: string; sl: number; sc: number; el: number; ec: number }

/** Per file, its definitions with spans, outermost first at equal starts. */
function spansByFile(nodes: readonly GraphNode[]): Map<string, Spanned[]> {
  const out = new Map<string, Spanned[]>();
  for (const n of nodes) {
    if (!n.span || n.kind === 'file') continue;
    let list = out.get(n.source_file);
    if (!list) out.set(n.source_file, (list = []));
    const label = typeof n.name === 'string' ? n.name : n.label.slice(n.label.lastIndexOf('.') + 1);
    list.push({ id: n.id, kind: n.kind, label, sl: n.span.start_line, sc: n.span.start_col, el: n.span.end_line, ec: n.span.end_col });
  }
  for (const list of out.values()) list.sort((a, b) => a.sl - b.sl || a.sc - b.sc || b.el - a.el || b.ec - a.ec);
  return out;
}

const holds = (s: Spanned, line: number, col: number): boolean =>
  (line > s.sl || (line === s.sl && col >= s.sc)) && (line < s.el || (line === s.el && col <= s.ec));

/** The innermost span of `list` holding (line, col) that `accept` takes. */
function innermost(list: Spanned[] | undefined, line: number, col: number, accept: (s: Spanned) => boolean): Spanned | undefined {
  if (!list) return undefined;
  let best: Spanned | undefined;
  for (const s of list) {
    if (s.sl > line) break;
    if (holds(s, line, col) && accept(s)) best = s; // later starts are inner (sorted)
  }
  return best;
}

/** The name node a declaration is known by (`a.b = function` is named by `b`). */
function declName(ts: TypeScript, d: TS.Node): TS.Node | undefined {
  if (ts.isConstructorDeclaration(d)) return d.getFirstToken() ?? d;
  if (ts.isBinaryExpression(d)) return ts.isPropertyAccessExpression(d.left) ? d.left.name : d.left;
  if (ts.isPropertyAccessExpression(d)) return d.name;
  const named = d as TS.Node & { name?: TS.Node };
  return named.name;
}

/**
 * A symbol declaration as a definition, as the oracle counts one: an expando member's assignment
 * (`a.b = function …`), a variable or property only when it holds a function (`const f = () => …`)
 * or, for a variable, an object literal (`const api = { get() {} }`); otherwise undefined (the
 * callee is a value such as `const string = ZodString.create`, and its signature says what runs).
 */
function definitionDecl(ts: TypeScript, d: TS.Node): TS.Node | undefined {
  if (ts.isPropertyAccessExpression(d) && ts.isBinaryExpression(d.parent) && d.parent.left === d) d = d.parent;
  if (ts.isBinaryExpression(d)) return ts.isArrowFunction(d.right) || ts.isFunctionExpression(d.right) ? d : undefined;
  if (ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d) || ts.isPropertyAssignment(d)) {
    const init = d.initializer;
    if (!init) return undefined;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return d;
    return ts.isVariableDeclaration(d) && ts.isObjectLiteralExpression(init) ? d : undefined;
  }
  return d;
}

/**
 * What a call's callee resolves to, in the order the checker oracle (bench/accuracy/oracle.ts) asks:
 * - the symbol the callee names (aliases followed), its implementation first (an overload set's
 *   body, a variable or property holding the function) — the symbol before the signature, because a
 *   typed binding (`const f: Handler = () => …`) resolves its signature to the type;
 * - `new C()` of a class without a constructor body of its own: the class (an inherited constructor
 *   is not what the site names);
 * - else the resolved signature's declaration (`new`/`super(...)`: the constructor; a callee whose
 *   symbol is not a definition, `const string = ZodString.create`: the function it holds).
 * `symbol` declarations that `accept` rejects (not graph definitions) fall through to the next step.
 */
function calleeDeclaration(ts: TypeScript, checker: TS.TypeChecker, node: TS.CallExpression | TS.NewExpression | TS.TaggedTemplateExpression,
  accept: (d: TS.Node) => boolean, inRepository: (d: TS.Node) => boolean): { decl: TS.Node | undefined; resolved: boolean } {
  const callee = ts.isTaggedTemplateExpression(node) ? node.tag : node.expression;
  const isNew = ts.isNewExpression(node);
  let resolved = false;
  if (callee.kind !== ts.SyntaxKind.SuperKeyword) {
    const nameNode = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
    let sym = nameNode ? checker.getSymbolAtLocation(nameNode) : undefined;
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    const decls = sym?.declarations ?? [];
    if (decls.length) resolved = true;
    // An `any` or error callee (an unresolved import such as `expect`, a member of one) makes an
    // untyped call, whose signature has no declaration: resolving it would only check the arguments.
    else if (nameNode && checker.getTypeAtLocation(callee).flags & ts.TypeFlags.Any) return { decl: undefined, resolved };
    if (isNew) {
      const cls = decls.find((d) => ts.isClassLike(d));
      if (cls && ts.isClassLike(cls) && !cls.members.some((m) => ts.isConstructorDeclaration(m) && m.body)) return { decl: cls, resolved };
      // A library's class (`new Set(...)`): its construct signature is the library's too.
      if (decls.length && !decls.some(inRepository)) return { decl: undefined, resolved };
    } else if (decls.length) {
      const withBody = decls.find((d) => (ts.isFunctionLike(d) && 'body' in d && d.body) || ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d)
        || ts.isPropertyAssignment(d) || ts.isBinaryExpression(d) || (ts.isPropertyAccessExpression(d) && ts.isBinaryExpression(d.parent)));
      const first = withBody ?? decls[0]!;
      const d = definitionDecl(ts, first);
      if (d && accept(d)) return { decl: d, resolved };
      // A library's function or method: its signature cannot point back into the repository.
      if (!inRepository(first)) return { decl: undefined, resolved };
    }
  }
  const decl = checker.getResolvedSignature(node)?.declaration;
  if (decl && !ts.isJSDocSignature(decl)) return { decl, resolved: true };
  return { decl: undefined, resolved };
}

/** What the checker found in one file: its resolved sites, and what its result depends on. */
export interface FileSites {
  sites: PreciseSite[];
  /** `caller\0line` of every site resolved, in the repository or outside it. */
  resolved: string[];
  /** Repository files its imports resolve to (an update re-checks a file when one of them changed). */
  deps: string[];
  /** Some relative import resolved to nothing (a file added later may satisfy it). */
  unresolved: boolean;
  /** Declares globals or augments modules (`declare global`, `declare module`, or a script): part of every program. */
  ambient: boolean;
  /** The member names its property calls name (`m` of `x.m()`): asked about only when some graph file declares one. */
  asks: string[];
}

/**
 * The call sites of `files` (graph-relative paths in `program`), resolved, per file. A property call
 * whose member name is not in `declared` (the names the graph's files declare) is not asked about:
 * it cannot resolve to a graph definition.
 */
export function preciseSites(ts: TypeScript, program: TS.Program, root: string, nodes: readonly GraphNode[], files: Iterable<string>,
  declared: ReadonlySet<string>): Map<string, FileSites> {
  const checker = program.getTypeChecker();
  const options = program.getCompilerOptions();
  const spans = spansByFile(nodes);
  const fileIds = new Map<string, NodeKey>();
  for (const n of nodes) if (n.kind === 'file') fileIds.set(n.source_file, n.id);
  const out = new Map<string, FileSites>();

  /** The graph node of a declaration, or null when it is not in the graph (a library, a .d.ts). */
  const nodeOf = (d: TS.Node): Spanned | null => {
    // A signature's declaration may be the function value itself: named by what holds it.
    const p = d.parent;
    if ((ts.isArrowFunction(d) || ts.isFunctionExpression(d)) && p && (ts.isVariableDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertyAssignment(p) || (ts.isBinaryExpression(p) && p.right === d))) d = p;
    const file = relativeTo(root, d.getSourceFile().fileName);
    if (file === null) return null;
    const name = declName(ts, d);
    if (!name) return null;
    const sf = d.getSourceFile();
    const pos = sf.getLineAndCharacterOfPosition(name.getStart(sf));
    // The node named there, not merely one holding the declaration (a local inside a function).
    const text = ts.isConstructorDeclaration(d) ? 'constructor' : name.getText(sf);
    return innermost(spans.get(file), pos.line + 1, pos.character, (s) => CALLEE_KINDS.has(s.kind) && s.label === text) ?? null;
  };

  const inRepository = (d: TS.Node): boolean => {
    const file = relativeTo(root, d.getSourceFile().fileName);
    return file !== null && !file.includes('node_modules/');
  };

  for (const file of files) {
    const sf = program.getSourceFile(join(root, file));
    const fileId = fileIds.get(file);
    if (!sf || fileId === undefined) continue;
    const fileSpans = spans.get(file);
    const sites: PreciseSite[] = [];
    const resolved = new Set<string>();
    const asks = new Set<string>();
    const visitCall = (node: TS.CallExpression | TS.NewExpression | TS.TaggedTemplateExpression): void => {
      const prop = calledProperty(ts, node);
      if (prop !== undefined) {
        asks.add(prop);
        if (!declared.has(prop)) return;
      }
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf));
      const line = start.line + 1;
      const caller = innermost(fileSpans, line, start.character, (s) => CALLER_KINDS.has(s.kind))?.id ?? fileId;
      let target: Spanned | null = null;
      const { decl, resolved: known } = calleeDeclaration(ts, checker, node, (d) => (target = nodeOf(d)) !== null, inRepository);
      if (known) resolved.add(`${caller}\0${line}`);
      if (decl && !target) target = nodeOf(decl);
      if (target) sites.push({ caller, callee: target.id, relation: calleeRelation(target, ts.isNewExpression(node)), file, line });
    };
    const visit = (node: TS.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node)) visitCall(node);
      ts.forEachChild(node, visit);
    };
    visit(sf);
    out.set(file, { sites, resolved: [...resolved], ...importsOf(ts, program, options, root, sf), asks: [...asks].sort() });
  }
  return out;
}

/** The repository files `sf` imports (as the program resolved them), and whether it is ambient. */
function importsOf(ts: TypeScript, program: TS.Program, options: TS.CompilerOptions, root: string, sf: TS.SourceFile): Pick<FileSites, 'deps' | 'unresolved' | 'ambient'> {
  const deps = new Set<string>();
  let unresolved = false;
  // `imports` and `getResolvedModule` are internal but stable (the program already resolved each
  // import once); without them, the public resolver answers the same.
  const internal = program as TS.Program & { getResolvedModule?: (f: TS.SourceFile, name: string, mode: TS.ResolutionMode) => TS.ResolvedModuleWithFailedLookupLocations | undefined };
  const imports = (sf as TS.SourceFile & { imports?: readonly TS.StringLiteralLike[] }).imports ?? [];
  for (const spec of imports) {
    const mode = ts.getModeForUsageLocation(sf, spec, options);
    const r = (internal.getResolvedModule?.(sf, spec.text, mode) ?? ts.resolveModuleName(spec.text, sf.fileName, options, ts.sys, undefined, undefined, mode)).resolvedModule;
    const rel = r ? relativeTo(root, r.resolvedFileName) : null;
    if (rel !== null && !rel.includes('node_modules/')) deps.add(rel);
    else if (!r && spec.text.startsWith('.')) unresolved = true;
  }
  const ambient = !ts.isExternalModule(sf) || /\bdeclare\s+(?:global|module)\b/.test(sf.text);
  return { deps: [...deps].sort(), unresolved, ambient };
}

/** `new C()` of a class (no constructor node resolved) instantiates it; everything else calls. */
function calleeRelation(target: Spanned, isNew: boolean): 'calls' | 'instantiates' {
  return isNew && (target.kind === 'class' || target.kind === 'struct' || target.kind === 'interface') ? 'instantiates' : 'calls';
}
