import { z } from 'zod';
import { fitToBudget, type BudgetLayout } from '../../query/budget.ts';
import { sanitize, sanitizeRelation } from '../../query/sanitize.ts';
import { namePieces } from '../../query/tokens.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { changedSince } from './recency.ts';

const TERSE_TOP = 15;

const input = z.object({
  question: z.string().min(1).max(2000).describe('A question or a symbol name.'),
  mode: z.enum(['bfs', 'dfs']).optional().describe('Tie-break: bfs (default) shallow first, dfs deep first.'),
  full: z.boolean().optional().describe(`Every budget-bounded node plus EDGE lines, not the top ${TERSE_TOP}.`),
  token_budget: z.number().int().min(50).max(100000).optional().describe('Approximate output tokens.'),
  context_filter: z.array(z.string()).optional().describe('Keep nodes whose file path contains one of these.'),
  since: z.string().optional().describe('Boost files changed since a git ref (main, HEAD~10), a date ("2 weeks ago") or auto (the default branch), uncommitted edits included; ignored if it does not resolve.'),
  recency_mode: z.enum(['boost', 'seed']).optional().describe('With since: boost (default) re-ranks; seed also adds the changed symbols.'),
});

const output = z.looseObject({
  nodes: z.array(z.looseObject({ label: z.string(), qualified: z.string().optional(), file_type: z.string(), source_file: z.string(), score: z.number(), changed: z.boolean().optional() })),
  edges: z.array(z.looseObject({ source: z.string(), relation: z.string(), target: z.string() })),
});

/** query_graph: ranked relevant subgraph for a natural-language question. */
export function createQueryGraphTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'query_graph',
    title: 'Query the code graph',
    description:
      'Start here for any question about the code ("how does login work", or a symbol name): the most relevant symbols as ranked NODE lines; full=true adds EDGE lines.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      await engine.rankIndexReady; // query_graph's index, when a worker thread builds it
      const started = performance.now();
      const mode = args.mode ?? 'bfs';
      const budget = args.token_budget ?? ctx.defaults.tokenBudget;
      const recency = args.since ? changedSince(ctx.sourceRoot, args.since) : undefined;
      const r = engine.rank(args.question, {
        mode,
        tokenBudget: budget,
        contextFilter: args.context_filter,
        recency: recency ? { weights: recency.weights, mode: args.recency_mode ?? 'boost' } : undefined,
      });
      const ix = engine.ix;
      const structuredNodes = r.nodes.map((h) => {
        const node = ix.node(h.node);
        const entry: Record<string, unknown> = {
          label: engine.safeLabel(h.node),
          file_type: sanitize(node.file_type ?? 'code', 30),
          source_file: engine.safeFile(h.node),
          score: h.score,
        };
        if (engine.isDuplicateLabel(h.node)) entry.qualified = engine.safeQualified(h.node);
        if (recency) entry.changed = recency.weights.has(String(node.source_file ?? ''));
        return entry;
      });
      const full = args.full === true;
      const structuredEdges = full
        ? r.edges.map((e) => ({
            source: sanitize(ix.label(ix.g.src[e.edge]!)),
            relation: sanitizeRelation(ix.relName(e.edge)),
            target: sanitize(ix.label(ix.g.dst[e.edge]!)),
          }))
        : [];
      let layout: BudgetLayout;
      if (!r.nodes.length) {
        const lines = emptyAnswer(ctx, engine, args.question, r.tokens, args.context_filter).split('\n');
        layout = { head: [], lines: lines.map((text, i) => ({ text, rank: i === 0 ? 0 : 2 })) };
      } else {
        const start = r.seeds.slice(0, 8).map((v) => sanitize(ix.label(v)));
        const head = [`Traversal: ${mode} | Start: [${start.join(', ')}] | ${r.nodes.length} nodes found`];
        if (recency) head.push(`Recency: since ${sanitize(recency.since)} (base ${recency.base}): ${recency.weights.size} changed file(s), ${args.recency_mode ?? 'boost'} mode`);
        // Under a tight budget the seeds' NODE lines outlast the rest, and the top seed's always shows
        // (the first line's, should the top seed rank below the terse list).
        const seeds = new Set(r.seeds);
        const lines: BudgetLayout['lines'] = [];
        const shown = full ? r.nodes.length : Math.min(TERSE_TOP, r.nodes.length);
        let top = 0;
        for (let i = 0; i < shown; i++) if (r.nodes[i]!.node === r.seeds[0]) top = i;
        for (let i = 0; i < shown; i++) {
          const s = structuredNodes[i]!;
          const q = s.qualified ? ` qualified: ${s.qualified as string}` : '';
          const changed = s.changed === true ? ' (changed)' : '';
          const node = r.nodes[i]!.node;
          lines.push({
            text: `NODE [${(s.score as number).toFixed(3)}]${changed} ${s.label as string} [${s.file_type as string}] ${s.source_file as string}${q}`,
            rank: i === top ? 0 : seeds.has(node) ? 1 : 2,
          });
        }
        if (full) for (const e of structuredEdges) lines.push({ text: `EDGE ${e.source} --${e.relation}--> ${e.target}` });
        else if (r.nodes.length > shown) lines.push({ text: `(terse: top ${shown} of ${r.nodes.length} matched nodes; pass full=true for the whole subgraph with edges)` });
        layout = { head, shortHead: [`Traversal: ${mode} | ${r.nodes.length} nodes found`], lines };
      }
      const cut = await fitToBudget(layout, budget);
      ctx.logQuery?.({
        ts: new Date().toISOString(),
        tool: 'query_graph',
        question: args.question,
        mode,
        full,
        token_budget: budget,
        context_filter: args.context_filter ?? null,
        seeds: r.seeds.slice(0, 8).map((v) => ix.node(v).id),
        nodes: r.nodes.length,
        truncated: cut.truncated,
        ms: Math.round((performance.now() - started) * 100) / 100,
      });
      return toolResult(cut.text, { nodes: structuredNodes, edges: structuredEdges });
    },
  };
}

