/**
 * Route paths, normalized so that servers' and clients' spellings meet: Express/hono `:id`
 * (`:id?`, `:id{[0-9]+}`), FastAPI/Go `{id}` (`{id:int}`, `{id...}`), Flask `<id>` / `<int:id>` all
 * become `:id`; `*`, `*rest`, `{*rest}`, `<path:p>` and `{p...}` a wildcard `*` (the rest of the
 * path); a client's non-literal segment (`/users/${id}`) becomes `:`. Query strings, fragments,
 * origins (`http://host:3000`) and trailing slashes are dropped. A route symbol's name is its
 * bucket: method and first segment (`GET /api`, `GET /:`, `ANY /*`, `GET /` for the root), so a
 * client call consults a handful of name keys whatever the route's parameters (link/http.ts).
 * Browser-safe.
 */

/** Stands for a non-literal part of a client URL while it is normalized. */
export const HOLE = '\u0000';
export const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);

/** A server route's path (after any static prefix) as `/a/:id/*`, or null when it is not a path. */
export function serverPath(raw: string): string | null {
  let p = raw.trim();
  if (p === '*' || p === '/*') return '/*';
  if (!p.startsWith('/')) return null;
  p = p.replace(/\{\$\}$/, ''); // Go 1.22: `{$}` anchors the end
  const segs: string[] = [];
  for (const s of p.split('/')) {
    if (!s) continue;
    if (/^\*|^\{\*|^<path:|\.\.\.\}$/.test(s)) { segs.push('*'); break; }
    const m = /^:(\w+)|^\{(\w+)(?::[^}]*)?\}$|^<(?:\w+:)?(\w+)>$/.exec(s);
    if (m) segs.push(`:${m[1] ?? m[2] ?? m[3]}`);
    else if (/[:{<]/.test(s)) segs.push(':param'); // `file.:ext`, `{a}-{b}`: one parameter
    else segs.push(s);
  }
  return '/' + segs.join('/');
}

/**
 * A client URL (literal text, non-literal parts as {@link HOLE}) as a path to match, or null when
 * it has no literal path: it must start with `/` or `scheme://host/` (`origin`: the caller already
 * removed a named origin such as `${API_BASE}`).
 */
export function clientPath(text: string): string | null {
  let t = text;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\u0000]*/i.exec(t);
  if (origin) t = t.slice(origin[0].length) || '/';
  if (!t.startsWith('/')) return null;
  t = t.replace(/[?#][\s\S]*$/, '');
  const segs: string[] = [];
  for (const s of t.split('/')) if (s) segs.push(s.includes(HOLE) ? ':' : s);
  return '/' + segs.join('/');
}

function split(path: string): string[] {
  return path === '/' ? [] : path.slice(1).split('/');
}

function firstKey(seg: string | undefined): string {
  return seg === undefined ? '' : seg.startsWith(':') ? ':' : seg === '*' ? '*' : seg;
}

/** A route symbol's name: method and first segment of its path (see the module comment). */
export function routeBucket(method: string, path: string): string {
  return `${method} /${firstKey(split(path)[0])}`;
}

/** The route buckets a client call of `method` to `path` may find its route in. */
export function clientBuckets(method: string, path: string): string[] {
  const first = split(path)[0];
  const firsts = first === undefined ? ['', '*'] : first === ':' ? [':', '*'] : [first, ':', '*'];
  const out: string[] = [];
  for (const m of [method, 'ANY']) for (const f of firsts) out.push(`${m} /${f}`);
  return out;
}

/**
 * How specifically route `route` serves client path `path` (higher is more specific: literal
 * segments before parameters before a wildcard, earlier segments first), or -1 when it does not.
 */
export function matchScore(route: string, path: string): number {
  const r = split(route);
  const c = split(path);
  let score = 0;
  for (let i = 0; i < r.length; i++) {
    const s = r[i]!;
    if (s === '*') return score * 4 ** (8 - Math.min(i, 8)) + 1;
    const x = c[i];
    if (x === undefined) return -1;
    if (s.startsWith(':')) score = score * 4 + 2;
    else if (s === x) score = score * 4 + 3;
    else return -1;
  }
  return r.length === c.length ? score * 4 ** (8 - Math.min(r.length, 8)) + 1 : -1;
}

/** Joins a static prefix and a route path (`/api` + `/users/:id`). */
export function joinPath(prefix: string, path: string): string {
  const a = prefix.replace(/\/+$/, '');
  const b = path === '/' || path === '' ? '' : path.startsWith('/') || path === '*' ? path : `/${path}`;
  return a + b || '/';
}
