/**
 * Per-language recognizers of route registrations and client calls, one call node at a time (see
 * extract.ts). Each reads only the call, its arguments and its immediate parents.
 */
import type { Node } from 'web-tree-sitter';
import type { Expr } from '../facts.ts';
import type { LanguageId } from '../languages.ts';
import { HOLE, METHODS } from './paths.ts';

export type FoundHandler = { k: 'def'; name: string; line: number; defLine: number } | { k: 'expr'; e: Expr } | { k: 'inline' } | { k: 'none' };

export interface FoundRoute {
  methods: string[];
  /** The path as registered (before the receiver's static prefix). */
  path: string;
  /** The router variable it is registered on (its static prefix applies). */
  recv?: string;
  handler: FoundHandler;
  line: number;
  col: number;
  endCol: number;
  /** Where the registering call starts (its enclosing symbol is the scope), and its source index. */
  at: [number, number];
  index: number;
  framework: string;
}

export interface FoundCall {
  method: string;
  /** URL text, non-literal parts as HOLE (a named origin already removed). */
  text: string;
  origin?: string;
  client: string;
  line: number;
  at: [number, number];
}

export interface VarDef {
  own: string;
  parent?: string;
  /** Source index of the definition. */
  at: number;
}

/** Records a prefix definition of `name` at `at`. */
export function defineVar(found: Found, name: string, def: VarDef): void {
  const l = found.vars.get(name);
  if (l) l.push(def); else found.vars.set(name, [def]);
}

export interface Found {
  routes: FoundRoute[];
  calls: FoundCall[];
  /**
   * Router variables with a static prefix of their own (`basePath`, `Group`, `url_prefix`), and the
   * router they derive from, per name in source order (a use sees the latest definition before it).
   */
  vars: Map<string, VarDef[]>;
  /** Router variables mounted on another under a path (`app.route('/p', sub)`, `include_router`); the first mount counts. */
  mounts: Map<string, { parent?: string; path: string }>;
}

export interface Adapter {
  callType: string;
  /** A declaration of variable `name` (the regex source; `$NAME` stands for it). */
  declares: string;
  /** Files whose text does not match have nothing to find. */
  mentions: RegExp;
  /** Global: each match's first matched group is the name of a call worth visiting (the walk starts there, not at every call). */
  triggers: RegExp;
  visit(call: Node, found: Found, expr: (n: Node) => Expr): void;
}

/** A named origin (`API_BASE`, `process.env.API_URL`, `import.meta.env.VITE_API`): its last part is ALL_CAPS. */
const ORIGIN = /^(?:[\w$]+\.)*[A-Z][A-Z0-9_]*$/;
const LOWER_METHODS = new Set(['get', 'post', 'put', 'delete', 'patch', 'head', 'options']);

type Text = { text: string; holes: string[] };

/** A URL's literal text, or null when it does not start with literal text or a named origin. */
function url(t: Text | null): { text: string; origin?: string } | null {
  if (!t) return null;
  if (!t.text.startsWith(HOLE)) return { text: t.text };
  const h = t.holes[0]!;
  return ORIGIN.test(h) && t.text.startsWith('/', 1) ? { text: t.text.slice(1), origin: h } : null;
}

const args = (call: Node): Node[] => (call.childForFieldName('arguments')?.namedChildren ?? []).filter((c): c is Node => !!c && c.type !== 'comment');
const lineOf = (n: Node): number => n.startPosition.row + 1;
const clip = (s: string): string => (s.length > 40 ? s.slice(0, 40) + '…' : s);

const posOf = (n: Node): [number, number] => [n.startPosition.row + 1, n.startPosition.column];

function route(found: Found, methods: string[], path: string, at: Node, handler: FoundHandler, framework: string, recv: string | undefined, call: Node): void {
  found.routes.push({
    methods, path, handler, framework, line: lineOf(at), col: at.startPosition.column, at: posOf(call), index: call.startIndex,
    endCol: at.endPosition.row === at.startPosition.row ? at.endPosition.column : at.startPosition.column + 1, ...(recv ? { recv } : {}),
  });
}

