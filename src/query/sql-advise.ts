/**
 * advise_sql: the SQL rules (sql-rules.ts, shared with audit_sql) on one candidate query, cross-
 * referenced with the graph's schema: does each table exist (else near names), is it behind
 * row-level security, is each filtered / joined column indexed; plus SELECT *, non-sargable
 * predicates, leading-% LIKE and UPDATE / DELETE without WHERE. The statements come parsed
 * (extract/sql/candidate.ts); this module only reads them. Browser-safe.
 */
import {
  countLine, leadingWildcardFinding, nearNames, noWhereFinding, nonSargableFinding, selectStarFinding, sortFindings,
  tableRlsFindings, unindexedFilterFinding, unknownTableFinding, type AuditReport, type SqlFinding, type SqlSchema,
} from './sql-rules.ts';

/** A column as the statement names it (extract/sql/statement-checks.ts ColumnUse). */
export interface AdvisedColumn { table?: string; column: string }

/** One parsed statement of the candidate (extract/sql/candidate.ts CandidateStatement). */
export interface AdvisedStatement {
  line: number;
  command: string;
  reads: string[];
  writes: string[];
  selectStar: boolean;
  filters: AdvisedColumn[];
  issues: Array<
    | { kind: 'non_sargable'; use: AdvisedColumn; expr: string }
    | { kind: 'leading_wildcard'; use: AdvisedColumn; pattern: string }
    | { kind: 'no_where'; command: 'update' | 'delete'; table: string }
  >;
}

/** Table name -> its columns as the graph knows them (`column` nodes labelled `table.column`). */
export type ColumnIndex = Map<string, Set<string>>;

export function adviseSql(statements: AdvisedStatement[], schema: SqlSchema, columns: ColumnIndex): AuditReport {
  const findings: SqlFinding[] = [];
  const seenTables = new Set<string>();
  const noted = new Set<string>();
  const status: string[] = [];
  const push = (f: SqlFinding | null): void => {
    if (!f) return;
    const key = `${f.rule_id}\0${f.location}\0${f.title}`;
    if (!noted.has(key)) { noted.add(key); findings.push(f); }
  };
  const hasSchema = schema.tables.size > 0;
  for (const s of statements) {
    const loc = `query:L${s.line}`;
    const tables = [...new Set([...s.writes, ...s.reads])];
    /** An unqualified column: the one table of the statement that has it, when the graph says. */
    const tableOf = (c: AdvisedColumn): string | undefined => {
      if (c.table) return c.table;
      const owners = tables.filter((t) => columns.get(t)?.has(c.column));
      return owners.length === 1 ? owners[0] : undefined;
    };
    for (const t of tables) {
      if (seenTables.has(t)) continue;
      seenTables.add(t);
      const node = schema.tables.get(t);
      if (!node) {
        if (hasSchema && !t.startsWith('pg_')) push(unknownTableFinding(t, nearNames(t, schema.tables.keys()), loc));
        continue;
      }
      const pols = schema.policies.get(node) ?? [];
      status.push(`${t} (${node.kind === 'view' ? 'view' : schema.rls.has(node) ? `RLS, ${pols.length} policy(ies)` : 'no RLS'})`);
      for (const f of tableRlsFindings(node, schema, 'this query')) push(f);
    }
    if (s.selectStar) push(selectStarFinding('the query', loc));
    for (const i of s.issues) {
      if (i.kind === 'no_where') push(noWhereFinding(i.command, i.table, loc));
      else if (i.kind === 'leading_wildcard') push(leadingWildcardFinding(tableOf(i.use), i.use.column, i.pattern, loc));
      else push(nonSargableFinding(tableOf(i.use), i.use.column, i.expr, schema, loc));
    }
    const byTable = new Map<string, string[]>();
    for (const c of s.filters) {
      const t = tableOf(c);
      if (t) (byTable.get(t) ?? byTable.set(t, []).get(t)!).push(c.column);
    }
    for (const [t, cols] of byTable) push(unindexedFilterFinding(t, cols, schema, loc));
  }
  sortFindings(findings);
  const scope = !hasSchema
    ? 'no SQL tables in the graph, so only the query text was checked'
    : status.length ? `tables: ${status.join(', ')}` : 'no table of the query is in the graph';
  return { version: 1, summary: `${countLine(findings)} for ${statements.length} statement(s); ${scope}.`, findings };
}

/** The graph's columns by table (`column` nodes of .sql files, labelled `table.column`). */
export function columnIndexOf(nodes: readonly { kind: string; label: string }[]): ColumnIndex {
  const out: ColumnIndex = new Map();
  for (const n of nodes) {
    if (n.kind !== 'column') continue;
    const dot = n.label.indexOf('.');
    if (dot <= 0) continue;
    const t = n.label.slice(0, dot);
    (out.get(t) ?? out.set(t, new Set()).get(t)!).add(n.label.slice(dot + 1));
  }
  return out;
}
