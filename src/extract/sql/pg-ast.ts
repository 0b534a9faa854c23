/**
 * PostgreSQL statements -> schema and access facts, over the real PostgreSQL parser (libpg-query,
 * a WASM build of libpg_query: see docs/sql.md for why this parser). The parser loads once per
 * thread (~0.5 s); parsing is synchronous after that.
 */
import { loadModule, parseSync } from 'libpg-query';

let loaded: Promise<void> | undefined;
/** Loads the parser's WASM module (once per thread). */
export function loadPgParser(): Promise<void> {
  return (loaded ??= loadModule());
}

/** One parsed statement: its AST (one key: the statement type) and its byte range in the UTF-8 text. */
export interface PgStatement { stmt: Record<string, any>; location: number; length: number }

/** Parses SQL text (the parser must be loaded). Throws the parser's error (message + cursor) on bad SQL. */
export function parsePg(sql: string): PgStatement[] {
  if (!sql.trim()) return []; // an empty file (a placeholder seed.sql) holds no statement; the parser would throw
  const out = parseSync(sql) as { stmts?: { stmt: Record<string, any>; stmt_location?: number; stmt_len?: number }[] };
  return (out.stmts ?? []).map((s) => ({ stmt: s.stmt, location: s.stmt_location ?? 0, length: s.stmt_len ?? 0 }));
}

/** `schema.name` as written, lower-cased, without the schema: tables are matched by bare name. */
export function relName(rv: { relname?: string } | undefined): string {
  return (rv?.relname ?? '').toLowerCase();
}

function strings(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((x: any) => String(x?.String?.sval ?? '')).filter((s) => s.length > 0);
}

/** Tables a DML / SELECT statement reads and writes, and the columns its WHERE clauses compare. */
export interface Access { reads: string[]; writes: string[]; columns: string[]; selectStar: boolean }

/** What one DML / query statement touches (CTE names are not tables). */
export function accessOf(stmt: Record<string, any>): Access {
  const reads = new Set<string>();
  const writes = new Set<string>();
  const columns = new Set<string>();
  const ctes = new Set<string>();
  let selectStar = false;
  const walk = (node: unknown, inWhere: boolean): void => {
    if (Array.isArray(node)) { for (const x of node) walk(x, inWhere); return; }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, any>)) {
      if (key === 'CommonTableExpr' && value?.ctename) ctes.add(String(value.ctename).toLowerCase());
      if (key === 'InsertStmt' || key === 'UpdateStmt' || key === 'DeleteStmt' || key === 'MergeStmt') {
        const t = relName(value?.relation);
        if (t) writes.add(t);
      }
      if (key === 'RangeVar') { const t = relName(value); if (t) reads.add(t); continue; }
      if (key === 'ColumnRef') {
        const f = value?.fields as any[] | undefined;
        if (f?.some((x) => x?.A_Star)) { if (!inWhere) selectStar = true; continue; }
        const names = strings(f);
        if (inWhere && names.length) columns.add(names[names.length - 1]!.toLowerCase());
        continue;
      }
      walk(value, inWhere || key === 'whereClause' || key === 'quals');
    }
  };
  walk(stmt, false);
  for (const c of ctes) { reads.delete(c); writes.delete(c); }
  for (const w of writes) reads.delete(w); // the written table's own RangeVar
  const sorted = (s: Set<string>) => [...s].sort();
  return { reads: sorted(reads), writes: sorted(writes), columns: sorted(columns), selectStar };
}

export { strings as nameList };
