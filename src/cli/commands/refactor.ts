import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createPlanRenameTool } from '../../mcp/tools/plan-rename.ts';
import type { Command } from '../command.ts';
import { GRAPH_OPTIONS, GRAPH_USAGE, intOption, openCliGraph, printTool } from '../graph-tools.ts';
import { UsageError } from '../command.ts';
import { OUTPUT_DIR_NAME } from '../../extract/identity.node.ts';
import { isIdentifier } from '../../query/edit-plan/occurrences.ts';
import { renamedId, renameTargets, verifyRename, verifyRenamed, type RenameVerification } from '../../query/edit-plan/verify.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { jailPath } from '../../query/source.node.ts';

const USAGE = `Usage: synaptic refactor plan <old> <new> [--file <sub>] [--id <id>] [--out <plan.md>] [graph options]
       synaptic refactor verify <old> <new> [path] [options]

plan prints the rename plan the MCP tool plan_rename gives (the same handler): every edit site as
file:line:col old -> new with its reason and confidence, then the sites to review; it never edits.
--out also writes it to a markdown file (plan.md). Graph options:
${GRAPH_USAGE}

verify, after applying a rename:

After applying a rename (plan_rename lists the edits), check the edited tree against the graph of the
tree before the edit (<path>/synaptic-out/graph.json, which this command leaves as it is): the
tree is extracted again into a temporary copy of the outputs (an incremental update), then

  - the definition carries the new name and the old one is gone;
  - no code token of <old> is left in the code files (mentions in comments and strings are listed,
    not failed; files that define or use another symbol named <old> are not scanned);
  - the graph has the same number of edges, and the renamed symbol the same edges per relation.

When graph.json was already updated after the edit (serve keeps it fresh unless --no-freshen), it
holds <new> and no <old>: the first two checks run on it and the edge comparison is skipped (said).

Prints PASS (exit 0) or FAIL with what is left (exit 1). Run \`synaptic update\` afterwards to
refresh synaptic-out/ itself.

Options:
  --out <dir>    the output folder holding the pre-edit graph (default: <path>/${OUTPUT_DIR_NAME})
  --file <sub>   the symbol's file (a path substring), when several symbols are named <old>
  --id <id>      the symbol's node id, when several symbols are named <old>
  --json         print the result as JSON on stdout
`;

interface VerifyArgs {
  old: string;
  to: string;
  root: string;
  outDir: string;
  file?: string;
  id?: string;
  json: boolean;
}

/** `synaptic refactor verify`: check an applied rename against the pre-edit graph. */
export const refactorCommand: Command = {
  name: 'refactor',
  summary: 'refactor plan|verify <old> <new>: a rename plan (plan_rename), then check the applied rename',
  usage: USAGE,
  run: async (argv) => {
    const [sub, ...rest] = argv;
    if (sub === 'plan') return planCommand(rest);
    if (sub !== 'verify') throw new UsageError(sub ? `Cannot refactor: unknown subcommand '${sub}' (plan or verify)` : 'Cannot refactor: name a subcommand (synaptic refactor plan|verify <old> <new>)');
    const args = parseVerifyArgs(rest);
    const result = await runVerify(args);
    if (args.json) process.stdout.write(JSON.stringify({ old: args.old, new: args.to, ...result }) + '\n');
    else process.stdout.write(formatVerification(args.old, args.to, result));
    return result.ok ? 0 : 1;
  },
};

/** `refactor plan`: the plan_rename tool's handler over the graph serve would load (one implementation, two front ends). */
async function planCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { ...GRAPH_OPTIONS, file: { type: 'string' }, id: { type: 'string' }, out: { type: 'string' }, limit: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 2) throw new UsageError('Cannot refactor plan: expected <old> <new>');
  const limit = intOption('limit', values.limit);
  const graph = await openCliGraph(values);
  try {
    const tool = createPlanRenameTool(graph.ctx);
    const args = { name: positionals[0]!, to: positionals[1]!, file: values.file, id: values.id, limit, verbose: limit === undefined };
    if (values.out === undefined) return await printTool(tool, args, values.json === true);
    const result = await tool.handler(args);
    const text = result.content.map((c) => c.text).join('\n');
    if (result.isError) {
      process.stderr.write(`${text}\n`);
      return 1;
    }
    writeFileSync(values.out, `# Rename plan\n\n\`\`\`\n${text}\n\`\`\`\n`);
    process.stdout.write(`${text}\n`);
    process.stderr.write(`wrote ${values.out}\n`);
    return 0;
  } finally {
    graph.close();
  }
}

