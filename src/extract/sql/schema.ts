/**
 * A `.sql` file (migration, schema dump) -> FileFacts: the tables, views, columns, indexes, RLS
 * policies, grants and functions it creates as symbols, and its foreign keys, indexes, policies and
 * RLS switches as table-name edges (resolved across files when linking). PostgreSQL through its own
 * parser; MySQL / MariaDB / SQLite through node-sql-parser mapped to the same AST shapes (dialect.ts),
 * so one walk below serves all (policies, RLS and grants are PostgreSQL's only). A statement the
 * parser rejects makes the whole file fail with the parser's message and line.
 */
import type { NodeKind, Span } from '../../graph/model.ts';
import { isTestPath } from '../../graph/test-paths.ts';
import { FACTS_VERSION, type FileFacts, type SymbolFact } from '../facts.ts';
import type { SqlEdgeFact } from './facts.ts';
import { doBlockStatements } from './do-block.ts';
import { accessOf, loadPgParser, nameList, parsePg, relName, type PgStatement } from './pg-ast.ts';
import { chooseDialect, DialectParseError, dialectLabel, parseDialect, type SqlDialect } from './dialect.ts';

/** Byte offset (UTF-8, as the parser reports) -> 1-based line. */
function lineIndex(bytes: Uint8Array): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= offset) lo = mid; else hi = mid - 1;
    }
    return lo + 1;
  };
}

const LEADING = /^(?:\s+|--[^\n]*|\/\*[\s\S]*?\*\/)*/;
const POLICY_COMMANDS = new Set(['all', 'select', 'insert', 'update', 'delete']);

/** A template placeholder of a migration tool (Go templates in goose/pop migrations, dbt's `{{ ref('x') }}`), on one line. */
const TEMPLATE = /\{\{[^{}\n]*\}\}/g;

/** Each placeholder read as an identifier of the same byte length (`{{ index .Options "Namespace" }}.users` -> `   ...t.users`), so offsets and lines stay. */
export function untemplate(source: string): string {
  return source.includes('{{') ? source.replace(TEMPLATE, (m) => ' '.repeat(Buffer.byteLength(m) - 1) + 't') : source;
}

