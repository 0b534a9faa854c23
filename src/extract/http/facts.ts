/**
 * HTTP boundary facts carried in FileFacts (plain structured-cloneable data). A route a server
 * file registers is an ordinary SymbolFact of kind `route` (name: its lookup bucket, see paths.ts;
 * qname: `GET /api/users/:id`); what needs other files -- the handler a name refers to, the route a
 * client call reaches -- is kept here and resolved when linking (link/http.ts).
 */
import type { Expr } from '../facts.ts';

/** Who serves a registered route. */
export type HandlerRef =
  /** A decorated function (Flask/FastAPI): its symbol index. */
  | { k: 'sym'; i: number }
  /** A named handler (`app.get('/x', listUsers)`), resolved like a value use in scope `scope`. */
  | { k: 'expr'; e: Expr; scope: number }
  /** An inline anonymous function: attributed to the enclosing symbol (-1: the file), as calls are. */
  | { k: 'inline'; scope: number };

export interface HttpRouteFact {
  /** Index of the route symbol in FileFacts.symbols. */
  symbol: number;
  /** Absent when the handler argument is neither a function nor a name (`serveStatic({...})` is a name: the factory). */
  handler?: HandlerRef;
  line: number;
}

/** A client call with a literal path (`fetch('/api/users/' + id)`, `requests.get(...)`, `http.Get(...)`). */
export interface HttpCallFact {
  /** Enclosing symbol index, -1 for top-level code. */
  scope: number;
  line: number;
  /** Upper-case method, e.g. GET. */
  method: string;
  /** Normalized path, a non-literal segment as `:` (see paths.ts clientPath). */
  path: string;
  /** The origin was a named constant (`${API_BASE}/users`), not written out: the link is INFERRED. */
  origin?: string;
  /** The client call as written, e.g. `fetch`, `axios.post`, `requests.get`. */
  client: string;
}

export interface HttpFacts {
  routes: HttpRouteFact[];
  calls: HttpCallFact[];
}
