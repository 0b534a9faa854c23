import type { GraphDocument, HazardSite } from '../../graph/model.ts';
import { MAX_NESTING, MAX_QNAME_CHARS, type FileFacts } from '../facts.ts';
import type { LinkDeps } from '../link/index.ts';

/** What a link phase (positions, relink, full) hands to the ranking and write phases. */
export interface Linked {
  /** The graph, nodes and links in canonical order, communities not yet assigned. */
  doc: GraphDocument;
  /** How it was linked (the summary's linkMode). */
  mode: 'full' | 'incremental' | 'positions';
  /** Files linked in this run. */
  relinked: number;
  failed: Record<string, string>;
  skippedCount: number;
  /** Lines of every extracted file. */
  lines: number;
  /** Which records equal one of the previous graph (graph.json lines and graph.cbor rows to copy); null: none. */
  reuse: RowReuse | null;
  /**
   * The link dependencies to cache with this graph, or null when the previous link cache still
   * describes it (`keptLinkCache`: a positions-only update changes no dependency).
   */
  deps: LinkDeps | null;
  keptLinkCache: string | null;
  /** The inputs hash of what was linked (files the facts cache could not vouch for were parsed again). */
  inputsHash: string;
  /** Write the facts cache: only the shards this run changed. */
  writeFacts(): void;
}

/** Per record: its index in the previous graph when it is the same record (-1: new or changed). */
export interface RowReuse {
  nodes: Int32Array;
  links: Int32Array;
  /** Each previous node's community (a copied node line whose number changed is patched). */
  previousCommunity: (number | undefined)[];
}

/** Row i taken from row i (a typed array filled in a loop: `from` with a map function iterates slowly). */
export function identityRows(n: number): Int32Array {
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return rows;
}

/**
 * A copy without the keys whose value is undefined, built key by key: deleting keys instead would
 * turn the object into a slow dictionary-mode one, and every later pass (encoding, serializing) pays.
 */
export function definedCopy<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const key in obj) {
    const value = (obj as Record<string, unknown>)[key];
    if (value !== undefined && Object.hasOwn(obj, key)) out[key] = value;
  }
  return out as T;
}

export function hazardOrder(a: HazardSite, b: HazardSite): number {
  const la = Number.parseInt(a.source_location.slice(1), 10) || 0;
  const lb = Number.parseInt(b.source_location.slice(1), 10) || 0;
  return a.source_file < b.source_file ? -1 : a.source_file > b.source_file ? 1
    : la - lb || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0)
    || (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0);
}

/**
 * The failure a file with syntax errors, folded definitions (past the nesting bounds) or a stopped
 * tags query is listed under: it is still extracted, partly.
 */
export function partialExtraction(facts: Pick<FileFacts, 'syntaxErrors' | 'folded' | 'queryStopped'> | undefined): string | undefined {
  const parts: string[] = [];
  const syntax = facts?.syntaxErrors;
  if (Array.isArray(syntax) && syntax.length) parts.push(`syntax error at line ${syntax[0]!.line}`);
  const folded = facts?.folded;
  if (folded) {
    parts.push(`${folded.definitions} definition${folded.definitions === 1 ? '' : 's'} from line ${folded.line} nested deeper than ${MAX_NESTING} levels`
      + ` or named over ${MAX_QNAME_CHARS} characters, folded into the enclosing one`);
  }
  if (facts?.queryStopped) parts.push(`nesting too costly to search past line ${facts.queryStopped.line}`);
  return parts.length ? `${parts.join('; ')} (partially extracted)` : undefined;
}

/** Logs why a shortcut was not taken, with SYNAPTIC_DEBUG set; returns null (the caller falls back). */
export function notTaken(what: string, reason: string): null {
  if (process.env.SYNAPTIC_DEBUG) console.error(`synaptic: ${what} not taken (${reason})`);
  return null;
}
