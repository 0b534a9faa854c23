/**
 * SQL links of one file: a migration's `defines`/`references`/`indexes`/`secured_by` edges and a
 * code symbol's `reads_from`/`writes_to` edges (with the columns it filters on), tables resolved
 * by bare name to the table or view a `.sql` file creates (the first such file in path order).
 * Returns the index keys it consulted (`n\0<table>`, which contributedKeys already lists for every
 * symbol name), so incremental relinking stays exact. Browser-safe.
 */
import type { GraphLink, NodeKey } from '../../graph/model.ts';
import type { FileFacts } from '../facts.ts';

const TABLE_KINDS = new Set(['table', 'view']);
const tableIndexes = new WeakMap<readonly FileFacts[], Map<string, NodeKey>>();

function tablesOf(files: readonly FileFacts[]): Map<string, NodeKey> {
  let m = tableIndexes.get(files);
  if (m) return m;
  m = new Map();
  for (const f of files) {
    if (f.language !== 'sql') continue;
    for (const s of f.symbols) if (TABLE_KINDS.has(s.kind) && !m.has(s.name)) m.set(s.name, s.id);
  }
  tableIndexes.set(files, m);
  return m;
}

/** Appends file `fi`'s SQL links to `links` (deduplicated through `seen`, as linkFile keys them). */
export function linkSql(files: readonly FileFacts[], fi: number, links: GraphLink[], seen: Set<string>): string[] {
  const f = files[fi]!;
  const sql = f.sql;
  if (!sql) return [];
  const tables = tablesOf(files);
  const keys = new Set<string>();
  const idOf = (ref: number | string): NodeKey | undefined => {
    if (typeof ref === 'number') return ref < 0 ? f.fileId : f.symbols[ref]!.id;
    keys.add(`n\0${ref}`);
    return tables.get(ref);
  };
  const push = (source: NodeKey, target: NodeKey, relation: string, line: number, extra?: Record<string, string>): void => {
    if (source === target) return;
    const key = `${source}\0${target}\0${relation}`;
    if (seen.has(key)) return;
    seen.add(key);
    links.push({ source, target, relation, confidence: 'EXTRACTED', confidence_score: 1, source_file: f.path, source_location: `L${line}`, ...extra });
  };
  for (const e of sql.edges) {
    const from = idOf(e.from);
    const to = idOf(e.to);
    if (from && to) push(from, to, e.relation, e.line, e.columns?.length ? { columns: e.columns.join(',') } : undefined);
  }
  // Queries: one edge per (symbol, table, relation), at the first query; columns and findings merged.
  const merged = new Map<string, { source: NodeKey; target: NodeKey; relation: string; line: number; columns: Set<string>; injection?: string; selectStar?: boolean }>();
  for (const q of sql.queries) {
    const source = q.scope >= 0 ? f.symbols[q.scope]!.id : f.fileId;
    for (const [relation, names] of [['writes_to', q.writes], ['reads_from', q.reads]] as const) {
      for (const name of names) {
        const target = idOf(name);
        if (!target) continue;
        const key = `${source}\0${target}\0${relation}`;
        let m = merged.get(key);
        if (!m) merged.set(key, (m = { source, target, relation, line: q.line, columns: new Set() }));
        q.columns.forEach((c) => m!.columns.add(c));
        if (q.injection && !m.injection) m.injection = `L${q.line} ${q.client}: ${q.injection}`;
        if (q.selectStar) m.selectStar = true;
      }
    }
  }
  for (const m of merged.values()) {
    push(m.source, m.target, m.relation, m.line, {
      ...(m.columns.size ? { columns: [...m.columns].sort().join(',') } : {}),
      ...(m.injection ? { injection: m.injection } : {}),
      ...(m.selectStar ? { select_star: 'true' } : {}),
    });
  }
  return [...keys];
}
