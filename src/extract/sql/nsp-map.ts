/**
 * node-sql-parser's AST (MySQL / MariaDB / SQLite statements) -> the shapes of libpg-query's AST
 * that the rest of src/extract/sql reads (CreateStmt, IndexStmt, AlterTableStmt, ViewStmt,
 * SelectStmt / InsertStmt / UpdateStmt / DeleteStmt, RangeVar, ColumnRef, A_Expr, BoolExpr,
 * FuncCall, TypeCast, A_Const, ParamRef, SubLink, JoinExpr). Only what schema.ts, accessOf and
 * checkStatement look at is built; anything else is kept as a generic node whose children are
 * mapped, so the tables and columns under it are still seen. One source statement can map to
 * several: a MySQL `KEY k (c)` inside CREATE TABLE, or a foreign key InnoDB indexes by itself,
 * becomes an IndexStmt next to the CreateStmt.
 */

type Any = Record<string, any>;
export type NspDialect = 'mysql' | 'sqlite';

const str = (s: unknown): Any => ({ String: { sval: String(s) } });
const lower = (s: unknown): string => String(s ?? '').toLowerCase();

/** A name as node-sql-parser writes it: a string, `{ value }`, `{ name }`, `{ expr: { value } }`. */
function nameOf(x: any): string {
  if (x === null || x === undefined) return '';
  if (typeof x === 'string' || typeof x === 'number') return String(x);
  if (Array.isArray(x)) return x.map(nameOf).filter((s) => s).pop() ?? '';
  if (x.expr) return nameOf(x.expr);
  if (x.name !== undefined) return nameOf(x.name);
  if (x.value !== undefined) return nameOf(x.value);
  if (x.column !== undefined) return nameOf(x.column);
  return '';
}

function rangeVar(t: any): Any {
  const name = nameOf(t?.table ?? t?.view);
  return { RangeVar: { relname: name, ...(t?.db ? { schemaname: nameOf(t.db) } : {}), ...(t?.as ? { alias: { aliasname: nameOf(t.as) } } : {}) } };
}

/** A statement's target table: a bare RangeVar body, as libpg-query writes `relation`. */
const relation = (t: any): Any => rangeVar(t).RangeVar;

const COMPARISON = new Set(['=', '==', '<', '>', '<=', '>=', '<>', '!=', '<=>']);

/** Maps a statement; returns [] for statements the graph has no use for (DROP, SET, LOCK, ...). */
export function mapStatement(ast: Any, dialect: NspDialect): Any[] {
  switch (String(ast?.type ?? '').toLowerCase()) {
    case 'select': return [{ SelectStmt: select(ast, dialect) }];
    case 'insert': case 'replace': return [insert(ast, dialect)];
    case 'update': return [update(ast, dialect)];
    case 'delete': return [del(ast, dialect)];
    case 'create': return create(ast, dialect);
    case 'alter': return alter(ast, dialect);
    default: return [];
  }
}

function select(s: Any, d: NspDialect): Any {
  const out: Any = {
    targetList: (Array.isArray(s.columns) ? s.columns : s.columns === '*' ? [{ expr: { type: 'column_ref', column: '*' } }] : [])
      .map((c: Any) => ({ ResTarget: { val: expr(c.expr ?? c, d) } })),
    fromClause: fromList(s.from, d),
  };
  if (s.where) out.whereClause = expr(s.where, d);
  if (s.having) out.havingClause = expr(s.having, d);
  const groups = Array.isArray(s.groupby) ? s.groupby : s.groupby?.columns;
  if (Array.isArray(groups)) out.groupClause = groups.map((g: any) => expr(g, d));
  if (Array.isArray(s.orderby)) out.sortClause = s.orderby.map((o: any) => expr(o.expr, d));
  if (Array.isArray(s.with) && s.with.length) {
    out.withClause = {
      ctes: s.with.map((w: Any) => ({ CommonTableExpr: { ctename: nameOf(w.name), ctequery: statementNode(w.stmt?.ast ?? w.stmt, d) } })),
    };
  }
  if (s._next) return { op: 'SETOP_UNION', larg: { ...out }, rarg: select(s._next, d) };
  return out;
}

/** A nested statement (subquery, CTE body) as the parser's `{ SelectStmt: ... }`. */
function statementNode(s: any, d: NspDialect): Any {
  if (!s || typeof s !== 'object') return {};
  if (s.ast) return statementNode(s.ast, d);
  const mapped = mapStatement(s, d);
  return mapped[0] ?? generic(s, d);
}

