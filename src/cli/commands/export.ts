import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { renderPage } from '../../explorer/page.ts';
import { UsageError, type Command } from '../command.ts';
import { appScriptPath, graphPaths, readGraphSnapshot, wasmPath } from '../explorer-assets.ts';

export const exportCommand: Command = {
  name: 'export',
  summary: 'export html: write the explorer as one self-contained HTML file',
  usage: `Usage: synaptic export html [--graph <path>] [--out <file>]

Writes one HTML file with the explorer, the graph snapshot and the WebAssembly core inlined. It works
opened straight from disk (file://), with no server and no network.

  --graph <path>  graph.json, graph.cbor or a synaptic-out/ folder (default: synaptic-out/graph.json)
  --out <file>    where to write (default: explorer.html next to the graph)
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { graph: { type: 'string' }, out: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals[0] !== 'html' || positionals.length > 1) throw new UsageError(`expected 'synaptic export html [--graph <path>] [--out <file>]'`);
    const paths = graphPaths(values.graph, process.cwd());
    const snapshot = readGraphSnapshot(paths);
    const out = resolve(values.out ?? join(dirname(paths.json), 'explorer.html'));
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
  },
};