function parseVerifyArgs(argv: string[]): VerifyArgs {
  const positional: string[] = [];
  let out: string | undefined;
  let file: string | undefined;
  let id: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (!v) throw new UsageError(`Cannot refactor verify: ${flag} needs a value`);
      return v;
    };
    if (flag === '--out') out = value();
    else if (flag === '--file') file = value();
    else if (flag === '--id') id = value();
    else if (flag === '--json') json = true;
    else if (flag.startsWith('-')) throw new UsageError(`Cannot refactor verify: unknown option '${flag}'`);
    else positional.push(arg);
  }
  if (positional.length < 2) throw new UsageError('Cannot refactor verify: expected <old> <new> [path]');
  if (positional.length > 3) throw new UsageError(`Cannot refactor verify: unexpected argument '${positional[3]}'`);
  const [old, to, path] = positional as [string, string, string | undefined];
  if (old === to) throw new UsageError(`Cannot refactor verify: <new> is the same name as <old> ('${old}')`);
  for (const [what, name] of [['<old>', old], ['<new>', to]] as const) if (!isIdentifier(name, 'typescript')) throw new UsageError(`Cannot refactor verify: ${what} '${name}' is not an identifier`);
  const given = resolve(path ?? process.cwd());
  if (!existsSync(given)) throw new UsageError(`Cannot refactor verify: path '${path}' does not exist`);
  const root = realpathSync(given); // the source jail compares real paths
  const outDir = resolve(out ?? join(root, OUTPUT_DIR_NAME));
  return { old, to, root, outDir, json, ...(file !== undefined ? { file } : {}), ...(id !== undefined ? { id } : {}) };
}

async function loadEngine(graphJson: string): Promise<QueryEngine> {
  const [{ loadGraph }, { QueryEngine }, { indexSnapshot }, { coreTraversal }, { Core }] = await Promise.all([
    import('../../graph/load.node.ts'),
    import('../../query/engine.ts'),
    import('../../query/snapshot-index.ts'),
    import('../../query/core-traversal.ts'),
    import('../../core/index.ts'),
  ]);
  const loaded = await loadGraph(graphJson);
  const traversal = coreTraversal(await Core.load());
  if (loaded.snapshot) {
    const { doc, edges } = indexSnapshot(loaded.snapshot);
    return new QueryEngine(doc, traversal, { edges });
  }
  return new QueryEngine(loaded.doc!, traversal);
}

async function runVerify(args: VerifyArgs): Promise<RenameVerification> {
  const graphJson = join(args.outDir, 'graph.json');
  if (!existsSync(graphJson)) throw new UsageError(`Cannot refactor verify: no graph at ${graphJson} (verify compares the edited tree with the graph extracted before the edit: run synaptic extract before editing)`);
  const before = await loadEngine(graphJson);
  const narrow = { ...(args.id !== undefined ? { id: args.id } : {}), ...(args.file !== undefined ? { file: args.file } : {}) };
  const targets = renameTargets(before, args.old, narrow);
  // A graph kept fresh by a server (or updated by hand) after the edit has the new name and not the old one.
  const renamed = targets.length ? [] : renameTargets(before, args.to, args.id !== undefined ? { id: renamedId(args.id, args.old, args.to) } : narrow);
  if (!targets.length && !renamed.length) {
    throw new UsageError(`Cannot refactor verify: no symbol named '${args.old}' (or '${args.to}')${args.file ? ` in a file matching '${args.file}'` : ''}${args.id ? ` with id '${args.id}'` : ''} in ${graphJson}`);
  }
  const found = targets.length ? targets : renamed;
  if (found.length > 1 && args.id === undefined) {
    const list = found.slice(0, 10).map((v) => `  --id '${before.ix.node(v).id}'  (${before.ix.node(v).kind} in ${before.ix.node(v).source_file})`);
    throw new UsageError(`Cannot refactor verify: ${found.length} symbols are named '${targets.length ? args.old : args.to}'; pass --file <path substring> or one of:\n${list.join('\n')}`);
  }
  const read = (file: string) => readFileSync(jailPath(args.root, file), 'utf8');
  const temp = mkdtempSync(join(tmpdir(), 'synaptic-verify-'));
  try {
    // The outputs stay as they are: the update runs on a copy (its caches make it incremental).
    cpSync(args.outDir, temp, { recursive: true });
    const { runExtract } = await import('../../extract/pipeline.node.ts');
    await runExtract({ root: args.root, outDir: temp, incremental: true });
    const after = await loadEngine(join(temp, 'graph.json'));
    if (targets.length) return verifyRename(before, after, targets, args.old, args.to, read);
    const now = renameTargets(after, args.to, args.id !== undefined ? { id: renamedId(args.id, args.old, args.to) } : narrow);
    return verifyRenamed(after, now, args.old, args.to, read);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function formatVerification(old: string, to: string, result: RenameVerification): string {
  const lines = [`refactor verify: ${old} -> ${to}`];
  for (const check of result.checks) {
    lines.push(`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.summary}`);
    for (const d of check.details) lines.push(`         ${d}`);
  }
  lines.push(result.ok ? 'PASS' : 'FAIL');
  return lines.join('\n') + '\n';
}
