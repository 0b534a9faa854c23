/**
 * What one parsed SQL statement does, for the query rules (query/sql-rules.ts): the tables it names
 * (with their aliases), the columns its WHERE / JOIN ON clauses compare directly (those an index can
 * serve), and the predicates no index can: a function, cast or arithmetic on a column
 * (`lower(email) = $1`), a LIKE whose pattern starts with `%`, an UPDATE / DELETE without WHERE.
 * Pure over libpg-query's AST; advise_sql and the embedded-query extraction share it.
 */
import { accessOf, nameList, relName } from './pg-ast.ts';

export type StatementCommand = 'select' | 'insert' | 'update' | 'delete' | 'merge' | 'other';

/** A column as written: its qualifier resolved to a table name when the statement says which. */
export interface ColumnUse {
  /** The table (alias resolved), or undefined for an unqualified column in a multi-table statement. */
  table?: string;
  column: string;
}

export type StatementIssue =
  | { kind: 'non_sargable'; use: ColumnUse; expr: string }
  | { kind: 'leading_wildcard'; use: ColumnUse; pattern: string }
  | { kind: 'no_where'; command: 'update' | 'delete'; table: string };

export interface StatementShape {
  command: StatementCommand;
  reads: string[];
  writes: string[];
  selectStar: boolean;
  /** Columns compared directly in WHERE / ON (an index on them can serve the predicate). */
  filters: ColumnUse[];
  issues: StatementIssue[];
}

const COMMANDS: Record<string, StatementCommand> = {
  SelectStmt: 'select', InsertStmt: 'insert', UpdateStmt: 'update', DeleteStmt: 'delete', MergeStmt: 'merge',
};
const COMPARISONS = new Set(['=', '<', '>', '<=', '>=', '<>', '!=', '~~', '~~*', '!~~', '!~~*']);
const LIKE_KINDS = new Set(['AEXPR_LIKE', 'AEXPR_ILIKE']);

/** The shape of one statement (`stmt` is one entry of the parser's `stmts`: `{ SelectStmt: ... }`). */
export function checkStatement(stmt: Record<string, any>): StatementShape {
  const [type, body] = (Object.entries(stmt)[0] ?? ['', {}]) as [string, Record<string, any>];
  const access = accessOf(stmt);
  const aliases = new Map<string, string>(); // alias or table name -> table name
  collectAliases(stmt, aliases);
  const tables = [...new Set([...access.reads, ...access.writes])];
  const resolve = (ref: any): ColumnUse | null => {
    const names = nameList(ref?.fields).map((s) => s.toLowerCase());
    if (!names.length || ref?.fields?.some((f: any) => f?.A_Star)) return null;
    const column = names[names.length - 1]!;
    if (names.length >= 2) {
      const q = names[names.length - 2]!;
      const table = aliases.get(q) ?? q;
      return { table, column };
    }
    return tables.length === 1 ? { table: tables[0]!, column } : { column };
  };
  const filters: ColumnUse[] = [];
  const issues: StatementIssue[] = [];
  const seen = new Set<string>();
  const filter = (use: ColumnUse | null): void => {
    if (!use) return;
    const key = `${use.table ?? ''}.${use.column}`;
    if (!seen.has(key)) { seen.add(key); filters.push(use); }
  };
  /** An operand of a comparison: a bare column is a filter; a column under a function / cast / arithmetic is not sargable. */
  const operand = (node: any): void => {
    if (!node || typeof node !== 'object') return;
    if (node.ColumnRef) { filter(resolve(node.ColumnRef)); return; }
    if (node.FuncCall || node.TypeCast || (node.A_Expr && !COMPARISONS.has(opName(node.A_Expr)))) {
      const col = firstColumn(node);
      if (col) {
        const use = resolve(col);
        if (use) issues.push({ kind: 'non_sargable', use, expr: deparse(node) });
      }
      return;
    }
    predicate(node);
  };
  const predicate = (node: any): void => {
    if (Array.isArray(node)) { node.forEach(predicate); return; }
    if (!node || typeof node !== 'object') return;
    if (node.BoolExpr) { predicate(node.BoolExpr.args); return; }
    if (node.NullTest) return; // IS [NOT] NULL: rarely selective enough to want an index of its own
    if (node.SubLink) { if (node.SubLink.testexpr) operand(node.SubLink.testexpr); return; } // the subquery is walked as its own scope
    const e = node.A_Expr;
    if (!e) return;
    const op = opName(e);
    if (LIKE_KINDS.has(e.kind) || op === '~~' || op === '~~*') {
      const pattern = leadingText(e.rexpr);
      if (pattern !== undefined && pattern.startsWith('%') && e.lexpr?.ColumnRef) {
        const use = resolve(e.lexpr.ColumnRef);
        if (use) { issues.push({ kind: 'leading_wildcard', use, pattern }); return; }
      }
    }
    if (e.kind === 'AEXPR_OP' && !COMPARISONS.has(op)) return; // arithmetic at the top: not a predicate
    operand(e.lexpr);
    if (e.kind !== 'AEXPR_IN' || !Array.isArray(e.rexpr)) operand(e.rexpr);
  };
  // Every WHERE / JOIN ON in the statement (subqueries and CTEs included), each walked as a predicate.
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, any>)) {
      if (key === 'whereClause' || key === 'quals') predicate(value);
      walk(value);
    }
  };
  walk(stmt);
  if ((type === 'UpdateStmt' || type === 'DeleteStmt') && !body.whereClause) {
    issues.push({ kind: 'no_where', command: type === 'UpdateStmt' ? 'update' : 'delete', table: relName(body.relation) });
  }
  return { command: COMMANDS[type] ?? 'other', reads: access.reads, writes: access.writes, selectStar: access.selectStar, filters, issues };
}

