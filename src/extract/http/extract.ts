/**
 * HTTP boundaries of one parsed file: the routes it registers (Express/hono/Fastify routers,
 * Flask/FastAPI decorators, Go `mux.HandleFunc` / gin / chi / echo) as `route` symbols with their
 * handlers, and its client calls with a literal path (`fetch`, axios, `requests`/`httpx`, Go
 * `http.Get`/`http.NewRequest`). Static prefixes declared in the same file are applied: hono
 * `basePath`, Express `app.route('/p').get(h)`, hono `app.route('/p', sub)` / Express
 * `app.use('/p', router)` of a router of this file, gin `r.Group`, Flask `Blueprint(url_prefix=)` /
 * `register_blueprint`, FastAPI `APIRouter(prefix=)` / `include_router`.
 * Cost: one `descendantsOfType` walk over calls, only for files whose text names a route or client call.
 */
import type { Node } from 'web-tree-sitter';
import type { NodeKind } from '../../graph/model.ts';
import type { FileFacts, SymbolFact } from '../facts.ts';
import type { LanguageId } from '../languages.ts';
import { specFor } from '../lang/index.ts';
import type { HandlerRef, HttpCallFact, HttpFacts, HttpRouteFact } from './facts.ts';
import { clientPath, joinPath, routeBucket, serverPath } from './paths.ts';
import { ADAPTERS, type Found, type VarDef } from './adapters.ts';

const SCOPE_KINDS = new Set<NodeKind>(['function', 'method', 'constructor', 'class', 'struct']);
const MAX_PREFIX_DEPTH = 8;

/** Adds the file's route symbols to `facts.symbols` (after every other symbol) and returns its HTTP facts, or undefined. */
export function extractHttp(root: Node, source: string, language: LanguageId, facts: FileFacts): HttpFacts | undefined {
  const adapter = ADAPTERS[language];
  if (!adapter || !adapter.mentions.test(source)) return undefined;
  const spec = specFor(language);
  const found: Found = { routes: [], calls: [], vars: new Map(), mounts: new Map() };
  // Only the calls a trigger name starts: from the name up to its call (a walk over every call costs ~10% of extraction).
  const visited = new Set<number>();
  for (const m of source.matchAll(adapter.triggers)) {
    const name = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
    const at = m.index + m[0].indexOf(name, m[0].startsWith(')') ? 1 : 0);
    let n: Node | null = root.descendantForIndex(at);
    for (let k = 0; n && k < 3; k++) {
      n = n.parent;
      if (n?.type !== adapter.callType) continue;
      const fn = n.childForFieldName('function');
      if (fn && fn.startIndex <= at && at < fn.endIndex && !visited.has(n.id)) {
        visited.add(n.id);
        adapter.visit(n, found, (x) => spec.expr(x, 0));
      }
      break;
    }
  }
  if (!found.routes.length && !found.calls.length) return undefined;
  const symbols = facts.symbols;
  const real = symbols.length; // route symbols go after: scopes index the real ones
  // The innermost function/method/class holding a position (-1: top level).
  const scopeAt = ([line, col]: [number, number]): number => {
    let best = -1;
    let size = Infinity;
    for (let i = 0; i < real; i++) {
      const p = symbols[i]!.span;
      if (!SCOPE_KINDS.has(symbols[i]!.kind) || p.start_line > line || line > p.end_line) continue;
      if ((p.start_line === line && p.start_col > col) || (p.end_line === line && p.end_col < col)) continue;
      const sz = (p.end_line - p.start_line) * 4096 + p.end_col - p.start_col;
      if (sz < size) { best = i; size = sz; }
    }
    return best;
  };
  // A name's prefix definition in force at source index `at`: the latest before it, unless the
  // variable was declared again since (`const app = new Hono()` in the next test).
  const declared = new Map<string, number[]>();
  const defAt = (name: string, at: number): VarDef | undefined => {
    const defs = found.vars.get(name);
    if (!defs) return undefined;
    let decls = declared.get(name);
    if (!decls) {
      const esc = name.replace(/[.$]/g, '\\$&');
      const re = new RegExp(adapter.declares.replaceAll('$NAME', () => esc), 'gm');
      declared.set(name, (decls = [...source.matchAll(re)].map((m) => m.index)));
    }
    let d = -1;
    for (const x of decls) if (x <= at) d = x;
    let best: VarDef | undefined;
    for (const v of defs) if (v.at <= at && v.at >= d) best = v;
    return best;
  };
  const prefixOf = (name: string | undefined, at: number, depth = 0): string => {
    if (!name || depth > MAX_PREFIX_DEPTH) return '';
    const v = defAt(name, at);
    const mount = found.mounts.get(name);
    const outer = mount ? joinPath(prefixOf(mount.parent, at, depth + 1), mount.path) : v?.parent ? prefixOf(v.parent, v.at, depth + 1) : '';
    return joinPath(outer, v?.own ?? '').replace(/^\/$/, '');
  };
  const routes: HttpRouteFact[] = [];
  const byQname = new Map<string, number>();
  for (const r of found.routes) {
    const path = serverPath(joinPath(prefixOf(r.recv, r.index), r.path));
    if (!path) continue;
    for (const method of r.methods) {
      const qname = `${method} ${path}`;
      let si = byQname.get(qname);
      if (si === undefined) {
        const sym: SymbolFact = {
          id: `${facts.path}#${qname}`, name: routeBucket(method, path), qname, kind: 'route', parent: -1, exported: true,
          span: { start_line: r.line, start_col: r.col, end_line: r.line, end_col: r.endCol },
          extra: { http_method: method, route_path: path, framework: r.framework },
          ...(facts.isTest ? { isTest: true } : {}),
        };
        symbols.push(sym);
        byQname.set(qname, (si = symbols.length - 1));
      }
      const h = r.handler;
      const handler: HandlerRef | undefined = h.k === 'def' ? defHandler(symbols, real, h.name, h.line, h.defLine, scopeAt(r.at))
        : h.k === 'expr' ? { k: 'expr', e: h.e, scope: scopeAt(r.at) } : h.k === 'inline' ? { k: 'inline', scope: scopeAt(r.at) } : undefined;
      routes.push({ symbol: si, line: r.line, ...(handler ? { handler } : {}) });
    }
  }
  const calls: HttpCallFact[] = [];
  for (const c of found.calls) {
    const path = clientPath(c.text);
    if (!path) continue;
    calls.push({ scope: scopeAt(c.at), line: c.line, method: c.method, path, client: c.client, ...(c.origin ? { origin: c.origin } : {}) });
  }
  return routes.length || calls.length ? { routes, calls } : undefined;
}

/** A decorated function's symbol (Python): the one named `name` starting between the decorator and the `def`. */
function defHandler(symbols: SymbolFact[], real: number, name: string, line: number, defLine: number, scope: number): HandlerRef {
  for (let i = 0; i < real; i++) {
    const s = symbols[i]!;
    if (s.name === name && s.span.start_line >= line && s.span.start_line <= defLine) return { k: 'sym', i };
  }
  return { k: 'inline', scope };
}