/** FROM items: the first, then each JOIN folded left-deep into a JoinExpr with its ON as `quals`. */
function fromList(from: any, d: NspDialect): Any[] {
  if (!Array.isArray(from)) return [];
  let acc: Any | null = null;
  const out: Any[] = [];
  for (const f of from) {
    const item = f.expr?.ast || f.expr?.type === 'select'
      ? { RangeSubselect: { subquery: statementNode(f.expr.ast ?? f.expr, d), ...(f.as ? { alias: { aliasname: nameOf(f.as) } } : {}) } }
      : f.table !== undefined ? rangeVar(f) : generic(f, d);
    if (f.join && acc) {
      acc = { JoinExpr: { larg: acc, rarg: item, ...(f.on ? { quals: expr(f.on, d) } : {}) } };
    } else {
      if (acc) out.push(acc);
      acc = item;
    }
  }
  if (acc) out.push(acc);
  return out;
}

function insert(s: Any, d: NspDialect): Any {
  const values = s.values;
  const body: Any = { relation: relation(s.table?.[0] ?? s.table), cols: (s.columns ?? []).map((c: any) => ({ ResTarget: { name: nameOf(c) } })) };
  if (values?.type === 'select' || values?.ast) body.selectStmt = statementNode(values, d);
  else if (values) body.selectStmt = { SelectStmt: { valuesLists: generic(values, d) } };
  return { InsertStmt: body };
}

function update(s: Any, d: NspDialect): Any {
  const tables = Array.isArray(s.table) ? s.table : [s.table];
  const body: Any = {
    relation: relation(tables[0]),
    targetList: (s.set ?? []).map((x: Any) => ({ ResTarget: { name: nameOf(x.column), val: expr(x.value, d) } })),
    // `UPDATE a JOIN b ON ...`: the join with its ON; `UPDATE a SET ... FROM b` (SQLite): b.
    fromClause: tables.length > 1 ? fromList(tables, d) : fromList(s.from, d),
  };
  if (s.where) body.whereClause = expr(s.where, d);
  return { UpdateStmt: body };
}

function del(s: Any, d: NspDialect): Any {
  const target = (Array.isArray(s.table) && s.table[0]) || (Array.isArray(s.from) ? s.from[0] : undefined);
  const body: Any = { relation: relation(target), usingClause: fromList(Array.isArray(s.from) ? s.from.slice(1) : [], d) };
  if (s.where) body.whereClause = expr(s.where, d);
  return { DeleteStmt: body };
}

function columnDef(def: Any, table: string, d: NspDialect, extra: Any[]): Any {
  const col = lower(nameOf(def.column));
  const constraints: Any[] = [];
  if (def.primary_key) constraints.push({ Constraint: { contype: 'CONSTR_PRIMARY' } });
  if (def.unique || def.unique_or_primary === 'unique') constraints.push({ Constraint: { contype: 'CONSTR_UNIQUE' } });
  if (def.unique_or_primary === 'primary key') constraints.push({ Constraint: { contype: 'CONSTR_PRIMARY' } });
  const ref = def.reference_definition;
  if (ref) {
    const target = nameOf(ref.table?.[0]?.table ?? ref.table?.table ?? ref.table);
    constraints.push({ Constraint: { contype: 'CONSTR_FOREIGN', pktable: { relname: target } } });
    if (d === 'mysql') extra.push(fkIndex(table, [col]));
  }
  return { ColumnDef: { colname: col, typeName: { names: [str(lower(def.definition?.dataType ?? ''))] }, constraints } };
}

/** InnoDB creates an index on a foreign key's columns when none leads with them (MySQL / MariaDB). */
function fkIndex(table: string, columns: string[]): Any {
  return { IndexStmt: { idxname: `${table}_${columns.join('_')}_fk`, relation: { relname: table }, indexParams: columns.map((c) => ({ IndexElem: { name: c } })), implicit: true } };
}

/** A table constraint (`PRIMARY KEY (..)`, `UNIQUE KEY u (..)`, `FOREIGN KEY (..) REFERENCES t`), or null. */
function constraint(def: Any, table: string, d: NspDialect, extra: Any[]): Any | null {
  const kind = lower(def.constraint_type);
  const cols = (def.definition ?? []).map((c: any) => lower(nameOf(c)));
  const keys = cols.map(str);
  if (kind.startsWith('primary')) return { Constraint: { contype: 'CONSTR_PRIMARY', keys } };
  if (kind.startsWith('unique')) {
    if (d === 'mysql' && def.index) extra.push(indexStmt(def.index, table, def.definition ?? [], d, true));
    return { Constraint: { contype: 'CONSTR_UNIQUE', keys, ...(def.constraint || def.index ? { conname: nameOf(def.constraint ?? def.index) } : {}) } };
  }
  if (kind.startsWith('foreign')) {
    const ref = def.reference_definition ?? {};
    const target = nameOf(ref.table?.[0]?.table ?? ref.table?.table ?? ref.table);
    if (d === 'mysql') extra.push(fkIndex(table, cols));
    return { Constraint: { contype: 'CONSTR_FOREIGN', fk_attrs: keys, pktable: { relname: target }, ...(def.constraint ? { conname: nameOf(def.constraint) } : {}) } };
  }
  return null;
}

