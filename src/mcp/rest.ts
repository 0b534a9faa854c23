import type { McpCore } from './server.ts';

/**
 * The read-only REST surface (`/api/*`): each route runs the tool behind it and returns
 * `{ "text": <the tool's formatted text> }` verbatim. Same guards as /mcp (applied by the caller).
 */

let nextId = 1;

async function toolText(core: McpCore, name: string, args: Record<string, unknown>): Promise<Response> {
  const response = await core.handle({ jsonrpc: '2.0', id: `rest-${nextId++}`, method: 'tools/call', params: { name, arguments: args } });
  if (!response || 'error' in response) {
    const message = response && 'error' in response ? response.error.message : 'no response';
    return Response.json({ error: message }, { status: 500 });
  }
  const result = response.result as { content?: { type: string; text?: string }[]; isError?: boolean };
  const text = (result.content ?? []).map((c) => c.text ?? '').join('\n');
  return Response.json(result.isError ? { error: text } : { text }, { status: result.isError ? 400 : 200 });
}

function intParam(url: URL, name: string): number | undefined | Response {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) return Response.json({ error: `${name} must be a positive whole number, got '${raw}'` }, { status: 400 });
  return n;
}

/** Route one `/api/*` request. */
export async function restRoute(core: McpCore, req: Request, url: URL): Promise<Response> {
  if (req.method !== 'GET') return Response.json({ error: `Method ${req.method} not allowed: the REST API is read-only (GET)` }, { status: 405, headers: { allow: 'GET' } });
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '/api/stats') return toolText(core, 'graph_stats', {});
  if (path === '/api/god-nodes') {
    const topN = intParam(url, 'top_n');
    if (topN instanceof Response) return topN;
    return toolText(core, 'god_nodes', { top_n: topN ?? 10 });
  }
  if (path.startsWith('/api/node/')) {
    let label: string;
    try {
      label = decodeURIComponent(path.slice('/api/node/'.length));
    } catch {
      return Response.json({ error: 'The node label in the path is not valid percent-encoding' }, { status: 400 });
    }
    if (!label) return Response.json({ error: 'GET /api/node/:label needs a label' }, { status: 400 });
    return toolText(core, 'get_node', { label });
  }
  if (path === '/api/query') {
    const q = url.searchParams.get('q');
    if (!q) return Response.json({ error: 'GET /api/query needs ?q=<question>' }, { status: 400 });
    const budget = intParam(url, 'token_budget');
    if (budget instanceof Response) return budget;
    return toolText(core, 'query_graph', { question: q, token_budget: budget ?? 1200, mode: 'bfs' });
  }
  if (path === '/api/repos') {
    const repo = url.searchParams.get('repo');
    return repo ? toolText(core, 'repo_stats', { repo }) : toolText(core, 'list_repos', {});
  }
  return Response.json({ error: `Not found: ${path} (routes: /api/stats, /api/god-nodes, /api/node/:label, /api/query, /api/repos)` }, { status: 404 });
}
