/**
 * The SQL rules audit_sql (sql-audit.ts) and advise_sql (sql-advise.ts) share: the schema as the
 * graph knows it (tables, indexed columns, row-level security), and one builder per rule, so a
 * finding reads the same whichever tool reports it. Graph-only, browser-safe.
 */
import type { GraphNode } from '../graph/model.ts';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface SqlFinding {
  rule_id: string;
  severity: Severity;
  category: 'security' | 'performance' | 'schema';
  title: string;
  detail: string;
  /** `file:Lline` (advise_sql: `query:Lline` for the candidate's own text). */
  location: string;
  remediation: string;
  confidence: number;
}

export interface AuditReport {
  version: 1;
  summary: string;
  findings: SqlFinding[];
}

/** The graph as the rules read it: nodes (with their attributes) and edges by node index. */
export interface AuditGraph {
  nodes: readonly GraphNode[];
  /** Edges of the SQL relations (secured_by, reads_from, writes_to); others are ignored. */
  edges: Iterable<{ source: number; target: number; relation: string }>;
}

/** What the graph says about the database schema. */
export interface SqlSchema {
  /** Tables and views, by bare lower-case name (the first definition). */
  tables: Map<string, GraphNode>;
  /** Every table node (a name defined twice appears twice). */
  tableNodes: GraphNode[];
  /** Table name -> first columns of its indexes, primary key and unique constraints. */
  indexed: Map<string, Set<string>>;
  /** Table name -> columns an expression index covers (`CREATE INDEX ON t (lower(email))`). */
  exprIndexed: Map<string, Set<string>>;
  /** Tables a later migration gives a primary key (`ALTER TABLE ... ADD PRIMARY KEY` in another file). */
  primaryKeyed: Set<string>;
  /** Tables with row-level security enabled. */
  rls: Set<GraphNode>;
  policies: Map<GraphNode, GraphNode[]>;
  /** Table -> a code symbol that reads or writes it (one that request handlers reach, when one does). */
  accessed: Map<GraphNode, GraphNode>;
  /** Request handlers in the graph (targets of `handled_by`); 0 when the project serves no HTTP routes we recognize. */
  handlers: number;
  /** Table -> the request handler whose calls reach a symbol that queries it. */
  fromHandler: Map<GraphNode, GraphNode>;
}

/** How far (in calls) from a request handler a query still counts as request code. */
const HANDLER_DEPTH = 8;

/** Symbols reachable from each request handler through `calls` (the first handler that reaches each wins). */
function reachedFromHandlers(graph: AuditGraph, handlers: number[]): Map<number, number> {
  const calls = new Map<number, number[]>();
  for (const e of graph.edges) if (e.relation === 'calls' && e.source >= 0 && e.target >= 0) (calls.get(e.source) ?? calls.set(e.source, []).get(e.source)!).push(e.target);
  const by = new Map<number, number>();
  let frontier: number[] = [];
  for (const h of handlers) if (!by.has(h)) { by.set(h, h); frontier.push(h); }
  for (let depth = 0; depth < HANDLER_DEPTH && frontier.length; depth++) {
    const next: number[] = [];
    for (const v of frontier) for (const w of calls.get(v) ?? []) if (!by.has(w)) { by.set(w, by.get(v)!); next.push(w); }
    frontier = next;
  }
  return by;
}

const TABLE_KINDS = new Set(['table', 'view']);
const COMMANDS = ['select', 'insert', 'update', 'delete'];

const addTo = (m: Map<string, Set<string>>, key: string, value: string): void => {
  if (value) (m.get(key) ?? m.set(key, new Set()).get(key)!).add(value);
};