function indexStmt(name: any, table: string, columns: any[], d: NspDialect, unique: boolean): Any {
  const params = columns.map((c: any) => (c?.type === 'column_ref' || typeof c === 'string' || c?.type === 'default'
    ? { IndexElem: { name: lower(nameOf(c)) } }
    : { IndexElem: { expr: expr(c?.expr ?? c, d) } }));
  return { IndexStmt: { idxname: lower(nameOf(name)) || `${table}_idx`, relation: { relname: table }, indexParams: params, ...(unique ? { unique: true } : {}) } };
}

function create(s: Any, d: NspDialect): Any[] {
  const keyword = lower(s.keyword);
  if (keyword === 'table') {
    const name = nameOf(s.table?.[0]?.table ?? s.table?.table);
    const relation = { relname: name };
    const query = s.query_expr ?? s.as;
    if (query && typeof query === 'object') return [{ CreateTableAsStmt: { into: { rel: relation }, objtype: 'OBJECT_TABLE', query: statementNode(query, d) } }];
    const extra: Any[] = [];
    const tableElts: Any[] = [];
    for (const def of s.create_definitions ?? []) {
      if (def.resource === 'column') tableElts.push(columnDef(def, lower(name), d, extra));
      else if (def.resource === 'constraint') { const c = constraint(def, lower(name), d, extra); if (c) tableElts.push(c); }
      else if (def.resource === 'index') extra.push(indexStmt(def.index, lower(name), def.definition ?? [], d, false));
    }
    return [{ CreateStmt: { relation, tableElts } }, ...extra];
  }
  if (keyword === 'index') {
    const table = lower(nameOf(s.table?.table ?? s.table?.[0]?.table ?? s.table));
    return [indexStmt(s.index, table, s.index_columns ?? [], d, lower(s.index_type) === 'unique')];
  }
  if (keyword === 'view') return [{ ViewStmt: { view: { relname: nameOf(s.view?.view ?? s.view) }, query: statementNode(s.select, d) } }];
  return [];
}

function alter(s: Any, d: NspDialect): Any[] {
  const table = lower(nameOf(s.table?.[0]?.table ?? s.table?.table));
  const cmds: Any[] = [];
  const extra: Any[] = [];
  for (const e of s.expr ?? []) {
    if (lower(e.action) !== 'add') continue;
    if (e.resource === 'column') cmds.push({ AlterTableCmd: { subtype: 'AT_AddColumn', def: columnDef(e, table, d, extra) } });
    else if (e.resource === 'constraint') {
      const c = constraint(e.create_definitions ?? e, table, d, extra);
      if (c) cmds.push({ AlterTableCmd: { subtype: 'AT_AddConstraint', def: c } });
    } else if (e.resource === 'index') extra.push(indexStmt(e.index, table, e.definition ?? [], d, false));
  }
  return [{ AlterTableStmt: { relation: { relname: table }, objtype: 'OBJECT_TABLE', cmds } }, ...extra];
}

