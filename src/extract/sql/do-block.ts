/**
 * `DO $$ ... $$` blocks (anonymous PL/pgSQL code) in a .sql file: the plain SQL statements of the
 * body (`ALTER TABLE ... ADD CONSTRAINT ... PRIMARY KEY` under an `IF NOT EXISTS`, a `CREATE TABLE`
 * guarded by an exception handler), read with PostgreSQL's PL/pgSQL parser (libpg-query's
 * `parsePlPgSQLSync`, loaded with the SQL parser). Dynamic `EXECUTE '...'` text is not read.
 */
import { parsePlPgSQLSync } from 'libpg-query';
import { parsePg } from './pg-ast.ts';

export interface DoBlockStatement { stmt: Record<string, any>; line: number; endLine: number; header: string }

/**
 * The statements of a DoStmt's body, each with its line in the file (`bodyLine`: the line the body's
 * opening quote is on). A body in another language, or one PL/pgSQL rejects, yields none.
 */
export function doBlockStatements(doStmt: Record<string, any>, bodyLine: number): DoBlockStatement[] {
  const args: any[] = doStmt.args ?? [];
  const language = args.find((a) => a.DefElem?.defname === 'language')?.DefElem?.arg?.String?.sval;
  const body = args.find((a) => a.DefElem?.defname === 'as')?.DefElem?.arg?.String?.sval;
  if (typeof body !== 'string' || (language && String(language).toLowerCase() !== 'plpgsql')) return [];
  let tag = '$synaptic_do$';
  while (body.includes(tag)) tag = tag.replace(/\$$/, '_$');
  let parsed: any;
  // The wrapper stays on the body's first line, so PL/pgSQL's line numbers are the body's.
  try { parsed = parsePlPgSQLSync(`CREATE FUNCTION synaptic_do() RETURNS void LANGUAGE plpgsql AS ${tag}${body}${tag};`); } catch { return []; }
  const out: DoBlockStatement[] = [];
  const walk = (node: unknown, lineno: number): void => {
    if (Array.isArray(node)) { for (const x of node) walk(x, lineno); return; }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, any>)) {
      const at = typeof value?.lineno === 'number' ? value.lineno : lineno;
      if (key === 'PLpgSQL_stmt_execsql') {
        const query = value?.sqlstmt?.PLpgSQL_expr?.query;
        if (typeof query !== 'string') continue;
        let stmts;
        try { stmts = parsePg(query); } catch { continue; }
        const line = bodyLine + at - 1;
        const header = query.trim().split('\n')[0]!.trim();
        for (const s of stmts) out.push({ stmt: s.stmt, line, endLine: line + (query.trim().match(/\n/g)?.length ?? 0), header });
        continue;
      }
      walk(value, at);
    }
  };
  walk(parsed, 1);
  return out;
}
