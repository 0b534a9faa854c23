import type { McpCore } from '../server.ts';
import { jsonReply as json, type HttpReply } from './reply.ts';

/**
 * The read-only REST surface (`/api/*`): each route runs the tool behind it and returns
 * `{ "text": <the tool's formatted text> }` verbatim. Same guards as /mcp (applied by the caller).
 */

let nextId = 1;

async function toolText(core: McpCore, name: string, args: Record<string, unknown>): Promise<HttpReply> {
  const response = await core.handle({ jsonrpc: '2.0', id: `rest-${nextId++}`, method: 'tools/call', params: { name, arguments: args } });
  if (!response || 'error' in response) {
    const message = response && 'error' in response ? response.error.message : 'no response';
    return json(500, { error: message });
  }
  const result = response.result as { content?: { type: string; text?: string }[]; isError?: boolean };
  const text = (result.content ?? []).map((c) => c.text ?? '').join('\n');
  return json(result.isError ? 400 : 200, result.isError ? { error: text } : { text });
}

function intParam(url: URL, name: string): number | undefined | HttpReply {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) return json(400, { error: `${name} must be a positive whole number, got '${raw}'` });
  return n;
}

/** Route one `/api/*` request. */
export async function restRoute(core: McpCore, method: string, url: URL): Promise<HttpReply> {
  if (method !== 'GET') return json(405, { error: `Method ${method} not allowed: the REST API is read-only (GET)` }, { allow: 'GET' });
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '/api/stats') return toolText(core, 'graph_stats', {});
  if (path === '/api/god-nodes') {
    const topN = intParam(url, 'top_n');
    if (typeof topN === 'object') return topN;
    return toolText(core, 'god_nodes', { top_n: topN ?? 10 });
  }
  if (path.startsWith('/api/node/')) {
    let label: string;
    try {
      label = decodeURIComponent(path.slice('/api/node/'.length));
    } catch {
      return json(400, { error: 'The node label in the path is not valid percent-encoding' });
    }
    if (!label) return json(400, { error: 'GET /api/node/:label needs a label' });
    return toolText(core, 'get_node', { label });
  }
  if (path === '/api/query') {
    const q = url.searchParams.get('q');
    if (!q) return json(400, { error: 'GET /api/query needs ?q=<question>' });
    const budget = intParam(url, 'token_budget');
    if (typeof budget === 'object') return budget;
    return toolText(core, 'query_graph', { question: q, token_budget: budget ?? 1200, mode: 'bfs' });
  }
  if (path === '/api/repos') {
    const repo = url.searchParams.get('repo');
    return repo ? toolText(core, 'repo_stats', { repo }) : toolText(core, 'list_repos', {});
  }
  return json(404, { error: `Not found: ${path} (routes: /api/stats, /api/god-nodes, /api/node/:label, /api/query, /api/repos)` });
}
