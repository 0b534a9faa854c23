import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { renderPage } from '../../explorer/page.ts';
import { checkGraphDocument } from '../../graph/load.node.ts';
import { cypherChunks } from '../../graph/export/cypher.ts';
import { dotChunks } from '../../graph/export/dot.ts';
import { graphmlChunks } from '../../graph/export/graphml.ts';
import { nodeLinkChunks } from '../../graph/export/node-link.ts';
import { selectForExport, type ExportGraph } from '../../graph/export/select.ts';
import { writeChunks } from '../../graph/export/write.node.ts';
import { UsageError, type Command } from '../command.ts';
import { appScriptPath, graphPaths, readGraphSnapshot, wasmPath } from '../explorer-assets.ts';

const WRITERS: Record<string, (g: ExportGraph, clusters: boolean) => Iterable<string>> = {
  graphml: (g) => graphmlChunks(g),
  dot: (g, clusters) => dotChunks(g, { clusters }),
  cypher: (g) => cypherChunks(g),
  json: (g) => nodeLinkChunks(g),
};

export const exportCommand: Command = {
  name: 'export',
  summary: 'export html|graphml|dot|cypher|json: the explorer as one HTML file, or the graph for other tools',
  usage: `Usage: synaptic export html [--graph <path>] [--out <file>]
       synaptic export graphml|dot|cypher|json [--graph <path>] [--repo <tag>] [--out <file>] [--clusters]

html     one HTML file with the explorer, the graph snapshot and the WebAssembly core inlined; it works
         opened straight from disk (file://), with no server and no network (default: explorer.html
         next to the graph)
graphml  GraphML for Gephi and yEd (typed attribute keys)
dot      Graphviz DOT (dot -Tsvg); --clusters draws one box per community
cypher   MERGE statements for Neo4j or any openCypher database (cypher-shell -f graph.cypher)
json     NetworkX node-link JSON (networkx.node_link_graph(data, edges="links"))

  --graph <path>  graph.json or a synaptic-out/ folder (default: synaptic-out/graph.json)
  --repo <tag>    only this member of a federated graph (its nodes and the links between them)
  --out <file>    where to write (graph formats: default stdout)
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { graph: { type: 'string' }, out: { type: 'string' }, repo: { type: 'string' }, clusters: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    const format = positionals[0];
    if (positionals.length !== 1 || (format !== 'html' && !(format! in WRITERS))) {
      throw new UsageError(`expected 'synaptic export html|graphml|dot|cypher|json [--graph <path>] [--out <file>]'`);
    }
    const paths = graphPaths(values.graph, process.cwd());
    if (format === 'html') {
      if (values.repo !== undefined || values.clusters) throw new UsageError('--repo and --clusters apply to the graph formats, not html');
      return exportHtml(paths, values.out);
    }
    if (values.clusters && format !== 'dot') throw new UsageError('--clusters applies to dot only');
    let text: string;
    try {
      text = readFileSync(paths.json, 'utf8');
    } catch {
      throw new UsageError(`Cannot read ${paths.json}: run 'synaptic extract' first, or pass --graph <path>`);
    }
    let doc;
    try {
      doc = checkGraphDocument(JSON.parse(text), paths.json);
    } catch (err) {
      throw new UsageError(err instanceof SyntaxError ? `Cannot load graph ${paths.json}: invalid JSON (${err.message})` : (err as Error).message);
    }
    text = '';
    let graph: ExportGraph;
    try {
      graph = selectForExport(doc, paths.name, values.repo);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const out = values.out === undefined || values.out === '-' ? undefined : resolve(values.out);
    let bytes: number;
    try {
      bytes = await writeChunks(WRITERS[format!]!(graph, values.clusters === true), out);
    } catch (err) {
      throw new UsageError(`Cannot write ${out ?? 'stdout'}: ${(err as Error).message}`);
    }
    if (out) process.stderr.write(`[synaptic] wrote ${out} (${format}: ${graph.nodes.length} nodes, ${graph.links.length} links, ${(bytes / 1024 / 1024).toFixed(1)} MB)\n`);
    return 0;
  },
};

function exportHtml(paths: ReturnType<typeof graphPaths>, outArg: string | undefined): number {
  const snapshot = readGraphSnapshot(paths);
  const out = resolve(outArg ?? join(dirname(paths.json), 'explorer.html'));
  const html = renderPage({
    title: paths.name,
    appScript: readFileSync(appScriptPath(), 'utf8'),
    inline: { graphCbor: Buffer.from(snapshot).toString('base64'), wasm: readFileSync(wasmPath()).toString('base64') },
  });
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, html);
    renameSync(tmp, out);
  } catch (err) {
    throw new UsageError(`Cannot write ${out}: ${(err as Error).message}`);
  }
  process.stderr.write(`[synaptic] wrote ${out} (${(html.length / 1024 / 1024).toFixed(1)} MB)\n`);
  return 0;
}