/** An expression. */
export function expr(e: any, d: NspDialect): any {
  if (e === null || e === undefined) return undefined;
  if (Array.isArray(e)) return e.map((x) => expr(x, d));
  if (typeof e !== 'object') return { A_Const: { sval: { sval: String(e) } } };
  if (e.ast) return { SubLink: { subLinkType: 'EXPR_SUBLINK', subselect: statementNode(e.ast, d) } };
  switch (e.type) {
    case 'column_ref': {
      const column = nameOf(e.column);
      const fields = [...(e.table ? [str(nameOf(e.table))] : []), column === '*' ? { A_Star: {} } : str(column)];
      return { ColumnRef: { fields } };
    }
    case 'double_quote_string':
      // SQLite (like PostgreSQL) reads "x" as an identifier; MySQL as a string.
      return d === 'sqlite' ? { ColumnRef: { fields: [str(e.value)] } } : { A_Const: { sval: { sval: String(e.value) } } };
    case 'single_quote_string': case 'string': case 'natural_string': case 'hex_string': case 'full_hex_string': case 'bit_string': case 'regex_string':
      return { A_Const: { sval: { sval: String(e.value) } } };
    case 'number': return { A_Const: { ival: { ival: Number(e.value) } } };
    case 'bool': case 'boolean': return { A_Const: { boolval: { boolval: Boolean(e.value) } } };
    case 'null': return { A_Const: { isnull: true } };
    case 'origin': return e.value === '?' ? { ParamRef: {} } : { A_Const: { sval: { sval: String(e.value) } } };
    case 'param': case 'var': return { ParamRef: { ...(typeof e.name === 'number' ? { number: e.name } : {}) } };
    case 'expr_list': return expr(e.value, d);
    case 'select': return { SubLink: { subLinkType: 'EXPR_SUBLINK', subselect: statementNode(e, d) } };
    case 'function': case 'aggr_func': {
      const args = e.args?.type === 'expr_list' ? e.args.value : e.args?.expr ? [e.args.expr] : e.args ? [e.args] : [];
      return { FuncCall: { funcname: [str(lower(nameOf(e.name)))], args: args.map((a: any) => expr(a, d)) } };
    }
    case 'cast': {
      const target = Array.isArray(e.target) ? e.target[0] : e.target;
      return { TypeCast: { arg: expr(e.expr, d), typeName: { names: [str(lower(target?.dataType ?? ''))] } } };
    }
    case 'unary_expr': {
      const op = lower(e.operator);
      if (op === 'not' || op === '!') return { BoolExpr: { boolop: 'NOT_EXPR', args: [expr(e.expr, d)] } };
      if (op === 'exists') return { SubLink: { subLinkType: 'EXISTS_SUBLINK', subselect: statementNode(e.expr?.ast ?? e.expr, d) } };
      return { A_Expr: { kind: 'AEXPR_OP', name: [str(e.operator)], rexpr: expr(e.expr, d) } };
    }
    case 'binary_expr': return binary(e, d);
    default: return generic(e, d);
  }
}

function binary(e: Any, d: NspDialect): Any {
  const op = String(e.operator).toUpperCase();
  const l = expr(e.left, d);
  if (op === 'AND' || op === 'OR' || op === '&&' || op === '||' && d === 'mysql') {
    return { BoolExpr: { boolop: op === 'OR' || op === '||' ? 'OR_EXPR' : 'AND_EXPR', args: [l, expr(e.right, d)] } };
  }
  const aexpr = (kind: string, name: string, rexpr: any): Any => ({ A_Expr: { kind, name: [str(name)], lexpr: l, rexpr } });
  if (op === 'LIKE' || op === 'NOT LIKE' || op === 'ILIKE' || op === 'NOT ILIKE' || op === 'GLOB') {
    return aexpr(op.includes('ILIKE') ? 'AEXPR_ILIKE' : 'AEXPR_LIKE', `${op.startsWith('NOT') ? '!' : ''}~~${op.includes('ILIKE') ? '*' : ''}`, expr(e.right, d));
  }
  if (op === 'IN' || op === 'NOT IN') {
    const r = e.right;
    const sub = r?.ast ?? (r?.type === 'expr_list' && r.value?.length === 1 && (r.value[0]?.ast || r.value[0]?.type === 'select') ? r.value[0].ast ?? r.value[0] : null);
    if (sub) return { SubLink: { subLinkType: 'ANY_SUBLINK', testexpr: l, subselect: statementNode(sub, d) } };
    return aexpr('AEXPR_IN', op === 'IN' ? '=' : '<>', expr(r, d));
  }
  if (op === 'IS' || op === 'IS NOT') {
    if (e.right?.type === 'null' || e.right?.value === null) return { NullTest: { arg: l, nulltesttype: op === 'IS' ? 'IS_NULL' : 'IS_NOT_NULL' } };
    return aexpr('AEXPR_OP', op === 'IS' ? '=' : '<>', expr(e.right, d));
  }
  if (op === 'BETWEEN' || op === 'NOT BETWEEN') return aexpr('AEXPR_BETWEEN', op, expr(e.right, d));
  return aexpr('AEXPR_OP', COMPARISON.has(op) ? (op === '==' || op === '<=>' ? '=' : op) : op.toLowerCase(), expr(e.right, d));
}

/** A node this module does not model: its mapped children, so the tables and columns under it stay visible. */
function generic(e: Any, d: NspDialect): Any {
  const children: any[] = [];
  for (const v of Object.values(e)) {
    if (!v || typeof v !== 'object') continue;
    for (const x of Array.isArray(v) ? v : [v]) {
      if (!x || typeof x !== 'object') continue;
      children.push(x.type || x.ast ? expr(x, d) : typeof x.table === 'string' && 'db' in x ? rangeVar(x) : generic(x, d));
    }
  }
  return { Node: children };
}
