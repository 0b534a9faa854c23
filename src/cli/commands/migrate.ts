import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { OUTPUT_DIR_NAME } from '../../extract/identity.node.ts';

const USAGE = `Usage: synaptic migrate [<out-dir> | <graph.json>] [--check] [--json]

Builds the shard store (graph.shard: the graph as indexed SQLite rows, docs/store.md) of an output
folder from the graph.json already there, without extracting again: for folders written with
--no-store or by an older synaptic. Default: ./graph.json if there is one, else ./${OUTPUT_DIR_NAME}.
A damaged shard is replaced; one written by a newer synaptic is refused (exit code 1).
When the folder's .manifest.json describes this graph.json, later \`synaptic update\` runs keep the
shard current incrementally.

Options:
  --check   verify the existing shard (every row's checksum, the counts) instead of writing one;
            exit code 1 when it is damaged or of a newer format, naming its tag
  --json    print a machine-readable result on stdout
`;

/** `synaptic migrate`: the shard store of an existing graph.json. */
export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'build the shard store (graph.shard) from an existing graph.json',
  usage: USAGE,
  run: async (argv) => {
    let target: string | undefined;
    let check = false;
    let json = false;
    for (const arg of argv) {
      if (arg === '--check') check = true;
      else if (arg === '--json') json = true;
      else if (arg.startsWith('-')) throw new UsageError(`Cannot migrate: unknown option '${arg}'`);
      else if (target === undefined) target = arg;
      else throw new UsageError(`Cannot migrate: unexpected argument '${arg}' (one folder or graph.json)`);
    }
    const [{ migrateTarget, migrateFolder, checkShardFile }, { ShardError }] = await Promise.all([
      import('../../extract/migrate.node.ts'), import('../../graph/store/schema.node.ts'),
    ]);
    let where: { dir: string; graphJson: string };
    try {
      where = migrateTarget(target);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    try {
      if (check) {
        const { join } = await import('node:path');
        const r = checkShardFile(join(where.dir, 'graph.shard'));
        if (json) process.stdout.write(JSON.stringify({ ok: true, ...r }) + '\n');
        process.stderr.write(`shard '${r.tag}' is intact: ${r.nodes} nodes, ${r.links} links, generation ${r.generation} (checked in ${(r.ms / 1000).toFixed(2)}s)\n`);
        return 0;
      }
      const r = await migrateFolder(where.dir, where.graphJson);
      if (json) process.stdout.write(JSON.stringify(r) + '\n');
      process.stderr.write(`migrated ${r.graphJson} -> ${r.shard}: shard '${r.tag}', ${r.nodes} nodes, ${r.links} links, ${r.files} files, generation ${r.generation}`
        + ` in ${(r.ms / 1000).toFixed(2)}s${r.replaced ? ` (replaced: ${r.replaced})` : ''}`
        + (r.incremental ? '' : '; no manifest describes this graph.json, so the next update writes the shard whole') + '\n');
      return 0;
    } catch (err) {
      if (!(err instanceof ShardError)) throw err;
      if (json) process.stdout.write(JSON.stringify({ ok: false, tag: err.tag, error: err.message }) + '\n');
      process.stderr.write(`synaptic migrate: ${err.message}\n`);
      return 1;
    }
  },
};
