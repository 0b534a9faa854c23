/**
 * The code-graph data model shared by extraction, the query engine, the MCP server and the explorer.
 *
 * `graph.json` is NetworkX node-link JSON (the spec's synaptic-mcp-server.md): these types are
 * its exact shape. `NodeKey` is the stable string id written to disk; `NodeId` is the dense index
 * (0..n-1) the WASM core works on. Only `graph/` converts between the two. Browser-safe: no `node:`.
 */

/** Stable node id as written in graph.json, e.g. `src/query/rank.ts#fn:score`. */
export type NodeKey = string;
/** Dense 0..n-1 index into the core's CSR arrays. */
export type NodeId = number;

export const NODE_KINDS = [
  'file', 'module', 'namespace', 'package', 'class', 'struct', 'interface', 'trait', 'enum',
  'type_alias', 'function', 'method', 'constructor', 'variable', 'constant', 'field', 'event',
  // SQL schema objects (extract/sql/).
  'table', 'view', 'column', 'index', 'policy', 'grant',
  // HTTP routes (extract/http/).
  'route',
] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export type Confidence = 'EXTRACTED' | 'INFERRED' | 'AMBIGUOUS';
export type Visibility = 'public' | 'private' | 'protected' | 'internal' | 'package';

/**
 * Relation names and their fixed bit positions in core relation masks (bit r = relation r).
 * Order is part of the CBOR snapshot format: append only, never reorder.
 * Anything not listed maps to `other` (31) so foreign graphs still load.
 */
export const RELATIONS = [
  'contains', 'method', 'defines', 'imports', 'imports_from', 're_exports', 'calls', 'inherits',
  'extends', 'implements', 'references', 'uses', 'tests', 'dynamic_ref', 'mixes_in', 'embeds',
  'depends_on', 'reads_from', 'invokes', 'binds_native', 'calls_service', 'handled_by', 'overrides',
  'instantiates', 'emits', 'listens', 'writes_to', 'indexes', 'secured_by',
  // A macro invocation -> the macro definition (Rust `name!` -> `macro_rules! name`).
  'expands',
] as const;
export type Relation = (typeof RELATIONS)[number] | (string & {});
export const OTHER_RELATION_ID = 31;

const RELATION_IDS: ReadonlyMap<string, number> = new Map(RELATIONS.map((r, i) => [r, i]));

/** Core relation id (0..31) of a relation name. */
export function relationId(relation: string): number {
  return RELATION_IDS.get(relation) ?? OTHER_RELATION_ID;
}

/** Relation mask (bit r set for each relation r) for a list of relation names. */
export function relationMask(relations: Iterable<string>): number {
  let mask = 0;
  for (const r of relations) mask |= 1 << relationId(r);
  return mask >>> 0;
}

export interface Span {
  start_line: number; // 1-based
  start_col: number; // 0-based, in UTF-16 code units of the line
  end_line: number;
  end_col: number;
}

export interface Param {
  name: string;
  type?: string;
  optional?: boolean;
  default?: string;
}

export interface Signature {
  params: Param[];
  returns?: string;
  /** The raw declaration header, e.g. `export async function f(a: number): Promise<void>`. */
  raw: string;
}

export interface GraphNode {
  id: NodeKey;
  label: string;
  /** `code` for source symbols and files; `document`, `config`, ... for other files. */
  file_type: string;
  source_file: string; // repo-relative, `/` separated
  source_location: string; // `L42`
  kind: NodeKind;
  visibility?: Visibility;
  span?: Span;
  signature?: Signature;
  /** First line of the doc comment. */
  doc?: string;
  language?: string;
  community?: number;
  /** Set on test functions and test files. */
  is_test?: boolean;
  /** Extractor-specific extras; keep small. */
  [extra: string]: unknown;
}

export interface GraphLink {
  source: NodeKey;
  target: NodeKey;
  relation: Relation;
  confidence: Confidence;
  confidence_score: number; // 0..1
  source_file: string;
  source_location: string; // line of the call or reference, `L42`
  [extra: string]: unknown;
}

/** A site the extractor could not resolve statically (dynamic dispatch, eval, unresolved call). */
export interface HazardSite {
  kind: 'unresolved_call' | 'dynamic_call' | 'eval' | 'dynamic_import' | 'reflection' | 'computed_member';
  /** Enclosing symbol (or file node) of the site. */
  scope: NodeKey;
  source_file: string;
  source_location: string;
  /** The callee text as written, truncated. */
  text: string;
}

export interface GraphMeta {
  name?: string;
  root?: string;
  extractor_version?: string;
  created_at?: string;
  languages?: Record<string, number>;
  /** Files that failed to parse: repo-relative path -> message. */
  failed_files?: Record<string, string>;
  /** Files skipped for hygiene (secrets, size, binary): repo-relative path -> reason. */
  skipped_files?: Record<string, string>;
  hazards?: HazardSite[];
  /** Counts of call sites that resolved to nothing, per file. */
  unresolved_calls?: Record<string, number>;
  community_labels?: Record<string, string>;
  [extra: string]: unknown;
}

/** The whole graph.json document. */
export interface GraphDocument {
  directed: true;
  multigraph: true;
  graph: GraphMeta;
  nodes: GraphNode[];
  links: GraphLink[];
  hyperedges: unknown[];
  built_at_commit: string | null;
}