/** `sqlDialect`: the project's (or the user's) dialect; undefined: the file's syntax decides; `off`: no schema read. */
export async function extractSqlFileFacts(input: { path: string; source: string; sqlDialect?: SqlDialect | 'off' }): Promise<FileFacts> {
  const path = input.path;
  const source = untemplate(input.sqlDialect === 'off' ? '' : input.source);
  const given = input.sqlDialect === 'off' ? undefined : input.sqlDialect;
  const dialect = chooseDialect(given, source);
  const bytes = Buffer.from(source, 'utf8');
  const lineOf = lineIndex(bytes);
  let stmts: PgStatement[];
  try {
    if (dialect === 'postgres') {
      if (source.trim()) await loadPgParser();
      stmts = parsePg(source);
    } else {
      try {
        stmts = await parseDialect(source, dialect, true);
      } catch (err) {
        // A dialect guessed from the text's clues: PostgreSQL's parser may read it after all.
        if (given || !(err instanceof DialectParseError)) throw err;
        await loadPgParser();
        try { stmts = parsePg(source); } catch { throw err; }
      }
    }
  } catch (err) {
    if (err instanceof DialectParseError) throw new Error(`Cannot parse "${path}" as ${dialectLabel(dialect)} (line ${err.line}): ${err.message}`);
    const e = err as Error & { sqlDetails?: { cursorPosition?: number } };
    const at = e.sqlDetails?.cursorPosition;
    throw new Error(`Cannot parse "${path}" as PostgreSQL${at !== undefined ? ` (line ${lineOf(Buffer.byteLength(source.slice(0, at)))})` : ''}: ${e.message}`);
  }
  const symbols: SymbolFact[] = [];
  const edges: SqlEdgeFact[] = [];
  const ids = new Map<string, number>();
  const tables = new Map<string, number>(); // table/view name -> symbol index in this file
  const isTest = isTestPath(path);
  const add = (kind: NodeKind, qname: string, name: string, parent: number, span: Span, raw: string, extra?: Record<string, string | boolean>): number => {
    let id = `${path}#${qname}`;
    const n = (ids.get(id) ?? 0) + 1;
    ids.set(id, n);
    if (n > 1) id += `~${n}`;
    symbols.push({
      id, name, qname, kind, parent, span, exported: true, signature: { params: [], raw: raw.length > 200 ? raw.slice(0, 200) + '…' : raw },
      ...(isTest ? { isTest } : {}), ...(extra ? { extra } : {}),
    });
    return symbols.length - 1;
  };
  const table = (name: string): number | string => tables.get(name) ?? name;
  /** A foreign key, as an edge and on its first column's symbol (when that column is in this file). */
  const foreignKey = (from: number | string, t: string, target: string, columns: string[], line: number): void => {
    edges.push({ from, to: table(target), relation: 'references', line, columns });
    const col = ids.has(`${path}#${t}.${columns[0]}`) ? symbols.findIndex((s) => s.qname === `${t}.${columns[0]}`) : -1;
    if (col >= 0) symbols[col]!.extra = { references: target, fk_line: `L${line}` };
  };

  /** One statement (top level, or inside a DO block's body) -> symbols and edges. */
  const statement = (stmt: Record<string, any>, span: Span, line: number, header: string): void => {
    const [type, s] = Object.entries(stmt)[0] as [string, Record<string, any>];
    switch (type) {
      case 'CreateStmt': {
        const name = relName(s.relation);
        if (!name) break;
        const ti = add('table', name, name, -1, span, header);
        if (!tables.has(name)) tables.set(name, ti);
        edges.push({ from: -1, to: ti, relation: 'defines', line });
        let pk = false;
        const keys = new Set<string>(); // first columns of the primary key and unique constraints (each has an index)
        for (const el of s.tableElts ?? []) {
          if (el.ColumnDef) {
            const col = String(el.ColumnDef.colname).toLowerCase();
            add('column', `${name}.${col}`, col, ti, span, `${col} ${nameList(el.ColumnDef.typeName?.names).filter((t) => t !== 'pg_catalog').join('.')}`);
            for (const c of el.ColumnDef.constraints ?? []) {
              const con = c.Constraint;
              if (con?.contype === 'CONSTR_PRIMARY') pk = true;
              if (con?.contype === 'CONSTR_PRIMARY' || con?.contype === 'CONSTR_UNIQUE') keys.add(col);
              if (con?.contype === 'CONSTR_FOREIGN') foreignKey(ti, name, relName(con.pktable), [col], line);
            }
          } else if (el.Constraint) {
            const con = el.Constraint;
            if (con.contype === 'CONSTR_PRIMARY') pk = true;
            const first = nameList(con.keys)[0];
            if ((con.contype === 'CONSTR_PRIMARY' || con.contype === 'CONSTR_UNIQUE') && first) keys.add(first.toLowerCase());
            if (con.contype === 'CONSTR_FOREIGN') foreignKey(ti, name, relName(con.pktable), nameList(con.fk_attrs).map((c) => c.toLowerCase()), line);
          }
        }
        symbols[ti]!.extra = { primary_key: pk, ...(keys.size ? { key_columns: [...keys].join(',') } : {}) };
        break;
      }
      case 'ViewStmt': {
        const name = relName(s.view);
        if (!name) break;
        const vi = add('view', name, name, -1, span, header);
        if (!tables.has(name)) tables.set(name, vi);
        edges.push({ from: -1, to: vi, relation: 'defines', line });
        for (const t of accessOf(s.query ?? {}).reads) edges.push({ from: vi, to: table(t), relation: 'references', line });
        break;
      }
      case 'CreateTableAsStmt': {
        // CREATE MATERIALIZED VIEW ... AS / CREATE TABLE ... AS: a view (or table) of the query's tables.
        const name = relName(s.into?.rel);
        if (!name) break;
        const ci = add(s.objtype === 'OBJECT_MATVIEW' ? 'view' : 'table', name, name, -1, span, header);
        if (!tables.has(name)) tables.set(name, ci);
        edges.push({ from: -1, to: ci, relation: 'defines', line });
        for (const t of accessOf(s.query ?? {}).reads) edges.push({ from: ci, to: table(t), relation: 'references', line });
        break;
      }
      case 'IndexStmt': {
        const t = relName(s.relation);
        const name = String(s.idxname ?? `${t}_idx`).toLowerCase();
        const columns = (s.indexParams ?? []).map((p: any) => String(p.IndexElem?.name ?? '').toLowerCase()).filter((c: string) => c);
        // Columns under an expression (`lower(email)`): the index serves predicates on that expression.
        const exprColumns = [...new Set((s.indexParams ?? []).flatMap((p: any) => (p.IndexElem?.expr ? columnsIn(p.IndexElem.expr) : [])))];
        const ii = add('index', name, name, -1, span, header, {
          table: t, columns: columns.join(','), ...(exprColumns.length ? { expr_columns: exprColumns.join(',') } : {}), ...(s.unique ? { unique: true } : {}),
          ...(s.implicit ? { implicit: true } : {}), // InnoDB's own index on a foreign key (MySQL)
        });
        edges.push({ from: ii, to: table(t), relation: 'indexes', line, columns });
        break;
      }
      case 'AlterTableStmt': {
        const t = relName(s.relation);
        if (!t || (s.objtype && s.objtype !== 'OBJECT_TABLE')) break;
        for (const c of s.cmds ?? []) {
          const cmd = c.AlterTableCmd;
          if (cmd?.subtype === 'AT_EnableRowSecurity' || cmd?.subtype === 'AT_ForceRowSecurity') edges.push({ from: table(t), to: -1, relation: 'secured_by', line });
          const con = cmd?.subtype === 'AT_AddConstraint' ? cmd.def?.Constraint : undefined;
          if (con?.contype === 'CONSTR_FOREIGN') foreignKey(table(t), t, relName(con.pktable), nameList(con.fk_attrs).map((x) => x.toLowerCase()), line);
          if ((con?.contype === 'CONSTR_PRIMARY' || con?.contype === 'CONSTR_UNIQUE') && typeof table(t) === 'number') {
            const sym = symbols[table(t) as number]!;
            const first = nameList(con.keys)[0]?.toLowerCase();
            const keys = [...new Set([...String(sym.extra?.key_columns ?? '').split(',').filter((k) => k), ...(first ? [first] : [])])];
            sym.extra = { ...sym.extra, ...(con.contype === 'CONSTR_PRIMARY' ? { primary_key: true } : {}), ...(keys.length ? { key_columns: keys.join(',') } : {}) };
          }
          else if (con?.contype === 'CONSTR_PRIMARY' || con?.contype === 'CONSTR_UNIQUE') {
            // A later migration's key on a table another file creates: the index PostgreSQL builds for it.
            const keys = nameList(con.keys).map((k) => k.toLowerCase());
            const name = String(con.conname ?? `${t}_${con.contype === 'CONSTR_PRIMARY' ? 'pkey' : 'key'}`).toLowerCase();
            const ii = add('index', name, name, -1, span, header, { table: t, columns: keys.join(','), ...(con.contype === 'CONSTR_PRIMARY' ? { primary_key: true } : { unique: true }) });
            edges.push({ from: ii, to: t, relation: 'indexes', line, columns: keys });
          }
          if (cmd?.subtype === 'AT_AddColumn' && cmd.def?.ColumnDef && typeof table(t) === 'number') {
            const col = String(cmd.def.ColumnDef.colname).toLowerCase();
            add('column', `${t}.${col}`, col, table(t) as number, span, header);
          }
        }
        break;
      }
      case 'CreatePolicyStmt': {
        const t = relName(s.table);
        const command = String(s.cmd_name ?? 'all').toLowerCase();
        const name = String(s.policy_name ?? 'policy');
        const pi = add('policy', `${t}.${name}`, name, -1, span, header, {
          table: t, command: POLICY_COMMANDS.has(command) ? command : 'all', permissive: s.permissive !== false,
          roles: (s.roles ?? []).map((r: any) => r.RoleSpec?.rolename ?? (r.RoleSpec?.roletype === 'ROLESPEC_PUBLIC' ? 'public' : '?')).join(','),
        });
        edges.push({ from: table(t), to: pi, relation: 'secured_by', line });
        break;
      }
      case 'GrantStmt': {
        if (!s.is_grant || s.objtype !== 'OBJECT_TABLE') break;
        const privileges = s.privileges ? s.privileges.map((p: any) => String(p.AccessPriv?.priv_name ?? '').toLowerCase()).join(',') : 'all';
        const grantees = (s.grantees ?? []).map((g: any) => (g.RoleSpec?.roletype === 'ROLESPEC_PUBLIC' ? 'public' : String(g.RoleSpec?.rolename ?? '?'))).join(',');
        const objects: string[] = s.targtype === 'ACL_TARGET_ALL_IN_SCHEMA' ? ['*'] : (s.objects ?? []).map((o: any) => relName(o.RangeVar)).filter((x: string) => x);
        for (const t of objects) {
          const gi = add('grant', `grant.${t}.${grantees}`, `${privileges} on ${t} to ${grantees}`, -1, span, header, { table: t, privileges, grantees });
          if (t !== '*') edges.push({ from: gi, to: table(t), relation: 'references', line });
        }
        break;
      }
      case 'CreateFunctionStmt': {
        const fname = nameList(s.funcname);
        const name = (fname[fname.length - 1] ?? 'function').toLowerCase();
        add('function', name, name, -1, span, header);
        break;
      }
      case 'DoStmt': {
        // PL/pgSQL's own parser reads the body; its plain SQL statements count like top-level ones.
        for (const inner of doBlockStatements(s, lineOf(s.args?.find((a: any) => a.DefElem?.defname === 'as')?.DefElem?.location ?? 0))) {
          statement(inner.stmt, { start_line: inner.line, start_col: 0, end_line: inner.endLine, end_col: 0 }, inner.line, inner.header);
        }
        break;
      }
    }
  };

  for (const { stmt, location, length } of stmts) {
    const text = bytes.subarray(location, location + length).toString('utf8');
    const lead = LEADING.exec(text)![0];
    const startByte = location + Buffer.byteLength(lead);
    const line = lineOf(startByte);
    const span: Span = { start_line: line, start_col: 0, end_line: lineOf(Math.max(startByte, location + length - 1)), end_col: 0 };
    const header = text.slice(lead.length).split('\n')[0]!.trim();
    statement(stmt, span, line, header);
  }
  return {
    path, language: 'sql', factsVersion: FACTS_VERSION, lines: lineOf(bytes.length), fileId: path, isTest,
    symbols, imports: [], exports: [], calls: [], bindings: [], typeRefs: [], hazards: [],
    sql: { edges, queries: [] },
  };
}

/** The column names an expression references (lower-cased, in order). */
function columnsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) { for (const x of node) columnsIn(x, out); return out; }
  if (!node || typeof node !== 'object') return out;
  for (const [key, value] of Object.entries(node as Record<string, any>)) {
    if (key === 'ColumnRef') { const n = nameList(value?.fields); if (n.length) out.push(n[n.length - 1]!.toLowerCase()); continue; }
    columnsIn(value, out);
  }
  return out;
}
