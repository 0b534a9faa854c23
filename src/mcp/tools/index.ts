import type { ToolDefinition, ToolProvider } from '../tool.ts';
import { createAffectedTool } from './affected.ts';
import type { GraphToolContext } from './context.ts';
import { createFindCalleesTool } from './find-callees.ts';
import { createFindCallersTool } from './find-callers.ts';
import { createFindReferencesTool } from './find-references.ts';
import { createGetNeighborsTool } from './get-neighbors.ts';
import { createGetNodeTool } from './get-node.ts';
import { createGetSourceTool } from './get-source.ts';
import { createGodNodesTool } from './god-nodes.ts';
import { createGraphStatsTool } from './graph-stats.ts';
import { createQueryGraphTool } from './query-graph.ts';
import { createShortestPathTool } from './shortest-path.ts';
import { createSearchTextTool } from './search-text.ts';
import { createStructuralSearchTool } from './structural-search.ts';
import { createGetCommunityTool } from './get-community.ts';
import { createListReposTool } from './list-repos.ts';
import { createRepoStatsTool } from './repo-stats.ts';
import { createDynamicHazardsTool } from './dynamic-hazards.ts';
import { createDescribeNodeTool } from './describe-node.ts';
import { createTimeTravelDiffTool } from './time-travel-diff.ts';
import { createListPrsTool } from './list-prs.ts';
import { createGetPrImpactTool } from './get-pr-impact.ts';
import { createTriagePrsTool } from './triage-prs.ts';
import { createPredictEditTool } from './predict-edit.ts';
import { createPlanRenameTool } from './plan-rename.ts';
import { createWorkingChangesImpactTool } from './working-changes-impact.ts';
import { createPredictImpactTool } from './predict-impact.ts';
import { createAffectedTestsTool } from './affected-tests.ts';
import { createAuditSqlTool } from './audit-sql.ts';
import { createReadinessAuditTool } from './readiness-audit.ts';
import { createAdviseSqlTool } from './advise-sql.ts';

/** The graph tools in tools/list order. */
export function graphTools(ctx: GraphToolContext): ToolDefinition[] {
  return [
    createQueryGraphTool(ctx),
    createGetNodeTool(ctx),
    createGetSourceTool(ctx),
    createGetNeighborsTool(ctx),
    createGetCommunityTool(ctx),
    createGodNodesTool(ctx),
    createGraphStatsTool(ctx),
    createListReposTool(ctx),
    createRepoStatsTool(ctx),
    createShortestPathTool(ctx),
    createAffectedTool(ctx),
    createFindCallersTool(ctx),
    createFindCalleesTool(ctx),
    createFindReferencesTool(ctx),
    createSearchTextTool(ctx),
    createStructuralSearchTool(ctx),
    createDynamicHazardsTool(ctx),
    createDescribeNodeTool(ctx),
    createTimeTravelDiffTool(ctx),
    createListPrsTool(ctx),
    createGetPrImpactTool(ctx),
    createTriagePrsTool(ctx),
    createPredictEditTool(ctx),
    createPlanRenameTool(ctx),
    createWorkingChangesImpactTool(ctx),
    createPredictImpactTool(ctx),
    createAffectedTestsTool(ctx),
    createAuditSqlTool(ctx),
    createReadinessAuditTool(ctx),
    createAdviseSqlTool(ctx),
  ] as ToolDefinition[];
}

/** The graph tool provider (static list). */
export function createGraphTools(ctx: GraphToolContext): ToolProvider {
  const tools = graphTools(ctx);
  return { tools: () => tools };
}
