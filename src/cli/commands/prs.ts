import { parseArgs } from 'node:util';
import { GhProblem } from '../../mcp/pr/gh.node.ts';
import { listPrs, triagePrs } from '../../mcp/pr/pr-service.node.ts';
import { prLine, prRow } from '../../mcp/pr/prs.ts';
import { sanitize } from '../../query/sanitize.ts';
import { UsageError, type Command } from '../command.ts';
import { GRAPH_OPTIONS, GRAPH_USAGE, openCliGraph } from '../graph-tools.ts';

export const prsCommand: Command = {
  name: 'prs',
  summary: 'open pull requests with CI/review state (gh); --triage ranks them with their blast radius',
  usage: `Usage: synaptic prs [--triage] [--base <branch>] [--repo <owner/name>]

The open pull requests against the base branch with their review and CI state, through the gh CLI
(the MCP tools list_prs and triage_prs). With --triage, ranked by status (ready to merge first,
drafts last) and then by blast radius: the graph nodes, communities and dependents of each PR's
changed files (fetched concurrently). No model is asked: the ranking is the graph's and gh's data.

  --triage              rank with each PR's blast radius
  --base <branch>       base branch (default: the repository's default branch)
  --repo <owner/name>   another repository (default: the one in the current directory)
${GRAPH_USAGE}

Exit status 1 when gh is missing, not authenticated or fails.
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...GRAPH_OPTIONS, triage: { type: 'boolean' }, base: { type: 'string' }, repo: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}' (see 'synaptic prs --help')`);
    const q = { ...(values.base !== undefined ? { base: values.base } : {}), ...(values.repo !== undefined ? { repo: values.repo } : {}) };
    const out = (s: string) => process.stdout.write(s + '\n');
    try {
      if (!values.triage) {
        const { base, prs } = await listPrs(q);
        if (values.json) out(JSON.stringify({ base, prs: prs.map(prRow) }, null, 2));
        else if (!prs.length) out(`No open pull requests against ${sanitize(base)}.`);
        else for (const line of [`${prs.length} open pull request${prs.length === 1 ? '' : 's'} against ${sanitize(base)}:`, ...prs.map((p) => `  ${prLine(prRow(p))}`)]) out(line);
        return 0;
      }
      const graph = await openCliGraph(values);
      try {
        const result = await triagePrs(q, await graph.ctx.engine());
        if (values.json) {
          out(JSON.stringify(result, null, 2));
          return 0;
        }
        out(result.prs.length ? `${result.prs.length} open pull requests against ${sanitize(result.base)}, most actionable first:` : `No open pull requests against ${sanitize(result.base)}.`);
        for (const pr of result.prs) {
          const r = pr.blast_radius;
          out(`${pr.rank}. ${prLine(pr)}`);
          out(`   blast radius: ${r.nodes} graph nodes in ${r.files_in_graph} of ${r.files} files, ${r.communities} communities, ${r.dependents} dependents within ${r.depth} hops${r.top_nodes.length ? `; most connected: ${r.top_nodes.slice(0, 3).join(', ')}` : ''}`);
        }
        for (const e of result.errors) out(`   (#${e.number}: files not fetched: ${sanitize(e.error, 200)})`);
        return 0;
      } finally {
        graph.close();
      }
    } catch (err) {
      if (!(err instanceof GhProblem)) throw err;
      process.stderr.write(`${sanitize(err.message, 600)}\n`);
      return 1;
    }
  },
};
