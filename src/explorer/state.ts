/**
 * The explorer's view state, kept in the URL hash so a view can be shared or reloaded (and the
 * browser's back button steps back through views): `#mode=path&node=<key>&to=<key>&depth=2`.
 * Keys are graph node ids (NodeKey), URI-encoded.
 */

export const MODES = ['overview', 'node', 'path', 'impact', 'community'] as const;
export type Mode = (typeof MODES)[number];

export interface ViewState {
  mode: Mode;
  /** Selected node (node, impact) or path start. */
  node?: string;
  /** Path end. */
  to?: string;
  /** Community id (community mode). */
  community?: number;
  /** Neighbourhood hops (node mode, 1-2) or impact depth (1-5). */
  depth?: number;
  /** Path mode: follow edge direction only (default: any direction, like shortest_path). */
  directed?: boolean;
  /** Node mode: shown callers/callees whose own callers/callees are shown too (one hop further). */
  expand?: string[];
}

/** Parse a location hash (with or without the leading `#`); unknown or bad fields are ignored. */
export function parseHash(hash: string): ViewState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const mode = params.get('mode');
  const state: ViewState = { mode: (MODES as readonly string[]).includes(mode ?? '') ? (mode as Mode) : 'overview' };
  const node = params.get('node');
  if (node) state.node = node;
  const to = params.get('to');
  if (to) state.to = to;
  const community = Number(params.get('community'));
  if (params.has('community') && Number.isInteger(community) && community >= 0) state.community = community;
  const depth = Number(params.get('depth'));
  if (params.has('depth') && Number.isInteger(depth) && depth >= 1 && depth <= 5) state.depth = depth;
  if (params.get('directed') === '1') state.directed = true;
  const expand = params.getAll('expand').filter(Boolean);
  if (expand.length) state.expand = [...new Set(expand)];
  if (state.mode !== 'overview' && state.mode !== 'community' && !state.node) state.mode = 'overview';
  if (state.mode === 'community' && state.community === undefined) state.mode = 'overview';
  return state;
}

/** Serialize a view state to a hash (`#...`), fields in a fixed order so equal states give equal hashes. */
export function formatHash(state: ViewState): string {
  const params = new URLSearchParams();
  params.set('mode', state.mode);
  if (state.node !== undefined) params.set('node', state.node);
  if (state.to !== undefined) params.set('to', state.to);
  if (state.community !== undefined) params.set('community', String(state.community));
  if (state.depth !== undefined) params.set('depth', String(state.depth));
  if (state.directed) params.set('directed', '1');
  for (const key of state.expand ?? []) params.append('expand', key);
  return '#' + params.toString();
}