/** One pass over the graph's nodes and SQL edges. */
export function sqlSchemaOf(graph: AuditGraph): SqlSchema {
  const nodes = graph.nodes;
  const s: SqlSchema = { tables: new Map(), tableNodes: [], indexed: new Map(), exprIndexed: new Map(), primaryKeyed: new Set(), rls: new Set(), policies: new Map(), accessed: new Map(), handlers: 0, fromHandler: new Map() };
  const handlers: number[] = [];
  const queries: { source: number; target: GraphNode }[] = [];
  for (const e of graph.edges) {
    const source = nodes[e.source];
    const target = nodes[e.target];
    if (!source || !target) continue;
    if (e.relation === 'secured_by') {
      if (target.kind === 'file') s.rls.add(source);
      else if (target.kind === 'policy') (s.policies.get(source) ?? s.policies.set(source, []).get(source)!).push(target);
    } else if ((e.relation === 'reads_from' || e.relation === 'writes_to') && source.language !== 'sql') {
      if (!s.accessed.has(target)) s.accessed.set(target, source);
      queries.push({ source: e.source, target });
    } else if (e.relation === 'handled_by') handlers.push(e.target);
  }
  s.handlers = new Set(handlers).size;
  if (s.handlers > 0 && queries.length > 0) {
    const reached = reachedFromHandlers(graph, handlers);
    for (const q of queries) {
      const h = reached.get(q.source);
      if (h === undefined || s.fromHandler.has(q.target)) continue;
      s.fromHandler.set(q.target, nodes[h]!);
      s.accessed.set(q.target, nodes[q.source]!);
    }
  }
  for (const n of nodes) {
    if (TABLE_KINDS.has(n.kind)) {
      const name = String(n.label);
      if (n.kind === 'table') s.tableNodes.push(n);
      if (!s.tables.has(name)) s.tables.set(name, n);
      if (typeof n.key_columns === 'string') for (const c of n.key_columns.split(',')) addTo(s.indexed, name, c);
    } else if (n.kind === 'index') {
      const t = String(n.table);
      if (typeof n.columns === 'string') addTo(s.indexed, t, n.columns.split(',')[0]!);
      if (typeof n.expr_columns === 'string') for (const c of n.expr_columns.split(',')) addTo(s.exprIndexed, t, c);
      if (n.primary_key === true) s.primaryKeyed.add(t);
    }
  }
  return s;
}