function emptyAnswer(_ctx: GraphToolContext, engine: import('../../query/engine.ts').QueryEngine, question: string, tokens: string[], filter: string[] | undefined): string {
  if (filter && filter.length) {
    const unfiltered = engine.rank(question, {});
    if (unfiltered.nodes.length) {
      const dirs = new Map<string, number>();
      for (const h of unfiltered.nodes.slice(0, 50)) {
        const f = String(engine.ix.node(h.node).source_file ?? '');
        const d = f.includes('/') ? f.slice(0, f.lastIndexOf('/') + 1) : f;
        dirs.set(d, (dirs.get(d) ?? 0) + 1);
      }
      const list = [...dirs.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([d, c]) => `${sanitize(d)} (${c})`);
      return `No nodes match '${sanitize(question)}' within context_filter [${filter.map((f) => sanitize(f)).join(', ')}]: the filter matched nothing. Without the filter, matches are in: ${list.join(', ')}`;
    }
  }
  if (!tokens.length) return noSubstantiveWord(engine, question);
  const words = tokens.join(', ');
  return `No nodes match '${sanitize(question)}' (search tokens: ${sanitize(words)}). The graph models symbols and files, not string contents: try other names, or search_text for literal text.`;
}

/**
 * The answer to a question with no word to search for ("the a of and", "show all functions"): say so,
 * say how to ask, and offer the graph's most connected symbols as a start.
 */
function noSubstantiveWord(engine: import('../../query/engine.ts').QueryEngine, question: string): string {
  const words = [...new Set(question.split(/[^\p{L}\p{N}_$`]+/u).filter(Boolean))].slice(0, 8).map((w) => `'${sanitize(w, 40)}'`);
  const names = namePieces(question);
  const hubs = engine.godNodes().slice(0, 5);
  const symbol = hubs.length ? engine.safeLabel(hubs[0]!) : 'handleRequest';
  const file = (hubs.length && engine.safeFile(hubs[0]!)) || 'src/app.ts';
  const lines = [
    `No substantive word in '${sanitize(question)}': ${words.join(', ') || 'its words'} only phrase a question` +
      `${names.length ? `, and no symbol is named ${names.slice(0, 4).map((n) => sanitize(n, 40)).join(' or ')}` : ''}.`,
    `Name what you are after: a symbol (${symbol}), a file (${file}) or a concept (a feature or folder name); ` +
      'put a one-letter or common-word name in backticks (`a`, `get`).',
  ];
  if (hubs.length) {
    lines.push(`Most connected symbols here: ${hubs.map((v) => engine.safeQualified(v)).join(', ')} (god_nodes lists more).`);
  }
  return lines.join('\n');
}
