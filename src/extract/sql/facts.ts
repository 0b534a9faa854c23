/**
 * SQL facts carried in FileFacts (plain structured-cloneable data, like the rest of the facts).
 * Schema objects a `.sql` file creates are ordinary SymbolFacts (kinds table, view, column, index,
 * policy, grant, function); what needs another file to resolve -- a table named by a later
 * migration, a table a code query touches -- is kept here by table name and resolved when linking.
 */

/** An edge to (or from) a table named in SQL; `from`/`to` are a symbol index (-1: the file) or a table name. */
export interface SqlEdgeFact {
  from: number | string;
  to: number | string;
  relation: 'defines' | 'references' | 'indexes' | 'secured_by';
  line: number;
  /** Columns the edge is about (foreign-key columns, indexed columns). */
  columns?: string[];
}

/** A SQL statement in code (a string or template passed to a database client's query call). */
export interface SqlQueryFact {
  /** Enclosing symbol index, -1 for top-level code. */
  scope: number;
  line: number;
  reads: string[];
  writes: string[];
  /** Columns compared in WHERE / ON clauses. */
  columns: string[];
  selectStar?: boolean;
  /** Why the query looks injectable: the non-constant text spliced into it (`${id}`, `+ name`). */
  injection?: string;
  /** The client call as written, e.g. `pool.query`, `$queryRawUnsafe`. */
  client: string;
}

export interface SqlFacts {
  edges: SqlEdgeFact[];
  queries: SqlQueryFact[];
}
