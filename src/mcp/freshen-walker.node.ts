/**
 * The staleness walker (a worker thread; see Freshener in freshen.ts): asked for a walk with the
 * repository root and the manifest path, it answers with the first extracted file whose size or mtime
 * differs from the manifest (or that is gone), or null when none does, also for a missing or foreign
 * manifest. A big repository's walk is thousands of stats (~30 ms of CPU on prisma's 4.5k files), so it
 * runs here, never on the thread that answers calls. The manifest is re-read only when its mtime or
 * size changed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { parseManifest } from '../graph/manifest.ts';

/** workerData that makes a thread the walker (importing this module anywhere else does nothing). */
export const WALKER_ROLE = 'synaptic-staleness-walker';

export interface WalkRequest {
  id: number;
  root: string;
  manifest: string;
}

export interface WalkAnswer {
  id: number;
  changed: string | null;
}

/**
 * On Linux a nice value is per thread: the walk then takes only CPU the serving threads leave idle.
 * Better still, SCHED_IDLE (util-linux chrt, on this thread's id): the kernel then counts a core that
 * runs only the walk as idle when it places a woken thread, so a client woken by a reply lands there
 * instead of preempting the serving thread (nice 19 alone still cost that thread 15-20% of its time
 * while a walk ran). Without chrt the thread stays at nice 19.
 */
function lowerPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(19);
  } catch {
    // not permitted: normal priority
  }
  try {
    const tid = readlinkSync('/proc/thread-self').split('/').pop()!;
    execFileSync('chrt', ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 2000 });
  } catch {
    // no chrt, or refused: nice 19 only
  }
}

type Entry = [rel: string, size: number, mtimeMs: number];
let cached: { path: string; stamp: string; entries: Entry[] } | undefined;

function entriesOf(path: string): Entry[] {
  let stamp: string;
  try {
    const st = statSync(path);
    stamp = `${st.mtimeMs}:${st.size}`;
  } catch {
    return [];
  }
  if (cached?.path !== path || cached.stamp !== stamp) {
    let entries: Entry[] = [];
    try {
      const manifest = parseManifest(readFileSync(path, 'utf8'));
      if (manifest) entries = Object.entries(manifest.files).map(([rel, e]) => [rel, e.size, e.mtime_ms]);
    } catch {
      // unreadable: nothing to compare
    }
    cached = { path, stamp, entries };
  }
  return cached.entries;
}

function firstChanged(root: string, manifest: string): string | null {
  for (const [rel, size, mtime] of entriesOf(manifest)) {
    let st;
    try {
      st = statSync(join(root, rel));
    } catch {
      return rel; // deleted
    }
    if (st.size !== size || Math.abs(st.mtimeMs - mtime) > 1) return rel;
  }
  return null;
}

if (parentPort && workerData === WALKER_ROLE) {
  const port = parentPort;
  lowerPriority();
  port.on('message', (msg: WalkRequest) => {
    port.postMessage({ id: msg.id, changed: firstChanged(msg.root, msg.manifest) } satisfies WalkAnswer);
  });
}
