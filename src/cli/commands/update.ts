import { spawn } from 'node:child_process';
import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { extractorVersion } from '../../extract/identity.node.ts';
import { answerUpdates, askWatcher, type UpdateRequest } from '../../extract/watch-socket.node.ts';
import type { ExtractOptions } from '../../extract/pipeline.node.ts';
import { EXTRACT_OPTIONS_USAGE, parseExtractArgs, printSummary, runExtractCommand, summaryLine, type ExtractArgs } from './extract-args.ts';
import { RESIDENT_IDLE_MINUTES, YOUNG_GENERATION_FLAG, YOUNG_GENERATION_MB, residentWanted, serveAsResident, startResidentFor } from './update-resident.ts';

/** `synaptic update [path]`: re-extract only added, changed and deleted files; `--watch` keeps doing it. */
export const updateCommand: Command = {
  name: 'update',
  summary: 'refresh synaptic-out/ after edits: re-parses only added and changed files',
  usage: `Usage: synaptic update [path] [options]

Re-extracts only the files added, changed or deleted since the last extract of <path> (default: the
current folder) and rewrites the outputs; the result equals a full extract. Without a previous
extract it runs a full one. When an \`update --watch\`, a \`serve --watch\` or a background updater of
the same output folder is running, it does the update (it holds the previous outputs in memory: much
faster) and this command prints its summary.

On a large repository (graph.cbor of 4 MB or more) with none of those running, this command updates,
then starts a background updater (\`update --resident\`, detached; \`synaptic extract\` starts one
too) that reads the outputs back into memory and does the later runs (on a 640k-line repository,
about 0.3-0.6 s end to end, the first one about 0.7-0.8 s, against 1.1-2.9 s in a fresh process).
It exits after ${RESIDENT_IDLE_MINUTES} minutes without requests
(SYNAPTIC_RESIDENT_IDLE_MINUTES), when an \`update --watch\` or \`serve --watch\` of the folder starts,
or when the folder is gone; its log is beside its socket in $TMPDIR/synaptic-<uid>/.
SYNAPTIC_RESIDENT=0 turns it off (it is off when CI is set), SYNAPTIC_RESIDENT=1 starts one on any
repository.

${EXTRACT_OPTIONS_USAGE}
  --watch                  stay running: update after every change (a file watcher, else a poll);
                           keeps the previous outputs in memory, so a one-file update is fast.
                           One line per update on stderr (with --json: a JSON summary per line on
                           stdout). Ctrl-C stops it.
  --poll <ms>              with --watch: poll every <ms> instead of watching (network folders)
  --no-watcher             update in this process even when a watcher serves the folder, and
                           start no background updater
  --resident               be the background updater: update only when a \`synaptic update\` asks
  --idle-exit <minutes>    with --resident: exit after this long without requests (default ${RESIDENT_IDLE_MINUTES})
  --replace                with --resident: take over from a background updater already answering
                           for the folder (\`synaptic extract\` starts the new one so: the old one
                           keeps outputs the extract replaced)
`,
  run: async (argv) => {
    const rest: string[] = [];
    let watchMode = false;
    let pollMs: number | undefined;
    let useWatcher = true;
    let residentMode = false;
    let idleMinutes: number | undefined;
    let replace = false;
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!;
      if (arg === '--watch') watchMode = true;
      else if (arg === '--no-watcher') useWatcher = false;
      else if (arg === '--resident') residentMode = true;
      else if (arg === '--replace') replace = true;
      else if (arg === '--idle-exit' || arg.startsWith('--idle-exit=')) {
        const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
        if (value === undefined || !/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new UsageError(`Cannot parse --idle-exit: expected minutes (> 0), got '${value ?? ''}'`);
        idleMinutes = Number(value);
      }
      else if (arg === '--poll' || arg.startsWith('--poll=')) {
        const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
        if (value === undefined || !/^\d+$/.test(value) || Number(value) < 10) throw new UsageError(`Cannot parse --poll: expected milliseconds (>= 10), got '${value ?? ''}'`);
        pollMs = Number(value);
      } else rest.push(arg);
    }
    if (pollMs !== undefined && !watchMode) throw new UsageError('Cannot update: --poll needs --watch');
    if (!useWatcher && watchMode) throw new UsageError('Cannot update: --no-watcher and --watch exclude each other');
    if (residentMode && (watchMode || !useWatcher)) throw new UsageError('Cannot update: --resident excludes --watch and --no-watcher');
    if (idleMinutes !== undefined && !residentMode) throw new UsageError('Cannot update: --idle-exit needs --resident');
    if (replace && !residentMode) throw new UsageError('Cannot update: --replace needs --resident');
    const args = parseExtractArgs(rest, 'update');
    if (residentMode) return residentUpdates(args, idleMinutes ?? RESIDENT_IDLE_MINUTES, replace);
    if (!watchMode) {
      if (useWatcher && (await updateByWatcher(args))) return 0;
      // Nothing keeps this folder in memory: on a large repository, start the process that will.
      const resident = useWatcher && residentWanted(args.outDir);
      const code = await runExtractCommand(args, true, !resident);
      if (code === 0 && resident) startResidentFor(args);
      return code;
    }
    if (!process.execArgv.some((a) => a.startsWith(YOUNG_GENERATION_FLAG))) return respawnWithYoungGeneration();
    return watchUpdates(args, pollMs);
  },
};

