/**
 * HTTP links of one file: `handled_by` from each route this file registers to its handler (a
 * decorated function, a named handler resolved like any value use, or -- an inline anonymous
 * function -- the enclosing symbol or the file, as the call graph attributes its calls), and
 * `calls_service` from each client call's enclosing symbol to the route serving its method and
 * path. Routes are found by bucket name (see http/paths.ts: the consulted `n\0<bucket>` keys are
 * returned, which contributedKeys already lists for every symbol name, so incremental relinking
 * stays exact); the most specific match wins (literal segments over parameters over wildcards, the
 * exact method over ANY), a route of the caller's own file first; a test file's routes serve only
 * that file's requests (each test builds its own app). One route: EXTRACTED (INFERRED
 * through a named origin such as `${API_BASE}`); several in other files: AMBIGUOUS to at most
 * AMBIGUOUS_CAP of them; more, or none: no edge (a path nobody serves gets no route node).
 * Browser-safe.
 */
import type { GraphLink, NodeKey } from '../../graph/model.ts';
import type { FileFacts } from '../facts.ts';
import { clientBuckets, matchScore } from '../http/paths.ts';
import type { Resolver } from './resolver.ts';

const CAP = 4;
const CALLABLE = new Set(['function', 'method', 'constructor']);
const routeIndexes = new WeakMap<readonly FileFacts[], Map<string, [number, number][]>>();

/** Route symbols by bucket name: [file index, symbol index]. */
function routesOf(files: readonly FileFacts[]): Map<string, [number, number][]> {
  let m = routeIndexes.get(files);
  if (m) return m;
  m = new Map();
  for (let fi = 0; fi < files.length; fi++) {
    const f = files[fi]!;
    if (!f.http?.routes.length) continue;
    const syms = f.symbols;
    for (let i = syms.length - 1; i >= 0 && syms[i]!.kind === 'route'; i--) {
      const l = m.get(syms[i]!.name);
      if (l) l.push([fi, i]); else m.set(syms[i]!.name, [[fi, i]]);
    }
  }
  routeIndexes.set(files, m);
  return m;
}

/** Appends file `fi`'s HTTP links to `links` (deduplicated through `seen`); returns the index keys consulted. */
export function linkHttp(R: Resolver, files: readonly FileFacts[], fi: number, links: GraphLink[], seen: Set<string>): string[] {
  const f = files[fi]!;
  const http = f.http;
  if (!http) return [];
  const syms = f.symbols;
  const push = (source: NodeKey, target: NodeKey, relation: string, confidence: GraphLink['confidence'], score: number, line: number): void => {
    if (source === target) return;
    const key = `${source}\0${target}\0${relation}`;
    if (seen.has(key)) return;
    seen.add(key);
    links.push({ source, target, relation, confidence, confidence_score: score, source_file: f.path, source_location: `L${line}` });
  };
  for (const r of http.routes) {
    const h = r.handler;
    if (!h) continue;
    const route = syms[r.symbol]!.id;
    if (h.k === 'sym') push(route, syms[h.i]!.id, 'handled_by', 'EXTRACTED', 1, r.line);
    else if (h.k === 'inline') push(route, h.scope >= 0 ? syms[h.scope]!.id : f.fileId, 'handled_by', 'EXTRACTED', 1, r.line);
    else {
      const v = R.referenced(fi, h.scope, h.e);
      if (v && v.v.t === 'sym' && CALLABLE.has(R.sym(v.v.f, v.v.i).kind)) push(route, R.file(v.v.f).symbols[v.v.i]!.id, 'handled_by', v.inf ? 'INFERRED' : 'EXTRACTED', v.inf ? 0.8 : 1, r.line);
    }
  }
  if (!http.calls.length) return [];
  const index = routesOf(files);
  const keys = new Set<string>();
  for (const c of http.calls) {
    // Per side (this file, other files): the most specific routes; a match in this file wins.
    const best = [-1, -1];
    const hits: [number, number][][] = [[], []];
    for (const bucket of clientBuckets(c.method, c.path)) {
      keys.add(`n\0${bucket}`);
      const exact = bucket.startsWith(`${c.method} `) ? 1 : 0;
      for (const [rf, ri] of index.get(bucket) ?? []) {
        // A test file's routes are its own fixtures: they serve only its own requests.
        if (rf !== fi && files[rf]!.isTest) continue;
        const s = matchScore(files[rf]!.symbols[ri]!.extra!.route_path as string, c.path);
        if (s < 0) continue;
        const side = rf === fi ? 0 : 1;
        const score = s * 2 + exact;
        if (score > best[side]!) { best[side] = score; hits[side] = [[rf, ri]]; } else if (score === best[side]) hits[side]!.push([rf, ri]);
      }
    }
    const chosen = hits[0]!.length ? hits[0]! : hits[1]!;
    if (!chosen.length || chosen.length > CAP) continue;
    const from = c.scope >= 0 ? syms[c.scope]!.id : f.fileId;
    const one = chosen.length === 1;
    for (const [rf, ri] of chosen) {
      const conf = !one ? 'AMBIGUOUS' : c.origin ? 'INFERRED' : 'EXTRACTED';
      push(from, files[rf]!.symbols[ri]!.id, 'calls_service', conf, one ? (c.origin ? 0.8 : 1) : 0.3 / chosen.length, c.line);
    }
  }
  return [...keys];
}
