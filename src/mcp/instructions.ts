/**
 * Server instructions: when an agent should use which tool, and the conventions every tool shares,
 * sent once per connection instead of repeated in each tool description. Only tools the server
 * serves are named (guidance comes and goes with its tools).
 */

import { MESH_GUIDANCE } from './tools/mesh/guidance.ts';

/** "<tool> for <when>" routes after query_graph; a route is given only while all its tools are served. */
const ROUTES: Array<{ tools: string[]; text: string }> = [
  { tools: ['get_source'], text: 'get_source to read a symbol body or a file range' },
  { tools: ['get_node'], text: 'get_node for metadata' },
  { tools: ['describe_node'], text: 'describe_node for a signature and calls summary' },
  { tools: ['get_neighbors'], text: 'get_neighbors for direct relations' },
  { tools: ['find_callers'], text: 'find_callers for "who calls X"' },
  { tools: ['find_callees'], text: 'find_callees for "what does X call"' },
  { tools: ['find_references'], text: 'find_references for "where is type X used"' },
  { tools: ['affected'], text: 'affected for "what breaks if I change X"' },
  { tools: ['working_changes_impact', 'predict_impact', 'affected_tests'], text: 'working_changes_impact, predict_impact and affected_tests for what a change (the git diff, or named files) touches, risks and which tests to run' },
  { tools: ['shortest_path'], text: 'shortest_path for "how are A and B connected"' },
  { tools: ['search_text'], text: 'search_text for string literals, config values, log messages and TODOs (the graph holds no text)' },
  { tools: ['graph_stats', 'god_nodes', 'get_community'], text: 'graph_stats, god_nodes, get_community and synaptic://questions to orient in an unfamiliar codebase' },
  { tools: ['dynamic_hazards'], text: 'dynamic_hazards before reading 0 callers as dead code (a symbol reached only at run time has no static caller)' },
  { tools: ['list_repos', 'repo_stats'], text: 'list_repos and repo_stats in a federated graph' },
];

const MEMORY_TOOLS = ['recall', 'remember', 'readmemory'];

/**
 * The instructions for a server serving `served`. `hidden` names the tools a profile leaves out
 * (said once, so an agent can ask for them instead of guessing).
 */
export function serverInstructions(served: ReadonlySet<string>, options: { hidden?: readonly string[]; profile?: string } = {}): string {
  const memory = MEMORY_TOOLS.every((t) => served.has(t));
  const lines = [`Synaptic serves a code knowledge graph of this repository (symbols, files, calls, imports, inheritance)${memory ? ' and durable agent memory' : ''}.`];
  const routes = ROUTES.filter((r) => r.tools.every((t) => served.has(t))).map((r) => r.text);
  if (served.has('query_graph')) {
    lines.push(`Start with query_graph for any question about the code; it ranks the symbols that answer it${routes.length ? `. Then: ${routes.join('; ')}` : ''}.`);
  }
  lines.push(
    'A label (source, target) names a node by id, label, bare name, file path or name@file; an ambiguous name answers with candidates: pass one back as name@file.',
    'Listings stop at limit with a +N more line; verbose lists all, show_sites adds each site\'s source line.',
    'Graph tools are read-only; files are read only inside the source root, and invisible characters in source lines come back as \\u{...} escapes.',
  );
  if (memory) {
    lines.push(
      'Memory: recall before a decision that depends on project history; remember each stable fact, decision or correction (one per call; supersedes retires the memory it corrects; never a secret); readmemory reads an abridged memory whole.',
    );
  }
  // Sent while the mesh tools are, withdrawn with them (the owner's `settings mesh` switch).
  if (served.has('mesh_register')) lines.push(MESH_GUIDANCE);
  if (served.has('recall') || served.has('vaultstatus')) lines.push('A project or path argument defaults to SYNAPTIC_PROJECT_DIR, then the server\'s working directory: omit it for this project.');
  if (options.hidden?.length) {
    lines.push(
      `This server runs --profile ${options.profile ?? 'lean'}: ${options.hidden.join(', ')} are not served; if you need one, ask the user to restart synaptic serve without --profile ${options.profile ?? 'lean'}.`,
    );
  }
  return lines.join('\n');
}