function opName(e: any): string {
  const n = nameList(e?.name);
  return n[n.length - 1] ?? '';
}

function collectAliases(node: unknown, out: Map<string, string>): void {
  if (Array.isArray(node)) { for (const x of node) collectAliases(x, out); return; }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Record<string, any>)) {
    if (key === 'RangeVar' || ((key === 'relation') && value?.relname)) {
      const t = relName(value);
      if (t) {
        out.set(t, t);
        const alias = value?.alias?.aliasname;
        if (alias) out.set(String(alias).toLowerCase(), t);
      }
      if (key === 'RangeVar') continue;
    }
    collectAliases(value, out);
  }
}

/** The first column referenced under an expression (the one a function or cast hides from its index). */
function firstColumn(node: unknown): any {
  if (Array.isArray(node)) { for (const x of node) { const c = firstColumn(x); if (c) return c; } return null; }
  if (!node || typeof node !== 'object') return null;
  for (const [key, value] of Object.entries(node as Record<string, any>)) {
    if (key === 'SubLink') continue;
    if (key === 'ColumnRef') return value?.fields?.some((f: any) => f?.A_Star) ? null : value;
    const c = firstColumn(value);
    if (c) return c;
  }
  return null;
}

/** A LIKE pattern's leading literal text: `'%x'`, or `'%' || $1`; undefined when it does not start with a literal. */
function leadingText(node: any): string | undefined {
  if (node?.A_Const) return node.A_Const.sval?.sval !== undefined ? String(node.A_Const.sval.sval) : undefined;
  if (node?.A_Expr && opName(node.A_Expr) === '||') return leadingText(node.A_Expr.lexpr);
  if (node?.FuncCall && nameList(node.FuncCall.funcname).pop()?.toLowerCase() === 'concat') return leadingText(node.FuncCall.args?.[0]);
  if (node?.TypeCast) return leadingText(node.TypeCast.arg);
  return undefined;
}

/** A short SQL rendering of a predicate operand, for messages (`lower(u.email)`, `o.total + ...`, `created_at::date`). */
export function deparse(node: any, depth = 0): string {
  if (!node || typeof node !== 'object' || depth > 4) return '…';
  if (node.ColumnRef) return nameList(node.ColumnRef.fields).pop() ?? '*'; // bare: the text goes into CREATE INDEX ... ((expr))
  if (node.ParamRef) return `$${node.ParamRef.number ?? '?'}`;
  if (node.A_Const) {
    const c = node.A_Const;
    if (c.sval) return `'${c.sval.sval ?? ''}'`;
    if (c.ival) return String(c.ival.ival ?? 0);
    if (c.fval) return String(c.fval.fval);
    if (c.boolval) return String(c.boolval.boolval ?? false);
    return 'NULL';
  }
  if (node.FuncCall) {
    const name = nameList(node.FuncCall.funcname).filter((n) => n !== 'pg_catalog').join('.');
    return `${name}(${(node.FuncCall.args ?? []).map((a: any) => deparse(a, depth + 1)).join(', ')})`;
  }
  if (node.TypeCast) return `${deparse(node.TypeCast.arg, depth + 1)}::${nameList(node.TypeCast.typeName?.names).filter((n) => n !== 'pg_catalog').join('.')}`;
  if (node.A_Expr) return `${deparse(node.A_Expr.lexpr, depth + 1)} ${opName(node.A_Expr)} ${deparse(node.A_Expr.rexpr, depth + 1)}`;
  return '…';
}