function client(found: Found, method: string | null, u: { text: string; origin?: string } | null, fn: Node, at: Node): void {
  if (!method || !u) return;
  found.calls.push({ method, text: u.text, client: fn.text.length > 40 ? fn.text.slice(0, 40) + '…' : fn.text, line: lineOf(at), at: posOf(at), ...(u.origin ? { origin: u.origin } : {}) });
}

// ---- JavaScript / TypeScript ----

function jsText(n: Node): Text | null {
  const holes: string[] = [];
  const hole = (t: string): string => (holes.push(clip(t)), HOLE);
  const piece = (x: Node): string => {
    if (x.type === 'string') return x.text.slice(1, -1);
    if (x.type === 'template_string') {
      let out = '';
      let at = x.startIndex + 1;
      for (const c of x.namedChildren) {
        if (!c || c.type !== 'template_substitution') continue;
        out += x.text.slice(at - x.startIndex, c.startIndex - x.startIndex) + hole(c.text.slice(2, -1).trim());
        at = c.endIndex;
      }
      return out + x.text.slice(at - x.startIndex, x.text.length - 1);
    }
    if (x.type === 'binary_expression' && x.childForFieldName('operator')?.text === '+') {
      const l = x.childForFieldName('left');
      const r = x.childForFieldName('right');
      if (l && r) return piece(l) + piece(r);
    }
    if (x.type === 'parenthesized_expression' && x.namedChildren[0]) return piece(x.namedChildren[0]);
    return hole(x.text);
  };
  const text = piece(n);
  return { text, holes };
}

/** A plain string literal's value (no substitutions), else null. */
function jsString(n: Node | undefined): string | null {
  if (!n) return null;
  if (n.type === 'string') return n.text.slice(1, -1);
  if (n.type === 'template_string' && !n.namedChildren.some((c) => c?.type === 'template_substitution')) return n.text.slice(1, -1);
  return null;
}

function jsProp(obj: Node | undefined, key: string): Node | undefined {
  if (!obj || obj.type !== 'object') return undefined;
  for (const p of obj.namedChildren) {
    if (p?.type !== 'pair') continue;
    const k = p.childForFieldName('key');
    if (k && (k.text === key || jsString(k) === key)) return p.childForFieldName('value') ?? undefined;
  }
  return undefined;
}

/** The method of a fetch/axios options object: GET when absent, null when not a literal. */
function jsMethod(init: Node | undefined): string | null {
  const m = jsProp(init, 'method');
  if (!m) return 'GET';
  const s = jsString(m)?.toUpperCase();
  return s && METHODS.has(s) ? s : null;
}

/** The declared variable a call's value is assigned to (`const api = <call>`). */
function jsDeclared(call: Node): string | undefined {
  let p = call.parent;
  while (p && (p.type === 'await_expression' || p.type === 'parenthesized_expression')) p = p.parent;
  if (p?.type === 'variable_declarator' || p?.type === 'assignment_expression') {
    const name = p.childForFieldName(p.type === 'variable_declarator' ? 'name' : 'left');
    if (name && (name.type === 'identifier' || name.type === 'member_expression')) return name.text;
  }
  return undefined;
}

/** The router a chained call hangs off (`app.get(...).post(...)` -> app) and an Express `route('/p')` on the way. */
function jsRecv(obj: Node): { recv?: string; routePath?: string } {
  let n: Node | null = obj;
  let routePath: string | undefined;
  for (let depth = 0; n && n.type === 'call_expression' && depth < 16; depth++) {
    const f = n.childForFieldName('function');
    if (f?.type !== 'member_expression') return {};
    const a = args(n);
    if (f.childForFieldName('property')?.text === 'route' && a.length === 1 && jsString(a[0]) !== null) routePath ??= jsString(a[0])!;
    n = f.childForFieldName('object');
  }
  return { ...(n && (n.type === 'identifier' || n.type === 'member_expression' || n.type === 'this') ? { recv: n.text } : {}), ...(routePath !== undefined ? { routePath } : {}) };
}

