import type { QueryEngine } from '../query/engine.ts';
import { sanitize } from '../query/sanitize.ts';
import { bareName } from '../query/tokens.ts';
import type { CompletionProvider, CompletionResult } from './server.ts';

const MAX_VALUES = 100;

/** Strip leading punctuation so `tool_get` finds `.tool_get_node()` (bare member names match too). */
function core(s: string): string {
  return s.replace(/^[^A-Za-z0-9_$]+/, '').toLowerCase();
}

/**
 * Argument completion keyed by argument name: label/source/target/from/to -> node labels,
 * repo -> federated repo tags, community_id/id -> community ids. Prefix match, capped at 100.
 * Values are names from the graph, so they are sanitized as every tool prints names.
 */
export function createCompletions(engine: () => QueryEngine): CompletionProvider {
  return (_ref, argument) => {
    const e = engine();
    const prefix = argument.value ?? '';
    switch (argument.name) {
      case 'label':
      case 'source':
      case 'target':
      case 'from':
      case 'to':
      case 'name':
      case 'symbol': {
        const p = prefix.toLowerCase();
        const pc = core(prefix);
        return cap(e.ix.sortedLabels.filter((l) => {
          const lower = l.toLowerCase();
          return lower.startsWith(p) || (pc.length > 0 && (core(l).startsWith(pc) || bareName(l).toLowerCase().startsWith(pc)));
        }));
      }
      case 'repo':
        return cap(e.repos().map((r) => r.repo).filter((r) => r.startsWith(prefix)));
      case 'community_id':
      case 'id':
        return cap([...e.ix.communities.keys()].sort((a, b) => a - b).map(String).filter((c) => c.startsWith(prefix)));
      default:
        return { values: [], total: 0, hasMore: false };
    }
  };
}

function cap(values: string[]): CompletionResult {
  return { values: [...new Set(values.slice(0, MAX_VALUES).map((v) => sanitize(v, 400)))], total: values.length, hasMore: values.length > MAX_VALUES };
}
