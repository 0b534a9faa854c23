import { relationMask } from '../graph/model.ts';

/** Incoming call-like edges: "who calls / uses X". */
export const CALL_RELATIONS = [
  'calls', 'references', 'uses', 'instantiates', 'invokes', 'binds_native', 'calls_service', 'handled_by', 'dynamic_ref',
  'expands',
] as const;

/** The structural-impact set `affected` walks backward by default (spec: affected). */
export const IMPACT_RELATIONS = [
  'calls', 'references', 'imports', 'imports_from', 're_exports', 'inherits', 'extends', 'implements', 'uses',
  'mixes_in', 'embeds', 'depends_on', 'reads_from', 'invokes', 'binds_native', 'calls_service', 'handled_by',
  'dynamic_ref', 'expands',
] as const;

/** Ownership edges, excluded from find_references. */
export function isStructural(relation: string): boolean {
  return relation === 'contains' || relation === 'defines' || relation === 'method' || relation.startsWith('has_');
}

/** Cross-language coupling relations (counted by graph_stats): subprocess, FFI, HTTP and SQL (code -> table) boundaries. */
export const CROSS_LANGUAGE_RELATIONS: ReadonlySet<string> = new Set(['invokes', 'binds_native', 'calls_service', 'handled_by', 'reads_from', 'writes_to']);

/** Relations followed by `describe_node`'s "calls" clause. */
export const DESCRIBE_CALL_RELATIONS: ReadonlySet<string> = new Set(['calls', 'invokes', 'calls_service', 'instantiates']);

/** Relations a forward call chain follows (shortest_path directed): a call, a `new`, a cross-language call. */
export const CHAIN_RELATIONS = ['calls', 'instantiates', 'invokes', 'binds_native', 'calls_service', 'handled_by'] as const;

export const CALL_MASK = relationMask(CALL_RELATIONS);
export const CHAIN_MASK = relationMask(CHAIN_RELATIONS);
export const IMPACT_MASK = relationMask(IMPACT_RELATIONS);
