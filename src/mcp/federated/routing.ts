import type { QueryEngine } from '../../query/engine.ts';
import type { Candidate, Resolution } from '../../query/resolve.ts';
import { unresolvedText } from '../tools/format.ts';

/** The most candidates an ambiguous name lists (as resolveName). */
const MAX_CANDIDATES = 20;

/**
 * The member a federated reference names without loading anything: `<tag>/<id or path>`, or
 * `name@<tag>/<file substring>`. The longest matching tag wins (tags may share a prefix).
 */
export function tagOfReference(label: string, tags: readonly string[]): string | undefined {
  const at = label.lastIndexOf('@');
  const heads = [label.trim(), ...(at > 0 ? [label.slice(at + 1).trim()] : [])];
  let best: string | undefined;
  for (const head of heads) {
    for (const tag of tags) if (head.startsWith(`${tag}/`) && (!best || tag.length > best.length)) best = tag;
    if (best) return best;
  }
  return undefined;
}

/** One member's answer to resolve(name). */
export interface MemberResolution {
  tag: string;
  engine: QueryEngine;
  res: Resolution;
}

/**
 * Combine the members' resolutions of a bare name: the one member that knows it (route there), or
 * the text of an ambiguity over all members' matches (highest degree first, then id, as one graph
 * orders them), or of no match anywhere.
 */
export function combineResolutions(all: MemberResolution[], query: string): { tag: string } | { text: string } {
  if (!all.length) return { text: unresolvedText({ status: 'not_found', query: query.trim() }) };
  const hits = all.filter((r) => r.res.status !== 'not_found');
  if (hits.length === 1) return { tag: hits[0]!.tag };
  const byId = hits.filter((r) => r.res.status === 'found' && r.res.via === 'id');
  if (byId.length === 1) return { tag: byId[0]!.tag };
  // Known nowhere: the tool's own answer on the first member that suggests similar names (else the first).
  if (!hits.length) return { tag: (all.find((r) => r.res.status === 'not_found' && r.res.similar?.length) ?? all[0]!).tag };
  const candidates: Candidate[] = [];
  let total = 0;
  for (const { engine, res } of hits) {
    if (res.status === 'found') {
      candidates.push(engine.candidate(res.node));
      total++;
    } else if (res.status === 'ambiguous') {
      candidates.push(...res.candidates);
      total += res.total;
    }
  }
  candidates.sort((a, b) => b.degree - a.degree || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { text: unresolvedText({ status: 'ambiguous', query: query.trim(), candidates: candidates.slice(0, MAX_CANDIDATES), total }) };
}
