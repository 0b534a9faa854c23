/** Server instructions: when an agent should use which tool. */
export const INSTRUCTIONS = [
  'Synaptic serves a code knowledge graph of this repository (symbols, files, calls, imports, inheritance) and durable agent memory.',
  'Start with query_graph for any question about the code ("how does login work"); it returns ranked symbols with copy-ready qualified references.',
  'Then: get_source to read a symbol body or a file range; get_node for metadata; get_neighbors for direct relations;',
  'find_callers / find_callees / find_references for "who calls X" / "what does X call" / "where is type X used";',
  'affected for "what breaks if I change X" (blast radius); shortest_path for "how are A and B connected";',
  'search_text for string literals, config values, log messages and TODOs (the graph does not hold text);',
  'graph_stats, god_nodes, get_community and the synaptic://questions resource to orient in an unfamiliar codebase;',
  'dynamic_hazards before trusting a 0-caller result (no static caller is not dead code); describe_node for a compact signature + calls summary.',
  'When a name is ambiguous the tool lists candidates: paste one of the qualified references (name@file) back.',
  'All graph tools are read-only.',
].join(' ');
