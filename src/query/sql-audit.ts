/**
 * SQL audit over the SQL-aware graph (extract/sql/, link/sql.ts): row-level-security gaps,
 * over-broad grants, likely injection, foreign keys without an index, tables without a primary
 * key, `SELECT *`. Graph-only (no source read), one pass over nodes and links. Browser-safe.
 */
import type { GraphDocument, GraphNode } from '../graph/model.ts';
import { isTestPath } from '../graph/test-paths.ts';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface SqlFinding {
  rule_id: string;
  severity: Severity;
  category: 'security' | 'performance' | 'schema';
  title: string;
  detail: string;
  /** `file:Lline`. */
  location: string;
  remediation: string;
  confidence: number;
}

export interface AuditReport {
  version: 1;
  summary: string;
  findings: SqlFinding[];
}

const COMMANDS = ['select', 'insert', 'update', 'delete'];
const rank = (s: Severity): number => SEVERITIES.indexOf(s);

/** The graph as the audit reads it: nodes (with their attributes) and edges by node index. */
export interface AuditGraph {
  nodes: readonly GraphNode[];
  /** Edges of the SQL relations (secured_by, reads_from, writes_to); others are ignored. */
  edges: Iterable<{ source: number; target: number; relation: string }>;
}

/** The AuditGraph of a graph document (tests, CLI); the server builds one from its edge columns. */
export function auditGraphOf(doc: GraphDocument): AuditGraph {
  const index = new Map(doc.nodes.map((n, i) => [n.id, i]));
  return { nodes: doc.nodes, edges: doc.links.map((l) => ({ source: index.get(l.source) ?? -1, target: index.get(l.target) ?? -1, relation: String(l.relation) })) };
}