/** The row-level-security findings of one table (`accessor`: who queries it, when the project uses RLS elsewhere). */
export function tableRlsFindings(t: GraphNode, schema: SqlSchema, accessor: string | undefined): SqlFinding[] {
  const name = t.label;
  const pols = schema.policies.get(t) ?? [];
  const loc = at(t.source_file, t.source_location);
  const on = schema.rls.has(t);
  if (on && pols.length === 0) {
    return [{
      rule_id: 'rls_no_policy', severity: 'medium', category: 'security', title: `Row-level security on ${name} without any policy`,
      detail: `RLS is enabled on ${name} but no policy exists, so every role except the owner (and BYPASSRLS roles) sees no rows and can write none.`,
      location: loc, remediation: `Add CREATE POLICY ... ON ${name} for the commands the application runs, or disable RLS if the table is owner-only.`, confidence: 0.9,
    }];
  }
  const out: SqlFinding[] = [];
  if (pols.length > 0) {
    const commands = new Set(pols.map((p) => String(p.command ?? 'all')));
    const missing = commands.has('all') ? [] : COMMANDS.filter((c) => !commands.has(c));
    if (missing.length) {
      // With RLS on, an uncovered command is denied (fail-closed: often on purpose, e.g. writes only by a
      // service role that bypasses RLS): worth knowing, not a hole. With RLS off it runs unchecked.
      out.push({
        rule_id: 'rls_partial', severity: on ? 'low' : 'high', category: 'security', title: `Policies on ${name} cover ${[...commands].sort().join(', ')} but not ${missing.join(', ')}`,
        detail: `${name} has ${pols.length} policy(ies) (${pols.map((p) => `${p.name ?? p.label} FOR ${String(p.command).toUpperCase()}`).join('; ')}); ${missing.map((c) => c.toUpperCase()).join(', ')} ${on ? 'are denied to every non-owner role' : 'run unchecked, and RLS is not enabled in any migration'}.`,
        location: loc, remediation: on
          ? `If the application runs ${missing.map((c) => c.toUpperCase()).join(' / ')} on ${name} as a role subject to RLS, add policies for them; if those run only as the owner or a BYPASSRLS role (a service key), nothing to do.`
          : `Add policies FOR ${missing.map((c) => c.toUpperCase()).join(' / ')} (or one FOR ALL), so every command the application runs is covered on purpose.`, confidence: 0.8,
      });
    }
    if (!on) {
      out.push({
        rule_id: 'rls_not_enabled', severity: 'high', category: 'security', title: `Policies on ${name} but row-level security is never enabled`,
        detail: `No migration runs ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY, so its policies are not enforced.`,
        location: loc, remediation: `ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY;`, confidence: 0.85,
      });
    }
  } else if (!on && schema.rls.size > 0 && accessor && t.kind === 'table') {
    // Request code is what RLS guards against: with routes in the graph, only a table a handler's
    // calls reach counts; without any, every code query does (the graph cannot tell them apart).
    const handler = schema.fromHandler.get(t);
    if (schema.handlers > 0 && !handler && accessor !== 'this query') return out;
    const via = handler ? `, reached from the request handler ${handler.label} (${at(handler.source_file, handler.source_location)})` : schema.handlers > 0 ? '' : ' (the graph has no HTTP routes, so any code query counts)';
    out.push({
      rule_id: 'rls_missing', severity: 'high', category: 'security', title: `${name} is queried from ${handler ? 'request code' : 'code'} without row-level security`,
      detail: `The project enables RLS on ${schema.rls.size} table(s), but not on ${name}, which ${accessor} queries${via}.`,
      location: loc, remediation: `Enable RLS on ${name} with policies, or record why it is intentionally shared.`, confidence: 0.6,
    });
  }
  return out;
}

export function selectStarFinding(where: string, location: string): SqlFinding {
  return {
    rule_id: 'select_star', severity: 'info', category: 'performance', title: `SELECT * in ${where}`,
    detail: 'Selecting every column reads and ships columns the caller may not use, and changes shape when the table does.',
    location, remediation: 'List the columns the code uses.', confidence: 0.9,
  };
}

/** A function, cast or arithmetic on an indexed column in a predicate: the index cannot serve it (null when the column has no index to lose). */
export function nonSargableFinding(table: string | undefined, column: string, expr: string, schema: SqlSchema, location: string): SqlFinding | null {
  if (table === undefined || !schema.indexed.get(table)?.has(column) || schema.exprIndexed.get(table)?.has(column)) return null;
  return {
    rule_id: 'non_sargable', severity: 'medium', category: 'performance', title: `Predicate on ${expr} cannot use the index on ${table}.${column}`,
    detail: `The comparison applies ${expr} to the column, so ${table}'s index on ${column} cannot serve it: every row is computed and compared.`,
    location, remediation: `Compare the bare column (move the function or arithmetic to the other side), or CREATE INDEX ON ${table} ((${expr}));`, confidence: 0.8,
  };
}

export function leadingWildcardFinding(table: string | undefined, column: string, pattern: string, location: string): SqlFinding {
  return {
    rule_id: 'leading_wildcard', severity: 'medium', category: 'performance', title: `LIKE '${pattern}' on ${table ? `${table}.` : ''}${column} starts with %`,
    detail: 'A pattern that starts with a wildcard cannot use a B-tree index: every row is scanned and matched.',
    location, remediation: `Anchor the pattern (LIKE 'x%'), or index it for substring search: CREATE EXTENSION pg_trgm; CREATE INDEX ON ${table ?? '<table>'} USING gin (${column} gin_trgm_ops);`, confidence: 0.85,
  };
}