/** Handler arguments that make a call a route registration (`agent.get('/x', { headers })` is a client). */
const JS_HANDLERS = new Set(['arrow_function', 'function_expression', 'function', 'identifier', 'member_expression', 'call_expression']);

function jsHandler(h: Node | undefined, expr: (n: Node) => Expr): FoundHandler {
  if (!h) return { k: 'none' };
  if (h.type === 'arrow_function' || h.type === 'function_expression' || h.type === 'function') return { k: 'inline' };
  const target = h.type === 'call_expression' ? h.childForFieldName('function') : h;
  const e = target ? expr(target) : { k: 'unk' as const };
  return e.k === 'unk' ? { k: 'none' } : { k: 'expr', e };
}

const JS: Adapter = {
  callType: 'call_expression',
  declares: '\\b(?:const|let|var)\\s+$NAME\\b',
  mentions: /\b(?:fetch|axios|request|supertest|get|post|put|delete|patch|all|on|route|basePath)\s*[(<]/,
  triggers: /\b(fetch|\$fetch|ofetch|axios)\s*\(|\.\s*(get|post|put|delete|patch|head|options|all|route|use|basePath|request)\s*\(\s*['"`](?:\/|\*|https?:|\$\{)|\.\s*(on|route)\s*\(\s*[['"`{]|\)\s*\.\s*(get|post|put|delete|patch|head|options|all)\s*\(/g,
  visit(call, found, expr) {
    const fn = call.childForFieldName('function');
    if (!fn || call.childForFieldName('arguments')?.type !== 'arguments') return;
    const a = args(call);
    if (fn.type === 'identifier') {
      const name = fn.text;
      if (name === 'fetch' || name === '$fetch' || name === 'ofetch') client(found, jsMethod(a[1]), a[0] && url(jsText(a[0])), fn, call);
      else if (name === 'axios') {
        if (a[0]?.type === 'object') { const u = jsProp(a[0], 'url'); client(found, jsMethod(a[0]), u ? url(jsText(u)) : null, fn, call); }
        else client(found, jsMethod(a[1]), a[0] && url(jsText(a[0])), fn, call);
      }
      return;
    }
    if (fn.type !== 'member_expression') return;
    const obj = fn.childForFieldName('object');
    const prop = fn.childForFieldName('property')?.text;
    if (!obj || !prop) return;
    const objName = obj.type === 'identifier' ? obj.text : undefined;
    // Clients.
    if (prop === 'fetch' && (objName === 'window' || objName === 'globalThis' || objName === 'self')) return client(found, jsMethod(a[1]), a[0] && url(jsText(a[0])), fn, call);
    if (objName === 'axios') {
      if (LOWER_METHODS.has(prop)) return client(found, prop.toUpperCase(), a[0] && url(jsText(a[0])), fn, call);
      if (prop === 'request') { const u = jsProp(a[0], 'url'); return client(found, jsMethod(a[0]), u ? url(jsText(u)) : null, fn, call); }
      return;
    }
    if (prop === 'request' && a[0] && (a[0].type === 'string' || a[0].type === 'template_string' || a[0].type === 'binary_expression')) {
      return client(found, jsMethod(a[1]), url(jsText(a[0])), fn, call); // hono's app.request('/path', init)
    }
    if (LOWER_METHODS.has(prop) && obj.type === 'call_expression') {
      const f = obj.childForFieldName('function');
      if (f?.type === 'identifier' && (f.text === 'request' || f.text === 'supertest')) return client(found, prop.toUpperCase(), a[0] && url(jsText(a[0])), fn, call);
    }
    // Prefixes and mounts.
    if (prop === 'basePath' && jsString(a[0]) !== null) {
      const name = jsDeclared(call);
      if (name) defineVar(found, name, { at: call.startIndex, own: jsString(a[0])!, ...(jsRecv(obj).recv ? { parent: jsRecv(obj).recv } : {}) });
      return;
    }
    if ((prop === 'route' || prop === 'use') && a.length === 2 && jsString(a[0]) !== null && a[1]!.type === 'identifier') {
      if (!found.mounts.has(a[1]!.text)) found.mounts.set(a[1]!.text, { path: jsString(a[0])!, ...(jsRecv(obj).recv ? { parent: jsRecv(obj).recv } : {}) });
      return;
    }
    // Routes.
    const all = prop === 'all';
    if ((LOWER_METHODS.has(prop) || all) && JS_HANDLERS.has(a[a.length - 1]?.type ?? '')) {
      const { recv, routePath } = obj.type === 'call_expression' ? jsRecv(obj) : { recv: obj.text, routePath: undefined };
      const path = jsString(a[0]);
      if (path !== null && a.length >= 2) route(found, [all ? 'ANY' : prop.toUpperCase()], routePath !== undefined ? joinRoute(routePath, path) : path, a[0]!, jsHandler(a[a.length - 1], expr), 'js', recv, call);
      else if (path === null && routePath !== undefined && a.length >= 1) route(found, [all ? 'ANY' : prop.toUpperCase()], routePath, fn.childForFieldName('property')!, jsHandler(a[a.length - 1], expr), 'js', recv, call);
      return;
    }
    if (prop === 'on' && a.length >= 3) {
      const path = jsString(a[1]);
      const ms = a[0]!.type === 'array' ? a[0]!.namedChildren.map((c) => (c ? jsString(c) : null)) : [jsString(a[0])];
      const methods = ms.map((m) => m?.toUpperCase() ?? '').filter((m) => METHODS.has(m));
      if (path !== null && methods.length === ms.length) route(found, methods, path, a[1]!, jsHandler(a[a.length - 1], expr), 'js', jsRecv(obj).recv ?? (objName ?? obj.text), call);
      return;
    }
    if (prop === 'route' && a.length === 1 && a[0]!.type === 'object') {
      // Fastify: fastify.route({ method, url, handler }).
      const path = jsString(jsProp(a[0], 'url') ?? jsProp(a[0], 'path'));
      const m = jsProp(a[0], 'method');
      const ms = m?.type === 'array' ? m.namedChildren.map((c) => (c ? jsString(c) : null)) : [jsString(m)];
      const methods = ms.map((x) => x?.toUpperCase() ?? '').filter((x) => METHODS.has(x));
      if (path !== null && methods.length && methods.length === ms.length) route(found, methods, path, a[0]!, jsHandler(jsProp(a[0], 'handler'), expr), 'fastify', objName ?? obj.text, call);
    }
  },
};

function joinRoute(a: string, b: string): string {
  return a.replace(/\/+$/, '') + (b.startsWith('/') ? b : `/${b}`);
}

// ---- Python ----

function pyText(n: Node): Text | null {
  const holes: string[] = [];
  const hole = (t: string): string => (holes.push(clip(t)), HOLE);
  const piece = (x: Node): string => {
    if (x.type === 'string') {
      let out = '';
      for (const c of x.namedChildren) {
        if (!c) continue;
        if (c.type === 'string_content' || c.type === 'escape_sequence') out += c.text;
        else if (c.type === 'interpolation') out += hole(c.childForFieldName('expression')?.text ?? c.text);
      }
      return out;
    }
    if (x.type === 'concatenated_string') return x.namedChildren.map((c) => (c ? piece(c) : '')).join('');
    if (x.type === 'binary_operator') {
      const op = x.childForFieldName('operator')?.text;
      const l = x.childForFieldName('left');
      const r = x.childForFieldName('right');
      if (l && r && op === '+') return piece(l) + piece(r);
      if (l && r && op === '%') return piece(l).replace(/%[-+#0 ]*\d*(?:\.\d+)?[sdifrx]/g, () => hole(r.text));
    }
    if (x.type === 'call') {
      const f = x.childForFieldName('function');
      const o = f?.type === 'attribute' ? f.childForFieldName('object') : null;
      if (o?.type === 'string' && f!.childForFieldName('attribute')?.text === 'format') return piece(o).replace(/\{[^{}]*\}/g, () => hole('format'));
    }
    if (x.type === 'parenthesized_expression' && x.namedChildren[0]) return piece(x.namedChildren[0]);
    return hole(x.text);
  };
  return { text: piece(n), holes };
}

function pyString(n: Node | undefined): string | null {
  if (!n || n.type !== 'string' || n.namedChildren.some((c) => c?.type === 'interpolation')) return null;
  return n.namedChildren.filter((c) => c?.type === 'string_content' || c?.type === 'escape_sequence').map((c) => c!.text).join('');
}

function pyKeyword(a: Node[], name: string): Node | undefined {
  for (const x of a) if (x.type === 'keyword_argument' && x.childForFieldName('name')?.text === name) return x.childForFieldName('value') ?? undefined;
  return undefined;
}

const PY_CLIENTS = new Set(['requests', 'httpx', 'client', 'self.client', 'test_client', 'session', 'self.session']);

const PYTHON: Adapter = {
  callType: 'call',
  declares: '^[ \\t]*$NAME[ \\t]*=(?!=)',
  mentions: /\b(?:route|api_route|get|post|put|delete|patch|request|Blueprint|APIRouter|register_blueprint|include_router)\s*\(/,
  triggers: /\.\s*(route|api_route|get|post|put|delete|patch|head|options|request)\s*\(\s*[rRfFbBuU]{0,2}['"](?:\/|https?:|\{)|\b(Blueprint|APIRouter|register_blueprint|include_router)\s*\(/g,
  visit(call, found, expr) {
    void expr;
    const fn = call.childForFieldName('function');
    if (!fn) return;
    const a = args(call);
    const pos = a.filter((x) => x.type !== 'keyword_argument');
    if (fn.type === 'identifier' || (fn.type === 'attribute' && /^(?:Blueprint|APIRouter)$/.test(fn.childForFieldName('attribute')?.text ?? ''))) {
      const ctor = fn.type === 'identifier' ? fn.text : fn.childForFieldName('attribute')!.text;
      const own = pyString(pyKeyword(a, ctor === 'Blueprint' ? 'url_prefix' : 'prefix'));
      const p = call.parent;
      if ((ctor === 'Blueprint' || ctor === 'APIRouter') && own && p?.type === 'assignment' && p.childForFieldName('left')?.type === 'identifier') defineVar(found, p.childForFieldName('left')!.text, { at: call.startIndex, own });
      return;
    }
    if (fn.type !== 'attribute') return;
    const obj = fn.childForFieldName('object');
    const attr = fn.childForFieldName('attribute')?.text;
    if (!obj || !attr) return;
    if (call.parent?.type === 'decorator') {
      const dd = call.parent.parent;
      const def = dd?.type === 'decorated_definition' ? dd.childForFieldName('definition') : null;
      const name = def?.type === 'function_definition' ? def.childForFieldName('name')?.text : undefined;
      const path = pyString(pos[0]);
      if (!dd || !def || !name || path === null) return;
      let methods: string[];
      if (LOWER_METHODS.has(attr)) methods = [attr.toUpperCase()];
      else if (attr === 'route' || attr === 'api_route') {
        const list = pyKeyword(a, 'methods');
        methods = list ? list.namedChildren.map((c) => (c ? pyString(c)?.toUpperCase() ?? '' : '')) : ['GET'];
        if (!methods.length || methods.some((m) => !METHODS.has(m))) return;
      } else return;
      route(found, methods, path, pos[0]!, { k: 'def', name, line: lineOf(dd), defLine: lineOf(def) }, attr === 'route' ? 'flask' : 'fastapi', obj.text, call);
      return;
    }
    if ((attr === 'register_blueprint' || attr === 'include_router') && pos[0]?.type === 'identifier') {
      const path = pyString(pyKeyword(a, attr === 'register_blueprint' ? 'url_prefix' : 'prefix')) ?? '';
      if (!found.mounts.has(pos[0].text)) found.mounts.set(pos[0].text, { parent: obj.text, path });
      return;
    }
    if (!PY_CLIENTS.has(obj.text)) return;
    if (LOWER_METHODS.has(attr)) {
      const u = pos[0] ?? pyKeyword(a, 'url');
      client(found, attr.toUpperCase(), u ? url(pyText(u)) : null, fn, call);
    } else if (attr === 'request') {
      const m = pyString(pos[0] ?? pyKeyword(a, 'method'))?.toUpperCase();
      const u = pos[1] ?? pyKeyword(a, 'url');
      client(found, m && METHODS.has(m) ? m : null, u ? url(pyText(u)) : null, fn, call);
    }
  },
};

// ---- Go ----

function goText(n: Node): Text | null {
  const holes: string[] = [];
  const hole = (t: string): string => (holes.push(clip(t)), HOLE);
  const piece = (x: Node): string => {
    if (x.type === 'interpreted_string_literal' || x.type === 'raw_string_literal') return x.text.slice(1, -1);
    if (x.type === 'binary_expression' && x.childForFieldName('operator')?.text === '+') {
      const l = x.childForFieldName('left');
      const r = x.childForFieldName('right');
      if (l && r) return piece(l) + piece(r);
    }
    if (x.type === 'call_expression' && x.childForFieldName('function')?.text === 'fmt.Sprintf') {
      const f = args(x)[0];
      if (f && (f.type === 'interpreted_string_literal' || f.type === 'raw_string_literal')) return f.text.slice(1, -1).replace(/%[-+# 0]*\d*(?:\.\d+)?[a-zA-Z]/g, () => hole('%'));
    }
    if (x.type === 'parenthesized_expression' && x.namedChildren[0]) return piece(x.namedChildren[0]);
    return hole(x.text);
  };
  return { text: piece(n), holes };
}

function goString(n: Node | undefined): string | null {
  return n && (n.type === 'interpreted_string_literal' || n.type === 'raw_string_literal') ? n.text.slice(1, -1) : null;
}

function goMethod(n: Node | undefined): string | null {
  if (!n) return null;
  const s = goString(n) ?? (/^http\.Method(\w+)$/.exec(n.text)?.[1] ?? null);
  return s && METHODS.has(s.toUpperCase()) ? s.toUpperCase() : null;
}

function goHandler(h: Node | undefined, expr: (n: Node) => Expr): FoundHandler {
  if (!h) return { k: 'none' };
  if (h.type === 'func_literal') return { k: 'inline' };
  let target: Node | undefined = h;
  if (h.type === 'call_expression') {
    const f = h.childForFieldName('function');
    target = f && /(?:^|\.)HandlerFunc$/.test(f.text) && args(h).length === 1 ? args(h)[0] : f ?? undefined;
  }
  const e = target ? expr(target) : { k: 'unk' as const };
  return e.k === 'unk' ? { k: 'none' } : { k: 'expr', e };
}

/** The variable a Go call's value is assigned to (`v1 := r.Group("/v1")`). */
function goDeclared(call: Node): string | undefined {
  const list = call.parent;
  const decl = list?.parent;
  if (list?.type !== 'expression_list' || (decl?.type !== 'short_var_declaration' && decl?.type !== 'assignment_statement')) return undefined;
  const at = list.namedChildren.findIndex((c) => c?.id === call.id);
  const left = decl.childForFieldName('left')?.namedChildren[at];
  return left?.type === 'identifier' ? left.text : undefined;
}

const GIN = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'Any', 'Get', 'Post', 'Put', 'Delete', 'Patch', 'Head', 'Options']);
const GO_CLIENT = new Map([['Get', 'GET'], ['Head', 'HEAD'], ['Post', 'POST'], ['PostForm', 'POST']]);

const GO: Adapter = {
  callType: 'call_expression',
  declares: '\\b$NAME\\s*:=|\\bvar\\s+$NAME\\b',
  mentions: /\b(?:HandleFunc|Handle|GET|POST|PUT|DELETE|PATCH|Any|Get|Post|Put|Delete|Patch|Group|NewRequest|NewRequestWithContext|Subrouter)\s*\(/,
  triggers: /\.\s*(HandleFunc|Handle|GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|Any|Get|Post|PostForm|Put|Delete|Patch|Head|Options|Group)\s*\(\s*["`](?:\/|https?:|[A-Z]+ )|\b(NewRequest|NewRequestWithContext|Subrouter)\s*\(/g,
  visit(call, found, expr) {
    const fn = call.childForFieldName('function');
    if (fn?.type !== 'selector_expression') return;
    const op = fn.childForFieldName('operand');
    const field = fn.childForFieldName('field')?.text;
    if (!op || !field) return;
    const a = args(call);
    const pkg = op.type === 'identifier' ? op.text : undefined;
    if (pkg === 'http' || pkg === 'httptest') {
      const m = GO_CLIENT.get(field);
      if (m && pkg === 'http' && a[0]) return client(found, m, url(goText(a[0])), fn, call);
      if (field === 'NewRequest' && a[1]) return client(found, goMethod(a[0]), url(goText(a[1])), fn, call);
      if (field === 'NewRequestWithContext' && pkg === 'http' && a[2]) return client(found, goMethod(a[1]), url(goText(a[2])), fn, call);
    }
    if ((field === 'HandleFunc' || field === 'Handle') && a.length === 2) {
      const pattern = goString(a[0]);
      if (pattern === null) return;
      const sp = /^([A-Z]+)\s+(\S+)$/.exec(pattern.trim());
      let methods = sp ? [sp[1]!] : ['ANY'];
      const path = sp ? sp[2]!.slice(Math.max(0, sp[2]!.indexOf('/'))) : pattern.slice(Math.max(0, pattern.indexOf('/')));
      // gorilla/mux: r.HandleFunc("/x", h).Methods("GET", "POST").
      const sel = call.parent;
      if (sel?.type === 'selector_expression' && sel.childForFieldName('field')?.text === 'Methods' && sel.parent?.type === 'call_expression') {
        const ms = args(sel.parent).map((x) => goMethod(x));
        if (ms.length && ms.every((x) => x)) methods = ms as string[];
      }
      if (methods.every((m) => m === 'ANY' || METHODS.has(m))) route(found, methods, path, a[0]!, goHandler(a[1], expr), 'go', pkg === 'http' ? undefined : op.text, call);
      return;
    }
    if (GIN.has(field) && a.length >= 2 && pkg !== 'http') {
      const path = goString(a[0]);
      if (path !== null && path.startsWith('/')) route(found, [field === 'Any' ? 'ANY' : field.toUpperCase()], path, a[0]!, goHandler(a[a.length - 1], expr), 'go', op.text, call);
      return;
    }
    if (field === 'Group' && a.length >= 1 && goString(a[0]) !== null) {
      const name = goDeclared(call);
      if (name) defineVar(found, name, { at: call.startIndex, own: goString(a[0])!, ...(op.type === 'identifier' ? { parent: op.text } : {}) });
      return;
    }
    if (field === 'Subrouter' && op.type === 'call_expression') {
      // gorilla/mux: s := r.PathPrefix("/p").Subrouter().
      const pf = op.childForFieldName('function');
      const own = goString(args(op)[0]);
      const name = goDeclared(call);
      const parent = pf?.type === 'selector_expression' ? pf.childForFieldName('operand') : null;
      if (pf?.type === 'selector_expression' && pf.childForFieldName('field')?.text === 'PathPrefix' && own !== null && name) defineVar(found, name, { at: call.startIndex, own, ...(parent?.type === 'identifier' ? { parent: parent.text } : {}) });
    }
  },
};

export const ADAPTERS: Partial<Record<LanguageId, Adapter>> = { typescript: JS, tsx: JS, javascript: JS, python: PYTHON, go: GO };
