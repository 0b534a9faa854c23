/**
 * The staleness walker (a worker thread; see Freshener in freshen.ts): asked for a walk with the
 * repository root and the output folder, it answers with the first change StalenessCheck finds (an
 * edited, deleted or added file, see staleness.node.ts), or null when none, also for a missing or
 * foreign manifest. A big repository's walk is thousands of stats (~30 ms of CPU on prisma's 4.5k
 * files and 2k folders), so it runs here, never on the thread that answers calls.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { StalenessCheck } from './staleness.node.ts';

/** workerData that makes a thread the walker (importing this module anywhere else does nothing). */
export const WALKER_ROLE = 'synaptic-staleness-walker';

export interface WalkRequest {
  id: number;
  root: string;
  /** The output folder (its manifest and folder listings are what the tree is compared with). */
  outDir: string;
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

/** One check per output folder asked about (a Freshener asks about one), so what it saw carries over between walks. */
const checks = new Map<string, StalenessCheck>();

function firstChanged(root: string, outDir: string): string | null {
  const key = `${root}\0${outDir}`;
  let check = checks.get(key);
  if (!check) checks.set(key, (check = new StalenessCheck(root, outDir)));
  return check.firstChange();
}

if (parentPort && workerData === WALKER_ROLE) {
  const port = parentPort;
  let lowered = false;
  port.on('message', (msg: WalkRequest) => {
    const changed = firstChanged(msg.root, msg.outDir);
    // The first walk is the startup check the first calls wait for (beside the graph load): it runs
    // at normal priority, since idle priority starves it on a busy machine; every later one yields.
    if (!lowered) lowerPriority();
    lowered = true;
    port.postMessage({ id: msg.id, changed } satisfies WalkAnswer);
  });
}
