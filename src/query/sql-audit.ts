/**
 * SQL audit over the SQL-aware graph (extract/sql/, link/sql.ts): row-level-security gaps,
 * over-broad grants, likely injection, foreign keys without an index, tables without a primary
 * key, `SELECT *`, and the per-query checks extraction records on the querying symbol (`sql_checks`):
 * filters no index serves, non-sargable predicates, leading-% LIKE, N+1 queries. Graph-only (no source read), one pass over nodes and links. Browser-safe.
 */
import type { GraphDocument } from '../graph/model.ts';
import { isTestPath } from '../graph/test-paths.ts';
import {
  at, countLine, leadingWildcardFinding, nonSargableFinding, nPlusOneFinding, selectStarFinding, sortFindings, sqlSchemaOf, tableRlsFindings, unindexedFilterFinding,
  type AuditGraph, type AuditReport, type SqlFinding, type SqlSchema,
} from './sql-rules.ts';

export { SEVERITIES, type AuditGraph, type AuditReport, type Severity, type SqlFinding } from './sql-rules.ts';

/** A schema migration's file (Sequelize/knex `migrations/`, Rails `db/migrate/`, Alembic `versions/`). */
const MIGRATION_PATH = /(?:^|\/)(?:migrations?|migrate|alembic\/versions)\//i;

/** The AuditGraph of a graph document (tests, CLI); the server builds one from its edge columns. */
export function auditGraphOf(doc: GraphDocument): AuditGraph {
  const index = new Map(doc.nodes.map((n, i) => [n.id, i]));
  return { nodes: doc.nodes, edges: doc.links.map((l) => ({ source: index.get(l.source) ?? -1, target: index.get(l.target) ?? -1, relation: String(l.relation) })) };
}

/** Every finding of the graph, most severe first (then by location). */
export function auditSql(graph: AuditGraph): AuditReport {
  const nodes = graph.nodes;
  const schema = sqlSchemaOf(graph);
  const tables = schema.tableNodes;
  const findings: SqlFinding[] = [];
  for (const n of nodes) {
    if (typeof n.sql_injection === 'string') {
      const m = /^(L\d+) (\S+): (.*)$/.exec(n.sql_injection);
      const inTest = n.is_test === true || isTestPath(n.source_file);
      const inMigration = !inTest && MIGRATION_PATH.test(n.source_file);
      findings.push({
        // In test code and migrations the text rarely comes from a user (a migration splices in values
        // it read from the database itself): still worth a look, not an emergency.
        rule_id: 'sql_injection', severity: inTest || inMigration ? 'medium' : 'critical', category: 'security',
        title: `SQL built from a non-constant in ${m?.[2] ?? 'a raw query'} (${n.label}${inTest ? ', test code' : inMigration ? ', migration' : ''})`,
        detail: `The query text splices in ${m?.[3] ?? n.sql_injection} by interpolation or concatenation instead of binding it as a parameter.`,
        location: at(n.source_file, m?.[1] ?? n.source_location),
        remediation: 'Pass the value as a bind parameter ($1 / ? placeholders with a values array, or a tagged sql`` template) instead of building the SQL text.',
        confidence: 0.8,
      });
    }
    if (typeof n.sql_select_star === 'string') findings.push(selectStarFinding(n.label, at(n.source_file, n.sql_select_star)));
  }
  const unindexedFks = new Set<string>();
  for (const c of nodes) {
    if (c.kind !== 'column' || typeof c.references !== 'string') continue;
    const [name, column] = String(c.label).split('.');
    if (!schema.indexed.get(name!)?.has(column!)) unindexedFks.add(`${name}.${column}`);
  }
  findings.push(...queryCheckFindings(nodes, schema, unindexedFks));
  for (const t of tables) {
    findings.push(...tableRlsFindings(t, schema, schema.accessed.get(t)?.label));
    if (t.primary_key === false && !schema.primaryKeyed.has(t.label)) {
      findings.push({
        rule_id: 'missing_primary_key', severity: 'low', category: 'schema', title: `${t.label} has no primary key`,
        detail: `No PRIMARY KEY on ${t.label} in the migrations: rows cannot be addressed uniquely, and logical replication cannot UPDATE/DELETE them.`,
        location: at(t.source_file, t.source_location), remediation: `Add a primary key (e.g. id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY).`, confidence: 0.7,
      });
    }
  }
  for (const g of nodes) {
    if (g.kind !== 'grant') continue;
    const grantees = String(g.grantees ?? '').split(',');
    const all = g.privileges === 'all';
    const pub = grantees.includes('public');
    if (!all && !pub) continue;
    const what = `${all ? 'ALL PRIVILEGES' : String(g.privileges).toUpperCase()} on ${g.table === '*' ? 'every table in the schema' : String(g.table)} to ${grantees.join(', ')}`;
    findings.push({
      rule_id: pub ? 'grant_public' : 'grant_all', severity: pub ? 'high' : 'medium', category: 'security', title: `GRANT ${what}`,
      detail: pub ? 'PUBLIC is every role, including ones created later: the grant opens the table to all of them.' : 'ALL includes TRUNCATE, REFERENCES and TRIGGER, which application roles rarely need.',
      location: at(g.source_file, g.source_location), remediation: 'Grant the specific privileges (SELECT, INSERT, ...) to the specific roles that need them.', confidence: 0.9,
    });
  }
  for (const c of nodes) {
    if (c.kind !== 'column' || typeof c.references !== 'string') continue;
    const [name, column] = String(c.label).split('.');
    if (schema.indexed.get(name!)?.has(column!)) continue;
    findings.push({
      rule_id: 'missing_fk_index', severity: 'medium', category: 'performance', title: `Foreign key ${name}(${column}) has no index`,
      detail: `${name}.${column} references ${c.references}; without an index on it, joins on the key and every DELETE/UPDATE of a referenced row scan ${name}.`,
      location: at(c.source_file, String(c.fk_line ?? c.source_location)), remediation: `CREATE INDEX ON ${name} (${column});`, confidence: 0.75,
    });
  }
  sortFindings(findings);
  const policies = [...schema.policies.values()].reduce((a, p) => a + p.length, 0);
  const summary = tables.length === 0
    ? 'No SQL tables in the graph (no .sql migrations or schema files were extracted).'
    : `${countLine(findings)} over ${tables.length} table(s), ${policies} policy(ies), ${schema.rls.size} table(s) with RLS.`;
  return { version: 1, summary, findings };
}

