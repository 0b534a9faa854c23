// Timing helpers shared by the suites: one tinybench Bench per scenario, median latency in ms.
import { Bench } from 'tinybench';

export interface Runs {
  /** Timed runs per task (exact: the time budget is 0). */
  iterations: number;
  /** Untimed warm-up runs per task (JIT, page faults). */
  warmup: number;
}

export interface TaskTiming {
  name: string;
  /** Median latency, ms. */
  ms: number;
  /** Mean latency, ms. */
  mean: number;
  samples: number;
}

export interface Scenario {
  name: string;
  tasks: { name: string; fn: () => unknown; runs?: Runs }[];
  runs: Runs;
}

/** Run a named scenario; tasks with their own `runs` get their own Bench. Optionally prints tinybench's table. */
export async function measure(s: Scenario, verbose = false): Promise<Map<string, TaskTiming>> {
  const out = new Map<string, TaskTiming>();
  const groups = new Map<string, { runs: Runs; tasks: Scenario['tasks'] }>();
  for (const t of s.tasks) {
    const runs = t.runs ?? s.runs;
    const key = `${runs.iterations}/${runs.warmup}`;
    const g = groups.get(key) ?? { runs, tasks: [] };
    g.tasks.push(t);
    groups.set(key, g);
  }
  for (const { runs, tasks } of groups.values()) {
    const bench = new Bench({
      name: s.name,
      time: 0,
      iterations: runs.iterations,
      warmup: runs.warmup > 0,
      warmupIterations: runs.warmup,
      warmupTime: 0,
      throws: true,
    });
    for (const t of tasks) bench.add(t.name, t.fn, { async: false });
    await bench.run();
    if (verbose) {
      console.log(`-- ${s.name}`);
      console.table(bench.table());
    }
    for (const task of bench.tasks) {
      const r = task.result;
      if (r.state !== 'completed') throw new Error(`Cannot benchmark ${s.name} / ${task.name}: task ${r.state}`);
      out.set(task.name, { name: task.name, ms: r.latency.p50, mean: r.latency.mean, samples: r.latency.samplesCount });
    }
  }
  return out;
}

/** ms of a task that must exist. */
export function ms(t: Map<string, TaskTiming>, name: string): number {
  const v = t.get(name);
  if (!v) throw new Error(`Cannot read timing: no task ${name}`);
  return v.ms;
}
