/**
 * Call sites as the TypeScript checker resolves them, mapped onto the graph's own nodes: for every
 * call, `new`, `super(...)` and tagged template in a graph file, the caller is the innermost graph
 * definition whose span holds the site (else the file), and the callee is the graph node whose span
 * holds the name of the declaration the checker resolved (following imports, re-exports and
 * `import * as`). Ids come from the graph, never spelled here, so precise and default edges agree.
 */
import type * as TS from 'typescript';
import type { GraphNode, NodeKey } from '../../graph/model.ts';
import { relativeTo, type TypeScript } from './program.node.ts';

/** One resolved site: `caller` calls (or instantiates) `callee` at `line`. */
export interface PreciseSite {
  caller: NodeKey;
  callee: NodeKey;
  relation: 'calls' | 'instantiates';
  file: string;
  line: number;
}

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
 * The declarations a call's callee resolves to: for `new` and `super(...)` the constructor the
 * signature resolves to (else the class); otherwise the named symbol's (aliases followed), else the
 * resolved signature's. The symbol first, because a typed binding (`const f: Handler = () => …`)
 * resolves its signature to the type, not to the function.
 */
function calleeDeclarations(ts: TypeScript, checker: TS.TypeChecker, node: TS.CallExpression | TS.NewExpression | TS.TaggedTemplateExpression): TS.Node[] {
  const callee = ts.isTaggedTemplateExpression(node) ? node.tag : node.expression;
  if (ts.isNewExpression(node) || callee.kind === ts.SyntaxKind.SuperKeyword) {
    const decl = checker.getResolvedSignature(node)?.declaration;
    if (decl && ts.isConstructorDeclaration(decl)) return [decl];
  }
  if (callee.kind !== ts.SyntaxKind.SuperKeyword) {
    const nameNode = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
    let sym = nameNode ? checker.getSymbolAtLocation(nameNode) : undefined;
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    if (sym?.declarations?.length) return sym.declarations;
  }
  const decl = checker.getResolvedSignature(node)?.declaration;
  return decl && !ts.isJSDocSignature(decl) ? [decl] : [];
}

/** Every call site of the program's graph files, resolved. */
export function preciseSites(ts: TypeScript, program: TS.Program, root: string, nodes: readonly GraphNode[]): PreciseSites {
  const checker = program.getTypeChecker();
  const spans = spansByFile(nodes);
  const fileIds = new Map<string, NodeKey>();
  for (const n of nodes) if (n.kind === 'file') fileIds.set(n.source_file, n.id);
  const sites: PreciseSite[] = [];
  const resolved = new Set<string>();

  /** The graph node of a declaration, or null when it is not in the graph (a library, a .d.ts). */
  const nodeOf = (d: TS.Node): Spanned | null => {
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

  for (const sf of program.getSourceFiles()) {
    const file = relativeTo(root, sf.fileName);
    if (file === null || !fileIds.has(file)) continue;
    const fileSpans = spans.get(file);
    const fileId = fileIds.get(file)!;
    const visit = (node: TS.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node)) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf));
        const line = start.line + 1;
        const caller = innermost(fileSpans, line, start.character, (s) => CALLER_KINDS.has(s.kind))?.id ?? fileId;
        const decls = calleeDeclarations(ts, checker, node);
        if (decls.length) resolved.add(`${caller}\0${line}`);
        for (const d of decls.slice(0, 1)) {
          const target = nodeOf(d);
          if (!target) continue;
          sites.push({ caller, callee: target.id, relation: calleeRelation(target, ts.isNewExpression(node)), file, line });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { sites, resolved };
}

/** `new C()` of a class (no constructor node resolved) instantiates it; everything else calls. */
function calleeRelation(target: Spanned, isNew: boolean): 'calls' | 'instantiates' {
  return isNew && (target.kind === 'class' || target.kind === 'struct' || target.kind === 'interface') ? 'instantiates' : 'calls';
}
