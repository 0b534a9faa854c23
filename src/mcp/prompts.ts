import { sanitize } from '../query/sanitize.ts';
import { INVALID_PARAMS, McpError } from './protocol.ts';
import type { PromptInfo, PromptProvider } from './server.ts';

/** A guided workflow: what prompts/list shows, the tools its text tells the model to call, and that text. */
interface Workflow {
  info: PromptInfo;
  /** Every tool the text names: the prompt is offered only while the server has them all. */
  tools: readonly string[];
  text(args: Record<string, string>): string;
}

/** Prompt argument: sanitized, quotes neutralized, bounded. */
function arg(value: string): string {
  return sanitize(value, 200).replace(/"/g, "'");
}

/** A pull request number, digits only: it goes into a shell command the model is told to run. */
function prNumber(value: string): string {
  const pr = value.trim().replace(/^#/, '');
  if (!/^\d{1,10}$/.test(pr)) throw new McpError(INVALID_PARAMS, `Invalid argument 'pr_number' for prompt 'assess_pr': expected a pull request number, got '${sanitize(value, 40)}'`);
  return pr;
}

const WORKFLOWS: Workflow[] = [
  {
    info: { name: 'onboard', title: 'Onboard to this codebase', description: 'Orient in the codebase via graph_stats, god_nodes and synaptic://questions.', arguments: [] },
    tools: ['graph_stats', 'god_nodes', 'get_node', 'get_source'],
    text: () =>
      'Help me get oriented in this codebase using the Synaptic code graph.\n' +
      '1. Call graph_stats for the size and shape of the graph.\n' +
      '2. Call god_nodes to find the central hubs; note any with 0 tests.\n' +
      '3. Read the synaptic://questions resource and pick the most useful questions.\n' +
      '4. For the top two or three hubs, use get_node and get_source to explain what they do.\n' +
      'Summarize the architecture: main subsystems, their entry points and how they connect.',
  },
  {
    info: {
      name: 'explain_subsystem',
      title: 'Explain a subsystem',
      description: 'Explain a subsystem using query_graph, get_source and find_callers/find_callees.',
      arguments: [{ name: 'topic', description: 'The subsystem or feature to explain, e.g. "authentication".', required: true }],
    },
    tools: ['query_graph', 'get_source', 'find_callers', 'find_callees'],
    text: (args) => {
      const topic = arg(args.topic!);
      return (
        `Explain the "${topic}" subsystem of this codebase.\n` +
        `1. Call query_graph with question "${topic}" to find the relevant symbols.\n` +
        '2. Read the most relevant ones with get_source.\n' +
        '3. Use find_callers and find_callees on the key symbols to see how control enters and leaves the subsystem.\n' +
        'Explain its responsibilities, main types and functions, entry points and dependencies, citing files and symbols.'
      );
    },
  },
  {
    info: {
      name: 'assess_pr',
      title: 'Assess a pull request',
      description: "Assess a PR's risk via get_pr_impact and affected: its state, checks, changed files, the graph nodes and communities they touch, and their blast radius.",
      arguments: [{ name: 'pr_number', description: 'The pull request number.', required: true }],
    },
    tools: ['get_pr_impact', 'affected', 'god_nodes', 'dynamic_hazards'],
    text: (args) => {
      const pr = prNumber(args.pr_number!);
      return (
        `Assess the risk of pull request #${pr}.\n` +
        `1. Call get_pr_impact with pr_number ${pr}: its review and CI state, the files it changes, the graph nodes and communities they touch and its most connected changed symbols.\n` +
        '2. Call affected on those symbols (and on each changed file that defines public code) to measure the blast radius.\n' +
        '3. Flag hubs among them (god_nodes) and dynamic-dispatch hazards in the changed files (dynamic_hazards with path_glob): a symbol reached only dynamically shows no static dependents.\n' +
        `If get_pr_impact says gh is unavailable, list the files with your shell instead (\`gh pr diff ${pr} --name-only\`, or with the branch checked out \`git diff --name-only <base>...HEAD\`) and call affected on them.\n` +
        'Give a risk rating (low/medium/high), the reasons, and what to test before merging.'
      );
    },
  },
  {
    info: {
      name: 'trace_flow',
      title: 'Trace a flow',
      description: 'Trace a path from one symbol to another with shortest_path and get_source.',
      arguments: [
        { name: 'from', description: 'Where the flow starts (a symbol).', required: true },
        { name: 'to', description: 'Where the flow ends (a symbol).', required: true },
      ],
    },
    tools: ['shortest_path', 'get_source', 'find_callees', 'find_callers'],
    text: (args) => {
      const from = arg(args.from!);
      const to = arg(args.to!);
      return (
        `Trace how control or data flows from "${from}" to "${to}".\n` +
        `1. Call shortest_path with source "${from}" and target "${to}".\n` +
        '2. Read each hop with get_source; note the direction of each edge (a backward arrow is a connection, not a call).\n' +
        '3. If there is no path, use find_callees from the source and find_callers on the target to find where they meet.\n' +
        'Describe the flow step by step, citing file:line.'
      );
    },
  },
];

/**
 * The guided workflows whose tools the server has (`tools()` names the tools it serves now), so a
 * prompt never sends the model after a tool that does not exist. Arguments are sanitized before
 * interpolation.
 */
export function createPrompts(tools: () => ReadonlySet<string>): PromptProvider {
  const offered = () => {
    const have = tools();
    return WORKFLOWS.filter((w) => w.tools.every((t) => have.has(t)));
  };
  return {
    list: () => offered().map((w) => w.info),
    get(name, args) {
      const available = offered();
      const workflow = available.find((w) => w.info.name === name);
      if (!workflow) throw new McpError(INVALID_PARAMS, `Unknown prompt: '${sanitize(name)}' (available: ${available.map((w) => w.info.name).join(', ')})`, { name });
      for (const a of workflow.info.arguments) {
        if (a.required && !(args[a.name] ?? '').trim()) throw new McpError(INVALID_PARAMS, `Missing required argument '${a.name}' for prompt '${name}'`);
      }
      return { description: workflow.info.description, text: workflow.text(args) };
    },
  };
}
