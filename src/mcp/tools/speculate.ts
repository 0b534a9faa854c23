import { z } from 'zod';
import { speculate } from '../../extract/speculate.node.ts';
import { outcomeFor, parseTestOutput } from '../../extract/test-results.ts';
import { openRepo, RepoError } from '../../extract/worktree.node.ts';
import { changeImpact, testsOfImpact } from '../../query/change-impact/impact.ts';
import { sanitize, sanitizeSourceText } from '../../query/sanitize.ts';
import { toolError, toolResult, type ToolDefinition, type ToolProvider } from '../tool.ts';
import { changeSet } from './change-set.ts';
import type { GraphToolContext } from './context.ts';
import { graphRoot } from './time-travel-diff.ts';

const input = z.object({
  command: z.string().min(1).optional().describe('Shell command to run (default: detected test/build command).'),
  timeout_s: z.number().int().min(1).max(3600).optional().describe('Time limit in seconds (default 600).'),
});

/** Runs the project's commands: not read-only, open world (spec); never advertised without --allow-exec. */
export const EXECUTES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true } as const;

/** Lines of output quoted in the answer (the runner's verdict is at the end). */
const TAIL_LINES = 40;

/** speculate: run the test/build command in a throwaway worktree with the working changes applied. */
export function createSpeculateTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'speculate',
    title: 'Run tests on the working changes',
    description:
      "Run the project's test/build command in a throwaway git worktree of HEAD with your working changes applied (time limit, output cap); pass/fail per affected test where the runner says.",
    inputSchema: input,
    annotations: EXECUTES,
    async handler(args) {
      const engine = await ctx.engine();
      let repo;
      try {
        repo = openRepo(graphRoot(ctx.graphPath));
      } catch (err) {
        if (err instanceof RepoError) return toolError(err.message);
        throw err;
      }
      // The tests the graph expects the working changes (vs HEAD) to reach.
      const set = changeSet(engine, repo.root, { base: 'HEAD' });
      const tests = set.ok ? testsOfImpact(engine, changeImpact(engine, set.files)) : [];
      let run;
      try {
        run = await speculate({ repo, ...(args.command !== undefined ? { command: args.command } : {}), timeoutMs: (args.timeout_s ?? 600) * 1000 });
      } catch (err) {
        if (err instanceof RepoError) return toolError(sanitize(err.message, 600));
        throw err;
      }
      const verdict = run.timedOut
        ? `TIMED OUT after ${args.timeout_s ?? 600} s (the command and its children were killed)`
        : run.exitCode === 0 ? 'PASSED (exit 0)' : `FAILED (${run.exitCode === null ? `signal ${run.signal ?? '?'}` : `exit ${run.exitCode}`})`;
      const lines = [
        `speculate: \`${sanitize(run.command, 300)}\` (${run.source}) in a worktree of HEAD ${run.head.slice(0, 12)} + ${run.changedFiles} changed file(s): ${verdict} in ${(run.ms / 1000).toFixed(1)} s; the worktree is removed`,
      ];
      const outcomes = parseTestOutput(run.output);
      const rows = tests.map((t) => {
        const n = engine.ix.node(t.node);
        return { label: engine.safeLabel(t.node), file: sanitize(String(n.source_file ?? '')), result: outcomeFor(outcomes, { file: String(n.source_file ?? ''), label: String(n.label ?? '') }) };
      });
      const passed = rows.filter((r) => r.result === true).length;
      const failed = rows.filter((r) => r.result === false).length;
      lines.push(`Affected tests (${rows.length}): ${passed} passed, ${failed} failed, ${rows.length - passed - failed} not reported by the runner`);
      for (const r of [...rows].sort((a, b) => Number(a.result ?? 2) - Number(b.result ?? 2)).slice(0, 50)) {
        lines.push(`  ${r.result === true ? 'PASS' : r.result === false ? 'FAIL' : '  ? '} ${r.label}  ${r.file}`);
      }
      if (rows.length > 50) lines.push(`  +${rows.length - 50} more`);
      if (!rows.length) lines.push(set.ok ? '  (no test in the graph reaches the working changes)' : `  (${sanitize(set.message, 300)})`);
      const tail = run.output.trimEnd().split('\n').slice(-TAIL_LINES);
      lines.push(`Output (last ${tail.length} lines${run.truncated ? '; the middle of a long output was cut' : ''}):`);
      for (const l of tail) lines.push(`  ${sanitizeSourceText(l)}`);
      // A failing command is the answer asked for, not a tool failure.
      return toolResult(lines.join('\n'));
    },
  };
}

/** The command-running tools: served only with `serve --allow-exec`. */
export function createExecTools(ctx: GraphToolContext): ToolProvider {
  const tools = [createSpeculateTool(ctx)] as ToolDefinition[];
  return { tools: () => tools };
}
