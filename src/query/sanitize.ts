// The sanitizers live in graph/ so extraction's outputs (GRAPH_REPORT.md) and memory use them too;
// query/ callers keep this path.
export { sanitize, sanitizeProse, sanitizeRelation, sanitizeSource, sanitizeSourceText } from '../graph/sanitize.ts';
