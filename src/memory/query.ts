/**
 * Turns a free-text recall query into FTS5 match expressions. Every term is quoted (no FTS syntax
 * reaches SQLite from a caller) and the scope rule is applied inside the index through scope tokens.
 */

const STOPWORDS = new Set(
  (
    'a an and are as at be by for from has have how i in is it its of on or our should that the this to ' +
    'use was we were what when where which who why will with do does did can could about into than then ' +
    'there these those they them you your my me not no'
  ).split(' '),
);

/** At most this many terms reach the index. */
export const MAX_TERMS = 12;

/** The distinct search terms of `query`: lower-cased letter/number runs, stopwords dropped unless that leaves none. */
export function queryTerms(query: string): string[] {
  const raw = query.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  const distinct = [...new Set(raw)];
  const content = distinct.filter((t) => !STOPWORDS.has(t));
  return (content.length > 0 ? content : distinct).slice(0, MAX_TERMS);
}

/** The index token of a scope: global memories, or those of project `projectId`. */
export function scopeToken(projectId: number | null): string {
  return projectId === null ? 'zzsynscopeg' : `zzsynscopep${projectId}`;
}

/** The indexed text of a memory: body, source and its scope token. */
export function indexedText(body: string, source: string, projectId: number | null): string {
  return `${body}\n${source}\n${scopeToken(projectId)}`;
}

export function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** FTS5 match expression for `terms` joined by `op`, limited to the scope of `projectId` (null: global only; undefined: any scope). */
export function matchExpression(terms: string[], op: 'AND' | 'OR', projectId: number | null | undefined): string {
  if (projectId === undefined) return terms.map(quote).join(` ${op} `);
  const scopes = projectId === null ? quote(scopeToken(null)) : `${quote(scopeToken(null))} OR ${quote(scopeToken(projectId))}`;
  return `(${terms.map(quote).join(` ${op} `)}) AND (${scopes})`;
}
