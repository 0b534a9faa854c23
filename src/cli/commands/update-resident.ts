import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ExtractSummary } from '../../extract/pipeline.node.ts';
import { answerUpdates, residentLogPath, type UpdateRequest } from '../../extract/watch-socket.node.ts';
import type { ExtractArgs } from './extract-args.ts';

/**
 * The background updater. A fresh process spends most of a one-file update on start-up and on
 * reading its previous outputs back (on a 640k-line repository: 1.1-2.9 s, against about 0.3-0.8 s for
 * a process that kept them). So on a repository that size, `synaptic extract`, and `synaptic update`
 * when nothing answered it, start a detached `synaptic update --resident` after their run; that process reads the
 * outputs back into memory while idle, answers the next `synaptic update` runs of the output folder,
 * and exits after some idle time, when a watcher or server takes over the folder, or when the
 * repository is gone.
 * SYNAPTIC_RESIDENT=0 turns it off (and it is off under CI); SYNAPTIC_RESIDENT=1 forces it.
 */

export const RESIDENT_IDLE_MINUTES = 30;

/**
 * Watchers and the background updater run with a larger young generation: most of what an update
 * allocates (the link indexes, the new graph document, the encoders' tables) dies with the update,
 * and with room for it there it is not promoted and swept by a major GC every update (measured on
 * prisma: one-file updates ~15% faster, ~100 MB more resident). V8 sizes it at start-up.
 */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size';
export const YOUNG_GENERATION_MB = 64;

/** graph.cbor size from which a fresh process's update takes about a second or more here. */
const RESIDENT_MIN_GRAPH_BYTES = 4 << 20;

/** Whether `synaptic update` of `outDir` should start a background updater (none answered it). */
export function residentWanted(outDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const setting = (env.SYNAPTIC_RESIDENT ?? '').trim().toLowerCase();
  if (['0', 'off', 'false', 'no'].includes(setting)) return false;
  if (['1', 'on', 'true', 'yes'].includes(setting)) return true;
  // CI jobs update once and leave: a process staying behind would only hold memory (or the job).
  const ci = (env.CI ?? '').trim().toLowerCase();
  if (ci && ci !== '0' && ci !== 'false') return false;
  try {
    return statSync(join(outDir, 'graph.cbor')).size >= RESIDENT_MIN_GRAPH_BYTES;
  } catch {
    return false;
  }
}

/** Idle minutes before the background updater exits: SYNAPTIC_RESIDENT_IDLE_MINUTES, else the default. */
export function residentIdleMinutes(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.SYNAPTIC_RESIDENT_IDLE_MINUTES);
  return Number.isFinite(value) && value > 0 ? value : RESIDENT_IDLE_MINUTES;
}

/** {@link startResident}, saying so on a TTY. */
export function startResidentFor(args: ExtractArgs, options: { replace?: boolean } = {}): void {
  const pid = startResident(args, options);
  if (pid !== null && process.stderr.isTTY) {
    process.stderr.write(`synaptic: started background updater ${pid}: it keeps this folder's outputs in memory and does the next \`synaptic update\` runs (faster); it exits after ${residentIdleMinutes()} min idle (SYNAPTIC_RESIDENT=0: never start one)\n`);
  }
}

/**
 * Start the background updater of `args.outDir` (detached; it reads the outputs in while idle) and
 * return its pid, or null when it could not be spawned. A second one started meanwhile for the same
 * folder finds the first and exits.
 */
export function startResident(args: ExtractArgs, options: { replace?: boolean } = {}): number | null {
  const argv = [
    `${YOUNG_GENERATION_FLAG}=${YOUNG_GENERATION_MB}`,
    ...process.execArgv.filter((a) => !a.startsWith('--max-semi-space-size')),
    process.argv[1]!, 'update', '--resident', args.root, '--out', args.outDir,
    ...(args.maxFileSize !== undefined ? ['--max-file-size', String(args.maxFileSize)] : []),
    ...(args.workers !== undefined ? ['--workers', String(args.workers)] : []),
    '--idle-exit', String(residentIdleMinutes()),
    ...(options.replace ? ['--replace'] : []),
  ];
  let log: number | 'ignore' = 'ignore';
  try {
    log = openSync(residentLogPath(args.outDir), 'w', 0o600);
  } catch {
    // no log then
  }
  try {
    // Its own session: Ctrl-C in this terminal does not reach it, and this process exits at once.
    const child = spawn(process.execPath, argv, { cwd: args.root, detached: true, stdio: ['ignore', 'ignore', log], windowsHide: true });
    child.on('error', () => {});
    child.unref();
    return child.pid ?? null;
  } catch {
    return null;
  } finally {
    if (typeof log === 'number') closeSync(log);
  }
}

/**
 * `synaptic update --resident`: answer the update requests of `request.outDir` until idle for
 * `idleMinutes`, retired by a watcher or server of the folder, signalled, or the folders are gone.
 */
export async function serveAsResident(
  request: UpdateRequest,
  idleMinutes: number,
  handle: { updateNow(): Promise<ExtractSummary>; close(): Promise<void> },
  replace = false,
): Promise<number> {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let idle: NodeJS.Timeout | undefined;
  let busy = 0;
  // The idle timer is also what keeps this process alive between requests (the socket does not).
  const arm = (): void => {
    clearTimeout(idle);
    idle = setTimeout(stop, idleMinutes * 60_000);
  };
  // With `replace` (the updater a new extract starts): take over from one already there, whose kept outputs are stale.
  const socket = await answerUpdates(request, 'resident', async () => {
    busy++;
    clearTimeout(idle);
    try {
      return await handle.updateNow();
    } finally {
      if (--busy === 0) arm();
    }
  }, { onRetire: () => stop(), takeOver: replace });
  if (!socket.serving) {
    // Another process answers for this folder already.
    await handle.close();
    return 0;
  }
  process.stderr.write(`synaptic: background updater ${process.pid} answers \`synaptic update\` of ${request.outDir} (exits after ${idleMinutes} min idle)\n`);
  arm();
  // A deleted checkout or output folder (temp folders, a clean-up): nothing left to keep.
  const gone = setInterval(() => {
    if (!existsSync(request.root) || !existsSync(request.outDir)) stop();
  }, 30_000);
  gone.unref();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop());
  await stopped;
  clearTimeout(idle);
  clearInterval(gone);
  await socket.close();
  await handle.close();
  process.stderr.write(`synaptic: background updater ${process.pid} stopped\n`);
  return 0;
}
