import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { OUTPUT_DIR_NAME } from '../../extract/identity.node.ts';
import { buildWorkspace, type BuildResult, type MemberResult } from '../../extract/workspace/build.node.ts';
import { loadWorkspace, workspaceFromEntries, WorkspaceError, WORKSPACE_FILE, type Workspace } from '../../extract/workspace/members.node.ts';
import { readWorkspaceFiles, GLOBAL_MANIFEST } from '../../extract/workspace/state.node.ts';

/** Exit code when some members failed to extract and the rest were built. */
export const PARTIAL_EXIT = 3;

const USAGE = `Usage: synaptic workspace build [<dir>...] [options]
       synaptic workspace update [options]

A workspace is several repositories served as one federated graph. \`build\` extracts each member
(incrementally: \`synaptic update\` in the member, into its own <member>/${OUTPUT_DIR_NAME}/), several at
once, and writes ${GLOBAL_MANIFEST} (member tags, source roots, output folders, store generation)
and workspace-state.json (each member's source_hash) to <root>/${OUTPUT_DIR_NAME}/. \`update\` re-extracts
only the members whose sources changed since the last build and says which.

Members are the folders named on the command line (tag: the folder name), else those of
<root>/${WORKSPACE_FILE}:
  version: 1
  members:
    - path: services/api
      tag: api
    - path: web
Every member must be a folder under the workspace root (symlinks are resolved), tags unique.
\`update\` uses ${WORKSPACE_FILE} if present, else the members of the last build.

Options:
  --root <dir>             workspace root (default: the current folder)
  --out <dir>              where ${GLOBAL_MANIFEST} goes (default: <root>/${OUTPUT_DIR_NAME})
  --jobs <n>               members extracted at once (default: one per core, ${availableParallelism()} here)
  --max-file-size <bytes>  passed to each member's extraction
  --json                   print a machine-readable summary on stdout

One line per member and a total on stderr. Exit code 0: all built; ${PARTIAL_EXIT}: some members failed to
extract (reported, the rest built); 2: a bad workspace definition.
`;

interface WorkspaceArgs {
  action: 'build' | 'update';
  dirs: string[];
  root: string;
  out?: string;
  jobs?: number;
  maxFileSize?: number;
  json: boolean;
}

function parseArgs(argv: string[]): WorkspaceArgs {
  const [action, ...rest] = argv;
  if (action !== 'build' && action !== 'update') throw new UsageError(action ? `unknown action '${action}' (expected build or update)` : 'expected an action: build or update');
  const args: WorkspaceArgs = { action, dirs: [], root: '.', json: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (!v) throw new UsageError(`Cannot parse ${flag}: expected a value`);
      return v;
    };
    const count = (): number => {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) === 0) throw new UsageError(`Cannot parse ${flag}: expected a positive integer, got '${v}'`);
      return Number(v);
    };
    if (flag === '--root') args.root = value();
    else if (flag === '--out') args.out = value();
    else if (flag === '--jobs') args.jobs = count();
    else if (flag === '--max-file-size') args.maxFileSize = count();
    else if (flag === '--json') args.json = true;
    else if (flag.startsWith('-')) throw new UsageError(`Cannot ${action} workspace: unknown option '${flag}'`);
    else if (action === 'update') throw new UsageError(`Cannot update workspace: unexpected argument '${arg}' (update re-reads the members of ${WORKSPACE_FILE} or of the last build)`);
    else args.dirs.push(arg);
  }
  return args;
}

function workspaceOf(args: WorkspaceArgs, outDir: string): Workspace {
  if (args.action === 'build' || existsSync(join(resolve(args.root), WORKSPACE_FILE))) return loadWorkspace(args.root, args.dirs);
  const { manifest } = readWorkspaceFiles(outDir);
  if (!manifest) throw new WorkspaceError(`no ${WORKSPACE_FILE} and no previous build in ${outDir}: run synaptic workspace build first`);
  return workspaceFromEntries(args.root, manifest.members.map((m) => ({ path: m.path, tag: m.tag })));
}

function memberLine(r: MemberResult): string {
  const secs = `${(r.ms / 1000).toFixed(2)}s`;
  if (r.status === 'failed') return `  ${r.tag}: FAILED (${r.reason}): ${r.error} [${secs}] - skipped`;
  if (r.status === 'unchanged') return `  ${r.tag}: unchanged (same source_hash) [${secs}]`;
  const s = r.summary!;
  return `  ${r.tag}: ${s.mode === 'update' ? 'updated' : 'extracted'} (${r.reason}) ${s.files} files (${s.parsed} parsed, ${s.reused} reused): ${s.nodes} nodes, ${s.links} links [${secs}] -> ${s.outDir}`;
}

function totalLine(r: BuildResult): string {
  const nodes = r.members.reduce((n, m) => n + (m.summary?.nodes ?? 0), 0);
  return `workspace: ${r.members.length} members: ${r.extracted} extracted (${nodes} nodes), ${r.unchanged} unchanged, ${r.failed} failed`
    + ` in ${(r.ms / 1000).toFixed(2)}s; generation ${r.generation} -> ${join(r.out_dir, GLOBAL_MANIFEST)}${r.failed ? ' (partial)' : ''}`;
}

/** `synaptic workspace build|update`: extract the members of a federated workspace. */
export const workspaceCommand: Command = {
  name: 'workspace',
  summary: 'build or update a multi-repository workspace (global-manifest.json over member graphs)',
  usage: USAGE,
  run: async (argv) => {
    const args = parseArgs(argv);
    const outDir = resolve(args.out ?? join(resolve(args.root), OUTPUT_DIR_NAME));
    let ws: Workspace;
    try {
      ws = workspaceOf(args, outDir);
    } catch (err) {
      if (err instanceof WorkspaceError) throw new UsageError(err.message);
      throw err;
    }
    // The members' own `synaptic update`: this very CLI, with the same node flags (tsx in development).
    const cli = [process.execPath, ...process.execArgv, process.argv[1]!];
    let result: BuildResult;
    try {
      result = await buildWorkspace(ws, {
        cli, outDir, onlyChanged: args.action === 'update',
        ...(args.jobs !== undefined ? { jobs: args.jobs } : {}),
        ...(args.maxFileSize !== undefined ? { maxFileSize: args.maxFileSize } : {}),
        onMember: (r) => process.stderr.write(memberLine(r) + '\n'),
      });
    } catch (err) {
      if (err instanceof WorkspaceError) throw new UsageError(err.message);
      throw err;
    }
    process.stderr.write(totalLine(result) + '\n');
    if (args.json) process.stdout.write(JSON.stringify(result) + '\n');
    return result.failed ? PARTIAL_EXIT : 0;
  },
};