const CHECK = /^(L\d+) (filter|non_sargable|leading_wildcard|n_plus_one) (\S+) (\S+)(?: (.*))?$/;

/**
 * The findings of the per-query checks extraction recorded (extract/sql/embedded-common.ts
 * statementChecks). A filter no index serves is reported once per table and column set, at its
 * first call site (the rest counted); one on an unindexed foreign key is missing_fk_index's.
 */
function queryCheckFindings(nodes: AuditGraph['nodes'], schema: SqlSchema, unindexedFks: Set<string>): SqlFinding[] {
  const out: SqlFinding[] = [];
  const filters = new Map<string, { finding: SqlFinding; sites: number }>();
  const seen = new Set<string>();
  for (const n of nodes) {
    if (typeof n.sql_checks !== 'string') continue;
    for (const entry of n.sql_checks.split('\n')) {
      const m = CHECK.exec(entry);
      if (!m) continue;
      const [, line, kind, table, rest, tail = ''] = m;
      const location = at(n.source_file, line!);
      const t = table === '-' ? undefined : table;
      if (kind === 'filter') {
        const cols = rest!.split(',');
        if (cols.some((c) => unindexedFks.has(`${table}.${c}`))) continue;
        const key = `${table} ${[...cols].sort().join(',')}`;
        const prior = filters.get(key);
        if (prior) { prior.sites++; continue; }
        const f = unindexedFilterFinding(table!, cols, schema, location);
        if (f) filters.set(key, { finding: { ...f, title: `${f.title} (${n.label})` }, sites: 1 });
        continue;
      }
      const key = `${kind} ${location} ${table}.${rest} ${tail}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (kind === 'n_plus_one') { out.push(nPlusOneFinding(table!.replace(/,/g, ', '), rest!.replace(/,/g, ', '), n.label, location)); continue; }
      const f = kind === 'non_sargable' ? nonSargableFinding(t, rest!, tail, schema, location) : leadingWildcardFinding(t, rest!, tail, location);
      if (f) out.push({ ...f, title: `${f.title} (${n.label})` });
    }
  }
  for (const { finding, sites } of filters.values()) {
    out.push(sites > 1 ? { ...finding, detail: `${finding.detail} The same filter is at ${sites - 1} other call site(s).` } : finding);
  }
  return out;
}