/** A query run once per row of another query (in a loop over its rows): one round trip per row. */
export function nPlusOneFinding(inner: string, outer: string, where: string, location: string): SqlFinding {
  return {
    rule_id: 'n_plus_one', severity: 'medium', category: 'performance', title: `Query on ${inner} in a loop over the rows of a query on ${outer} (${where})`,
    detail: `The query on ${inner} runs once per row the query on ${outer} returned: N+1 round trips to the database.`,
    location, remediation: `Fetch the ${inner} rows in one query (a JOIN with ${outer}, or WHERE ... = ANY($1) / IN (...) over the collected keys), then match them in code.`, confidence: 0.7,
  };
}

export function noWhereFinding(command: 'update' | 'delete', table: string, location: string): SqlFinding {
  return {
    rule_id: 'missing_where', severity: 'high', category: 'security', title: `${command.toUpperCase()} on ${table} without WHERE`,
    detail: `The statement ${command === 'update' ? 'rewrites' : 'removes'} every row of ${table}.`,
    location, remediation: `Add a WHERE clause for the rows meant${command === 'delete' ? ' (or TRUNCATE, if emptying the table is the point)' : ''}.`, confidence: 0.7,
  };
}

/**
 * The filtered / joined columns of one table in a statement, when no index, primary key or unique
 * constraint starts with any of them (one served predicate is enough for an index scan; the rest
 * are checked on the rows it finds).
 */
export function unindexedFilterFinding(table: string, columns: string[], schema: SqlSchema, location: string): SqlFinding | null {
  const t = schema.tables.get(table);
  const indexed = schema.indexed.get(table);
  if (!t || t.kind !== 'table' || !columns.length || columns.some((c) => indexed?.has(c))) return null;
  const list = columns.join(', ');
  return {
    rule_id: 'missing_filter_index', severity: 'medium', category: 'performance', title: `No index on ${table} serves the filter on ${list}`,
    detail: `No index, primary key or unique constraint of ${table} starts with ${columns.length > 1 ? 'any of ' : ''}${list} (defined at ${at(t.source_file, t.source_location)}), so the predicate scans the table.`,
    location, remediation: `CREATE INDEX ON ${table} (${columns[0]}); (skip if ${table} stays small)`, confidence: 0.6,
  };
}

export function unknownTableFinding(table: string, near: string[], location: string): SqlFinding {
  return {
    rule_id: 'unknown_table', severity: 'high', category: 'schema', title: `No table or view named ${table} in the graph`,
    detail: `No extracted .sql file creates ${table}${near.length ? `; near names: ${near.join(', ')}` : ''}.`,
    location, remediation: near.length ? `Did you mean ${near.join(' or ')}?` : 'Check the name, or extract the migrations that create it.', confidence: 0.7,
  };
}

/** Up to 3 table names within a small edit distance of `name`, closest first. */
export function nearNames(name: string, names: Iterable<string>): string[] {
  const max = Math.max(2, Math.floor(name.length / 3));
  const scored: [string, number][] = [];
  for (const n of names) {
    if (Math.abs(n.length - name.length) > max) continue;
    const d = editDistance(name, n);
    if (d <= max) scored.push([n, d]);
  }
  return scored.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3).map(([n]) => n);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

export function at(file: string, loc: string): string {
  return `${file}:${loc}`;
}

const rank = (s: Severity): number => SEVERITIES.indexOf(s);

/** Most severe first, then by location and rule. */
export function sortFindings(findings: SqlFinding[]): SqlFinding[] {
  return findings.sort((a, b) => rank(a.severity) - rank(b.severity) || (a.location < b.location ? -1 : a.location > b.location ? 1 : 0) || (a.rule_id < b.rule_id ? -1 : 1));
}

/** `n finding(s) (1 critical, 2 high)`. */
export function countLine(findings: SqlFinding[]): string {
  const counts = SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);
  return `${findings.length} finding(s)${counts.length ? ` (${counts.map(([s, n]) => `${n} ${s}`).join(', ')})` : ''}`;
}
