import { sanitize } from '../query/sanitize.ts';
import { INVALID_PARAMS, McpError } from './protocol.ts';
import type { PromptInfo, PromptProvider } from './server.ts';

const PROMPTS: PromptInfo[] = [
  { name: 'onboard', title: 'Onboard to this codebase', description: 'Orient in the codebase via graph_stats, god_nodes and synaptic://questions.', arguments: [] },
  {
    name: 'explain_subsystem',
    title: 'Explain a subsystem',
    description: 'Explain a subsystem using query_graph, get_source and find_callers/find_callees.',
    arguments: [{ name: 'topic', description: 'The subsystem or feature to explain, e.g. "authentication".', required: true }],
  },
  {
    name: 'assess_pr',
    title: 'Assess a pull request',
    description: "Assess a PR's risk via get_pr_impact and affected.",
    arguments: [{ name: 'pr_number', description: 'The pull request number.', required: true }],
  },
  {
    name: 'trace_flow',
    title: 'Trace a flow',
    description: 'Trace a path from one symbol to another with shortest_path and get_source.',
    arguments: [
      { name: 'from', description: 'Where the flow starts (a symbol).', required: true },
      { name: 'to', description: 'Where the flow ends (a symbol).', required: true },
    ],
  },
];

/** Prompt argument: sanitized, quotes neutralized, bounded. */
function arg(value: string): string {
  return sanitize(value, 200).replace(/"/g, "'");
}

/** The four guided workflows. Arguments are sanitized before interpolation. */
export function createPrompts(): PromptProvider {
  return {
    list: () => PROMPTS,
    get(name, args) {
      const prompt = PROMPTS.find((p) => p.name === name);
      if (!prompt) throw new McpError(INVALID_PARAMS, `Unknown prompt: '${sanitize(name)}' (available: ${PROMPTS.map((p) => p.name).join(', ')})`, { name });
      for (const a of prompt.arguments) {
        if (a.required && !(args[a.name] ?? '').trim()) throw new McpError(INVALID_PARAMS, `Missing required argument '${a.name}' for prompt '${name}'`);
      }
      switch (name) {
        case 'onboard':
          return {
            description: prompt.description,
            text:
              'Help me get oriented in this codebase using the Synaptic code graph.\n' +
              '1. Call graph_stats for the size and shape of the graph.\n' +
              '2. Call god_nodes to find the central hubs; note any with 0 tests.\n' +
              '3. Read the synaptic://questions resource and pick the most useful questions.\n' +
              '4. For the top two or three hubs, use get_node and get_source to explain what they do.\n' +
              'Summarize the architecture: main subsystems, their entry points and how they connect.',
          };
        case 'explain_subsystem': {
          const topic = arg(args.topic!);
          return {
            description: prompt.description,
            text:
              `Explain the "${topic}" subsystem of this codebase.\n` +
              `1. Call query_graph with question "${topic}" to find the relevant symbols.\n` +
              '2. Read the most relevant ones with get_source.\n' +
              '3. Use find_callers and find_callees on the key symbols to see how control enters and leaves the subsystem.\n' +
              'Explain its responsibilities, main types and functions, entry points and dependencies, citing files and symbols.',
          };
        }
        case 'assess_pr': {
          const pr = arg(args.pr_number!);
          return {
            description: prompt.description,
            text:
              `Assess the risk of pull request #${pr}.\n` +
              `1. Call get_pr_impact with pr_number ${pr} to see the files, nodes and communities it touches (if that tool is not available, list the changed files yourself).\n` +
              '2. For each changed public symbol, call affected to measure its blast radius.\n' +
              '3. Flag high-degree or untested symbols (god_nodes) and dynamic-dispatch hazards (dynamic_hazards) in scope.\n' +
              'Give a risk rating (low/medium/high), the reasons, and what to test before merging.',
          };
        }
        default: {
          const from = arg(args.from!);
          const to = arg(args.to!);
          return {
            description: prompt.description,
            text:
              `Trace how control or data flows from "${from}" to "${to}".\n` +
              `1. Call shortest_path with source "${from}" and target "${to}".\n` +
              '2. Read each hop with get_source; note the direction of each edge (a backward arrow is a connection, not a call).\n' +
              '3. If there is no path, use find_callees from the source and find_callers on the target to find where they meet.\n' +
              'Describe the flow step by step, citing file:line.',
          };
        }
      }
    },
  };
}
