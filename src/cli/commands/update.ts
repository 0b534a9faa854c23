import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { extractorVersion } from '../../extract/identity.node.ts';
import { answerUpdates, askKeeper, type KeeperKind, type UpdateRequest } from '../../extract/keeper-socket.node.ts';
import type { ExtractOptions } from '../../extract/pipeline.node.ts';
import { EXTRACT_OPTIONS_USAGE, parseExtractArgs, printRepairs, printSummary, runExtractCommand, summaryLine, type ExtractArgs } from './extract-args.ts';

/** `synaptic update [path]`: re-extract only added, changed and deleted files; `--watch` keeps doing it. */
export const updateCommand: Command = {
  name: 'update',
  summary: 'refresh synaptic-out/ after edits: re-parses only added and changed files',
  usage: `Usage: synaptic update [path] [options]

Re-extracts only the files added, changed or deleted since the last extract of <path> (default: the
current folder) and rewrites the outputs; the result equals a full extract. Without a previous
extract it runs a full one. When an \`update --watch\` or a \`serve --watch\` of the same output
folder is running, that process does the update (it keeps the previous outputs in memory: much
faster) and this command prints its summary. No process is left running after this command.

${EXTRACT_OPTIONS_USAGE}
  --watch                  stay running: update after every change (a file watcher, else a poll);
                           keeps the previous outputs in memory, so a one-file update is fast.
                           One line per update on stderr (with --json: a JSON summary per line on
                           stdout). Ctrl-C stops it.
  --poll <ms>              with --watch: poll every <ms> instead of watching (network folders)
  --no-watcher             update in this process even when a watcher serves the folder
`,
  run: async (argv) => {
    const rest: string[] = [];
    let watchMode = false;
    let pollMs: number | undefined;
    let useWatcher = true;
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!;
      if (arg === '--watch') watchMode = true;
      else if (arg === '--no-watcher') useWatcher = false;
      else if (arg === '--poll' || arg.startsWith('--poll=')) {
        const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
        if (value === undefined || !/^\d+$/.test(value) || Number(value) < 10) throw new UsageError(`Cannot parse --poll: expected milliseconds (>= 10), got '${value ?? ''}'`);
        pollMs = Number(value);
      } else rest.push(arg);
    }
    if (pollMs !== undefined && !watchMode) throw new UsageError('Cannot update: --poll needs --watch');
    if (!useWatcher && watchMode) throw new UsageError('Cannot update: --no-watcher and --watch exclude each other');
    const args = parseExtractArgs(rest, 'update');
    if (watchMode) return watchUpdates(args, pollMs);
    // A watcher updates in its own mode: a change of mode (or of the store) is done here.
    if (useWatcher && args.precise === undefined && args.store === undefined && (await updateByWatcher(args))) return 0;
    return runExtractCommand(args, true);
  },
};

function requestOf(args: ExtractArgs): UpdateRequest {
  return { op: 'update', version: extractorVersion(), root: args.root, outDir: args.outDir, maxFileSize: args.maxFileSize ?? null };
}

/**
 * Hand the update to a running watcher of this output folder, if there is one that serves this
 * version and these options. True when it did the update (its summary is printed as ours); false
 * when the caller should update in this process.
 */
async function updateByWatcher(args: ExtractArgs): Promise<boolean> {
  // A watcher in the middle of a big update (its first run may be a full extract) answers late: say why we wait.
  const waiting = process.stderr.isTTY
    ? setTimeout(() => process.stderr.write('synaptic: waiting for the watcher or server that keeps this folder current to finish its update (--no-watcher: update here instead)\n'), 1500)
    : undefined;
  const reply = await askKeeper(requestOf(args)).finally(() => clearTimeout(waiting));
  if (!reply) return false;
  if (!reply.ok) {
    if (reply.declined) return false;
    throw new Error(`the ${keeperName(reply.by)} that keeps this folder current could not update: ${reply.error}`);
  }
  printSummary({ ...reply.summary, watcherPid: reply.pid }, args.json, ` (by the ${keeperName(reply.by)}, pid ${reply.pid})`);
  return true;
}

function keeperName(by: KeeperKind | undefined): string {
  return by === 'server' ? 'server' : 'watcher';
}

function extractOptionsOf(args: ExtractArgs): ExtractOptions {
  return {
    root: args.root,
    outDir: args.outDir,
    ...(args.maxFileSize !== undefined ? { maxFileSize: args.maxFileSize } : {}),
    ...(args.workers !== undefined ? { workers: args.workers } : {}),
    ...(args.precise !== undefined ? { precise: args.precise } : {}),
    ...(args.store !== undefined ? { store: args.store } : {}),
  };
}

async function watchUpdates(args: ExtractArgs, pollMs: number | undefined): Promise<number> {
  const { watchAndUpdate } = await import('../../extract/watch.node.ts');
  const handle = watchAndUpdate(
    extractOptionsOf(args),
    {
      ...(pollMs !== undefined ? { poll: true, pollMs } : {}),
      onUpdate: (summary, trigger) => {
        printRepairs(summary);
        if (args.json) process.stdout.write(JSON.stringify({ ...summary, trigger }) + '\n');
        else process.stderr.write(`${summaryLine(summary)}${trigger ? ` (after ${trigger})` : ''}\n`);
      },
      onError: (err) => process.stderr.write(`synaptic: cannot update: ${err instanceof Error ? err.message : String(err)}\n`),
      onMode: (mode, reason) => {
        process.stderr.write(mode === 'events'
          ? `synaptic: watching ${args.root} for changes (Ctrl-C stops)\n`
          : `synaptic: polling ${args.root} every ${pollMs ?? 1000} ms${reason ? ` (${reason})` : ''} (Ctrl-C stops)\n`);
      },
    },
  );
  // One-shot `synaptic update` runs of this folder are handed to this process.
  const socket = await answerUpdates(requestOf(args), 'watcher', () => handle.updateNow());
  if (!socket.serving) process.stderr.write('synaptic: another watcher answers `synaptic update` for this folder; this one only watches\n');
  // `on`, not `once`: Ctrl-C may arrive twice (from the terminal and passed on by a parent process).
  await new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
  await socket.close();
  await handle.close();
  return 0;
}