/**
 * The watcher runs with a larger young generation (see YOUNG_GENERATION_FLAG), set at start-up: hence
 * a child process with the flag; it shares this terminal and its exit code is this command's.
 */
function respawnWithYoungGeneration(): Promise<number> {
  const child = spawn(process.execPath, [`${YOUNG_GENERATION_FLAG}=${YOUNG_GENERATION_MB}`, ...process.execArgv, process.argv[1]!, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches both processes (same process group); a signal sent to this one alone is passed on.
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.on('error', (err) => {
      process.stderr.write(`synaptic: cannot start the watcher: ${err.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

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
    ? setTimeout(() => process.stderr.write('synaptic: waiting for the process that keeps this folder current (a watcher, server or background updater) to finish its update (--no-watcher: update here instead)\n'), 1500)
    : undefined;
  const reply = await askWatcher(requestOf(args)).finally(() => clearTimeout(waiting));
  if (!reply) return false;
  if (!reply.ok) {
    if (reply.declined) return false;
    // A background updater is only a cache of this very work: when it fails, update here.
    if (reply.by === 'resident') {
      process.stderr.write(`synaptic: the background updater could not update (${reply.error}); updating in this process\n`);
      return false;
    }
    throw new Error(`the process that keeps this folder current (a watcher, server or background updater) could not update: ${reply.error}`);
  }
  const by = reply.by === 'resident' ? 'the background updater' : reply.by === 'server' ? 'the server' : 'the watcher';
  printSummary({ ...reply.summary, watcherPid: reply.pid }, args.json, ` (by ${by}, pid ${reply.pid})`);
  return true;
}

function extractOptionsOf(args: ExtractArgs): ExtractOptions {
  return {
    root: args.root,
    outDir: args.outDir,
    ...(args.maxFileSize !== undefined ? { maxFileSize: args.maxFileSize } : {}),
    ...(args.workers !== undefined ? { workers: args.workers } : {}),
  };
}

async function residentUpdates(args: ExtractArgs, idleMinutes: number, replace: boolean): Promise<number> {
  // The socket is bound while the pipeline loads: a `synaptic update` run right after the one that
  // started this process then waits for it instead of updating on its own.
  const loading = import('../../extract/watch.node.ts').then(({ watchAndUpdate }) => watchAndUpdate(extractOptionsOf(args), {
    requestsOnly: true,
    onUpdate: (summary, trigger) => process.stderr.write(`${new Date().toISOString()} ${summaryLine(summary)}${trigger ? ` (after ${trigger})` : ''}\n`),
    onError: (err) => process.stderr.write(`${new Date().toISOString()} synaptic: cannot update: ${err instanceof Error ? err.message : String(err)}\n`),
  }));
  return serveAsResident(requestOf(args), idleMinutes, {
    updateNow: async () => (await loading).updateNow(),
    close: async () => (await loading).close(),
  }, replace);
}

async function watchUpdates(args: ExtractArgs, pollMs: number | undefined): Promise<number> {
  const { watchAndUpdate } = await import('../../extract/watch.node.ts');
  const handle = watchAndUpdate(
    extractOptionsOf(args),
    {
      ...(pollMs !== undefined ? { poll: true, pollMs } : {}),
      onUpdate: (summary, trigger) => {
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