/** Every finding of the graph, most severe first (then by location). */
export function auditSql(graph: AuditGraph): AuditReport {
  const nodes = graph.nodes;
  const tables = nodes.filter((n) => n.kind === 'table');
  const rls = new Set<GraphNode>();
  const policies = new Map<GraphNode, GraphNode[]>();
  const accessed = new Map<GraphNode, GraphNode>(); // table -> a code symbol that reads or writes it
  const findings: SqlFinding[] = [];
  const at = (file: string, loc: string) => `${file}:${loc}`;
  for (const e of graph.edges) {
    const source = nodes[e.source];
    const target = nodes[e.target];
    if (!source || !target) continue;
    if (e.relation === 'secured_by') {
      if (target.kind === 'file') rls.add(source);
      else if (target.kind === 'policy') (policies.get(source) ?? policies.set(source, []).get(source)!).push(target);
    } else if ((e.relation === 'reads_from' || e.relation === 'writes_to') && source.language !== 'sql' && !accessed.has(target)) accessed.set(target, source);
  }
  const indexed = new Map<string, Set<string>>(); // table name -> first columns of its indexes (and primary keys)
  for (const n of nodes) {
    if (n.kind === 'index' && typeof n.columns === 'string') {
      const t = String(n.table);
      (indexed.get(t) ?? indexed.set(t, new Set()).get(t)!).add(n.columns.split(',')[0]!);
    }
    if (typeof n.sql_injection === 'string') {
      const m = /^(L\d+) (\S+): (.*)$/.exec(n.sql_injection);
      const inTest = n.is_test === true || isTestPath(n.source_file);
      findings.push({
        // In test code the text rarely comes from a user: still worth a look, not an emergency.
        rule_id: 'sql_injection', severity: inTest ? 'medium' : 'critical', category: 'security',
        title: `SQL built from a non-constant in ${m?.[2] ?? 'a raw query'} (${n.label}${inTest ? ', test code' : ''})`,
        detail: `The query text splices in ${m?.[3] ?? n.sql_injection} by interpolation or concatenation instead of binding it as a parameter.`,
        location: at(n.source_file, m?.[1] ?? n.source_location),
        remediation: 'Pass the value as a bind parameter ($1 / ? placeholders with a values array, or a tagged sql`` template) instead of building the SQL text.',
        confidence: 0.8,
      });
    }
    if (typeof n.sql_select_star === 'string') {
      findings.push({
        rule_id: 'select_star', severity: 'info', category: 'performance', title: `SELECT * in ${n.label}`,
        detail: 'Selecting every column reads and ships columns the caller may not use, and changes shape when the table does.',
        location: at(n.source_file, n.sql_select_star), remediation: 'List the columns the code uses.', confidence: 0.9,
      });
    }
  }
  for (const t of tables) {
    const name = t.label;
    const pols = policies.get(t) ?? [];
    const loc = at(t.source_file, t.source_location);
    if (rls.has(t) && pols.length === 0) {
      findings.push({
        rule_id: 'rls_no_policy', severity: 'medium', category: 'security', title: `Row-level security on ${name} without any policy`,
        detail: `RLS is enabled on ${name} but no policy exists, so every role except the owner (and BYPASSRLS roles) sees no rows and can write none.`,
        location: loc, remediation: `Add CREATE POLICY ... ON ${name} for the commands the application runs, or disable RLS if the table is owner-only.`, confidence: 0.9,
      });
    } else if (pols.length > 0) {
      const commands = new Set(pols.map((p) => String(p.command ?? 'all')));
      if (!commands.has('all')) {
        const missing = COMMANDS.filter((c) => !commands.has(c));
        if (missing.length) {
          findings.push({
            rule_id: 'rls_partial', severity: 'high', category: 'security', title: `Policies on ${name} cover ${[...commands].sort().join(', ')} but not ${missing.join(', ')}`,
            detail: `${name} has ${pols.length} policy(ies) (${pols.map((p) => `${p.name ?? p.label} FOR ${String(p.command).toUpperCase()}`).join('; ')}); ${missing.map((c) => c.toUpperCase()).join(', ')} ${rls.has(t) ? 'are denied to every non-owner role' : 'run unchecked, and RLS is not enabled in any migration'}.`,
            location: loc, remediation: `Add policies FOR ${missing.map((c) => c.toUpperCase()).join(' / ')} (or one FOR ALL), so every command the application runs is covered on purpose.`, confidence: 0.8,
          });
        }
      }
      if (!rls.has(t)) {
        findings.push({
          rule_id: 'rls_not_enabled', severity: 'high', category: 'security', title: `Policies on ${name} but row-level security is never enabled`,
          detail: `No migration runs ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY, so its policies are not enforced.`,
          location: loc, remediation: `ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY;`, confidence: 0.85,
        });
      }
    } else if (rls.size > 0 && accessed.has(t)) {
      findings.push({
        rule_id: 'rls_missing', severity: 'high', category: 'security', title: `${name} is queried from code without row-level security`,
        detail: `The project enables RLS on ${rls.size} table(s), but not on ${name}, which ${accessed.get(t)!.label} queries.`,
        location: loc, remediation: `Enable RLS on ${name} with policies, or record why it is intentionally shared.`, confidence: 0.6,
      });
    }
    if (t.primary_key === false) {
      findings.push({
        rule_id: 'missing_primary_key', severity: 'low', category: 'schema', title: `${name} has no primary key`,
        detail: `No PRIMARY KEY on ${name} in the migrations: rows cannot be addressed uniquely, and logical replication cannot UPDATE/DELETE them.`,
        location: loc, remediation: `Add a primary key (e.g. id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY).`, confidence: 0.7,
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
    if (indexed.get(name!)?.has(column!)) continue;
    findings.push({
      rule_id: 'missing_fk_index', severity: 'medium', category: 'performance', title: `Foreign key ${name}(${column}) has no index`,
      detail: `${name}.${column} references ${c.references}; without an index on it, joins on the key and every DELETE/UPDATE of a referenced row scan ${name}.`,
      location: at(c.source_file, String(c.fk_line ?? c.source_location)), remediation: `CREATE INDEX ON ${name} (${column});`, confidence: 0.75,
    });
  }
  findings.sort((a, b) => rank(a.severity) - rank(b.severity) || (a.location < b.location ? -1 : a.location > b.location ? 1 : 0) || (a.rule_id < b.rule_id ? -1 : 1));
  const counts = SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);
  const summary = tables.length === 0
    ? 'No SQL tables in the graph (no .sql migrations or schema files were extracted).'
    : `${findings.length} finding(s)${counts.length ? ` (${counts.map(([s, n]) => `${n} ${s}`).join(', ')})` : ''} over ${tables.length} table(s), ${[...policies.values()].reduce((a, p) => a + p.length, 0)} policy(ies), ${rls.size} table(s) with RLS.`;
  return { version: 1, summary, findings };
}
